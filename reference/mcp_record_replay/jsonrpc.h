// JSON-RPC 2.0 messages as TJ-SPEC-010 records them (a recording's `msg`): what kind a message is
// and whether it has the shape the JSON-RPC 2.0 specification gives each kind. The recording
// format leaves `msg` to JSON-RPC ("msg": { "type": "object", "description": "JSON-RPC message" }),
// so this is where its shape is judged.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_JSONRPC_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_JSONRPC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"

namespace arcs::mcp_record_replay {

// kInvalid: not a JSON-RPC 2.0 message of any kind (the problems say why).
enum class MessageKind : std::uint8_t { kRequest, kNotification, kResponse, kError, kInvalid };
std::string_view MessageKindName(MessageKind kind);  // "request", "notification", ...

struct Classified {
  MessageKind kind = MessageKind::kInvalid;
  const json::Value* id = nullptr;      // requests, responses, errors (null for an error's null id)
  std::string_view method;              // requests and notifications
  const json::Value* params = nullptr;  // requests and notifications, when present
  // What breaks a MUST of JSON-RPC 2.0 §4-§5, one line each (the member and what is wrong); empty
  // when the message is well formed. A message may be classified and still have problems (a
  // request whose params is a string is a request with a problem).
  std::vector<std::string> problems;
  // What goes against a SHOULD: an id that is null in a request, or a number with a fraction.
  std::vector<std::string> cautions;
};

// Classifies a message by the members JSON-RPC 2.0 gives each kind: `method` makes a request (with
// `id`) or a notification (without); `result` a response, `error` an error response. Checks
// "jsonrpc": "2.0" (MUST be exactly), the type of id (String, Number or Null), method (a String),
// params (a Structured value: an array or an object), error (an object whose code MUST be an
// integer and message a String), and that a response has result or error, not both. Cautions: an
// id SHOULD normally not be Null and Numbers SHOULD NOT contain fractional parts (§4).
Classified Classify(const json::Value& msg);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_JSONRPC_H_
