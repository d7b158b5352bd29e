#include "conformance/lightbox/module.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "conformance/lightbox/checker.h"
#include "conformance/lightbox/verbs.h"
#include "reference/core/json.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::conformance::lightbox {

// Built at compile time from conformance/lightbox/requirements.json.
std::string_view CatalogueText();

namespace {

using arcs::lightbox::Limits;

// lightbox.md sets no limits; a verifier of untrusted logs needs them all the same (errata).
const std::vector<BoundLimit<Limits>>& LightboxLimits() {
  static const Limits d;
  static const std::vector<BoundLimit<Limits>> limits = {
      {{kMaxLineBytesLimit, d.max_line_bytes, "LB-LAYOUT-5", "bytes in one line of events.jsonl"},
       &Limits::max_line_bytes},
      {{"max_events", d.max_events, "LB-LAYOUT-5", "events (non-blank lines)"},
       &Limits::max_events},
      {{kMaxJsonDepthLimit, d.max_json_depth, "LB-LAYOUT-5",
        "nesting of arrays and objects in one event (the event is 1)"},
       &Limits::max_json_depth},
  };
  return limits;
}

// The first line is an event: a JSON object with an invocation_id and a prev_hash.
bool LooksLikeLightbox(std::string_view head) {
  if (head.starts_with(kUtf8Bom)) head.remove_prefix(kUtf8Bom.size());
  json::Document doc;
  if (!doc.Parse(head.substr(0, head.find('\n'))) || !doc.root().is_object()) return false;
  return doc.root().Find("invocation_id") && doc.root().Find("prev_hash");
}

void ValidateSession(jsonl::ByteSource* events, const CompanionSources& companions,
                     const LimitValues& limits, Diagnostics* out) {
  auto meta = companions.find("meta");
  Validate(events, meta == companions.end() ? nullptr : meta->second, ToLightboxLimits(limits),
           out);
}

protocol::Answer ValidateAnswer(const CaseInput& input) {
  return ValidateCaseAnswer(Module(), input);
}

// One event's hash as the chain holds it, for `arcs fuzz` to seal mutants again.
Result<std::string> EventLineHash(std::string_view line) {
  json::Document doc;
  if (!doc.Parse(line, arcs::lightbox::ParseOptionsFor(Limits()))) {
    return Status(StatusCode::kInvalidArgument, "not JSON");
  }
  if (!doc.root().is_object()) return Status(StatusCode::kInvalidArgument, "not an object");
  return arcs::lightbox::EventHash(doc.root());
}

// The reference's verdict on a chain; an I/O error cannot happen in memory, a limit can.
Result<arcs::lightbox::ChainVerdict> VerifyInput(const CaseInput& input) {
  jsonl::MemorySource events(input.Input("events"));
  return arcs::lightbox::Verify(&events, ToLightboxLimits(input.limits));
}

// meta.json's text without a leading BOM, which readers and verifiers ignore (errata LB-E7).
std::string_view MetaText(const CaseInput& input) {
  std::string_view text = input.Input("meta");
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  return text;
}

// Whether event `index` (0-based, blank lines not counted) is a line the reference cannot parse
// for a lone surrogate escape alone (errata LB-E27, refuse), or for its own default limits (a case
// that sets none leaves the limits to the implementation, LB-E41): under the reading escape, or
// with higher limits, it is an event, and the chain may break at it or later.
bool OpenLine(const CaseInput& input, std::uint64_t index) {
  const Limits limits = ToLightboxLimits(input.limits);
  jsonl::MemorySource events(input.Input("events"));
  jsonl::LineReader reader(&events, arcs::lightbox::LineOptionsFor(limits));
  jsonl::Line line;
  json::Document doc;
  for (std::uint64_t at = 0;;) {
    Result<bool> next = reader.Next(&line);
    if (!next.ok() || !*next) return false;
    if (!line.too_long && jsonl::IsBlank(line.text)) continue;
    if (at++ < index) continue;
    const Limits defaults;
    if (line.too_long) return limits.max_line_bytes == defaults.max_line_bytes;
    if (doc.Parse(line.text, arcs::lightbox::ParseOptionsFor(limits))) return false;
    return doc.error().code == json::ErrorCode::kLoneSurrogate ||
           (doc.error().code == json::ErrorCode::kDepthExceeded &&
            limits.max_json_depth == defaults.max_json_depth);
  }
}

// Whether some line that the reference cannot parse for a lone surrogate escape (errata LB-E27,
// refuse) has, read under the reading escape, a schema_version other than "1": a verifier of that
// reading refuses the session by the policy unknown_schema_version (LB-E34), naming no event.
bool VersionHiddenBySurrogate(const CaseInput& input) {
  const Limits limits = ToLightboxLimits(input.limits);
  jsonl::MemorySource events(input.Input("events"));
  jsonl::LineReader reader(&events, arcs::lightbox::LineOptionsFor(limits));
  jsonl::Line line;
  json::Document doc;
  json::ParseOptions replacing = arcs::lightbox::ParseOptionsFor(limits);
  replacing.bad_unicode = json::BadUnicode::kReplaceAsGo;
  for (;;) {
    Result<bool> next = reader.Next(&line);
    if (!next.ok() || !*next) return false;
    if (line.too_long || jsonl::IsBlank(line.text)) continue;
    if (doc.Parse(line.text, arcs::lightbox::ParseOptionsFor(limits)) ||
        doc.error().code != json::ErrorCode::kLoneSurrogate) {
      continue;
    }
    if (!doc.Parse(line.text, replacing) || !doc.root().is_object()) continue;
    const json::Value* version = doc.root().FindLast("schema_version");
    if (version && !(version->is_string() && version->text() == arcs::lightbox::kSchemaVersion)) {
      return true;
    }
  }
}

// Whether a verifier may refuse the session as a whole, naming no broken event: meta.json breaks
// a rule under some reading (a verifier that reads or judges it, errata LB-E42: readable-meta,
// checked-meta), or some line or meta.json is beyond the case's limits (a session refused for a
// limit is rejected, not shown broken, errata LB-E41), or an event says another schema_version
// under another reading of LB-E27.
bool SessionMayBeRefused(const CaseInput& input) {
  jsonl::MemorySource events(input.Input("events"));
  std::optional<jsonl::MemorySource> meta;
  if (input.Has("meta")) meta.emplace(input.Input("meta"));
  Diagnostics found;
  Validate(&events, meta ? &*meta : nullptr, ToLightboxLimits(input.limits), &found);
  const auto& all = found.findings();
  return VersionHiddenBySurrogate(input) ||
         std::any_of(all.begin(), all.end(), [](const Finding& f) {
           return f.severity == Severity::kError &&
                  (f.rule_id == "LB-LAYOUT-5" || f.rule_id.starts_with("LB-META-") ||
                   (f.location.line == 0 && !f.location.pointer.empty()));
         });
}

// Whether every event (and meta.json, when given) says schema_version "1": the reference
// declares unknown_schema_version=refuse (errata LB-E34), so it reads and verifies nothing else.
// A missing schema_version is not "unknown" (LB-E31).
bool OnlyVersionOne(const CaseInput& input) {
  bool known = true;
  auto check = [&](const json::Value* v) {
    const json::Value* version = v ? v->FindLast("schema_version") : nullptr;
    if (version && !(version->is_string() && version->text() == arcs::lightbox::kSchemaVersion)) {
      known = false;
    }
  };
  jsonl::MemorySource events(input.Input("events"));
  (void)arcs::lightbox::ForEachEvent(
      &events, ToLightboxLimits(input.limits),
      [&](std::uint64_t, const json::Value* event, std::string_view) { check(event); });
  json::Document meta;
  const json::ParseOptions options =
      arcs::lightbox::ParseOptionsFor(ToLightboxLimits(input.limits));
  if (input.Has("meta") && meta.Parse(MetaText(input), options) && meta.root().is_object()) {
    check(&meta.root());
  }
  return known;
}

// A reader accepts a session whose every line is an event (a JSON object) of a version it knows.
protocol::Answer ReadAnswer(const CaseInput& input) {
  bool readable = OnlyVersionOne(input);
  jsonl::MemorySource events(input.Input("events"));
  Status s =
      arcs::lightbox::ForEachEvent(&events, ToLightboxLimits(input.limits),
                                   [&](std::uint64_t, const json::Value* event, std::string_view) {
                                     readable = readable && event != nullptr;
                                   });
  protocol::Answer answer;
  if (!s.ok() || !readable) answer.verdict = protocol::Verdict::kInvalid;
  return answer;
}

protocol::Answer VerifyAnswer(const CaseInput& input) {
  protocol::Answer answer;
  if (!OnlyVersionOne(input)) {
    answer.verdict = protocol::Verdict::kInvalid;
    answer.reason = "schema_version other than \"1\": refused (unknown_schema_version=refuse)";
    return answer;
  }
  Result<arcs::lightbox::ChainVerdict> verdict = VerifyInput(input);
  if (!verdict.ok() || !verdict->intact()) {
    answer.verdict = protocol::Verdict::kInvalid;
    if (verdict.ok()) answer.outputs["first_broken"] = std::to_string(verdict->first_broken);
  }
  return answer;
}

// A broken chain's answer names the first broken event (0-based), as the reference finds it.
std::string CheckVerify(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kInvalid || !OnlyVersionOne(check.input)) {
    return "";
  }
  Result<arcs::lightbox::ChainVerdict> verdict = VerifyInput(check.input);
  if (!verdict.ok() || verdict->intact()) return "";  // the verdict itself is judged elsewhere
  auto given = check.answer.outputs.find("first_broken");
  const std::string expected = std::to_string(verdict->first_broken);
  if (given == check.answer.outputs.end()) {
    // A session refused for a limit (errata LB-E41), or for its meta.json (LB-E42), is rejected,
    // not shown broken.
    if (SessionMayBeRefused(check.input)) return "";
    return "no output \"first_broken\" (the first broken event is " + expected + ")";
  }
  // An event the reference cannot parse for a lone surrogate (LB-E27: refuse) or its own default
  // limits is one under the reading escape, or higher limits: the chain breaks there or later.
  if (given->second != expected && OpenLine(check.input, verdict->first_broken)) {
    const std::optional<std::int64_t> at = json::ToInt64(given->second);
    if (at && *at >= 0 && static_cast<std::uint64_t>(*at) >= verdict->first_broken) return "";
  }
  if (given->second != expected) {
    return "first_broken is " + given->second + "; the first broken event is " + expected + " (" +
           verdict->reason + ")";
  }
  return "";
}

