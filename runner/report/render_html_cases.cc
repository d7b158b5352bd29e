// The cases on the HTML page (render_html_internal.h): what did not pass first, with its evidence,
// then the case × implementation matrix, each cell a link to its answer's details.
#include <algorithm>
#include <set>

#include "runner/report/render_common.h"
#include "runner/report/render_html_internal.h"

namespace arcs::report::html {
namespace {

// Full evidence (inputs, findings, outputs and their diff) is rendered for this many failures of
// each implementation, in matrix order; the rest show expected and actual only, and the page says
// how many were left out. A few hundred failures with 4 KiB blobs stay a page of a few megabytes.
constexpr std::size_t kMaxEvidencePerImplementation = 100;

// The matrix columns: the case and operation, each implementation's result right beside them (on
// a phone they are what shows), then these (report_page.js reads them by position from the end).
constexpr std::string_view kLeadingColumns = "<th>case</th><th>operation</th>";
constexpr std::string_view kTrailingColumns =
    "<th>format</th><th>level</th><th>ground</th><th>flag</th><th>requirements</th>";

using Options = std::vector<std::pair<std::string, std::string>>;  // value, label

std::string OptionList(const Options& options) {
  std::string out;
  for (const auto& [value, text] : options) {
    out += "<option value=\"" + E(value) + "\">" + E(text) + "</option>";
  }
  return out;
}

// A filter: its first option (value "") is the default view.
std::string Select(std::string_view name, std::string_view label, std::string_view first,
                   const Options& options, std::string_view groups = "") {
  return "<label>" + std::string(label) + " <select id=\"filter-" + std::string(name) +
         "\"><option value=\"\">" + std::string(first) + "</option>" + OptionList(options) +
         std::string(groups) + "</select></label>\n";
}

std::string Group(std::string_view label, const Options& options) {
  if (options.empty()) return "";
  return "<optgroup label=\"" + std::string(label) + "\">" + OptionList(options) + "</optgroup>";
}

Options Values(const std::set<std::string>& values) {
  Options options;
  for (const std::string& v : values) options.emplace_back(v, v);
  return options;
}

// The outcome filter: the default view, the outcomes, and how failures missed and errors happened
// (the kinds present in the report).
std::string OutcomeSelect(const Page& page) {
  std::set<std::string> kinds;
  for (const Row& row : page.rows) {
    for (const CaseResult* c : row.results) {
      if (c && !c->error_kind.empty()) kinds.insert(Token(c->error_kind));
    }
  }
  Options outcomes;
  for (Outcome o : {Outcome::kPassed, Outcome::kFailed, Outcome::kErrored, Outcome::kSkipped,
                    Outcome::kKnownFailure}) {
    outcomes.emplace_back(OutcomeName(o), OutcomeName(o));
  }
  outcomes.emplace_back("none", "not run");
  Options missed;
  for (const internal::Mismatch& m : internal::kMismatches) missed.emplace_back(m.name, m.brief);
  return Select("outcome", "outcome", "did not pass",
                {{"differ", "implementations differ"}, {"all", "all"}},
                Group("outcome", outcomes) + Group("how it failed", missed) +
                    Group("how it errored", Values(kinds)));
}

std::string Filters(const Page& page) {
  std::set<std::string> formats, operations, levels, grounds;
  for (const Row& row : page.rows) {
    formats.insert(row.format);
    operations.insert(row.operation);
    levels.insert(row.level);
    grounds.insert(std::string(GroundName(row.ground)));
  }
  std::map<std::string, Counts> level_map;
  for (const std::string& level : levels) level_map[level];
  Options implementations, level_options, ground_options;
  for (const ImplementationReport& impl : page.report.implementations) {
    implementations.emplace_back(impl.name, impl.name);
  }
  for (const std::string& level : internal::OrderedLevels(level_map)) {
    level_options.emplace_back(level, level);
  }
  for (Ground g : {Ground::kRequired, Ground::kPolicy, Ground::kAcceptable, Ground::kResource}) {
    if (grounds.contains(std::string(GroundName(g)))) {
      ground_options.emplace_back(GroundName(g), GroundName(g));
    }
  }
  return "<div class=\"filters\">\n" + OutcomeSelect(page) +
         Select("impl", "implementation", "all", implementations) +
         Select("format", "format", "all", Values(formats)) +
         Select("operation", "operation", "all", Values(operations)) +
         Select("level", "level", "all", level_options) +
         Select("ground", "ground", "all", ground_options) +
         "<label>search <input id=\"filter-q\" type=\"search\" placeholder=\"words or globs: "
         "spool-3.* SP-3.4 crash\"></label>\n</div>\n";
}

std::string Legend() {
  std::string out =
      "<ul class=\"legend\">\n<li><span class=\"o o-passed\">passed</span> the answer met the "
      "vector&#39;s expectation</li>\n";
  for (const internal::Mismatch& m : internal::kMismatches) {
    out += "<li><span class=\"o o-failed m-" + std::string(m.name) + "\">failed (" +
           std::string(m.name) + ")</span> " + std::string(m.meaning) + "</li>\n";
  }
  return out +
         "<li><span class=\"o o-errored\">errored (kind)</span> no usable answer: crash, timeout, "
         "protocol (a malformed answer), implementation (it answered &quot;errored&quot;); or not "
         "run: abandoned, handshake, interrupted, runner</li>\n"
         "<li><span class=\"o o-known_failure\">known_failure (how)</span> failed or errored, "
         "and listed in the known-failures file</li>\n"
         "<li><span class=\"o o-skipped\">skipped</span> the operation is not supported</li>\n"
         "<li><span class=\"o o-none\">not run</span> no result from this implementation</li>\n"
         "</ul>\n";
}

// What the default view shows when nothing failed, said plainly.
std::string NothingFailed(const Page& page) {
  Counts all;
  for (const ImplementationReport& impl : page.report.implementations) {
    for (const CaseResult& c : impl.cases) all.Add(c.outcome);
  }
  std::string out = "<p id=\"all-passed\">";
  if (all.total == 0) return out + "No case was run.</p>\n";
  if (all.total == all.passed) {
    out += "All " + std::to_string(page.rows.size()) + " cases passed";
    if (page.report.implementations.size() > 1) {
      out += " (" + std::to_string(all.total) + " results of " +
             std::to_string(page.report.implementations.size()) + " implementations)";
    }
  } else {
    out += "No case failed or errored: " + std::to_string(all.passed) + " results passed, " +
           std::to_string(all.skipped) + " skipped";
  }
  return out + ". <button type=\"button\" id=\"show-all\">Show all cases</button></p>\n";
}

// "expected ... actual ... message ..." of one answer; class "s": what the search looks in.
std::string ExpectedActual(const CaseResult& c) {
  std::string out;
  for (const auto& [label, text] :
       {std::pair<std::string_view, const std::string&>{"expected", c.expected},
        {"actual", c.actual},
        {"message", c.message}}) {
    if (!text.empty()) {
      out += "<dt>" + std::string(label) + "</dt><dd class=\"s\">" + ET(text) + "</dd>";
    }
  }
  return out.empty() ? "" : "<dl class=\"ea\">" + out + "</dl>";
}

// The facts of one answer beyond its outcome: "0.125 s; policy invalid_line=skip; ARCS strict:
// ...; re-run once after a crash or timeout".
std::string Facts(const CaseResult& c) {
  std::string out = Seconds(c.seconds);
  if (c.ground != Ground::kRequired) out += "; " + internal::GroundText(c);
  if (c.strict != Strict::kNotJudged) {
    out += c.strict == Strict::kPassed ? "; ARCS strict: the reference's answer"
                                       : "; ARCS strict: not the reference's answer";
  }
  if (c.rerun) out += "; re-run once in a fresh process after a crash or timeout";
  return out;
}

// One implementation's answer in a row with failures: its outcome, facts, expected and actual,
// and, within the cap, the evidence.
void RenderAnswer(const Page& page, const Row& row, std::size_t i, bool full, std::string* out) {
  const CaseResult* c = row.results[i];
  const std::string& name = page.report.implementations[i].name;
  *out += "<section class=\"answer\" id=\"" + CellAnchor(row.index, i) + "\"><h4>" + E(name) +
          ": " + OutcomeBadge(c) + "</h4>\n";
  if (!c) {
    *out += "<p>This implementation has no result for this case.</p></section>\n";
    return;
  }
  *out += "<p class=\"dim\">" + E(Facts(*c)) + "</p>\n" + ExpectedActual(*c);
  if (full) {
    RenderAnswerEvidence(*c, name, out);
  } else if (c->evidence) {
    *out += "<p class=\"dim\">Evidence left out: past the first " +
            std::to_string(kMaxEvidencePerImplementation) +
            " failures of this implementation.</p>\n";
  }
  *out += "</section>\n";
}

// One row with failures, as a <details> entry: a summary of who did not pass, the case and its
// evidence, then every implementation's answer.
void RenderFailure(const Page& page, const Row& row, bool open,
                   std::vector<std::size_t>* evidence_shown, std::string* out) {
  const std::size_t n = row.results.size();
  std::vector<bool> full(n, false);
  const Evidence* evidence = nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    const CaseResult* c = row.results[i];
    if (!c || !c->evidence || !DidNotPass(c->outcome)) continue;
    full[i] = (*evidence_shown)[i]++ < kMaxEvidencePerImplementation;
    if (full[i] && !evidence) evidence = &*c->evidence;
  }
  *out += "<details class=\"case\" id=\"" + RowAnchor(row.index) + "\"" +
          (open ? " open=\"\"" : "") + "><summary><code>" + E(row.id) +
          "</code> <span class=\"dim\">" + E(row.operation) + " · " + E(row.format) + " · " +
          E(row.level) + "</span>";
  for (std::size_t i = 0; i < n; ++i) {
    const CaseResult* c = row.results[i];
    if (c && c->outcome == Outcome::kPassed) continue;
    *out += " " + OutcomeBadge(c, E(page.report.implementations[i].name) + ": ");
  }
  *out += "</summary>\n";
  RenderCaseEvidence(page, row, evidence, out);
  for (std::size_t i = 0; i < n; ++i) RenderAnswer(page, row, i, full[i], out);
  *out += "</details>\n";
}

void RenderFailures(const Page& page, std::string* out) {
  const std::size_t n = page.report.implementations.size();
  std::vector<std::size_t> evidenced(n, 0), shown(n, 0);
  std::size_t rows = 0;
  for (const Row& row : page.rows) {
    rows += row.not_passed;
    for (std::size_t i = 0; i < n; ++i) {
      const CaseResult* c = row.results[i];
      evidenced[i] += c && c->evidence && DidNotPass(c->outcome);
    }
  }
  *out += "<h3 id=\"failures\">What did not pass (" + std::to_string(rows) + " cases)</h3>\n";
  for (std::size_t i = 0; i < n; ++i) {
    if (evidenced[i] <= kMaxEvidencePerImplementation) continue;
    *out += "<p class=\"warn\">Evidence is shown for the first " +
            std::to_string(kMaxEvidencePerImplementation) + " failures of " +
            E(page.report.implementations[i].name) + "; " +
            std::to_string(evidenced[i] - kMaxEvidencePerImplementation) +
            " more show expected and actual only (the JSON report keeps all of it).</p>\n";
  }
  if (rows == 0) *out += NothingFailed(page);
  // The page opens on the first failure with its evidence; the others stay collapsed.
  *out += "<div id=\"failure-list\">\n";
  bool first = true;
  for (const Row& row : page.rows) {
    if (!row.not_passed) continue;
    RenderFailure(page, row, first, &shown, out);
    first = false;
  }
  *out += "</div>\n";
}

std::string MatrixRow(const Row& row) {
  std::string tokens;
  for (const CaseResult* c : row.results) tokens += (tokens.empty() ? "" : " ") + OutcomeToken(c);
  // Hidden as the default view hides it before the script runs, so that a large report is not
  // laid out whole first.
  std::string out = "<tr id=\"r" + std::to_string(row.index) + "\" data-o=\"" + E(tokens) + "\"" +
                    (row.not_passed ? "" : " hidden=\"\"") + "><td>" + E(row.id) + "</td><td>" +
                    E(row.operation) + "</td>";
  for (std::size_t i = 0; i < row.results.size(); ++i) {
    const CaseResult* c = row.results[i];
    const bool tip = c && c->outcome != Outcome::kPassed;
    out += "<td class=\"" + OutcomeClass(c) + "\"><a href=\"#" + CellAnchor(row.index, i) + "\"" +
           (tip ? " title=\"" + ET(internal::ExpectedActual(*c)) + "\"" : "") + ">" +
           E(OutcomeLabel(c)) + "</a></td>";
  }
  std::string requirements;
  for (const std::string& id : row.requirements) {
    requirements += (requirements.empty() ? "" : " ") + E(id);
  }
  return out + "<td>" + E(row.format) + "</td><td>" + E(row.level) + "</td><td>" +
         std::string(GroundName(row.ground)) + "</td><td>" + E(row.flag) + "</td><td>" +
         requirements + "</td></tr>\n";
}

void RenderMatrix(const Page& page, std::string* out) {
  std::string table = "<table id=\"matrix\"><thead><tr>" + std::string(kLeadingColumns);
  for (const ImplementationReport& impl : page.report.implementations) {
    table += "<th>" + E(impl.name) + "</th>";
  }
  table += std::string(kTrailingColumns) + "</tr></thead><tbody>\n";
  for (const Row& row : page.rows) table += MatrixRow(row);
  // The script lists the matching rows a few hundred at a time (a table of thousands of rows
  // takes a second to lay out), and says so here.
  *out +=
      "<h3 id=\"matrix-heading\">Matrix</h3>\n<p>Each cell links to its answer&#39;s "
      "details.</p>\n" +
      Scrolling(table + "</tbody></table>", "matrix") +
      "<p id=\"matrix-more\" hidden=\"\"><span id=\"matrix-listed\"></span> <button "
      "type=\"button\" id=\"matrix-next\">List more</button></p>\n";
}

// The details of the cells of rows where nothing failed: one line each, in a collapsed list.
void RenderOtherCells(const Page& page, std::string* out) {
  std::string items;
  std::size_t rows = 0;
  for (const Row& row : page.rows) {
    if (row.not_passed) continue;
    ++rows;
    for (std::size_t i = 0; i < row.results.size(); ++i) {
      const CaseResult* c = row.results[i];
      items += "<li id=\"" + CellAnchor(row.index, i) + "\"><code>" + E(row.id) + "</code> " +
               E(row.operation) + " · " + E(row.format) + " — " +
               E(page.report.implementations[i].name) + ": " + E(OutcomeLabel(c));
      if (c) items += ", " + E(Facts(*c));
      if (c && !c->message.empty()) items += " — <span class=\"s\">" + ET(c->message) + "</span>";
      items += "</li>\n";
    }
  }
  *out += "<details id=\"other-cases\"><summary>Details of the " + std::to_string(rows) +
          " cases no implementation failed</summary>\n<ul class=\"compact\">\n" + items +
          "</ul>\n</details>\n";
}

}  // namespace

