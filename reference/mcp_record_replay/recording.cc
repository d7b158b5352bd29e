#include "reference/mcp_record_replay/recording.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <span>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/json_fields.h"
#include "reference/core/json_schema.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"
#include "reference/mcp_record_replay/jsonrpc.h"

namespace arcs::mcp_record_replay {
namespace {

using json::Value;

// The catalogue ids of conformance/mcp_record_replay/requirements.json this file cites.
constexpr std::string_view kNotJson = "MRR-JSON-1";
constexpr std::string_view kNdjsonText = "MRR-JSON-2";
constexpr std::string_view kByteOrderMark = "MRR-JSON-3";
constexpr std::string_view kRepeatedName = "MRR-JSON-4";
constexpr std::string_view kLimit = "MRR-JSON-5";
constexpr std::string_view kLineType = "MRR-FORMAT-8";
constexpr std::string_view kHeaderFirst = "MRR-HEADER-1";
constexpr std::string_view kSecondHeader = "MRR-HEADER-2";
constexpr std::string_view kVersionValue = "MRR-HEADER-3";
constexpr std::string_view kSeqOrder = "MRR-MESSAGE-7";
constexpr std::string_view kNoKind = "MRR-MESSAGE-9";
constexpr std::string_view kAfterFooter = "MRR-FOOTER-1";
constexpr std::string_view kFooterCounts = "MRR-FOOTER-3";
constexpr std::string_view kOrphanResponse = "MRR-JSONRPC-7";

// The errata entries whose readings alone make some findings errors (RecordingFinding::reading):
// the spec text settles every error cited without one. A warning names the entry of the stricter
// reading that would make it an error, so that `arcs fuzz` finds a validator that takes that
// reading open, not wrong.
// What only serde, or only the schema, refuses.
constexpr std::string_view kTwoStatements = "MRR-E2";
constexpr std::string_view kBomReading = "MRR-E6";
constexpr std::string_view kBlankLineReading = "MRR-E8";
constexpr std::string_view kFinalNewlineReading = "MRR-E9";
constexpr std::string_view kSecondHeaderReading = "MRR-E13";
constexpr std::string_view kVersionReading = "MRR-E17";
constexpr std::string_view kSeqOrderReading = "MRR-E19";
constexpr std::string_view kDateTimeReading = "MRR-E20";
constexpr std::string_view kSerdeJsonReading = "MRR-E48";  // what only serde_json's parser refuses
constexpr std::string_view kTruncatedReading = "MRR-E49";  // a cut-off last line (line-format)
constexpr std::string_view kCountsReading = "MRR-E15";     // counts-exact
constexpr std::string_view kRepeatedNameReading = "MRR-E24";  // refuse
constexpr std::string_view kJsonRpcReading = "MRR-E26";       // json-rpc-required
constexpr std::string_view kPairingReading = "MRR-E28";       // paired-required

// The requirement each Departure of jsonrpc.h cites, in the enum's order.
constexpr std::string_view kDepartureRules[] = {kNoKind,         "MRR-JSONRPC-1", "MRR-JSONRPC-2",
                                                "MRR-JSONRPC-3", "MRR-JSONRPC-4", "MRR-JSONRPC-5",
                                                "MRR-JSONRPC-6", "MRR-JSONRPC-8"};

// What a Serde field decodes, and the requirement a value it cannot decode cites.
enum class FieldType : std::uint8_t {
  kString,
  kOptionalString,
  kStringList,
  kDateTime,
  kU64,
  kOptionalU64,
  kDirection,
  kAny
};
struct Field {
  std::string_view name;
  FieldType type;
  bool required;
  std::string_view rule;
};

constexpr Field kHeaderFields[] = {
    {"version", FieldType::kString, true, "MRR-HEADER-4"},
    {"name", FieldType::kOptionalString, false, "MRR-HEADER-5"},
    {"tags", FieldType::kStringList, false, "MRR-HEADER-6"},
    {"recorded_at", FieldType::kDateTime, true, "MRR-HEADER-7"},
    {"upstream", FieldType::kString, true, "MRR-HEADER-8"},
    {"thoughtjack_version", FieldType::kString, true, "MRR-HEADER-9"},
};
constexpr Field kMessageFields[] = {
    {"seq", FieldType::kU64, true, "MRR-MESSAGE-2"},
    {"ts", FieldType::kDateTime, true, "MRR-MESSAGE-3"},
    {"dir", FieldType::kDirection, true, "MRR-MESSAGE-4"},
    {"msg", FieldType::kAny, true, "MRR-MESSAGE-5"},
    {"latency_ms", FieldType::kOptionalU64, false, "MRR-MESSAGE-6"},
};
constexpr Field kFooterFields[] = {
    {"total_messages", FieldType::kU64, true, "MRR-FOOTER-4"},
    {"duration_ms", FieldType::kU64, true, "MRR-FOOTER-5"},
    {"client_messages", FieldType::kU64, true, "MRR-FOOTER-6"},
    {"server_messages", FieldType::kU64, true, "MRR-FOOTER-7"},
};

// serde's u64: digits only (no sign, fraction or exponent: 1.0 and -0 are floats to serde_json),
// at most 2^64-1.
std::optional<std::uint64_t> U64(const Value& v) {
  if (!v.is_number()) return std::nullopt;
  return ParseCount(v.text(), std::numeric_limits<std::uint64_t>::max());
}

// Why `v` does not decode as `type`, or "" when it does.
std::string Mismatch(const Value& v, FieldType type) {
  const auto kind = [&] { return json::DescribeKind(v.kind()); };  // only for a finding
  switch (type) {
    case FieldType::kOptionalString:
      if (v.is_null()) return "";
      [[fallthrough]];
    case FieldType::kString:
      return v.is_string() ? "" : kind() + ", not a string";
    case FieldType::kStringList:
      if (!v.is_array()) return kind() + ", not an array of strings";
      for (const Value& item : v.items()) {
        if (!item.is_string()) return "an array holding " + json::DescribeKind(item.kind());
      }
      return "";
    case FieldType::kDateTime:
      if (!v.is_string()) return kind() + ", not a date-time string";
      return IsRfc3339DateTime(v.text()) ? ""
                                         : Quoted(v.text(), 60) + " is not an RFC 3339 date-time";
    case FieldType::kOptionalU64:
      if (v.is_null()) return "";
      [[fallthrough]];
    case FieldType::kU64:
      return U64(v) ? ""
                    : (v.is_number() ? Excerpt(v.text(), 40) : kind()) +
                          ", not an unsigned 64-bit integer written with digits only";
    case FieldType::kDirection:
      return v.is_string() && (v.text() == "c2s" || v.text() == "s2c")
                 ? ""
                 : "neither \"c2s\" nor \"s2c\"";
    case FieldType::kAny:
      return "";
  }
  return "";
}

bool AsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Whether chrono's DateTime<Utc> deserializer reads `s` (errata MRR-E20 `chrono-relaxed`): an RFC
// 3339 form that may also have a space (or spaces) for `T`, spaces around the offset and the
// whole, `UTC` for an offset, an offset without its colon, one-digit month and day; the date real,
// seconds required.
bool ChronoRelaxed(std::string_view s) {
  std::size_t i = 0;
  const auto spaces = [&] {
    const std::size_t from = i;
    while (i < s.size() && AsciiSpace(s[i])) ++i;
    return i > from;
  };
  const auto literal = [&](std::string_view l) {
    if (!s.substr(i).starts_with(l)) return false;
    i += l.size();
    return true;
  };
  // Between min and max ASCII digits (as many as there are), their value in *out. The value is
  // summed only when asked for (at most 4 digits then): a fraction's digits have no bound.
  const auto digits = [&](std::size_t min, std::size_t max, int* out) {
    std::size_t n = 0;
    int value = 0;
    while (i < s.size() && n < max && s[i] >= '0' && s[i] <= '9') {
      if (out) value = value * 10 + (s[i] - '0');
      ++i;
      ++n;
    }
    if (out) *out = value;
    return n >= min;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  spaces();
  if (!digits(4, 4, &year) || !literal("-") || !digits(1, 2, &month) || !literal("-") ||
      !digits(1, 2, &day)) {
    return false;
  }
  if (!literal("T") && !literal("t") && !spaces()) return false;
  if (!digits(1, 2, &hour) || !literal(":") || !digits(2, 2, &minute) || !literal(":") ||
      !digits(2, 2, &second)) {
    return false;
  }
  if (literal(".") && !digits(1, std::string_view::npos, nullptr)) return false;
  spaces();
  if (!literal("Z") && !literal("z") && !literal("UTC")) {
    if (!literal("+") && !literal("-")) return false;
    if (!digits(2, 2, nullptr)) return false;
    literal(":");
    if (!digits(2, 2, nullptr)) return false;
  }
  spaces();
  if (i != s.size() || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 ||
      second > 60) {
    return false;
  }
  const int y = year == 0 ? 2000 : year;  // chrono's proleptic year 0 is a leap year
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return day <= kDays[month - 1] + (month == 2 && leap);
}

// The errata entry whose reading alone makes `v`, which does not decode as `type`, an error: a
// string that chrono reads although it is no RFC 3339 date-time (MRR-E20); `-0`, the integer 0 to
// the u64 declared and a float to serde_json (MRR-E48); another integer in value that serde's u64
// refuses for its spelling or size (MRR-E2: the schema's "integer" with "minimum": 0 takes 1.0 and
// 2^64); "" when every reading refuses it.
std::string_view MismatchReading(const Value& v, FieldType type) {
  if (type == FieldType::kDateTime && v.is_string() && ChronoRelaxed(v.text())) {
    return kDateTimeReading;
  }
  if ((type == FieldType::kU64 || type == FieldType::kOptionalU64) && v.is_number()) {
    if (v.text() == "-0") return kSerdeJsonReading;
    const json::NumberInfo n = json::Classify(v.text());
    if (n.integral && (!n.negative || n.zero)) return kTwoStatements;
  }
  return "";
}

// A version the pattern admits whose major number is 1 ("1.1", "01.0"): EC-REC-008 names only
// "1.0" as supported, and a reader of minor versions as compatible takes it (MRR-E17).
bool MajorOne(std::string_view version) {
  const std::size_t dot = version.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == version.size()) return false;
  const auto digits = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::string_view major = version.substr(0, dot);
  if (!digits(major) || !digits(version.substr(dot + 1))) return false;
  while (major.size() > 1 && major.front() == '0') major.remove_prefix(1);
  return major == "1";
}

}  // namespace

class LineChecker::Impl {
 public:
  Impl(const Limits& limits, FindingSink sink, bool with_schema)
      : limits_(limits), sink_(std::move(sink)), with_schema_(with_schema) {}

