#include "reference/mcp_record_replay/jsonrpc.h"

#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

std::string Kind(const json::Value& v) { return json::DescribeKind(v.kind()); }

void Add(Classified* c, Departure d, std::string message) {
  c->issues.push_back({d, std::move(message)});
}

// An id (§4): a String, Number or Null; a request's SHOULD normally not be Null, and Numbers
// SHOULD NOT contain fractional parts.
void CheckId(const json::Value& id, bool request, Classified* c) {
  if (!id.is_string() && !id.is_number() && !id.is_null()) {
    Add(c, Departure::kIdType, "id is " + Kind(id) + ": it must be a string, a number or null");
  } else if (id.is_number() && !json::Classify(id.text()).integral) {
    Add(c, Departure::kIdDiscouraged,
        "id " + Excerpt(id.text(), 40) + ": numbers should not contain fractional parts");
  } else if (request && id.is_null()) {
    Add(c, Departure::kIdDiscouraged, "a request's id is null: it should normally not be");
  }
}

void CheckError(const json::Value& error, Classified* c) {
  const json::Value* code = error.FindLast("code");
  const json::Value* message = error.FindLast("message");
  if (!error.is_object()) {
    Add(c, Departure::kErrorObject, "error is " + Kind(error) + ": it must be an object");
  } else if (!code || !code->is_number() || !json::Classify(code->text()).integral) {
    Add(c, Departure::kErrorObject, "error.code must be an integer");
  } else if (!message || !message->is_string()) {
    Add(c, Departure::kErrorObject, "error.message must be a string");
  }
}

// A message with a string method: a request or a notification.
void Request(const json::Value& msg, Classified* c) {
  c->method = msg.FindLast("method")->text();
  c->id = msg.FindLast("id");
  c->kind = c->id ? MessageKind::kRequest : MessageKind::kNotification;
  if (c->id) CheckId(*c->id, true, c);
  c->params = msg.FindLast("params");
  if (c->params && !c->params->is_array() && !c->params->is_object()) {
    Add(c, Departure::kParamsType,
        "params is " + Kind(*c->params) + ": it must be an array or an object");
  }
}

// A message with no method, an id, and result or error.
void Response(const json::Value& msg, Classified* c) {
  const json::Value* error = msg.FindLast("error");
  c->id = msg.FindLast("id");
  c->kind = error ? MessageKind::kError : MessageKind::kResponse;
  CheckId(*c->id, false, c);
  if (error && msg.FindLast("result")) {
    Add(c, Departure::kResultAndError, "a response has both result and error");
  }
  if (error) CheckError(*error, c);
}

}  // namespace

std::string_view MessageKindName(MessageKind kind) {
  switch (kind) {
    case MessageKind::kRequest:
      return "request";
    case MessageKind::kNotification:
      return "notification";
    case MessageKind::kResponse:
      return "response";
    case MessageKind::kError:
      return "error";
    case MessageKind::kOther:
      return "other";
  }
  return "";
}

Classified Classify(const json::Value& msg) {
  Classified c;
  if (msg.is_object()) {
    const json::Value* version = msg.FindLast("jsonrpc");
    if (!version || !version->is_string() || version->text() != "2.0") {
      Add(&c, Departure::kVersion, "jsonrpc must be exactly \"2.0\"");
    }
    const json::Value* method = msg.FindLast("method");
    if (method && !method->is_string()) {
      Add(&c, Departure::kMethodType, "method is " + Kind(*method) + ": it must be a string");
    } else if (method) {
      Request(msg, &c);
    } else if (msg.FindLast("id") && (msg.FindLast("result") || msg.FindLast("error"))) {
      Response(msg, &c);
    }
  }
  if (c.kind == MessageKind::kOther) {
    Add(&c, Departure::kNoKind,
        "the message is no JSON-RPC request (method and id), notification (method) or response "
        "(id and result or error)");
  }
  return c;
}

namespace {

std::string Key(const json::Value& id) {
  return id.is_string() ? "s" + std::string(id.text()) : "n" + json::ValueKey(id.text());
}

}  // namespace

void PendingIds::Add(const json::Value& id, std::uint64_t payload) {
  if (id.is_string() || id.is_number()) waiting_[Key(id)].payloads.push_back(payload);
}

std::optional<std::uint64_t> PendingIds::Take(const json::Value& id) {
  if (!id.is_string() && !id.is_number()) return std::nullopt;
  const auto it = waiting_.find(Key(id));
  if (it == waiting_.end()) return std::nullopt;
  Waiting& waiting = it->second;
  const std::uint64_t payload = waiting.payloads[waiting.taken++];
  if (waiting.taken == waiting.payloads.size()) {
    waiting_.erase(it);
  } else if (waiting.taken * 2 > waiting.payloads.size()) {
    // Answered payloads are dropped once they are half: an id reused while another request with
    // it still waits keeps at most twice its waiting requests, at O(1) a request.
    waiting.payloads.erase(waiting.payloads.begin(),
                           waiting.payloads.begin() + static_cast<std::ptrdiff_t>(waiting.taken));
    waiting.taken = 0;
  }
  return payload;
}

std::string WithId(const json::Value& message, const json::Value& id) {
  std::string out = "{";
  for (const json::Member& m : message.members()) {
    if (message.FindLast(m.name) != &m.value) continue;
    if (out.size() > 1) out += ',';
    json::AppendQuoted(m.name, &out);
    out += ':';
    json::Write(m.name == "id" ? id : m.value, &out);
  }
  if (!message.Find("id")) {
    if (out.size() > 1) out += ',';
    out += "\"id\":";
    json::Write(id, &out);
  }
  return out + "}";
}

}  // namespace arcs::mcp_record_replay
