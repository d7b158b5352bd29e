// RenderHtml and ContentSecurityPolicy (render.h).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "reference/core/base64.h"
#include "reference/core/sha256.h"
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/render_common.h"

namespace arcs::report {
namespace {

// The page's only style and script. They hold no report data (that lives in escaped text and
// data-* attributes), so their hashes are constants of the build and the CSP can name them.
constexpr std::string_view kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}
h1{font-size:1.6em}h2{font-size:1.3em;margin-top:1.6em}h3{font-size:1.1em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
thead th{background:#eee;position:sticky;top:0}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.o{text-align:center;white-space:nowrap}
.o-passed{background:#c6efc6}.o-failed{background:#f5b5b5}.o-errored{background:#f7cf86}
.o-skipped{background:#e2e2e2}.o-known_failure{background:#d8c6f0}.o-none{color:#999}
.cert-full{background:#c6efc6}.cert-partial{background:#faeaa0}.cert-none{background:#f5b5b5}
.filters{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;margin:.5em 0}
.text{white-space:pre-wrap;overflow-wrap:anywhere;max-width:40em}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:24em;white-space:pre-wrap}
.warn{background:#faeaa0;padding:.5em}
.inconsistent{background:#f5b5b5;font-weight:bold}
[hidden]{display:none!important}
)";

constexpr std::string_view kScript = R"(
"use strict";
(function () {
  var names = ["format", "operation", "level", "outcome", "ground"];
  var selects = names.map(function (n) { return document.getElementById("filter-" + n); });
  var search = document.getElementById("filter-text");
  var rows = document.querySelectorAll("tr[data-format]");
  var shown = document.getElementById("shown");
  function matches(d) {
    var v = selects.map(function (s) { return s.value; });
    if (v[0] && d.format !== v[0]) return false;
    if (v[1] && d.operation !== v[1]) return false;
    if (v[2] && d.level !== v[2]) return false;
    if (v[4] && d.ground !== v[4]) return false;
    var outcomes = d.outcomes.split(" ");
    if (v[3] === "differ") {
      if (d.differ !== "1") return false;
    } else if (v[3] === "not-passed") {
      if (outcomes.every(function (o) { return o === "passed"; })) return false;
    } else if (v[3] && outcomes.indexOf(v[3]) < 0) {
      return false;
    }
    var text = search.value.trim().toLowerCase();
    return !text || d.search.indexOf(text) >= 0;
  }
  function apply() {
    var visible = 0, total = 0;
    rows.forEach(function (row) {
      var ok = matches(row.dataset);
      row.hidden = !ok;
      if (row.dataset.matrix === "1") {
        total++;
        if (ok) visible++;
      }
    });
    shown.textContent = visible + " of " + total + " cases shown";
  }
  selects.concat([search]).forEach(function (c) {
    c.addEventListener("input", apply);
    c.addEventListener("change", apply);
  });
  apply();
})();
)";

// Long untrusted answers are cut so that one case cannot swamp the page.
constexpr std::size_t kMaxTextBytes = 2000;

std::string E(std::string_view text) { return EscapeXml(text); }
std::string ET(std::string_view text) { return EscapeXml(Truncate(text, kMaxTextBytes)); }

std::string HashSource(std::string_view text) {
  const Sha256Digest digest = Sha256::Of(text);
  return "'sha256-" +
         base64::Encode(
             std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size())) +
         "'";
}

std::string AsciiLower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

std::string CertificationClass(std::string_view certification) {
  if (certification == "full" || certification == "partial" || certification == "none") {
    return "cert-" + std::string(certification);
  }
  return "cert-other";
}

void CountHeaderCells(std::string* out) {
  for (const auto& [name, value] : internal::CountColumns(Counts{})) {
    *out += "<th>" + std::string(name) + "</th>";
  }
}

void CountCells(const Counts& counts, std::string* out) {
  for (const auto& [name, value] : internal::CountColumns(counts)) {
    *out += "<td class=\"n\">" + std::to_string(value) + "</td>";
  }
}

// One row of the matrix: a (format, case id, operation) and each implementation's result.
struct MatrixRow {
  std::string level;
  Ground ground = Ground::kRequired;
  std::string flag;
  std::vector<std::string> requirements;
  std::vector<const CaseResult*> results;  // one per implementation; nullptr when not run
};
using MatrixKey = std::tuple<std::string, std::string, std::string>;  // format, id, operation

std::map<MatrixKey, MatrixRow> BuildMatrix(const Report& report) {
  std::map<MatrixKey, MatrixRow> matrix;
  const std::size_t n = report.implementations.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (const CaseResult& c : report.implementations[i].cases) {
      MatrixRow& row = matrix[{c.format, c.id, c.operation}];
      if (row.results.empty()) {
        row.results.assign(n, nullptr);
        row.level = c.level;
        row.ground = c.ground;
        row.flag = c.flag;
        row.requirements = c.requirements;
      }
      if (!row.results[i]) row.results[i] = &c;
    }
  }
  return matrix;
}

// The attributes the filter script reads. `outcomes` is a space-separated set of outcome names.
// The search text holds the flag, so a flag's cases can be found by its id.
std::string FilterAttributes(const MatrixKey& key, std::string_view level, Ground ground,
                             std::string_view flag, const std::vector<std::string>& requirements,
                             std::string_view outcomes, bool differ, bool matrix) {
  const auto& [format, id, operation] = key;
  std::string search = id + " " + format + " " + operation + " " + std::string(level);
  if (!flag.empty()) search += " " + std::string(flag);
  for (const std::string& r : requirements) search += " " + r;
  std::string out = " data-format=\"" + E(format) + "\" data-operation=\"" + E(operation) +
                    "\" data-level=\"" + E(level) + "\" data-ground=\"" +
                    std::string(GroundName(ground)) + "\" data-outcomes=\"" + E(outcomes) +
                    "\" data-differ=\"" + (differ ? "1" : "0") + "\" data-search=\"" +
                    E(AsciiLower(search)) + "\"";
  if (matrix) out += " data-matrix=\"1\"";
  return out;
}

void Select(std::string_view name, const std::vector<std::pair<std::string, std::string>>& options,
            std::string* out) {
  *out += "<label>" + std::string(name) + " <select id=\"filter-" + std::string(name) +
          "\"><option value=\"\">all</option>";
  for (const auto& [value, label] : options) {
    *out += "<option value=\"" + E(value) + "\">" + E(label) + "</option>";
  }
  *out += "</select></label>\n";
}

std::vector<std::pair<std::string, std::string>> Options(const std::set<std::string>& values) {
  std::vector<std::pair<std::string, std::string>> options;
  for (const std::string& v : values) options.emplace_back(v, v);
  return options;
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
  *out += "<h2>Readings of ambiguous passages</h2>\n";
  if (rows.empty()) {
    *out += "<p>No case depends on an ambiguous passage.</p>\n";
  } else {
    *out +=
        "<table id=\"readings\"><thead><tr><th>implementation</th><th>format</th><th>flag</th>"
        "<th>cases</th><th>readings taken</th><th>consistent</th></tr></thead><tbody>\n" +
        rows + "</tbody></table>\n";
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

void RenderSummaries(const Report& report, std::string* out) {
  *out += "<h2>Summary</h2>\n<table><thead><tr><th>implementation</th><th>version</th>";
  CountHeaderCells(out);
  *out += "</tr></thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    *out += "<tr><td>" + E(impl.name) + "</td><td>" + E(impl.version) + "</td>";
    CountCells(impl.summary, out);
    *out += "</tr>\n";
  }
  *out += "</tbody></table>\n";

  *out +=
      "<h2>Certification</h2>\n<table><thead><tr><th>implementation</th><th>format</th>"
      "<th>certification</th><th>missing</th></tr></thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& f : impl.formats) {
      *out += "<tr><td>" + E(impl.name) + "</td><td>" + E(f.format) + "</td><td class=\"" +
              CertificationClass(f.certification) + "\">" + E(internal::CertificationText(f)) +
              "</td><td class=\"text\">";
      for (std::size_t i = 0; i < f.missing.size(); ++i) {
        *out += (i ? "<br>" : "") + ET(f.missing[i]);
      }
      *out += "</td></tr>\n";
    }
  }
  *out += "</tbody></table>\n";

  *out +=
      "<h2>Operations</h2>\n<table><thead><tr><th>implementation</th><th>format</th>"
      "<th>operation</th><th>supported</th><th>level</th>";
  CountHeaderCells(out);
  *out += "</tr></thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& f : impl.formats) {
      for (const OperationSummary& op : f.operations) {
        const std::string lead = "<tr><td>" + E(impl.name) + "</td><td>" + E(f.format) +
                                 "</td><td>" + E(op.operation) + "</td><td>" +
                                 (op.supported ? "yes" : "no") + "</td><td>";
        for (const std::string& level : internal::OrderedLevels(op.by_level)) {
          *out += lead + E(level) + "</td>";
          CountCells(op.by_level.at(level), out);
          *out += "</tr>\n";
        }
        *out += lead + "all</td>";
        CountCells(op.counts, out);
        *out += "</tr>\n";
      }
    }
  }
  *out += "</tbody></table>\n";

