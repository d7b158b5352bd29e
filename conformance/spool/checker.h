// The Spool 1.0 validator: the verdict on a *file* (spool.md §3-§11), as findings that each cite a
// requirement of conformance/spool/requirements.json. Reader tolerance is a separate question,
// answered by reference/spool/spool.h.
//
// It streams: memory grows with the longest line and with about 40 bytes per entry for the
// cross-entry rules (ids, types, timestamps, pending forward references), never with content.
#ifndef ARCS_CONFORMANCE_SPOOL_CHECKER_H_
#define ARCS_CONFORMANCE_SPOOL_CHECKER_H_

#include <memory>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/spool/spool.h"

namespace arcs::conformance::spool {

// Checks the whole source and adds every finding to *diagnostics (sorted). The file is valid when
// no finding is an error.
void Validate(jsonl::ByteSource* source, const arcs::spool::Limits& limits,
              Diagnostics* diagnostics);

// Every requirement id the validator can cite, for the catalogue cross-check. A finding's level
// is its requirement's level in the catalogue.
std::vector<std::string_view> AllRules();

}  // namespace arcs::conformance::spool

#endif  // ARCS_CONFORMANCE_SPOOL_CHECKER_H_
