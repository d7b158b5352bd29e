#include "conformance/lightbox/checker.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/core/canonical.h"
#include "reference/core/json.h"
#include "reference/core/keyed_hash.h"
#include "reference/core/number.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"

namespace arcs::conformance::lightbox {
namespace {

// Every rule the validator cites, written once: the constants below and AllRules() come from it.
#define ARCS_LIGHTBOX_RULES(X)             \
  X(kJsonObjectLine, "LB-LAYOUT-1")        \
  X(kLimits, "LB-LAYOUT-5")                \
  X(kSchemaVersionField, "LB-EVENT-1")     \
  X(kSessionIdField, "LB-EVENT-2")         \
  X(kInvocationIdField, "LB-EVENT-3")      \
  X(kToolField, "LB-EVENT-4")              \
  X(kInputField, "LB-EVENT-5")             \
  X(kOutputField, "LB-EVENT-6")            \
  X(kStatusField, "LB-EVENT-7")            \
  X(kTimestampStartField, "LB-EVENT-8")    \
  X(kTimestampEndField, "LB-EVENT-9")      \
  X(kPrevHashField, "LB-EVENT-10")         \
  X(kHashField, "LB-EVENT-11")             \
  X(kStatusValue, "LB-EVENT-12")           \
  X(kInvocationIdShape, "LB-EVENT-13")     \
  X(kInvocationIdUnique, "LB-EVENT-14")    \
  X(kTimestampStartShape, "LB-EVENT-15")   \
  X(kTimestampEndShape, "LB-EVENT-16")     \
  X(kOutputNullOnlyPending, "LB-EVENT-17") \
  X(kEndNullOnlyPending, "LB-EVENT-18")    \
  X(kOneSession, "LB-EVENT-19")            \
  X(kParentInvocationField, "LB-OPT-1")    \
  X(kActorField, "LB-OPT-2")               \
  X(kOriginatingActorField, "LB-OPT-3")    \
  X(kErrorField, "LB-OPT-4")               \
  X(kChunkCountField, "LB-OPT-5")          \
  X(kTotalBytesField, "LB-OPT-6")          \
  X(kContentHashesField, "LB-OPT-7")       \
  X(kRetryOfField, "LB-OPT-8")             \
  X(kParentKnown, "LB-OPT-9")              \
  X(kParentNotSelf, "LB-OPT-10")           \
  X(kErrorOnlyOnError, "LB-OPT-11")        \
  X(kCountsNonNegative, "LB-OPT-12")       \
  X(kErrorDetails, "LB-OPT-13")            \
  X(kNoFloats, "LB-CANON-5")               \
  X(kUnicodeText, "LB-CANON-8")            \
  X(kUniqueNames, "LB-CANON-9")            \
  X(kHashMatches, "LB-HASH-2")             \
  X(kHashHex, "LB-HASH-3")                 \
  X(kFirstPrevNull, "LB-HASH-4")           \
  X(kLinked, "LB-HASH-5")                  \
  X(kPendingShape, "LB-ASYNC-2")           \
  X(kResolutionShape, "LB-ASYNC-3")        \
  X(kRetryNotSelf, "LB-RETRY-1")           \
  X(kRetryTarget, "LB-RETRY-2")            \
  X(kRedactionPath, "LB-REDACT-1")         \
  X(kRedactionMarker, "LB-REDACT-2")       \
  X(kRedactionHash, "LB-REDACT-3")         \
  X(kMetaObject, "LB-META-1")              \
  X(kMetaSessionId, "LB-META-2")           \
  X(kMetaSchemaVersion, "LB-META-3")       \
  X(kMetaLightboxVersion, "LB-META-4")     \
  X(kMetaCreatedAt, "LB-META-5")           \
  X(kMetaAgrees, "LB-META-6")

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

// A field of kFields, named in the code: a name the tables do not list fails to compile.
class Field {
 public:
  // Implicit, for a literal. For a name kFields does not list the loop runs past the array's end,
  // which is no constant expression: the call does not compile.
  template <std::size_t N>
  consteval Field(const char (&name)[N]) {  // NOLINT(google-explicit-constructor)
    while (kFields[index_].name != std::string_view(name, N - 1)) ++index_;
  }
  static Field At(std::size_t index) { return Field(index); }
  std::size_t index() const { return index_; }
  std::string_view name() const { return kFields[index_].name; }

 private:
  explicit Field(std::size_t index) : index_(index) {}
  std::size_t index_ = 0;
};

// The members of one event that kFields names, found in one pass over its members: the checks ask
// for them some forty times an event, and json::Value::Find compares every name it passes (5% of
// a validation's instructions). Find and FindLast answer as json::Value's do, for those names.
class EventFields {
 public:
  explicit EventFields(const json::Value& event) : event_(event) {
    for (const json::Member& m : event.members()) {
      const std::size_t at = Lookup(m.name);
      if (at == kFields.size()) continue;
      if (!first_[at]) first_[at] = &m.value;
      last_[at] = &m.value;
    }
  }
  const json::Value& value() const { return event_; }
  const json::Value* Find(Field field) const { return first_[field.index()]; }
  const json::Value* FindLast(Field field) const { return last_[field.index()]; }

 private:
  static constexpr std::size_t kLongestName =
      std::max_element(kFields.begin(), kFields.end(), [](const FieldSpec& a, const FieldSpec& b) {
        return a.name.size() < b.name.size();
      })->name.size();

  // kFields' indexes by the length of the name, at most three a length, then kFields.size().
  static constexpr std::array<std::array<std::uint8_t, 4>, kLongestName + 1> kByLength = [] {
    std::array<std::array<std::uint8_t, 4>, kLongestName + 1> table{};
    for (auto& candidates : table) candidates.fill(kFields.size());
    for (std::size_t i = 0; i < kFields.size(); ++i) {
      auto& candidates = table[kFields[i].name.size()];
      const auto free = std::find(candidates.begin(), candidates.end() - 1, kFields.size());
      if (free == candidates.end() - 1) throw "more than three fields' names of one length";
      *free = static_cast<std::uint8_t>(i);
    }
    return table;
  }();

  // Where in kFields the field named `name` is, or kFields.size() for a name it does not list.
  static std::size_t Lookup(std::string_view name) {
    if (name.size() > kLongestName) return kFields.size();
    for (const std::uint8_t i : kByLength[name.size()]) {
      if (i == kFields.size() || SameBytes(kFields[i].name, name)) return i;
    }
    return kFields.size();
  }

