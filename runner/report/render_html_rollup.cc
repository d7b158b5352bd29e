// The roll-up by spec section and by requirement, and the slowest cases, on the HTML page
// (render_html_internal.h).
#include <algorithm>
#include <cstdint>
#include <set>

#include "runner/report/escape.h"
#include "runner/report/render_common.h"
#include "runner/report/render_html_internal.h"

namespace arcs::report::html {
namespace {

// The slowest cases shown per implementation.
constexpr std::size_t kSlowest = 10;

// Of the cases an implementation ran (all but the skipped ones), how many passed.
struct Tally {
  std::uint64_t passed = 0;
  std::uint64_t run = 0;
  void Add(const CaseResult& c) {
    if (c.outcome == Outcome::kSkipped) return;
    ++run;
    passed += c.outcome == Outcome::kPassed;
  }
};

// "12/12 100%", rounded down as certification percentages are, so only all passed shows 100%.
std::string PercentCell(const Tally& t) {
  if (t.run == 0) return "<td class=\"pct\">—</td>";
  const std::string kind = t.passed == t.run ? "p-full" : t.passed == 0 ? "p-none" : "p-part";
  return "<td class=\"pct " + kind + "\">" + std::to_string(t.passed) + "/" +
         std::to_string(t.run) + " " + std::to_string(t.passed * 100 / t.run) + "%</td>";
}

struct SectionLess {
  bool operator()(const std::pair<std::string, std::string>& a,
                  const std::pair<std::string, std::string>& b) const {
    if (a.first != b.first) return a.first < b.first;
    return NaturalLess(a.second, b.second);
  }
};

struct Rollup {
  std::vector<std::vector<Tally>> by_requirement;  // [requirement][implementation]
  // (format, section) -> per implementation, and how many requirements the section has.
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<Tally>, std::size_t>,
           SectionLess>
      by_section;
};

// A case counts for every requirement it cites, and once for each section among them.
Rollup Count(const Page& page) {
  const std::vector<RequirementInfo>& requirements = page.report.requirements;
  const std::size_t n = page.report.implementations.size();
  Rollup r;
  r.by_requirement.assign(requirements.size(), std::vector<Tally>(n));
  for (const RequirementInfo& q : requirements) {
    auto& [tallies, count] = r.by_section[{q.format, q.section}];
    tallies.resize(n);
    ++count;
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (const CaseResult& c : page.report.implementations[i].cases) {
      std::set<std::string> sections;
      for (const std::string& id : c.requirements) {
        auto it = page.requirement_of.find({c.format, id});
        if (it == page.requirement_of.end()) continue;
        r.by_requirement[it->second][i].Add(c);
        sections.insert(requirements[it->second].section);
      }
      for (const std::string& s : sections) r.by_section[{c.format, s}].first[i].Add(c);
    }
  }
  return r;
}

std::string ImplementationHeaders(const Page& page) {
  std::string out;
  for (const ImplementationReport& impl : page.report.implementations) {
    out += "<th>" + E(impl.name) + "</th>";
  }
  return out;
}

std::string SectionTable(const Page& page, const Rollup& r) {
  std::string table =
      "<table id=\"sections\"><thead><tr><th>format</th><th>section</th>"
      "<th>requirements</th>" +
      ImplementationHeaders(page) + "</tr></thead><tbody>\n";
  for (const auto& [key, value] : r.by_section) {
    table += "<tr><td>" + E(key.first) + "</td><td>§" + E(key.second) + "</td><td class=\"n\">" +
             std::to_string(value.second) + "</td>";
    for (const Tally& t : value.first) table += PercentCell(t);
    table += "</tr>\n";
  }
  return table + "</tbody></table>";
}

std::string RequirementTable(const Page& page, const Rollup& r) {
  const std::vector<RequirementInfo>& requirements = page.report.requirements;
  std::vector<std::size_t> order(requirements.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const RequirementInfo &x = requirements[a], &y = requirements[b];
    if (x.format != y.format) return x.format < y.format;
    if (x.section != y.section) return NaturalLess(x.section, y.section);
    return NaturalLess(x.id, y.id);
  });
  std::string table =
      "<table id=\"requirements\"><thead><tr><th>format</th><th>requirement</th>"
      "<th>section</th><th>level</th><th>text</th>" +
      ImplementationHeaders(page) + "</tr></thead><tbody>\n";
  for (std::size_t i : order) {
    const RequirementInfo& q = requirements[i];
    table += "<tr id=\"" + RequirementAnchor(i) + "\"><td>" + E(q.format) + "</td><td>" + E(q.id) +
             "</td><td>§" + E(q.section) + "</td><td>" + E(q.level) + "</td><td class=\"text\">" +
             MarkdownInline(Truncate(q.text, kMaxTextBytes)) + "</td>";
    for (const Tally& t : r.by_requirement[i]) table += PercentCell(t);
    table += "</tr>\n";
  }
  return table + "</tbody></table>";
}

}  // namespace

void RenderRollup(const Page& page, std::string* out) {
  const Rollup r = Count(page);
  *out +=
      "<h2 id=\"rollup\">By spec section and requirement</h2>\n<p>Per implementation, the "
      "cases that passed of those it ran (skipped ones are not run). A case counts for every "
      "requirement it cites, and once for each section of them.</p>\n"
      "<details id=\"by-section\" open=\"\"><summary>By spec section (" +
      std::to_string(r.by_section.size()) + " sections)</summary>\n" +
      Scrolling(SectionTable(page, r)) +
      "</details>\n<details id=\"by-requirement\"><summary>By requirement (" +
      std::to_string(page.report.requirements.size()) + " requirements)</summary>\n" +
      Scrolling(RequirementTable(page, r)) + "</details>\n";
}

void RenderSlowest(const Page& page, std::string* out) {
  std::string rows;
  for (std::size_t i = 0; i < page.report.implementations.size(); ++i) {
    std::vector<const CaseResult*> cases;
    for (const CaseResult& c : page.report.implementations[i].cases) cases.push_back(&c);
    const std::size_t shown = std::min(kSlowest, cases.size());
    std::partial_sort(cases.begin(), cases.begin() + static_cast<std::ptrdiff_t>(shown),
                      cases.end(), [](const CaseResult* a, const CaseResult* b) {
                        // Ties in the report's order (the cases are one array).
                        return a->seconds != b->seconds ? a->seconds > b->seconds : a < b;
                      });
    for (std::size_t k = 0; k < shown; ++k) {
      const CaseResult& c = *cases[k];
      rows += "<tr><td>" + E(page.report.implementations[i].name) + "</td><td><a href=\"#" +
              CellAnchor(page.RowOf(c), i) + "\">" + E(c.id) + "</a></td><td>" + E(c.operation) +
              "</td><td>" + E(c.format) + "</td><td class=\"" + OutcomeClass(&c) + "\">" +
              E(OutcomeLabel(&c)) + "</td><td class=\"n\">" + Seconds(c.seconds) + "</td></tr>\n";
    }
  }
  *out += "<h2 id=\"slowest\">Slowest cases</h2>\n";
  if (rows.empty()) {
    *out += "<p>No case was run.</p>\n";
    return;
  }
  *out += "<p>The " + std::to_string(kSlowest) +
          " slowest cases of each implementation, from sending the case to its answer.</p>\n" +
          Scrolling(
              "<table id=\"slowest-table\"><thead><tr><th>implementation</th><th>case</th>"
              "<th>operation</th><th>format</th><th>outcome</th><th>time</th></tr></thead>"
              "<tbody>\n" +
              rows + "</tbody></table>");
}

}  // namespace arcs::report::html
