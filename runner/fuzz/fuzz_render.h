// The renderings of an `arcs fuzz` run (FuzzReport, fuzz.h) for people: GitHub-flavoured Markdown
// and one self-contained HTML page, as the conformance report has (runner/report/render.h), built
// from its pieces: the same escaping, table rows, hex dumps, stylesheet and
// Content-Security-Policy. Every string a report holds may come from the implementation under test
// or from a mutant (its name, its answers, the inputs), so all of it is escaped; the page has no
// script and no link but to its own anchors.
#ifndef ARCS_RUNNER_FUZZ_FUZZ_RENDER_H_
#define ARCS_RUNNER_FUZZ_FUZZ_RENDER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/fuzz/fuzz.h"

namespace arcs::fuzz {

// Both renderings show: the run (execs, time, rate, seeds and corpus, the corpus folder's entries,
// the answers compared and skipped, the seeds the implementation does not declare, the open
// disagreements and what they are, restarts, the error that stopped it); the corpus
// growth as a table (ThinGrowth), and on the page as a step chart too; then each finding with both
// answers (the reference's labelled as what it says, never as the expectation: that is for a
// person to fill in from the spec text), its rule ids, detail, minimized inputs (text, or a hex
// dump when they are not plain text; the first kMaxEvidenceBytes of each) and the command that
// finds it again (ReproduceCommand over `reproduce`).
std::string RenderFuzzMarkdown(const FuzzReport& report, std::string_view reproduce);
std::string RenderFuzzHtml(const FuzzReport& report, std::string_view reproduce);

// Why a run compared no answer with the reference's (report.compared == 0): a run that compared
// nothing showed nothing, and is never reported clean.
std::string NothingCompared(const FuzzReport& report);

// The growth as the tables show it: at most kMaxGrowthRows of its points, evenly spaced among
// them, the first and the last always kept.
inline constexpr std::size_t kMaxGrowthRows = 20;
std::vector<std::pair<double, std::size_t>> ThinGrowth(
    const std::vector<std::pair<double, std::size_t>>& growth);

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_FUZZ_RENDER_H_