  bool Line(const jsonl::Line& line) {
    const bool unterminated = line.ending == jsonl::Ending::kNone;
    kind_ = "";
    object_ = nullptr;
    number_ = line.number;
    unread_reading_ = "";
    if (line.too_long) {
      Error(kLimit, "",
            "the line is " + std::to_string(line.length) + " bytes, over max_line_bytes (" +
                std::to_string(limits_.max_line_bytes) + ")");
      return false;
    }
    if (line.bom) {
      Error(kByteOrderMark, "", "the file starts with a byte order mark (U+FEFF)", kBomReading);
    }
    if (jsonl::IsBlank(line.text)) {
      Error(kNotJson, "", "a blank line: every line of NDJSON is one JSON text", kBlankLineReading);
      return true;
    }
    const bool first = lines_++ == 0;  // blank lines aside
    json::ParseOptions options;
    options.max_depth = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(limits_.max_json_depth, std::numeric_limits<std::uint32_t>::max()));
    // Read where the line stands (strings with an escape decoded into the document), not copied
    // first: the line stays as it is until the next Line().
    if (!doc_.ParseBorrowing(line.text, options)) {
      if (doc_.error().code == json::ErrorCode::kDepthExceeded) {
        Error(kLimit, "",
              "nested deeper than max_json_depth (" + std::to_string(limits_.max_json_depth) + ")");
        return false;
      }
      // A lone surrogate escape is grammatical JSON that serde_json refuses, and the String
      // declared and the schema's Python read (MRR-E48). A cut-off last line is no JSON text
      // (MRR-E10); after a valid portion (a header read), the spec's load validation skips it
      // and uses the rest (EC-REC-002), which MRR-E49's `load-tolerance` makes valid.
      std::string_view reading;
      if (doc_.error().code == json::ErrorCode::kLoneSurrogate) {
        unread_reading_ = kSerdeJsonReading;
        reading = unread_reading_;
      } else if (unterminated && header_seen_) {
        reading = kTruncatedReading;
      }
      Error(kNotJson, "",
            (unterminated ? "the last line is cut off (a truncated recording, EC-REC-002): "
                          : "not one JSON text: ") +
                doc_.error().message,
            reading);
    } else {
      if (unterminated) {
        Error(kNdjsonText, "", "the last line has no line feed after it (errata MRR-E9)",
              kFinalNewlineReading);
      }
      // A CR that ends a last line without LF is the CR of a CRLF ending cut before its LF: the
      // missing LF is the finding (MRR-E9). A CR anywhere else is inside the JSON text.
      const std::string_view text = line.text;
      const bool cut_crlf = unterminated && text.ends_with('\r');
      if (text.substr(0, text.size() - cut_crlf).find('\r') != std::string_view::npos) {
        Error(kNdjsonText, "",
              "a carriage return inside the line: JSON whitespace, but NDJSON's JSON texts hold "
              "none (only one before the line feed is allowed; errata MRR-E7)");
      }
      kind_ = Object(doc_.root(), first);
      if (doc_.root().is_object()) object_ = &doc_.root();
      if (kind_ == "header") header_seen_ = true;
    }
    // A first line unread only under a reading would be the header under the others.
    if (first && kind_ != "header") {
      Error(kHeaderFirst, "", "the first line is not the header", unread_reading_);
    }
    return true;
  }

