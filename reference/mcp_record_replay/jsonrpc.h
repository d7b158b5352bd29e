// JSON-RPC 2.0 messages as TJ-SPEC-010 records them (a recording's `msg`): what kind a message is
// and where it departs from the shape JSON-RPC 2.0 gives each kind. The recording format leaves
// `msg` to JSON-RPC ("msg": { "type": "object", "description": "JSON-RPC message" }), so this is
// where its shape is read (errata MRR-E26: how the kinds are told apart).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_JSONRPC_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_JSONRPC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/keyed_hash.h"

namespace arcs::mcp_record_replay {

// kOther: none of the four (a batch, an object with neither method nor a response's members).
enum class MessageKind : std::uint8_t { kRequest, kNotification, kResponse, kError, kOther };
std::string_view MessageKindName(MessageKind kind);  // "request", "notification", ...

// Where a message departs from JSON-RPC 2.0, each a sentence of its §4-§5.
enum class Departure : std::uint8_t {
  kNoKind,          // none of request, notification or response
  kVersion,         // jsonrpc missing or not exactly "2.0" (MUST)
  kMethodType,      // method present and not a String
  kIdType,          // id neither a String, a Number nor Null (MUST)
  kIdDiscouraged,   // a request's id Null, or a Number with a fractional part (SHOULD NOT)
  kParamsType,      // params present and not a Structured value (MUST)
  kResultAndError,  // a response with both result and error (MUST NOT)
  kErrorObject,     // error not an object with an integer code and a String message (MUST)
};

struct Issue {
  Departure departure;
  std::string message;  // one line: the member and what is wrong, quoting values as excerpts
};

struct Classified {
  MessageKind kind = MessageKind::kOther;
  const json::Value* id = nullptr;      // requests, responses, errors
  std::string_view method;              // requests and notifications
  const json::Value* params = nullptr;  // requests and notifications, when present
  std::vector<Issue> issues;            // empty when the message is well formed
};

// Classifies a message (errata MRR-E26): a string `method` with an `id` member (null included) is
// a request, without one a notification; no `method`, an `id` and `result` is a response, with
// `error` an error response (result and error both: an error response with an issue). Anything
// else is kOther. Then lists how the message departs from JSON-RPC 2.0. A member written twice is
// read as its last, as serde_json::Value and Python's json read msg (errata MRR-E24 last-wins).
Classified Classify(const json::Value& msg);

// The message (an object) as compact JSON with `id` as its id: a recorded response served with the
// live request's id (errata MRR-E37), or an id passthrough maps. Every other member as given, a
// repeated name once with its last value (MRR-E24 last-wins); an id is added when there is none.
std::string WithId(const json::Value& message, const json::Value& id);

// Requests waiting for their response, by id, each with a payload of the caller's (an index):
// ids compare as JSON values (errata MRR-E28), strings exactly and numbers by value, so `1` and
// `1.0` are one id; repeated ids wait in order. Only a string or a number is an id a response can
// answer (JSON-RPC 2.0 §4: a null id is discouraged, and no other kind is an id): any other is
// never waiting. Ids are the peers' choice, so each is found in constant time whatever they are
// (keyed_hash.h; numbers by exact value, json::ValueKey). Memory: an id's key per distinct id.
class PendingIds {
 public:
  void Add(const json::Value& id, std::uint64_t payload);
  // The payload of the earliest waiting request whose id equals `id`, which stops waiting; none
  // for a response to no request.
  std::optional<std::uint64_t> Take(const json::Value& id);

 private:
  // The payloads of an id's requests, the first `taken` of them answered (dropped once they are
  // half). Not a std::deque, which allocates a 512-byte block for every id that waits.
  struct Waiting {
    std::vector<std::uint64_t> payloads;
    std::size_t taken = 0;
  };
  KeyedStringMap<Waiting> waiting_;  // by "s" + string, or "n" + ValueKey
};

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_JSONRPC_H_
