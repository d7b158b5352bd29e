#include "conformance/mcp_record_replay/module.h"

#include <algorithm>
#include <limits>
#include <map>

#include "conformance/mcp_record_replay/checker.h"
#include "conformance/mcp_record_replay/convert_judge.h"
#include "conformance/mcp_record_replay/replay_judge.h"
#include "conformance/mcp_record_replay/verbs.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/convert.h"
#include "reference/mcp_record_replay/loader.h"
#include "reference/mcp_record_replay/replay.h"
#include "reference/mcp_record_replay/stub_upstream.h"

namespace arcs::conformance::mcp_record_replay {

namespace {

using arcs::mcp_record_replay::Limits;

// ARCS's limits: the spec sets none (RFC 8259 §9 lets a reader set them; errata MRR-E25).
const std::vector<BoundLimit<Limits>>& RecordingLimits() {
  static const Limits d;
  static const std::vector<BoundLimit<Limits>> limits = {
      {{kMaxLineBytesLimit, d.max_line_bytes, "MRR-JSON-5",
        "bytes of one line of a recording, without its line end"},
       &Limits::max_line_bytes},
      {{kMaxJsonDepthLimit, d.max_json_depth, "MRR-JSON-5",
        "nesting of arrays and objects in a line (the line's object is 1)"},
       &Limits::max_json_depth},
  };
  return limits;
}

// A long session (EC-REC-007): 120 exchanges whose responses hold 1,000,000 bytes of text each,
// over NFR-002's 100 MB, and the client script that asks for every one of them in order. The
// content answers completion/complete, which convert passes over, so that a converter's output
// stays small.
std::map<std::string, std::string> LongSession() {
  constexpr int kExchanges = 120;
  const std::string text(1'000'000, 'a');
  std::string recording =
      R"({"type":"header","version":"1.0","name":"probe","tags":[],)"
      R"("recorded_at":"2025-02-04T10:00:00Z","upstream":"probe","thoughtjack_version":"arcs"})"
      "\n";
  recording.reserve(kExchanges * (text.size() + 512));
  std::string script;
  for (int i = 1; i <= kExchanges; ++i) {
    const std::string id = std::to_string(i);
    const std::string request = R"({"jsonrpc":"2.0","id":)" + id +
                                R"(,"method":"completion/complete","params":{"n":)" + id + "}}";
    script += request + "\n";
    recording += R"({"type":"message","seq":)" + std::to_string(2 * i - 1) +
                 R"(,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":)" + request + "}\n";
    recording += R"({"type":"message","seq":)" + std::to_string(2 * i) +
                 R"(,"ts":"2025-02-04T10:00:02Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":)" + id +
                 R"(,"result":{"completion":{"values":[")" + text + R"("]}}},"latency_ms":1})" +
                 "\n";
  }
  recording += R"({"type":"footer","total_messages":240,"duration_ms":1000,)"
               R"("client_messages":120,"server_messages":120})"
               "\n";
  std::map<std::string, std::string> inputs;  // moved in: a braced list would copy 120 MB
  inputs["recording"] = std::move(recording);
  inputs["script"] = std::move(script);
  return inputs;
}

std::vector<ResourceProbe> ResourceProbes() {
  return {
      {"long-session",
       "a recording of 120 MB (120 responses of 1,000,000 bytes), replayed in full in order",
       {"EC-REC-007", "NFR-002"},
       "§3 EC-REC-007: \"**Scenario:** Recording is 1GB+ (long session) **Expected:** Streaming "
       "load for replay, bounded memory, no OOM\"; §4 NFR-002: \"- Recording load: < 1s for "
       "100MB files\"; errata MRR-E46",
       LongSession,
       {{"validate", "valid"}, {"replay", "loaded"}, {"convert", "converted"}}},
  };
}

// A header line: the first line of every recording (§2 F-002), with members only it has.
bool LooksLikeRecording(std::string_view head) {
  const std::string_view first = head.substr(0, head.find('\n'));
  return first.find("\"header\"") != std::string_view::npos &&
         first.find("\"thoughtjack_version\"") != std::string_view::npos;
}

void ValidateFile(jsonl::ByteSource* source, const CompanionSources&, const LimitValues& limits,
                  Diagnostics* out) {
  Validate(source, ToRecordingLimits(limits), out);
}

protocol::Answer ValidateAnswer(const CaseInput& input) {
  return ValidateCaseAnswer(Module(), input);
}

