// Judging one answer of an implementation against the vector it answers (runner/PROTOCOL.md §3).
// The one judging path: `arcs run` judges every implementation with it, and `arcs vectors` holds
// the reference to the same judgements. The expectation comes from the vector manifest, by its
// ground (required, policy, acceptable); what an operation asks beyond the verdict (a round
// trip's output) is the format module's check.
#ifndef ARCS_RUNNER_JUDGE_H_
#define ARCS_RUNNER_JUDGE_H_

#include <string>
#include <vector>

#include "protocol/protocol.h"
#include "runner/report/report.h"
#include "runner/suite.h"

namespace arcs::runner {

struct Judgement {
  report::Outcome outcome = report::Outcome::kPassed;  // passed, failed, skipped or errored
  std::string error_kind;  // "implementation" when it answered "errored"; "runner" when unjudged
  std::string expected;
  std::string actual;
  std::string message;
  std::string rules;     // validate: "agree" / "differ" / "" (see report::CaseResult::rules)
  std::string mismatch;  // failed: see report::CaseResult::mismatch
  report::Ground ground = report::Ground::kRequired;
  std::string flag;    // acceptable: the errata entry
  std::string policy;  // policy: "NAME=CHOICE" as declared, or "NAME" when undeclared
  std::vector<std::string> readings;                   // acceptable: the readings the answer fits
  report::Strict strict = report::Strict::kNotJudged;  // the ARCS strict profile
};

// Judges an answer to `c`. `declared` is what the implementation's hello declared for the case's
// format (its policies decide policy cases).
Judgement Judge(const SuiteCase& c, const protocol::Answer& answer,
                const protocol::FormatSupport& declared);

// Whether the reference's answer to a validate case grounds its error findings as the vector
// does (Finding::reading): where the text settles `invalid`, some error must rest on the text
// alone; where a reading of the case's flag makes the file valid, every error must name that
// flag's reading. "" when it does, else what is wrong. Other cases and operations: "".
std::string ReadingGroundProblem(const SuiteCase& c, const protocol::Answer& reference,
                                 const protocol::FormatSupport& declared);

// The report's name for a vector's ground.
report::Ground ReportGround(conformance::Ground ground);

// What the vector expects of the case's operation, in words (for the report).
std::string DescribeExpectation(const SuiteCase& c);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_JUDGE_H_
