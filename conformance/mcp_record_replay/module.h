// The TJ-SPEC-010 MCP record/replay module (conformance/format.h): its limits, the loader's two
// policies, the case arguments, its operations (validate, replay, convert), rules and validator as
// the rest of ARCS sees them. Only conformance/registry.cc includes this.
#ifndef ARCS_CONFORMANCE_MCP_RECORD_REPLAY_MODULE_H_
#define ARCS_CONFORMANCE_MCP_RECORD_REPLAY_MODULE_H_

#include "conformance/format.h"
#include "reference/mcp_record_replay/recording.h"

namespace arcs::conformance::mcp_record_replay {

const FormatModule& Module();

// The reference's limits from the module's limit values.
arcs::mcp_record_replay::Limits ToRecordingLimits(const LimitValues& values);

}  // namespace arcs::conformance::mcp_record_replay

#endif  // ARCS_CONFORMANCE_MCP_RECORD_REPLAY_MODULE_H_
