#include "reference/mcp_record_replay/jsonrpc.h"

#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

std::string Kind(const json::Value& v) { return std::string(json::KindName(v.kind())); }

// An id (§4): a String, Number or Null.
void CheckId(const json::Value& id, Classified* c) {
  if (!id.is_string() && !id.is_number() && !id.is_null()) {
    c->problems.push_back("id is " + Kind(id) + ": it must be a string, a number or null");
  } else if (id.is_number() && !json::Classify(id.text()).integral) {
    c->cautions.push_back("id " + Excerpt(id.text(), 40) +
                          ": numbers should not contain fractional parts");
  }
}

void CheckRequest(const json::Value& msg, const json::Value& method, Classified* c) {
  if (!method.is_string()) {
    c->problems.push_back("method is " + Kind(method) + ": it must be a string");
  } else {
    c->method = method.text();
  }
  c->params = msg.Find("params");
  if (c->params && !c->params->is_array() && !c->params->is_object()) {
    c->problems.push_back("params is " + Kind(*c->params) + ": it must be an array or an object");
  }
  c->id = msg.Find("id");
  c->kind = c->id ? MessageKind::kRequest : MessageKind::kNotification;
  if (c->id) CheckId(*c->id, c);
  if (c->id && c->id->is_null()) c->cautions.push_back("id is null: it should not normally be");
}

void CheckError(const json::Value& error, Classified* c) {
  if (!error.is_object()) {
    c->problems.push_back("error is " + Kind(error) + ": it must be an object");
    return;
  }
  const json::Value* code = error.Find("code");
  if (!code || !code->is_number() || !json::Classify(code->text()).integral) {
    c->problems.push_back("error.code must be an integer");
  }
  const json::Value* message = error.Find("message");
  if (!message || !message->is_string()) c->problems.push_back("error.message must be a string");
}

void CheckResponse(const json::Value& msg, Classified* c) {
  const json::Value* result = msg.Find("result");
  const json::Value* error = msg.Find("error");
  c->kind = error ? MessageKind::kError : MessageKind::kResponse;
  if (result && error) c->problems.push_back("a response has result or error, not both");
  if (error) CheckError(*error, c);
  c->id = msg.Find("id");
  if (!c->id) {
    c->problems.push_back("a response must have an id");
  } else {
    CheckId(*c->id, c);
  }
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
    case MessageKind::kInvalid:
      return "invalid";
  }
  return "";
}

Classified Classify(const json::Value& msg) {
  Classified c;
  if (!msg.is_object()) {
    c.problems.push_back("the message is " + Kind(msg) + ": it must be an object");
    return c;
  }
  const json::Value* version = msg.Find("jsonrpc");
  if (!version || !version->is_string() || version->text() != "2.0") {
    c.problems.push_back("jsonrpc must be exactly \"2.0\"");
  }
  if (const json::Value* method = msg.Find("method")) {
    CheckRequest(msg, *method, &c);
  } else if (msg.Find("result") || msg.Find("error")) {
    CheckResponse(msg, &c);
  } else {
    c.problems.push_back(
        "neither method (a request or notification) nor result or error (a "
        "response)");
  }
  return c;
}

}  // namespace arcs::mcp_record_replay
