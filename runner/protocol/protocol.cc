#include "runner/protocol/protocol.h"

#include "reference/core/base64.h"
#include "reference/core/json.h"
#include "reference/core/number.h"

namespace arcs::protocol {
namespace {

// The other side's messages are bounded by the supervisor's line limit; nesting is not.
constexpr json::ParseOptions kParseOptions{.max_depth = 16};

Status Malformed(std::string_view what) {
  return Status(StatusCode::kParseError, std::string(what));
}

// Parses one message line: a JSON object with a string "type", no repeated member names.
Status ParseMessage(std::string_view line, json::Document* doc) {
  if (!doc->Parse(line, kParseOptions)) {
    return Malformed("not JSON (" + doc->error().message + " at byte " +
                     std::to_string(doc->error().offset) + ")");
  }
  if (!doc->root().is_object()) return Malformed("not a JSON object");
  if (!doc->duplicates().empty()) {
    return Malformed("member name repeated at " + doc->duplicates().front().pointer);
  }
  const json::Value* type = doc->root().Find("type");
  if (!type || !type->is_string()) return Malformed("/type: missing or not a string");
  return Status::Ok();
}

// Reads typed members of one object, remembering the first problem with its JSON Pointer.
class Fields {
 public:
  Fields(const json::Value& object, std::string pointer)
      : object_(object), pointer_(std::move(pointer)) {}

  const json::Value* Get(std::string_view name, json::Kind kind, bool required) {
    const json::Value* v = object_.Find(name);
    if (!v) {
      if (required) Fail(name, "missing");
      return nullptr;
    }
    if (v->kind() != kind) {
      Fail(name, "must be " + std::string(json::KindName(kind)) + ", not " +
                     std::string(json::KindName(v->kind())));
      return nullptr;
    }
    return v;
  }

  std::string String(std::string_view name, bool required) {
    const json::Value* v = Get(name, json::Kind::kString, required);
    return v ? std::string(v->text()) : std::string();
  }

  // A non-negative integer written without fraction or exponent.
  std::uint64_t Count(std::string_view name, bool required) {
    const json::Value* v = Get(name, json::Kind::kNumber, required);
    if (!v) return 0;
    std::optional<std::int64_t> n = json::ToInt64(v->text());
    if (!n || *n < 0) {
      Fail(name, "must be a non-negative integer");
      return 0;
    }
    return static_cast<std::uint64_t>(*n);
  }

  // Base64 bytes.
  std::optional<std::string> Bytes(std::string_view name, bool required) {
    const json::Value* v = Get(name, json::Kind::kString, required);
    if (!v) return std::nullopt;
    std::optional<std::string> bytes = base64::Decode(v->text());
    if (!bytes) Fail(name, "is not canonical base64 (RFC 4648 section 4, padded)");
    return bytes;
  }

  std::string Pointer(std::string_view name) const {
    std::string p = pointer_ + "/";
    json::AppendPointerToken(name, &p);
    return p;
  }

  void Fail(std::string_view name, std::string_view what) {
    if (status_.ok()) status_ = Malformed(Pointer(name) + ": " + std::string(what));
  }
  void Fail(Status status) {
    if (status_.ok()) status_ = std::move(status);
  }
  const Status& status() const { return status_; }

 private:
  const json::Value& object_;
  std::string pointer_;
  Status status_;
};

void AppendMember(std::string_view name, std::string_view value, std::string* out) {
  if (out->back() != '{') *out += ',';
  json::AppendQuoted(name, out);
  *out += ':';
  json::AppendQuoted(value, out);
}

void AppendRawMember(std::string_view name, std::string_view raw, std::string* out) {
  if (out->back() != '{') *out += ',';
  json::AppendQuoted(name, out);
  *out += ':';
  *out += raw;
}

std::string StringArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ',';
    json::AppendQuoted(item, &out);
  }
  return out + "]";
}

std::vector<std::string> Strings(const json::Value& array, Fields* fields, std::string_view name) {
  std::vector<std::string> out;
  for (const json::Value& item : array.items()) {
    if (!item.is_string()) {
      fields->Fail(name, "must hold only strings");
      return out;
    }
    out.emplace_back(item.text());
  }
  return out;
}

Status CheckType(const json::Document& doc, std::string_view expected) {
  std::string_view type = doc.root().Find("type")->text();
  if (type != expected) {
    return Malformed("/type: expected \"" + std::string(expected) + "\", got \"" +
                     std::string(type.substr(0, 64)) + "\"");
  }
  return Status::Ok();
}

}  // namespace

std::string_view AnswerStatusName(AnswerStatus status) {
  switch (status) {
    case AnswerStatus::kOk:
      return "ok";
    case AnswerStatus::kSkipped:
      return "skipped";
    case AnswerStatus::kErrored:
      return "errored";
  }
  return "ok";
}

