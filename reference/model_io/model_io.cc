#include "reference/model_io/model_io.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "reference/core/canonical.h"
#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"

namespace arcs::model_io {
namespace {

// The field-table requirements of conformance/model_io/requirements.json that no invariant
// covers: the optional members' types.
constexpr std::string_view kTimestampRule = "MIO-FIELDS-6";         // created_at_utc, ended_at_utc
constexpr std::string_view kStatsRule = "MIO-STATS-1";              // stats and its four numbers
constexpr std::string_view kInteractionRule = "MIO-INTERACTION-1";  // an interaction's types
constexpr std::string_view kMetricRule = "MIO-INTERACTION-5";       // tokens_input, ..., latency_ms
constexpr std::string_view kDocumentRule = "MIO-JSON-2";            // the document is an object

// "X.Y.Z": three decimal numbers without leading zeros, nothing else (errata).
bool IsSemver(std::string_view text) {
  for (int part = 0; part < 3; ++part) {
    const std::size_t digits =
        std::find_if_not(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }) -
        text.begin();
    if (digits == 0 || (digits > 1 && text[0] == '0')) return false;
    text.remove_prefix(digits);
    if (part < 2) {
      if (text.empty() || text[0] != '.') return false;
      text.remove_prefix(1);
    }
  }
  return text.empty();
}

bool IsContentHash(std::string_view text) {
  constexpr std::string_view kPrefix = "sha256:";
  if (text.size() != kPrefix.size() + 64 || !text.starts_with(kPrefix)) return false;
  return std::all_of(text.begin() + kPrefix.size(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// ISO 8601 UTC, as the reference reads it: an RFC 3339 date-time whose offset is Z or +00:00.
bool IsUtcTimestamp(std::string_view text) {
  return IsRfc3339DateTime(text) &&
         (text.ends_with('Z') || text.ends_with('z') || text.ends_with("+00:00"));
}

// How a member is, for messages: "missing", "a number, not a string", "\"Record\"".
std::string Describe(const json::Value* v) {
  if (!v) return "missing";
  if (v->is_string()) return Quoted(v->text());
  return json::DescribeKind(v->kind());
}

// The numeric value of `i` as JavaScript reads it (errata: 1.0 and 1e0 are 1); nullopt when `i`
// is not a number. A number beyond the doubles is infinite.
std::optional<double> IndexValue(const json::Value* i) {
  if (!i || !i->is_number()) return std::nullopt;
  const std::optional<double> d = json::ToDouble(i->text());
  if (d) return d;
  return i->text().starts_with('-') ? -std::numeric_limits<double>::infinity()
                                    : std::numeric_limits<double>::infinity();
}

class Verifier {
 public:
  explicit Verifier(const Limits& limits) : limits_(limits) {}

  std::vector<Violation> Run(const json::Value& session) {
    if (!session.is_object()) {
      Add(kDocumentRule, "",
          "the document is " + json::DescribeKind(session.kind()) +
              ", not a ModelIOSession object");
      return std::move(violations_);
    }
    CheckIdentity(session);
    CheckOptionalMembers(session);
    const json::Value* interactions = session.FindLast("interactions");
    if (!interactions || !interactions->is_array()) {
      Add("MI4", "/interactions", "interactions is " + Describe(interactions) + ", not an array");
    } else {
      CheckInteractions(interactions->items());
    }
    return std::move(violations_);
  }

 private:
  void Add(std::string_view rule, std::string path, std::string message) {
    violations_.push_back({std::string(rule), std::move(path), std::move(message)});
  }

  // MI1, MI2, MI3: the version, the two ids and the mode.
  void CheckIdentity(const json::Value& session) {
    const json::Value* version = session.FindLast("model_io_schema_version");
    if (!version || !version->is_string() || !IsSemver(version->text())) {
      Add("MI1", "/model_io_schema_version",
          "model_io_schema_version is " + Describe(version) +
              ", not a semantic version X.Y.Z (three numbers, no leading zeros)");
    }
    for (std::string_view name : {"adapter_id", "model_id"}) {
      const json::Value* id = session.FindLast(name);
      if (!id || !id->is_string() || id->text().empty()) {
        Add("MI2", "/" + std::string(name),
            std::string(name) + " is " + (id && id->is_string() ? "empty" : Describe(id)) +
                ", not a non-empty string");
      }
    }
    const json::Value* mode = session.FindLast("mode");
    if (!mode || !mode->is_string() || (mode->text() != "record" && mode->text() != "replay")) {
      Add("MI3", "/mode", "mode is " + Describe(mode) + ", not \"record\" or \"replay\"");
    }
  }

  // created_at_utc, ended_at_utc and stats: optional, and of their type when present (null is
  // not absent: errata).
  void CheckOptionalMembers(const json::Value& session) {
    for (std::string_view name : {"created_at_utc", "ended_at_utc"}) {
      const json::Value* at = session.FindLast(name);
      if (at && !(at->is_string() && IsUtcTimestamp(at->text()))) {
        Add(kTimestampRule, "/" + std::string(name),
            std::string(name) + " is " + Describe(at) + ", not an ISO 8601 UTC timestamp");
      }
    }
    const json::Value* stats = session.FindLast("stats");
    if (!stats) return;
    if (!stats->is_object()) {
      Add(kStatsRule, "/stats", "stats is " + Describe(stats) + ", not a SessionStats object");
      return;
    }
    for (std::string_view name :
         {"total_interactions", "total_tokens_input", "total_tokens_output", "total_latency_ms"}) {
      const json::Value* n = stats->FindLast(name);
      if (!n || !n->is_number()) {
        Add(kStatsRule, "/stats/" + std::string(name),
            "stats." + std::string(name) + " is " + Describe(n) + ", not a number");
      }
    }
  }

  void CheckInteractions(std::span<const json::Value> interactions) {
    if (interactions.size() > limits_.max_interactions) {
      const std::string message = "interactions has " + std::to_string(interactions.size()) +
                                  " elements, more than " +
                                  std::to_string(limits_.max_interactions);
      Add("MI4", "/interactions", message);
      Add("MI11", "/interactions", message);
    }
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < interactions.size(); ++k) {
      total += CheckInteraction(interactions[k], k);
    }
    if (total > limits_.max_total_content_bytes) {
      Add("MI11", "/interactions",
          "the response contents add up to " + std::to_string(total) +
              " bytes of UTF-8, more than " + std::to_string(limits_.max_total_content_bytes));
    }
  }

  // Checks interactions[k]; returns the UTF-8 bytes of its response_content.
  std::uint64_t CheckInteraction(const json::Value& interaction, std::size_t k) {
    const std::string path = "/interactions/" + std::to_string(k);
    const bool object = interaction.is_object();
    if (!object) {
      Add(kInteractionRule, path,
          "interaction " + std::to_string(k) + " is " + Describe(&interaction) + ", not an object");
    }
    // A non-object has none of its members: each invariant about one fails.
    auto member = [&](std::string_view name) {
      return object ? interaction.FindLast(name) : nullptr;
    };
    const json::Value* prompt_hash = member("prompt_hash");
    CheckIndex(member("i"), prompt_hash, k, path);
    if (!prompt_hash || !prompt_hash->is_string() || !IsContentHash(prompt_hash->text())) {
      Add("MI6", path + "/prompt_hash",
          "prompt_hash is " + Describe(prompt_hash) +
              ", not \"sha256:\" and 64 lowercase hex digits");
    }
    const std::uint64_t bytes =
        CheckResponse(member("response_hash"), member("response_content"), path);
    for (std::string_view name : {"tokens_input", "tokens_output", "latency_ms"}) {
      const json::Value* metric = member(name);
      if (metric && !metric->is_number()) {
        Add(kMetricRule, path + "/" + std::string(name),
            std::string(name) + " is " + Describe(metric) + ", not a number");
      }
    }
    return bytes;
  }

  // MI5 (i is its index), MI9 (sorted by i), MI8 (no repeated (prompt_hash, i) pair).
  void CheckIndex(const json::Value* i, const json::Value* prompt_hash, std::size_t k,
                  const std::string& path) {
    const std::optional<double> value = IndexValue(i);
    if (!value || *value != static_cast<double>(k)) {
      Add("MI5", path + "/i",
          "i is " + (value ? std::string(i->text()) : Describe(i)) + "; interaction " +
              std::to_string(k) + " must have i " + std::to_string(k));
    }
    if (!value) return;
    if (previous_index_ && *value < *previous_index_) {
      Add("MI9", path + "/i",
          "i " + std::string(i->text()) +
              " comes after a greater i: interactions are not sorted "
              "by i ascending");
    }
    previous_index_ = value;
    if (prompt_hash && prompt_hash->is_string() &&
        !pairs_.emplace(std::string(prompt_hash->text()), *value).second) {
      Add("MI8", path,
          "the pair (prompt_hash, i) = (" + std::string(prompt_hash->text()) + ", " +
              std::string(i->text()) + ") occurs twice");
    }
  }

  // MI7 (response_hash is the content's hash) and MI11 (content size); returns the content's
  // UTF-8 bytes.
  std::uint64_t CheckResponse(const json::Value* hash, const json::Value* content,
                              const std::string& path) {
    if (!content || !content->is_string()) {
      Add("MI7", path + "/response_content",
          "response_content is " + Describe(content) + ", not a string: it has no hash");
      if (content) {
        Add(kInteractionRule, path + "/response_content",
            "response_content is " + Describe(content) + ", not a string");
      }
    }
    if (!hash || !hash->is_string() || !IsContentHash(hash->text())) {
      Add("MI7", path + "/response_hash",
          "response_hash is " + Describe(hash) + ", not \"sha256:\" and 64 lowercase hex digits");
    } else if (content && content->is_string()) {
      const std::string computed = ContentHash(content->text());
      if (computed != hash->text()) {
        Add("MI7", path + "/response_hash",
            "response_hash is not the SHA-256 of response_content (" + computed + ")");
      }
    }
    if (!content || !content->is_string()) return 0;
    const std::uint64_t bytes = content->text().size();
    if (bytes > limits_.max_content_bytes) {
      Add("MI11", path + "/response_content",
          "response_content has " + std::to_string(bytes) + " bytes of UTF-8, more than " +
              std::to_string(limits_.max_content_bytes));
    }
    return bytes;
  }

  Limits limits_;
  std::vector<Violation> violations_;
  std::optional<double> previous_index_;
  std::set<std::pair<std::string, double>> pairs_;
};

// The number after a rule id's letters ("MI10" -> 10), for kNumeric.
std::pair<std::string_view, std::uint64_t> SplitRuleId(std::string_view id) {
  std::size_t digits = id.size();
  while (digits > 0 && id[digits - 1] >= '0' && id[digits - 1] <= '9') --digits;
  std::uint64_t number = 0;
  std::from_chars(id.data() + digits, id.data() + id.size(), number);
  return {id.substr(0, digits), number};
}

}  // namespace

json::ParseOptions ParseOptionsFor(const Limits& limits) {
  json::ParseOptions options;
  options.max_depth = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(limits.max_json_depth, std::numeric_limits<std::uint32_t>::max()));
  return options;
}

bool ViolationLess(const Violation& a, const Violation& b, ViolationOrder order) {
  if (a.rule_id != b.rule_id) {
    if (order == ViolationOrder::kNumeric) {
      const auto ka = SplitRuleId(a.rule_id), kb = SplitRuleId(b.rule_id);
      if (ka != kb) return ka < kb;
    }
    return canonical::Utf16Less(a.rule_id, b.rule_id);
  }
  if (a.path != b.path) return canonical::Utf16Less(a.path, b.path);
  return canonical::Utf16Less(a.message, b.message);
}

std::vector<Violation> Verify(const json::Value& session, const Limits& limits,
                              ViolationOrder order) {
  std::vector<Violation> violations = Verifier(limits).Run(session);
  std::stable_sort(
      violations.begin(), violations.end(),
      [order](const Violation& a, const Violation& b) { return ViolationLess(a, b, order); });
  return violations;
}

std::vector<std::string_view> VerifyRules() {
  return {"MI1",
          "MI2",
          "MI3",
          "MI4",
          "MI5",
          "MI6",
          "MI7",
          "MI8",
          "MI9",
          "MI11",
          kTimestampRule,
          kStatsRule,
          kInteractionRule,
          kMetricRule,
          kDocumentRule};
}

std::string ContentHash(std::string_view bytes) { return "sha256:" + ToHex(Sha256::Of(bytes)); }

Status WriteCanonicalCore(const json::Value& session, const Limits& limits,
                          const std::function<void(std::string_view)>& sink) {
  const std::vector<Violation> violations = Verify(session, limits);
  if (!violations.empty()) {
    const Violation& v = violations.front();
    return Status(StatusCode::kParseError,
                  "the session breaks " + v.rule_id + " at " + (v.path.empty() ? "/" : v.path) +
                      " (" + v.message + "), and " + std::to_string(violations.size() - 1) +
                      " more: ARCS computes no ModelIOCore for an invalid session");
  }
  // Members in UTF-16 order, which for these ASCII names is byte order. The interactions are
  // already sorted by i: MI5 holds, so interaction k has i == k.
  std::string piece;
  auto member = [&](std::string_view name, const json::Value& value, bool first) {
    if (!first) piece += ',';
    json::AppendQuoted(name, &piece);
    piece += ':';
    (void)canonical::AppendJcs(value, &piece);  // strings and finite numbers: cannot fail
  };
  piece += '{';
  member("adapter_id", *session.FindLast("adapter_id"), true);
  piece += ",\"interactions\":[";
  bool first = true;
  for (const json::Value& interaction : session.FindLast("interactions")->items()) {
    if (!first) piece += ',';
    first = false;
    piece += '{';
    member("i", *interaction.FindLast("i"), true);
    for (std::string_view name : {"prompt_hash", "response_content", "response_hash"}) {
      member(name, *interaction.FindLast(name), false);
    }
    piece += '}';
    sink(piece);
    piece.clear();
  }
  piece += ']';
  for (std::string_view name : {"mode", "model_id", "model_io_schema_version"}) {
    member(name, *session.FindLast(name), false);
  }
  piece += '}';
  sink(piece);
  return Status::Ok();
}

Result<std::string> CanonicalCore(const json::Value& session, const Limits& limits) {
  std::string out;
  Status s = WriteCanonicalCore(session, limits, [&](std::string_view piece) { out += piece; });
  if (!s.ok()) return s;
  return out;
}

Result<std::string> ModelIOHash(const json::Value& session, const Limits& limits) {
  Sha256 hasher;
  Status s =
      WriteCanonicalCore(session, limits, [&](std::string_view piece) { hasher.Update(piece); });
  if (!s.ok()) return s;
  return "sha256:" + ToHex(hasher.Finish());
}

}  // namespace arcs::model_io
