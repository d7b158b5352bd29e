// Which verdict disagreements of `arcs fuzz` the spec may leave open. A mutant is no vector: no
// passage of the spec is known to settle it. What is known is why the reference judges it as it
// does: each error of its validator either rests on the text or names the errata reading that
// alone makes it one (Finding::reading), or is the reference's own resource limit, which no
// implementation is held to. A disagreement is open only when such a reading or limit explains it
// for this very mutant: the reference rejects only by readings and limits (an operation other than
// validate: by some reading, since a loader refuses less than its validator finds); or the
// reference accepts where it takes a reading that another reading rejects by (its validator names
// one), or the implementation rejects only by rules the vectors show rejecting under a reading the
// reference does not take. A policy the implementation declares otherwise than the reference (or
// not at all) explains the verdicts of the operations whose vectors it decides; an errata entry
// that leaves open whether an operation refuses an invalid input (FormatModule::refusal_readings)
// explains a refusal of an input the reference's validator finds invalid.
#ifndef ARCS_RUNNER_FUZZ_OPEN_VERDICTS_H_
#define ARCS_RUNNER_FUZZ_OPEN_VERDICTS_H_

#include <map>
#include <set>
#include <string>

#include "conformance/format.h"
#include "conformance/vectors.h"
#include "protocol/protocol.h"

namespace arcs::fuzz {

// The rules an answer reports as errors (a finding without a severity counts as one).
std::set<std::string> ErrorRules(const protocol::Answer& answer);

// One verdict disagreement over one mutant.
struct Disagreement {
  const std::string& operation;
  bool reference_rejected = false;
  // The implementation's answer, and the reference's validator on the same inputs (its findings
  // with their readings): for a validate mutant, the reference's answer itself.
  const protocol::Answer& implementation;
  const protocol::Answer& reference_validation;
  // The mutant's case gives limits in its args: the implementation is told them, so an error over
  // one is no longer only the reference's own choice.
  bool case_sets_limits = false;
};

class OpenVerdicts {
 public:
  OpenVerdicts() = default;
  // `declared`: the policies the implementation declares for the manifest's format.
  OpenVerdicts(const conformance::FormatModule& format, const conformance::Manifest& manifest,
               const std::map<std::string, std::string>& declared);

  // Why the disagreement may be one the spec leaves open, "" when it is a finding.
  std::string Reason(const Disagreement& d) const;

 private:
  std::string ReferenceRejects(const Disagreement& d) const;
  std::string ImplementationRejects(const Disagreement& d) const;

  std::string RefusalOpen(const Disagreement& d) const;

  std::set<std::string> limit_rules_;  // the rules the reference's own limits cite
  std::vector<conformance::RefusalReading> refusal_readings_;
  // The requirements cited by the validate cases that some reading rejects and the reference's
  // reading accepts: the rules by which another reading rejects what the reference accepts.
  std::set<std::string> stricter_readings_cite_;
  // The operations some of whose cases a policy decides that the implementation declares otherwise
  // than the reference, or not at all.
  std::set<std::string> other_policies_decide_;
};

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_OPEN_VERDICTS_H_