std::string_view VerdictName(Verdict verdict) {
  return verdict == Verdict::kValid ? "valid" : "invalid";
}

std::string EncodeRunnerHello(const RunnerHello& hello) {
  std::string out = "{";
  AppendMember("type", "hello", &out);
  AppendRawMember("protocol", std::to_string(hello.protocol), &out);
  AppendRawMember("formats", StringArray(hello.formats), &out);
  return out + "}";
}

std::string EncodeImplementationHello(const ImplementationHello& hello) {
  std::string out = "{";
  AppendMember("type", "hello", &out);
  AppendRawMember("protocol", std::to_string(hello.protocol), &out);
  std::string info = "{";
  AppendMember("name", hello.implementation.name, &info);
  AppendMember("version", hello.implementation.version, &info);
  AppendMember("language", hello.implementation.language, &info);
  if (!hello.implementation.homepage.empty()) {
    AppendMember("homepage", hello.implementation.homepage, &info);
  }
  AppendRawMember("implementation", info + "}", &out);
  std::string formats = "{";
  for (const auto& [name, support] : hello.formats) {
    std::string format = "{";
    AppendRawMember("operations", StringArray(support.operations), &format);
    std::string policies = "{";
    for (const auto& [policy, choice] : support.policies) AppendMember(policy, choice, &policies);
    AppendRawMember("policies", policies + "}", &format);
    AppendRawMember(name, format + "}", &formats);
  }
  AppendRawMember("formats", formats + "}", &out);
  return out + "}";
}

std::string EncodeCase(const CaseRequest& request) {
  std::string out = "{";
  AppendMember("type", "case", &out);
  AppendMember("id", request.id, &out);
  AppendMember("format", request.format, &out);
  AppendMember("operation", request.operation, &out);
  // The input is most of the message: encoded in place, without a copy or an escaping pass.
  out += ",\"input\":\"";
  base64::EncodeAppend(request.input, &out);
  out += '"';
  if (!request.limits.empty()) {
    std::string limits = "{";
    for (const auto& [name, value] : request.limits) {
      AppendRawMember(name, std::to_string(value), &limits);
    }
    AppendRawMember("args", "{\"limits\":" + limits + "}}", &out);
  }
  return out + "}";
}

std::string EncodeAnswer(const Answer& answer) {
  std::string out = "{";
  AppendMember("type", "result", &out);
  AppendMember("id", answer.id, &out);
  AppendMember("status", AnswerStatusName(answer.status), &out);
  switch (answer.status) {
    case AnswerStatus::kOk: {
      AppendMember("verdict", VerdictName(answer.verdict), &out);
      if (answer.findings_given || !answer.findings.empty()) {
        std::string findings = "[";
        for (const ReportedFinding& f : answer.findings) {
          if (findings.size() > 1) findings += ',';
          findings += '{';
          AppendMember("rule", f.rule, &findings);
          if (!f.severity.empty()) AppendMember("severity", f.severity, &findings);
          if (f.line) AppendRawMember("line", std::to_string(f.line), &findings);
          if (!f.pointer.empty()) AppendMember("pointer", f.pointer, &findings);
          if (!f.message.empty()) AppendMember("message", f.message, &findings);
          findings += '}';
        }
        AppendRawMember("findings", findings + "]", &out);
      }
      if (answer.output) {
        out += ",\"output\":\"";
        base64::EncodeAppend(*answer.output, &out);
        out += '"';
      }
      break;
    }
    case AnswerStatus::kSkipped:
      AppendMember("reason", answer.reason, &out);
      break;
    case AnswerStatus::kErrored:
      AppendMember("message", answer.reason, &out);
      break;
  }
  return out + "}";
}

std::string EncodeShutdown() { return "{\"type\":\"shutdown\"}"; }

Result<std::string> MessageType(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  return std::string(doc.root().Find("type")->text());
}

namespace {

// "protocol" must be the integer this build speaks.
void CheckProtocol(Fields* fields) {
  std::uint64_t version = fields->Count("protocol", true);
  if (fields->status().ok() && version != static_cast<std::uint64_t>(kVersion)) {
    fields->Fail("protocol", "version " + std::to_string(version) +
                                 " is not supported (this "
                                 "runner speaks protocol " +
                                 std::to_string(kVersion) + ")");
  }
}

}  // namespace

Result<RunnerHello> DecodeRunnerHello(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "hello"); !s.ok()) return s;
  Fields fields(doc.root(), "");
  RunnerHello hello;
  CheckProtocol(&fields);
  if (const json::Value* formats = fields.Get("formats", json::Kind::kArray, true)) {
    hello.formats = Strings(*formats, &fields, "formats");
  }
  if (!fields.status().ok()) return fields.status();
  return hello;
}