  RenderReadings(report, out);
}

void RenderFilters(const std::map<MatrixKey, MatrixRow>& matrix, std::string* out) {
  std::set<std::string> formats, operations, levels;
  std::set<Ground> grounds;
  for (const auto& [key, row] : matrix) {
    formats.insert(std::get<0>(key));
    operations.insert(std::get<2>(key));
    levels.insert(row.level);
    grounds.insert(row.ground);
  }
  std::vector<std::pair<std::string, std::string>> ground_options;
  for (Ground g : grounds) ground_options.emplace_back(GroundName(g), GroundName(g));
  std::map<std::string, Counts> level_map;
  for (const std::string& level : levels) level_map[level];
  std::vector<std::pair<std::string, std::string>> level_options;
  for (const std::string& level : internal::OrderedLevels(level_map)) {
    level_options.emplace_back(level, level);
  }
  std::vector<std::pair<std::string, std::string>> outcome_options = {
      {"not-passed", "not passed"}, {"differ", "implementations differ"}};
  for (Outcome o : {Outcome::kPassed, Outcome::kFailed, Outcome::kErrored, Outcome::kSkipped,
                    Outcome::kKnownFailure}) {
    outcome_options.emplace_back(OutcomeName(o), OutcomeName(o));
  }
  outcome_options.emplace_back("none", "not run");
  *out += "<div class=\"filters\">\n";
  Select("format", Options(formats), out);
  Select("operation", Options(operations), out);
  Select("level", level_options, out);
  Select("outcome", outcome_options, out);
  Select("ground", ground_options, out);
  *out +=
      "<label>search <input id=\"filter-text\" type=\"search\" placeholder=\"case id, "
      "requirement\"></label>\n<span id=\"shown\"></span>\n</div>\n";
}

