#include "protocol/protocol.h"

#include <algorithm>
#include <span>

#include "reference/core/base64.h"
#include "reference/core/json.h"
#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::protocol {
namespace {

// The other side's messages are bounded by the supervisor's line limit; nesting is not.
// A message holds few values (a case's inputs are strings, an answer keeps kMaxFindings
// findings): the bound keeps a line of tiny values from costing 17 times its size (json.h).
constexpr json::ParseOptions kParseOptions{.max_depth = 16, .max_values = kMaxMessageValues};

// What an answer may make the runner keep: its text and findings are cut to these bounds, and
// the answer says what was cut (Answer::cut), so a flood of text costs the report nothing.
// The kept text, "…" included, fits the bound: decoding an encoded answer cuts nothing more.
std::string Kept(std::string text, std::size_t max_bytes, std::uint64_t* cut_count) {
  static constexpr std::size_t kEllipsisBytes = 3;
  if (text.size() <= max_bytes) return text;
  ++*cut_count;
  return Excerpt(text, max_bytes - kEllipsisBytes);
}

Status Malformed(std::string_view what) {
  return Status(StatusCode::kParseError, std::string(what));
}

// Parses one message line: a JSON object with a string "type", no repeated member names.
// What a message must be besides JSON: an object with a string "type".
Status CheckMessage(const json::Document& doc) {
  if (!doc.root().is_object()) return Malformed("not a JSON object");
  const json::Value* type = doc.root().Find("type");
  if (!type || !type->is_string()) return Malformed("/type: missing or not a string");
  return Status::Ok();
}

Status ParseMessage(std::string_view line, json::Document* doc) {
  if (Status s = json::ParseData(line, doc, kParseOptions); !s.ok()) return s;
  return CheckMessage(*doc);
}

// Messages are open objects: members this version does not describe are ignored (PROTOCOL.md).
json::FieldReader Reader(const json::Value* value, std::string pointer, Status* status) {
  return json::FieldReader(value, std::move(pointer), status, json::FieldReader::Members::kOpen);
}

std::string StringArray(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ',';
    json::AppendQuoted(item, &out);
  }
  return out + "]";
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

bool Declares(const ImplementationHello& hello, std::string_view format,
              std::string_view operation) {
  const auto f = hello.formats.find(std::string(format));
  return f != hello.formats.end() &&
         std::find(f->second.operations.begin(), f->second.operations.end(), operation) !=
             f->second.operations.end();
}

std::string EncodeRunnerHello(const RunnerHello& hello) {
  std::string out = "{";
  json::AppendMember("type", "hello", &out);
  json::AppendRawMember("protocol", std::to_string(hello.protocol), &out);
  json::AppendRawMember("formats", StringArray(hello.formats), &out);
  return out + "}";
}

std::string EncodeImplementationHello(const ImplementationHello& hello) {
  std::string out = "{";
  json::AppendMember("type", "hello", &out);
  json::AppendRawMember("protocol", std::to_string(hello.protocol), &out);
  std::string info = "{";
  json::AppendMember("name", hello.implementation.name, &info);
  json::AppendMember("version", hello.implementation.version, &info);
  json::AppendMember("language", hello.implementation.language, &info);
  if (!hello.implementation.homepage.empty()) {
    json::AppendMember("homepage", hello.implementation.homepage, &info);
  }
  json::AppendRawMember("implementation", info + "}", &out);
  std::string formats = "{";
  for (const auto& [name, support] : hello.formats) {
    std::string format = "{";
    json::AppendRawMember("operations", StringArray(support.operations), &format);
    std::string policies = "{";
    for (const auto& [policy, choice] : support.policies)
      json::AppendMember(policy, choice, &policies);
    json::AppendRawMember("policies", policies + "}", &format);
    json::AppendRawMember(name, format + "}", &formats);
  }
  json::AppendRawMember("formats", formats + "}", &out);
  return out + "}";
}

namespace {

// {"name":"<base64>",...}: the bytes are most of a message, so they are encoded in place,
// without a copy or an escaping pass.
void AppendBytesMap(std::string_view member, const std::map<std::string, std::string>& named,
                    std::string* out) {
  if (out->back() != '{') *out += ',';
  json::AppendQuoted(member, out);
  *out += ":{";
  bool first = true;
  for (const auto& [name, bytes] : named) {
    if (!first) *out += ',';
    first = false;
    json::AppendQuoted(name, out);
    *out += ":\"";
    base64::EncodeAppend(bytes, out);
    *out += '"';
  }
  *out += '}';
}

// The bytes named bytes take in an answer, and `rest` (a name quoted takes at most 6 bytes a
// byte), with room for the "\n": reserved once, an answer's megabytes are never copied to grow.
std::size_t MessageBytes(const std::map<std::string, std::string>& named, std::size_t rest) {
  std::size_t size = rest + 64;
  for (const auto& [name, bytes] : named) size += 6 * name.size() + 8 + (bytes.size() + 2) / 3 * 4;
  return size;
}

}  // namespace

CaseLine::CaseLine(const CaseRequest& request) : inputs_(request.inputs) {
  std::string text = "{";
  json::AppendMember("type", "case", &text);
  json::AppendMember("id", request.id, &text);
  json::AppendMember("format", request.format, &text);
  json::AppendMember("operation", request.operation, &text);
  text += ',';
  json::AppendQuoted("inputs", &text);
  text += ":{";
  static const Inputs kNone;
  for (const auto& [name, bytes] : inputs_ ? *inputs_ : kNone) {  // both lvalues: no copy
    if (!bytes_.empty()) text += ',';
    json::AppendQuoted(name, &text);
    text += ":\"";
    text_.push_back(std::move(text));
    bytes_.push_back(bytes);
    size_ += text_.back().size() + (bytes.size() + 2) / 3 * 4;
    text = "\"";
  }
  text += '}';
  if (!request.args.empty()) json::AppendRawMember("args", request.args, &text);
  text += "}\n";
  size_ += text.size();
  text_.push_back(std::move(text));
}

std::string_view CaseLine::Next() {
  while (part_ < text_.size() + bytes_.size()) {
    if (part_ % 2 == 0) return text_[part_++ / 2];
    const std::string_view bytes = bytes_[part_ / 2];
    if (offset_ == bytes.size()) {
      offset_ = 0;
      ++part_;
      continue;
    }
    // A multiple of 3 bytes a piece, so that the pieces' base64 is the whole input's.
    const std::size_t take = std::min(bytes.size() - offset_, kPieceBytes / 4 * 3);
    piece_.clear();
    base64::EncodeAppend(bytes.substr(offset_, take), &piece_);
    offset_ += take;
    return piece_;
  }
  return {};
}

std::string EncodeCase(const CaseRequest& request) {
  CaseLine line(request);
  std::string out;
  out.reserve(line.size());
  for (std::string_view piece = line.Next(); !piece.empty(); piece = line.Next()) out += piece;
  out.pop_back();  // the "\n"
  return out;
}

std::string EncodeAnswer(const Answer& answer) {
  std::string out;
  out.reserve(MessageBytes(answer.outputs, 6 * answer.id.size()));
  out += "{";
  json::AppendMember("type", "result", &out);
  json::AppendMember("id", answer.id, &out);
  json::AppendMember("status", AnswerStatusName(answer.status), &out);
  switch (answer.status) {
    case AnswerStatus::kOk: {
      json::AppendMember("verdict", VerdictName(answer.verdict), &out);
      if (answer.findings_given || !answer.findings.empty()) {
        std::string findings = "[";
        for (const ReportedFinding& f : answer.findings) {
          if (findings.size() > 1) findings += ',';
          findings += '{';
          json::AppendMember("rule", f.rule, &findings);
          if (!f.severity.empty()) json::AppendMember("severity", f.severity, &findings);
          if (f.line) json::AppendRawMember("line", std::to_string(f.line), &findings);
          if (!f.pointer.empty()) json::AppendMember("pointer", f.pointer, &findings);
          if (!f.message.empty()) json::AppendMember("message", f.message, &findings);
          findings += '}';
        }
        json::AppendRawMember("findings", findings + "]", &out);
      }
      if (!answer.outputs.empty()) AppendBytesMap("outputs", answer.outputs, &out);
      break;
    }
    case AnswerStatus::kSkipped:
      json::AppendMember("reason", answer.reason, &out);
      break;
    case AnswerStatus::kErrored:
      json::AppendMember("message", answer.reason, &out);
      break;
  }
  out += '}';
  return out;
}

std::string EncodeShutdown() { return "{\"type\":\"shutdown\"}"; }

Result<std::string> MessageType(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  return std::string(doc.root().Find("type")->text());
}

namespace {

// "protocol" must be the integer this build speaks.
void CheckProtocol(json::FieldReader* fields) {
  std::uint64_t version = 0;
  fields->Count("protocol", &version);
  if (fields->ok() && version != static_cast<std::uint64_t>(kVersion)) {
    fields->Fail(fields->Pointer("protocol"), "version " + std::to_string(version) +
                                                  " is not supported (this runner speaks " +
                                                  "protocol " + std::to_string(kVersion) +
                                                  "; runner/PROTOCOL.md says what " + "changed)");
  }
}

// An output this large is decoded where the answer's line holds it, when the line is the
// decoder's (DecodeAnswerTaking): tens of megabytes are then never held twice.
constexpr std::size_t kDecodeInPlaceBytes = 1 << 20;

// A member of named bytes left encoded, to be decoded where the message's text holds it.
struct Deferred {
  std::string name;
  std::string_view base64;  // inside the text of the document read
};

// Reads {"name":"<base64>",...} into *out. With `deferred`, the largest value of at least
// kDecodeInPlaceBytes is checked but left in *deferred to be decoded in place.
void ReadBytesMap(json::FieldReader* fields, std::string_view name, bool required,
                  std::map<std::string, std::string>* out, Deferred* deferred = nullptr) {
  const json::Value* largest = nullptr;
  const json::Value* object = deferred ? fields->OptionalAny(name) : nullptr;
  for (const json::Member& m : object ? object->members() : std::span<const json::Member>()) {
    const std::size_t size = m.value.is_string() ? m.value.text().size() : 0;
    if (size >= kDecodeInPlaceBytes && (!largest || size > largest->text().size())) {
      largest = &m.value;
    }
  }
  fields->ForEachMember(
      name, required, [&](std::string_view key, const json::Value& value, const std::string& p) {
        if (&value == largest) {
          if (base64::DecodedSize(value.text())) {
            *deferred = {std::string(key), value.text()};
            return;
          }
        } else if (std::optional<std::string> bytes =
                       value.is_string() ? base64::Decode(value.text()) : std::nullopt) {
          (*out)[std::string(key)] = std::move(*bytes);
          return;
        }
        fields->Fail(p, "expected canonical base64 (RFC 4648 section 4, padded)");
      });
}

}  // namespace

Result<RunnerHello> DecodeRunnerHello(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "hello"); !s.ok()) return s;
  Status status;
  json::FieldReader fields = Reader(&doc.root(), "", &status);
  RunnerHello hello;
  CheckProtocol(&fields);
  fields.StringList("formats", &hello.formats);
  if (!status.ok()) return status;
  return hello;
}

