// `arcs mcp replay` (and `arcs mcp-record-replay replay`): a recording served as a mock MCP server
// on stdio; `arcs mcp record`: a recording proxy; `arcs mcp convert`: a recording as an attack
// config; `arcs mcp show` and `arcs mcp verify`, a recording's summary and its client side sent to
// a live server. The spec's §5 command lines, with ARCS's exit statuses.
#ifndef ARCS_CONFORMANCE_MCP_RECORD_REPLAY_VERBS_H_
#define ARCS_CONFORMANCE_MCP_RECORD_REPLAY_VERBS_H_

#include <vector>

#include "conformance/format.h"

namespace arcs::conformance::mcp_record_replay {

std::vector<VerbSpec> Verbs();

}  // namespace arcs::conformance::mcp_record_replay

#endif  // ARCS_CONFORMANCE_MCP_RECORD_REPLAY_VERBS_H_
