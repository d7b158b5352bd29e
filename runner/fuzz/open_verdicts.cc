#include "runner/fuzz/open_verdicts.h"

#include <algorithm>
#include <vector>

#include "reference/core/strings.h"

namespace arcs::fuzz {
namespace {

bool TakenOtherwise(const conformance::PolicySpec& policy,
                    const std::map<std::string, std::string>& declared) {
  const auto choice = declared.find(std::string(policy.name));
  return choice == declared.end() || choice->second != policy.reference_choice;
}

// A validate case the reference's reading accepts and another reading rejects.
bool StricterReadingRejects(const conformance::OperationCase& op) {
  const conformance::Expectation& e = op.expect;
  if (op.operation != "validate" || e.ground != conformance::Ground::kAcceptable) return false;
  const auto arcs = e.outcomes.find(e.arcs_reading);
  return arcs != e.outcomes.end() && arcs->second == "valid" &&
         std::any_of(e.outcomes.begin(), e.outcomes.end(),
                     [](const auto& r) { return r.second == "invalid"; });
}

std::string Listed(const std::set<std::string>& items) {
  return Excerpt(Join(std::vector<std::string>(items.begin(), items.end()), " "), 400);
}

}  // namespace

std::set<std::string> ErrorRules(const protocol::Answer& answer) {
  std::set<std::string> rules;
  for (const protocol::ReportedFinding& f : answer.findings) {
    if (f.severity == "error" || f.severity.empty()) rules.insert(f.rule);
  }
  return rules;
}

OpenVerdicts::OpenVerdicts(const conformance::FormatModule& format,
                           const conformance::Manifest& manifest,
                           const std::map<std::string, std::string>& declared) {
  for (const conformance::LimitSpec& limit : format.limits) limit_rules_.emplace(limit.rule_id);
  refusal_readings_ = format.refusal_readings;
  std::set<std::string> otherwise;
  for (const conformance::PolicySpec& policy : format.policies) {
    if (TakenOtherwise(policy, declared)) otherwise.emplace(policy.name);
  }
  for (const conformance::VectorCase& c : manifest.cases) {
    for (const conformance::OperationCase& op : c.operations) {
      if (otherwise.contains(op.expect.policy)) other_policies_decide_.insert(op.operation);
      if (StricterReadingRejects(op)) {
        stricter_readings_cite_.insert(op.requirements.begin(), op.requirements.end());
      }
    }
  }
}

std::string OpenVerdicts::Reason(const Disagreement& d) const {
  if (other_policies_decide_.contains(d.operation)) {
    return "the implementation takes a policy otherwise than the reference";
  }
  if (std::string why = RefusalOpen(d); !why.empty()) return why;
  return d.reference_rejected ? ReferenceRejects(d) : ImplementationRejects(d);
}

std::string OpenVerdicts::RefusalOpen(const Disagreement& d) const {
  if (d.reference_validation.verdict != protocol::Verdict::kInvalid) return "";
  for (const conformance::RefusalReading& r : refusal_readings_) {
    if (r.operation != d.operation) continue;
    if (d.reference_rejected ? r.reference_may_refuse : r.implementation_may_refuse) {
      return "the input is invalid, and whether " + d.operation +
             " refuses an invalid input is open (" + std::string(r.flag) + ")";
    }
  }
  return "";
}

std::string OpenVerdicts::ReferenceRejects(const Disagreement& d) const {
  std::set<std::string> readings;
  std::set<std::string> limits;
  bool settled = false;
  for (const protocol::ReportedFinding& f : d.reference_validation.findings) {
    if (f.severity != "error") continue;
    if (!f.reading.empty()) {
      readings.insert(f.reading);
    } else if (!d.case_sets_limits && limit_rules_.contains(f.rule)) {
      limits.insert(f.rule);
    } else {
      settled = true;
    }
  }
  // An error the text settles decides a validate verdict. Another operation's refusal is not its
  // validator's: a loader refuses less than a validator finds (an MCP replayer loads a recording
  // whose footer miscounts), so there a reading at stake on the mutant may be what it refuses by.
  if (settled && (d.operation == "validate" || readings.empty())) return "";
  if (readings.empty() && limits.empty()) return "";  // nothing the validator says explains it
  std::string why = "every error of the reference's rests on";
  if (!readings.empty()) why += " an errata reading (" + Listed(readings) + ")";
  if (!readings.empty() && !limits.empty()) why += " or";
  if (!limits.empty()) why += " its own configurable limits (" + Listed(limits) + ")";
  return why;
}

std::string OpenVerdicts::ImplementationRejects(const Disagreement& d) const {
  std::set<std::string> readings;
  for (const protocol::ReportedFinding& f : d.reference_validation.findings) {
    if (!f.reading.empty()) readings.insert(f.reading);
  }
  if (!readings.empty()) {
    return "the reference takes an errata reading here (" + Listed(readings) +
           "); another reading may reject";
  }
  const std::set<std::string> named = ErrorRules(d.implementation);
  if (!named.empty() && std::includes(stricter_readings_cite_.begin(),
                                      stricter_readings_cite_.end(), named.begin(), named.end())) {
    return "the implementation rejects only by rules a stricter reading of the errata rejects "
           "by: " +
           Listed(named);
  }
  return "";
}

}  // namespace arcs::fuzz
