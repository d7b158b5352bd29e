// Which verdict disagreements of `arcs fuzz` the spec may leave open. A mutant is no vector: no
// passage of the spec is known to settle it. What is known is the rules each side rejects by, and
// the vectors say which rules the spec leaves open: those its acceptable cases touch, and those of
// the cases of a policy the implementation takes otherwise than the reference. A disagreement the
// rejecting side explains only by such rules may be open; one it explains by any other rule is a
// finding. A side that names no rule leaves only the mutant's origin and the policies to go by.
#ifndef ARCS_RUNNER_FUZZ_OPEN_VERDICTS_H_
#define ARCS_RUNNER_FUZZ_OPEN_VERDICTS_H_

#include <map>
#include <set>
#include <string>

#include "conformance/format.h"
#include "conformance/vectors.h"
#include "runner/protocol/protocol.h"

namespace arcs::fuzz {

// The rules an answer reports as errors (a finding without a severity counts as one).
std::set<std::string> ErrorRules(const protocol::Answer& answer);

class OpenVerdicts {
 public:
  OpenVerdicts() = default;
  // `declared`: the policies the implementation declares for the manifest's format.
  OpenVerdicts(const conformance::FormatModule& format, const conformance::Manifest& manifest,
               const std::map<std::string, std::string>& declared);

  // Why a disagreement may be one the spec leaves open, "" when it is a finding. `rejecting` is
  // the answer that gave the invalid verdict: the reference's when `reference_rejected`.
  std::string Reason(const protocol::Answer& rejecting, bool reference_rejected,
                     bool origin_open) const;

 private:
  // The reference is judged by the rules it reports on open cases; an implementation, which may
  // name any rule of the catalogue, also by the requirements those of them cite whose rule sets
  // the suite pins down (validate cases): other operations' cases cite more loosely (every Spool
  // roundtrip case cites the line-ending rule), and would open nearly everything.
  std::set<std::string> reported_;
  std::set<std::string> cited_;
  bool other_policies_ = false;  // a policy declared otherwise than the reference, or not at all
};

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_OPEN_VERDICTS_H_
