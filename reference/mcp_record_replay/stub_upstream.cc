#include "reference/mcp_record_replay/stub_upstream.h"

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/mcp_record_replay/jsonrpc.h"

namespace arcs::mcp_record_replay {

Result<StubUpstream> StubUpstream::Parse(std::string_view table) {
  StubUpstream stub;
  jsonl::MemorySource source(table);
  jsonl::LineReader reader(&source, {});
  jsonl::Line line;
  json::Document doc;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) return stub;
    if (jsonl::IsBlank(line.text)) continue;
    const json::Value* method = nullptr;
    const json::Value* result = nullptr;
    const json::Value* error = nullptr;
    if (doc.Parse(line.text) && doc.root().is_object()) {
      method = doc.root().Find("method");
      result = doc.root().Find("result");
      error = doc.root().Find("error");
    }
    if (!method || !method->is_string() || (result == nullptr) == (error == nullptr)) {
      return Status(
          StatusCode::kParseError,
          "stub table line " + std::to_string(line.number) +
              ": expected {\"method\": M, \"result\": R} or {\"method\": M, \"error\": E}");
    }
    stub.answers_[std::string(method->text())].push_back(
        std::string(result ? "\"result\":" : "\"error\":") +
        json::ToString(result ? *result : *error));
  }
}

std::optional<std::string> StubUpstream::Answer(std::string_view line) {
  json::Document doc;
  if (!doc.Parse(line) || !doc.root().is_object()) return std::nullopt;
  const Classified c = Classify(doc.root());
  if (c.kind != MessageKind::kRequest) return std::nullopt;
  std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
  json::Write(*c.id, &out);
  auto it = answers_.find(std::string(c.method));
  if (it == answers_.end() || it->second.empty()) {
    return out + ",\"error\":{\"code\":-32601,\"message\":\"stub: no answer\"}}";
  }
  out += "," + it->second.front() + "}";
  it->second.pop_front();
  return out;
}

Result<std::string> StubForwarder::Forward(std::string_view request_line) {
  std::optional<std::string> answer = stub_.Answer(request_line);
  if (!answer) return Status(StatusCode::kInvalidArgument, "only a request is forwarded");
  return std::move(*answer);
}

}  // namespace arcs::mcp_record_replay
