#include "conformance/model_io/module.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "conformance/model_io/checker.h"
#include "conformance/model_io/truth.h"
#include "conformance/model_io/verbs.h"
#include "reference/core/canonical.h"
#include "reference/core/json.h"
#include "reference/core/number.h"
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
      {{kMaxJsonDepthLimit, d.max_json_depth, "MIO-JSON-5",
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
  std::map<std::string, std::string> inputs;  // moved in: a braced list would copy 100 MB
  inputs["file"] = std::move(file);
  return inputs;
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

// Whether the reference reports, at the pointer of invariant finding `f`, a finding of another
// rule: the member is missing or of another type (its row). A verifier may report that defect
// alone, as upstream reports a schema error (errata MIO-E12): the invariant that reads the member
// need not be named.
bool BesideAMembersDefect(const protocol::ReportedFinding& f,
                          const std::vector<protocol::ReportedFinding>& reference) {
  return std::any_of(reference.begin(), reference.end(), [&](const protocol::ReportedFinding& g) {
    return g.pointer == f.pointer && !Module().IsNativeRuleId(g.rule);
  });
}

// Whether the reference finds the JSON text itself not one it canonicalizes (a repeated name, a
// lone surrogate, a number no double holds: I-JSON, errata MIO-E18 to MIO-E20) or over a limit. A
// verifier may refuse such a text and stop, as for any text it cannot read: the invariants the
// reference goes on to find need not be named.
bool RefusesTheText(const std::vector<protocol::ReportedFinding>& reference) {
  return std::any_of(reference.begin(), reference.end(), [](const protocol::ReportedFinding& f) {
    return f.rule.starts_with("MIO-JSON-");
  });
}

// The ids, each cut to an excerpt: an implementation's answer names them.
std::string JoinIds(const std::set<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + Excerpt(id, 40);
  return out.empty() ? "none" : out;
}

// Whether the JSON number `token` denotes exactly the integer n (errata MIO-E11's `exact-value`
// reading of MI5: "1.0" and "1e0" do, "1.0000000000000001" does not, though it reads as 1).
bool DenotesExactly(std::string_view token, std::size_t n) {
  if (token.starts_with('-')) token.remove_prefix(1);
  const std::size_t e = std::min(token.find_first_of("eE"), token.size());
  const std::string_view number = token.substr(0, e);
  const std::size_t dot = std::min(number.find('.'), number.size());
  std::string digits(number.substr(0, dot));
  long long exponent = 0;
  if (dot < number.size()) {
    digits += number.substr(dot + 1);
    exponent -= static_cast<long long>(number.size() - dot - 1);
  }
  if (e < token.size()) {
    std::string_view power = token.substr(e + 1);
    const bool negative = power.starts_with('-');
    if (power.starts_with('-') || power.starts_with('+')) power.remove_prefix(1);
    long long value = 0;  // beyond 10^9 the token is no index of a list that fits in memory
    for (char c : power) value = std::min(value * 10 + (c - '0'), 1'000'000'000LL);
    exponent += negative ? -value : value;
  }
  while (!digits.empty() && digits.back() == '0' && exponent < 0) {
    digits.pop_back();
    ++exponent;
  }
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty()) return n == 0;
  if (exponent < 0 || exponent > 20) return false;
  return digits + std::string(static_cast<std::size_t>(exponent), '0') == std::to_string(n);
}

// The invariants the session breaks, each judged on its own (truth.h), and those the reference's
// validator reports; a file that is not JSON breaks only what the validator says. MI5 also where
// only a reading of the errata breaks it: MIO-E6's `literal` (an empty list has no
// interactions[0]) and MIO-E11's `exact-value` (an i whose token is not exactly its position).
std::set<std::string> MoreBrokenRules(const CaseInput& input) {
  json::Document doc;
  const std::string& text = input.Input("file");
  const Limits limits = ToModelIoLimits(input.limits);
  // Nesting is bounded by a reader, not by the format (errata MIO-E27): a verifier whose bound is
  // higher than ARCS's reads the file, and the invariants it breaks are judged at any depth.
  json::ParseOptions options = arcs::model_io::ParseOptionsFor(limits);
  options.max_depth = std::numeric_limits<std::uint32_t>::max();
  if (text.size() > limits.max_file_bytes || !doc.Parse(text, options)) return {};
  std::set<std::string> broken = BrokenInvariants(doc.root());
  const json::Value* interactions =
      doc.root().is_object() ? doc.root().FindLast("interactions") : nullptr;
  if (interactions && interactions->is_array()) {
    const auto items = interactions->items();
    if (items.empty()) broken.insert("MI5");
    for (std::size_t n = 0; n < items.size(); ++n) {
      const json::Value* i = items[n].is_object() ? items[n].FindLast("i") : nullptr;
      if (i && i->is_number() && !DenotesExactly(i->text(), n)) broken.insert("MI5");
    }
  }
  return broken;
}

// MI10: the violations come sorted in the order the implementation declares. Each invariant they
// name must be one the file breaks (under some reading: truth.h), whichever the reference names;
// and, where the text settles the case, they leave out no invariant the reference finds by the
// text alone (not by an errata reading).
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
  if (!check.answer.findings_given) return "";
  std::optional<protocol::Answer> scratch;
  const std::vector<protocol::ReportedFinding>& reference =
      check.ReferenceBy(ValidateAnswer, &scratch).findings;
  std::set<std::string> broken = InvariantIds(reference);
  broken.merge(MoreBrokenRules(check.input));
  const std::set<std::string> reported = InvariantIds(given);
  for (const std::string& id : reported) {
    if (!broken.contains(id)) {
      return "the violations name " + Excerpt(id, 40) +
             ", which the file does not break (it breaks " + JoinIds(broken) + ")";
    }
  }
  if (check.ambiguous || RefusesTheText(reference)) return "";
  std::vector<protocol::ReportedFinding> settled;
  std::copy_if(reference.begin(), reference.end(), std::back_inserter(settled),
               [&](const protocol::ReportedFinding& f) {
                 return f.reading.empty() && !BesideAMembersDefect(f, reference);
               });
  const std::set<std::string> expected = InvariantIds(settled);
  for (const std::string& id : expected) {
    if (reported.contains(id) || MayBeLeftOut(id, reported, expected)) continue;
    return "the violations do not name " + id + " (they name " + JoinIds(reported) +
           "; the file breaks " + JoinIds(expected) + ")";
  }
  return "";
}

// The session parsed with the case's limits; nullptr when it is not one JSON document or repeats
// a name (no canonical form: errata). Borrowed from the case, not copied: a probe's is 100 MB.
const json::Value* ParseSession(const CaseInput& input, json::Document* doc) {
  const Limits limits = ToModelIoLimits(input.limits);
  const std::string& text = input.Input("file");
  if (text.size() > limits.max_file_bytes) return nullptr;
  if (!doc->ParseBorrowing(text, arcs::model_io::ParseOptionsFor(limits)) ||
      !doc->duplicates().empty()) {
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
    answer.outputs[std::string(output)] = std::move(*result);
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

// Exactly the reference's hash where the text settles the case (RFC 8785 leaves one form).
std::string CheckHashOutput(const AnswerCheck& check,
                            protocol::Answer (*reference)(const CaseInput&)) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.ambiguous) return "";
  std::optional<protocol::Answer> scratch;
  const protocol::Answer& expected = check.ReferenceBy(reference, &scratch);
  auto want = expected.outputs.find("hash");
  if (want == expected.outputs.end()) return "";
  auto given = check.answer.outputs.find("hash");
  if (given == check.answer.outputs.end()) return "no output \"hash\"";
  if (given->second != want->second) {
    return "the hash differs from the reference's (" + want->second + ")";
  }
  return "";
}

// What §4.3-§4.4's code hashes for a session whose core members all have their types, invalid or
// not (errata MIO-E4's `as-coded` reading): the four strings and each interaction's core members,
// the interactions sorted by i as `.sort((a, b) => a.i - b.i)` sorts them (stably). No hash (an
// invalid answer) where the code's bytes would depend on more than the text says.
protocol::Answer AsCodedHashAnswer(const CaseInput& input) {
  protocol::Answer answer;
  answer.verdict = protocol::Verdict::kInvalid;
  json::Document doc;
  const json::Value* session = ParseSession(input, &doc);
  const json::Value* interactions = session ? session->FindLast("interactions") : nullptr;
  if (!interactions || !interactions->is_array()) return answer;
  std::vector<std::pair<double, const json::Value*>> sorted;
  for (const json::Value& x : interactions->items()) {
    const json::Value* i = x.is_object() ? x.FindLast("i") : nullptr;
    const std::optional<double> index =
        i && i->is_number() ? json::ToDouble(i->text()) : std::nullopt;
    if (!index) return answer;
    for (std::string_view name : {"prompt_hash", "response_content", "response_hash"}) {
      const json::Value* v = x.FindLast(name);
      if (!v || !v->is_string()) return answer;
    }
    sorted.emplace_back(*index, &x);
  }
  for (std::string_view name : {"adapter_id", "mode", "model_id", "model_io_schema_version"}) {
    const json::Value* v = session->FindLast(name);
    if (!v || !v->is_string()) return answer;
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  // RFC 8785's member order, which for these ASCII names is byte order. Strings and finite
  // numbers always have a canonical form.
  std::string core = "{";
  auto member = [&core](std::string_view name, const json::Value& value) {
    if (core.back() != '{') core += ',';
    json::AppendQuoted(name, &core);
    core += ':';
    (void)canonical::AppendJcs(value, &core);
  };
  member("adapter_id", *session->FindLast("adapter_id"));
  core += ",\"interactions\":[";
  for (const auto& [index, x] : sorted) {
    core += core.back() == '[' ? "{" : ",{";
    for (std::string_view name : {"i", "prompt_hash", "response_content", "response_hash"}) {
      member(name, *x->FindLast(name));
    }
    core += '}';
  }
  core += ']';
  for (std::string_view name : {"mode", "model_id", "model_io_schema_version"}) {
    member(name, *session->FindLast(name));
  }
  core += '}';
  answer.verdict = protocol::Verdict::kValid;
  answer.outputs["hash"] = arcs::model_io::ContentHash(core);
  return answer;
}

// A flagged case that claims the hash of another (MI12's pairs, and an unsorted session whose
// §4.3 core is a valid session's: errata MIO-E28) is still compared: its readings differ only on
// whether to hash it. Where the reference refuses it (an invalid session), the hash an
// implementation gives must be the one §4.3's code computes.
protocol::Answer SameHashAnswer(const CaseInput& input) {
  protocol::Answer answer = HashAnswer(input);
  return answer.outputs.contains("hash") ? answer : AsCodedHashAnswer(input);
}

std::string CheckHash(const AnswerCheck& check) {
  if (check.same_hash_as.empty()) return CheckHashOutput(check, HashAnswer);
  AnswerCheck exact = check;
  exact.ambiguous = false;
  return CheckHashOutput(exact, SameHashAnswer);
}

// A hash of a session the reference refuses, given by an implementation that reads MIO-E4 as
// coded: it must be the one §4.3's code computes.
std::string CheckAsCodedHash(const AnswerCheck& check) {
  const protocol::Answer as_coded = AsCodedHashAnswer(check.input);
  const auto want = as_coded.outputs.find("hash");
  if (want == as_coded.outputs.end()) return "";
  const auto given = check.answer.outputs.find("hash");
  if (given == check.answer.outputs.end()) return "no output \"hash\"";
  if (given->second == want->second) return "";
  return "the hash differs from the one §4.3's code computes for this invalid session (" +
         want->second + ", errata MIO-E4 as-coded)";
}

// As CheckHashOutput, but the reference's canonical form is compared piece by piece as it is
// written, never held: a probe's is 100 MB, and would be held beside the implementation's and the
// input.
std::string CheckCanonicalize(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.ambiguous) return "";
  json::Document doc;
  const json::Value* session = ParseSession(check.input, &doc);
  if (!session) return "";
  const auto given = check.answer.outputs.find("canonical");
  const std::string_view bytes =
      given != check.answer.outputs.end() ? std::string_view(given->second) : std::string_view();
  std::size_t size = 0;
  bool same = true;
  const Status written = arcs::model_io::WriteCanonicalCore(
      *session, ToModelIoLimits(check.input.limits), [&](std::string_view piece) {
        same = same && bytes.substr(std::min(size, bytes.size()), piece.size()) == piece;
        size += piece.size();
      });
  if (!written.ok()) return "";  // the reference computes no canonical form
  if (given == check.answer.outputs.end()) return "no output \"canonical\"";
  if (!same || bytes.size() != size) {
    return "the canonical differs from the reference's (" + std::to_string(size) + " bytes)";
  }
  return "";
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
  // Whether an invalid session has a ModelIOHash the text does not say: the reference refuses
  // one, the §4.3-4.4 code as written hashes it.
  m.refusal_readings = {{"hash", "MIO-E4", true, false, CheckAsCodedHash},
                        {"canonicalize", "MIO-E4", true, false}};
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
  m.validator = ValidateFile;
  m.verbs = Verbs();
  m.more_broken_rules = MoreBrokenRules;
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