// The hashes of the events, one per line, or nothing when an event cannot be hashed.
std::optional<std::string> Hashes(const CaseInput& input) {
  jsonl::MemorySource events(input.Input("events"));
  std::string hashes;
  bool all = true;
  Status s = arcs::lightbox::HashEach(&events, ToLightboxLimits(input.limits),
                                      [&](std::uint64_t, const Result<std::string>& hash) {
                                        all = all && hash.ok();
                                        if (hash.ok()) hashes += *hash + "\n";
                                      });
  if (!s.ok() || !all) return std::nullopt;
  return hashes;
}

protocol::Answer HashAnswer(const CaseInput& input) {
  protocol::Answer answer;
  if (std::optional<std::string> hashes = Hashes(input)) {
    answer.outputs["hashes"] = std::move(*hashes);
  } else {
    answer.verdict = protocol::Verdict::kInvalid;
  }
  return answer;
}

// Exactly the reference's hashes where the text settles the canonical form; where a flag gives
// readings with other bytes (errata LB-E23, LB-E24, LB-E28, ...), the verdict is all that is
// judged: the hash of another reading is another hash.
std::string CheckHash(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.ambiguous) return "";
  std::optional<std::string> expected = Hashes(check.input);
  if (!expected) return "";
  auto given = check.answer.outputs.find("hashes");
  if (given == check.answer.outputs.end()) return "no output \"hashes\"";
  if (given->second != *expected) {
    return "the hashes differ from the canonical ones (one lowercase hex SHA-256 per event, one "
           "per line)";
  }
  return "";
}

