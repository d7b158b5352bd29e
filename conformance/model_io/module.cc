#include "conformance/model_io/module.h"

#include <algorithm>
#include <set>

#include "conformance/model_io/checker.h"
#include "conformance/model_io/verbs.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::conformance::model_io {

// Built at compile time from conformance/model_io/requirements.json.
std::string_view CatalogueText();

namespace {

using arcs::model_io::Limits;
using arcs::model_io::Violation;
using arcs::model_io::ViolationOrder;

// ARCS's limits, for what the spec leaves unbounded (RFC 8259 §9 lets a reader set them). MI11's
// are the spec's own and not configurable: a case cannot ask an implementation for others.
const std::vector<BoundLimit<Limits>>& ModelIoLimits() {
  static const Limits d;
  static const std::vector<BoundLimit<Limits>> limits = {
      {{"max_file_bytes", d.max_file_bytes, "MIO-JSON-5", "bytes of model_io.json read"},
       &Limits::max_file_bytes},
      {{"max_json_depth", d.max_json_depth, "MIO-JSON-5",
        "nesting of arrays and objects (the document is 1)"},
       &Limits::max_json_depth},
  };
  return limits;
}

// MI11's session total at its real size, too big to commit (errata MIO-E8): `full` contents of
// 1,000,000 bytes (the most one may hold), and one more of one byte when `one_more_byte`.
std::map<std::string, std::string> SessionOfContent(std::size_t full, bool one_more_byte) {
  const std::string content(1'000'000, 'a');
  const std::string content_hash = arcs::model_io::ContentHash(content);
  const std::string prompt_hash = arcs::model_io::ContentHash("prompt");
  std::string file =
      R"({"model_io_schema_version":"1.0.0","adapter_id":"probe","model_id":"probe",)"
      R"("mode":"record","interactions":[)";
  file.reserve(full * (content.size() + 256) + 1024);
  auto add = [&](std::size_t i, std::string_view body, const std::string& hash) {
    file += (i ? "," : "") + std::string(R"({"i":)") + std::to_string(i) + R"(,"prompt_hash":")" +
            prompt_hash + R"(","response_hash":")" + hash + R"(","response_content":")";
    file += body;
    file += "\"}";
  };
  for (std::size_t i = 0; i < full; ++i) add(i, content, content_hash);
  if (one_more_byte) add(full, "b", arcs::model_io::ContentHash("b"));
  file += "]}";
  return {{"file", std::move(file)}};
}

constexpr char kSessionTotalText[] =
    "§5 MI11: \"total response bytes <= 100_000_000 bytes per session\"; errata MIO-E8, MIO-E9";

std::vector<ResourceProbe> ResourceProbes() {
  return {
      {"session-total-at-limit",
       "100 response contents of 1,000,000 bytes: 100,000,000 bytes in the session, MI11's limit",
       {"MI11"},
       kSessionTotalText,
       [] { return SessionOfContent(100, false); },
       {{"validate", "valid"}, {"hash", "hashed"}, {"canonicalize", "canonicalized"}}},
      {"session-total-over-limit",
       "100 response contents of 1,000,000 bytes and one of 1 byte: 100,000,001 bytes, one over "
       "MI11's limit (hash and canonicalize: any verdict, errata MIO-E4)",
       {"MI11"},
       kSessionTotalText,
       [] { return SessionOfContent(100, true); },
       {{"validate", "invalid"}}},
  };
}

// A JSON object with the members every session has.
bool LooksLikeModelIo(std::string_view head) {
  return head.find("\"model_io_schema_version\"") != std::string_view::npos &&
         head.find("\"interactions\"") != std::string_view::npos;
}

void ValidateFile(jsonl::ByteSource* source, const CompanionSources&, const LimitValues& limits,
                  Diagnostics* out) {
  Validate(source, ToModelIoLimits(limits), out);
}

ViolationOrder DeclaredOrder(const std::map<std::string, std::string>& policies) {
  auto it = policies.find("violation_order");
  return it != policies.end() && it->second == "numeric" ? ViolationOrder::kNumeric
                                                         : ViolationOrder::kCodeUnit;
}

