#include "runner/judge.h"

#include <algorithm>
#include <set>

#include "conformance/registry.h"
#include "reference/core/strings.h"
#include "reference/core/version.h"

namespace arcs::runner {
namespace {

using conformance::Expectation;
using conformance::Ground;
using report::Outcome;

std::string Listed(const std::map<std::string, std::string>& outcomes) {
  std::vector<std::string> parts;
  for (const auto& [name, outcome] : outcomes) parts.push_back(name + " -> " + outcome);
  return Join(parts, "; ");
}

// What the reference answers: the outcome of its strict profile.
std::string ArcsOutcome(const SuiteCase& c) {
  const Expectation& e = c.expectation->expect;
  switch (e.ground) {
    case Ground::kRequired:
      return e.outcome;
    case Ground::kPolicy: {
      const conformance::PolicySpec* policy = c.format->FindPolicy(e.policy);
      auto it = e.outcomes.find(std::string(policy->reference_choice));
      return it == e.outcomes.end() ? "" : it->second;
    }
    case Ground::kAcceptable:
      return e.outcomes.at(e.arcs_reading);
    case Ground::kResource:
      return "";
  }
  return "";
}

// Whether the reported rule ids equal the vector's sets (informative).
std::string RuleAgreement(const SuiteCase& c, const protocol::Answer& answer) {
  const conformance::RuleSets& rules = c.expectation->rules;
  if (!rules.given || !answer.findings_given) return "";
  std::set<std::string> reported;
  for (const protocol::ReportedFinding& f : answer.findings) {
    // A note that marks where the reference takes an errata reading is no rule it reports.
    if (f.severity != "note" || f.reading.empty()) reported.insert(f.rule);
  }
  std::set<std::string> expected(rules.errors.begin(), rules.errors.end());
  expected.insert(rules.warnings.begin(), rules.warnings.end());
  return reported == expected ? "agree" : "differ";
}

// An invalid validate verdict that names rules of the format (its catalogue's or the spec's own
// ids) must name at least one the file really breaks, under some reading (conformance::
// BrokenRules, and for an acceptable case the requirements it cites): not necessarily the rule
// the reference names. Ids of an implementation's own are informative. "" when it holds.
std::string NamedRulesProblem(const SuiteCase& c, const protocol::Answer& answer) {
  if (c.operation != conformance::kValidateOperation ||
      answer.verdict != protocol::Verdict::kInvalid)
    return "";
  std::set<std::string> named;
  for (const protocol::ReportedFinding& f : answer.findings) {
    if (f.severity != "error" && !f.severity.empty()) continue;
    if (c.format->IsNativeRuleId(f.rule) || c.format->BuiltInCatalogue().Find(f.rule)) {
      named.insert(f.rule);
    }
  }
  if (named.empty()) return "";
  // What the vector says the file breaks first: running the reference again is the slow part.
  const conformance::OperationCase& op = *c.expectation;
  std::set<std::string> broken(op.rules.errors.begin(), op.rules.errors.end());
  broken.insert(op.rules.warnings.begin(), op.rules.warnings.end());
  if (op.expect.ground == Ground::kAcceptable) {
    broken.insert(op.requirements.begin(), op.requirements.end());
  }
  const auto names_one = [&] {
    return std::any_of(named.begin(), named.end(),
                       [&](const std::string& rule) { return broken.contains(rule); });
  };
  if (names_one()) return "";
  broken.merge(conformance::BrokenRules(*c.format, c.Input()));
  if (names_one()) return "";
  std::vector<std::string> shown;
  for (const std::string& rule : named) shown.push_back(Excerpt(rule, 40));
  return "the findings name only rules the file does not break (" +
         Excerpt(Join(shown, ", "), 400) + "): an invalid verdict names a rule it breaks, or none";
}

std::string ReportedRules(const protocol::Answer& answer) {
  std::set<std::string> reported;
  for (const protocol::ReportedFinding& f : answer.findings) reported.insert(f.rule);
  if (reported.empty()) return "";
  return " (rules: " + Join(std::vector<std::string>(reported.begin(), reported.end())) + ")";
}

// The readings of an acceptable case the implementation may take: all of them, or, where they are
// split by a policy ("<reading>-<choice>"), those of its declared choice, named without the
// choice. Fails *j when the policy is undeclared or its choice has no reading here.
std::map<std::string, std::string> DeclaredReadings(const SuiteCase& c,
                                                    const protocol::FormatSupport& declared,
                                                    report::CaseResult* j) {
  const Expectation& e = c.expectation->expect;
  if (e.policy.empty()) return e.outcomes;
  auto choice = declared.policies.find(e.policy);
  j->policy = DeclaredPolicy(c, declared);
  std::map<std::string, std::string> readings;
  const conformance::PolicySpec* policy = c.format->FindPolicy(e.policy);
  for (const auto& [reading, outcome] : e.outcomes) {
    const std::string_view chosen = policy ? conformance::ReadingChoice(reading, *policy) : "";
    if (!chosen.empty() && choice != declared.policies.end() && chosen == choice->second) {
      readings[reading.substr(0, reading.size() - chosen.size() - 1)] = outcome;
    }
  }
  if (readings.empty()) {
    j->outcome = Outcome::kFailed;
    j->mismatch = "declaration";
    j->expected = "a reading of " + e.flag + " under the declared " + e.policy + " policy (" +
                  Listed(e.outcomes) + ")";
    j->message = choice == declared.policies.end()
                     ? "the implementation declares no choice for policy " + e.policy +
                           ": declare it in the hello"
                     : "the declared choice " + choice->second + " is not one this case allows";
  }
  return readings;
}

// Sets j->expected and returns the outcomes the answer may have; empty with j failed when the
// declared policy does not decide the case.
std::set<std::string> Allowed(const SuiteCase& c, const protocol::FormatSupport& declared,
                              report::CaseResult* j) {
  const Expectation& e = c.expectation->expect;
  switch (e.ground) {
    case Ground::kRequired:
      j->expected = e.outcome;
      return {e.outcome};
    case Ground::kPolicy: {
      j->policy = DeclaredPolicy(c, declared);
      auto choice = declared.policies.find(e.policy);
      if (choice == declared.policies.end()) {
        j->outcome = Outcome::kFailed;
        j->expected =
            "the outcome for the declared " + e.policy + " policy (" + Listed(e.outcomes) + ")";
        j->mismatch = "declaration";
        j->message = "the implementation declares no choice for policy " + e.policy +
                     ": declare it in the hello";
        return {};
      }
      auto outcome = e.outcomes.find(choice->second);
      if (outcome == e.outcomes.end()) {
        j->outcome = Outcome::kFailed;
        j->mismatch = "declaration";
        j->expected = "a declared " + e.policy + " choice of: " + Listed(e.outcomes);
        j->message = "the declared choice " + choice->second + " is not one this case allows";
        return {};
      }
      j->expected = outcome->second + " (" + j->policy + ")";
      return {outcome->second};
    }
    case Ground::kAcceptable: {
      const std::map<std::string, std::string> readings = DeclaredReadings(c, declared, j);
      std::set<std::string> allowed;
      for (const auto& [reading, outcome] : readings) allowed.insert(outcome);
      if (!readings.empty()) j->expected = "any reading of " + e.flag + ": " + Listed(readings);
      return allowed;
    }
    case Ground::kResource:
      break;
  }
  return {};
}

report::CaseResult JudgeVerdict(const SuiteCase& c, const protocol::Answer& answer,
                                const protocol::FormatSupport& declared,
                                const conformance::LazyReferenceAnswer* reference) {
  const conformance::OperationSpec& op = *c.format->FindOperation(c.operation);
  const Expectation& e = c.expectation->expect;
  if (e.ground == Ground::kResource) {  // any verdict, in time: it answered
    report::CaseResult j;
    j.ground = report::Ground::kResource;
    return j;
  }
  const std::string got(answer.verdict == protocol::Verdict::kValid ? op.valid_outcome
                                                                    : op.invalid_outcome);
  report::CaseResult j;
  j.ground = e.ground;
  j.flag = e.flag;
  j.rules = RuleAgreement(c, answer);
  if (e.ground == Ground::kAcceptable) {
    report::CaseResult scratch;
    for (const auto& [reading, outcome] : DeclaredReadings(c, declared, &scratch)) {
      if (outcome == got) j.readings.push_back(reading);
    }
  }
  const conformance::CaseInput input = c.Input();
  // The rest of the answer (a written file) is held to the operation's rules whatever the
  // outcome's ground: an acceptable reading never excuses lost data.
  std::string problem;
  std::string advisory;
  conformance::PropertyReadings property;
  if (op.check_answer) {
    problem = op.check_answer({input, answer, declared.policies, e.ground == Ground::kAcceptable,
                               c.expectation->same_hash_as, c.expectation->expected_properties,
                               &advisory, &property, reference});
  }
  if (problem.empty()) problem = NamedRulesProblem(c, answer);
  const bool arcs_property =
      property.flag.empty() || std::find(property.readings.begin(), property.readings.end(),
                                         property.arcs) != property.readings.end();
  // The readings an answer fits are those its outcome fits and, where the flag also splits what
  // the operation checks beyond the outcome (an MCP replay's answers), its output fits too.
  if (!property.flag.empty() && e.ground != Ground::kAcceptable) {
    j.flag = property.flag;
    j.readings = property.readings;
    std::sort(j.readings.begin(), j.readings.end());
  } else if (!property.flag.empty() && property.flag == e.flag) {
    std::erase_if(j.readings, [&](const std::string& r) {
      return std::find(property.readings.begin(), property.readings.end(), r) ==
             property.readings.end();
    });
  }
  j.strict = got == ArcsOutcome(c) && problem.empty() && advisory.empty() && arcs_property
                 ? report::Strict::kPassed
                 : report::Strict::kFailed;
  if (!advisory.empty()) j.message = "SHOULD: " + advisory;
  std::set<std::string> allowed = Allowed(c, declared, &j);
  if (j.outcome == Outcome::kFailed) {
    j.actual = got;
    return j;
  }
  if (!allowed.contains(got)) {
    j.outcome = Outcome::kFailed;
    j.mismatch = answer.verdict == protocol::Verdict::kValid ? "accepted" : "rejected";
    j.actual = got + ReportedRules(answer);
    return j;
  }
  if (!problem.empty()) {
    j.outcome = Outcome::kFailed;
    j.mismatch = "output";
    j.expected += ", and what the operation asks of the answer";
    j.actual = got;
    j.message = problem;
  }
  return j;
}

protocol::Answer Skipped(const protocol::CaseRequest& request, std::string reason) {
  protocol::Answer answer;
  answer.id = request.id;
  answer.status = protocol::AnswerStatus::kSkipped;
  answer.reason = std::move(reason);
  return answer;
}

}  // namespace

protocol::ImplementationHello ReferenceHello() {
  protocol::ImplementationHello hello;
  hello.implementation = {"arcs-reference", std::string(kArcsVersion), "C++", ""};
  for (const conformance::FormatModule* format : conformance::Formats()) {
    protocol::FormatSupport& support = hello.formats[std::string(format->name)];
    for (const conformance::OperationSpec& op : format->operations) {
      support.operations.emplace_back(op.name);
    }
    for (const conformance::PolicySpec& p : format->policies) {
      support.policies[std::string(p.name)] = p.reference_choice;
    }
  }
  return hello;
}

protocol::Answer ReferenceAnswer(const protocol::CaseRequest& request) {
  const conformance::FormatModule* format = conformance::FindFormat(request.format);
  const conformance::OperationSpec* op =
      format ? format->FindOperation(request.operation) : nullptr;
  if (!op) {
    protocol::Answer answer;
    answer.id = request.id;
    answer.status = protocol::AnswerStatus::kSkipped;
    answer.reason = "the reference does not implement " + request.format + " " + request.operation;
    return answer;
  }
  Result<conformance::LimitValues> limits = format->LimitsFromArgs(request.args);
  // PROTOCOL.md §2: an arg the implementation cannot honour makes it skip the case.
  if (!limits.ok()) return Skipped(request, "args: " + limits.status().message());
  protocol::Answer answer = op->reference({request.inputs.get(), std::move(*limits), request.args});
  answer.id = request.id;
  return answer;
}

std::string ReadingGroundProblem(const SuiteCase& c, const protocol::Answer& reference,
                                 const protocol::FormatSupport& declared) {
  if (c.operation != conformance::kValidateOperation ||
      reference.status != protocol::AnswerStatus::kOk)
    return "";
  const Expectation& e = c.expectation->expect;
  std::set<std::string> untagged;
  std::set<std::string> foreign;  // tagged with another flag than the case's
  for (const protocol::ReportedFinding& f : reference.findings) {
    if (f.severity != "error") continue;
    if (f.reading.empty()) {
      untagged.insert(f.rule);
    } else if (f.reading != e.flag) {
      foreign.insert(f.rule + " (" + f.reading + ")");
    }
  }
  const bool has_errors = reference.verdict == protocol::Verdict::kInvalid;
  if (e.ground == Ground::kRequired && e.outcome == "invalid" && has_errors && untagged.empty()) {
    return "the text settles invalid, yet every error rests on an errata reading";
  }
  if (e.ground != Ground::kAcceptable) return "";
  // Readings split by a policy count under the reference's declared choice only: a SessionData
  // schema error is no reading's when only the rules half of a set says valid.
  report::CaseResult scratch;
  const std::map<std::string, std::string> readings = DeclaredReadings(c, declared, &scratch);
  const bool some_reading_valid = std::any_of(readings.begin(), readings.end(),
                                              [](const auto& r) { return r.second == "valid"; });
  if (!some_reading_valid) return "";
  std::vector<std::string> problems;
  if (!untagged.empty()) {
    problems.push_back("errors that name no reading of " + e.flag + ": " +
                       Join(std::vector<std::string>(untagged.begin(), untagged.end())));
  }
  if (!foreign.empty()) {
    problems.push_back("errors that name another flag than " + e.flag + ": " +
                       Join(std::vector<std::string>(foreign.begin(), foreign.end())));
  }
  return Join(problems, "; ");
}

std::string DeclaredPolicy(const SuiteCase& c, const protocol::FormatSupport& declared) {
  const std::string& policy = c.expectation->expect.policy;
  if (policy.empty()) return "";
  const auto choice = declared.policies.find(policy);
  return choice == declared.policies.end() ? policy : policy + "=" + choice->second;
}

std::string DescribeExpectation(const SuiteCase& c) {
  const Expectation& e = c.expectation->expect;
  switch (e.ground) {
    case Ground::kRequired:
      return e.outcome;
    case Ground::kPolicy:
      return "by policy " + e.policy + ": " + Listed(e.outcomes);
    case Ground::kAcceptable:
      return "any reading of " + e.flag + ": " + Listed(e.outcomes);
    case Ground::kResource:
      return "any verdict, within the timeout and without a crash";
  }
  return "";
}

report::CaseResult Judge(const SuiteCase& c, const protocol::Answer& answer,
                         const protocol::FormatSupport& declared,
                         const conformance::LazyReferenceAnswer* reference) {
  report::CaseResult j;
  switch (answer.status) {
    case protocol::AnswerStatus::kSkipped:
      j.outcome = Outcome::kSkipped;
      j.message = answer.reason;
      break;
    case protocol::AnswerStatus::kErrored:
      j.outcome = Outcome::kErrored;
      j.error_kind = "implementation";
      j.actual = "errored";
      j.message = answer.reason;
      break;
    case protocol::AnswerStatus::kOk:
      return JudgeVerdict(c, answer, declared, reference);
  }
  j.ground = c.expectation->expect.ground;
  j.flag = c.expectation->expect.flag;
  return j;
}

}  // namespace arcs::runner
