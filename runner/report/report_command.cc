#include "runner/report/report_command.h"

#include <iostream>

#include "reference/core/io.h"
#include "reference/core/strings.h"
#include "runner/report/diff.h"
#include "runner/report/render.h"
#include "runner/report/report.h"

namespace arcs::runner {
namespace {

constexpr char kReportHelp[] =
    R"(usage: arcs report REPORT.json (--html | --markdown | --junit) [--out FILE]
       arcs report REPORT.json --badges DIR

Renders a JSON report written by `arcs run` (schema: schemas/report/report.schema.json).
REPORT.json may be - for standard input.

  --html         one self-contained HTML page: what did not pass first, each case with its
                 evidence (input, expected and actual, findings, a diff against the reference's
                 output, spec and requirement text, vector); a case x implementation matrix whose
                 cells link to the details; filters kept in the page's address; a roll-up by
                 spec section and requirement; the slowest cases; readings of ambiguous passages
                 and the ARCS strict profile
  --markdown     GitHub-flavoured Markdown: summaries, readings of ambiguous passages, the ARCS
                 strict profile and the cases that did not pass, with a line of evidence each
  --junit        JUnit XML for CI systems, with each case's time and each failure's evidence
                 (known failures appear as skipped)
  --out FILE     write to FILE instead of standard output
  --badges DIR   write one SVG badge per implementation and format into DIR

Exit 0 on success, 2 on usage errors, an unreadable or malformed report, or a failed write.
)";

constexpr char kDiffHelp[] = R"(usage: arcs diff OLD.json NEW.json [--fail-on-change]

Compares two JSON reports case by case, matching cases by implementation name, format, case
id and operation. Lists regressions (a case that passed in OLD and does not pass, or is gone,
in NEW; a flag of the errata an implementation read consistently in OLD and not in NEW), other
changed cases (a reading or ARCS strict result that changed is a change, not a regression),
added and removed cases, and changes to a format's certification, missing list, policies or
supported operations. Run information, stderr, restarts, peak memory and a case's free-text
message are never compared.

  --fail-on-change   exit 1 on any difference, not only on regressions (for checking a
                     committed report against a fresh run)

Exit 0 when nothing regressed (with --fail-on-change: when nothing changed), 1 otherwise, 2 on
usage errors or an unreadable or malformed report.
)";

int Usage(std::string_view command, const std::string& message) {
  std::cerr << "arcs " << command << ": " << message << "\n(run `arcs " << command
            << " --help` for usage)\n";
  return 2;
}

// Messages can quote the report (member names, case ids): untrusted text for a terminal.
int Failed(std::string_view command, std::string_view message) {
  std::cerr << "arcs " << command << ": " << Printable(message) << "\n";
  return 2;
}

bool IsHelp(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

}  // namespace

int ReportCommand(const std::vector<std::string>& args) {
  if (IsHelp(args)) {
    std::cout << kReportHelp;
    return 0;
  }
  std::string path, form, out, badges;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--html" || a == "--markdown" || a == "--junit") {
      if (!form.empty()) return Usage("report", "give one of --html, --markdown, --junit");
      form = a;
    } else if (a == "--out" || a == "--badges") {
      if (i + 1 == args.size()) return Usage("report", a + " needs an argument");
      (a == "--out" ? out : badges) = args[++i];
    } else if (a.size() > 1 && a[0] == '-') {
      return Usage("report", "unknown option " + a);
    } else if (path.empty()) {
      path = a;
    } else {
      return Usage("report", "one report at a time (got " + path + " and " + a + ")");
    }
  }
  if (path.empty()) return Usage("report", "no report given");
  if (form.empty() == badges.empty()) {
    return Usage("report", "give exactly one of --html, --markdown, --junit, --badges");
  }
  if (!badges.empty() && !out.empty()) return Usage("report", "--out does not go with --badges");

  Result<report::Report> report = report::ReadReportFile(path);
  if (!report.ok()) {
    return Failed("report", report.status().message());
  }
  if (!badges.empty()) {
    Status s = report::WriteBadges(*report, badges);
    return s.ok() ? 0 : Failed("report", s.message());
  }
  const std::string rendered = form == "--html"       ? report::RenderHtml(*report)
                               : form == "--markdown" ? report::RenderMarkdown(*report)
                                                      : report::RenderJunit(*report);
  if (out.empty()) {
    std::cout << rendered << std::flush;
    return std::cout ? 0 : 2;
  }
  if (Status s = WriteFile(out, rendered); !s.ok()) {
    return Failed("report", s.message());
  }
  return 0;
}

int DiffCommand(const std::vector<std::string>& args) {
  if (IsHelp(args)) {
    std::cout << kDiffHelp;
    return 0;
  }
  bool fail_on_change = false;
  std::vector<std::string> paths;
  for (const std::string& a : args) {
    if (a == "--fail-on-change") {
      fail_on_change = true;
    } else if (a.size() > 1 && a[0] == '-') {
      return Usage("diff", "unknown option " + a);
    } else {
      paths.push_back(a);
    }
  }
  if (paths.size() != 2) return Usage("diff", "give two reports: OLD.json NEW.json");
  if (paths[0] == "-" && paths[1] == "-") return Usage("diff", "only one report can be -");
  Result<report::Report> old_report = report::ReadReportFile(paths[0]);
  if (!old_report.ok()) {
    return Failed("diff", old_report.status().message());
  }
  Result<report::Report> new_report = report::ReadReportFile(paths[1]);
  if (!new_report.ok()) {
    return Failed("diff", new_report.status().message());
  }
  Result<report::ReportDiff> diff = report::Compare(*old_report, *new_report);
  if (!diff.ok()) {
    return Failed("diff", diff.status().message());
  }
  std::cout << report::FormatDiff(*diff) << std::flush;
  if (diff->regressions > 0) return 1;
  return fail_on_change && diff->HasDifferences() ? 1 : 0;
}

}  // namespace arcs::runner
