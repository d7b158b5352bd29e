// What the renderers (render.h) share beyond escaping: the order of count columns and levels, and
// how a certification reads. One definition each, so Markdown, HTML, JUnit and the badges never
// disagree about a report.
#ifndef ARCS_RUNNER_REPORT_RENDER_COMMON_H_
#define ARCS_RUNNER_REPORT_RENDER_COMMON_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/report/report.h"

namespace arcs::report::internal {

// ("passed", n), ("failed", n), ("errored", n), ("skipped", n), ("known failures", n),
// ("total", n): the columns of every count table.
std::vector<std::pair<std::string_view, std::uint64_t>> CountColumns(const Counts& counts);

// The levels present, strongest first (MUST, SHOULD, MAY), then any other name in order.
std::vector<std::string> OrderedLevels(const std::map<std::string, Counts>& by_level);

// The share of the format's MUST cases (over all its operations) that passed, in whole percent
// rounded down; 0 when it has none.
int MustPassedPercent(const FormatSummary& format);

// "full", "partial NN%" (NN from MustPassedPercent) or "none"; any other certification as is.
std::string CertificationText(const FormatSummary& format);

// What the level means for this format, in one sentence with its figures, for wherever the level
// is shown: "P of N MUST cases passed; full needs every MUST case of every operation, in a run of
// the whole suite".
std::string CertificationMeaning(const FormatSummary& format);

// The "expected ... / actual ..." explanation of a case, for tooltips and failure messages.
std::string ExpectedActual(const CaseResult& c);

// Outcome name with the error kind or the mismatch when there is one: "errored (crash)",
// "failed (accepted)".
std::string OutcomeText(const CaseResult& c);

// The mismatches a failed answer can have (CaseResult::mismatch): each name, a few words for a
// filter, and what it means, for a legend.
struct Mismatch {
  std::string_view name;
  std::string_view brief;
  std::string_view meaning;
};
inline constexpr std::array<Mismatch, 4> kMismatches = {{
    {"accepted", "accepted, should reject", "accepted what the vector rejects: it should reject"},
    {"rejected", "rejected, should accept", "rejected what the vector accepts: it should accept"},
    {"output", "wrong output", "the right verdict, but not the output the operation asks for"},
    {"declaration", "policy declaration",
     "a policy case whose policy was not declared, or declared with a choice the case does not "
     "allow"},
}};

// The ground of a case in words, with what goes with it: "required", "policy invalid_line=skip",
// "acceptable SP-E14, fits rfc3339" (or "fits no reading" when answered; the flag alone when
// not), "resource, peak memory 12.0 MiB" (the ground alone when not measured).
std::string GroundText(const CaseResult& c);

// ExpectedActual, then the ground (GroundText) and, when judged, how the answer compares with
// the ARCS strict profile: the tooltip of a case.
std::string CaseDetail(const CaseResult& c);

// A byte count for people: "512 B", "12.0 MiB", "1.5 GiB".
std::string ByteSize(std::uint64_t bytes);

// The readings a flag's answered cases fit, with how many cases each: "iso8601 (1), rfc3339 (2)";
// "" when none.
std::string ReadingsTaken(const FlagSummary& flag);

// Why a flag is not read consistently: "takes different readings", or "fits no reading" when no
// answer fits any.
std::string_view Inconsistency(const FlagSummary& flag);

// "yes", or "no: " and the Inconsistency.
std::string ConsistencyText(const FlagSummary& flag);

// "ARCS strict profile (the reference's own choices; not part of conformance): P of N match",
// N the cases judged.
std::string StrictLine(const StrictCounts& strict);

// One sentence about the run: "arcs 0.3.0, started ..., 1.2 s, 2 job(s), timeout 10.0 s per
// case, filters: ..., known failures: FILE." Each string from the report goes through `escape`
// (the renderer's own), the rest is fixed text.
std::string RunDescription(const RunInfo& run, std::string (*escape)(std::string_view));

// How the level of a format is decided (runner/run.cc, Summarize), in one paragraph for wherever
// the levels are shown; CertificationMeaning gives a format's own figures.
inline constexpr std::string_view kCertificationRule =
    "A format's level counts its MUST cases (a case is MUST when the strongest requirement its "
    "operation cites is a MUST): full when there was at least one, every one passed, and the run "
    "left no case out (no --filter, --operation, --level, --no-resource-probes or --trace); "
    "partial NN% when at least one passed but not all, or all did in a run that left cases out, "
    "NN being the MUST cases passed over the MUST cases run, rounded down; none when none passed. "
    "A skipped case, an errored one and a known failure do not pass; SHOULD and MAY cases and the "
    "ARCS strict profile never change the level.";

// The warnings both human-readable renderings show, in plain text.
inline constexpr std::string_view kIncompleteNote =
    "the run was interrupted, or the runner itself failed; cases not run are reported as errored "
    "(interrupted, or runner).";
inline constexpr std::string_view kAbandonedNote =
    "after too many consecutive crashes or timeouts; the cases not run are reported as errored "
    "(abandoned).";

}  // namespace arcs::report::internal

#endif  // ARCS_RUNNER_REPORT_RENDER_COMMON_H_
