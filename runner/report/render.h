// The renderings of a report (report.h): Markdown, one self-contained HTML page, JUnit XML and
// SVG badges. The JSON form is the source of truth; each of these is a pure function of it, so
// `arcs report` can render a committed report again at any time. Every string in a report is
// untrusted (it may come from the implementation under test) and goes through escape.h.
#ifndef ARCS_RUNNER_REPORT_RENDER_H_
#define ARCS_RUNNER_REPORT_RENDER_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/core/status.h"
#include "runner/report/report.h"

namespace arcs::report {

// GitHub-flavoured Markdown: per implementation a summary table, the certification of each
// format with what is missing and its ARCS strict profile line, operation × level counts, the
// readings of ambiguous passages (per format and flag: answered cases, readings taken, whether
// consistently), the resource-limit cases with their peak memory, and a table of the cases that
// did not pass (id, operation, level, ground, outcome, expected, actual, and a line of evidence:
// the first input's size and first line, the vector's path).
std::string RenderMarkdown(const Report& report);

// One self-contained HTML page (no external resources): summary and certification at the top;
// then what did not pass, first (by default only the cases some implementation failed, errored or
// lists as a known failure, with a legend telling accepted-should-reject from
// rejected-should-accept), each with its evidence (input as text or a hex dump, expected and
// actual, findings against the vector's rule ids, a line diff against the reference's outputs,
// spec quote, requirement text, vector path, time); the case × implementation matrix, each cell a
// link to its details; a roll-up by spec section and by requirement with percentages per
// implementation; the slowest cases; operations, readings of ambiguous passages, the ARCS strict
// profile, resource limits and implementations. A small embedded script (report_page.js) filters
// by outcome, implementation, format, operation, level, ground and search words or globs, keeping
// the filters in the page's address; it reads only the page's own text and data-* attributes and
// writes only hidden, open, value and textContent, so no report text ever reaches script as code.
// A Content-Security-Policy meta tag allows nothing but the page's own inline <style> and <script>
// (by SHA-256 hash) and data: images.
std::string RenderHtml(const Report& report);

// The Content-Security-Policy RenderHtml puts in its meta tag, for the given inline style and
// script contents. Exposed so tests can recompute it from a rendered page.
std::string ContentSecurityPolicy(std::string_view style, std::string_view script);

// The same for a page with no script and no image (the fuzz report's): only the inline style,
// by its SHA-256.
std::string ContentSecurityPolicy(std::string_view style);

// The page's stylesheet (report_page.css, embedded at build time), for the other pages of ARCS to
// look the same. It holds no report data, so its hash is a constant of the build.
std::string_view ReportPageStyle();

// JUnit XML for CI systems: one <testsuites>, a <testsuite name="IMPL/FORMAT"> per
// implementation and format, a <testcase classname="IMPL.FORMAT.OPERATION" name="CASE-ID"> per
// case ('.' in the implementation and format names becomes '_', so the dots mean hierarchy).
// Each testcase's properties hold its ground and, where they apply, flag, policy, readings,
// strict and peak_rss_bytes.
// failed -> <failure>, errored -> <error>, skipped -> <skipped>; a known failure is reported as
// <skipped message="known failure: ..."/>: CI systems show skipped tests without failing the
// build, which is exactly what a listed known failure is, and it stays visible (a "passed" with
// a note would hide it).
std::string RenderJunit(const Report& report);

// One shields.io-style SVG badge per implementation and format: "FORMAT | full" (green),
// "FORMAT | partial NN%" (yellow; NN is the share of the format's MUST cases that passed,
// rounded down, so a partial never shows 100%) and "FORMAT | none" (red).
struct Badge {
  std::string file_name;  // "<Slug(implementation)>-<Slug(format)>.svg", unique in the list
  std::string svg;
};
std::vector<Badge> RenderBadges(const Report& report);

// Writes RenderBadges(report) into dir, creating it as needed.
Status WriteBadges(const Report& report, const std::string& dir);

// Writes every form of the report: DIR/BASENAME.json, .md, .html, .junit.xml, and the badges
// under DIR/badges/. Creates the directories as needed.
Status WriteAllRenderings(const Report& report, const std::string& dir,
                          const std::string& basename);

}  // namespace arcs::report

#endif  // ARCS_RUNNER_REPORT_RENDER_H_