  void End() {
    if (lines_ == 0) Error(kHeaderFirst, "", "the recording is empty: it has no header");
  }

  const Value* object() const { return object_; }
  std::string_view kind() const { return kind_; }

 private:
  void Add(std::string_view rule, std::string pointer, std::string message, bool warning,
           std::string_view reading = "") {
    sink_({std::string(rule), "", "", number_, std::move(pointer), warning, std::move(message),
           std::string(reading)});
  }
  void Error(std::string_view rule, std::string pointer, std::string message,
             std::string_view reading = "") {
    Add(rule, std::move(pointer), std::move(message), false, reading);
  }
  void Warning(std::string_view rule, std::string pointer, std::string message,
               std::string_view reading) {
    Add(rule, std::move(pointer), std::move(message), true, reading);
  }

  // The line's type ("header", "message", "footer"; "" for none), its findings reported.
  std::string_view Object(const Value& root, bool first) {
    if (!root.is_object()) {
      Error(kNotJson, "",
            "the line is a JSON " + std::string(json::KindName(root.kind())) + ", not an object");
      return "";
    }
    if (const Value* big = json::FirstNumberBeyondDoubles(doc_)) {
      unread_reading_ = kSerdeJsonReading;
      Error(kNotJson, "",
            "the number " + Excerpt(big->text(), 40) +
                " is beyond the doubles: serde_json refuses it (errata MRR-E48)",
            unread_reading_);
      return "";
    }
    for (const json::Duplicate& d : doc_.duplicates()) {
      Warning(kRepeatedName, d.pointer, "a member name repeated in its object",
              kRepeatedNameReading);
    }
    // serde's tag of an internally tagged enum may not be written twice (its duplicate-field
    // error); the schema statement reads the last, and so does what follows here.
    const Value* type = root.FindLast("type");
    if (type && root.Find("type") != type) {
      Error(kLineType, "/type", "type is written twice: serde refuses it", kTwoStatements);
    }
    const std::string_view kind = type && type->is_string() ? type->text() : "";
    if (with_schema_) Schema(root, kind);
    if (kind != "header" && kind != "message" && kind != "footer") {
      Error(kLineType, "/type", "a line's type is \"header\", \"message\" or \"footer\"");
      return "";
    }
    Position(kind, first);
    if (kind == "header") Header(root);
    if (kind == "message") Message(root);
    if (kind == "footer") Footer(root);
    return kind;
  }