Result<ImplementationHello> DecodeImplementationHello(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "hello"); !s.ok()) return s;
  Fields fields(doc.root(), "");
  ImplementationHello hello;
  CheckProtocol(&fields);
  if (const json::Value* info = fields.Get("implementation", json::Kind::kObject, true)) {
    Fields f(*info, "/implementation");
    hello.implementation.name = f.String("name", true);
    hello.implementation.version = f.String("version", true);
    hello.implementation.language = f.String("language", true);
    hello.implementation.homepage = f.String("homepage", false);
    if (f.status().ok() && hello.implementation.name.empty()) f.Fail("name", "is empty");
    fields.Fail(f.status());
  }
  if (const json::Value* formats = fields.Get("formats", json::Kind::kObject, true)) {
    for (const json::Member& m : formats->members()) {
      std::string pointer = fields.Pointer("formats") + "/";
      json::AppendPointerToken(m.name, &pointer);
      if (!m.value.is_object()) {
        fields.Fail(Malformed(pointer + ": must be an object"));
        continue;
      }
      Fields f(m.value, pointer);
      FormatSupport support;
      if (const json::Value* ops = f.Get("operations", json::Kind::kArray, true)) {
        support.operations = Strings(*ops, &f, "operations");
      }
      if (const json::Value* policies = f.Get("policies", json::Kind::kObject, false)) {
        Fields p(*policies, f.Pointer("policies"));
        for (const json::Member& policy : policies->members()) {
          support.policies[std::string(policy.name)] = p.String(policy.name, true);
        }
        f.Fail(p.status());
      }
      fields.Fail(f.status());
      hello.formats[std::string(m.name)] = std::move(support);
    }
  }
  if (!fields.status().ok()) return fields.status();
  return hello;
}

Result<CaseRequest> DecodeCase(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "case"); !s.ok()) return s;
  Fields fields(doc.root(), "");
  CaseRequest request;
  request.id = fields.String("id", true);
  request.format = fields.String("format", true);
  request.operation = fields.String("operation", true);
  if (std::optional<std::string> input = fields.Bytes("input", true)) {
    request.input = std::move(*input);
  }
  if (const json::Value* args = fields.Get("args", json::Kind::kObject, false)) {
    Fields a(*args, "/args");
    if (const json::Value* limits = a.Get("limits", json::Kind::kObject, false)) {
      Fields l(*limits, "/args/limits");
      for (const json::Member& m : limits->members()) {
        request.limits.emplace_back(m.name, l.Count(m.name, true));
      }
      a.Fail(l.status());
    }
    fields.Fail(a.status());
  }
  if (!fields.status().ok()) return fields.status();
  return request;
}

Result<Answer> DecodeAnswer(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "result"); !s.ok()) return s;
  Fields fields(doc.root(), "");
  Answer answer;
  answer.id = fields.String("id", true);
  std::string status = fields.String("status", true);
  if (!fields.status().ok()) return fields.status();
  if (status == "ok") {
    answer.status = AnswerStatus::kOk;
    std::string verdict = fields.String("verdict", true);
    if (fields.status().ok() && verdict != "valid" && verdict != "invalid") {
      fields.Fail("verdict", "must be \"valid\" or \"invalid\"");
    }
    answer.verdict = verdict == "invalid" ? Verdict::kInvalid : Verdict::kValid;
    if (const json::Value* findings = fields.Get("findings", json::Kind::kArray, false)) {
      answer.findings_given = true;
      std::size_t index = 0;
      for (const json::Value& item : findings->items()) {
        std::string pointer = "/findings/" + std::to_string(index++);
        if (!item.is_object()) {
          fields.Fail(Malformed(pointer + ": must be an object"));
          break;
        }
        Fields f(item, pointer);
        ReportedFinding finding;
        finding.rule = f.String("rule", true);
        finding.severity = f.String("severity", false);
        finding.line = f.Count("line", false);
        finding.pointer = f.String("pointer", false);
        finding.message = f.String("message", false);
        fields.Fail(f.status());
        answer.findings.push_back(std::move(finding));
      }
    }
    answer.output = fields.Bytes("output", false);
  } else if (status == "skipped") {
    answer.status = AnswerStatus::kSkipped;
    answer.reason = fields.String("reason", false);
  } else if (status == "errored") {
    answer.status = AnswerStatus::kErrored;
    answer.reason = fields.String("message", false);
  } else {
    fields.Fail("status", "must be \"ok\", \"skipped\" or \"errored\"");
  }
  if (!fields.status().ok()) return fields.status();
  return answer;
}

}  // namespace arcs::protocol
