// Whole-file reading for small inputs (manifests, catalogues, vector files). Large recordings are
// never read whole: they stream through jsonl::LineReader.
#ifndef ARCS_REFERENCE_CORE_IO_H_
#define ARCS_REFERENCE_CORE_IO_H_

#include <cstddef>
#include <string>

#include "reference/core/status.h"

namespace arcs {

// Files read whole are small, and must stay so whatever a path names (/dev/zero, a FIFO that
// never ends, a huge file given by mistake): reading stops after max_bytes with kLimitExceeded.
inline constexpr std::size_t kMaxReadBytes = std::size_t{64} << 20;

// The whole content of `path`. A directory, a missing or unreadable file is an I/O error naming
// the path and the reason ("is a directory", the errno text).
Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes = kMaxReadBytes);

// The rest of an open descriptor (standard input, say), named `name` in errors; same bound.
Result<std::string> ReadAll(int fd, const std::string& name, std::size_t max_bytes = kMaxReadBytes);

// Replaces a regular file whole or not at all (written beside it, then renamed over it), so a
// failed write never leaves the previous content truncated. A device or pipe is written in
// place.
Status WriteFile(const std::string& path, std::string_view bytes);

// Whether WriteFile(path) can be expected to work: not a directory, and the file (when it
// exists) or its folder writable. For checking an output path before a long run.
Status CheckWritable(const std::string& path);

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_IO_H_
