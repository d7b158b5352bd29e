#include "reference/model_io/model_io.h"

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <thread>
#include <utility>

#include "reference/core/canonical.h"
#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"

namespace arcs::model_io {
namespace {

// The requirements of conformance/model_io/requirements.json beyond the invariants.
constexpr std::string_view kDocumentRule = "MIO-JSON-1";     // the document is an object
constexpr std::string_view kDoubleRangeRule = "MIO-JSON-4";  // every number is a finite double
constexpr std::string_view kTimestampFormRule = "MIO-FIELDS-9";
constexpr std::string_view kInteractionRule = "MIO-INTERACTION-1";  // an element is an object

// What a content hash starts with, before 64 lowercase hex digits (§4.5).
constexpr std::string_view kContentHashPrefix = "sha256:";

// A digest in the content hash form: "sha256:" and its lowercase hex.
std::string HashText(const Sha256Digest& digest) {
  return std::string(kContentHashPrefix) + ToHex(digest);
}

// A member as a field table types it: its name, kind, whether it is required, the requirement it
// is typed by, and the invariant (if any) that fails with it when it is missing or mistyped.
struct Field {
  std::string_view name;
  json::Kind kind;
  bool required;
  std::string_view type_rule;
  std::string_view invariant = "";
};

constexpr Field kVersion{"model_io_schema_version", json::Kind::kString, true, "MIO-FIELDS-1",
                         "MI1"};
constexpr Field kAdapterId{"adapter_id", json::Kind::kString, true, "MIO-FIELDS-2", "MI2"};
constexpr Field kModelId{"model_id", json::Kind::kString, true, "MIO-FIELDS-3", "MI2"};
constexpr Field kMode{"mode", json::Kind::kString, true, "MIO-FIELDS-4", "MI3"};
constexpr Field kInteractions{"interactions", json::Kind::kArray, true, "MIO-FIELDS-5", "MI4"};
constexpr Field kTimestamps[] = {{"created_at_utc", json::Kind::kString, false, "MIO-FIELDS-6"},
                                 {"ended_at_utc", json::Kind::kString, false, "MIO-FIELDS-7"}};
constexpr Field kStats{"stats", json::Kind::kObject, false, "MIO-FIELDS-8"};
constexpr Field kStatsMembers[] = {
    {"total_interactions", json::Kind::kNumber, true, "MIO-STATS-1"},
    {"total_tokens_input", json::Kind::kNumber, true, "MIO-STATS-2"},
    {"total_tokens_output", json::Kind::kNumber, true, "MIO-STATS-3"},
    {"total_latency_ms", json::Kind::kNumber, true, "MIO-STATS-4"}};
constexpr Field kIndex{"i", json::Kind::kNumber, true, "MIO-INTERACTION-2", "MI5"};
constexpr Field kPromptHash{"prompt_hash", json::Kind::kString, true, "MIO-INTERACTION-3", "MI6"};
constexpr Field kResponseHash{"response_hash", json::Kind::kString, true, "MIO-INTERACTION-4",
                              "MI7"};
constexpr Field kContent{"response_content", json::Kind::kString, true, "MIO-INTERACTION-5", "MI7"};
constexpr Field kMetrics[] = {{"tokens_input", json::Kind::kNumber, false, "MIO-INTERACTION-6"},
                              {"tokens_output", json::Kind::kNumber, false, "MIO-INTERACTION-7"},
                              {"latency_ms", json::Kind::kNumber, false, "MIO-INTERACTION-8"}};

// ISO 8601 UTC, as the reference reads it: an RFC 3339 date-time whose offset is Z or +00:00.
bool IsUtcTimestamp(std::string_view text) {
  return IsRfc3339DateTime(text) &&
         (text.ends_with('Z') || text.ends_with('z') || text.ends_with("+00:00"));
}

// A SemVer 2.0.0 identifier list of a pre-release (`numeric` true: a numeric identifier has no
// leading zero) or of build metadata: dot-separated, non-empty, [0-9A-Za-z-].
bool IsSemverIdentifiers(std::string_view text, bool numeric) {
  for (;;) {
    const std::size_t dot = std::min(text.find('.'), text.size());
    const std::string_view id = text.substr(0, dot);
    if (id.empty()) return false;
    bool digits_only = true;
    for (char c : id) {
      const bool digit = c >= '0' && c <= '9';
      if (!digit && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && c != '-') return false;
      digits_only = digits_only && digit;
    }
    if (numeric && digits_only && id.size() > 1 && id[0] == '0') return false;
    if (dot == text.size()) return true;
    text.remove_prefix(dot + 1);
  }
}

// The full SemVer 2.0.0 grammar: X.Y.Z, then an optional "-" pre-release and "+" build metadata.
// Only errata MIO-E10's reading `strict-x-y-z` refuses the suffixes.
bool IsSemver2(std::string_view text) {
  const std::size_t core_end = std::min(text.find_first_of("-+"), text.size());
  if (!IsSemver(text.substr(0, core_end))) return false;
  text.remove_prefix(core_end);
  const std::size_t build = std::min(text.find('+'), text.size());
  if (build > 0 && !IsSemverIdentifiers(text.substr(1, build - 1), true)) return false;
  return build == text.size() || IsSemverIdentifiers(text.substr(build + 1), false);
}

// How a member is, for messages: "missing", "a number, not a string", "\"Record\"".
std::string Describe(const json::Value* v) {
  if (!v) return "missing";
  if (v->is_string()) return Quoted(v->text());
  return json::DescribeKind(v->kind());
}

// The numeric value of the number `i` as JavaScript reads it (errata: 1.0 and 1e0 are 1); a
// number beyond the doubles is infinite (and MIO-JSON-4).
double IndexValue(const json::Value& i) {
  if (const std::optional<double> d = json::ToDouble(i.text())) return *d;
  return i.text().starts_with('-') ? -std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::infinity();
}

// An interaction's response_content when it is a string: what MI7 hashes.
const json::Value* Content(const json::Value& interaction) {
  const json::Value* content = interaction.FindLast(kContent.name);
  return content && content->kind() == kContent.kind ? content : nullptr;
}

// Whether `a` is `b` (the same text, items or members), not only equal to it.
bool SameValue(const json::Value* a, const json::Value& b) {
  if (!a || a->kind() != b.kind()) return false;
  switch (b.kind()) {
    case json::Kind::kString:
    case json::Kind::kNumber:
      return a->text().data() == b.text().data() && a->text().size() == b.text().size();
    case json::Kind::kArray:
      return a->items().data() == b.items().data() && a->items().size() == b.items().size();
    case json::Kind::kObject:
      return a->members().data() == b.members().data() && a->members().size() == b.members().size();
    default:
      return true;  // null, true and false hold nothing
  }
}

// Whether `shown` (what a parse showed a ParseObserver) is the session's interactions.
bool AreTheInteractions(const std::vector<json::Value>& shown, const json::Value& session) {
  const json::Value* interactions = session.FindLast("interactions");
  if (!interactions || interactions->items().size() != shown.size()) return false;
  for (std::size_t k = 0; k < shown.size(); ++k) {
    if (!SameValue(&interactions->items()[k], shown[k])) return false;
  }
  return true;
}

class Verifier {
 public:
  // `content_digests`: each interaction's response_content digest, already taken (as
  // HashContents takes them), or empty.
  Verifier(const Limits& limits, std::vector<Sha256Digest> content_digests)
      : limits_(limits), content_digests_(std::move(content_digests)) {}

