#include "conformance/lightbox/checker.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "conformance/lightbox/module.h"
#include "reference/core/canonical.h"
#include "reference/core/json.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"

namespace arcs::conformance::lightbox {
namespace {

// Every rule the validator cites, written once: the constants below and AllRules() come from it.
#define ARCS_LIGHTBOX_RULES(X)           \
  X(kJsonObjectLine, "LB-FILE-1")        \
  X(kSchemaVersionField, "LB-REQ-1")     \
  X(kSessionIdField, "LB-REQ-2")         \
  X(kInvocationIdField, "LB-REQ-3")      \
  X(kToolField, "LB-REQ-4")              \
  X(kInputField, "LB-REQ-5")             \
  X(kOutputField, "LB-REQ-6")            \
  X(kStatusField, "LB-REQ-7")            \
  X(kTimestampStartField, "LB-REQ-8")    \
  X(kTimestampEndField, "LB-REQ-9")      \
  X(kPrevHashField, "LB-REQ-10")         \
  X(kHashField, "LB-REQ-11")             \
  X(kParentInvocationField, "LB-OPT-1")  \
  X(kActorField, "LB-OPT-2")             \
  X(kOriginatingActorField, "LB-OPT-3")  \
  X(kErrorField, "LB-OPT-4")             \
  X(kChunkCountField, "LB-OPT-5")        \
  X(kTotalBytesField, "LB-OPT-6")        \
  X(kContentHashesField, "LB-OPT-7")     \
  X(kRetryOfField, "LB-OPT-8")           \
  X(kSchemaVersionValue, "LB-VERSION-1") \
  X(kStatusValue, "LB-STATUS-1")         \
  X(kInvocationIdShape, "LB-ID-1")       \
  X(kInvocationIdUnique, "LB-ID-2")      \
  X(kTimestampShape, "LB-TIME-1")        \
  X(kPendingShape, "LB-ASYNC-1")         \
  X(kResolutionShape, "LB-ASYNC-2")      \
  X(kRetryTarget, "LB-RETRY-1")          \
  X(kParentTarget, "LB-PARENT-1")        \
  X(kRedaction, "LB-REDACT-1")           \
  X(kOneSession, "LB-SESSION-1")         \
  X(kErrorDetails, "LB-ERROR-1")         \
  X(kNoFloats, "LB-CANON-1")             \
  X(kHashChain, "LB-CHAIN-1")            \
  X(kMetaObject, "LB-META-1")            \
  X(kMetaFields, "LB-META-2")            \
  X(kMetaAgrees, "LB-META-3")

struct RuleRef {
  std::string_view id;
};

namespace rule {
#define ARCS_DEFINE_RULE(name, id) constexpr RuleRef name{id};
ARCS_LIGHTBOX_RULES(ARCS_DEFINE_RULE)
#undef ARCS_DEFINE_RULE
}  // namespace rule

// The JSON types the field tables name.
enum class Shape : std::uint8_t { kString, kStringOrNull, kObject, kObjectOrNull, kInteger };

struct FieldSpec {
  std::string_view name;
  Shape shape;
  bool required;
  RuleRef rule;
};

// The two tables of "Event Schema", in their order.
constexpr std::array<FieldSpec, 19> kFields = {{
    {"schema_version", Shape::kString, true, rule::kSchemaVersionField},
    {"session_id", Shape::kString, true, rule::kSessionIdField},
    {"invocation_id", Shape::kString, true, rule::kInvocationIdField},
    {"tool", Shape::kString, true, rule::kToolField},
    {"input", Shape::kObject, true, rule::kInputField},
    {"output", Shape::kObjectOrNull, true, rule::kOutputField},
    {"status", Shape::kString, true, rule::kStatusField},
    {"timestamp_start", Shape::kString, true, rule::kTimestampStartField},
    {"timestamp_end", Shape::kStringOrNull, true, rule::kTimestampEndField},
    {"prev_hash", Shape::kStringOrNull, true, rule::kPrevHashField},
    {"hash", Shape::kString, true, rule::kHashField},
    {"parent_invocation", Shape::kString, false, rule::kParentInvocationField},
    {"actor", Shape::kString, false, rule::kActorField},
    {"originating_actor", Shape::kString, false, rule::kOriginatingActorField},
    {"error", Shape::kObject, false, rule::kErrorField},
    {"chunk_count", Shape::kInteger, false, rule::kChunkCountField},
    {"total_bytes", Shape::kInteger, false, rule::kTotalBytesField},
    {"content_hashes", Shape::kObject, false, rule::kContentHashesField},
    {"retry_of", Shape::kString, false, rule::kRetryOfField},
}};

bool HasShape(const json::Value& v, Shape shape) {
  switch (shape) {
    case Shape::kString:
      return v.is_string();
    case Shape::kStringOrNull:
      return v.is_string() || v.is_null();
    case Shape::kObject:
      return v.is_object();
    case Shape::kObjectOrNull:
      return v.is_object() || v.is_null();
    case Shape::kInteger: {
      if (!v.is_number()) return false;
      const json::NumberInfo info = json::Classify(v.text());
      return !info.has_fraction && !info.has_exponent && !(info.negative && !info.zero);
    }
  }
  return false;
}

std::string_view ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kString:
      return "a string";
    case Shape::kStringOrNull:
      return "a string or null";
    case Shape::kObject:
      return "an object";
    case Shape::kObjectOrNull:
      return "an object or null";
    case Shape::kInteger:
      return "a non-negative integer";
  }
  return "";
}