  const json::Value& event_;
  std::array<const json::Value*, kFields.size()> first_{};
  std::array<const json::Value*, kFields.size()> last_{};
};

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
    case Shape::kInteger:
      return v.is_number();  // one with a fraction or an exponent is LB-CANON-5's finding
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
      return "an integer";
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

// An invocation_id of the shape "inv_NNNNN" ("inv_" and at least five digits: the upstream
// recorder counts with "%05d", so the 100,000th call has six), in 16 bytes: its digits' value and
// count, so that inv_00001 and inv_000001 stay apart. Exact up to 19 digits; a longer id is kept
// as its keyed hash (keyed_hash.h), which no one can steer into another id's: two distinct long ids
// meet with a chance of 2^-64 a pair.
struct InvocationKey {
  std::uint64_t value = 0;
  std::uint64_t digits = 0;
  bool operator==(const InvocationKey&) const = default;
};
using InvocationKeyHash = KeyedBytesHash<InvocationKey>;

// Each invocation's state (0: never seen), found by its id. Recorders number calls inv_00001,
// inv_00002, ... in file order, so ids of that shape (a counter in five digits or its own width)
// index a vector, read and written in file order as a hash table, which scatters them, never is
// (the keyed table alone cost 20% of validation on 850,000 events). Every other id goes to a keyed
// hash table, so no id anyone chooses makes a lookup slow. The vector grows only to four slots per
// event it answered (and 4096), so ids far ahead cannot make it large.
class InvocationStates {
 public:
  std::uint8_t& operator[](const InvocationKey& key) {
    // An id in order but far ahead went to the table, and stays there when the vector reaches it.
    if (!sparse_.empty()) {
      if (auto it = sparse_.find(key); it != sparse_.end()) return it->second;
    }
    if (!InOrder(key)) return sparse_[key];
    if (key.value >= dense_.size()) {
      if (key.value >= 4 * (events_ + 1) + 4096) return sparse_[key];
      dense_.resize(std::max<std::size_t>(key.value + 1, dense_.size() * 2), 0);
    }
    ++events_;
    return dense_[key.value];
  }

  bool contains(const InvocationKey& key) const {
    if (InOrder(key) && key.value < dense_.size() && dense_[key.value] != 0) return true;
    return sparse_.contains(key);
  }

 private:
  // "inv_" and the value's digits, zero-padded to five: how the upstream recorder writes them.
  static bool InOrder(const InvocationKey& key) {
    std::uint64_t width = 1;
    for (std::uint64_t v = key.value; v >= 10; v /= 10) ++width;
    return key.digits <= 19 && key.digits == std::max<std::uint64_t>(5, width);
  }