Result<ImplementationHello> DecodeImplementationHello(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "hello"); !s.ok()) return s;
  Status status;
  json::FieldReader fields = Reader(&doc.root(), "", &status);
  ImplementationHello hello;
  CheckProtocol(&fields);
  json::FieldReader info = Reader(fields.Required("implementation", json::Kind::kObject),
                                  fields.Pointer("implementation"), &status);
  info.String("name", &hello.implementation.name);
  info.String("version", &hello.implementation.version);
  info.String("language", &hello.implementation.language);
  info.OptionalString("homepage", &hello.implementation.homepage);
  if (status.ok() && hello.implementation.name.empty()) {
    info.Fail(info.Pointer("name"), "is empty");
  }
  fields.ForEachMember("formats", true,
                       [&](std::string_view name, const json::Value& value, const std::string& p) {
                         json::FieldReader f = Reader(&value, p, &status);
                         FormatSupport& support = hello.formats[std::string(name)];
                         f.StringList("operations", &support.operations);
                         f.OptionalStringMap("policies", &support.policies);
                       });
  if (!status.ok()) return status;
  return hello;
}

Result<CaseRequest> DecodeCase(std::string_view line) {
  json::Document doc;
  if (Status s = ParseMessage(line, &doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "case"); !s.ok()) return s;
  Status status;
  json::FieldReader fields = Reader(&doc.root(), "", &status);
  CaseRequest request;
  fields.String("id", &request.id);
  fields.String("format", &request.format);
  fields.String("operation", &request.operation);
  Inputs inputs;
  ReadBytesMap(&fields, "inputs", true, &inputs);
  request.inputs = std::make_shared<const Inputs>(std::move(inputs));
  if (const json::Value* args = fields.Optional("args", json::Kind::kObject)) {
    request.args = json::ToString(*args);
  }
  if (!status.ok()) return status;
  return request;
}

