#include "runner/fuzz/open_verdicts.h"

#include <algorithm>

#include "reference/core/strings.h"

namespace arcs::fuzz {
namespace {

bool TakenOtherwise(const conformance::PolicySpec& policy,
                    const std::map<std::string, std::string>& declared) {
  const auto choice = declared.find(std::string(policy.name));
  return choice == declared.end() || choice->second != policy.reference_choice;
}

// Whether the spec leaves this case's outcome open to the implementation at hand.
bool Open(const conformance::Expectation& e,
          const std::set<std::string>& policies_taken_otherwise) {
  switch (e.ground) {
    case conformance::Ground::kAcceptable:
      return true;
    case conformance::Ground::kPolicy:
      return policies_taken_otherwise.contains(e.policy);
    default:
      return false;
  }
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
  std::set<std::string> otherwise;
  for (const conformance::PolicySpec& policy : format.policies) {
    if (TakenOtherwise(policy, declared)) otherwise.emplace(policy.name);
  }
  other_policies_ = !otherwise.empty();
  for (const conformance::VectorCase& c : manifest.cases) {
    for (const conformance::OperationCase& op : c.operations) {
      if (!Open(op.expect, otherwise)) continue;
      reported_.insert(op.rules.errors.begin(), op.rules.errors.end());
      cited_.insert(op.rules.errors.begin(), op.rules.errors.end());
      if (op.rules.given) cited_.insert(op.requirements.begin(), op.requirements.end());
    }
  }
}

std::string OpenVerdicts::Reason(const protocol::Answer& rejecting, bool reference_rejected,
                                 bool origin_open) const {
  const std::set<std::string> rules = ErrorRules(rejecting);
  if (rules.empty()) {
    if (origin_open) return "the rejecting side names no rule, and the mutant's origin is open";
    if (other_policies_) {
      return "the rejecting side names no rule, and the implementation takes a policy otherwise "
             "than the reference";
    }
    return "";
  }
  const std::set<std::string>& open = reference_rejected ? reported_ : cited_;
  if (!std::includes(open.begin(), open.end(), rules.begin(), rules.end())) return "";
  const std::vector<std::string> names(rules.begin(), rules.end());
  return std::string(reference_rejected ? "the reference" : "the implementation") +
         " rejects only by rules the spec leaves open in some case: " +
         Excerpt(Join(names, " "), 500);
}

}  // namespace arcs::fuzz
