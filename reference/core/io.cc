#include "reference/core/io.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace arcs {

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::kIoError, path + ": " + std::strerror(errno));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Status(StatusCode::kIoError, path + ": read failed");
  return bytes.str();
}

Status WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status(StatusCode::kIoError, path + ": " + std::strerror(errno));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status(StatusCode::kIoError, path + ": write failed");
  return Status::Ok();
}

}  // namespace arcs