  std::vector<std::uint8_t> dense_;
  std::size_t events_ = 0;  // the lookups the vector answered: one an event
  std::unordered_map<InvocationKey, std::uint8_t, InvocationKeyHash> sparse_;
};

std::optional<InvocationKey> KeyOf(std::string_view id) {
  if (!id.starts_with("inv_")) return std::nullopt;
  const std::string_view digits = id.substr(4);
  if (digits.size() < 5 || !IsDigits(digits)) return std::nullopt;
  InvocationKey key{0, digits.size()};
  if (digits.size() <= 19) {
    for (char c : digits) key.value = key.value * 10 + static_cast<std::uint64_t>(c - '0');
  } else {
    key.value = KeyedHash(digits);
  }
  return key;
}

// "ISO 8601 with milliseconds": YYYY-MM-DDTHH:MM:SS.mmm and an offset (Z or ±HH:MM), a date that
// exists (RFC 3339's profile of ISO 8601, as Python's isoformat(timespec="milliseconds") writes).
bool IsTimestampWithMilliseconds(std::string_view s) {
  if (s.size() < 24 || s[19] != '.' || !IsDigits(s.substr(20, 3))) return false;
  const std::string_view zone = s.substr(23);
  return (zone == "Z" || zone == "z" || zone.size() == 6) && IsRfc3339DateTime(s);
}

// Whether a timestamp the ARCS reading refuses is one another reading of errata LB-E16 accepts:
// at-least-millis (an RFC 3339 date-time with three or more fraction digits), millis-where-stated
// (any RFC 3339 date-time, where the text does not say "with milliseconds": timestamp_end and
// created_at), iso-8601-millis (calendar date and time of day in basic or extended format, not
// mixed, three fraction digits after '.' or ',', an upper-case T, a UTC designator or offset
// optional, -00:00 not allowed) and iso-8601-any-fraction (the same with any number of fraction
// digits, or none: "with milliseconds" read as informative Description text, as LB-E11's
// any-string reads the invocation_id row's format). Only such a finding rests on ARCS's reading
// alone.
bool TimestampOpen(std::string_view s, bool millis_stated) {
  if (IsRfc3339DateTime(s)) {
    if (!millis_stated) return true;
    std::size_t digits = 0;
    while (s.size() > 20 + digits && s[19] == '.' && s[20 + digits] >= '0' &&
           s[20 + digits] <= '9') {
      ++digits;
    }
    if (digits >= 3) return true;
  }
  // iso-8601-millis and iso-8601-any-fraction (which admits all the former does): rewritten into
  // RFC 3339's extended form without the fraction, then checked as one.
  const bool extended = s.size() > 4 && s[4] == '-';
  const std::size_t time_at = extended ? 10 : 8;
  const std::size_t seconds_end = time_at + (extended ? 9 : 7);
  if (s.size() < seconds_end || s[time_at] != 'T') return false;
  std::size_t zone_at = seconds_end;
  if (zone_at < s.size() && (s[zone_at] == '.' || s[zone_at] == ',')) {
    std::size_t end = zone_at + 1;
    while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
    if (end == zone_at + 1) return false;
    zone_at = end;
  }
  std::string zone(s.substr(zone_at));
  if (zone.empty()) zone = "Z";
  if (!extended && zone.size() == 5 && (zone[0] == '+' || zone[0] == '-')) {
    zone.insert(3, ":");
  }
  if (zone == "-00:00" || (zone != "Z" && zone.size() != 6)) return false;
  std::string date(s.substr(0, time_at));
  std::string time(s.substr(time_at + 1, seconds_end - time_at - 1));
  if (!extended) {
    if (date.size() != 8 || time.size() != 6 || !IsDigits(date) || !IsDigits(time)) return false;
    date = date.substr(0, 4) + "-" + date.substr(4, 2) + "-" + date.substr(6, 2);
    time = time.substr(0, 2) + ":" + time.substr(2, 2) + ":" + time.substr(4, 2);
  } else if (time.find('-') != std::string::npos || time.size() != 8) {
    return false;
  }
  return IsRfc3339DateTime(date + "T" + time + zone);
}

// Whether a timestamp ARCS's reading of errata LB-E16 accepts is one iso-8601-millis and
// iso-8601-any-fraction refuse: a lower-case 't' or 'z' (ISO 8601 writes them upper case; RFC
// 3339 §5.6 allows either), or the offset -00:00.
bool TimestampStricterRefuses(std::string_view s) {
  return (s.size() > 10 && s[10] == 't') || s.ends_with("z") || s.ends_with("-00:00");
}

bool IsSha256Hex(std::string_view s) { return s.size() == 64 && IsLowercaseHex(s); }

// The value at a content_hashes path inside `at` ("api_key", "large_field.inner"), or null.
// A member name may hold a dot itself, so every split at the dots is tried (errata LB-E37);
// the first that reaches a value wins.
// In an array a step is a decimal index ("output.items.0").
const json::Value* Step(const json::Value& at, std::string_view step) {
  if (at.is_object()) return at.Find(step);
  if (!at.is_array() || !IsDigits(step) || (step.size() > 1 && step[0] == '0')) return nullptr;
  std::size_t index = 0;
  for (char c : step) {
    index = index * 10 + static_cast<std::size_t>(c - '0');
    if (index >= at.items().size()) return nullptr;
  }
  return &at.items()[index];
}

const json::Value* AtPath(const json::Value& at, std::string_view path, int depth = 0) {
  if (depth > 64) return nullptr;
  if (const json::Value* whole = Step(at, path)) return whole;
  for (std::size_t dot = path.find('.'); dot != std::string_view::npos;
       dot = path.find('.', dot + 1)) {
    if (const json::Value* head = Step(at, path.substr(0, dot))) {
      if (const json::Value* found = AtPath(*head, path.substr(dot + 1), depth + 1)) return found;
    }
  }
  return nullptr;
}

// "[REDACTED]", or {"_redacted": true, "_reason": "...", "_bytes": N}.
bool IsRedacted(const json::Value& v) {
  if (v.is_string()) return v.text() == "[REDACTED]";
  if (!v.is_object()) return false;
  const json::Value* redacted = v.Find("_redacted");
  const json::Value* reason = v.Find("_reason");
  const json::Value* bytes = v.Find("_bytes");
  return redacted && redacted->is_bool() && redacted->as_bool() && reason && reason->is_string() &&
         bytes && HasShape(*bytes, Shape::kInteger) && !json::Classify(bytes->text()).negative;
}

// The canonical form as another reading of the errata writes it (errata LB-E19, LB-E23, LB-E24,
// LB-E25, LB-E28, LB-E30): the ARCS form with one thing done otherwise. A stored hash that is
// this form's hash and not ARCS's breaks the chain under ARCS's reading only.
struct OtherReading {
  std::string_view flag;
  bool ascii = false;              // LB-E23 code-sample: non-ASCII written as \uXXXX escapes
  bool utf16_order = false;        // LB-E24 utf-16: names in UTF-16 code unit order
  bool keep_minus_zero = false;    // LB-E25 number-text: -0 stays -0
  bool first_wins = false;         // LB-E28 first-wins: of a repeated name the first member
  bool known_fields_only = false;  // LB-E30 known-fields-only: unknown event members left out
  bool null_is_absent = false;     // LB-E19 null-is-absent: optional members holding null left out
};

constexpr std::array<OtherReading, 6> kOtherReadings = {{
    {.flag = "LB-E23", .ascii = true},
    {.flag = "LB-E24", .utf16_order = true},
    {.flag = "LB-E25", .keep_minus_zero = true},
    {.flag = "LB-E28", .first_wins = true},
    {.flag = "LB-E30", .known_fields_only = true},
    {.flag = "LB-E19", .null_is_absent = true},
}};

void AppendEscaped(std::string_view text, bool ascii, std::string* out) {
  ascii ? json::AppendQuotedAscii(text, out) : json::AppendQuoted(text, out);
}

// False for a float: no reading that prohibits floats hashes one (LB-E25's by-value reading is
// not among the others here: such an event is LB-CANON-5's finding already).
bool AppendOther(const json::Value& v, const OtherReading& r, bool top, std::string* out) {
  switch (v.kind()) {
    case json::Kind::kNull:
      out->append("null");
      return true;
    case json::Kind::kFalse:
      out->append("false");
      return true;
    case json::Kind::kTrue:
      out->append("true");
      return true;
    case json::Kind::kNumber: {
      const json::NumberInfo n = json::Classify(v.text());
      if (n.has_fraction || n.has_exponent) return false;
      out->append(n.zero && !r.keep_minus_zero ? "0" : v.text());
      return true;
    }
    case json::Kind::kString:
      AppendEscaped(v.text(), r.ascii, out);
      return true;
    case json::Kind::kArray: {
      out->push_back('[');
      bool first = true;
      for (const json::Value& item : v.items()) {
        if (!first) out->push_back(',');
        first = false;
        if (!AppendOther(item, r, false, out)) return false;
      }
      out->push_back(']');
      return true;
    }
    case json::Kind::kObject:
      break;
  }
  std::vector<const json::Member*> kept;
  for (const json::Member& m : v.members()) {
    const json::Value* chosen = r.first_wins ? v.Find(m.name) : v.FindLast(m.name);
    if (chosen != &m.value) continue;
    if (top &&
        (m.name == "hash" ||
         (r.null_is_absent && m.value.is_null() &&
          std::any_of(kFields.begin(), kFields.end(),
                      [&](const FieldSpec& f) { return f.name == m.name && !f.required; })) ||
         (r.known_fields_only &&
          std::none_of(kFields.begin(), kFields.end(),
                       [&](const FieldSpec& f) { return f.name == m.name; })))) {
      continue;
    }
    kept.push_back(&m);
  }
  std::sort(kept.begin(), kept.end(), [&](const json::Member* a, const json::Member* b) {
    return r.utf16_order ? canonical::Utf16Less(a->name, b->name) : a->name < b->name;
  });
  out->push_back('{');
  for (const json::Member* m : kept) {
    if (m != kept.front()) out->push_back(',');
    AppendEscaped(m->name, r.ascii, out);
    out->push_back(':');
    if (!AppendOther(m->value, r, false, out)) return false;
  }
  out->push_back('}');
  return true;
}

// The flag of the reading under which `stored` is the event's hash, or "" when none is.
std::string_view ReadingOfHash(const json::Value& event, std::string_view stored) {
  for (const OtherReading& r : kOtherReadings) {
    std::string text;
    if (AppendOther(event, r, true, &text) && ToHex(Sha256::Of(text)) == stored) return r.flag;
  }
  return "";
}

// Whether every float in `value` has an integer value (1.0, 1e2): then it is one only under
// ARCS's reading of errata LB-E25 (by-value writes it as that integer).
bool FloatsIntegral(const json::Value& value) {
  if (value.is_number()) {
    const json::NumberInfo n = json::Classify(value.text());
    return n.integral || !(n.has_fraction || n.has_exponent);
  }
  for (const json::Value& item : value.items()) {
    if (!FloatsIntegral(item)) return false;
  }
  for (const json::Member& m : value.members()) {
    if (!FloatsIntegral(m.value)) return false;
  }
  return true;
}

// Whether `value` is an integer that a double does not hold exactly (beyond +-2^53): a number a
// range-limited JSON implementation refuses (errata LB-E26, limited-integers), where ARCS keeps
// every integer exact.
bool IsHugeInteger(const json::Value& value) {
  if (!value.is_number()) return false;
  const json::NumberInfo n = json::Classify(value.text());
  if (n.has_fraction || n.has_exponent) return false;
  std::string_view digits = value.text();
  if (n.negative) digits.remove_prefix(1);
  constexpr std::string_view kTwo53 = "9007199254740992";
  return digits.size() > kTwo53.size() || (digits.size() == kTwo53.size() && digits > kTwo53);
}

// The pointer of the first such integer in `value`, or nothing.
std::optional<std::string> FirstHugeInteger(const json::Value& value) {
  return json::FirstPointerWhere(value, &IsHugeInteger);
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
    SettleQueue();
    Finish();
    if (!content_error_ && chained_ && missing_link_) content_error_ = missing_link_;
    if (content_error_) {
      NoteReading("LB-E43", content_error_->second, content_error_->first, "",
                  "a reader or writer that takes only events fitting the field tables (errata "
                  "LB-E43: typed-events, checked-events) refuses this session");
    }
    if (meta) CheckMeta(meta);
  }

