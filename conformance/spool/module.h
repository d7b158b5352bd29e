// The Spool 1.0 format module (conformance/format.h): its limits, policies, operations, rules
// and validator as the rest of ARCS sees them. Only conformance/registry.cc includes this.
#ifndef ARCS_CONFORMANCE_SPOOL_MODULE_H_
#define ARCS_CONFORMANCE_SPOOL_MODULE_H_

#include "conformance/format.h"
#include "reference/spool/spool.h"

namespace arcs::conformance::spool {

const FormatModule& Module();

// The reader's and validator's limits from the module's limit values.
arcs::spool::Limits ToSpoolLimits(const LimitValues& values);

}  // namespace arcs::conformance::spool

#endif  // ARCS_CONFORMANCE_SPOOL_MODULE_H_
