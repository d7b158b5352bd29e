// RenderHtml and ContentSecurityPolicy (render.h): the page, its summaries and what the parts in
// render_html_*.cc share (render_html_internal.h).
#include <algorithm>
#include <cstdio>

#include "reference/core/base64.h"
#include "reference/core/sha256.h"
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/render_common.h"
#include "runner/report/render_html_internal.h"

namespace arcs::report {
namespace internal {
// The page's only script (report_page.js, embedded by CMake), beside ReportPageStyle (render.h).
// It holds no report data (that lives in escaped text and data-* attributes), so its hash is a
// constant of the build and the CSP can name it.
std::string_view ReportPageScript();
}  // namespace internal

namespace html {

std::string E(std::string_view text) { return EscapeXml(text); }
std::string ET(std::string_view text) { return EscapeXml(Truncate(text, kMaxTextBytes)); }

std::string Scrolling(std::string_view table, std::string_view extra_class) {
  std::string out = "<div class=\"scroll";
  if (!extra_class.empty()) out += " " + std::string(extra_class);
  return out + "\">" + std::string(table) + "</div>\n";
}

std::string Seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, seconds < 1e6 ? "%.3f s" : "%.3g s", seconds);
  return buffer;
}

bool DidNotPass(Outcome outcome) {
  return outcome == Outcome::kFailed || outcome == Outcome::kErrored ||
         outcome == Outcome::kKnownFailure;
}

std::string Token(std::string_view word) {
  std::string token;
  for (char c : word) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') token += c;
  }
  return token.empty() ? "other" : token;
}

namespace {

// How the case missed or errored, as a token; "" when it did neither.
std::string How(const CaseResult& c) {
  const std::string& how = c.error_kind.empty() ? c.mismatch : c.error_kind;
  return how.empty() ? "" : Token(how);
}

}  // namespace

std::string OutcomeLabel(const CaseResult* c) { return c ? internal::OutcomeText(*c) : "not run"; }

std::string OutcomeClass(const CaseResult* c) {
  if (!c) return "o o-none";
  std::string classes = "o o-" + std::string(OutcomeName(c->outcome));
  if (!c->mismatch.empty()) classes += " m-" + Token(c->mismatch);  // coloured by the legend
  return classes;
}

std::string OutcomeToken(const CaseResult* c) {
  if (!c) return "none";
  const std::string how = How(*c);
  return std::string(OutcomeName(c->outcome)) + (how.empty() ? "" : "." + how);
}

std::string OutcomeBadge(const CaseResult* c, std::string_view prefix) {
  return "<span class=\"" + OutcomeClass(c) + "\">" + std::string(prefix) + E(OutcomeLabel(c)) +
         "</span>";
}

Page::Page(const Report& r) : report(r) {
  const std::size_t n = r.implementations.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (const CaseResult& c : r.implementations[i].cases) row_of[{c.format, c.id, c.operation}];
  }
  for (auto& [key, index] : row_of) {
    index = rows.size();
    Row& row = rows.emplace_back();
    row.index = index;
    std::tie(row.format, row.id, row.operation) = key;
    row.results.assign(n, nullptr);
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (const CaseResult& c : r.implementations[i].cases) {
      Row& row = rows[RowOf(c)];
      if (row.results[i]) continue;  // CheckUniqueCases: not in a report read from a file
      if (std::all_of(row.results.begin(), row.results.end(),
                      [](const CaseResult* other) { return other == nullptr; })) {
        row.level = c.level;
        row.ground = c.ground;
        row.flag = c.flag;
        row.requirements = c.requirements;
      }
      row.results[i] = &c;
      row.not_passed = row.not_passed || DidNotPass(c.outcome);
    }
  }
  for (std::size_t i = 0; i < r.requirements.size(); ++i) {
    requirement_of.try_emplace({r.requirements[i].format, r.requirements[i].id}, i);
  }
}

std::size_t Page::RowOf(const CaseResult& c) const {
  return row_of.at({c.format, c.id, c.operation});
}

std::string RowAnchor(std::size_t row) { return "c" + std::to_string(row); }

std::string CellAnchor(std::size_t row, std::size_t implementation) {
  return RowAnchor(row) + "-" + std::to_string(implementation);
}

std::string RequirementAnchor(std::size_t requirement) { return "q" + std::to_string(requirement); }

namespace {

// -1, 0 or 1 as a is before, level with or after b, runs of digits compared as numbers ("01" is
// level with "1").
int NaturalCompare(std::string_view a, std::string_view b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (!digit(a[i]) || !digit(b[j])) {
      if (a[i] != b[j]) {
        return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
      }
      ++i, ++j;
      continue;
    }
    // Two numbers: the one with more significant digits is larger, then the first digit that
    // differs decides.
    while (i < a.size() && a[i] == '0') ++i;
    while (j < b.size() && b[j] == '0') ++j;
    std::size_t ei = i, ej = j;
    while (ei < a.size() && digit(a[ei])) ++ei;
    while (ej < b.size() && digit(b[ej])) ++ej;
    const std::string_view na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
    if (na.size() != nb.size()) return na.size() < nb.size() ? -1 : 1;
    if (na != nb) return na < nb ? -1 : 1;
    i = ei, j = ej;
  }
  const std::size_t rest_a = a.size() - i, rest_b = b.size() - j;
  return rest_a == rest_b ? 0 : rest_a < rest_b ? -1 : 1;
}

}  // namespace

