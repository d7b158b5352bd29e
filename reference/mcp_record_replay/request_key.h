// The by-request matcher's key of a JSON-RPC request (errata MRR-E29 to MRR-E32): its method and
// the SHA-256 of its params as RFC 8785 writes them, the params' own `_meta` member left out (and
// an initialize request's `clientInfo`, the client's identity: errata MRR-E50), absent or null
// params read as {}. Two requests share a key exactly when a by-request replayer
// must treat them as the same request.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REQUEST_KEY_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REQUEST_KEY_H_

#include <string>
#include <string_view>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::mcp_record_replay {

// The method, a NUL, and the 32 bytes of the digest. kInvalidArgument for params RFC 8785 has no
// canonical form for (a repeated member name, a number beyond the doubles): such a request has no
// key, so it is never matched by request.
Result<std::string> RequestKey(std::string_view method, const json::Value* params);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REQUEST_KEY_H_
