// The Model IO 1.0.0 validator: the verdict on a model_io.json as findings that each cite a
// requirement of conformance/model_io/requirements.json: the file is one JSON document (I-JSON:
// no repeated names, as RFC 8785 needs), then every violation reference/model_io's Verify finds
// (MI1-MI11 and the field tables), each at its JSON Pointer.
#ifndef ARCS_CONFORMANCE_MODEL_IO_CHECKER_H_
#define ARCS_CONFORMANCE_MODEL_IO_CHECKER_H_

#include <string_view>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/model_io/model_io.h"

namespace arcs::conformance::model_io {

// Reads the whole file (up to limits.max_file_bytes) and adds every finding to *diagnostics. The
// file is valid when no finding is an error. Memory: about twice the file, since the text is kept
// to place JSON errors by line and column (`arcs model-io hash` validates in about one).
void Validate(jsonl::ByteSource* source, const arcs::model_io::Limits& limits,
              Diagnostics* diagnostics);

// Every requirement id the validator can cite, for the catalogue cross-check.
std::vector<std::string_view> AllRules();

}  // namespace arcs::conformance::model_io

#endif  // ARCS_CONFORMANCE_MODEL_IO_CHECKER_H_