bool NaturalLess(std::string_view a, std::string_view b) {
  // Ties ("01" and "1") in plain order, so that only equal strings are equivalent.
  const int order = NaturalCompare(a, b);
  return order != 0 ? order < 0 : a < b;
}

}  // namespace html

namespace {

using html::E;
using html::ET;
using html::Scrolling;

std::string HashSource(std::string_view text) {
  const Sha256Digest digest = Sha256::Of(text);
  return "'sha256-" +
         base64::Encode(
             std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size())) +
         "'";
}

std::string CertificationClass(std::string_view certification) {
  if (certification == "full" || certification == "partial" || certification == "none") {
    return "cert-" + std::string(certification);
  }
  return "cert-other";
}

std::string CountHeaderCells() {
  std::string out;
  for (const auto& [name, value] : internal::CountColumns(Counts{})) {
    out += "<th>" + std::string(name) + "</th>";
  }
  return out;
}

std::string CountCells(const Counts& counts) {
  std::string out;
  for (const auto& [name, value] : internal::CountColumns(counts)) {
    out += "<td class=\"n\">" + std::to_string(value) + "</td>";
  }
  return out;
}

// Per implementation and format: how each ambiguous passage was read, and the strict profile.
void RenderReadings(const Report& report, std::string* out) {
  std::string rows;
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& f : impl.formats) {
      for (const FlagSummary& flag : f.flags) {
        rows += "<tr><td>" + E(impl.name) + "</td><td>" + E(f.format) + "</td><td>" + E(flag.flag) +
                "</td><td class=\"n\">" + std::to_string(flag.cases) + "</td><td class=\"text\">" +
                ET(internal::ReadingsTaken(flag)) + "</td><td" +
                (flag.consistent ? "" : " class=\"inconsistent\"") + ">" +
                E(internal::ConsistencyText(flag)) + "</td></tr>\n";
      }
    }
  }
  *out += "<h2 id=\"readings\">Readings of ambiguous passages</h2>\n";
  if (rows.empty()) {
    *out += "<p>No case depends on an ambiguous passage.</p>\n";
  } else {
    *out += Scrolling(
        "<table id=\"readings-table\"><thead><tr><th>implementation</th><th>format</th>"
        "<th>flag</th><th>cases</th><th>readings taken</th><th>consistent</th></tr></thead>"
        "<tbody>\n" +
        rows + "</tbody></table>");
  }
  *out += "<ul id=\"strict\">\n";
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& f : impl.formats) {
      *out += "<li>" + E(impl.name) + " / " + E(f.format) + ": " +
              E(internal::StrictLine(f.strict)) + "</li>\n";
    }
  }
  *out += "</ul>\n";
}

// What the implementations scored, at a glance: counts and certification per format.
void RenderSummary(const Report& report, std::string* out) {
  std::string table =
      "<table id=\"summary-table\"><thead><tr><th>implementation</th><th>version</th>" +
      CountHeaderCells() + "</tr></thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    table += "<tr><td>" + E(impl.name) + "</td><td>" + E(impl.version) + "</td>" +
             CountCells(impl.summary) + "</tr>\n";
  }
  *out += "<h2 id=\"summary\">Summary</h2>\n" + Scrolling(table + "</tbody></table>");

  table =
      "<table id=\"certification-table\"><thead><tr><th>implementation</th><th>format</th>"
      "<th>certification</th><th>how</th><th>missing</th></tr></thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& f : impl.formats) {
      table += "<tr><td>" + E(impl.name) + "</td><td>" + E(f.format) + "</td><td class=\"" +
               CertificationClass(f.certification) + "\"><b>" + E(internal::CertificationText(f)) +
               "</b></td><td class=\"text\">" + E(internal::CertificationMeaning(f)) +
               "</td><td class=\"text\">";
      for (std::size_t i = 0; i < f.missing.size(); ++i) {
        table += (i ? "<br>" : "") + ET(f.missing[i]);
      }
      table += "</td></tr>\n";
    }
  }
  *out += "<h2 id=\"certification\">Certification</h2>\n<p id=\"level-rule\">" +
          E(internal::kCertificationRule) + "</p>\n" + Scrolling(table + "</tbody></table>");
}

