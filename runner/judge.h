// Judging one answer of an implementation against the vector it answers (runner/PROTOCOL.md §3).
// The one judging path: `arcs run` judges every implementation with it, and `arcs vectors` holds
// the reference to the same judgements. The expectation comes from the vector manifest, by its
// ground (required, policy, acceptable); what an operation asks beyond the verdict (a round
// trip's output) is the format module's check.
#ifndef ARCS_RUNNER_JUDGE_H_
#define ARCS_RUNNER_JUDGE_H_

#include <string>

#include "protocol/protocol.h"
#include "runner/report/report.h"
#include "runner/suite.h"

namespace arcs::runner {

// The reference's handshake: every format and operation it implements, and its policies.
protocol::ImplementationHello ReferenceHello();

// The reference's answer to one case, as `arcs serve` gives it and `arcs fuzz` compares with.
protocol::Answer ReferenceAnswer(const protocol::CaseRequest& request);

// Judges an answer to `c`: the case result's judgement fields (outcome, error_kind, expected,
// actual, message, rules, mismatch, ground, flag, policy, readings, strict), the rest left to the
// caller. `declared` is what the implementation's hello declared for the case's format (its
// policies decide policy cases). `reference`: the reference's answer to the case, shared with the
// caller (its evidence); null when the caller keeps none.
report::CaseResult Judge(const SuiteCase& c, const protocol::Answer& answer,
                         const protocol::FormatSupport& declared,
                         const conformance::LazyReferenceAnswer* reference = nullptr);

// Whether the reference's answer to a validate case grounds its error findings as the vector
// does (Finding::reading): where the text settles `invalid`, some error must rest on the text
// alone; where a reading of the case's flag makes the file valid, every error must name that
// flag's reading. "" when it does, else what is wrong. Other cases and operations: "".
std::string ReadingGroundProblem(const SuiteCase& c, const protocol::Answer& reference,
                                 const protocol::FormatSupport& declared);

// The policy a case follows as the report names it: "NAME=CHOICE" as `declared`, or "NAME" when
// no choice is declared (or no hello came); "" when the case follows none.
std::string DeclaredPolicy(const SuiteCase& c, const protocol::FormatSupport& declared);

// What the vector expects of the case's operation, in words (for the report).
std::string DescribeExpectation(const SuiteCase& c);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_JUDGE_H_