// The spec's own ids that a recording breaks besides the catalogue ids the reference cites, so that
// an implementation naming them for an invalid verdict names a rule the file breaks
// (conformance::BrokenRules): F-002, the umbrella of every file requirement (its catalogue reason);
// NFR-003 "Each line independently parseable (no multi-line JSON)", for a line that is no JSON
// text or holds a carriage return (a line break to a reader that splits lines on CR: NDJSON §3.1
// "The JSON texts MUST NOT contain newlines or carriage returns"); EC-REC-002 for a cut-off last
// line, its "corrupt final line"; EC-REC-008 for a version other than "1.0", its "version
// incompatibility". A line over a limit ends the reading, as it ends the reference's.
std::set<std::string> MoreBrokenRules(const CaseInput& input) {
  std::set<std::string> broken;
  for (const protocol::ReportedFinding& f : ValidateAnswer(input).findings) {
    if (f.severity != "error") continue;
    const Requirement* r = Module().BuiltInCatalogue().Find(f.rule);
    if (r && r->subject == "file") broken.insert("F-002");
    if (f.rule == "MRR-HEADER-3") broken.insert("EC-REC-008");
  }
  const Limits limits = ToRecordingLimits(input.limits);
  jsonl::MemorySource source(input.Input("recording"));
  jsonl::LineOptions line_options;
  line_options.max_line_bytes = limits.max_line_bytes;
  jsonl::LineReader reader(&source, line_options);
  json::ParseOptions parse_options;
  parse_options.max_depth = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(limits.max_json_depth, std::numeric_limits<std::uint32_t>::max()));
  json::Document doc;
  jsonl::Line line;
  for (Result<bool> more = reader.Next(&line); more.ok() && *more; more = reader.Next(&line)) {
    if (line.too_long) break;
    if (jsonl::IsBlank(line.text)) continue;
    if (line.text.find('\r') != std::string_view::npos) broken.insert("NFR-003");
    if (doc.Parse(line.text, parse_options)) continue;
    if (doc.error().code == json::ErrorCode::kDepthExceeded) break;
    broken.insert("NFR-003");
    if (line.ending == jsonl::Ending::kNone) broken.insert("EC-REC-002");
  }
  return broken;
}

namespace mrr = arcs::mcp_record_replay;

// The case's string argument `name`, or `fallback` (§5's default) when it has none.
std::string ArgumentOf(std::string_view args, std::string_view name, std::string_view fallback) {
  json::Document doc;
  if (args.empty() || !doc.Parse(args) || !doc.root().is_object()) return std::string(fallback);
  const json::Value* v = doc.root().Find(name);
  return v && v->is_string() ? std::string(v->text()) : std::string(fallback);
}

// The case's count argument `name`, or `fallback` when it has none.
std::uint64_t CountArgumentOf(std::string_view args, std::string_view name,
                              std::uint64_t fallback) {
  json::Document doc;
  if (args.empty() || !doc.Parse(args) || !doc.root().is_object()) return fallback;
  const json::Value* v = doc.root().Find(name);
  const std::optional<std::uint64_t> n =
      v && v->is_number() ? ParseCount(v->text(), UINT64_MAX) : std::nullopt;
  return n.value_or(fallback);
}

Result<mrr::LoadedRecording> LoadCase(const CaseInput& input) {
  jsonl::MemorySource source(input.Input("recording"));
  mrr::LoadOptions load;
  load.limits = ToRecordingLimits(input.limits);
  return mrr::LoadRecording(&source, load);
}

Result<mrr::ReplayOptions> ReplayOptionsFromArgs(std::string_view args) {
  mrr::ReplayOptions options;
  Result<mrr::MatchMode> mode = mrr::ParseMatchMode(ArgumentOf(args, "match_mode", "sequential"));
  Result<mrr::Timing> timing = mrr::ParseTiming(ArgumentOf(args, "timing", "instant"));
  Result<mrr::OnUnmatched> unmatched =
      mrr::ParseOnUnmatched(ArgumentOf(args, "on_unmatched", "error"));
  for (const Status* s : {&mode.status(), &timing.status(), &unmatched.status()}) {
    if (!s->ok()) return *s;
  }
  options.match_mode = *mode;
  options.timing = *timing;
  options.on_unmatched = *unmatched;
  return options;
}

