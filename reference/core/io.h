// Whole-file reading for small inputs (manifests, catalogues, vector files). Large recordings are
// never read whole: they stream through jsonl::LineReader.
#ifndef ARCS_REFERENCE_CORE_IO_H_
#define ARCS_REFERENCE_CORE_IO_H_

#include <string>

#include "reference/core/status.h"

namespace arcs {

Result<std::string> ReadFile(const std::string& path);

// Replaces a regular file whole or not at all (written beside it, then renamed over it), so a
// failed write never leaves the previous content truncated. A device or pipe is written in
// place.
Status WriteFile(const std::string& path, std::string_view bytes);

// Whether WriteFile(path) can be expected to work: not a directory, and the file (when it
// exists) or its folder writable. For checking an output path before a long run.
Status CheckWritable(const std::string& path);

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_IO_H_