protocol::Answer WriteAnswer(const CaseInput& input) {
  protocol::Answer answer;
  jsonl::MemorySource events(input.Input("events"));
  std::string chain;
  if (arcs::lightbox::WriteChain(&events, ToLightboxLimits(input.limits), &chain).ok()) {
    answer.outputs["events"] = std::move(chain);
  } else {
    answer.verdict = protocol::Verdict::kInvalid;
  }
  return answer;
}

// The hashes of every event of `events`, in order; an event with none stops the list.
std::vector<std::string> HashList(std::string_view events, const Limits& limits) {
  jsonl::MemorySource source(events);
  std::vector<std::string> hashes;
  bool all = true;
  (void)arcs::lightbox::HashEach(&source, limits,
                                 [&](std::uint64_t, const Result<std::string>& hash) {
                                   all = all && hash.ok();
                                   if (all) hashes.push_back(*hash);
                                 });
  return hashes;
}

// A written chain verifies and is the reference's chain of the same input, whatever the spelling:
// a hash covers an event's canonical data and its link, so equal hashes, event by event, mean the
// same events (schema_version "1" set where the input had none) linked in the same order.
std::string CheckWrite(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid) return "";
  auto given = check.answer.outputs.find("events");
  if (given == check.answer.outputs.end()) return "no output \"events\"";
  const Limits limits = ToLightboxLimits(check.input.limits);
  jsonl::MemorySource written(given->second);
  Result<arcs::lightbox::ChainVerdict> verdict = arcs::lightbox::Verify(&written, limits);
  if (!verdict.ok()) return "the written chain cannot be read: " + verdict.status().message();
  if (!verdict->intact()) return "the written chain does not verify: " + verdict->reason;
  std::string reference;
  jsonl::MemorySource events(check.input.Input("events"));
  if (!arcs::lightbox::WriteChain(&events, limits, &reference).ok()) return "";
  const std::vector<std::string> mine = HashList(given->second, limits);
  const std::vector<std::string> expected = HashList(reference, limits);
  for (std::size_t i = 0; i < std::min(mine.size(), expected.size()); ++i) {
    if (mine[i] != expected[i]) {
      return "written event " + std::to_string(i) + " is not the input's event " +
             std::to_string(i) +
             " (its data, with schema_version \"1\" where it had none, and its link)";
    }
  }
  if (mine.size() != expected.size()) {
    return "the written chain holds " + std::to_string(mine.size()) + " events, the input " +
           std::to_string(expected.size());
  }
  return "";
}