// The reference loads as it declares (bom and blank_lines: ignore), replays the script, and
// answers `refused` when the recording does not load or the arguments cannot work together:
// passthrough without the case's stub upstream is a usage error (errata MRR-E42 usage-error).
// With one, the stub answers in process what `arcs mcp stub` would.
protocol::Answer ReplayAnswer(const CaseInput& input) {
  protocol::Answer answer;
  answer.verdict = protocol::Verdict::kInvalid;
  Result<mrr::ReplayOptions> options = ReplayOptionsFromArgs(input.args);
  if (!options.ok()) return answer;
  std::optional<mrr::StubForwarder> upstream;
  if (options->on_unmatched == mrr::OnUnmatched::kPassthrough) {
    Result<mrr::StubUpstream> stub = mrr::StubUpstream::Parse(input.Input("upstream"));
    if (input.Input("upstream").empty() || !stub.ok()) return answer;
    upstream.emplace(std::move(*stub));
  }
  Result<mrr::LoadedRecording> loaded = LoadCase(input);
  if (!loaded.ok()) return answer;
  const mrr::MemoryRandomAccess lines(input.Input("recording"));
  Result<mrr::ReplayTranscript> transcript = mrr::ReplayScript(
      *loaded, lines, input.Input("script"), *options, upstream ? &*upstream : nullptr);
  if (!transcript.ok()) return answer;
  answer.verdict = protocol::Verdict::kValid;
  answer.outputs["answers"] = std::move(transcript->answers);
  answer.outputs["end"] = std::string(transcript->ended ? kExitNonZero : kScriptEnd);
  return answer;
}

// Refused when the recording does not load (errata MRR-E11 parse-only), converted otherwise.
protocol::Answer ConvertAnswer(const CaseInput& input) {
  protocol::Answer answer;
  answer.verdict = protocol::Verdict::kInvalid;
  Result<mrr::LoadedRecording> loaded = LoadCase(input);
  if (!loaded.ok()) return answer;
  mrr::ConvertOptions options;
  options.style = ArgumentOf(input.args, "style", "simple") == "phased"
                      ? mrr::ConvertStyle::kPhased
                      : mrr::ConvertStyle::kSimple;
  options.phase_after = CountArgumentOf(input.args, "phase_after", 3);
  const mrr::MemoryRandomAccess lines(input.Input("recording"));
  Result<mrr::Converted> converted = mrr::Convert(*loaded, lines, options, "recording.jsonl");
  if (!converted.ok()) return answer;
  answer.verdict = protocol::Verdict::kValid;
  answer.outputs["yaml"] = std::move(converted->yaml);
  return answer;
}

// The YAML parsed and compared as data with expect_convert (errata MRR-E43, MRR-E44); where the
// readings of MRR-E44 expect different data, the answer passes under one of them.
std::string CheckConvert(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.expected_properties.empty()) {
    return "";
  }
  auto yaml = check.answer.outputs.find("yaml");
  if (yaml == check.answer.outputs.end()) return "a converted recording has the output \"yaml\"";
  json::Document doc;
  if (!doc.Parse(check.expected_properties)) return "the vector's expect_convert does not parse";
  const json::Value* readings = doc.root().Find("readings");
  if (!readings) return Join(JudgeConvert(yaml->second, doc.root()), "; ");
  PropertyReadings agreed{std::string(doc.root().Find("flag")->text()),
                          {},
                          std::string(doc.root().Find("arcs")->text())};
  std::string first_problem;
  for (const json::Member& r : readings->members()) {
    if (r.value.is_null()) continue;
    std::vector<std::string> problems = JudgeConvert(yaml->second, r.value);
    if (problems.empty()) agreed.readings.emplace_back(r.name);
    if (first_problem.empty() && !problems.empty()) {
      first_problem = "under " + std::string(r.name) + ": " + problems.front();
    }
  }
  const bool none = agreed.readings.empty();
  if (check.readings) *check.readings = std::move(agreed);
  return none ? "no reading of " + std::string(doc.root().Find("flag")->text()) + " converts so; " +
                    first_problem
              : "";
}

std::string CheckReplay(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.expected_properties.empty()) {
    return "";
  }
  auto answers = check.answer.outputs.find("answers");
  auto end = check.answer.outputs.find("end");
  if (answers == check.answer.outputs.end() || end == check.answer.outputs.end()) {
    return "a loaded replay answers with the outputs \"answers\" and \"end\"";
  }
  json::Document doc;
  if (!doc.Parse(check.expected_properties)) return "the vector's expect_replay does not parse";
  if (std::string bad = CheckReplayExpectation(doc.root()); !bad.empty()) {
    return "the vector's " + bad;
  }
  ReplayJudgement judged = JudgeReplay(answers->second, end->second, doc.root());
  if (check.readings && doc.root().Find("flag")) {
    *check.readings = {std::string(doc.root().Find("flag")->text()), std::move(judged.readings),
                       std::string(doc.root().Find("arcs")->text())};
  }
  return judged.problem;
}

