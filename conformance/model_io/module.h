// The Model IO 1.0.0 format module (conformance/format.h): its limits, policy, operations, rules
// and validator as the rest of ARCS sees them. Only conformance/registry.cc includes this.
#ifndef ARCS_CONFORMANCE_MODEL_IO_MODULE_H_
#define ARCS_CONFORMANCE_MODEL_IO_MODULE_H_

#include "conformance/format.h"
#include "reference/model_io/model_io.h"

namespace arcs::conformance::model_io {

const FormatModule& Module();

// The reference's limits from the module's limit values.
arcs::model_io::Limits ToModelIoLimits(const LimitValues& values);

}  // namespace arcs::conformance::model_io

#endif  // ARCS_CONFORMANCE_MODEL_IO_MODULE_H_