// MI10's key of a reported finding.
Violation AsViolation(const protocol::ReportedFinding& f) { return {f.rule, f.pointer, f.message}; }

// The reference answers with its findings in MI10's order, as it declares it (code-unit).
protocol::Answer ValidateAnswer(const CaseInput& input) {
  protocol::Answer answer = ValidateCaseAnswer(Module(), input);
  std::stable_sort(answer.findings.begin(), answer.findings.end(),
                   [](const protocol::ReportedFinding& a, const protocol::ReportedFinding& b) {
                     return arcs::model_io::ViolationLess(AsViolation(a), AsViolation(b),
                                                          ViolationOrder::kCodeUnit);
                   });
  return answer;
}

// The invariant ids (MI1-MI12) of some findings: what the spec's verifiers report and compare.
std::set<std::string> InvariantIds(const std::vector<protocol::ReportedFinding>& findings) {
  std::set<std::string> ids;
  for (const protocol::ReportedFinding& f : findings) {
    if (Module().IsNativeRuleId(f.rule)) ids.insert(f.rule);
  }
  return ids;
}

// The invariants that always fail together (errata): MI8 and MI9 only ever fail with MI5
// (MIO-E7), and MI4 and MI11 both limit the interactions to 10,000 (MIO-E8). An implementation
// that names the one may leave out the other.
bool MayBeLeftOut(std::string_view id, const std::set<std::string>& reported,
                  const std::set<std::string>& expected) {
  if (id == "MI8" || id == "MI9") return reported.contains("MI5");
  if (id == "MI4") return reported.contains("MI11");
  if (id == "MI11") return reported.contains("MI4") && expected.contains("MI4");
  return false;
}

// The ids, each cut to an excerpt: an implementation's answer names them.
std::string JoinIds(const std::set<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + Excerpt(id, 40);
  return out.empty() ? "none" : out;
}

// MI10: the violations come sorted in the order the implementation declares; and where the text
// settles the case, they name the invariants the reference finds, no more and no fewer.
std::string CheckValidate(const AnswerCheck& check) {
  const ViolationOrder order = DeclaredOrder(check.policies);
  const std::vector<protocol::ReportedFinding>& given = check.answer.findings;
  for (std::size_t k = 1; k < given.size(); ++k) {
    if (arcs::model_io::ViolationLess(AsViolation(given[k]), AsViolation(given[k - 1]), order)) {
      return "violation " + std::to_string(k) + " (" + Excerpt(given[k].rule, 40) + " " +
             Excerpt(given[k].pointer, 120) +
             ") comes before the one above it in (rule_id, path, message) order, violation_order=" +
             (order == ViolationOrder::kNumeric ? "numeric" : "code-unit") + " (MI10)";
    }
  }
  if (check.ambiguous || !check.answer.findings_given) return "";
  const std::set<std::string> expected = InvariantIds(ValidateAnswer(check.input).findings);
  const std::set<std::string> reported = InvariantIds(given);
  auto named = [&](std::string_view id) { return reported.contains(std::string(id)); };
  for (const std::string& id : expected) {
    if (named(id) || MayBeLeftOut(id, reported, expected)) continue;
    return "the violations do not name " + id + " (they name " + JoinIds(reported) +
           "; the file breaks " + JoinIds(expected) + ")";
  }
  for (const std::string& id : reported) {
    if (!expected.contains(id)) {
      return "the violations name " + Excerpt(id, 40) +
             ", which the file does not break (it breaks " + JoinIds(expected) + ")";
    }
  }
  return "";
}

// The session parsed with the case's limits; nullptr when it is not one JSON document or repeats
// a name (no canonical form: errata).
const json::Value* ParseSession(const CaseInput& input, json::Document* doc) {
  const Limits limits = ToModelIoLimits(input.limits);
  const std::string& text = input.Input("file");
  if (text.size() > limits.max_file_bytes) return nullptr;
  if (!doc->Parse(text, arcs::model_io::ParseOptionsFor(limits)) || !doc->duplicates().empty()) {
    return nullptr;
  }
  return &doc->root();
}