void RenderCases(const Page& page, std::string* out) {
  // The legend is folded and the filters fold away (the script folds them on a narrow screen,
  // unless the address sets one), so that the first failure is on the first screen.
  *out +=
      "<h2 id=\"cases\">Cases</h2>\n<p>Shown by default: the cases some implementation did not "
      "pass, the first with its evidence.</p>\n"
      "<details id=\"legend\" class=\"fold\"><summary>Legend</summary>\n<p>By "
      "default the page shows the cases some implementation did not pass (failed, errored, or a "
      "known failure; a skipped operation is not a wrong answer). &quot;Implementations "
      "differ&quot; shows the cases whose outcomes differ between implementations, skipped and not "
      "run included. The filters apply to the details and to the matrix, and the page&#39;s "
      "address keeps them.</p>\n" +
      Legend() +
      "<p>Search: every word must match the case id, format, operation, level, flag, requirement "
      "ids, or the expected, actual or message text; a word with * ? or [ is a glob on the case id "
      "or id/operation, as <code>arcs run --filter</code> reads it.</p>\n</details>\n"
      "<details id=\"filter-box\" class=\"fold\" open=\"\"><summary>Filters</summary>\n" +
      Filters(page) +
      "</details>\n<p id=\"shown\"></p>\n<p id=\"no-match\" hidden=\"\">No case matches these "
      "filters.</p>\n";
  RenderFailures(page, out);
}

void RenderMatrixAndOtherCases(const Page& page, std::string* out) {
  RenderMatrix(page, out);
  RenderOtherCells(page, out);
}

}  // namespace arcs::report::html