FormatModule Build() {
  FormatModule m;
  m.name = "lightbox";
  m.title = "Lightbox v1";
  m.spec = "lightbox.md";
  m.spec_version = "1";
  m.rule_prefix = "LB-";
  m.extensions = {"events.jsonl"};
  m.sniff = LooksLikeLightbox;
  m.folder_file = "events.jsonl";
  m.companions = {{"meta", "meta.json"}};
  m.limits = LimitSpecs(LightboxLimits());
  // The reference's choice where lightbox.md leaves one: a session of another schema_version is
  // refused, since a new version is what announces other canonicalization or hash rules.
  m.policies = {
      {"unknown_schema_version",
       {"refuse", "warn"},
       "refuse",
       "lightbox.md Compatibility Policy: Readers MAY refuse to read schema_version > N"},
  };
  m.operations = {
      {"validate",
       "judges whether the session (events.jsonl, and meta.json when given) conforms",
       {"events", "meta"},
       "valid",
       "invalid",
       ValidateAnswer,
       nullptr},
      {"read",
       "reads the session as a Lightbox reader: accepts it, or refuses it",
       {"events", "meta"},
       "accept",
       "reject",
       ReadAnswer,
       nullptr},
      {"verify",
       "checks the hash chain; a failed one names its first broken event (output first_broken, "
       "0-based)",
       {"events", "meta"},
       "verified",
       "failed",
       VerifyAnswer,
       CheckVerify},
      {"hash",
       "computes each event's hash (output hashes: one lowercase hex SHA-256 per line), or "
       "refuses events that have none",
       {"events"},
       "hashed",
       "refused",
       HashAnswer,
       CheckHash},
      {"write",
       "writes the given events as a chain (output events), or refuses them",
       {"events"},
       "written",
       "refused",
       WriteAnswer,
       CheckWrite},
  };
  m.hash_chains = {{"events", "hash", "prev_hash", EventLineHash}};
  m.rules = AllRules;
  m.validator = ValidateSession;
  m.verbs = Verbs();
  m.catalogue_text = CatalogueText;
  return m;
}

}  // namespace

const FormatModule& Module() {
  static const FormatModule module = Build();
  return module;
}

Limits ToLightboxLimits(const LimitValues& values) {
  return ToReferenceLimits(LightboxLimits(), values);
}

}  // namespace arcs::conformance::lightbox
