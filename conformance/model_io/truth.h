// Which of the invariants MI1-MI12 a model_io.json breaks, each judged on its own by the spec's
// own expressions (§5), whatever else is wrong with the file. The verifier (reference/model_io)
// reports what a careful verifier reports and may stop early (it checks no element of a list over
// 10,000 interactions, and cites a field table where an invariant also fails); the judge of
// `validate` answers asks a different question: is the invariant an implementation names really
// broken? A repeated member name is read both ways (first and last occurrence), so an invariant
// broken under either reading counts.
#ifndef ARCS_CONFORMANCE_MODEL_IO_TRUTH_H_
#define ARCS_CONFORMANCE_MODEL_IO_TRUTH_H_

#include <set>
#include <string>

#include "reference/core/json.h"

namespace arcs::conformance::model_io {

std::set<std::string> BrokenInvariants(const json::Value& session);

}  // namespace arcs::conformance::model_io

#endif  // ARCS_CONFORMANCE_MODEL_IO_TRUTH_H_
