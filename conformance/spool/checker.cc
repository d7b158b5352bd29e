#include "conformance/spool/checker.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "conformance/spool/id_index.h"
#include "reference/core/base64.h"
#include "reference/core/json.h"
#include "reference/core/json_fields.h"
#include "reference/core/keyed_hash.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"

namespace arcs::conformance::spool {
namespace {

using arcs::spool::Limits;
using json::Value;

// Every requirement of conformance/spool/requirements.json the checker cites (besides the
// entry tables' below), written once: the rule:: constants and AllRules() both come from this
// list. Levels are the catalogue's, never written here.
#define ARCS_SPOOL_RULES(X)           \
  X(kUtf8WithoutBom, "SP-3.4-1")      \
  X(kLfEndings, "SP-3.5-1")           \
  X(kOneObjectPerLine, "SP-3.6-1")    \
  X(kSessionFirst, "SP-4.1-1")        \
  X(kOneSession, "SP-4.1-2")          \
  X(kTsOrder, "SP-4.2-1")             \
  X(kNotEmpty, "SP-4.3-1")            \
  X(kIdPresent, "SP-5.1-1")           \
  X(kIdFormat, "SP-5.1-2")            \
  X(kIdUnique, "SP-5.1-5")            \
  X(kTsPresent, "SP-5.2-1")           \
  X(kTsNonNegative, "SP-5.2-2")       \
  X(kTsRange, "SP-5.2-3")             \
  X(kTypePresent, "SP-5.3-1")         \
  X(kSessionTsZero, "SP-6.1-3")       \
  X(kAgentIdentifier, "SP-6.1.1-2")   \
  X(kTrimmed, "SP-6.1.2-1")           \
  X(kEndedValue, "SP-6.1.3-1")        \
  X(kCallIdExists, "SP-6.5-2")        \
  X(kCallIdType, "SP-6.5-3")          \
  X(kOutputXorError, "SP-6.5-4")      \
  X(kOutputErrorTypes, "SP-6.5-5")    \
  X(kSubagentIdExists, "SP-6.8.1-2")  \
  X(kSubagentIdType, "SP-6.8.1-3")    \
  X(kParentExists, "SP-6.8.1-5")      \
  X(kParentType, "SP-6.8.1-6")        \
  X(kStartIdExists, "SP-6.8.2-2")     \
  X(kStartIdType, "SP-6.8.2-3")       \
  X(kStatusValue, "SP-6.8.2-5")       \
  X(kNestedHasParent, "SP-6.8.3-2")   \
  X(kAnnotationTs, "SP-6.9-2")        \
  X(kAnnotationTarget, "SP-6.9-3")    \
  X(kStyleValue, "SP-6.9.1-1")        \
  X(kMarkerTs, "SP-6.10-2")           \
  X(kReasonValue, "SP-6.10.1-1")      \
  X(kInlineRedacted, "SP-6.10.2-2")   \
  X(kMarkerTarget, "SP-6.10.3-2")     \
  X(kTypePrefix, "SP-7.2-1")          \
  X(kFieldPrefix, "SP-7.4-1")         \
  X(kVersionFormat, "SP-7.5-1")       \
  X(kVersionMajor, "SP-7.5-3")        \
  X(kIntegerSpelling, "SP-8.3-3")     \
  X(kUtf8, "SP-9.1-1")                \
  X(kEscapes, "SP-9.1-2")             \
  X(kBinaryRequired, "SP-9.2-2")      \
  X(kBinaryEncoding, "SP-9.2-3")      \
  X(kBinaryData, "SP-9.2-4")          \
  X(kBinaryOptional, "SP-9.2-5")      \
  X(kAttachmentIsBinary, "SP-9.3-2")  \
  X(kJsonDepthLimit, "SP-9.5-1")      \
  X(kFileSizeLimit, "SP-10.1-1")      \
  X(kLineLengthLimit, "SP-10.1-2")    \
  X(kEntryCountLimit, "SP-10.1-3")    \
  X(kSubagentDepthLimit, "SP-10.1-4") \
  X(kBase64SizeLimit, "SP-10.1-5")    \
  X(kUniqueNames, "SP-10.1-7")

// A requirement the checker cites.
struct RuleRef {
  std::string_view id;
};

namespace rule {
#define ARCS_DEFINE_RULE(name, id) constexpr RuleRef name{id};
ARCS_SPOOL_RULES(ARCS_DEFINE_RULE)
#undef ARCS_DEFINE_RULE
}  // namespace rule

// How a field's value is checked. Integers are non-negative wherever the spec uses one (all are
// times, counts or sizes).
enum class FieldType : std::uint8_t {
  kString,
  kBoolean,
  kInteger,
  kObject,
  kUuidRef,  // a reference to another entry: format checked here, target at the end
  kIso8601,
  kStringArray,
  kOutput,       // tool_result.output: string or object (§9.2 binary when "type":"binary")
  kAttachments,  // prompt.attachments: array of binary objects (§9.3)
  kTrimmed,      // session.trimmed (§6.1.2)
  kAny,          // defined by the spec without a type (e.g. _encoding_errors)
};

struct Field {
  std::string_view name;
  FieldType type;
  bool required;
};

struct EntryType {
  std::string_view name;
  std::span<const Field> fields;
  RuleRef required_rule;  // the table's "Required fields"
  RuleRef optional_rule;  // the table's "Optional fields"
};

// Besides its table's fields, every entry may carry "_redacted" (§6.10.2: inline redaction
// metadata on "the target entry", whatever its type).
constexpr Field kSessionFields[] = {
    {"version", FieldType::kString, true},       {"agent", FieldType::kString, true},
    {"recorded_at", FieldType::kIso8601, true},  {"agent_version", FieldType::kString, false},
    {"title", FieldType::kString, false},        {"author", FieldType::kString, false},
    {"tags", FieldType::kStringArray, false},    {"duration_ms", FieldType::kInteger, false},
    {"entry_count", FieldType::kInteger, false}, {"tools_used", FieldType::kStringArray, false},
    {"schema_url", FieldType::kString, false},   {"trimmed", FieldType::kTrimmed, false},
    {"ended", FieldType::kString, false},
};
constexpr Field kPromptFields[] = {
    {"content", FieldType::kString, true},
    {"attachments", FieldType::kAttachments, false},
    {"subagent_id", FieldType::kUuidRef, false},
};
constexpr Field kThinkingFields[] = {
    {"content", FieldType::kString, true},       {"collapsed", FieldType::kBoolean, false},
    {"truncated", FieldType::kBoolean, false},   {"original_bytes", FieldType::kInteger, false},
    {"subagent_id", FieldType::kUuidRef, false},
};
constexpr Field kToolCallFields[] = {
    {"tool", FieldType::kString, true},
    {"input", FieldType::kObject, true},
    {"subagent_id", FieldType::kUuidRef, false},
};
constexpr Field kToolResultFields[] = {
    {"call_id", FieldType::kUuidRef, true},
    {"output", FieldType::kOutput, false},
    {"error", FieldType::kAny, false},  // conditional: checked with output (§6.5)
    {"truncated", FieldType::kBoolean, false},
    {"original_bytes", FieldType::kInteger, false},
    {"_encoding_errors", FieldType::kAny, false},
    {"subagent_id", FieldType::kUuidRef, false},
};
constexpr Field kResponseFields[] = {
    {"content", FieldType::kString, true},
    {"truncated", FieldType::kBoolean, false},
    {"original_bytes", FieldType::kInteger, false},
    {"subagent_id", FieldType::kUuidRef, false},
};
constexpr Field kErrorFields[] = {
    {"code", FieldType::kString, true},          {"message", FieldType::kString, true},
    {"recoverable", FieldType::kBoolean, false}, {"details", FieldType::kObject, false},
    {"subagent_id", FieldType::kUuidRef, false},
};
constexpr Field kSubagentStartFields[] = {
    {"agent", FieldType::kString, true},
    {"context", FieldType::kString, false},
    {"parent_subagent_id", FieldType::kUuidRef, false},
    {"subagent_id", FieldType::kUuidRef, false},  // §6.8.3 item 2: a nested start is "within"
};
constexpr Field kSubagentEndFields[] = {
    {"start_id", FieldType::kUuidRef, true},
    {"summary", FieldType::kString, false},
    {"status", FieldType::kString, false},
    {"subagent_id", FieldType::kUuidRef, false},  // errata SP-E23
};
constexpr Field kAnnotationFields[] = {
    {"target_id", FieldType::kUuidRef, true},   {"content", FieldType::kString, true},
    {"author", FieldType::kString, false},      {"style", FieldType::kString, false},
    {"created_at", FieldType::kIso8601, false},
};
constexpr Field kRedactionMarkerFields[] = {
    {"target_id", FieldType::kUuidRef, true},
    {"reason", FieldType::kString, false},
    {"count", FieldType::kInteger, false},
    {"inline", FieldType::kBoolean, false},
};

constexpr EntryType kEntryTypes[] = {
    {"session", kSessionFields, {"SP-6.1-2"}, {"SP-6.1-4"}},
    {"prompt", kPromptFields, {"SP-6.2-1"}, {"SP-6.2-2"}},
    {"thinking", kThinkingFields, {"SP-6.3-1"}, {"SP-6.3-2"}},
    {"tool_call", kToolCallFields, {"SP-6.4-1"}, {"SP-6.4-2"}},
    {"tool_result", kToolResultFields, {"SP-6.5-1"}, {"SP-6.5-6"}},
    {"response", kResponseFields, {"SP-6.6-1"}, {"SP-6.6-2"}},
    {"error", kErrorFields, {"SP-6.7-1"}, {"SP-6.7-2"}},
    {"subagent_start", kSubagentStartFields, {"SP-6.8.1-1"}, {"SP-6.8.1-4"}},
    {"subagent_end", kSubagentEndFields, {"SP-6.8.2-1"}, {"SP-6.8.2-4"}},
    {"annotation", kAnnotationFields, {"SP-6.9-1"}, {"SP-6.9-4"}},
    {"redaction_marker", kRedactionMarkerFields, {"SP-6.10-1"}, {"SP-6.10-3"}},
};

// Whether some entry type's table (or §9.4, for tool_result) defines a field of this name.
bool DefinedForSomeType(std::string_view name) {
  for (const EntryType& t : kEntryTypes) {
    for (const Field& f : t.fields) {
      if (f.name == name) return true;
    }
  }
  return false;
}

const EntryType* FindEntryType(std::string_view name) {
  for (const EntryType& t : kEntryTypes) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

// Kinds of entries the cross-entry rules need to tell apart.
enum class Kind : std::uint8_t { kOther, kSession, kToolCall, kSubagentStart };

Kind KindOf(std::string_view type) {
  if (type == "session") return Kind::kSession;
  if (type == "tool_call") return Kind::kToolCall;
  if (type == "subagent_start") return Kind::kSubagentStart;
  return Kind::kOther;
}

constexpr std::string_view kEndedValues[] = {"completed", "cancelled", "error", "timeout",
                                             "unknown"};
constexpr std::string_view kStatusValues[] = {"completed", "failed", "cancelled"};
constexpr std::string_view kStyleValues[] = {"highlight", "comment", "pin", "warning", "success"};
constexpr std::string_view kReasonValues[] = {"api_key", "password",   "email", "phone",
                                              "path",    "ip_address", "pii",   "custom"};

template <std::size_t N>
bool OneOf(std::string_view value, const std::string_view (&values)[N]) {
  for (std::string_view v : values) {
    if (v == value) return true;
  }
  return false;
}

// The JSON Pointer of a member of the entry. Appended, not `"/" + std::string(name)`: on that
// GCC 12 at -O3 reports a false -Wrestrict (GCC bug 105651), and warnings are errors.
std::string MemberPointer(std::string_view name) {
  std::string pointer = "/";
  json::AppendPointerToken(name, &pointer);
  return pointer;
}

bool IsLowercaseHyphenated(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  char previous = '\0';
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok || (c == '-' && previous == '-')) return false;
    previous = c;
  }
  return true;
}

// Errata entries whose ARCS reading alone makes a finding an error (Finding::reading): where the
// text settles a question the finding carries no reading. Each errata entry defines the readings.
// A note with a reading (NoteByReading) marks the opposite: a value ARCS's reading accepts and
// another reading of the entry makes the *entry* invalid (handled by the reader's invalid_entry
// choice, so a reader declaring `skip` may drop it: conformance/spool/module.cc).
namespace reading {
constexpr std::string_view kBlankLines = "SP-E6";           // a blank line in a file
constexpr std::string_view kDuplicateNames = "SP-E8";       // RFC 8259 allows them
constexpr std::string_view kSecondSession = "SP-E9";        // the grammar's <entry> is untyped
constexpr std::string_view kUppercaseReference = "SP-E12";  // §5.1's MUST speaks of ids
constexpr std::string_view kIso8601 = "SP-E14";             // ISO 8601 beyond RFC 3339
constexpr std::string_view kClosedLists = "SP-E18";         // value lists without a MUST
constexpr std::string_view kObjectOutput = "SP-E19";        // every object output binary?
constexpr std::string_view kRedactedShape = "SP-E26";       // _redacted shaped by example only
constexpr std::string_view kRangeOrder = "SP-E17";          // [start_ms, end_ms] order implied
constexpr std::string_view kPadBits = "SP-E20";             // RFC 4648 §3.5: decoders MAY reject
constexpr std::string_view kAttachmentItems = "SP-E21";     // items typed only by example
constexpr std::string_view kReferenceTypes = "SP-E22";      // no MUST on a target's type
constexpr std::string_view kSubagentNesting = "SP-E24";     // cycles; two names of the parent
constexpr std::string_view kVersionSyntax = "SP-E28";       // no syntax for `version`
constexpr std::string_view kUnicodeBlank = "SP-E36";        // "whitespace" undefined
constexpr std::string_view kNegativeCounts = "SP-E38";      // "integer", no sign rule
constexpr std::string_view kTrimmedMembers = "SP-E39";      // a table without "Required"
constexpr std::string_view kOtherTypesField = "SP-E41";     // a spec name, another entry type
constexpr std::string_view kLaterMajor = "SP-E42";          // §7.5's MAY is a reader's
constexpr std::string_view kNullMember = "SP-E43";          // null: present or absent
}  // namespace reading

// Whether `text` is a date or date-time under SP-E14's `iso-8601` reading: an ISO 8601 complete
// calendar date, alone or with a time of day of reduced precision or not (hh, hh:mm, hh:mm:ss, a
// decimal fraction on the last, 24:00 as the end of the day, second 60), then nothing, a UTC
// designator or an offset (±hh or ±hh:mm, never a zero offset written with "-"); basic or
// extended format throughout, never mixed; "T" and "Z" in either case. A string RFC 3339 refuses
// but this accepts is an error only under ARCS's `rfc-3339` reading.
bool IsIso8601DateTime(std::string_view text) {
  using date_time::DaysInMonth;
  using date_time::Take;
  using date_time::TakeDigits;
  std::size_t pos = 0;
  std::optional<int> year = TakeDigits(text, &pos, 4);
  if (!year) return false;
  bool extended = Take(text, &pos, '-');
  std::optional<int> month = TakeDigits(text, &pos, 2);
  if (!month || *month < 1 || *month > 12 || (extended && !Take(text, &pos, '-'))) return false;
  std::optional<int> day = TakeDigits(text, &pos, 2);
  if (!day || *day < 1 || *day > DaysInMonth(*year, *month)) return false;
  if (pos == text.size()) return true;
  if (!Take(text, &pos, 'T', 't')) return false;
  // Hours, then minutes and seconds while they follow (after ':' in extended format).
  int parts[3] = {0, 0, 0};
  std::size_t count = 0;
  while (count < 3) {
    std::size_t at = pos;
    if (count > 0 && extended && !Take(text, &at, ':')) break;
    std::optional<int> part = TakeDigits(text, &at, 2);
    if (!part) {
      if (count == 0) return false;
      break;
    }
    parts[count++] = *part;
    pos = at;
  }
  bool fraction_zero = true;
  if (Take(text, &pos, '.', ',')) {
    std::size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (text[pos] != '0') fraction_zero = false;
      ++pos;
    }
    if (pos == start) return false;
  }
  bool end_of_day = parts[0] == 24 && parts[1] == 0 && parts[2] == 0 && fraction_zero;
  if ((parts[0] > 23 && !end_of_day) || parts[1] > 59 || parts[2] > 60) return false;
  if (pos == text.size()) return true;
  if (Take(text, &pos, 'Z', 'z')) return pos == text.size();
  bool minus = pos < text.size() && text[pos] == '-';
  if (!Take(text, &pos, '+', '-')) return false;
  std::optional<int> offset_hour = TakeDigits(text, &pos, 2);
  if (!offset_hour || *offset_hour > 23) return false;
  int offset_minute = 0;
  if (pos < text.size()) {
    if (extended && !Take(text, &pos, ':')) return false;
    std::optional<int> minute = TakeDigits(text, &pos, 2);
    if (!minute || *minute > 59) return false;
    offset_minute = *minute;
  }
  return pos == text.size() && !(minus && *offset_hour == 0 && offset_minute == 0);
}