  std::vector<Violation> Run(const json::Value& session) {
    CheckDoubleRange(session);
    if (!session.is_object()) {
      Add(kDocumentRule, "",
          "the document is " + json::DescribeKind(session.kind()) +
              ", not a ModelIOSession object");
      return std::move(violations_);
    }
    CheckIdentity(session);
    CheckOptionalMembers(session);
    if (const json::Value* interactions = Typed(session, kInteractions, "")) {
      CheckInteractions(interactions->items());
    }
    return std::move(violations_);
  }

 private:
  // `reading`: the errata entry whose reading alone makes it a violation (Violation::reading).
  void Add(std::string_view rule, std::string path, std::string message,
           std::string_view reading = "") {
    violations_.push_back(
        {std::string(rule), std::move(path), std::move(message), std::string(reading)});
  }

  // The member `field` of `object` (at `path`) when it is of its kind; otherwise nullptr, and a
  // missing required member or a member of another kind (null included: errata) breaks its type
  // rule and its invariant. A member no invariant covers (the ephemeral ones) is bound only by its
  // table, which the text may not make a condition of validity (errata MIO-E33); null for an
  // optional member is absent under one reading (MIO-E14).
  const json::Value* Typed(const json::Value& object, const Field& field, const std::string& path) {
    const json::Value* v = object.FindLast(field.name);
    if (v && v->kind() == field.kind) return v;
    if (!v && !field.required) return nullptr;
    const std::string where = path + "/" + std::string(field.name);
    const std::string message =
        std::string(field.name) + " is " + Describe(v) + ", not " + json::DescribeKind(field.kind);
    const std::string_view reading = v && v->is_null() && !field.required ? "MIO-E14"
                                     : field.invariant.empty()            ? "MIO-E33"
                                                                          : "";
    Add(field.type_rule, where, message, reading);
    if (!field.invariant.empty()) Add(field.invariant, where, message);
    return nullptr;
  }