  // The schema statement (Python's json keeps the last of repeated names). A oneOf error with a
  // definition the line's type names is reported as that definition's errors.
  void Schema(const Value& root, std::string_view kind) {
    std::vector<json::SchemaError> errors =
        RecordingSchema().Evaluate(root, json::RepeatedNamesRead::kLastWins);
    if (errors.empty()) return;
    const std::string selected = "#/definitions/" + std::string(kind);
    for (json::SchemaError& e : errors) {
      std::vector<json::SchemaError> cited;
      for (json::SchemaError& c : e.context) {
        if (!kind.empty() && (c.location == selected || c.location.starts_with(selected + "/"))) {
          cited.push_back(std::move(c));
        }
      }
      if (cited.empty()) cited.push_back(std::move(e));
      for (json::SchemaError& c : cited) {
        const std::string_view reading = SchemaReading(root, kind, c);
        sink_({"", std::move(c.location), std::move(c.keyword), number_,
               std::move(c.instance_pointer), false, "schema: " + c.message, std::string(reading)});
      }
    }
  }

  // The errata entry whose reading alone makes the schema error `e` an error: the date-time format
  // of a string chrono reads (MRR-E20); a member value the Serde field decodes (MRR-E2: `"name":
  // null`, `"latency_ms": null`, a msg that is not an object, a version the pattern refuses); ""
  // when the Serde statement refuses the value too, or the error is the line's (a required member,
  // the oneOf).
  static std::string_view SchemaReading(const Value& root, std::string_view kind,
                                        const json::SchemaError& e) {
    std::string_view member = e.instance_pointer;
    if (!member.starts_with('/')) return "";
    member.remove_prefix(1);
    member = member.substr(0, member.find('/'));
    const Value* v = root.FindLast(member);
    if (!v) return "";
    if (e.keyword == "format") {
      return v->is_string() && ChronoRelaxed(v->text()) ? kDateTimeReading : "";
    }
    std::span<const Field> fields;
    if (kind == "header") fields = kHeaderFields;
    if (kind == "message") fields = kMessageFields;
    if (kind == "footer") fields = kFooterFields;
    for (const Field& f : fields) {
      if (f.name == member) return Mismatch(*v, f.type).empty() ? kTwoStatements : "";
    }
    return "";
  }

