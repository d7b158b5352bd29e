// The SessionData 1.0 format module (conformance/format.h): its limits, the statement policy,
// its operations (validate, render), rules and validator as the rest of ARCS sees them. Only
// conformance/registry.cc includes this.
#ifndef ARCS_CONFORMANCE_SESSION_DATA_MODULE_H_
#define ARCS_CONFORMANCE_SESSION_DATA_MODULE_H_

#include "conformance/format.h"
#include "reference/session_data/session_data.h"

namespace arcs::conformance::session_data {

const FormatModule& Module();

// The reference's limits from the module's limit values.
arcs::session_data::Limits ToSessionDataLimits(const LimitValues& values);

}  // namespace arcs::conformance::session_data

#endif  // ARCS_CONFORMANCE_SESSION_DATA_MODULE_H_