  // MIO-JSON-4: every number of the document rounds to a finite double (RFC 8785 §3.1). Depth
  // first, with a stack of its own (the depth limit may be raised far past what recursion
  // survives); a number's JSON Pointer is spelled from the stack only when it is out of range.
  void CheckDoubleRange(const json::Value& root) {
    struct Frame {
      const json::Value* value;
      std::size_t next;  // its next child: items, then members
    };
    CheckDouble(root, [] { return std::string(); });
    std::vector<Frame> stack{{&root, 0}};
    auto pointer = [&] {  // of the child the top frame is at
      std::string path;
      for (std::size_t d = 0; d < stack.size(); ++d) {
        const std::size_t k = stack[d].next - 1;
        const std::span<const json::Value> items = stack[d].value->items();
        path += '/';
        if (k < items.size()) {
          path += std::to_string(k);
        } else {
          json::AppendPointerToken(stack[d].value->members()[k - items.size()].name, &path);
        }
      }
      return path;
    };
    while (!stack.empty()) {
      Frame& top = stack.back();
      const std::span<const json::Value> items = top.value->items();
      const std::span<const json::Member> members = top.value->members();
      if (top.next == items.size() + members.size()) {
        stack.pop_back();
        continue;
      }
      const std::size_t k = top.next++;
      const json::Value& child = k < items.size() ? items[k] : members[k - items.size()].value;
      CheckDouble(child, pointer);
      if (!child.items().empty() || !child.members().empty()) stack.push_back({&child, 0});
    }
  }

  template <typename Pointer>
  void CheckDouble(const json::Value& v, const Pointer& pointer) {
    if (v.is_number() && !json::IsWithinDoubles(v)) {
      // JSON numbers have no range: only MIO-E20's reading (RFC 8785 §3.1) refuses it.
      Add(kDoubleRangeRule, pointer(),
          "the number " + Excerpt(v.text(), 40) + " is beyond the range of IEEE 754 doubles",
          "MIO-E20");
    }
  }

  // MI1, MI2, MI3: the version, the two ids and the mode.
  void CheckIdentity(const json::Value& session) {
    const json::Value* version = Typed(session, kVersion, "");
    if (version && !IsSemver(version->text())) {
      Add("MI1", "/model_io_schema_version",
          "model_io_schema_version is " + Describe(version) +
              ", not a semantic version X.Y.Z (three numbers, no leading zeros)",
          IsSemver2(version->text()) ? "MIO-E10" : "");
    }
    for (const Field& field : {kAdapterId, kModelId}) {
      const json::Value* id = Typed(session, field, "");
      if (id && id->text().empty()) {
        Add("MI2", "/" + std::string(field.name), std::string(field.name) + " is empty");
      }
    }
    const json::Value* mode = Typed(session, kMode, "");
    if (mode && mode->text() != "record" && mode->text() != "replay") {
      Add("MI3", "/mode", "mode is " + Describe(mode) + ", not \"record\" or \"replay\"");
    }
  }