namespace {

// The answer `doc` holds; with `deferred`, its largest output may be left there, still encoded
// (ReadBytesMap).
Result<Answer> AnswerOf(const json::Document& doc, Deferred* deferred = nullptr) {
  if (Status s = CheckMessage(doc); !s.ok()) return s;
  if (Status s = CheckType(doc, "result"); !s.ok()) return s;
  Status status;
  json::FieldReader fields = Reader(&doc.root(), "", &status);
  Answer answer;
  fields.String("id", &answer.id);
  std::string answer_status;
  fields.String("status", &answer_status);
  if (!status.ok()) return status;
  if (answer_status == "ok") {
    answer.status = AnswerStatus::kOk;
    std::string verdict;
    fields.String("verdict", &verdict);
    if (status.ok() && verdict != "valid" && verdict != "invalid") {
      fields.Fail(fields.Pointer("verdict"), "must be \"valid\" or \"invalid\"");
    }
    answer.verdict = verdict == "invalid" ? Verdict::kInvalid : Verdict::kValid;
    answer.findings_given = fields.Optional("findings", json::Kind::kArray) != nullptr;
    std::uint64_t findings = 0;
    std::uint64_t cut_fields = 0;
    fields.ForEach("findings", false, [&](const json::Value& item, const std::string& p) {
      json::FieldReader f = Reader(&item, p, &status);
      ReportedFinding finding;
      f.String("rule", &finding.rule);
      f.OptionalString("severity", &finding.severity);
      f.OptionalCount("line", &finding.line);
      f.OptionalString("pointer", &finding.pointer);
      f.OptionalString("message", &finding.message);
      if (++findings > kMaxFindings) return;  // checked, not kept
      finding.rule = Kept(std::move(finding.rule), kMaxRuleBytes, &cut_fields);
      finding.pointer = Kept(std::move(finding.pointer), kMaxTextBytes, &cut_fields);
      finding.message = Kept(std::move(finding.message), kMaxTextBytes, &cut_fields);
      answer.findings.push_back(std::move(finding));
    });
    if (cut_fields > 0) {
      answer.cut.push_back(std::to_string(cut_fields) +
                           " rule ids, pointers or messages of findings cut to their bounds");
    }
    if (findings > kMaxFindings) {
      answer.cut.push_back("findings: the first " + std::to_string(kMaxFindings) + " of " +
                           std::to_string(findings) + " kept");
    }
    ReadBytesMap(&fields, "outputs", false, &answer.outputs, deferred);
  } else if (answer_status == "skipped") {
    answer.status = AnswerStatus::kSkipped;
    fields.OptionalString("reason", &answer.reason);
  } else if (answer_status == "errored") {
    answer.status = AnswerStatus::kErrored;
    fields.OptionalString("message", &answer.reason);
  } else {
    fields.Fail(fields.Pointer("status"), "must be \"ok\", \"skipped\" or \"errored\"");
  }
  if (!status.ok()) return status;
  if (const std::size_t size = answer.reason.size(); size > kMaxTextBytes) {
    std::uint64_t cut_reason = 0;
    answer.reason = Kept(std::move(answer.reason), kMaxTextBytes, &cut_reason);
    answer.cut.push_back(
        std::string(answer.status == AnswerStatus::kSkipped ? "reason" : "message") + " cut from " +
        std::to_string(size) + " bytes");
  }
  return answer;
}

}  // namespace

Result<Answer> DecodeAnswer(std::string_view line) {
  json::Document doc;
  if (Status s = json::ParseData(line, &doc, kParseOptions); !s.ok()) return s;
  return AnswerOf(doc);
}

Result<Answer> DecodeAnswerTaking(std::string line) {
  json::Document doc;
  if (Status s = json::ParseDataTaking(std::move(line), &doc, kParseOptions); !s.ok()) return s;
  Deferred largest;
  Result<Answer> answer = AnswerOf(doc, &largest);
  if (!answer.ok() || largest.name.empty()) return answer;
  // The line's own bytes become the output's: moved out of the document (a string this long is
  // on the heap, so the view into it stays valid), decoded to its front, cut to size.
  std::string text = doc.ReleaseText();
  const std::size_t at = static_cast<std::size_t>(largest.base64.data() - text.data());
  const std::optional<std::size_t> size =
      base64::DecodeTo(std::string_view(text).substr(at, largest.base64.size()), text.data());
  text.resize(*size);  // checked by ReadBytesMap
  answer->outputs[largest.name] = std::move(text);
  return answer;
}

}  // namespace arcs::protocol
