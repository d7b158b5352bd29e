// `arcs model-io hash FILE`: the ModelIOHash a user puts in run.json's model_io_hash.
#ifndef ARCS_CONFORMANCE_MODEL_IO_VERBS_H_
#define ARCS_CONFORMANCE_MODEL_IO_VERBS_H_

#include <vector>

#include "conformance/format.h"

namespace arcs::conformance::model_io {

std::vector<VerbSpec> Verbs();

}  // namespace arcs::conformance::model_io

#endif  // ARCS_CONFORMANCE_MODEL_IO_VERBS_H_