void RenderMatrix(const Report& report, const std::map<MatrixKey, MatrixRow>& matrix,
                  std::string* out) {
  *out +=
      "<table id=\"matrix\"><thead><tr><th>format</th><th>case</th><th>operation</th>"
      "<th>level</th><th>ground</th><th>flag</th>";
  for (const ImplementationReport& impl : report.implementations) {
    *out += "<th>" + E(impl.name) + "</th>";
  }
  *out += "</tr></thead><tbody>\n";
  for (const auto& [key, row] : matrix) {
    std::set<std::string> outcomes;
    for (const CaseResult* c : row.results) {
      outcomes.insert(c ? std::string(OutcomeName(c->outcome)) : "none");
    }
    std::string outcome_list;
    for (const std::string& o : outcomes) outcome_list += (outcome_list.empty() ? "" : " ") + o;
    std::string requirements;
    for (const std::string& id : row.requirements) {
      requirements += (requirements.empty() ? "" : " ") + id;
    }
    *out += "<tr" +
            FilterAttributes(key, row.level, row.ground, row.flag, row.requirements, outcome_list,
                             outcomes.size() > 1, true) +
            "><td>" + E(std::get<0>(key)) + "</td><td title=\"requirements: " + E(requirements) +
            "\">" + E(std::get<1>(key)) + "</td><td>" + E(std::get<2>(key)) + "</td><td>" +
            E(row.level) + "</td><td>" + std::string(GroundName(row.ground)) + "</td><td>" +
            E(row.flag) + "</td>";
    for (const CaseResult* c : row.results) {
      if (!c) {
        *out += "<td class=\"o o-none\">not run</td>";
        continue;
      }
      *out += "<td class=\"o o-" + std::string(OutcomeName(c->outcome)) + "\" title=\"" +
              ET(internal::CaseDetail(*c)) + "\">" + E(internal::OutcomeText(*c)) + "</td>";
    }
    *out += "</tr>\n";
  }
  *out += "</tbody></table>\n";
}