  // An error of an event's content (its field tables, values, ids, pairs, links and
  // redactions): what errata LB-E43's typed-events or checked-events reader or writer refuses,
  // where ARCS's reads and writes the event as given. Not the chain (a missing hash or prev_hash,
  // LB-HASH-*: a writer writes them, a verifier judges them), not schema_version (LB-E31, the
  // policy of LB-E34), not lines that are no JSON object, surrogates or repeated names (their own
  // entries), not limits. A float is one (a reader ARCS's way reads it; a writer and a hash refuse
  // it anyway).
  static bool BreaksEventContent(std::string_view id) {
    static constexpr std::array<std::string_view, 5> kNot = {
        "LB-EVENT-1", "LB-LAYOUT-1", "LB-LAYOUT-5", "LB-CANON-8", "LB-CANON-9"};
    if (id.starts_with("LB-META-") || id.starts_with("LB-HASH-")) return false;
    return std::find(kNot.begin(), kNot.end(), id) == kNot.end();
  }

 private:
  void Report(const RuleRef& rule, Severity severity, std::uint64_t line, std::string pointer,
              std::string message, std::string_view reading = {}, bool content = true) {
    if (content && severity == Severity::kError && line > 0 && !content_error_ &&
        BreaksEventContent(rule.id)) {
      content_error_ = {line, rule};
    }
    // Member by member: GCC 12's optimiser calls the brace-initialised temporary's pointer
    // "maybe uninitialized" (a false positive that fails the Release build).
    Finding finding;
    finding.rule_id = rule.id;
    finding.severity = severity;
    finding.location = {line, 0, std::move(pointer)};
    finding.message = std::move(message);
    finding.reading = reading;
    out_->Add(std::move(finding));
  }
  void Error(const RuleRef& rule, std::uint64_t line, std::string pointer, std::string message) {
    Report(rule, Severity::kError, line, std::move(pointer), std::move(message));
  }
  // An error only under ARCS's reading of errata entry `reading`: the text does not settle it.
  void ErrorByReading(std::string_view reading, const RuleRef& rule, std::uint64_t line,
                      std::string pointer, std::string message) {
    Report(rule, Severity::kError, line, std::move(pointer), std::move(message), reading);
  }
  void Warn(const RuleRef& rule, std::uint64_t line, std::string pointer, std::string message) {
    Report(rule, Severity::kWarning, line, std::move(pointer), std::move(message));
  }
  // Where the reference accepts under the lenient reading of errata entry `reading` that another
  // reading rejects by: informative, never a change of validity.
  void NoteReading(std::string_view reading, const RuleRef& rule, std::uint64_t line,
                   std::string pointer, std::string message) {
    Report(rule, Severity::kNote, line, std::move(pointer), std::move(message), reading);
  }

  // False once max_events is passed.
  bool CheckLine(const jsonl::Line& line) {
    line_ = line.number;
    if (line.bom) {
      ErrorByReading("LB-E7", rule::kJsonObjectLine, 1, "",
                     "events.jsonl starts with a byte order mark");
    }
    if (!line.too_long && jsonl::IsBlank(line.text)) {
      ErrorByReading("LB-E4", rule::kJsonObjectLine, line_, "",
                     "a blank line holds no JSON object (errata LB-E4)");
      return true;
    }
    if (events_ == limits_.max_events) {
      Error(rule::kLimits, line_, "",
            "more than max_events=" + std::to_string(limits_.max_events) +
                " events; not read "
                "further");
      return false;
    }
    ++events_;
    event_lines_.push_back(line_);
    std::string problem;
    RuleRef cited = rule::kJsonObjectLine;
    if (line.too_long) {
      problem = "the line is longer than max_line_bytes=" + std::to_string(limits_.max_line_bytes);
      cited = rule::kLimits;
    } else if (!document_.ParseBorrowing(line.text, arcs::lightbox::ParseOptionsFor(limits_))) {
      // (Read where the line stands, not copied first: what the chain keeps of an event it copies
      // when the event is queued, and a line settled alone is settled before the next is read.)
      problem = "not JSON: " + document_.error().message;
      const json::ErrorCode code = document_.error().code;
      if (code == json::ErrorCode::kLoneSurrogate) {  // grammatical JSON, no Unicode text
        cited = rule::kUnicodeText;
      } else if (code == json::ErrorCode::kDepthExceeded) {
        cited = rule::kLimits;
      }
    } else if (!document_.root().is_object()) {
      problem = "not a JSON object";
    }
    if (!problem.empty()) {
      if (cited.id == rule::kUnicodeText.id) {
        LoneSurrogate(line.text, problem);
      } else {
        Error(cited, line_, "", problem);
      }
      chain_.Queue(nullptr, problem);
    } else {
      const EventFields event(document_.root());
      Queue(event, line.text);
      CheckEvent(event);
    }
    if (queued_bytes_ >= kQueuedBytes || chain_.queued() >= kQueuedEvents) SettleQueue();
    return true;
  }