  static const json::Schema& RecordingSchema() {
    static const json::Schema schema = [] {
      Result<json::Schema> compiled = json::Schema::Compile(RecordingSchemaText());
      if (!compiled.ok()) std::abort();  // the embedded schema compiles (recording_test.cc)
      return std::move(*compiled);
    }();
    return schema;
  }

  // The order of lines (errata MRR-E12 to MRR-E14): the header first and once, nothing after the
  // footer.
  void Position(std::string_view kind, bool first) {
    if (footer_seen_) Error(kAfterFooter, "", "a line after the footer");
    if (!first && kind == "header") {
      Error(kSecondHeader, "", "a header after the first line: a recording has one header",
            kSecondHeaderReading);
    }
  }

  // The Serde struct's fields: each decodes, and a required one is there. A member written twice
  // is serde's duplicate-field error.
  template <std::size_t N>
  void Fields(const Value& line, const Field (&fields)[N]) {
    for (const Field& f : fields) {
      const Value* v = line.Find(f.name);
      const auto pointer = [&] { return "/" + std::string(f.name); };  // only for a finding
      if (!v) {
        if (f.required) Error(f.rule, pointer(), std::string(f.name) + " is missing");
        continue;
      }
      if (line.FindLast(f.name) != v) {
        Error(f.rule, pointer(), std::string(f.name) + " is written twice: serde refuses it",
              kTwoStatements);
      }
      if (std::string why = Mismatch(*v, f.type); !why.empty()) {
        Error(f.rule, pointer(), std::string(f.name) + " is " + why, MismatchReading(*v, f.type));
      }
    }
  }

  void Header(const Value& line) {
    Fields(line, kHeaderFields);
    const Value* version = line.Find("version");
    if (version && version->is_string() && version->text() != "1.0") {
      Error(kVersionValue, "/version",
            "version " + Quoted(version->text(), 40) +
                " is not \"1.0\", the only version this format defines (EC-REC-008)",
            MajorOne(version->text()) ? kVersionReading : "");
    }
  }

  void Message(const Value& line) {
    Fields(line, kMessageFields);
    const Value* seq = line.Find("seq");
    const std::optional<std::uint64_t> n = seq ? U64(*seq) : std::nullopt;
    if (n && last_seq_ && *n <= *last_seq_) {
      Error(kSeqOrder, "/seq",
            "seq " + std::to_string(*n) + " does not follow " + std::to_string(*last_seq_) +
                ": seq increases from message to message (errata MRR-E19)",
            kSeqOrderReading);
    }
    if (n) last_seq_ = n;
    ++messages_;
    const Value* dir = line.Find("dir");
    const bool client = dir && dir->is_string() && dir->text() == "c2s";
    client_messages_ += client;
    server_messages_ += dir && dir->is_string() && dir->text() == "s2c";
    if (const Value* msg = line.Find("msg"); msg && msg->is_object()) Rpc(*msg, client);
  }