void RenderDetails(const Report& report, const std::map<MatrixKey, MatrixRow>& matrix,
                   std::string* out) {
  *out +=
      "<h2>Cases that did not pass</h2>\n<table id=\"details\"><thead><tr>"
      "<th>implementation</th><th>format</th><th>case</th><th>operation</th><th>level</th>"
      "<th>ground</th><th>outcome</th><th>expected</th><th>actual</th><th>detail</th></tr>"
      "</thead><tbody>\n";
  for (const ImplementationReport& impl : report.implementations) {
    for (const CaseResult& c : impl.cases) {
      if (c.outcome == Outcome::kPassed) continue;
      const MatrixKey key{c.format, c.id, c.operation};
      bool differ = false;
      if (auto it = matrix.find(key); it != matrix.end()) {
        for (const CaseResult* other : it->second.results) {
          differ = differ || !other || other->outcome != c.outcome;
        }
      }
      *out += "<tr" +
              FilterAttributes(key, c.level, c.ground, c.flag, c.requirements,
                               OutcomeName(c.outcome), differ, false) +
              "><td>" + E(impl.name) + "</td><td>" + E(c.format) + "</td><td>" + E(c.id) +
              "</td><td>" + E(c.operation) + "</td><td>" + E(c.level) + "</td><td class=\"text\">" +
              ET(internal::GroundText(c)) + "</td><td class=\"o o-" +
              std::string(OutcomeName(c.outcome)) + "\">" + E(internal::OutcomeText(c)) +
              "</td><td class=\"text\">" + ET(c.expected) + "</td><td class=\"text\">" +
              ET(c.actual) + "</td><td class=\"text\">" + ET(c.message) + "</td></tr>\n";
    }
  }
  *out += "</tbody></table>\n";
}

// The resource-limit cases with each implementation's peak memory; nothing when there are none.
void RenderResources(const Report& report, std::string* out) {
  std::string rows;
  for (const ImplementationReport& impl : report.implementations) {
    for (const CaseResult& c : impl.cases) {
      if (c.ground != Ground::kResource) continue;
      rows += "<tr><td>" + E(impl.name) + "</td><td>" + E(c.format) + "</td><td>" + E(c.id) +
              "</td><td>" + E(c.operation) + "</td><td class=\"o o-" +
              std::string(OutcomeName(c.outcome)) + "\">" + E(internal::OutcomeText(c)) +
              "</td><td class=\"n\">" +
              (c.peak_rss_bytes == 0 ? "not measured" : internal::ByteSize(c.peak_rss_bytes)) +
              "</td></tr>\n";
    }
  }
  if (rows.empty()) return;
  *out +=
      "<h2>Resource limits</h2>\n<table id=\"resources\"><thead><tr><th>implementation</th>"
      "<th>format</th><th>case</th><th>operation</th><th>outcome</th><th>peak memory</th></tr>"
      "</thead><tbody>\n" +
      rows + "</tbody></table>\n";
}

void RenderImplementations(const Report& report, std::string* out) {
  *out += "<h2>Implementations</h2>\n";
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

}  // namespace

std::string ContentSecurityPolicy(std::string_view style, std::string_view script) {
  return "default-src 'none'; style-src " + HashSource(style) + "; script-src " +
         HashSource(script) + "; img-src data:; base-uri 'none'; form-action 'none'";
}

std::string RenderHtml(const Report& report) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
      ContentSecurityPolicy(kStyle, kScript) +
      "\">\n<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>ARCS conformance report</title>\n<style>" +
      std::string(kStyle) + "</style>\n</head>\n<body>\n<h1>ARCS conformance report</h1>\n";
  if (!report.complete) {
    out += "<p class=\"warn\">Incomplete: " + std::string(internal::kIncompleteNote) + "</p>\n";
  }
  out += "<p>" + internal::RunDescription(report.run, EscapeXml) + "</p>\n\n";
  RenderSummaries(report, &out);
  const std::map<MatrixKey, MatrixRow> matrix = BuildMatrix(report);
  out += "<h2>Cases</h2>\n";
  RenderFilters(matrix, &out);
  RenderMatrix(report, matrix, &out);
  RenderDetails(report, matrix, &out);
  RenderResources(report, &out);
  RenderImplementations(report, &out);
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace arcs::report
