// What the renderers (render.h) share beyond escaping: the order of count columns and levels, and
// how a certification reads. One definition each, so Markdown, HTML, JUnit and the badges never
// disagree about a report.
#ifndef ARCS_RUNNER_REPORT_RENDER_COMMON_H_
#define ARCS_RUNNER_REPORT_RENDER_COMMON_H_

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

// The "expected ... / actual ..." explanation of a case, for tooltips and failure messages.
std::string ExpectedActual(const CaseResult& c);

// Outcome name with the error kind when there is one: "errored (crash)".
std::string OutcomeText(const CaseResult& c);

// One sentence about the run: "arcs 0.3.0, started ..., 1.2 s, 2 job(s), timeout 10.0 s per
// case, filters: ..., known failures: FILE." Each string from the report goes through `escape`
// (the renderer's own), the rest is fixed text.
std::string RunDescription(const RunInfo& run, std::string (*escape)(std::string_view));

// The warnings both human-readable renderings show, in plain text.
inline constexpr std::string_view kIncompleteNote =
    "the run was interrupted; cases not run are reported as errored (interrupted).";
inline constexpr std::string_view kAbandonedNote =
    "after too many consecutive crashes or timeouts; the cases not run are reported as errored "
    "(abandoned).";

}  // namespace arcs::report::internal

#endif  // ARCS_RUNNER_REPORT_RENDER_COMMON_H_