void RenderOperations(const Report& report, std::string* out) {
  std::string table =
      "<table id=\"operations-table\"><thead><tr><th>implementation</th><th>format</th>"
      "<th>operation</th><th>supported</th><th>level</th>" +
      CountHeaderCells() + "</tr></thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& f : impl.formats) {
      for (const OperationSummary& op : f.operations) {
        const std::string lead = "<tr><td>" + E(impl.name) + "</td><td>" + E(f.format) +
                                 "</td><td>" + E(op.operation) + "</td><td>" +
                                 (op.supported ? "yes" : "no") + "</td><td>";
        for (const std::string& level : internal::OrderedLevels(op.by_level)) {
          table += lead + E(level) + "</td>" + CountCells(op.by_level.at(level)) + "</tr>\n";
        }
        table += lead + "all</td>" + CountCells(op.counts) + "</tr>\n";
      }
    }
  }
  *out += "<h2 id=\"operations\">Operations</h2>\n" + Scrolling(table + "</tbody></table>");
}

// The resource-limit cases with each implementation's peak memory; nothing when there are none.
void RenderResources(const Report& report, std::string* out) {
  std::string rows;
  for (const ImplementationReport& impl : report.implementations) {
    for (const CaseResult& c : impl.cases) {
      if (c.ground != Ground::kResource) continue;
      rows += "<tr><td>" + E(impl.name) + "</td><td>" + E(c.format) + "</td><td>" + E(c.id) +
              "</td><td>" + E(c.operation) + "</td><td class=\"" + html::OutcomeClass(&c) + "\">" +
              E(internal::OutcomeText(c)) + "</td><td class=\"n\">" +
              (c.peak_rss_bytes == 0 ? "not measured" : internal::ByteSize(c.peak_rss_bytes)) +
              "</td></tr>\n";
    }
  }
  if (rows.empty()) return;
  *out += "<h2 id=\"resources\">Resource limits</h2>\n" +
          Scrolling(
              "<table id=\"resources-table\"><thead><tr><th>implementation</th><th>format</th>"
              "<th>case</th><th>operation</th><th>outcome</th><th>peak memory</th></tr></thead>"
              "<tbody>\n" +
              rows + "</tbody></table>");
}

void RenderImplementations(const Report& report, std::string* out) {
  *out += "<h2 id=\"implementations\">Implementations</h2>\n";
  for (const ImplementationReport& impl : report.implementations) {
    // The homepage is shown as text, never as a link: it is untrusted (javascript: URLs).
    *out += "<h3>" + E(impl.name) + " " + E(impl.version) +
            "</h3>\n<ul><li>language: " + E(impl.language) +
            "</li><li>homepage: " + E(impl.homepage) + "</li><li>command: <code>" +
            E(impl.command) + "</code></li><li>restarts: " + std::to_string(impl.restarts) +
            "</li></ul>\n";
    if (impl.abandoned) {
      *out += "<p class=\"warn\">Abandoned " + std::string(internal::kAbandonedNote) + "</p>\n";
    }
    if (!impl.stderr_tail.empty()) {
      *out += "<details><summary>standard error (last " + std::to_string(impl.stderr_tail.size()) +
              " bytes)</summary><pre>" + E(impl.stderr_tail) + "</pre></details>\n";
    }
  }
}

constexpr std::string_view kNavigation =
    "<nav><a href=\"#cases\">Cases</a> <a href=\"#summary\">Summary</a> "
    "<a href=\"#certification\">Certification</a> <a href=\"#matrix-heading\">Matrix</a> "
    "<a href=\"#rollup\">By spec section</a> <a href=\"#slowest\">Slowest cases</a> "
    "<a href=\"#operations\">Operations</a> <a href=\"#readings\">Readings</a> "
    "<a href=\"#implementations\">Implementations</a></nav>\n";

}  // namespace

std::string ContentSecurityPolicy(std::string_view style, std::string_view script) {
  return "default-src 'none'; style-src " + HashSource(style) + "; script-src " +
         HashSource(script) + "; img-src data:; base-uri 'none'; form-action 'none'";
}

std::string ContentSecurityPolicy(std::string_view style) {
  return "default-src 'none'; style-src " + HashSource(style) +
         "; base-uri 'none'; form-action 'none'";
}

std::string RenderHtml(const Report& report) {
  const std::string_view style = ReportPageStyle(), script = internal::ReportPageScript();
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
      ContentSecurityPolicy(style, script) +
      "\">\n<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>ARCS conformance report</title>\n<style>" +
      std::string(style) + "</style>\n</head>\n<body>\n<h1>ARCS conformance report</h1>\n";
  if (!report.complete) {
    out += "<p class=\"warn\">Incomplete: " + std::string(internal::kIncompleteNote) + "</p>\n";
  }
  out += "<p class=\"run\">" + internal::RunDescription(report.run, EscapeXml) + "</p>\n" +
         std::string(kNavigation);
  // What did not pass comes first, so that the page opens on the first failure; the summaries
  // follow it.
  const html::Page page(report);
  html::RenderCases(page, &out);
  RenderSummary(report, &out);
  html::RenderMatrixAndOtherCases(page, &out);
  html::RenderRollup(page, &out);
  html::RenderSlowest(page, &out);
  RenderOperations(report, &out);
  RenderReadings(report, &out);
  RenderResources(report, &out);
  RenderImplementations(report, &out);
  out += "<script>" + std::string(script) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace arcs::report
