#include "reference/core/io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace arcs {
namespace {

Status Failed(const std::string& path, int error) {
  return Status(StatusCode::kIoError, path + ": " + std::strerror(error));
}

// Writes straight into `path` (truncating it).
Status WriteInPlace(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Failed(path, errno);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status(StatusCode::kIoError, path + ": write failed");
  return Status::Ok();
}

std::string Directory(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

namespace {

// Reads the rest of `fd` into a string reserved for `expected` bytes (a regular file's size) and
// a little more, so that a file read whole is held once: growing by doubling would hold it twice
// at the moment of a copy, and a parser in place appends its padding to the same buffer.
Result<std::string> ReadExpecting(int fd, const std::string& name, std::size_t max_bytes,
                                  std::size_t expected) {
  std::string bytes;
  if (expected > 0) bytes.reserve(std::min(expected, max_bytes) + 64);
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Failed(name, errno);
    if (n == 0) return bytes;
    if (bytes.size() + static_cast<std::size_t>(n) > max_bytes) {
      return Status(StatusCode::kLimitExceeded,
                    name + ": larger than " + std::to_string(max_bytes) + " bytes, the most read");
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

Result<std::string> ReadAll(int fd, const std::string& name, std::size_t max_bytes) {
  return ReadExpecting(fd, name, max_bytes, 0);
}

Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Failed(path, errno);
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status(StatusCode::kIoError, path + ": is a directory");
  }
  Result<std::string> bytes =
      ReadExpecting(fd, path, max_bytes, S_ISREG(st.st_mode) ? st.st_size : 0);
  ::close(fd);
  return bytes;
}

Status CheckWritable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status(StatusCode::kIoError, path + ": is a directory");
    if (::access(path.c_str(), W_OK) != 0) return Failed(path, errno);
    return Status::Ok();
  }
  const std::string dir = Directory(path);
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
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  if (Status s = WriteInPlace(temporary, bytes); !s.ok()) {
    std::remove(temporary.c_str());
    return Status(StatusCode::kIoError, s.message());
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    return Failed(path, error);
  }
  return Status::Ok();
}

}  // namespace arcs
