// The Lightbox v1 format module (conformance/format.h): its limits, operations, rules and
// validator as the rest of ARCS sees them. Only conformance/registry.cc includes this.
#ifndef ARCS_CONFORMANCE_LIGHTBOX_MODULE_H_
#define ARCS_CONFORMANCE_LIGHTBOX_MODULE_H_

#include "conformance/format.h"
#include "reference/lightbox/lightbox.h"

namespace arcs::conformance::lightbox {

const FormatModule& Module();

// The reference's limits from the module's limit values.
arcs::lightbox::Limits ToLightboxLimits(const LimitValues& values);

}  // namespace arcs::conformance::lightbox

#endif  // ARCS_CONFORMANCE_LIGHTBOX_MODULE_H_
