#include "reference/core/io.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "reference/core/pages_faulted_ahead.h"

namespace arcs {
namespace {

Status Failed(const std::string& path, int error) {
  return Status(StatusCode::kIoError, path + ": " + std::strerror(error));
}

// Writes `bytes` to `fd` and closes it; a failure names `path` (the file the caller asked for,
// not a temporary one).
Status WriteAndClose(int fd, const std::string& path, std::string_view bytes) {
  int error = 0;
  while (!bytes.empty() && error == 0) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno != EINTR) error = errno;
    if (n > 0) bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  if (::close(fd) != 0 && error == 0 && errno != EINTR) error = errno;
  return error == 0 ? Status::Ok() : Failed(path, error);
}

// Writes straight into `path` (truncating it).
Status WriteInPlace(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return Failed(path, errno);
  return WriteAndClose(fd, path, bytes);
}

// A new file beside `path` (*name) to hold its next content: created exclusively (O_EXCL,
// O_NOFOLLOW) under a random name, so that nothing planted beside the target (a symbolic link at
// a name one could guess, "PATH.tmp.PID" once) is followed or written through. Not mkstemp, which
// creates the file 0600: a report replaced so would turn private; open gives 0666 less the umask,
// as any other file the user creates.
Result<int> CreateBeside(const std::string& path, std::string* name) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::uint64_t random = 0;
    if (::getrandom(&random, sizeof random, 0) != sizeof random) return Failed(path, errno);
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".tmp.%016llx", static_cast<unsigned long long>(random));
    *name = path + suffix;
    const int fd =
        ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) return Failed(path, errno);
  }
  return Status(StatusCode::kIoError, path + ": no free name for a temporary file beside it");
}

std::string Directory(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

Status TooLarge(const std::string& name, std::size_t max_bytes) {
  return Status(StatusCode::kLimitExceeded,
                name + ": larger than " + std::to_string(max_bytes) + " bytes, the most read");
}

// The rest of `fd`, whose size nothing tells (`arcs report /dev/zero` took 5.4 s and 2.1 GB to stop
// at its 1.1 GB bound when one string grew by doubling).
Result<std::string> ReadUnknownSize(int fd, const std::string& name, std::size_t max_bytes) {
  const auto read_some = [fd, &name](char* into, std::size_t n) -> Result<std::size_t> {
    for (;;) {
      const ssize_t read = ::read(fd, into, n);
      if (read >= 0) return static_cast<std::size_t>(read);
      if (errno != EINTR) return Failed(name, errno);
    }
  };
  return ReadInBlocks(read_some, max_bytes, TooLarge(name, max_bytes));
}

// Reads the rest of `fd` into a string reserved for `expected` bytes (a regular file's size) and
// a little more, so that a file read whole is held once: growing by doubling would hold it twice
// at the moment of a copy, and a parser in place appends its padding to the same buffer. The pages
// of a large file are faulted in on a second core meanwhile, ahead of the reads (PagesFaultedAhead
// says by how much that helps).
Result<std::string> ReadExpecting(int fd, const std::string& name, std::size_t max_bytes,
                                  std::size_t expected) {
  if (expected == 0) return ReadUnknownSize(fd, name, max_bytes);
  std::string bytes;
  bytes.reserve(std::min(expected, max_bytes) + 64);
  const PagesFaultedAhead faulted_ahead(bytes.data(), bytes.capacity());
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Failed(name, errno);
    if (n == 0) return bytes;
    if (bytes.size() + static_cast<std::size_t>(n) > max_bytes) return TooLarge(name, max_bytes);
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

// What a file that OpenToRead refuses is, or nullptr for one it opens.
const char* Refused(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO, not a regular file; not read";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file; not read";
  return nullptr;
}

}  // namespace

Result<std::string> ReadInBlocks(const ReadSome& read_some, std::size_t max_bytes,
                                 const Status& too_large) {
  struct Block {
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
    std::size_t capacity = 0;
  };
  constexpr std::size_t kFirstBlock = 64 * 1024;
  constexpr std::size_t kLargestBlock = 64 * 1024 * 1024;
  std::vector<Block> blocks;
  std::size_t total = 0;
  for (;;) {
    if (blocks.empty() || blocks.back().size == blocks.back().capacity) {
      const std::size_t doubled =
          blocks.empty() ? kFirstBlock : std::min(2 * blocks.back().capacity, kLargestBlock);
      const std::size_t room = max_bytes - total;  // and one byte more, to see it is over
      const std::size_t capacity = room < doubled ? room + 1 : doubled;
      blocks.push_back({std::make_unique_for_overwrite<char[]>(capacity), 0, capacity});
    }
    Block& block = blocks.back();
    const Result<std::size_t> n =
        read_some(block.bytes.get() + block.size, block.capacity - block.size);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    if (total + *n > max_bytes) return too_large;
    total += *n;
    block.size += *n;
  }
  std::string bytes;
  bytes.reserve(total + 64);
  for (Block& block : blocks) {
    bytes.append(block.bytes.get(), block.size);
    block.bytes.reset();
  }
  return bytes;
}

Result<int> OpenToRead(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Failed(path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return Failed(path, error);
  }
  if (const char* refused = Refused(st.st_mode)) {
    ::close(fd);
    return Status(StatusCode::kIoError, path + ": " + refused);
  }
  return fd;
}

Result<std::string> ReadAll(int fd, const std::string& name, std::size_t max_bytes) {
  return ReadExpecting(fd, name, max_bytes, 0);
}

Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes) {
  const Result<int> fd = OpenToRead(path);
  if (!fd.ok()) return fd.status();
  struct stat st {};
  const bool regular = ::fstat(*fd, &st) == 0 && S_ISREG(st.st_mode);
  Result<std::string> bytes =
      ReadExpecting(*fd, path, max_bytes, regular ? static_cast<std::size_t>(st.st_size) : 0);
  ::close(*fd);
  return bytes;
}

Status CheckWritable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status(StatusCode::kIoError, path + ": is a directory");
    if (::access(path.c_str(), W_OK) != 0) return Failed(path, errno);
    return Status::Ok();
  }
  // A parent that is a file passes access(W_OK) for root, and only the write would fail.
  const std::string dir = Directory(path);
  if (::stat(dir.c_str(), &st) != 0) return Failed(dir, errno);
  if (!S_ISDIR(st.st_mode)) return Status(StatusCode::kIoError, dir + ": not a directory");
  if (::access(dir.c_str(), W_OK) != 0) return Failed(dir, errno);
  return Status::Ok();
}

Status WriteFile(const std::string& path, std::string_view bytes) {
  struct stat st {};
  // A device or a pipe (/dev/stdout, a FIFO) is written as it is: it cannot be replaced.
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return Status(StatusCode::kIoError, path + ": is a directory");
    return WriteInPlace(path, bytes);
  }
  // A file is replaced whole or not at all: written beside it, then renamed over it.
  std::string temporary;
  const Result<int> fd = CreateBeside(path, &temporary);
  if (!fd.ok()) return fd.status();
  Status written = WriteAndClose(*fd, path, bytes);
  if (written.ok() && std::rename(temporary.c_str(), path.c_str()) != 0) {
    written = Failed(path, errno);
  }
  if (!written.ok()) ::unlink(temporary.c_str());
  return written;
}

}  // namespace arcs
