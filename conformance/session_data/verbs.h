// `arcs session-data render FILE`: a session as a Markdown transcript (`arcs render FILE` finds
// this verb by the file's format).
#ifndef ARCS_CONFORMANCE_SESSION_DATA_VERBS_H_
#define ARCS_CONFORMANCE_SESSION_DATA_VERBS_H_

#include <vector>

#include "conformance/format.h"

namespace arcs::conformance::session_data {

std::vector<VerbSpec> Verbs();

}  // namespace arcs::conformance::session_data

#endif  // ARCS_CONFORMANCE_SESSION_DATA_VERBS_H_
