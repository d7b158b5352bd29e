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
  const std::string html = RenderHtml(testing::SampleReport());
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
  // Distinct (format, id, operation) over both implementations: 7 rows.
  EXPECT_EQ(Occurrences(matrix, "data-matrix=\"1\""), 7u);
  // The reference did not run the lightbox case.
  EXPECT_NE(matrix.find("<td class=\"o o-none\">not run</td><td class=\"o o-failed\" "
                        "title=\"expected: invalid (LB-2.1-1)\nactual: valid\">failed</td>"),
            std::string::npos);
  EXPECT_NE(matrix.find("errored (crash)"), std::string::npos);
  EXPECT_NE(matrix.find("data-differ=\"1\""), std::string::npos);
  // Filters offer what the report holds.
  EXPECT_NE(html.find("<option value=\"lightbox\">lightbox</option>"), std::string::npos);
  EXPECT_NE(html.find("<option value=\"MUST\">MUST</option><option value=\"SHOULD\">SHOULD"
                      "</option><option value=\"MAY\">MAY</option>"),
            std::string::npos);
}

TEST(ReportHtml, SummarizesAndListsWhatDidNotPass) {
  const std::string html = RenderHtml(testing::SampleReport());
  EXPECT_NE(html.find("<td class=\"cert-partial\">partial 25%</td>"), std::string::npos);
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
  EXPECT_TRUE(html.ends_with("</html>\n"));
}

}  // namespace
}  // namespace arcs::report
