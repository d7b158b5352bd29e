// Judging one answer of an implementation against the vector it answers, per operation
// (runner/PROTOCOL.md §3). The expectations come from the vector manifest; the reference is
// consulted only to read the input the way a conforming reader must, so that a round trip's
// output can be compared with the entries it has to hold.
#ifndef ARCS_RUNNER_JUDGE_H_
#define ARCS_RUNNER_JUDGE_H_

#include <string>

#include "reference/core/json.h"
#include "runner/protocol/protocol.h"
#include "runner/report/report.h"
#include "runner/suite.h"

namespace arcs::runner {

struct Judgement {
  report::Outcome outcome = report::Outcome::kPassed;  // passed, failed, skipped or errored
  std::string error_kind;  // "implementation" when the implementation answered "errored"
  std::string expected;
  std::string actual;
  std::string message;
  std::string rules;  // validate: "agree" / "differ" / "" (see report::CaseResult::rules)
};

// Judges an answer with the id of `c`. `declared` is what the implementation's hello declared
// for the case's format (its policies decide implementation-defined cases).
Judgement Judge(const SuiteCase& c, const protocol::Answer& answer,
                const protocol::FormatSupport& declared);

// What the vector expects of the case's operation, in words (for the report).
std::string DescribeExpectation(const SuiteCase& c);

// Whether two JSON values are the same data (PROTOCOL.md §3 roundtrip): same kinds, strings equal
// after unescaping, numbers equal by exact decimal value, arrays element by element, objects with
// the same members (names and values) regardless of order; repeated names must all be there.
bool SameData(const json::Value& a, const json::Value& b);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_JUDGE_H_
