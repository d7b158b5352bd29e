// `arcs lightbox verify` and `arcs lightbox hash`: the chain for people (conformance/format.h
// VerbSpec). They return text; the runner escapes and prints it.
#ifndef ARCS_CONFORMANCE_LIGHTBOX_VERBS_H_
#define ARCS_CONFORMANCE_LIGHTBOX_VERBS_H_

#include <vector>

#include "conformance/format.h"

namespace arcs::conformance::lightbox {

std::vector<VerbSpec> Verbs();

}  // namespace arcs::conformance::lightbox

#endif  // ARCS_CONFORMANCE_LIGHTBOX_VERBS_H_