  // Queues the event for the chain (ChainChecker::Queue), which hashes the events it queues side
  // by side once they are settled; and, until the first event whose stored hash is not its hash
  // is found, its line and stored hash. A long line is settled at once, while document_ holds it.
  void Queue(const EventFields& event, std::string_view text) {
    const json::Value* stored = event.FindLast("hash");
    const bool alone = text.size() > kQueuedLineBytes;
    if (alone) SettleQueue();
    if (!first_mismatch_ && stored && stored->is_string()) {
      HashToCompare compare{chain_.queued(), events_ - 1, alone, queued_text_.size(), 0};
      if (!alone) queued_text_.append(text);
      compare.stored = queued_text_.size();
      queued_text_.append(stored->text());
      hashes_to_compare_.push_back(compare);
    }
    chain_.Queue(&event.value(), "");
    if (alone) {
      SettleQueue();
    } else {
      queued_bytes_ += text.size();
    }
  }

  // Checks the events queued for the chain, and compares the stored hashes kept with theirs: the
  // first that differs is parsed again, for the reading whose canonical form gives that hash.
  void SettleQueue() {
    chain_.Settle();
    for (std::size_t i = 0; i < hashes_to_compare_.size() && !first_mismatch_; ++i) {
      const HashToCompare& c = hashes_to_compare_[i];
      const std::size_t end =
          i + 1 < hashes_to_compare_.size() ? hashes_to_compare_[i + 1].text : queued_text_.size();
      const std::string_view stored =
          std::string_view(queued_text_).substr(c.stored, end - c.stored);
      const std::optional<Result<std::string_view>> hash = chain_.SettledHash(c.queued);
      if (!hash || !hash->ok() || **hash == stored) continue;
      json::Document again;
      const json::Document* parsed = &document_;
      if (!c.in_document) {
        parsed = &again;
        const std::string_view text =
            std::string_view(queued_text_).substr(c.text, c.stored - c.text);
        if (!again.Parse(text, arcs::lightbox::ParseOptionsFor(limits_))) continue;  // it did once
      }
      first_mismatch_ = FirstMismatch{c.event, ReadingOfHash(parsed->root(), stored)};
    }
    hashes_to_compare_.clear();
    if (queued_text_.capacity() > 2 * kQueuedBytes) std::string().swap(queued_text_);
    queued_text_.clear();
    queued_bytes_ = 0;
  }

  // A lone surrogate escape is an error under errata LB-E27's refuse reading; under its escape
  // reading the event hashes with the escape written back. A hash over the text with U+FFFD in
  // place of the surrogate fits neither: that is the text's finding, whatever the reading.
  void LoneSurrogate(std::string_view text, const std::string& problem) {
    ErrorByReading("LB-E27", rule::kUnicodeText, line_, "", problem);
    json::ParseOptions replacing = arcs::lightbox::ParseOptionsFor(limits_);
    replacing.bad_unicode = json::BadUnicode::kReplaceAsGo;
    json::Document replaced;
    if (!replaced.Parse(text, replacing) || !replaced.root().is_object()) return;
    const json::Value* stored = replaced.root().FindLast("hash");
    Result<std::string> hash = arcs::lightbox::EventHash(replaced.root());
    if (stored && stored->is_string() && hash.ok() && *hash == stored->text()) {
      Error(rule::kHashMatches, line_, "/hash",
            "the hash covers the event with U+FFFD in place of its lone surrogate, which is not "
            "the event");
    }
  }

  void CheckEvent(const EventFields& event) {
    if (event.Find("hash") || event.Find("prev_hash")) chained_ = true;
    if (document_.numbers_seen().beyond_short_integers) CheckNumbers(event.value());
    for (const json::Duplicate& d : document_.duplicates()) {
      ErrorByReading("LB-E28", rule::kUniqueNames, line_, d.pointer, "a repeated member name");
    }
    for (std::size_t i = 0; i < kFields.size(); ++i) {
      const FieldSpec& f = kFields[i];
      const json::Value* v = event.Find(Field::At(i));
      if (!v) {
        // A writer fills in schema_version (LB-E31), and writes prev_hash and hash: events that
        // lack both are what a writer is given, and no content error for errata LB-E43 unless
        // the session is a chain (some event has one of them).
        const bool link = f.name == "prev_hash" || f.name == "hash";
        if (f.required) {
          Report(f.rule, Severity::kError, line_, "",
                 "the event has no \"" + std::string(f.name) + "\"", {},
                 f.name != "schema_version" && !link);
          if (link && !missing_link_) missing_link_ = {line_, f.rule};
        }
      } else if (!HasShape(*v, f.shape)) {
        // An optional member holding null is absent, or allowed, under other readings (LB-E19).
        Report(f.rule, Severity::kError, line_, Pointer(f.name),
               std::string(f.name) + " is not " + std::string(ShapeName(f.shape)),
               v->is_null() && !f.required ? "LB-E19" : "");
      }
    }
    CheckValues(event);
    CheckInvocation(event);
    CheckRedactions(event);
  }

  // Integers beyond +-2^53, and floats. Most events hold neither, which the parse tells, or else
  // one walk for both.
  void CheckNumbers(const json::Value& event) {
    const auto either = [](const json::Value& v) { return IsHugeInteger(v) || json::IsFloat(v); };
    if (!json::FirstPointerWhere(event, either)) return;
    if (std::optional<std::string> at = FirstHugeInteger(event)) {
      NoteReading("LB-E26", rule::kLimits, line_, *at,
                  "an integer beyond +-2^53: an implementation that limits the range of numbers "
                  "refuses it (errata LB-E26: limited-integers)");
    }
    if (std::optional<std::string> at = canonical::FirstFloat(event)) {
      Report(rule::kNoFloats, Severity::kError, line_, *at,
             "a float: the canonical form prohibits them", FloatsIntegral(event) ? "LB-E25" : "");
    }
  }

