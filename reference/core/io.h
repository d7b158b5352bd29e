// Whole-file reading for small inputs (manifests, catalogues, vector files). Large recordings are
// never read whole: they stream through jsonl::LineReader.
#ifndef ARCS_REFERENCE_CORE_IO_H_
#define ARCS_REFERENCE_CORE_IO_H_

#include <string>

#include "reference/core/status.h"

namespace arcs {

Result<std::string> ReadFile(const std::string& path);
Status WriteFile(const std::string& path, std::string_view bytes);

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_IO_H_
