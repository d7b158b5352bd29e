// Whole-file reading for small inputs (manifests, catalogues, vector files). Large recordings are
// never read whole: they stream through jsonl::LineReader.
#ifndef ARCS_REFERENCE_CORE_IO_H_
#define ARCS_REFERENCE_CORE_IO_H_

#include <cstddef>
#include <functional>
#include <string>

#include "reference/core/status.h"

namespace arcs {

// Files read whole are small, and must stay so whatever a path names (/dev/zero, a huge file
// given by mistake): reading stops after max_bytes with kLimitExceeded.
inline constexpr std::size_t kMaxReadBytes = std::size_t{64} << 20;

// `path` opened for reading without ever waiting: O_NONBLOCK (left set: a terminal then fails a
// read instead of waiting for a key), and a FIFO or a socket refused, since one that nobody
// writes would block the open or the first read forever (a meta.json planted as a FIFO hung
// `arcs validate DIR`). A directory is refused too. Regular files and other devices (/dev/zero,
// which a bound stops) are opened. Refusals and failures are I/O errors naming the path and the
// reason ("is a directory", "is a FIFO, ...", the errno text); the caller closes the descriptor.
Result<int> OpenToRead(const std::string& path);

// The whole content of `path`, opened by OpenToRead (so a missing, unreadable or refused file is
// its I/O error).
Result<std::string> ReadFile(const std::string& path, std::size_t max_bytes = kMaxReadBytes);

// The rest of an open descriptor (standard input, say), named `name` in errors; same bound.
Result<std::string> ReadAll(int fd, const std::string& name, std::size_t max_bytes = kMaxReadBytes);

// A source read whole whose size nothing tells (a pipe, a device): `read_some` fills up to n bytes
// at `into` and says how many (0 at the end). Read into blocks that double, never past max_bytes,
// and joined once: growing one string copied all that was read at each doubling, and held both
// copies meanwhile. More than max_bytes: `too_large`. The string has a little spare room for a
// parser's padding.
using ReadSome = std::function<Result<std::size_t>(char* into, std::size_t n)>;
Result<std::string> ReadInBlocks(const ReadSome& read_some, std::size_t max_bytes,
                                 const Status& too_large);

// Replaces a regular file whole or not at all (written to a new file beside it, created under a
// random name with O_EXCL, then renamed over it), so a failed write never leaves the previous
// content truncated, and nothing planted beside it is written through. A device or pipe is
// written in place. Errors name `path`, never the temporary file.
Status WriteFile(const std::string& path, std::string_view bytes);

// Whether WriteFile(path) can be expected to work: not a directory, and the file (when it
// exists) or its folder writable. For checking an output path before a long run.
Status CheckWritable(const std::string& path);

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_IO_H_