  static const json::Value* IfString(const json::Value* v) {
    return v && v->is_string() ? v : nullptr;
  }
  static const json::Value* String(const EventFields& event, Field field) {
    return IfString(event.Find(field));
  }

  void CheckValues(const EventFields& event) {
    if (const json::Value* v = String(event, "schema_version"); v && v->text() != "1") {
      Error(rule::kSchemaVersionField, line_, "/schema_version",
            "schema_version " + Quoted(v->text()) + " is not \"1\" (errata LB-E34)");
    }
    const json::Value* status = String(event, "status");
    if (status && status->text() != "pending" && status->text() != "complete" &&
        status->text() != "error") {
      Error(rule::kStatusValue, line_, "/status",
            "status " + Quoted(status->text()) + " is not pending, complete or error");
    }
    CheckTimestamp(event, "timestamp_start", rule::kTimestampStartShape);
    CheckTimestamp(event, "timestamp_end", rule::kTimestampEndShape);
    if (const json::Value* v = String(event, "session_id")) {
      if (!session_) {
        session_ = std::string(v->text());
      } else if (v->text() != *session_) {
        ErrorByReading(
            "LB-E10", rule::kOneSession, line_, "/session_id",
            "session_id " + Quoted(v->text()) + " is not the first event's " + Quoted(*session_));
      }
    }
    for (const Field field : {Field("chunk_count"), Field("total_bytes")}) {
      const std::string_view name = field.name();
      const json::Value* v = event.Find(field);
      if (v && HasShape(*v, Shape::kInteger) && json::Classify(v->text()).negative &&
          !json::Classify(v->text()).zero) {
        ErrorByReading("LB-E20", rule::kCountsNonNegative, line_, Pointer(name),
                       std::string(name) + " is negative");
      }
    }
    for (const Field field : {Field("hash"), Field("prev_hash")}) {
      const std::string_view name = field.name();
      if (const json::Value* v = String(event, field); v && !IsSha256Hex(v->text())) {
        Error(rule::kHashHex, line_, Pointer(name),
              std::string(name) + " is not 64 lowercase hexadecimal digits");
        malformed_links_.push_back({events_ - 1, name == "hash"});
      }
    }
    const json::Value* prev = event.FindLast("prev_hash");
    if (events_ == 1 && prev && !prev->is_null()) {
      Error(rule::kFirstPrevNull, line_, "/prev_hash",
            "the first event's prev_hash is not null: the events before it were deleted");
    }
    if (status) CheckStatusFields(event, status->text());
  }

  void CheckTimestamp(const EventFields& event, Field field, const RuleRef& rule) {
    const std::string_view name = field.name();
    const json::Value* v = String(event, field);
    if (!v) return;
    if (!IsTimestampWithMilliseconds(v->text())) {
      Report(rule, Severity::kError, line_, Pointer(name),
             Quoted(v->text()) + " is not an ISO 8601 date-time with milliseconds and an offset",
             TimestampOpen(v->text(), name == "timestamp_start") ? "LB-E16" : "");
    } else if (TimestampStricterRefuses(v->text())) {
      NoteReading("LB-E16", rule, line_, Pointer(name), StricterTimestampNote(v->text()));
    }
  }

  static std::string StricterTimestampNote(std::string_view text) {
    return Quoted(text) +
           " is an RFC 3339 date-time, but not as ISO 8601 writes one (errata LB-E16: "
           "iso-8601-millis, iso-8601-any-fraction refuse it)";
  }

  // output and timestamp_end are null for pending events only; error goes with status error.
  void CheckStatusFields(const EventFields& event, std::string_view status) {
    const json::Value* output = event.Find("output");
    const json::Value* end = event.Find("timestamp_end");
    if (status != "pending" && output && output->is_null()) {
      ErrorByReading("LB-E17", rule::kOutputNullOnlyPending, line_, "/output",
                     "output is null, but status is " + std::string(status));
    }
    if (status != "pending" && end && end->is_null()) {
      ErrorByReading("LB-E17", rule::kEndNullOnlyPending, line_, "/timestamp_end",
                     "timestamp_end is null, but status is " + std::string(status));
    }
    const bool has_error = event.Find("error") != nullptr;
    if (status == "error" && !has_error) {
      Warn(rule::kErrorDetails, line_, "", "an event with status error has no \"error\" details");
    } else if (status != "error" && has_error) {
      ErrorByReading("LB-E18", rule::kErrorOnlyOnError, line_, "/error",
                     "an \"error\" member, but status is " + std::string(status));
    }
  }

  void CheckInvocation(const EventFields& event) {
    const json::Value* id = String(event, "invocation_id");
    if (!id) return;
    const std::optional<InvocationKey> key = KeyOf(id->text());
    if (!key) {  // the row's "format: `inv_NNNNN`" is Description text (LB-E11: any-string)
      ErrorByReading("LB-E11", rule::kInvocationIdShape, line_, "/invocation_id",
                     "invocation_id " + Quoted(id->text()) + " is not inv_NNNNN");
      return;
    }
    const json::Value* status = String(event, "status");
    const bool pending = status && status->text() == "pending";
    std::uint8_t& state = invocations_[*key];
    if (pending) CheckPending(event, state);
    if (!pending && (state & kPending)) {
      CheckResolution(event, state);
    } else if (state & kSeen) {
      Error(rule::kInvocationIdUnique, line_, "/invocation_id",
            "invocation_id " + Quoted(id->text()) + " was used by an earlier call");
    }
    state |= kSeen | (pending ? kPending : 0);
    for (const Field field : {Field("retry_of"), Field("parent_invocation")}) {
      const std::string_view name = field.name();
      if (const json::Value* v = String(event, field); v && v->text() == id->text()) {
        // A retry's own id is settled (a NEW invocation_id); a parent is LB-E21's question.
        Report(name == "retry_of" ? rule::kRetryNotSelf : rule::kParentNotSelf, Severity::kError,
               line_, Pointer(name), std::string(name) + " names the event's own invocation",
               name == "retry_of" ? "" : "LB-E21");
        return;
      }
    }
    CheckTarget(event, "retry_of", /*may_come_later=*/false);
    CheckTarget(event, "parent_invocation", /*may_come_later=*/true);
    const json::Value* parent = String(event, "parent_invocation");
    if (const std::optional<InvocationKey> parent_key =
            parent ? KeyOf(parent->text()) : std::nullopt) {
      parent_of_.emplace(*key, Parent{*parent_key, line_});
    }
  }