// The reference's answer of an operation that computes one output from a session, or refuses.
protocol::Answer ComputedAnswer(const CaseInput& input, std::string_view output,
                                Result<std::string> (*compute)(const json::Value&, const Limits&)) {
  protocol::Answer answer;
  json::Document doc;
  const json::Value* session = ParseSession(input, &doc);
  Result<std::string> result = session ? compute(*session, ToModelIoLimits(input.limits))
                                       : Result<std::string>(Status(StatusCode::kParseError, ""));
  if (result.ok()) {
    answer.outputs[std::string(output)] = *result;
  } else {
    answer.verdict = protocol::Verdict::kInvalid;
  }
  return answer;
}

protocol::Answer HashAnswer(const CaseInput& input) {
  return ComputedAnswer(input, "hash", arcs::model_io::ModelIOHash);
}

protocol::Answer CanonicalizeAnswer(const CaseInput& input) {
  return ComputedAnswer(input, "canonical", arcs::model_io::CanonicalCore);
}

// Exactly the reference's output where the text settles the case (RFC 8785 leaves one form).
std::string CheckOutput(const AnswerCheck& check, std::string_view output,
                        protocol::Answer (*reference)(const CaseInput&)) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.ambiguous) return "";
  const protocol::Answer expected = reference(check.input);
  auto want = expected.outputs.find(std::string(output));
  if (want == expected.outputs.end()) return "";
  auto given = check.answer.outputs.find(std::string(output));
  if (given == check.answer.outputs.end()) return "no output \"" + std::string(output) + "\"";
  if (given->second != want->second) {
    return "the " + std::string(output) + " differs from the reference's (" +
           (output == "hash" ? want->second : std::to_string(want->second.size()) + " bytes") + ")";
  }
  return "";
}

// A flagged case that claims the hash of another (MI12's pairs: errata MIO-E28) is still compared:
// its readings differ only on whether to hash it, and the reference hashes both.
std::string CheckHash(const AnswerCheck& check) {
  AnswerCheck exact = check;
  exact.ambiguous = check.ambiguous && check.same_hash_as.empty();
  return CheckOutput(exact, "hash", HashAnswer);
}

std::string CheckCanonicalize(const AnswerCheck& check) {
  return CheckOutput(check, "canonical", CanonicalizeAnswer);
}

FormatModule Build() {
  FormatModule m;
  m.name = "model-io";
  m.title = "Model IO 1.0.0";
  m.spec = "model-io.md";
  m.spec_version = "1.0.0";
  m.rule_prefix = "MIO-";
  m.native_rule_prefixes = {"MI"};
  m.extensions = {"model_io.json"};
  m.sniff = LooksLikeModelIo;
  m.limits = LimitSpecs(ModelIoLimits());
  m.policies = {
      {"violation_order",
       {"code-unit", "numeric"},
       "code-unit",
       "model-io.md MI10: violations are sorted by (rule_id ASC, path ASC, message ASC)"},
  };
  m.resource_probes = ResourceProbes();
  m.operations = {
      {"validate",
       "judges whether model_io.json holds every invariant; the violations (findings: rule id, "
       "pointer, message) come sorted as MI10 asks",
       {"file"},
       "valid",
       "invalid",
       ValidateAnswer,
       CheckValidate},
      {"hash",
       "computes the ModelIOHash (output hash: \"sha256:\" and 64 lowercase hex digits), or "
       "refuses a file that has none",
       {"file"},
       "hashed",
       "refused",
       HashAnswer,
       CheckHash},
      {"canonicalize",
       "writes ModelIOCore canonicalized by RFC 8785 (output canonical: the exact bytes), or "
       "refuses a file that has none",
       {"file"},
       "canonicalized",
       "refused",
       CanonicalizeAnswer,
       CheckCanonicalize},
  };
  m.rules = AllRules;
  m.validate = ValidateFile;
  m.verbs = Verbs();
  m.catalogue_text = CatalogueText;
  return m;
}

}  // namespace

const FormatModule& Module() {
  static const FormatModule module = Build();
  return module;
}

Limits ToModelIoLimits(const LimitValues& values) {
  return ToReferenceLimits(ModelIoLimits(), values);
}

}  // namespace arcs::conformance::model_io