  // The JSON-RPC shape of msg: warnings (errata MRR-E26, recorded-as-sent), and pairing.
  void Rpc(const Value& msg, bool client) {
    const Classified c = Classify(msg);
    for (const Issue& i : c.issues) {
      const std::string_view rule = kDepartureRules[static_cast<std::size_t>(i.departure)];
      // A request id that is null or fractional breaks a SHOULD of JSON-RPC: no reading of
      // MRR-E26 makes it an error.
      Warning(rule, "/msg", i.message, rule == "MRR-JSONRPC-4" ? "" : kJsonRpcReading);
    }
    PendingIds& mine = client ? client_requests_ : server_requests_;
    PendingIds& theirs = client ? server_requests_ : client_requests_;
    if (c.kind == MessageKind::kRequest) mine.Add(*c.id, 0);
    const bool response = c.kind == MessageKind::kResponse || c.kind == MessageKind::kError;
    if (response && !c.id->is_null() && !theirs.Take(*c.id)) {
      Warning(kOrphanResponse, "/msg/id",
              "a response to no request: no earlier request from the other side with this id is "
              "waiting for its response (errata MRR-E28)",
              kPairingReading);
    }
  }

  void Footer(const Value& line) {
    Fields(line, kFooterFields);
    footer_seen_ = true;
    const std::pair<std::string_view, std::uint64_t> counts[] = {
        {"total_messages", messages_},
        {"client_messages", client_messages_},
        {"server_messages", server_messages_}};
    for (const auto& [name, counted] : counts) {
      const Value* v = line.Find(name);
      const std::optional<std::uint64_t> n = v ? U64(*v) : std::nullopt;
      if (n && *n != counted) {
        Warning(kFooterCounts, "/" + std::string(name),
                std::string(name) + " is " + std::to_string(*n) + ", the file holds " +
                    std::to_string(counted) + " (errata MRR-E15)",
                kCountsReading);
      }
    }
  }

  const Limits limits_;
  const FindingSink sink_;
  const bool with_schema_;
  json::Document doc_;  // reused from line to line
  const Value* object_ = nullptr;
  std::string_view kind_;
  std::uint64_t number_ = 0;
  std::uint64_t lines_ = 0;   // lines read, blank lines aside
  bool header_seen_ = false;  // a header line read: a cut-off last line has a valid portion
  // The errata entry whose reading alone left the line unread (MRR-E48), "" when none did.
  std::string_view unread_reading_;
  std::optional<std::uint64_t> last_seq_;
  std::uint64_t messages_ = 0, client_messages_ = 0, server_messages_ = 0;
  bool footer_seen_ = false;
  PendingIds client_requests_, server_requests_;
};

std::vector<std::string_view> RecordingRuleIds() {
  std::vector<std::string_view> ids = {kNotJson,       kNdjsonText, kByteOrderMark, kRepeatedName,
                                       kLimit,         kLineType,   kHeaderFirst,   kSecondHeader,
                                       kVersionValue,  kSeqOrder,   kAfterFooter,   kFooterCounts,
                                       kOrphanResponse};
  ids.insert(ids.end(), std::begin(kDepartureRules), std::end(kDepartureRules));
  for (std::span<const Field> fields :
       {std::span<const Field>(kHeaderFields), std::span<const Field>(kMessageFields),
        std::span<const Field>(kFooterFields)}) {
    for (const Field& f : fields) ids.push_back(f.rule);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

LineChecker::LineChecker(const Limits& limits, FindingSink sink, bool with_schema)
    : impl_(std::make_unique<Impl>(limits, std::move(sink), with_schema)) {}
LineChecker::~LineChecker() = default;
bool LineChecker::Line(const jsonl::Line& line) { return impl_->Line(line); }
void LineChecker::End() { impl_->End(); }
const json::Value* LineChecker::last_object() const { return impl_->object(); }
std::string_view LineChecker::last_type() const { return impl_->kind(); }

Status CheckRecording(jsonl::ByteSource* source, const Limits& limits, const FindingSink& sink) {
  jsonl::LineOptions options;
  options.max_line_bytes = limits.max_line_bytes;
  jsonl::LineReader reader(source, options);
  LineChecker checker(limits, sink);
  jsonl::Line line;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (!checker.Line(line)) return Status::Ok();
  }
  checker.End();
  return Status::Ok();
}

}  // namespace arcs::mcp_record_replay
