#include "runner/judge.h"

#include <algorithm>
#include <set>

#include "conformance/spool/checker.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/spool/spool.h"

namespace arcs::runner {
namespace {

using report::Outcome;

Judgement Fail(std::string expected, std::string actual, std::string message = "") {
  Judgement j;
  j.outcome = Outcome::kFailed;
  j.expected = std::move(expected);
  j.actual = std::move(actual);
  j.message = std::move(message);
  return j;
}

std::string_view VerdictWord(protocol::Verdict v) { return protocol::VerdictName(v); }

// ---- spool validate -------------------------------------------------------------------------

std::string DescribeFileVerdict(const conformance::VectorCase& v) {
  std::string out = v.expect_valid ? "valid" : "invalid";
  if (!v.expected_errors.empty()) out += " (errors: " + Join(v.expected_errors) + ")";
  if (!v.expected_warnings.empty()) out += " (warnings: " + Join(v.expected_warnings) + ")";
  return out;
}

Judgement JudgeSpoolValidate(const SuiteCase& c, const protocol::Answer& answer,
                             const protocol::FormatSupport&) {
  const conformance::VectorCase& v = *c.vector;
  Judgement j;
  std::string actual(VerdictWord(answer.verdict));
  if (answer.findings_given) {
    std::set<std::string> reported;
    for (const protocol::ReportedFinding& f : answer.findings) reported.insert(f.rule);
    std::set<std::string> expected(v.expected_errors.begin(), v.expected_errors.end());
    expected.insert(v.expected_warnings.begin(), v.expected_warnings.end());
    j.rules = reported == expected ? "agree" : "differ";
    if (!reported.empty()) {
      actual +=
          " (rules: " + Join(std::vector<std::string>(reported.begin(), reported.end())) + ")";
    }
  }
  bool expect_valid = v.expect_valid;
  if ((answer.verdict == protocol::Verdict::kValid) != expect_valid) {
    Judgement failed = Fail(DescribeFileVerdict(v), actual);
    failed.rules = j.rules;
    return failed;
  }
  return j;
}

// ---- spool roundtrip ------------------------------------------------------------------------

arcs::spool::Limits CaseLimits(const conformance::VectorCase& v) {
  arcs::spool::Limits limits;
  for (const auto& [name, value] : v.limits) {
    // Names were checked when the reference ran its vectors (spool_vectors test).
    (void)arcs::spool::SetLimit(name, value, &limits);
  }
  return limits;
}

std::string PolicyChoices(const std::map<std::string, std::string>& outcomes) {
  std::vector<std::string> choices;
  for (const auto& [choice, outcome] : outcomes) choices.push_back(choice);
  return Join(choices, " or ");
}

// Checks that `output` is a conforming write (spool.md §3) of the entries of `input`; with
// skip_invalid_entries, entries on lines the validator finds an error on may be missing.
// Returns "" when it is, else the first difference.
std::string CompareWrite(const std::string& input, const std::string& output,
                         const arcs::spool::Limits& limits, bool skip_invalid_entries) {
  arcs::spool::ReadOptions options;
  options.limits = limits;
  options.invalid_line = arcs::spool::InvalidLinePolicy::kSkip;
  jsonl::MemorySource source(input);
  Result<arcs::spool::File> expected = arcs::spool::Read(&source, options);
  if (!expected.ok()) {
    return "the reference cannot read the input to compare (" + expected.status().message() + ")";
  }
  std::set<std::uint64_t> droppable;
  if (skip_invalid_entries) {
    jsonl::MemorySource again(input);
    Diagnostics diagnostics;
    conformance::spool::Validate(&again, limits, &diagnostics);
    for (const Finding& f : diagnostics.findings()) {
      if (f.severity == Severity::kError && f.location.line) droppable.insert(f.location.line);
    }
  }

  if (output.starts_with("\xEF\xBB\xBF")) return "the output starts with a BOM (spool.md §3.4)";
  if (std::size_t cr = output.find('\r'); cr != std::string::npos) {
    return "the output has a CR at byte " + std::to_string(cr) + " (spool.md §3.5: write \\n)";
  }
  if (!output.empty() && output.back() != '\n') {
    return "the output's last line has no \\n (spool.md §3.5)";
  }
  const json::ParseOptions parse = arcs::spool::ParseOptionsFor(limits);
  std::size_t next = 0;  // the next expected entry
  std::uint64_t line = 0;
  json::Document doc;
  for (std::size_t start = 0; start < output.size();) {
    std::size_t end = output.find('\n', start);
    std::string_view text(output.data() + start, end - start);
    start = end + 1;
    ++line;
    if (!doc.Parse(text, parse) || !doc.root().is_object()) {
      return "output line " + std::to_string(line) + " is not a JSON object" +
             (doc.root().is_object() ? "" : " (" + doc.error().message + ")");
    }
    while (next < expected->entries.size() && droppable.contains(expected->entries[next].line) &&
           !SameData(doc.root(), expected->entries[next].value())) {
      ++next;
    }
    if (next == expected->entries.size()) {
      return "output line " + std::to_string(line) +
             " is not an entry of the input (or repeats one)";
    }
    const arcs::spool::Entry& entry = expected->entries[next];
    if (!SameData(doc.root(), entry.value())) {
      return "output line " + std::to_string(line) + " differs from the entry on input line " +
             std::to_string(entry.line);
    }
    ++next;
  }
  while (next < expected->entries.size() && droppable.contains(expected->entries[next].line)) {
    ++next;
  }
  if (next < expected->entries.size()) {
    return "the entry on input line " + std::to_string(expected->entries[next].line) +
           " is missing from the output";
  }
  return "";
}

Judgement JudgeSpoolRoundtrip(const SuiteCase& c, const protocol::Answer& answer,
                              const protocol::FormatSupport& declared) {
  const conformance::VectorCase& v = *c.vector;
  std::string expected_read = v.read_result;
  std::string expected_text = v.read_result;
  if (v.read_result == "implementation-defined") {
    auto choice = declared.policies.find(v.read_policy);
    if (choice == declared.policies.end()) {
      return Fail("the outcome for the declared " + v.read_policy + " policy",
                  std::string(VerdictWord(answer.verdict) == "valid" ? "accept" : "reject"),
                  "the implementation declares no choice for policy " + v.read_policy + " (" +
                      PolicyChoices(v.read_outcomes) + "): declare it in the hello");
    }
    auto outcome = v.read_outcomes.find(choice->second);
    if (outcome == v.read_outcomes.end()) {
      return Fail("a declared " + v.read_policy + " choice of " + PolicyChoices(v.read_outcomes),
                  "declared " + v.read_policy + "=" + choice->second,
                  "the declared choice is not one this case allows");
    }
    expected_read = outcome->second;
    expected_text = expected_read + " (" + v.read_policy + "=" + choice->second + ")";
  }
  std::string got_read = answer.verdict == protocol::Verdict::kValid ? "accept" : "reject";
  if (got_read != expected_read) return Fail(expected_text, got_read);
  Judgement j;
  if (got_read == "reject") return j;
  if (!answer.output) return Fail(expected_text + " and the file written back", "no output");
  auto entry_policy = declared.policies.find("invalid_entry");
  bool skip_entries = entry_policy != declared.policies.end() && entry_policy->second == "skip";
  std::string problem = CompareWrite(c.input, *answer.output, CaseLimits(v), skip_entries);
  if (!problem.empty()) {
    return Fail(expected_text + " and every entry written back unchanged", "accept", problem);
  }
  return j;
}

struct OperationJudge {
  std::string_view format;
  std::string_view operation;
  Judgement (*judge)(const SuiteCase&, const protocol::Answer&, const protocol::FormatSupport&);
};

constexpr OperationJudge kJudges[] = {
    {"spool", "validate", JudgeSpoolValidate},
    {"spool", "roundtrip", JudgeSpoolRoundtrip},
};

// Members in name order, keeping the source order of repeated names.
std::vector<const json::Member*> ByName(const json::Value& object) {
  std::vector<const json::Member*> out;
  for (const json::Member& m : object.members()) out.push_back(&m);
  std::stable_sort(out.begin(), out.end(),
                   [](const json::Member* a, const json::Member* b) { return a->name < b->name; });
  return out;
}

}  // namespace

bool SameData(const json::Value& a, const json::Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case json::Kind::kNull:
    case json::Kind::kFalse:
    case json::Kind::kTrue:
      return true;
    case json::Kind::kNumber:
      return json::SameValue(a.text(), b.text());
    case json::Kind::kString:
      return a.text() == b.text();
    case json::Kind::kArray: {
      auto x = a.items();
      auto y = b.items();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (!SameData(x[i], y[i])) return false;
      }
      return true;
    }
    case json::Kind::kObject: {
      if (a.members().size() != b.members().size()) return false;
      std::vector<const json::Member*> x = ByName(a);
      std::vector<const json::Member*> y = ByName(b);
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i]->name != y[i]->name || !SameData(x[i]->value, y[i]->value)) return false;
      }
      return true;
    }
  }
  return false;
}