  // created_at_utc, ended_at_utc and stats: optional, and of their type when present (null is
  // not absent: errata).
  void CheckOptionalMembers(const json::Value& session) {
    for (const Field& field : kTimestamps) {
      const json::Value* at = Typed(session, field, "");
      if (at && !IsUtcTimestamp(at->text())) {
        // "ISO 8601 UTC timestamp" is a description whose forms the text does not fix (MIO-E15).
        Add(kTimestampFormRule, "/" + std::string(field.name),
            std::string(field.name) + " is " + Describe(at) + ", not an ISO 8601 UTC timestamp",
            "MIO-E15");
      }
    }
    if (const json::Value* stats = Typed(session, kStats, "")) {
      for (const Field& field : kStatsMembers) (void)Typed(*stats, field, "/stats");
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
    HashContents(interactions);
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

  // The SHA-256 of each response_content that is a string (MI7), side by side (Sha256Batch):
  // content_digests_[k] is interactions[k]'s, unless they were taken already.
  void HashContents(std::span<const json::Value> interactions) {
    if (content_digests_.size() == interactions.size()) return;
    content_digests_.assign(interactions.size(), Sha256Digest{});
    Sha256Batch batch;
    for (std::size_t k = 0; k < interactions.size(); ++k) {
      if (const json::Value* content = Content(interactions[k])) {
        batch.Add(content->text(), &content_digests_[k]);
      }
    }
  }

  // Checks interactions[k]; returns the UTF-8 bytes of its response_content.
  std::uint64_t CheckInteraction(const json::Value& interaction, std::size_t k) {
    // Written where the last interaction's was: ten thousand interactions make no allocation here.
    std::string& path = interaction_path_;
    path.assign("/interactions/");
    path += std::to_string(k);
    if (!interaction.is_object()) {  // nothing more is examined (errata)
      Add(kInteractionRule, path,
          "interaction " + std::to_string(k) + " is " + Describe(&interaction) + ", not an object");
      return 0;
    }
    const json::Value* prompt_hash = Typed(interaction, kPromptHash, path);
    CheckIndex(Typed(interaction, kIndex, path), prompt_hash, k, path);
    if (prompt_hash && !IsContentHash(prompt_hash->text())) {
      Add("MI6", path + "/prompt_hash",
          "prompt_hash is " + Describe(prompt_hash) +
              ", not \"sha256:\" and 64 lowercase hex digits");
    }
    for (const Field& field : kMetrics) (void)Typed(interaction, field, path);
    return CheckResponse(Typed(interaction, kResponseHash, path),
                         Typed(interaction, kContent, path), content_digests_[k], path);
  }

  // MI5 (i is its index), MI9 (sorted by i), MI8 (no repeated (prompt_hash, i) pair). `i` is null
  // when missing or not a number (already reported).
  void CheckIndex(const json::Value* i, const json::Value* prompt_hash, std::size_t k,
                  const std::string& path) {
    if (!i) return;
    const double value = IndexValue(*i);
    if (value != static_cast<double>(k)) {
      Add("MI5", path + "/i",
          "i is " + Excerpt(i->text(), 40) + "; interaction " + std::to_string(k) +
              " must have i " + std::to_string(k));
    }
    if (previous_index_ && value < *previous_index_) {
      Add("MI9", path + "/i",
          "i " + Excerpt(i->text(), 40) +
              " comes after a greater i: interactions are not sorted by i ascending");
    }
    previous_index_ = value;
    if (prompt_hash && !pairs_.emplace(value, prompt_hash->text()).second) {
      Add("MI8", path,
          "the pair (prompt_hash, i) = (" + Quoted(prompt_hash->text()) + ", " +
              Excerpt(i->text(), 40) + ") occurs twice");
    }
  }

  // MI7 (response_hash is the content's hash, `digest`) and MI11 (content size); returns the
  // content's UTF-8 bytes. Either is null when missing or mistyped (already reported).
  std::uint64_t CheckResponse(const json::Value* hash, const json::Value* content,
                              const Sha256Digest& digest, const std::string& path) {
    if (hash && !IsContentHash(hash->text())) {
      Add("MI7", path + "/response_hash",
          "response_hash is " + Describe(hash) + ", not \"sha256:\" and 64 lowercase hex digits");
    } else if (hash && content) {
      ToHex(digest, &hex_);  // into the room the last one left
      if (hash->text().substr(kContentHashPrefix.size()) != hex_) {
        Add("MI7", path + "/response_hash",
            "response_hash is not the SHA-256 of response_content (" +
                std::string(kContentHashPrefix) + hex_ + ")");
      }
    }
    if (!content) return 0;
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
  // (i, prompt_hash), i first: i differs from pair to pair in a valid session (MI5), so ordering
  // the set compares the hashes, which lie far apart in a large session's text, only for equal i.
  std::set<std::pair<double, std::string_view>> pairs_;  // views into the session's document
  std::vector<Sha256Digest> content_digests_;
  std::string interaction_path_;
  std::string hex_;
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
  if (text.size() != kContentHashPrefix.size() + 64 || !text.starts_with(kContentHashPrefix)) {
    return false;
  }
  return IsLowercaseHex(text.substr(kContentHashPrefix.size()));
}

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

namespace {

std::vector<Violation> VerifyWithDigests(const json::Value& session, const Limits& limits,
                                         ViolationOrder order,
                                         std::vector<Sha256Digest> content_digests) {
  std::vector<Violation> violations = Verifier(limits, std::move(content_digests)).Run(session);
  std::stable_sort(
      violations.begin(), violations.end(),
      [order](const Violation& a, const Violation& b) { return ViolationLess(a, b, order); });
  return violations;
}

}  // namespace

std::vector<Violation> Verify(const json::Value& session, const Limits& limits,
                              ViolationOrder order) {
  return VerifyWithDigests(session, limits, order, {});
}

std::vector<Violation> Verify(const json::Value& session, const Limits& limits,
                              ViolationOrder order, ContentDigests* digests) {
  return VerifyWithDigests(session, limits, order,
                           digests->Take(session).value_or(std::vector<Sha256Digest>()));
}

struct ContentDigests::Taken {
  explicit Taken(std::uint64_t max) : max_interactions(max) {}

  std::uint64_t max_interactions;
  std::vector<json::Value> shown;    // every interaction shown, in order
  std::deque<Sha256Digest> digests;  // shown[k]'s is digests[k]: the batch holds their addresses
  Sha256Batch batch;
  bool abandoned = false;

  // Nothing more is taken, and what was is let go.
  void Abandon() {
    batch.Flush();
    abandoned = true;
    std::vector<json::Value>().swap(shown);
    std::deque<Sha256Digest>().swap(digests);
  }
};

ContentDigests::ContentDigests(const Limits& limits)
    : taken_(std::make_unique<Taken>(limits.max_interactions)) {}
ContentDigests::~ContentDigests() = default;

void ContentDigests::Element(std::string_view name, const json::Value& element,
                             std::span<const json::Member>) {
  if (name != "interactions" || taken_->abandoned) return;
  if (taken_->shown.size() == taken_->max_interactions) return taken_->Abandon();
  taken_->shown.push_back(element);
  Sha256Digest& digest = taken_->digests.emplace_back();
  if (const json::Value* content = Content(element)) taken_->batch.Add(content->text(), &digest);
}

void ContentDigests::Refusing() { taken_->Abandon(); }

std::optional<std::vector<Sha256Digest>> ContentDigests::Take(const json::Value& session) {
  taken_->batch.Flush();
  if (taken_->abandoned || !AreTheInteractions(taken_->shown, session)) return std::nullopt;
  return std::vector<Sha256Digest>(taken_->digests.begin(), taken_->digests.end());
}

std::vector<std::string_view> VerifyRules() {
  std::vector<std::string_view> rules = {"MI1",
                                         "MI2",
                                         "MI3",
                                         "MI4",
                                         "MI5",
                                         "MI6",
                                         "MI7",
                                         "MI8",
                                         "MI9",
                                         "MI11",
                                         kDocumentRule,
                                         kDoubleRangeRule,
                                         kTimestampFormRule,
                                         kInteractionRule};
  for (const Field& f :
       {kVersion, kAdapterId, kModelId, kMode, kInteractions, kTimestamps[0], kTimestamps[1],
        kStats, kStatsMembers[0], kStatsMembers[1], kStatsMembers[2], kStatsMembers[3], kIndex,
        kPromptHash, kResponseHash, kContent, kMetrics[0], kMetrics[1], kMetrics[2]}) {
    rules.push_back(f.type_rule);
  }
  return rules;
}

std::string ContentHash(std::string_view bytes) { return HashText(Sha256::Of(bytes)); }

namespace {

// kParseError naming the first of `violations` (sorted), or Ok when there are none.
Status RefuseInvalid(const std::vector<Violation>& violations) {
  if (violations.empty()) return Status::Ok();
  const Violation& v = violations.front();
  return Status(StatusCode::kParseError,
                "the session breaks " + v.rule_id + " at " + (v.path.empty() ? "/" : v.path) +
                    " (" + v.message + "), and " + std::to_string(violations.size() - 1) +
                    " more: ARCS computes no ModelIOCore for an invalid session");
}

// The canonical core of a session that verifies, in three parts: the head (the members before
// the interactions), each interaction, the tail. Any other session is written too, without a
// fault, as far as it has the members the core needs (what comes out is then thrown away): so the
// core can be written while Verify runs on another thread. Members go in UTF-16 order, which for
// these ASCII names is byte order; the interactions are already sorted by i (MI5 holds, so
// interaction k has i == k).
void AppendMember(std::string_view name, const json::Value* value, bool first, std::string* out) {
  if (!first) *out += ',';
  json::AppendQuoted(name, out);
  *out += ':';
  // Strings and finite numbers in a session that verifies: it cannot fail then.
  if (value) (void)canonical::AppendJcs(*value, out);
}

void AppendCoreHead(const json::Value* adapter_id, std::string* out) {
  *out += '{';
  AppendMember("adapter_id", adapter_id, true, out);
  *out += ",\"interactions\":[";
}

void AppendInteractionCore(const json::Value& interaction, bool first, std::string* out) {
  if (!first) *out += ',';
  *out += '{';
  AppendMember("i", interaction.FindLast("i"), true, out);
  for (std::string_view name : {"prompt_hash", "response_content", "response_hash"}) {
    AppendMember(name, interaction.FindLast(name), false, out);
  }
  *out += '}';
}

void AppendCoreTail(const json::Value& session, std::string* out) {
  *out += ']';
  for (std::string_view name : {"mode", "model_id", "model_io_schema_version"}) {
    AppendMember(name, session.FindLast(name), false, out);
  }
  *out += '}';
}

void WriteCore(const json::Value& session, const std::function<void(std::string_view)>& sink) {
  std::string piece;
  AppendCoreHead(session.FindLast("adapter_id"), &piece);
  bool first = true;
  const json::Value* interactions = session.FindLast("interactions");
  for (const json::Value& interaction :
       interactions ? interactions->items() : std::span<const json::Value>()) {
    AppendInteractionCore(interaction, first, &piece);
    first = false;
    sink(piece);  // an interaction at a time: a 100 MB core is never held whole
    piece.clear();
  }
  AppendCoreTail(session, &piece);
  sink(piece);
}

Sha256Digest CoreDigest(const json::Value& session) {
  Sha256 hasher;
  WriteCore(session, [&](std::string_view piece) { hasher.Update(piece); });
  return hasher.Finish();
}

// Below this many bytes of content a second thread costs more than the hashing it takes over.
constexpr std::uint64_t kContentBytesWorthAThread = std::uint64_t{1} << 20;

std::uint64_t ContentBytes(const json::Value& session) {
  std::uint64_t bytes = 0;
  const json::Value* interactions = session.FindLast("interactions");
  for (const json::Value& interaction :
       interactions ? interactions->items() : std::span<const json::Value>()) {
    if (const json::Value* content = interaction.FindLast("response_content")) {
      bytes += content->text().size();
    }
  }
  return bytes;
}

}  // namespace

Status WriteCanonicalCore(const json::Value& session, const Limits& limits,
                          const std::function<void(std::string_view)>& sink) {
  if (Status s = RefuseInvalid(Verify(session, limits)); !s.ok()) return s;
  WriteCore(session, sink);
  return Status::Ok();
}

Result<std::string> CanonicalCore(const json::Value& session, const Limits& limits) {
  std::string out;
  Status s = WriteCanonicalCore(session, limits, [&](std::string_view piece) { out += piece; });
  if (!s.ok()) return s;
  return out;
}

// A session with a megabyte of content or more is verified on a second thread while this one
// writes and hashes its core (Verify spends most of its time on MI7's content hashes); the hash is
// returned only when Verify finds nothing, as in the serial order.
Result<std::string> ModelIOHash(const json::Value& session, const Limits& limits) {
  std::future<std::vector<Violation>> verified;
  if (ContentBytes(session) >= kContentBytesWorthAThread) {
    verified = std::async(std::launch::async, [&] { return Verify(session, limits); });
  } else if (Status s = RefuseInvalid(Verify(session, limits)); !s.ok()) {
    return s;
  }
  const Sha256Digest digest = CoreDigest(session);
  if (verified.valid()) {
    if (Status s = RefuseInvalid(verified.get()); !s.ok()) return s;
  }
  return HashText(digest);
}

// The core, written and hashed on a second thread from the interactions the parse shows it.
class StreamingHash::Core : public json::ParseObserver {
 public:
  explicit Core(std::uint64_t max_interactions) : max_interactions_(max_interactions) {}
  ~Core() override { Join(Ending::kAbandon); }

  void Element(std::string_view name, const json::Value& element,
               std::span<const json::Member> earlier) override {
    if (name != "interactions") return;
    bool wake = false;
    {
      std::lock_guard lock(mutex_);
      if (ending_) return;
      if (shown_.size() == max_interactions_) {
        // More than MI4 and MI11 allow: the session has no hash. Streaming stops here, so that
        // a file of millions of tiny interactions costs no more than its parse.
        ending_ = Ending::kAbandon;
        std::vector<json::Value>().swap(shown_);
        wake = true;
      } else {
        if (!worker_.joinable() && !Start(earlier)) return;
        shown_.push_back(element);
        // A sleeping worker costs a system call to wake: it is woken for every few interactions
        // (and by Join), not for each.
        wake = shown_.size() % kShownPerWake == 0;
      }
    }
    if (wake) shown_more_.notify_one();
  }

  void Refusing() override { Join(Ending::kAbandon); }

  // Waits for the worker: the digest of the core it streamed, if that is the session's own.
  std::optional<Sha256Digest> Finish(const json::Value& session) {
    if (!Join(Ending::kFinish) || !SameValue(session.FindLast("adapter_id"), adapter_id_) ||
        !AreTheInteractions(shown_, session)) {
      return std::nullopt;
    }
    std::string tail;
    AppendCoreTail(session, &tail);
    hasher_.Update(tail);
    return hasher_.Finish();
  }

 private:
  enum class Ending : std::uint8_t { kFinish, kAbandon };

  static constexpr std::size_t kShownPerWake = 16;

  // Starts the worker, with the mutex held, when adapter_id came before the interactions (the
  // head is written first); false when it did not, or no thread is to be had: then Finish writes
  // the core from the session.
  bool Start(std::span<const json::Member> earlier) {
    const auto adapter = std::find_if(earlier.rbegin(), earlier.rend(),
                                      [](const auto& m) { return m.name == "adapter_id"; });
    if (adapter == earlier.rend()) return false;
    adapter_id_ = adapter->value;
    try {
      worker_ = std::thread([this] { Write(); });
    } catch (const std::system_error&) {
      return false;
    }
    return true;
  }

  // The worker: the head, then each interaction as it is shown, until told to end.
  void Write() {
    std::string piece;
    AppendCoreHead(&adapter_id_, &piece);
    std::vector<json::Value> batch;
    for (std::size_t written = 0;;) {
      {
        std::unique_lock lock(mutex_);
        shown_more_.wait(lock, [&] { return ending_ || written < shown_.size(); });
        if (ending_ == Ending::kAbandon || written == shown_.size()) return;
        batch.assign(shown_.begin() + static_cast<std::ptrdiff_t>(written), shown_.end());
      }
      for (const json::Value& interaction : batch) {
        AppendInteractionCore(interaction, written++ == 0, &piece);
        hasher_.Update(piece);
        piece.clear();
      }
    }
  }

  // Tells the worker to end, and waits for it: whether it wrote every interaction shown (false
  // when there was none, or it was abandoned).
  bool Join(Ending ending) {
    {
      std::lock_guard lock(mutex_);
      if (!ending_) ending_ = ending;
    }
    shown_more_.notify_one();
    if (worker_.joinable()) worker_.join();
    return ending_ == Ending::kFinish && !shown_.empty();
  }

  const std::uint64_t max_interactions_;
  std::mutex mutex_;
  std::condition_variable shown_more_;
  std::vector<json::Value> shown_;  // every interaction shown, in order
  std::optional<Ending> ending_;
  std::thread worker_;
  json::Value adapter_id_;
  Sha256 hasher_;
};

StreamingHash::StreamingHash(const Limits& limits)
    : limits_(limits), core_(std::make_unique<Core>(limits.max_interactions)) {}
StreamingHash::~StreamingHash() = default;

json::ParseObserver* StreamingHash::observer() { return core_.get(); }

// Verify runs while the worker ends.
Result<std::string> StreamingHash::Finish(const json::Value& session) {
  if (Status s = RefuseInvalid(Verify(session, limits_)); !s.ok()) return s;
  if (std::optional<Sha256Digest> digest = core_->Finish(session)) {
    return HashText(*digest);
  }
  return HashText(CoreDigest(session));
}

}  // namespace arcs::model_io
