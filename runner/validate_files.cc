#include "runner/validate_files.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "conformance/registry.h"

namespace arcs::runner {
namespace {

class Walker {
 public:
  Walker(const conformance::FormatModule* only, const std::function<void(const FoundFile&)>& found,
         const WalkFailure& failed)
      : only_(only), found_(found), failed_(failed) {}

  void Walk(const std::string& dir);
  std::uint64_t count() const { return count_; }

 private:
  struct Entry {
    std::string key;  // the name, and '/' after a folder's: sorting keys sorts whole paths
    std::string path;
    bool folder = false;
    int error = 0;  // why it could not be told a file or a folder, or 0
  };
  const conformance::FormatModule* Claim(const std::string& path) const;
  void Fail(const std::string& path, int error) {
    failed_(path, path + ": " + std::strerror(error));
  }

  const conformance::FormatModule* only_;
  const std::function<void(const FoundFile&)>& found_;
  const WalkFailure& failed_;
  std::set<std::pair<dev_t, ino_t>> walked_;
  std::uint64_t count_ = 0;
};

const conformance::FormatModule* Walker::Claim(const std::string& path) const {
  // Should the regular file have become a FIFO since it was listed, it is refused instead of
  // waited for. With --format F, F's sniffer reads every file no other format's name claims: a
  // session's events.jsonl renamed is still F's; without it, only the formats whose files have
  // no name of their own are told by content (a .jsonl is not read as Lightbox by chance).
  const Result<conformance::Detection> told = conformance::DetectFormat(
      path, [&] { return conformance::ReadSniffBytes(path); },
      only_ ? conformance::Sniffing::kAnyFormat : conformance::Sniffing::kUnnamedFormatsOnly,
      only_);
  if (!told.ok()) failed_(path, told.status().message());
  return told.ok() ? told->format : nullptr;
}

void Walker::Walk(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return Fail(dir, errno);
  if (!walked_.insert({st.st_dev, st.st_ino}).second) return;
  DIR* listing = ::opendir(dir.c_str());
  if (!listing) return Fail(dir, errno);
  std::vector<Entry> entries;
  const std::string prefix = dir.ends_with('/') ? dir : dir + "/";
  for (errno = 0; const dirent* e = ::readdir(listing); errno = 0) {
    const std::string name = e->d_name;
    if (name.starts_with('.')) continue;  // ".", ".." and hidden entries
    const std::string path = prefix + name;
    if (::stat(path.c_str(), &st) != 0) {  // a dangling link, a link loop: it may be anything
      entries.push_back({name, path, false, errno});
    } else if (S_ISDIR(st.st_mode)) {
      entries.push_back({name + "/", path, true});
    } else if (S_ISREG(st.st_mode)) {
      entries.push_back({name, path, false});
    }
  }
  if (errno != 0) Fail(dir, errno);
  ::closedir(listing);  // before going deeper: a deep tree must not hold a descriptor per level
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.key < b.key; });
  for (const Entry& entry : entries) {
    if (entry.error != 0) {
      Fail(entry.path, entry.error);
    } else if (entry.folder) {
      Walk(entry.path);
    } else if (const conformance::FormatModule* format = Claim(entry.path)) {
      ++count_;
      found_({entry.path, format});
    }
  }
}

}  // namespace

std::uint64_t WalkFolder(const std::string& dir, const conformance::FormatModule* only,
                         const std::function<void(const FoundFile&)>& found,
                         const WalkFailure& failed) {
  Walker walker(only, found, failed);
  walker.Walk(dir);
  return walker.count();
}

}  // namespace arcs::runner