bool IsString(const json::Value& v, std::initializer_list<std::string_view> choices) {
  if (!v.is_string()) return false;
  for (std::string_view c : choices) {
    if (v.text() == c) return true;
  }
  return false;
}

FormatModule Build() {
  FormatModule m;
  m.name = "mcp-record-replay";
  m.command_alias = "mcp";
  m.title = "MCP record/replay (TJ-SPEC-010, recording format 1.0)";
  m.spec = "mcp-record-replay.md";
  m.spec_version = "1.0";
  m.rule_prefix = "MRR-";
  m.native_rule_prefixes = {"F-", "EC-REC-", "NFR-"};
  m.sniff = LooksLikeRecording;
  m.limits = LimitSpecs(RecordingLimits());
  m.resource_probes = ResourceProbes();
  m.harness_inputs = {"upstream"};
  m.arguments = {
      {"match_mode", "\"sequential\" (default), \"by-request\" or \"fuzzy\"",
       [](const json::Value& v) {
         return IsString(v, {"sequential", "by-request", "fuzzy"});
       }},
      {"timing", "\"instant\" (default), \"realistic\" or \"scaled:N\"",
       [](const json::Value& v) {
         return v.is_string() && arcs::mcp_record_replay::ParseTiming(v.text()).ok();
       }},
      {"on_unmatched", "\"error\" (default), \"warn\" or \"passthrough\"",
       [](const json::Value& v) {
         return IsString(v, {"error", "warn", "passthrough"});
       }},
      {"style", "\"simple\" (default) or \"phased\"",
       [](const json::Value& v) {
         return IsString(v, {"simple", "phased"});
       }},
      {"phase_after", "a count of tools/call requests (default 3)",
       [](const json::Value& v) { return v.is_number() && ParseCount(v.text(), UINT64_MAX); }},
  };
  m.policies = {
      {"bom",
       {"ignore", "refuse"},
       "ignore",
       "RFC 8259 §8.1: parsers \"MAY ignore the presence of a byte order mark rather than treating "
       "it as an error\" (errata MRR-E6); judged in replay and convert"},
      {"blank_lines",
       {"ignore", "refuse"},
       "ignore",
       "NDJSON §3.2: the parser \"MAY silently ignore empty lines\" (errata MRR-E8); judged in "
       "replay and convert"},
  };
  m.operations = {
      {"validate",
       "judges whether a recording conforms: the NDJSON text, the header-messages-footer "
       "structure, both statements of the line format (errata MRR-E2); findings cite the catalogue",
       {"recording"},
       "valid",
       "invalid",
       ValidateAnswer},
      {"replay",
       "serves the recording (input recording) as a mock MCP server to the client script (input "
       "script, one JSON-RPC message per line) under the case's match_mode, timing and "
       "on_unmatched, passthrough going to `arcs mcp stub` of the input upstream; outputs answers "
       "(what it sent, one message per line) and end (script-end, or exit-non-zero when it "
       "stopped on its own)",
       {"recording", "script"},
       "loaded",
       "refused",
       ReplayAnswer,
       CheckReplay},
      {"convert",
       "writes the recording (input recording) as a ThoughtJack attack config in YAML (output "
       "yaml) in the case's style (simple or phased, phase_after), or refuses a recording it "
       "cannot load",
       {"recording"},
       "converted",
       "refused",
       ConvertAnswer,
       CheckConvert},
  };
  m.rules = AllRules;
  m.validator = ValidateFile;
  m.more_broken_rules = MoreBrokenRules;
  // Whether a loader refuses a recording VALIDATE finds invalid but can read is MRR-E11's question
  // (valid-only refuses it); a recording the reference refuses is one it cannot read, which every
  // reading refuses.
  m.refusal_readings = {{"replay", "MRR-E11", false, true}, {"convert", "MRR-E11", false, true}};
  m.verbs = Verbs();
  m.catalogue_text = CatalogueText;
  return m;
}

}  // namespace

const FormatModule& Module() {
  static const FormatModule module = Build();
  return module;
}

Limits ToRecordingLimits(const LimitValues& values) {
  return ToReferenceLimits(RecordingLimits(), values);
}

}  // namespace arcs::conformance::mcp_record_replay