// Whether a line that is not blank in JSON's sense (space, tab, CR) holds only Unicode White_Space
// (U+000B, U+000C, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
// U+3000): a blank line under SP-E36's `unicode-blank` readings.
bool IsUnicodeBlank(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    std::size_t rest = text.size() - i;
    unsigned char c = byte(0);
    if (c == ' ' || c == '\t' || c == '\r' || c == 0x0B || c == 0x0C) {
      i += 1;
    } else if (c == 0xC2 && rest >= 2 && (byte(1) == 0x85 || byte(1) == 0xA0)) {
      i += 2;
    } else if (rest >= 3 && ((c == 0xE1 && byte(1) == 0x9A && byte(2) == 0x80) ||
                             (c == 0xE2 && byte(1) == 0x80 &&
                              ((byte(2) >= 0x80 && byte(2) <= 0x8A) || byte(2) == 0xA8 ||
                               byte(2) == 0xA9 || byte(2) == 0xAF)) ||
                             (c == 0xE2 && byte(1) == 0x81 && byte(2) == 0x9F) ||
                             (c == 0xE3 && byte(1) == 0x80 && byte(2) == 0x80))) {
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

// Whether base64 text that is not canonical would be, once its pad bits were zero: RFC 4648 §3.5
// lets decoders ignore them (SP-E20). Only the last quantum holds pad bits.
bool CanonicalButForPadBits(std::string_view text) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (text.size() < 4 || text.size() % 4 != 0 || text.back() != '=') return false;
  if (!base64::DecodedSize(text.substr(0, text.size() - 4))) return false;
  std::string last(text.substr(text.size() - 4));
  std::size_t at = last[2] == '=' ? 1 : 2;  // the last character that carries bits
  std::size_t index = kAlphabet.find(last[at]);
  if (index == std::string_view::npos) return false;
  last[at] = kAlphabet[index & (at == 1 ? 0x30 : 0x3C)];
  return base64::DecodedSize(last).has_value();
}

// What the cross-entry rules remember of each entry with a well-formed id: 31 bytes.
#pragma pack(push, 1)
struct EntryRecord {
  Uuid id;
  std::int64_t ts;  // -1 when the entry's ts was unusable
  std::uint32_t line;
  Kind kind;
  bool has_redacted;  // carries inline "_redacted" metadata (§6.10.2)
  bool duplicated;    // another entry has the same id: references to it are ambiguous
};
#pragma pack(pop)

// A reference whose target was not seen yet; resolved when the file ends.
enum class RefKind : std::uint8_t {
  kCallId,
  kSubagentId,
  kParentSubagentId,
  kStartId,
  kAnnotationTarget,
  kMarkerTarget,
};

struct PendingRef {
  Uuid target;
  std::int64_t ts;  // the referring entry's ts (annotations and markers compare it)
  std::uint32_t line;
  RefKind kind;
  bool inline_redaction;
};

class Checker {
 public:
  Checker(const Limits& limits, Diagnostics* out)
      : limits_(limits), out_(out), parse_options_(arcs::spool::ParseOptionsFor(limits)) {}

  void Run(jsonl::ByteSource* source) {
    jsonl::LineReader reader(source, arcs::spool::LineOptionsFor(limits_));
    jsonl::Line line;
    while (!stopped_) {
      Result<bool> next = reader.Next(&line);
      if (!next.ok()) {
        if (next.status().code() == StatusCode::kLimitExceeded) {
          Report(rule::kFileSizeLimit, Severity::kError, {0, 0, ""},
                 "the file is larger than max_file_bytes=" +
                     std::to_string(limits_.max_file_bytes) + "; not read further");
        } else {
          Report(rule::kOneObjectPerLine, Severity::kError, {0, 0, ""},
                 "could not read the input: " + next.status().message());
        }
        break;
      }
      if (!*next) break;
      CheckLine(line);
    }
    Finish();
  }

 private:
  void Report(const RuleRef& rule, Severity severity, Location location, std::string message,
              std::string_view reading = {}) {
    out_->Add({std::string(rule.id), severity, std::move(location), std::move(message),
               std::string(reading)});
  }
  void Error(const RuleRef& rule, std::uint64_t line, std::string pointer, std::string message) {
    Report(rule, Severity::kError, {line, 0, std::move(pointer)}, std::move(message));
  }
  // An error only under ARCS's reading of errata entry `reading`: the text does not settle it.
  void ErrorByReading(std::string_view reading, const RuleRef& rule, std::uint64_t line,
                      std::string pointer, std::string message) {
    Report(rule, Severity::kError, {line, 0, std::move(pointer)}, std::move(message), reading);
  }
  void Warn(const RuleRef& rule, std::uint64_t line, std::string pointer, std::string message) {
    Report(rule, Severity::kWarning, {line, 0, std::move(pointer)}, std::move(message));
  }
  // Informative: ARCS's reading of errata entry `reading` accepts what another of its readings
  // makes an invalid entry. Never changes validity; no vector's rule set lists it.
  void NoteByReading(std::string_view reading, const RuleRef& rule, std::uint64_t line,
                     std::string pointer, std::string message) {
    Report(rule, Severity::kNote, {line, 0, std::move(pointer)}, std::move(message), reading);
  }

  void CheckLine(const jsonl::Line& line) {
    line_ = line.number;
    std::uint64_t column_base = line.bom ? 4 : 1;  // columns count the BOM's three bytes
    if (line.bom) {
      Report(rule::kUtf8WithoutBom, Severity::kError, {1, 1, ""},
             "the file starts with a UTF-8 byte order mark; Spool files MUST NOT have one");
    }
    if (line.ending == jsonl::Ending::kCrLf && crlf_lines_++ == 0) first_crlf_line_ = line.number;
    if (line.too_long) {
      Error(rule::kLineLengthLimit, line.number, "",
            "line of " + std::to_string(line.length) + " bytes is over max_line_bytes=" +
                std::to_string(limits_.max_line_bytes) + "; not checked");
      ++non_blank_lines_;
      return;
    }
    if (jsonl::IsBlank(line.text)) {
      // Reported only once the file proves not to be empty: an empty file has one finding.
      if (pending_blank_lines_.size() < 64) pending_blank_lines_.push_back(line.number);
      ++blank_lines_;
      return;
    }
    FlushBlankLines();
    ++non_blank_lines_;
    std::size_t lead = 0;
    while (lead < line.text.size() &&
           (line.text[lead] == ' ' || line.text[lead] == '\t' || line.text[lead] == '\r')) {
      ++lead;
    }
    std::size_t trail = line.text.size();
    while (trail > lead && (line.text[trail - 1] == ' ' || line.text[trail - 1] == '\t' ||
                            line.text[trail - 1] == '\r')) {
      --trail;
    }
    if (lead > 0 || trail < line.text.size()) {
      Report(rule::kOneObjectPerLine, Severity::kError,
             {line.number, column_base + (lead > 0 ? 0 : trail), ""},
             "whitespace outside the JSON object on this line");
    }
    if (IsUnicodeBlank(line.text)) {
      ErrorByReading(reading::kUnicodeBlank, rule::kOneObjectPerLine, line.number, "",
                     "the line holds only white space that is not JSON whitespace: not JSON");
      NoteFirstEntry(false, reading::kUnicodeBlank);
      return;
    }
    // Read where the line stands (strings with an escape decoded into the document), not copied
    // first: nothing of the document is used once the next line is read.
    if (!document_.ParseBorrowing(line.text, parse_options_)) {
      ReportJsonError(line.text, document_.error(), line.number, column_base);
      NoteFirstEntry(false);
      return;
    }
    const Value& entry = document_.root();
    if (!entry.is_object()) {
      Report(rule::kOneObjectPerLine, Severity::kError, {line.number, column_base + lead, ""},
             std::string("the line is a JSON ") + std::string(json::KindName(entry.kind())) +
                 ", not an object");
      NoteFirstEntry(false);
      return;
    }
    for (const json::Duplicate& d : document_.duplicates()) {
      Report(rule::kUniqueNames, Severity::kError, {line.number, column_base + d.offset, d.pointer},
             "duplicate member name; readers disagree on which value counts",
             reading::kDuplicateNames);
    }
    if (++entries_ > limits_.max_entries) {
      Error(rule::kEntryCountLimit, line.number, "",
            "more entries than max_entries=" + std::to_string(limits_.max_entries) +
                "; the rest of the file is not checked");
      stopped_ = true;
      return;
    }
    if (document_.duplicates().empty()) {
      CheckEntry(entry);
    } else {
      CheckEntryBothWays(entry);
    }
  }

  // RFC 8259 §4 leaves the value of a repeated name to the reader ("Many implementations report
  // the last name/value pair only"); the checks see the first (Find) and every occurrence (the
  // member loops). Under errata SP-E8's `rfc-8259` reading the entry is what its reader keeps: the
  // first or the last value of each repeated name. Unless both give an error the text settles, the
  // entry's untagged errors rest on SP-E8's reading alone and say so. The cross-entry rules judged
  // later (forward references, nesting depth) and the duplicate-id rule are not re-judged.
  void CheckEntryBothWays(const Value& entry) {
    std::string first_values;
    std::string last_values;
    json::Write(entry, &last_values, json::WriteStyle::kPython);
    // Deeper than kMaxFirstWinsDepth (a configured max_json_depth far above the default): left
    // as the first values judge it, untagged.
    const bool settled = !WriteFirstWins(entry, &first_values, 0) ||
                         (DryRunFindsError(first_values) && DryRunFindsError(last_values));
    Diagnostics* real = out_;
    Diagnostics found;
    out_ = &found;
    CheckEntry(entry);
    out_ = real;
    for (Finding f : found.findings()) {
      if (!settled && f.severity == Severity::kError && f.reading.empty() &&
          f.rule_id != rule::kIdUnique.id && f.rule_id != rule::kEntryCountLimit.id) {
        f.reading = std::string(reading::kDuplicateNames);
      }
      out_->Add(std::move(f));
    }
  }

  // Whether the entry `text` (no repeated names) has an error the text settles, checked as the
  // current line without changing the cross-entry state (the id index is left alone).
  bool DryRunFindsError(const std::string& text) {
    json::Document doc;
    if (!doc.Parse(text, parse_options_) || !doc.duplicates().empty()) return true;
    const std::int64_t previous_ts = previous_ts_;
    const bool seen_first = seen_first_;
    const bool later_minor = later_minor_;
    const bool stopped = stopped_;
    const std::size_t pending = pending_.size();
    const std::size_t parents = parents_.size();
    Diagnostics* real = out_;
    Diagnostics found;
    out_ = &found;
    dry_run_ = true;
    CheckEntry(doc.root());
    dry_run_ = false;
    out_ = real;
    previous_ts_ = previous_ts;
    seen_first_ = seen_first;
    later_minor_ = later_minor;
    stopped_ = stopped;
    pending_.resize(pending);
    parents_.resize(parents);
    for (const Finding& f : found.findings()) {
      if (f.severity == Severity::kError && f.reading.empty()) return true;
    }
    return false;
  }

  // `value` as compact JSON keeping the first member of each repeated name, at every depth; false
  // when it nests deeper than kMaxFirstWinsDepth (this recurses).
  static constexpr int kMaxFirstWinsDepth = 512;
  static bool WriteFirstWins(const Value& value, std::string* out, int depth) {
    if (depth > kMaxFirstWinsDepth) return false;
    if (value.is_object()) {
      out->push_back('{');
      KeyedStringViewSet seen;
      for (const json::Member& m : value.members()) {
        if (!seen.insert(m.name).second) continue;
        if (out->back() != '{') out->push_back(',');
        json::AppendQuoted(m.name, out);
        out->push_back(':');
        if (!WriteFirstWins(m.value, out, depth + 1)) return false;
      }
      out->push_back('}');
    } else if (value.is_array()) {
      out->push_back('[');
      for (const Value& item : value.items()) {
        if (out->back() != '[') out->push_back(',');
        if (!WriteFirstWins(item, out, depth + 1)) return false;
      }
      out->push_back(']');
    } else {
      json::Write(value, out);
    }
    return true;
  }

  // Whether text[offset] lies inside a JSON string, judging by the unescaped quotes before it.
  static bool InsideString(std::string_view text, std::size_t offset) {
    bool inside = false;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
      if (inside && text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        inside = !inside;
      }
    }
    return inside;
  }

  void ReportJsonError(std::string_view text, const json::ParseError& error, std::uint64_t line,
                       std::uint64_t base) {
    RuleRef rule = rule::kOneObjectPerLine;
    switch (error.code) {
      case json::ErrorCode::kInvalidUtf8:
        rule = rule::kUtf8WithoutBom;
        break;
      case json::ErrorCode::kLoneSurrogate:
        rule = rule::kUtf8;
        break;
      case json::ErrorCode::kNulByte:
        if (InsideString(text, error.offset)) rule = rule::kEscapes;
        break;
      case json::ErrorCode::kControlCharacter:
        rule = rule::kEscapes;
        break;
      case json::ErrorCode::kDepthExceeded:
        rule = rule::kJsonDepthLimit;
        break;
      default:
        break;
    }
    Report(rule, Severity::kError, {line, base + error.offset, ""},
           std::string(error.code == json::ErrorCode::kDepthExceeded ? "" : "not JSON: ") +
               error.message +
               (error.code == json::ErrorCode::kDepthExceeded ? " (max_json_depth)" : ""));
  }

  void FlushBlankLines() {
    for (std::uint64_t blank : pending_blank_lines_) {
      ErrorByReading(reading::kBlankLines, rule::kOneObjectPerLine, blank, "",
                     "blank line; each line MUST hold one JSON object");
    }
    pending_blank_lines_.clear();
  }

  // The first non-blank line decides whether the file starts with a session entry. `because` is
  // the errata entry under whose reading alone that line is not blank.
  void NoteFirstEntry(bool is_session, std::string_view because = {}) {
    if (seen_first_) return;
    seen_first_ = true;
    if (!is_session) {
      ErrorByReading(because, rule::kSessionFirst, line_, "",
                     "the first line is not a session entry; a Spool file MUST start with one");
    }
  }

  void CheckEntry(const Value& entry) {
    const Value* type_value = entry.Find("type");
    std::string_view type;
    if (!type_value) {
      Error(rule::kTypePresent, line_, "", "the entry has no \"type\"");
    } else if (!type_value->is_string()) {
      Error(rule::kTypePresent, line_, "/type", "\"type\" is not a string");
    } else {
      type = type_value->text();
    }
    bool is_session = type == "session";
    if (!seen_first_) {
      NoteFirstEntry(is_session);
      if (is_session) ReadVersion(entry);
    } else if (is_session) {
      ErrorByReading(reading::kSecondSession, rule::kOneSession, line_, "/type",
                     "a second session entry; the session entry is the first line only");
    }

    EntryRecord record{};
    record.line = static_cast<std::uint32_t>(std::min<std::uint64_t>(line_, 0xFFFFFFFF));
    record.kind = KindOf(type);
    record.ts = CheckTs(entry, is_session);
    record.has_redacted = entry.Find("_redacted") != nullptr;
    std::optional<Uuid> id = CheckId(entry);
    const std::uint64_t id_hash = id ? index_.Prefetch(*id) : 0;  // for the Insert below

    const EntryType* entry_type =
        type_value && type_value->is_string() ? FindEntryType(type) : nullptr;
    if (type_value && type_value->is_string() && !entry_type) CheckUnknownType(type);
    CheckFields(entry, entry_type);
    if (entry_type) CheckTypeSpecific(entry, *entry_type, record);

    if (id && !dry_run_) {
      record.id = *id;
      switch (index_.Insert(record, id_hash)) {
        case IdIndex<EntryRecord>::Inserted::kAdded:
          break;
        case IdIndex<EntryRecord>::Inserted::kDuplicate:
          Error(rule::kIdUnique, line_, "/id",
                "duplicate id " + Excerpt(entry.Find("id")->text(), 80) +
                    "; ids MUST be unique within a file");
          break;
        case IdIndex<EntryRecord>::Inserted::kFull:
          // Only when max_entries is set above the index's capacity (id_index.h).
          Error(rule::kEntryCountLimit, line_, "",
                "more than " + std::to_string(index_.capacity()) +
                    " entries with an id, the most this validator can index for the cross-entry "
                    "rules (max_entries=" +
                    std::to_string(limits_.max_entries) +
                    " allows more); the rest of the file is not checked");
          stopped_ = true;
          break;
      }
    }
  }

  void ReadVersion(const Value& session) {
    const Value* version = session.Find("version");
    if (!version || !version->is_string()) return;  // the session table reports it
    std::string_view v = version->text();
    std::size_t dot = v.find('.');
    auto digits = [](std::string_view s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (dot == std::string_view::npos || !digits(v.substr(0, dot)) || !digits(v.substr(dot + 1))) {
      ErrorByReading(reading::kVersionSyntax, rule::kVersionFormat, line_, "/version",
                     "version " + Quoted(v) + " is not MAJOR.MINOR");
      return;
    }
    std::string_view major = v.substr(0, dot);
    std::string_view minor = v.substr(dot + 1);
    major.remove_prefix(std::min(major.find_first_not_of('0'), major.size()));
    minor.remove_prefix(std::min(minor.find_first_not_of('0'), minor.size()));
    if (major.empty()) {
      ErrorByReading(reading::kVersionSyntax, rule::kVersionFormat, line_, "/version",
                     "version " + std::string(v) + " has major version 0; Spool starts at 1.0");
      return;
    }
    if (major != "1") {
      ErrorByReading(
          reading::kLaterMajor, rule::kVersionMajor, line_, "/version",
          "version " + std::string(v) + " is not a Spool 1.x version; this validator rejects it");
      return;
    }
    later_minor_ = !minor.empty();
  }

  // Returns the entry's ts, or -1 when it is unusable.
  std::int64_t CheckTs(const Value& entry, bool is_session) {
    const Value* ts = entry.Find("ts");
    if (!ts) {
      Error(rule::kTsPresent, line_, "", "the entry has no \"ts\"");
      return -1;
    }
    if (!ts->is_number()) {
      Error(rule::kTsPresent, line_, "/ts", "\"ts\" is not a number");
      return -1;
    }
    json::NumberInfo info = json::Classify(ts->text());
    if (!info.integral) {
      Error(rule::kTsPresent, line_, "/ts",
            "\"ts\" " + Excerpt(ts->text(), 80) + " is not an integer");
      return -1;
    }
    if (is_session && !info.zero) {
      Error(rule::kSessionTsZero, line_, "/ts", "the session entry's ts MUST be 0");
    }
    if (info.negative && !info.zero) {
      Error(rule::kTsNonNegative, line_, "/ts",
            "\"ts\" " + Excerpt(ts->text(), 80) + " is negative");
      return -1;
    }
    std::optional<std::int64_t> value = json::IntegralValueToInt64(ts->text());
    if (!value) {
      Error(rule::kTsRange, line_, "/ts", "\"ts\" " + Excerpt(ts->text(), 80) + " is over 2^63-1");
      return -1;
    }
    if (info.has_fraction || info.has_exponent) {
      Warn(rule::kIntegerSpelling, line_, "/ts",
           "integer written as " + Excerpt(ts->text(), 80) +
               "; write it without a fraction or exponent");
    }
    if (*value < previous_ts_) {
      Warn(rule::kTsOrder, line_, "/ts",
           "ts " + std::to_string(*value) + " is lower than the previous entry's " +
               std::to_string(previous_ts_));
    }
    previous_ts_ = *value;
    return *value;
  }

  std::optional<Uuid> CheckId(const Value& entry) {
    const Value* id = entry.Find("id");
    if (!id) {
      Error(rule::kIdPresent, line_, "", "the entry has no \"id\"");
      return std::nullopt;
    }
    return CheckUuid(*id, "id", rule::kIdFormat);
  }

  // `reference`: the value names another entry (a `uuid` field), not the entry's own id.
  std::optional<Uuid> CheckUuid(const Value& value, std::string_view member, const RuleRef& rule,
                                bool reference = false) {
    std::optional<Uuid> uuid;
    if (value.is_string()) uuid = ParseLowercaseUuid(value.text());
    if (!uuid) {
      // §5.1's lowercase MUST speaks of ids; a reference in upper case is a UUID to RFC 9562.
      std::string_view because;
      if (reference && value.is_string()) {
        std::string lower(value.text());
        for (char& c : lower) {
          if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
        }
        if (ParseLowercaseUuid(lower)) because = reading::kUppercaseReference;
      }
      ErrorByReading(because, rule, line_, MemberPointer(member),
                     (value.is_string() ? Quoted(value.text()) : json::DescribeKind(value.kind())) +
                         " is not a lowercase hyphenated UUID");
    }
    return uuid;
  }

  void CheckUnknownType(std::string_view type) {
    if (type.starts_with("x_")) return;
    std::string message = "unknown entry type " + Quoted(type) + " without the x_ prefix";
    if (later_minor_) {
      Warn(rule::kTypePrefix, line_, "/type", message + " (may belong to a later 1.x version)");
    } else {
      Error(rule::kTypePrefix, line_, "/type", message);
    }
  }

  // `_redacted` is not checked (D12); SP-E26's `redacted-shape` reading takes the §6.10.2 example
  // as its format, an array of objects, and makes another value an invalid entry.
  void CheckRedactedShape(const Value& value) {
    bool shaped = value.is_array();
    for (std::size_t i = 0; shaped && i < value.items().size(); ++i) {
      shaped = value.items()[i].is_object();
    }
    if (!shaped) {
      NoteByReading(reading::kRedactedShape, rule::kInlineRedacted, line_, "/_redacted",
                    "_redacted is not checked; read as the §6.10.2 example's shape (an array "
                    "of objects), this value would not be one");
    }
  }

  // Required fields, field types, and unknown fields.
  void CheckFields(const Value& entry, const EntryType* type) {
    if (type) {
      for (const Field& f : type->fields) {
        if (f.required && !entry.Find(f.name)) {
          Error(type->required_rule, line_, "",
                std::string(type->name) + " entry has no \"" + std::string(f.name) + "\"");
        }
      }
    }
    for (const json::Member& m : entry.members()) {
      if (m.name == "_redacted") {
        CheckRedactedShape(m.value);
        continue;
      }
      if (m.name == "id" || m.name == "ts" || m.name == "type") continue;
      const Field* field = nullptr;
      if (type) {
        for (const Field& f : type->fields) {
          if (f.name == m.name) field = &f;
        }
      }
      bool conditional = type && type->name == "tool_result" &&
                         (m.name == "output" || m.name == "error");  // CheckTypeSpecific
      if (field && !field->required && !conditional && m.value.is_null()) {
        ErrorByReading(reading::kNullMember, type->optional_rule, line_, MemberPointer(m.name),
                       MemberPointer(m.name) + " is null; a field present has its table's type");
        continue;
      }
      if (field) {
        CheckField(*field, m.value, field->required ? type->required_rule : type->optional_rule);
        continue;
      }
      if (!type || m.name.starts_with("x_")) continue;  // unknown types: only common fields
      std::string message = "unknown field " + Quoted(m.name) + " without the x_ prefix";
      std::string pointer = MemberPointer(m.name);
      if (later_minor_) {
        Warn(rule::kFieldPrefix, line_, pointer, message + " (may belong to a later 1.x version)");
      } else if (DefinedForSomeType(m.name)) {
        ErrorByReading(reading::kOtherTypesField, rule::kFieldPrefix, line_, pointer,
                       message + " (the spec defines it for another entry type)");
      } else {
        Error(rule::kFieldPrefix, line_, pointer, message);
      }
    }
  }

  void TypeError(const RuleRef& rule, const std::string& pointer, std::string_view expected,
                 const Value& value, std::string_view because = {}) {
    ErrorByReading(because, rule, line_, pointer,
                   pointer + " is " + json::DescribeKind(value.kind()) + ", expected " +
                       std::string(expected));
  }

  // A non-negative integer without fraction or exponent, as nearly every count and time is written:
  // CheckInteger has nothing to report of it, so its caller need not build a pointer.
  static bool IsPlainCount(const Value& value) {
    if (!value.is_number()) return false;
    const std::string_view text = value.text();
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  // `because`: the errata entry under whose reading alone the enclosing value is checked at all.
  void CheckInteger(const RuleRef& rule, const std::string& pointer, const Value& value,
                    std::string_view because = {}) {
    if (!value.is_number()) {
      return TypeError(rule, pointer, "a non-negative integer", value, because);
    }
    json::NumberInfo info = json::Classify(value.text());
    if (!info.integral) {
      return TypeError(rule, pointer, "an integer, not a fraction", value, because);
    }
    if (info.negative && !info.zero) {
      ErrorByReading(because.empty() ? reading::kNegativeCounts : because, rule, line_, pointer,
                     pointer + " is negative; it counts time, entries or bytes");
      return;
    }
    if (info.has_fraction || info.has_exponent) {
      Warn(rule::kIntegerSpelling, line_, pointer,
           "integer written as " + Excerpt(value.text(), 80) +
               "; write it without a fraction or exponent");
    }
  }

  void CheckField(const Field& field, const Value& value, const RuleRef& rule) {
    // Built only for a finding: nearly every member is valid.
    const auto pointer = [&] { return MemberPointer(field.name); };
    switch (field.type) {
      case FieldType::kString:
        if (!value.is_string()) TypeError(rule, pointer(), "a string", value);
        break;
      case FieldType::kBoolean:
        if (!value.is_bool()) TypeError(rule, pointer(), "a boolean", value);
        break;
      case FieldType::kInteger:
        if (!IsPlainCount(value)) CheckInteger(rule, pointer(), value);
        break;
      case FieldType::kObject:
        if (!value.is_object()) TypeError(rule, pointer(), "an object", value);
        break;
      case FieldType::kUuidRef:
        break;  // a reference: checked with its target, in CheckReferences
      case FieldType::kIso8601:
        if (!value.is_string()) {
          TypeError(rule, pointer(), "an ISO 8601 date-time string", value);
        } else if (!IsRfc3339DateTime(value.text())) {
          ErrorByReading(IsIso8601DateTime(value.text()) ? reading::kIso8601 : std::string_view(),
                         rule, line_, pointer(),
                         Quoted(value.text()) + " is not an RFC 3339 date-time");
        } else if (!IsIso8601DateTime(value.text()) ||
                   value.text().find_first_of("tz") != std::string_view::npos) {
          // RFC 3339 accepts lower-case "t"/"z" and "-00:00"; SP-E14's `iso-8601-date-time`
          // reading (ISO 8601 as printed: upper-case designators, no "-00:00") refuses them.
          NoteByReading(reading::kIso8601, rule, line_, pointer(),
                        Quoted(value.text()) +
                            " is an RFC 3339 date-time, not ISO 8601 as printed "
                            "(upper-case T and Z, no -00:00)");
        }
        break;
      case FieldType::kStringArray:
        if (!value.is_array()) {
          TypeError(rule, pointer(), "an array of strings", value);
          break;
        }
        for (std::size_t i = 0; i < value.items().size(); ++i) {
          if (!value.items()[i].is_string()) {
            TypeError(rule, pointer() + "/" + std::to_string(i), "a string", value.items()[i]);
          }
        }
        break;
      case FieldType::kOutput:
        if (value.is_object()) {
          const Value* t = value.Find("type");
          if (t && t->is_string() && t->text() == "binary") {
            CheckBinary(value, pointer(), {});
          } else {
            NoteByReading(reading::kObjectOutput, rule::kBinaryRequired, line_, pointer(),
                          "an object output without \"type\":\"binary\" is taken as "
                          "free-form structured output, not a binary object");
          }
        } else if (!value.is_string() && !value.is_null()) {  // null: CheckTypeSpecific
          TypeError(rule::kOutputErrorTypes, pointer(), "a string or an object", value);
        }
        break;
      case FieldType::kAttachments:
        if (!value.is_array()) {
          TypeError(rule, pointer(), "an array of binary objects", value);
          break;
        }
        for (std::size_t i = 0; i < value.items().size(); ++i) {
          const Value& item = value.items()[i];
          std::string item_pointer = pointer() + "/" + std::to_string(i);
          const Value* t = item.Find("type");
          if (!item.is_object() || !t || !t->is_string() || t->text() != "binary") {
            ErrorByReading(reading::kAttachmentItems, rule::kAttachmentIsBinary, line_,
                           item_pointer,
                           "an attachment MUST be a binary object (\"type\":\"binary\")");
          } else {
            CheckBinary(item, item_pointer, reading::kAttachmentItems);
          }
        }
        break;
      case FieldType::kTrimmed:
        CheckTrimmed(value, pointer());
        break;
      case FieldType::kAny:
        break;
    }
  }

  // `because`: the errata entry under whose reading alone this object must be a binary object
  // (an attachment, SP-E21); empty for a tool_result output with "type":"binary" (§9.2).
  void CheckBinary(const Value& binary, const std::string& pointer, std::string_view because) {
    struct Part {
      std::string_view name;
      FieldType type;
      bool required;
    };
    static constexpr Part kParts[] = {
        {"media_type", FieldType::kString, true}, {"encoding", FieldType::kString, true},
        {"data", FieldType::kString, true},       {"size_bytes", FieldType::kInteger, false},
        {"filename", FieldType::kString, false},  {"truncated", FieldType::kBoolean, false},
    };
    for (const Part& part : kParts) {
      const Value* v = binary.Find(part.name);
      const auto p = [&] { return pointer + "/" + std::string(part.name); };
      const RuleRef& rule = part.required ? rule::kBinaryRequired : rule::kBinaryOptional;
      if (!v) {
        if (part.required) {
          ErrorByReading(because, rule, line_, pointer,
                         "binary object has no \"" + std::string(part.name) + "\"");
        }
        continue;
      }
      std::string_view why =
          because.empty() && !part.required && v->is_null() ? reading::kNullMember : because;
      if (part.type == FieldType::kInteger) {
        if (!IsPlainCount(*v)) CheckInteger(rule, p(), *v, why);
      } else if (part.type == FieldType::kBoolean && !v->is_bool()) {
        TypeError(rule, p(), "a boolean", *v, why);
      } else if (part.type == FieldType::kString && !v->is_string()) {
        TypeError(rule, p(), "a string", *v, why);
      }
    }
    const Value* encoding = binary.Find("encoding");
    if (encoding && encoding->is_string() && encoding->text() != "base64") {
      ErrorByReading(because, rule::kBinaryEncoding, line_, pointer + "/encoding",
                     "encoding " + Quoted(encoding->text()) + "; it MUST be \"base64\"");
    }
    const Value* data = binary.Find("data");
    if (data && data->is_string()) {
      std::optional<std::size_t> size = base64::DecodedSize(data->text());
      if (!size) {
        std::string_view pad_bits =
            CanonicalButForPadBits(data->text()) ? reading::kPadBits : std::string_view();
        ErrorByReading(because.empty() ? pad_bits : because, rule::kBinaryData, line_,
                       pointer + "/data", "data is not canonical RFC 4648 base64");
      } else if (*size > limits_.max_base64_bytes) {
        Error(rule::kBase64SizeLimit, line_, pointer + "/data",
              "data decodes to " + std::to_string(*size) +
                  " bytes, over max_base64_bytes=" + std::to_string(limits_.max_base64_bytes));
      }
    }
  }

  void CheckTrimmed(const Value& trimmed, const std::string& pointer) {
    if (!trimmed.is_object()) {
      return TypeError(FindEntryType("session")->optional_rule, pointer, "an object", trimmed);
    }
    const Value* duration = trimmed.Find("original_duration_ms");
    if (!duration) {
      ErrorByReading(reading::kTrimmedMembers, rule::kTrimmed, line_, pointer,
                     "trimmed has no \"original_duration_ms\"");
    } else {
      CheckInteger(rule::kTrimmed, pointer + "/original_duration_ms", *duration);
    }
    const Value* range = trimmed.Find("kept_range");
    if (!range) {
      ErrorByReading(reading::kTrimmedMembers, rule::kTrimmed, line_, pointer,
                     "trimmed has no \"kept_range\"");
    } else if (!range->is_array() || range->items().size() != 2) {
      Error(rule::kTrimmed, line_, pointer + "/kept_range",
            "kept_range MUST be a two-element array [start_ms, end_ms]");
    } else {
      const Value& start = range->items()[0];
      const Value& end = range->items()[1];
      CheckInteger(rule::kTrimmed, pointer + "/kept_range/0", start);
      CheckInteger(rule::kTrimmed, pointer + "/kept_range/1", end);
      std::optional<std::int64_t> from, to;
      if (start.is_number()) from = json::IntegralValueToInt64(start.text());
      if (end.is_number()) to = json::IntegralValueToInt64(end.text());
      if (from && to && *from > *to) {
        ErrorByReading(reading::kRangeOrder, rule::kTrimmed, line_, pointer + "/kept_range",
                       "kept_range starts after it ends");
      }
    }
  }

  void CheckEnum(const Value& entry, std::string_view name, const RuleRef& rule,
                 bool (*allowed)(std::string_view)) {
    const Value* v = entry.Find(name);
    if (v && v->is_string() && !allowed(v->text())) {
      Warn(rule, line_, MemberPointer(name),
           Quoted(v->text()) + " is not one of the values the spec lists");
      NoteByReading(reading::kClosedLists, rule, line_, MemberPointer(name),
                    "taken as an open list; a closed list makes the entry invalid");
    }
  }

  void CheckTypeSpecific(const Value& entry, const EntryType& type, const EntryRecord& record) {
    std::string_view name = type.name;
    if (name == "session") {
      CheckEnum(entry, "ended", rule::kEndedValue,
                [](std::string_view v) { return OneOf(v, kEndedValues); });
      const Value* agent = entry.Find("agent");
      if (agent && agent->is_string() && !IsLowercaseHyphenated(agent->text())) {
        Warn(rule::kAgentIdentifier, line_, "/agent",
             "agent " + Quoted(agent->text()) + " is not a lowercase identifier with hyphens");
      }
    } else if (name == "tool_result") {
      const Value* output = entry.Find("output");
      const Value* error = entry.Find("error");
      // Under SP-E43's `null-is-absent` reading a null member is not given: its findings are
      // errors by that reading only when exactly one of the two members is given.
      bool output_given = output && !output->is_null();
      bool error_given = error && !error->is_null();
      std::string_view because =
          output_given != error_given ? reading::kNullMember : std::string_view();
      if ((output != nullptr) == (error != nullptr)) {
        ErrorByReading(output_given == error_given ? std::string_view() : because,
                       rule::kOutputXorError, line_, "",
                       output ? "tool_result has both \"output\" and \"error\""
                              : "tool_result has neither \"output\" nor \"error\"");
      }
      if (output && output->is_null()) {
        TypeError(rule::kOutputErrorTypes, "/output", "a string or an object", *output, because);
      }
      if (error && !error->is_string()) {
        TypeError(rule::kOutputErrorTypes, "/error", "a string", *error,
                  error->is_null() ? because : std::string_view());
      }
    } else if (name == "subagent_end") {
      CheckEnum(entry, "status", rule::kStatusValue,
                [](std::string_view v) { return OneOf(v, kStatusValues); });
    } else if (name == "annotation") {
      CheckEnum(entry, "style", rule::kStyleValue,
                [](std::string_view v) { return OneOf(v, kStyleValues); });
    } else if (name == "redaction_marker") {
      CheckEnum(entry, "reason", rule::kReasonValue,
                [](std::string_view v) { return OneOf(v, kReasonValues); });
    }
    CheckReferences(entry, type, record);
    if (name == "subagent_start") CheckNesting(entry, record);
  }

  static RefKind RefKindOf(std::string_view field, std::string_view type) {
    if (field == "call_id") return RefKind::kCallId;
    if (field == "subagent_id") return RefKind::kSubagentId;
    if (field == "parent_subagent_id") return RefKind::kParentSubagentId;
    if (field == "start_id") return RefKind::kStartId;
    return type == "annotation" ? RefKind::kAnnotationTarget : RefKind::kMarkerTarget;
  }

  // Checks each reference's format (a type error of its table when malformed) and judges it
  // against its target when the target was already seen; otherwise keeps it for the end.
  void CheckReferences(const Value& entry, const EntryType& type, const EntryRecord& record) {
    const Value* inline_flag = entry.Find("inline");
    bool inline_redaction = type.name == "redaction_marker" && inline_flag &&
                            inline_flag->is_bool() && inline_flag->as_bool();
    for (const Field& f : type.fields) {
      if (f.type != FieldType::kUuidRef) continue;
      const Value* value = entry.Find(f.name);
      // A missing required reference is reported with the table, a null optional one by
      // CheckFields.
      if (!value || (!f.required && value->is_null())) continue;
      std::optional<Uuid> target = CheckUuid(
          *value, f.name, f.required ? type.required_rule : type.optional_rule, /*reference=*/true);
      if (!target) continue;
      PendingRef ref{*target, record.ts, record.line, RefKindOf(f.name, type.name),
                     inline_redaction};
      if (const EntryRecord* found = index_.Find(*target)) {
        Resolve(ref, found);
      } else {
        pending_.push_back(ref);
      }
    }
  }

  // §6.8.3: a nested start names its parent; depth along parent chains is bounded.
  void CheckNesting(const Value& entry, const EntryRecord& record) {
    const Value* within = entry.Find("subagent_id");
    const Value* parent = entry.Find("parent_subagent_id");
    if (within && !parent) {
      Error(rule::kNestedHasParent, line_, "",
            "a subagent_start inside a subagent (it has subagent_id) MUST have "
            "parent_subagent_id");
    }
    if (within && parent && within->is_string() && parent->is_string() &&
        within->text() != parent->text()) {
      ErrorByReading(reading::kSubagentNesting, rule::kNestedHasParent, line_,
                     "/parent_subagent_id",
                     "parent_subagent_id and subagent_id name different subagents; both name the "
                     "enclosing one");
    }
    std::optional<Uuid> parent_id;
    if (parent && parent->is_string()) parent_id = ParseLowercaseUuid(parent->text());
    const Value* own = entry.Find("id");
    std::optional<Uuid> own_id;
    if (own && own->is_string()) own_id = ParseLowercaseUuid(own->text());
    if (parent_id && own_id) parents_.push_back({*own_id, *parent_id, record.line});
  }

  void CheckSubagentDepths() {
    auto is_start = [&](const Uuid& id) {
      const EntryRecord* r = index_.Find(id);
      return r && !r->duplicated && r->kind == Kind::kSubagentStart;
    };
    const std::uint64_t limit = limits_.max_subagent_depth;
    std::vector<arcs::spool::DepthViolation> violations =
        arcs::spool::FindDepthViolations(parents_, is_start, limit);
    // A depth is reported only for a chain that ends, without a cycle, above the limit; a chain
    // that runs into a cycle is reported as the cycle. Under SP-E24's `cycle-ignored` reading the
    // depth of a start is the number of distinct starts along its chain: when that is within the
    // limit, the cycle is over it under ARCS's reading alone; a start whose chain holds more
    // distinct starts than the limit is over it under both, and is reported on its own.
    bool any_cycle = false;
    for (const arcs::spool::DepthViolation& v : violations) any_cycle = any_cycle || v.depth == 0;
    std::unordered_map<Uuid, std::size_t, UuidHash> by_child;
    if (any_cycle) {
      for (std::size_t i = 0; i < parents_.size(); ++i) by_child.emplace(parents_[i].child, i);
    }
    // The distinct starts along link i's chain, counted up to `cap`, and whether it runs into a
    // cycle that i is not on.
    auto distinct_depth = [&](std::size_t i, std::uint64_t cap) {
      std::unordered_set<std::size_t> seen = {i};
      std::uint64_t depth = 1;
      for (std::size_t at = i; depth < cap && is_start(parents_[at].parent);) {
        auto next = by_child.find(parents_[at].parent);
        if (next != by_child.end() && seen.contains(next->second)) {
          return std::pair{depth, next->second != i};
        }
        ++depth;
        if (next == by_child.end()) break;
        seen.insert(next->second);
        at = next->second;
      }
      return std::pair{depth, false};
    };
    for (const arcs::spool::DepthViolation& v : violations) {
      bool cycle_only = v.depth == 0 && distinct_depth(v.link, limit + 1).first <= limit;
      ErrorByReading(cycle_only ? reading::kSubagentNesting : std::string_view(),
                     rule::kSubagentDepthLimit, parents_[v.link].line, "/parent_subagent_id",
                     v.depth == 0
                         ? "parent_subagent_id chains form a cycle: unbounded nesting depth"
                         : "subagent nesting depth " + std::to_string(v.depth) +
                               " is over max_subagent_depth=" + std::to_string(limit));
    }
    for (std::size_t i = 0; any_cycle && i < parents_.size(); ++i) {
      auto [depth, into_cycle] = distinct_depth(i, limit + 2);
      if (into_cycle && depth == limit + 1) {
        Error(rule::kSubagentDepthLimit, parents_[i].line, "/parent_subagent_id",
              "subagent nesting depth " + std::to_string(depth) + " (each start counted once) is " +
                  "over max_subagent_depth=" + std::to_string(limit));
      }
    }
  }

  // Judges a reference against its target (nullptr: the file has no such entry).
  void Resolve(const PendingRef& ref, const EntryRecord* target) {
    struct Expectation {
      std::string_view field;
      RuleRef exists;
      RuleRef type;
      Kind kind;  // kOther: any kind will do
    };
    static constexpr Expectation kExpectations[] = {
        {"call_id", rule::kCallIdExists, rule::kCallIdType, Kind::kToolCall},
        {"subagent_id", rule::kSubagentIdExists, rule::kSubagentIdType, Kind::kSubagentStart},
        {"parent_subagent_id", rule::kParentExists, rule::kParentType, Kind::kSubagentStart},
        {"start_id", rule::kStartIdExists, rule::kStartIdType, Kind::kSubagentStart},
        {"target_id", rule::kAnnotationTarget, rule::kAnnotationTarget, Kind::kOther},
        {"target_id", rule::kMarkerTarget, rule::kMarkerTarget, Kind::kOther},
    };
    const Expectation& e = kExpectations[static_cast<int>(ref.kind)];
    std::string pointer = MemberPointer(e.field);
    if (target && target->duplicated) return;  // ambiguous: the duplicate id is the finding
    if (!target) {
      Warn(e.exists, ref.line, pointer,
           std::string(e.field) + " refers to an id that no entry of this file has" +
               (ref.kind == RefKind::kMarkerTarget ? " (orphaned marker: ignored, kept)" : ""));
      return;
    }
    if (e.kind != Kind::kOther && target->kind != e.kind) {
      ErrorByReading(reading::kReferenceTypes, e.type, ref.line, pointer,
                     std::string(e.field) + " refers to the entry on line " +
                         std::to_string(target->line) + ", which is not a " +
                         (e.kind == Kind::kToolCall ? "tool_call" : "subagent_start"));
    }
    bool marks = ref.kind == RefKind::kAnnotationTarget || ref.kind == RefKind::kMarkerTarget;
    if (marks && ref.ts >= 0 && target->ts >= 0 && ref.ts != target->ts) {
      Warn(ref.kind == RefKind::kAnnotationTarget ? rule::kAnnotationTs : rule::kMarkerTs, ref.line,
           "/ts",
           "ts " + std::to_string(ref.ts) + " differs from its target's ts " +
               std::to_string(target->ts) + " (line " + std::to_string(target->line) + ")");
    }
    if (ref.inline_redaction && !target->has_redacted) {
      Warn(rule::kInlineRedacted, ref.line, "/inline",
           "inline is true but the target entry (line " + std::to_string(target->line) +
               ") has no \"_redacted\" metadata");
    }
  }

  void Finish() {
    if (non_blank_lines_ == 0 && !stopped_) {
      Error(rule::kNotEmpty, 0, "",
            blank_lines_ ? "the file holds only whitespace; it MUST contain a session entry"
                         : "the file is empty; it MUST contain a session entry");
    }
    if (non_blank_lines_ > 0) FlushBlankLines();
    for (const PendingRef& ref : pending_) Resolve(ref, index_.Find(ref.target));
    CheckSubagentDepths();
    if (crlf_lines_ > 0) {
      Warn(rule::kLfEndings, first_crlf_line_, "",
           std::to_string(crlf_lines_) +
               " line(s) end with CRLF, the first here; writers SHOULD use LF");
    }
    out_->Sort();
  }

  const Limits& limits_;
  Diagnostics* out_;
  json::ParseOptions parse_options_;
  json::Document document_;
  IdIndex<EntryRecord> index_;
  std::vector<PendingRef> pending_;
  std::vector<arcs::spool::SubagentLink> parents_;  // one per subagent_start that names a parent
  std::vector<std::uint64_t> pending_blank_lines_;
  std::uint64_t line_ = 0;
  std::uint64_t entries_ = 0;
  std::uint64_t non_blank_lines_ = 0;
  std::uint64_t blank_lines_ = 0;
  std::uint64_t crlf_lines_ = 0;
  std::uint64_t first_crlf_line_ = 0;
  std::int64_t previous_ts_ = 0;
  bool seen_first_ = false;
  bool later_minor_ = false;  // the session's version is 1.x with x > 0
  bool stopped_ = false;
  bool dry_run_ = false;  // CheckEntryBothWays: the id index is left alone
};

}  // namespace

void Validate(jsonl::ByteSource* source, const Limits& limits, Diagnostics* diagnostics) {
  Checker(limits, diagnostics).Run(source);
}

std::vector<std::string_view> AllRules() {
  std::vector<std::string_view> rules = {
#define ARCS_RULE_ID(name, id) id,
      ARCS_SPOOL_RULES(ARCS_RULE_ID)
#undef ARCS_RULE_ID
  };
  for (const EntryType& t : kEntryTypes) {
    rules.push_back(t.required_rule.id);
    rules.push_back(t.optional_rule.id);
  }
  return rules;
}

}  // namespace arcs::conformance::spool
