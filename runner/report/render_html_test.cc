#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "reference/core/base64.h"
#include "reference/core/sha256.h"
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/sample.h"

namespace arcs::report {
namespace {

using namespace std::string_literals;
using testing::Occurrences;

// The content of the only <tag>...</tag> element in html.
std::string Inline(const std::string& html, const std::string& tag) {
  const std::string open = "<" + tag + ">", close = "</" + tag + ">";
  const std::size_t begin = html.find(open) + open.size();
  return html.substr(begin, html.find(close) - begin);
}

std::string HashSource(std::string_view text) {
  const Sha256Digest d = Sha256::Of(text);
  return "'sha256-" +
         base64::Encode(std::string_view(reinterpret_cast<const char*>(d.data()), d.size())) + "'";
}

TEST(ReportHtml, LeavesNoHostileStringIntact) {
  Report r = testing::SampleReport();
  // The sample's flags hold one; readings are named by the vectors, escaped all the same.
  r.implementations[1].cases[3].readings = {std::string(testing::HostileStrings()[1]),
                                            std::string(testing::HostileStrings()[3])};
  Recount(&r.implementations[1]);
  const std::string html = RenderHtml(r);
  for (std::string_view hostile : testing::HostileStrings()) {
    EXPECT_EQ(html.find(hostile), std::string::npos) << "found: " << hostile;
  }
  // The escaped forms are there instead.
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
  EXPECT_NE(html.find("&#39; onmouseover=&#39;alert(4)"), std::string::npos);
}

TEST(ReportHtml, HasExactlyTheOwnStyleAndScript) {
  const std::string html = RenderHtml(testing::SampleReport());
  EXPECT_EQ(Occurrences(html, "<script"), 1u);
  EXPECT_EQ(Occurrences(html, "</script"), 1u);
  EXPECT_EQ(Occurrences(html, "<style"), 1u);
  EXPECT_EQ(Occurrences(html, "</style"), 1u);
  // No report text can open a tag or leave a quoted attribute value, so every tag and attribute
  // is the renderer's: only harmless attributes, no event handler, no style attribute (the CSP
  // would block it anyway), no reference to anything outside the page.
  const std::regex tag(R"(<[^>]*>)"), quoted(R"("[^"]*")"), name(R"(\s([A-Za-z][A-Za-z0-9-]*)=)");
  const std::set<std::string> allowed = {"lang",  "charset", "http-equiv", "content",
                                         "name",  "class",   "title",      "id",
                                         "value", "type",    "placeholder"};
  std::size_t attributes = 0;
  for (auto t = std::sregex_iterator(html.begin(), html.end(), tag); t != std::sregex_iterator();
       ++t) {
    const std::string unquoted = std::regex_replace(t->str(), quoted, "\"\"");
    for (auto a = std::sregex_iterator(unquoted.begin(), unquoted.end(), name);
         a != std::sregex_iterator(); ++a) {
      const std::string attribute = (*a)[1];
      EXPECT_TRUE(allowed.contains(attribute) || attribute.starts_with("data-")) << t->str();
      ++attributes;
    }
  }
  EXPECT_GT(attributes, 100u);
}

TEST(ReportHtml, ContentSecurityPolicyHashesTheInlineBlocks) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string expected = "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
                               std::string("default-src 'none'; style-src ") +
                               HashSource(Inline(html, "style")) + "; script-src " +
                               HashSource(Inline(html, "script")) +
                               "; img-src data:; base-uri 'none'; form-action 'none'\">";
  EXPECT_NE(html.find(expected), std::string::npos) << expected;
  // The policy comes before the blocks it allows.
  EXPECT_LT(html.find("Content-Security-Policy"), html.find("<style>"));
  EXPECT_EQ(Occurrences(html, "Content-Security-Policy"), 1u);
}

TEST(ReportHtml, IsValidUtf8EvenFromInvalidInput) {
  Report r = testing::SampleReport();
  r.implementations[1].name = "bad \xC3(";
  r.implementations[1].cases[0].actual = "\xFF\xFE\x00"s;
  const std::string html = RenderHtml(r);
  EXPECT_EQ(ValidUtf8(html), html);
  EXPECT_EQ(html.find('\0'), std::string::npos);
  EXPECT_NE(html.find("bad \xEF\xBF\xBD("), std::string::npos);
}

TEST(ReportHtml, ShowsAMatrixWithAColumnPerImplementation) {
  const Report r = testing::SampleReport();
  const std::string html = RenderHtml(r);
  const std::string matrix =
      html.substr(html.find("<table id=\"matrix\">"),
                  html.find("<table id=\"details\">") - html.find("<table id=\"matrix\">"));
  EXPECT_NE(matrix.find("<th>arcs-reference</th><th>&lt;script&gt;alert(1)&lt;/script&gt; "
                        "py.spool</th>"),
            std::string::npos);
  // Distinct (format, id, operation) over both implementations: 10 rows.
  EXPECT_EQ(Occurrences(matrix, "data-matrix=\"1\""), 10u);
  // The reference did not run the lightbox case; the tooltip says why the other failed.
  EXPECT_NE(matrix.find("<td>MUST</td><td>policy</td><td></td><td class=\"o o-none\">not run</td>"
                        "<td class=\"o o-failed\" title=\"expected: invalid (LB-2.1-1)\nactual: "
                        "valid\nground: policy digest_case\nARCS strict: not the reference&#39;s "
                        "answer\">failed</td>"),
            std::string::npos);
  EXPECT_NE(matrix.find("errored (crash)"), std::string::npos);
  EXPECT_NE(matrix.find("data-differ=\"1\""), std::string::npos);
  // Filters offer what the report holds.
  EXPECT_NE(html.find("<option value=\"lightbox\">lightbox</option>"), std::string::npos);
  EXPECT_NE(html.find("<option value=\"MUST\">MUST</option><option value=\"SHOULD\">SHOULD"
                      "</option><option value=\"MAY\">MAY</option>"),
            std::string::npos);
  EXPECT_NE(html.find("<select id=\"filter-ground\"><option value=\"\">all</option><option "
                      "value=\"required\">required</option><option value=\"policy\">policy</option>"
                      "<option value=\"acceptable\">acceptable</option><option "
                      "value=\"resource\">resource</option></select>"),
            std::string::npos);
}

TEST(ReportHtml, ShowsTheGroundAndFlagOfEachCase) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string matrix =
      html.substr(html.find("<table id=\"matrix\">"),
                  html.find("<table id=\"details\">") - html.find("<table id=\"matrix\">"));
  EXPECT_NE(matrix.find("<th>level</th><th>ground</th><th>flag</th>"), std::string::npos);
  EXPECT_EQ(Occurrences(matrix, "data-ground=\"acceptable\""), 4u);
  EXPECT_EQ(Occurrences(matrix, "data-ground=\"resource\""), 1u);
  EXPECT_NE(matrix.find("data-search=\"spool-2.3-iso8601-week spool validate should sp-e14 "
                        "sp-2.3-4\""),
            std::string::npos);
  EXPECT_NE(matrix.find("<td>SHOULD</td><td>acceptable</td><td>SP-E14</td>"), std::string::npos);
  EXPECT_NE(matrix.find("title=\"ground: acceptable SP-E14, fits iso8601\nARCS strict: not the "
                        "reference&#39;s answer\">passed</td>"),
            std::string::npos);
  EXPECT_NE(matrix.find("title=\"ground: resource, peak memory 1.5 GiB\">passed</td>"),
            std::string::npos);
  const std::string details = html.substr(html.find("<table id=\"details\">"));
  EXPECT_NE(details.find("<td class=\"text\">acceptable SP-E5</td><td class=\"o o-errored\">"
                         "errored (crash)</td>"),
            std::string::npos);
}

TEST(ReportHtml, ShowsReadingsTheStrictProfileAndResourceCases) {
  const std::string html = RenderHtml(testing::SampleReport());
  EXPECT_NE(html.find("<tr><td>arcs-reference</td><td>spool</td><td>SP-E5</td><td class=\"n\">1"
                      "</td><td class=\"text\">any-line-end (1), lf-or-crlf (1)</td><td>yes: "
                      "any-line-end, lf-or-crlf</td>"
                      "</tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>SP-E14</td><td class=\"n\">2</td><td class=\"text\">iso8601 (1), "
                      "rfc3339 (1)</td><td class=\"inconsistent\">no: takes different readings"
                      "</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>SP-E&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt;</td><td "
                      "class=\"n\">1</td><td class=\"text\"></td><td class=\"inconsistent\">no: "
                      "fits no reading</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<li>arcs-reference / spool: ARCS strict profile (the reference&#39;s own "
                      "choices; not part of conformance): 7 of 7 match</li>"),
            std::string::npos);
  EXPECT_NE(html.find(" py.spool / lightbox: ARCS strict profile (the reference&#39;s own choices; "
                      "not part of conformance): 0 of 1 match</li>"),
            std::string::npos);
  const std::string resources = html.substr(html.find("<table id=\"resources\">"));
  EXPECT_NE(resources.find("<tr><td>arcs-reference</td><td>spool</td><td>spool-limit-deep-nesting"
                           "</td><td>validate</td><td class=\"o o-passed\">passed</td><td "
                           "class=\"n\">12.0 MiB</td></tr>"),
            std::string::npos);
}

TEST(ReportHtml, SummarizesAndListsWhatDidNotPass) {
  const std::string html = RenderHtml(testing::SampleReport());
  EXPECT_NE(html.find("<td class=\"cert-partial\">partial 40%</td>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"cert-full\">full</td>"), std::string::npos);
  EXPECT_NE(html.find("Incomplete"), std::string::npos);
  EXPECT_NE(html.find("Abandoned"), std::string::npos);
  const std::string details = html.substr(html.find("<table id=\"details\">"));
  // Non-passing: 1 known failure in the reference, 5 in the other implementation.
  EXPECT_EQ(Occurrences(details.substr(0, details.find("</table>")), "<tr data-format"), 6u);
}

TEST(ReportHtml, RendersAnEmptyReport) {
  const std::string html = RenderHtml(Report{});
  EXPECT_NE(html.find("<table id=\"matrix\">"), std::string::npos);
  EXPECT_NE(html.find("<p>No case depends on an ambiguous passage.</p>"), std::string::npos);
  EXPECT_EQ(html.find("<table id=\"resources\">"), std::string::npos);
  EXPECT_TRUE(html.ends_with("</html>\n"));
}

}  // namespace
}  // namespace arcs::report
