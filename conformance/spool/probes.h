// Spool's resource probes, for the module (conformance/spool/module.cc).
#ifndef ARCS_CONFORMANCE_SPOOL_PROBES_H_
#define ARCS_CONFORMANCE_SPOOL_PROBES_H_

#include <vector>

#include "conformance/format.h"

namespace arcs::conformance::spool {

std::vector<ResourceProbe> ResourceProbes();

}  // namespace arcs::conformance::spool

#endif  // ARCS_CONFORMANCE_SPOOL_PROBES_H_