std::string DescribeExpectation(const SuiteCase& c) {
  const conformance::VectorCase& v = *c.vector;
  if (c.operation == "validate") return DescribeFileVerdict(v);
  if (v.read_result != "implementation-defined") return v.read_result;
  std::string out = "by policy " + v.read_policy + ":";
  for (const auto& [choice, outcome] : v.read_outcomes)
    out += " " + choice + " -> " + outcome + ";";
  out.pop_back();
  return out;
}

Judgement Judge(const SuiteCase& c, const protocol::Answer& answer,
                const protocol::FormatSupport& declared) {
  Judgement j;
  switch (answer.status) {
    case protocol::AnswerStatus::kSkipped:
      j.outcome = Outcome::kSkipped;
      j.message = answer.reason;
      return j;
    case protocol::AnswerStatus::kErrored:
      j.outcome = Outcome::kErrored;
      j.error_kind = "implementation";
      j.actual = "errored";
      j.message = answer.reason;
      return j;
    case protocol::AnswerStatus::kOk:
      break;
  }
  for (const OperationJudge& op : kJudges) {
    if (op.format == c.format && op.operation == c.operation) return op.judge(c, answer, declared);
  }
  j.outcome = Outcome::kErrored;
  j.error_kind = "runner";
  j.expected = DescribeExpectation(c);
  j.actual = "not judged";
  j.message = "the runner has no judge for " + c.format + " " + c.operation;
  return j;
}

}  // namespace arcs::runner