  void CheckPending(const EventFields& event, std::uint8_t state) {
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
  void CheckResolution(const EventFields& event, std::uint8_t& state) {
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

  // retry_of names an earlier invocation (an error when not); parent_invocation one anywhere in
  // the session (a warning when not: errata LB-E21).
  void CheckTarget(const EventFields& event, Field field, bool may_come_later) {
    const std::string_view name = field.name();
    const json::Value* target = String(event, field);
    if (!target) return;
    const std::optional<InvocationKey> key = KeyOf(target->text());
    if (key && invocations_.contains(*key)) return;
    if (may_come_later) {
      later_.push_back({line_, key, std::string(target->text())});
      return;
    }
    ErrorByReading(
        "LB-E22", rule::kRetryTarget, line_, Pointer(name),
        std::string(name) + " " + Quoted(target->text()) + " names no earlier invocation");
  }

  void CheckRedactions(const EventFields& event) {
    const json::Value* hashes = event.Find("content_hashes");
    if (!hashes || !hashes->is_object()) return;
    for (const json::Member& m : hashes->members()) {
      const std::string pointer = "/content_hashes" + Pointer(m.name);
      if (!m.value.is_string() || !IsSha256Hex(m.value.text())) {
        ErrorByReading("LB-E38", rule::kRedactionHash, line_, pointer,
                       "not 64 lowercase hexadecimal digits");
      }
      const std::size_t dot = m.name.find('.');
      const std::string_view top = m.name.substr(0, dot);
      const json::Value* member = dot == std::string::npos ? nullptr
                                  : top == "input"         ? event.Find("input")
                                  : top == "output"        ? event.Find("output")
                                                           : nullptr;
      const json::Value* at = member ? AtPath(*member, m.name.substr(dot + 1)) : nullptr;
      if (!at) {
        ErrorByReading(
            "LB-E38", rule::kRedactionPath, line_, pointer,
            Quoted(m.name) + " is not input. or output. and a path to a value of the event");
      } else if (!IsRedacted(*at)) {
        ErrorByReading("LB-E38", rule::kRedactionMarker, line_, pointer,
                       "the value at " + Quoted(m.name) +
                           " is not \"[REDACTED]\" or a {_redacted, _reason, _bytes} object");
      }
    }
  }

  void Finish() {
    for (const Later& l : later_) {
      if (!l.target || !invocations_.contains(*l.target)) {
        Warn(rule::kParentKnown, l.line, "/parent_invocation",
             "parent_invocation " + Quoted(l.text) + " names no invocation of the session");
      }
    }
    CheckParentCycles();
    const arcs::lightbox::ChainVerdict chain = chain_.Finish();
    using arcs::lightbox::Break;
    // A hash or prev_hash that is no SHA-256 hex is LB-HASH-3's finding: it is not compared
    // (LB-HASH-2, LB-HASH-5). The first event's prev_hash is checked on its own (LB-HASH-4).
    auto malformed = [&](bool hash) {
      return std::any_of(malformed_links_.begin(), malformed_links_.end(), [&](const auto& m) {
        return m.first == chain.first_broken && m.second == hash;
      });
    };
    const RuleRef* cited = nullptr;
    switch (chain.first_break) {
      case Break::kContentChanged:
        if (!malformed(true)) cited = &rule::kHashMatches;
        break;
      case Break::kInserted:
      case Break::kReordered:
      case Break::kDeleted:
        if (!malformed(false)) cited = &rule::kLinked;
        break;
      case Break::kNone:
      case Break::kStartsMidChain:  // LB-HASH-4, reported with the first event
      case Break::kUnreadable:      // already a finding of its own: not JSON, a float, no hash
      case Break::kNoHash:
        break;
    }
    if (cited) {
      // A stored hash that another reading's canonical form gives breaks no chain under it.
      const bool by_reading = cited == &rule::kHashMatches && first_mismatch_ &&
                              first_mismatch_->event == chain.first_broken;
      Report(*cited, Severity::kError, LineOfEvent(chain.first_broken), "",
             "the hash chain breaks at " + chain.reason + " (" +
                 std::string(arcs::lightbox::BreakName(chain.first_break)) + ")",
             by_reading ? first_mismatch_->reading : "");
    }
  }

  // No invocation is its own ancestor (LB-OPT-10): each parent path is walked once, colouring
  // invocations on the current path and those already cleared. The walks start in file order, not
  // the table's (which the hash key changes from run to run), so that a cycle is always reported
  // on the line of its first event in the file.
  void CheckParentCycles() {
    enum : std::uint8_t { kOnPath = 1, kCleared = 2 };
    std::vector<std::pair<std::uint64_t, InvocationKey>> starts;
    starts.reserve(parent_of_.size());
    for (const auto& [key, parent] : parent_of_) starts.emplace_back(parent.line, key);
    std::sort(starts.begin(), starts.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::unordered_map<InvocationKey, std::uint8_t, InvocationKeyHash> colour;
    for (const auto& [line, start] : starts) {
      std::vector<InvocationKey> path;
      for (InvocationKey at = start;;) {
        std::uint8_t& c = colour[at];
        if (c == kCleared) break;
        if (c == kOnPath) {
          ErrorByReading("LB-E21", rule::kParentNotSelf, parent_of_.at(at).line,
                         "/parent_invocation",
                         "parent_invocation closes a cycle: an invocation is its own ancestor");
          break;
        }
        c = kOnPath;
        path.push_back(at);
        auto up = parent_of_.find(at);
        if (up == parent_of_.end()) break;
        at = up->second.key;
      }
      for (const InvocationKey& k : path) colour[k] = kCleared;
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
      if (text.size() + *n > limits_.max_line_bytes) {  // a limit (errata LB-E41)
        Error(rule::kLimits, 0, "meta.json", "meta.json is larger than max_line_bytes");
        return NoteUnreadableMeta();
      }
      text.append(buffer, *n);
    }
    // A leading BOM breaks RFC 8259's MUST NOT, yet readers MAY ignore it (LB-E7).
    if (text.starts_with(kUtf8Bom)) {
      ErrorByReading("LB-E7", rule::kMetaObject, 0, "meta.json",
                     "meta.json starts with a byte order mark");
      text.erase(0, kUtf8Bom.size());
    }
    json::Document doc;
    if (!doc.Parse(text, arcs::lightbox::ParseOptionsFor(limits_))) {
      if (doc.error().code == json::ErrorCode::kLoneSurrogate) {
        return ErrorByReading("LB-E27", rule::kUnicodeText, 0, "meta.json",
                              "meta.json is not Unicode text: " + doc.error().message);
      }
      if (doc.error().code == json::ErrorCode::kDepthExceeded) {  // a limit (errata LB-E41)
        Error(rule::kLimits, 0, "meta.json", "meta.json is not read: " + doc.error().message);
        return NoteUnreadableMeta();
      }
      Error(rule::kMetaObject, 0, "meta.json", "meta.json is not JSON: " + doc.error().message);
      return NoteUnreadableMeta();
    }
    if (!doc.root().is_object()) {
      Error(rule::kMetaObject, 0, "meta.json", "meta.json is not a JSON object");
      return NoteUnreadableMeta();
    }
    if (std::optional<std::string> at = FirstHugeInteger(doc.root())) {
      NoteReading("LB-E26", rule::kLimits, 0, "meta.json" + *at,
                  "an integer beyond +-2^53: an implementation that limits the range of numbers "
                  "refuses it (errata LB-E26: limited-integers)");
    }
    for (const json::Duplicate& d : doc.duplicates()) {
      ErrorByReading("LB-E28", rule::kUniqueNames, 0, "meta.json" + d.pointer,
                     "a repeated member name");
    }
    const json::Value& object = doc.root();
    const std::array<std::pair<std::string_view, RuleRef>, 4> fields = {{
        {"session_id", rule::kMetaSessionId},
        {"schema_version", rule::kMetaSchemaVersion},
        {"lightbox_version", rule::kMetaLightboxVersion},
        {"created_at", rule::kMetaCreatedAt},
    }};
    for (const auto& [name, cited] : fields) {
      const json::Value* v = object.Find(name);
      if (!v || !v->is_string()) {  // meta.json's members are an example's (LB-E9)
        ErrorByReading("LB-E9", cited, 0, "meta.json" + Pointer(name),
                       "meta.json has no string \"" + std::string(name) + "\"");
      }
    }
    const json::Value* version = IfString(object.Find("schema_version"));
    if (version && version->text() != "1") {
      ErrorByReading("LB-E9", rule::kMetaSchemaVersion, 0, "meta.json/schema_version",
                     "schema_version " + Quoted(version->text()) + " is not \"1\"");
    }
    const json::Value* created = IfString(object.Find("created_at"));
    if (created && !IsTimestampWithMilliseconds(created->text())) {
      ErrorByReading(TimestampOpen(created->text(), false) ? "LB-E16" : "LB-E9",
                     rule::kMetaCreatedAt, 0, "meta.json/created_at",
                     Quoted(created->text()) + " is not an ISO 8601 date-time with milliseconds");
    } else if (created && TimestampStricterRefuses(created->text())) {
      NoteReading("LB-E16", rule::kMetaCreatedAt, 0, "meta.json/created_at",
                  StricterTimestampNote(created->text()));
    }
    const json::Value* session = IfString(object.Find("session_id"));
    if (session && session_ && session->text() != *session_) {
      ErrorByReading("LB-E10", rule::kMetaAgrees, 0, "meta.json/session_id",
                     "meta.json's session_id " + Quoted(session->text()) + " is not the events' " +
                         Quoted(*session_));
    }
  }

  // A verifier or reader that reads meta.json refuses a session whose meta.json is no JSON
  // object; ARCS's reads the events alone (errata LB-E42).
  void NoteUnreadableMeta() {
    NoteReading("LB-E42", rule::kMetaObject, 0, "meta.json",
                "a verifier or reader that reads meta.json refuses this session (errata LB-E42: "
                "readable-meta, checked-meta)");
  }

  struct Later {  // a parent_invocation not seen yet
    std::uint64_t line;
    std::optional<InvocationKey> target;  // none when it is not inv_NNNNN: never found
    std::string text;
  };

  arcs::lightbox::Limits limits_;
  Diagnostics* out_;
  json::Document document_;
  arcs::lightbox::ChainChecker chain_;
  // Events are queued for the chain until about kQueuedBytes of their lines are (or kQueuedEvents
  // events): their hashes are then computed side by side, a lane each of the multi-buffer SHA-256
  // (Sha256Batch: about twice as fast from 64 messages on). Only a copy of each line is kept
  // meanwhile: keeping each queued event's parsed document instead, 32 of them, was slower than
  // hashing each event alone. A line of more than kQueuedLineBytes is hashed alone, not kept.
  static constexpr std::size_t kQueuedBytes = 256 << 10;
  static constexpr std::size_t kQueuedEvents = 4096;
  static constexpr std::size_t kQueuedLineBytes = 64 * 1024;
  // Only the first event whose stored hash is wrong can be the chain's first content break. Until
  // it is found, each queued event with a stored hash keeps, in queued_text_, its line (unless
  // document_ still holds it) and then its stored hash, until the queue is settled.
  struct HashToCompare {
    std::size_t queued;  // its place in the chain's queue
    std::uint64_t event;
    bool in_document;
    std::size_t text;    // where its line starts in queued_text_
    std::size_t stored;  // where its stored hash starts (and its line ends)
  };
  std::vector<HashToCompare> hashes_to_compare_;
  std::string queued_text_;
  std::size_t queued_bytes_ = 0;  // the lines of the events queued (their canonical forms' size)
  InvocationStates invocations_;
  // The parent of each invocation that names one, and where, for LB-OPT-10's cycles.
  struct Parent {
    InvocationKey key;
    std::uint64_t line;
  };
  std::unordered_map<InvocationKey, Parent, InvocationKeyHash> parent_of_;
  std::vector<Later> later_;
  std::vector<std::uint64_t> event_lines_;  // each event's line: 8 bytes an event
  // Events whose hash (true) or prev_hash (false) is no SHA-256 hex: a few, in a broken file.
  std::vector<std::pair<std::uint64_t, bool>> malformed_links_;
  // The first event whose stored hash is not its hash, and the flag of the reading whose canonical
  // form gives that hash ("" for none).
  struct FirstMismatch {
    std::uint64_t event;
    std::string_view reading;
  };
  std::optional<FirstMismatch> first_mismatch_;
  std::optional<std::string> session_;
  // The first error LB-E43's stricter readers and writers refuse by: its line and rule.
  std::optional<std::pair<std::uint64_t, RuleRef>> content_error_;
  // The first missing hash or prev_hash: its line and rule.
  std::optional<std::pair<std::uint64_t, RuleRef>> missing_link_;
  bool chained_ = false;  // some event has a hash or a prev_hash member
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
