// Replays inputs through a fuzz target without libFuzzer, so every normal build (gcc or clang)
// compiles the targets and `make test` runs them over the seed corpus and the saved regressions.
//
//   <target>_replay PATH...
//
// Each PATH is a file, or a directory whose regular files are replayed recursively in sorted
// order. A missing path is an error (a renamed corpus directory must not pass silently). A target
// that finds a problem aborts, which fails the test.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

bool Collect(const fs::path& path, std::vector<fs::path>* files) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    std::fprintf(stderr, "replay: %s: no such file or directory\n", path.c_str());
    return false;
  }
  if (fs::is_regular_file(status)) {
    files->push_back(path);
    return true;
  }
  if (!fs::is_directory(status)) {
    std::fprintf(stderr, "replay: %s: not a file or directory\n", path.c_str());
    return false;
  }
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) found.push_back(it->path());
  }
  if (ec) {
    std::fprintf(stderr, "replay: %s: %s\n", path.c_str(), ec.message().c_str());
    return false;
  }
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

bool ReadFile(const fs::path& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> files;
  bool ok = true;
  for (int i = 1; i < argc; ++i) ok = Collect(argv[i], &files) && ok;
  if (!ok) return 1;

  std::size_t replayed = 0;
  std::string bytes;
  for (const fs::path& file : files) {
    if (!ReadFile(file, &bytes)) {
      std::fprintf(stderr, "replay: %s: cannot read\n", file.c_str());
      return 1;
    }
    // The name goes out first: if the target aborts, the log says which input did it.
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
    // A copy in an allocation of exactly its size (never null, even when empty, as with
    // libFuzzer), so ASan sees a read past the end of the input.
    std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), data.get());
    LLVMFuzzerTestOneInput(data.get(), bytes.size());
    ++replayed;
  }
  std::printf("replayed %zu inputs\n", replayed);
  return 0;
}
