// What the parts of the HTML page (render_html*.cc) share: escaping, the rows of the case matrix,
// and the anchors that tie each matrix cell to its details. Anchors are derived from positions in
// the matrix and the report, never from report text, so they are always safe ids.
#ifndef ARCS_RUNNER_REPORT_RENDER_HTML_INTERNAL_H_
#define ARCS_RUNNER_REPORT_RENDER_HTML_INTERNAL_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "runner/report/report.h"

namespace arcs::report::html {

// Long untrusted texts are cut to this many bytes so that one case cannot swamp the page.
inline constexpr std::size_t kMaxTextBytes = 2000;

// Untrusted text for element content and quoted attributes (EscapeXml); ET first cuts it to
// kMaxTextBytes, so that one long answer cannot swamp the page.
std::string E(std::string_view text);
std::string ET(std::string_view text);

// A table inside a box of its own that scrolls sideways, so the page itself never does.
std::string Scrolling(std::string_view table, std::string_view extra_class = "");

// "0.125 s".
std::string Seconds(double seconds);

// Failed, errored or a known failure: the outcomes the default view and the failure details are
// about (skipped is not a wrong answer).
bool DidNotPass(Outcome outcome);

// A report word (a mismatch, an error kind) as a safe class name or filter token: ASCII letters,
// digits and '_' kept, lowercased; "other" when nothing is left.
std::string Token(std::string_view word);

// The outcome of one cell: its label ("failed (accepted)", "not run" for nullptr), its classes
// ("o o-failed m-accepted"), and its filter token ("failed.accepted", "none").
std::string OutcomeLabel(const CaseResult* c);
std::string OutcomeClass(const CaseResult* c);
std::string OutcomeToken(const CaseResult* c);
// <span class="OutcomeClass">prefix OutcomeLabel</span>.
std::string OutcomeBadge(const CaseResult* c, std::string_view prefix = "");

// One row of the matrix: a (format, case id, operation) and each implementation's result.
struct Row {
  std::size_t index = 0;
  std::string format, id, operation, level, flag;
  Ground ground = Ground::kRequired;
  std::vector<std::string> requirements;
  std::vector<const CaseResult*> results;  // one per implementation; nullptr when not run
  bool not_passed = false;                 // DidNotPass for some implementation
};

// The report as the page shows it.
struct Page {
  explicit Page(const Report& report);

  const Report& report;
  std::vector<Row> rows;  // sorted by (format, id, operation)
  // (format, id, operation) -> index into rows.
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> row_of;
  // (format, requirement id) -> index into report.requirements.
  std::map<std::pair<std::string, std::string>, std::size_t> requirement_of;

  std::size_t RowOf(const CaseResult& c) const;
};

// "c12": a row's failure details; "c12-1": implementation 1's answer in row 12 (every matrix
// cell links there); "q7": the roll-up row of report.requirements[7].
std::string RowAnchor(std::size_t row);
std::string CellAnchor(std::size_t row, std::size_t implementation);
std::string RequirementAnchor(std::size_t requirement);

// "2.9" before "2.10", "SP-2.3-4" before "SP-11.1-1": runs of digits compare as numbers.
bool NaturalLess(std::string_view a, std::string_view b);

// The legend, filters and failure details, first on the page; then, after the summaries, the
// matrix and the details of the cases nothing failed (render_html_cases.cc).
void RenderCases(const Page& page, std::string* out);
void RenderMatrixAndOtherCases(const Page& page, std::string* out);

// The evidence of one row: what the case is (requirements, spec text, vector, inputs; `evidence`
// may be null), and of one implementation's answer: its findings against the vector's rule ids and
// its outputs against the reference's (render_html_evidence.cc).
void RenderCaseEvidence(const Page& page, const Row& row, const Evidence* evidence,
                        std::string* out);
void RenderAnswerEvidence(const CaseResult& c, std::string_view implementation, std::string* out);

// Markdown as the vectors' spec quotes and the catalogues' texts hold it, made safe markup: `code`,
// **strong** and *emphasis* become elements, backslash escapes their character, and everything
// else is text, escaped (no link, image or raw HTML ever forms). Callers cut the text to
// kMaxTextBytes first: emphasis nests by recursion, and an unmatched delimiter scans the rest.
std::string MarkdownInline(std::string_view text);
// A case's spec text (parts joined with "; ", each `§where: "quote"` or "errata IDS"), cut to
// kMaxTextBytes, one <div> a part: the place as a <cite>, the quote through MarkdownInline; a
// quoted table row ("| a | b |", rows joined by an empty cell) as an HTML table, never as pipes.
std::string SpecText(std::string_view text);

// The roll-up by spec section and requirement, and the slowest cases (render_html_rollup.cc).
void RenderRollup(const Page& page, std::string* out);
void RenderSlowest(const Page& page, std::string* out);

}  // namespace arcs::report::html

#endif  // ARCS_RUNNER_REPORT_RENDER_HTML_INTERNAL_H_
