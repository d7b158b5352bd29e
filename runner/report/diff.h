// `arcs diff`: what changed between two reports (report.h). A spec maintainer sees which
// outcomes a change to the reference, a vector or a spec moves; CI fails on regressions, and
// the committed reference report is held to "no change at all" (--fail-on-change).
//
// Cases are matched by (implementation name, format, case id, operation). Only what a run
// decides is compared: per case the outcome, error_kind, expected, actual, level, requirements,
// rules, ground, flag, policy, readings and strict; per format the certification, the missing
// list, the declared policies, which operations are supported, and whether each flag was read
// consistently. What varies from run to run of the same code is never compared: the run
// information (run.*), stderr_tail, restarts, a case's message, rerun flag, peak_rss_bytes and
// seconds. Nor is what only shows a decision: counts (they follow from the cases; so do a flag's
// readings, shown through its cases), a case's evidence and the requirements table.
//
// Regressions: a case that passed and no longer passes (or is gone), and a flag an
// implementation read consistently and now reads inconsistently (the spec asks for behaviour
// that is "documented and consistent"). A changed reading or strict result alone is a change.
#ifndef ARCS_RUNNER_REPORT_DIFF_H_
#define ARCS_RUNNER_REPORT_DIFF_H_

#include <compare>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reference/core/status.h"
#include "runner/report/report.h"

namespace arcs::report {

struct CaseKey {
  std::string implementation;
  std::string format;
  std::string id;
  std::string operation;
  auto operator<=>(const CaseKey&) const = default;
};

struct CaseChange {
  CaseKey key;
  std::optional<CaseResult> old_case;  // absent: the case was added
  std::optional<CaseResult> new_case;  // absent: the case was removed
  std::vector<std::string> fields;     // both present: the compared fields that differ
  // The case passed in the old report and did not pass (or is gone) in the new one.
  bool regression = false;
};

struct FormatChange {
  std::string implementation;
  std::string format;
  // "added", "removed", "certification", "missing", "policies", "operations", or "consistency"
  // (of `flag`: it was read consistently in one report and not in the other; a flag only in the
  // new report that is read inconsistently is listed too, a flag that is gone is not).
  std::string what;
  std::string flag;       // "consistency" only
  std::string old_value;  // for display; empty for "added"
  std::string new_value;  // for display; empty for "removed"
  // A flag read consistently in the old report and not in the new one.
  bool regression = false;
};

struct ReportDiff {
  std::vector<CaseChange> cases;  // ordered by key
  std::vector<FormatChange> formats;
  // Worth knowing, never a difference: an implementation's version changed, a run was
  // incomplete, an implementation was added, removed or abandoned.
  std::vector<std::string> notes;
  std::size_t regressions = 0;  // of cases and of formats

  bool HasDifferences() const { return !cases.empty() || !formats.empty(); }
};

// Fails (kInvalidArgument) when a report holds the same case key twice: then matching would be
// a guess.
Result<ReportDiff> Compare(const Report& old_report, const Report& new_report);

// The diff for a terminal: regressions first, then other changes, added and removed cases,
// format changes and notes, and a last line "arcs diff: ..." with the totals. Untrusted text is
// escaped (arcs::Printable) and long values are shortened.
std::string FormatDiff(const ReportDiff& diff);

}  // namespace arcs::report

#endif  // ARCS_RUNNER_REPORT_DIFF_H_