std::string Pointer(std::string_view name) {
  std::string pointer = "/";
  json::AppendPointerToken(name, &pointer);
  return pointer;
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "inv_NNNNN": "inv_" and at least five digits (the upstream recorder counts with "%05d", so
// the 100,000th call has six): the number, or nullopt.
std::optional<std::uint64_t> InvocationNumber(std::string_view id) {
  if (!id.starts_with("inv_")) return std::nullopt;
  const std::string_view digits = id.substr(4);
  if (digits.size() < 5 || digits.size() > 19 || !IsDigits(digits)) return std::nullopt;
  return std::stoull(std::string(digits));
}

// "ISO 8601 with milliseconds": YYYY-MM-DDTHH:MM:SS.mmm and an offset (Z or ±HH:MM), a date that
// exists (RFC 3339's profile of ISO 8601, as Python's isoformat(timespec="milliseconds") writes).
bool IsTimestampWithMilliseconds(std::string_view s) {
  if (s.size() < 24 || s[19] != '.' || !IsDigits(s.substr(20, 3))) return false;
  const std::string_view zone = s.substr(23);
  return (zone == "Z" || zone.size() == 6) && IsRfc3339DateTime(s);
}

bool IsSha256Hex(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// The value at a content_hashes path ("input.api_key", "output.large_field.inner"), or null.
const json::Value* AtPath(const json::Value& event, std::string_view path) {
  const json::Value* at = &event;
  while (at && !path.empty()) {
    const std::size_t dot = path.find('.');
    at = at->is_object() ? at->Find(path.substr(0, dot)) : nullptr;
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return at;
}

// "[REDACTED]", or {"_redacted": true, "_reason": "...", "_bytes": N}.
bool IsRedacted(const json::Value& v) {
  if (v.is_string()) return v.text() == "[REDACTED]";
  if (!v.is_object()) return false;
  const json::Value* redacted = v.Find("_redacted");
  const json::Value* reason = v.Find("_reason");
  const json::Value* bytes = v.Find("_bytes");
  return redacted && redacted->is_bool() && redacted->as_bool() && reason && reason->is_string() &&
         bytes && HasShape(*bytes, Shape::kInteger);
}

// What the cross-event rules keep per invocation: a byte (and the hash map's own ~40).
enum InvocationState : std::uint8_t { kSeen = 1, kPending = 2, kResolved = 4 };

class Checker {
 public:
  Checker(const arcs::lightbox::Limits& limits, Diagnostics* out) : limits_(limits), out_(out) {}

  void Run(jsonl::ByteSource* events, jsonl::ByteSource* meta) {
    jsonl::LineReader reader(events, arcs::lightbox::LineOptionsFor(limits_));
    jsonl::Line line;
    for (;;) {
      Result<bool> next = reader.Next(&line);
      if (!next.ok()) {
        Error(rule::kJsonObjectLine, 0, "",
              "could not read events.jsonl: " + next.status().message());
        break;
      }
      if (!*next) break;
      if (!CheckLine(line)) break;
    }
    Finish();
    if (meta) CheckMeta(meta);
  }

 private:
  void Report(const RuleRef& rule, Severity severity, std::uint64_t line, std::string pointer,
              std::string message) {
    out_->Add({std::string(rule.id),
               Module().LevelOf(rule.id),
               severity,
               {line, 0, std::move(pointer)},
               std::move(message)});
  }
  void Error(const RuleRef& rule, std::uint64_t line, std::string pointer, std::string message) {
    Report(rule, Severity::kError, line, std::move(pointer), std::move(message));
  }
  void Warn(const RuleRef& rule, std::uint64_t line, std::string pointer, std::string message) {
    Report(rule, Severity::kWarning, line, std::move(pointer), std::move(message));
  }

  // False once max_events is passed.
  bool CheckLine(const jsonl::Line& line) {
    line_ = line.number;
    if (line.bom) {
      Error(rule::kJsonObjectLine, 1, "", "events.jsonl starts with a byte order mark");
    }
    if (!line.too_long && jsonl::IsBlank(line.text)) {
      Warn(rule::kJsonObjectLine, line_, "", "a blank line is not an event");
      return true;
    }
    if (events_ == limits_.max_events) {
      Error(rule::kJsonObjectLine, line_, "",
            "more than max_events=" + std::to_string(limits_.max_events) +
                " events; not read "
                "further");
      return false;
    }
    ++events_;
    event_lines_.push_back(line_);
    std::string problem;
    if (line.too_long) {
      problem = "the line is longer than max_line_bytes=" + std::to_string(limits_.max_line_bytes);
    } else if (!document_.Parse(line.text, arcs::lightbox::ParseOptionsFor(limits_))) {
      problem = "not JSON: " + document_.error().message;
    } else if (!document_.root().is_object()) {
      problem = "not a JSON object";
    }
    if (!problem.empty()) {
      Error(rule::kJsonObjectLine, line_, "", problem);
      chain_.Add(nullptr, problem);
      return true;
    }
    CheckEvent(document_.root());
    chain_.Add(&document_.root(), "");
    return true;
  }

  void CheckEvent(const json::Value& event) {
    for (const json::Duplicate& d : document_.duplicates()) {
      Error(rule::kJsonObjectLine, line_, d.pointer, "a repeated member name");
    }
    if (std::optional<std::string> at = canonical::FirstFloat(event)) {
      Error(rule::kNoFloats, line_, *at, "a float: the canonical form prohibits them");
    }
    for (const FieldSpec& f : kFields) {
      const json::Value* v = event.Find(f.name);
      if (!v) {
        if (f.required)
          Error(f.rule, line_, "", "the event has no \"" + std::string(f.name) + "\"");
      } else if (!HasShape(*v, f.shape)) {
        Error(f.rule, line_, Pointer(f.name),
              std::string(f.name) + " is not " + std::string(ShapeName(f.shape)));
      }
    }
    CheckValues(event);
    CheckInvocation(event);
    CheckRedactions(event);
  }

  const json::Value* String(const json::Value& event, std::string_view name) {
    const json::Value* v = event.Find(name);
    return v && v->is_string() ? v : nullptr;
  }

  void CheckValues(const json::Value& event) {
    if (const json::Value* v = String(event, "schema_version"); v && v->text() != "1") {
      Warn(rule::kSchemaVersionValue, line_, "/schema_version",
           "schema_version " + Quoted(v->text()) +
               " is not \"1\", the version this validator "
               "knows");
    }
    if (const json::Value* v = String(event, "status");
        v && v->text() != "pending" && v->text() != "complete" && v->text() != "error") {
      Error(rule::kStatusValue, line_, "/status",
            "status " + Quoted(v->text()) + " is not pending, complete or error");
    }
    for (std::string_view name : {"timestamp_start", "timestamp_end"}) {
      if (const json::Value* v = String(event, name);
          v && !IsTimestampWithMilliseconds(v->text())) {
        Error(rule::kTimestampShape, line_, Pointer(name),
              Quoted(v->text()) + " is not an ISO 8601 date-time with milliseconds and an offset");
      }
    }
    if (const json::Value* v = String(event, "session_id")) {
      if (!session_) {
        session_ = std::string(v->text());
      } else if (v->text() != *session_) {
        Error(rule::kOneSession, line_, "/session_id",
              "session_id " + Quoted(v->text()) + " is not the first event's " + Quoted(*session_));
      }
    }
    const json::Value* status = String(event, "status");
    if (status && status->text() == "error" && !event.Find("error")) {
      Warn(rule::kErrorDetails, line_, "", "an event with status error has no \"error\" details");
    }
  }

  void CheckInvocation(const json::Value& event) {
    const json::Value* id = String(event, "invocation_id");
    if (!id) return;
    const std::optional<std::uint64_t> number = InvocationNumber(id->text());
    if (!number) {
      Error(rule::kInvocationIdShape, line_, "/invocation_id",
            "invocation_id " + Quoted(id->text()) + " is not inv_NNNNN");
      return;
    }
    const json::Value* status = String(event, "status");
    const bool pending = status && status->text() == "pending";
    std::uint8_t& state = invocations_[*number];
    if (pending) CheckPending(event, state);
    if (!pending && (state & kPending)) {
      CheckResolution(event, state);
    } else if (state & kSeen) {
      Error(rule::kInvocationIdUnique, line_, "/invocation_id",
            "invocation_id " + Quoted(id->text()) + " was used by an earlier call");
    }
    state |= kSeen | (pending ? kPending : 0);
    CheckTarget(event, "retry_of", rule::kRetryTarget, /*may_come_later=*/false);
    CheckTarget(event, "parent_invocation", rule::kParentTarget, /*may_come_later=*/true);
  }

  void CheckPending(const json::Value& event, std::uint8_t state) {
    const json::Value* output = event.Find("output");
    const json::Value* end = event.Find("timestamp_end");
    if ((output && !output->is_null()) || (end && !end->is_null())) {
      Error(rule::kPendingShape, line_, "",
            "a pending event has a non-null output or timestamp_end");
    }
    if (state & kSeen) {
      Error(rule::kInvocationIdUnique, line_, "/invocation_id",
            "a pending event reuses an invocation_id already used");
    }
  }

  // The second event of an async call: same invocation_id, complete or error, input {}.
  void CheckResolution(const json::Value& event, std::uint8_t& state) {
    if (state & kResolved) {
      Error(rule::kResolutionShape, line_, "/invocation_id", "the async call is resolved twice");
    }
    const json::Value* input = event.Find("input");
    if (input && !(input->is_object() && input->members().empty())) {
      Error(rule::kResolutionShape, line_, "/input",
            "the resolution of an async call has input "
            "other than {}");
    }
    state |= kResolved;
  }

  // retry_of names an earlier invocation; parent_invocation one anywhere in the session.
  void CheckTarget(const json::Value& event, std::string_view name, const RuleRef& rule,
                   bool may_come_later) {
    const json::Value* target = String(event, name);
    if (!target) return;
    const std::optional<std::uint64_t> number = InvocationNumber(target->text());
    if (number && invocations_.contains(*number)) return;
    if (number && may_come_later) {
      later_.push_back({line_, *number, rule});
      return;
    }
    Error(rule, line_, Pointer(name),
          std::string(name) + " " + Quoted(target->text()) + " names no earlier invocation");
  }

  void CheckRedactions(const json::Value& event) {
    const json::Value* hashes = event.Find("content_hashes");
    if (!hashes || !hashes->is_object()) return;
    for (const json::Member& m : hashes->members()) {
      const std::string pointer = "/content_hashes" + Pointer(m.name);
      if (!m.value.is_string() || !IsSha256Hex(m.value.text())) {
        Error(rule::kRedaction, line_, pointer, "not a lowercase hex SHA-256");
      }
      const json::Value* at = AtPath(event, m.name);
      if (!at || !IsRedacted(*at)) {
        Error(rule::kRedaction, line_, pointer,
              "the value at " + Quoted(m.name) +
                  " is not \"[REDACTED]\" or a {_redacted, _reason, _bytes} object");
      }
    }
  }

  void Finish() {
    for (const Later& l : later_) {
      if (!invocations_.contains(l.target)) {
        Error(l.rule, l.line, "/parent_invocation", "parent_invocation names no invocation");
      }
    }
    const arcs::lightbox::ChainVerdict chain = chain_.Finish();
    if (!chain.intact()) {
      Error(rule::kHashChain, LineOfEvent(chain.first_broken), "",
            "the hash chain breaks at " + chain.reason + " (" +
                std::string(arcs::lightbox::BreakName(chain.first_break)) + ")");
    }
  }

  // The chain counts events, findings cite lines (blank lines are no events).
  std::uint64_t LineOfEvent(std::uint64_t index) const {
    return index < event_lines_.size() ? event_lines_[index] : 0;
  }

  void CheckMeta(jsonl::ByteSource* meta) {
    std::string text;
    char buffer[4096];
    for (;;) {
      Result<std::size_t> n = meta->Read(buffer, sizeof buffer);
      if (!n.ok() || *n == 0) break;
      if (text.size() + *n > limits_.max_line_bytes) {
        return Error(rule::kMetaObject, 0, "meta.json", "meta.json is larger than max_line_bytes");
      }
      text.append(buffer, *n);
    }
    json::Document doc;
    if (!doc.Parse(text, arcs::lightbox::ParseOptionsFor(limits_)) || !doc.root().is_object()) {
      return Error(rule::kMetaObject, 0, "meta.json", "meta.json is not a JSON object");
    }
    for (std::string_view name :
         {"session_id", "schema_version", "lightbox_version", "created_at"}) {
      const json::Value* v = doc.root().Find(name);
      if (!v || !v->is_string()) {
        Error(rule::kMetaFields, 0, "meta.json" + Pointer(name),
              "meta.json has no string \"" + std::string(name) + "\"");
      }
    }
    const json::Value* created = doc.root().Find("created_at");
    if (created && created->is_string() && !IsTimestampWithMilliseconds(created->text())) {
      Error(rule::kMetaFields, 0, "meta.json/created_at",
            Quoted(created->text()) + " is not an ISO 8601 date-time with milliseconds");
    }
    const json::Value* session = doc.root().Find("session_id");
    if (session && session->is_string() && session_ && session->text() != *session_) {
      Error(rule::kMetaAgrees, 0, "meta.json/session_id",
            "meta.json's session_id " + Quoted(session->text()) + " is not the events' " +
                Quoted(*session_));
    }
  }

  struct Later {
    std::uint64_t line;
    std::uint64_t target;
    RuleRef rule;
  };

  arcs::lightbox::Limits limits_;
  Diagnostics* out_;
  json::Document document_;
  arcs::lightbox::ChainChecker chain_;
  std::unordered_map<std::uint64_t, std::uint8_t> invocations_;
  std::vector<Later> later_;
  std::vector<std::uint64_t> event_lines_;  // each event's line: 8 bytes an event
  std::optional<std::string> session_;
  std::uint64_t line_ = 0;
  std::uint64_t events_ = 0;
};

}  // namespace

void Validate(jsonl::ByteSource* events, jsonl::ByteSource* meta,
              const arcs::lightbox::Limits& limits, Diagnostics* diagnostics) {
  Checker(limits, diagnostics).Run(events, meta);
  diagnostics->Sort();
}

std::vector<std::string_view> AllRules() {
  return {
#define ARCS_RULE_ID(name, id) id,
      ARCS_LIGHTBOX_RULES(ARCS_RULE_ID)
#undef ARCS_RULE_ID
  };
}

}  // namespace arcs::conformance::lightbox
