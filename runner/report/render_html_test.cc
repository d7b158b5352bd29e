#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "reference/core/base64.h"
#include "reference/core/sha256.h"
#include "runner/report/escape.h"
#include "runner/report/markup_check.h"
#include "runner/report/render.h"
#include "runner/report/render_html_internal.h"
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

// From the first occurrence of `from` to the next `to` after it, both included.
std::string Part(const std::string& html, const std::string& from, const std::string& to) {
  const std::size_t begin = html.find(from);
  if (begin == std::string::npos) return "";
  const std::size_t end = html.find(to, begin);
  return html.substr(begin, end == std::string::npos ? std::string::npos : end + to.size() - begin);
}

std::string HashSource(std::string_view text) {
  const Sha256Digest d = Sha256::Of(text);
  return "'sha256-" +
         base64::Encode(std::string_view(reinterpret_cast<const char*>(d.data()), d.size())) + "'";
}

// Every value of `attribute` in html, in order.
std::vector<std::string> Values(const std::string& html, const std::string& attribute) {
  const std::regex re("\\s" + attribute + "=\"([^\"]*)\"");
  std::vector<std::string> values;
  for (auto m = std::sregex_iterator(html.begin(), html.end(), re); m != std::sregex_iterator();
       ++m) {
    values.push_back((*m)[1]);
  }
  return values;
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
  // The escaped forms are there instead, evidence included.
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
  EXPECT_NE(html.find("&#39; onmouseover=&#39;alert(4)"), std::string::npos);
  EXPECT_NE(html.find("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td>error</td>"),
            std::string::npos);                                    // a finding's rule id
  EXPECT_NE(html.find("|...&lt;script&gt;|"), std::string::npos);  // binary input, as hex
  const Status well_formed = testing::CheckHtml(html);
  EXPECT_TRUE(well_formed.ok()) << well_formed.message();
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
  const std::set<std::string> allowed = {
      "lang",  "charset", "http-equiv",  "content", "name", "class",  "title", "id",
      "value", "type",    "placeholder", "href",    "open", "hidden", "label"};
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
  // Links only lead within the page, to ids the renderer made, or to a case's files in the
  // suite's vectors/ folder (relative, no way out of it).
  std::size_t files = 0;
  for (const std::string& href : Values(html, "href")) {
    const bool file = std::regex_match(href, std::regex("vectors/[A-Za-z0-9._+/-]+")) &&
                      href.find("..") == std::string::npos;
    files += file;
    EXPECT_TRUE(file || std::regex_match(href, std::regex("#[a-z][a-z0-9-]*"))) << href;
  }
  EXPECT_GT(files, 0u);
  for (const std::string& id : Values(html, "id")) {
    EXPECT_TRUE(std::regex_match(id, std::regex("[a-z][a-z0-9-]*"))) << id;
  }
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
  r.implementations[1].cases[0].evidence->outputs[0].content = "\xFF\n\xC0"s;
  const std::string html = RenderHtml(r);
  EXPECT_EQ(ValidUtf8(html), html);
  EXPECT_EQ(html.find('\0'), std::string::npos);
  EXPECT_NE(html.find("bad \xEF\xBF\xBD("), std::string::npos);
}

TEST(ReportHtml, LinksEveryMatrixCellToItsDetails) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string matrix = Part(html, "<table id=\"matrix\">", "</table>");
  EXPECT_NE(matrix.find("<th>case</th><th>operation</th><th>arcs-reference</th><th>&lt;script&gt;"
                        "alert(1)&lt;/script&gt; py.spool</th><th>format</th>"),
            std::string::npos);
  // Distinct (format, id, operation) over both implementations: 10 rows of 2 cells.
  const std::vector<std::string> cells = Values(matrix, "href");
  ASSERT_EQ(cells.size(), 20u);
  std::multiset<std::string> ids;
  for (const std::string& id : Values(html, "id")) ids.insert(id);
  for (const std::string& href : cells) EXPECT_EQ(ids.count(href.substr(1)), 1u) << href;
  for (const std::string& id : ids) EXPECT_EQ(ids.count(id), 1u) << id;
  // The reference did not run the lightbox case; the other failed it, and the tooltip says how.
  EXPECT_NE(matrix.find("<tr id=\"r0\" data-o=\"none failed.accepted\"><td>lightbox-2.1-hash</td>"
                        "<td>validate</td><td class=\"o o-none\"><a href=\"#c0-0\">not run</a></td>"
                        "<td class=\"o o-failed m-accepted\"><a href=\"#c0-1\" title=\"expected: "
                        "invalid (LB-2.1-1)\nactual: valid\">failed (accepted)</a></td><td>lightbox"
                        "</td><td>MUST</td><td>policy</td><td></td><td>LB-2.1-1</td>"
                        "</tr>"),
            std::string::npos);
  EXPECT_NE(matrix.find("data-o=\"passed errored.crash\""), std::string::npos);
  EXPECT_NE(matrix.find("<td>SHOULD</td><td>acceptable</td><td>SP-E14</td>"), std::string::npos);
  // A cell of a case nothing failed leads to its line among the other cases.
  EXPECT_NE(html.find("<li id=\"c4-1\"><code>spool-2.3-iso8601-basic</code> validate · spool — "
                      "&lt;script&gt;alert(1)&lt;/script&gt; py.spool: passed, 0.500 s; acceptable "
                      "SP-E14, fits iso8601; ARCS strict: not the reference&#39;s answer</li>"),
            std::string::npos);
}

TEST(ReportHtml, PutsWhatDidNotPassFirstWithALegend) {
  const std::string html = RenderHtml(testing::SampleReport());
  // The failures come first, before the summaries and the matrix; the legend and the filters can
  // fold away.
  EXPECT_LT(html.find("<h3 id=\"failures\">What did not pass (5 cases)</h3>"),
            html.find("<h2 id=\"summary\">"));
  EXPECT_LT(html.find("<h2 id=\"summary\">"), html.find("<table id=\"matrix\">"));
  EXPECT_NE(html.find("<details id=\"legend\" class=\"fold\"><summary>Legend"), std::string::npos);
  EXPECT_NE(html.find("<details id=\"filter-box\" class=\"fold\" open=\"\"><summary>Filters"),
            std::string::npos);
  EXPECT_LT(html.find("<select id=\"filter-outcome\">"), html.find("<div id=\"failure-list\">"));
  for (const char* legend :
       {"<span class=\"o o-failed m-accepted\">failed (accepted)</span> accepted what the vector "
        "rejects: it should reject",
        "<span class=\"o o-failed m-rejected\">failed (rejected)</span> rejected what the vector "
        "accepts: it should accept",
        "<span class=\"o o-failed m-output\">failed (output)</span>",
        "<span class=\"o o-failed m-declaration\">failed (declaration)</span>"}) {
    EXPECT_NE(html.find(legend), std::string::npos) << legend;
  }
  // The default view is the cases that did not pass; the filters offer what the report holds.
  EXPECT_NE(html.find("<select id=\"filter-outcome\"><option value=\"\">did not pass</option>"
                      "<option value=\"differ\">implementations differ</option><option "
                      "value=\"all\">all</option>"),
            std::string::npos);
  EXPECT_NE(html.find("<optgroup label=\"how it errored\"><option value=\"abandoned\">abandoned"
                      "</option><option value=\"crash\">crash</option></optgroup>"),
            std::string::npos);
  EXPECT_NE(html.find("<option value=\"&lt;script&gt;alert(1)&lt;/script&gt; py.spool\">"),
            std::string::npos);
  EXPECT_NE(html.find("<option value=\"MUST\">MUST</option><option value=\"SHOULD\">SHOULD"
                      "</option><option value=\"MAY\">MAY</option>"),
            std::string::npos);
  // One entry per case some implementation did not pass, with every implementation's answer.
  const std::string failures = Part(html, "<div id=\"failure-list\">", "<h2 id=\"summary\">");
  EXPECT_EQ(Occurrences(failures, "<details class=\"case\""), 5u);
  EXPECT_EQ(Occurrences(failures, "<section class=\"answer\""), 10u);
  // The page opens on the first, with its evidence; the others are collapsed.
  EXPECT_TRUE(
      failures.starts_with("<div id=\"failure-list\">\n<details class=\"case\" "
                           "id=\"c0\" open=\"\">"));
  EXPECT_EQ(Occurrences(failures, " open=\"\""), 1u);
  EXPECT_EQ(html.find("id=\"all-passed\""), std::string::npos);
}

TEST(ReportHtml, ShowsTheEvidenceOfAFailure) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string entry = Part(html, "<details class=\"case\" id=\"c0\"", "</details>");
  for (
      const char* part : {
          "case <code>lightbox-2.1-hash</code> of <code class=\"vector\">"
          "vectors/lightbox/manifest.json</code>",
          "<li><a href=\"#q0\">LB-2.1-1</a> §2.1 MUST: Readers MUST do what LB-2.1-1 says.",
          "<blockquote class=\"spec\"><div class=\"quote\"><cite>§3.6</cite> Each line MUST be a "
          "complete JSON object.</div>",
          "input <b>file</b>: 33 bytes, text</div>\n<pre>{&quot;type&quot;:&quot;header&quot;}\n",
          "input <b>binary</b>: 11 bytes, binary, shown in hex</div>\n<pre class=\"hex\">00000000  "
          "00 ff fe 3c 73 63 72 69  70 74 3e                 |...&lt;script&gt;|\n</pre>",
          "input <b>long</b>: 5034 bytes, text, <b>first 4096 of 5034 bytes</b>",
          "<dt>expected</dt><dd class=\"s\">invalid (LB-2.1-1)</dd><dt>actual</dt><dd "
          "class=\"s\">valid</dd>",
          "<dt>expected, not reported</dt><dd>SP-2.3-4</dd>",
          "<dt>reported</dt><dd>&lt;script&gt;alert(1)&lt;/script&gt;, SP-3.6-1 (the first 2 of "
          "60)",
          "<span class=\"del\">− the ARCS reference writes</span>",
          "<pre class=\"diff\"><span class=\"del\">- {&quot;type&quot;:&quot;header&quot;}</span>\n"
          "<span class=\"ins\">+ &lt;/style&gt;",
          "0.125 s; policy digest_case",
      }) {
    EXPECT_NE(entry.find(part), std::string::npos) << part;
  }
  // The reference's output is never called the expectation.
  EXPECT_EQ(html.find("expected output"), std::string::npos);
}

// A validate case shows what the reference finds in the same file beside what the implementation
// found: rule, line, pointer and message, each side with its verdict.
TEST(ReportHtml, ShowsTheReferencesFindingsBesideTheImplementations) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string entry = Part(html, "<details class=\"case\" id=\"c0\"", "</details>");
  const std::string sides = Part(entry, "<div class=\"sides\">", "</section>");
  ASSERT_FALSE(sides.empty()) << entry;
  const std::size_t reference = sides.find(
      "<h6>the ARCS reference (for comparison; the vector "
      "decides)</h6><p>verdict: <b>invalid</b>; 3 findings</p>");
  const std::size_t implementation = sides.find(
      "<h6>&lt;script&gt;alert(1)&lt;/script&gt; py.spool</h6><p>verdict: <b>valid</b>; "
      "60 findings (the first 2 of 60)</p>");
  ASSERT_NE(reference, std::string::npos) << sides;
  ASSERT_NE(implementation, std::string::npos) << sides;
  EXPECT_LT(reference, implementation);
  EXPECT_NE(sides.find("<th>rule</th><th>severity</th><th>line</th><th>pointer</th><th>message"),
            std::string::npos);
  EXPECT_NE(sides.find("<tr><td>SP-5.1-2</td><td>error</td><td class=\"n\">1</td><td><code>/id"
                       "</code></td><td class=\"text\">&quot;x&quot; is not a lowercase "
                       "hyphenated UUID</td></tr>"),
            std::string::npos);
  // The implementation's pointer, hostile, stays text.
  EXPECT_NE(sides.find("<code>&#39; onmouseover=&#39;alert(4)</code>"), std::string::npos);
  // An answer that never came still shows the reference's findings: the crash (c8, answer 1),
  // with no findings of its own.
  Report crashed = testing::SampleReport();
  for (CaseResult& c : crashed.implementations[1].cases) {
    if (c.error_kind != "crash") continue;
    c.evidence->findings.clear();
    c.evidence->findings_total = 0;
  }
  const std::string crash =
      Part(RenderHtml(crashed), "<section class=\"answer\" id=\"c8-1\">", "</section>");
  EXPECT_NE(crash.find("<p>The vector expects errors: SP-3.6-1; warnings: SP-2.3-4.</p>\n<div "
                       "class=\"sides\">\n<div class=\"side\"><h6>the ARCS reference"),
            std::string::npos)
      << crash;
  EXPECT_EQ(crash.find("<h6>&lt;script&gt;"), std::string::npos);
  // Without the reference's answer (a report written before it, another operation), no sides.
  Report old = testing::SampleReport();
  for (ImplementationReport& impl : old.implementations) {
    for (CaseResult& c : impl.cases) {
      if (c.evidence) c.evidence->reference_verdict.clear();
    }
  }
  const std::string without = RenderHtml(old);
  EXPECT_EQ(without.find("<div class=\"sides\">"), std::string::npos);
  EXPECT_NE(without.find("<table class=\"findings\">"), std::string::npos);
}

// The case's own input files are links; a path that is not plainly a file of vectors/ is text.
TEST(ReportHtml, LinksTheCasesOwnFiles) {
  const std::string html = RenderHtml(testing::SampleReport());
  // c2: spool-11.1-minimal, the reference's known failure.
  const std::string entry = Part(html, "<details class=\"case\" id=\"c2\"", "</details>");
  EXPECT_NE(entry.find("<p class=\"files\">The case&#39;s files (from the ARCS checkout&#39;s "
                       "root): <a class=\"file\" href=\"vectors/spool/cases/3.6-lines.spool\">"
                       "<code>vectors/spool/cases/3.6-lines.spool</code></a></p>"),
            std::string::npos)
      << entry;
  const std::string hostile = Part(html, "<details class=\"case\" id=\"c0\"", "</details>");
  EXPECT_NE(hostile.find("<code class=\"file\">vectors/spool/cases/&quot;&gt;&lt;img src=x "
                         "onerror=alert(2)&gt;</code> <code class=\"file\">javascript:alert(8)"
                         "</code> <code class=\"file\">vectors/../../etc/passwd</code>"),
            std::string::npos)
      << hostile;
  EXPECT_EQ(hostile.find("<a class=\"file\""), std::string::npos);
}

TEST(ReportHtml, RendersSpecQuotesAsTextWithTablesAsTables) {
  // A quoted table row (two rows joined by an empty cell), inline code, emphasis, an escaped pipe.
  EXPECT_EQ(html::SpecText("§6.1 (optional fields): \"| `author` | string | Creator's name | | "
                           "`tags` | array \\| null | **Free** *labels* |\""),
            "<div class=\"quote\"><cite>§6.1 (optional fields)</cite> <div class=\"scroll "
            "quote\"><table class=\"quote-table\"><tbody><tr><td><code>author</code></td><td>"
            "string</td><td>Creator&#39;s name</td></tr><tr><td><code>tags</code></td><td>array | "
            "null</td><td><strong>Free</strong> <em>labels</em></td></tr></tbody></table></div>\n"
            "</div>");
  // Parts joined with "; ", a quote holding quote marks and "; ", a heading, an errata list.
  EXPECT_EQ(html::SpecText("§3.4: \"### 3.4 SessionStats\"; §5: \"Always \"1\"; or `2`\"; errata "
                           "SP-E5, SP-E14"),
            "<div class=\"quote\"><cite>§3.4</cite> <strong>3.4 SessionStats</strong></div><div "
            "class=\"quote\"><cite>§5</cite> Always &quot;1&quot;; or <code>2</code></div><div "
            "class=\"quote\">errata SP-E5, SP-E14</div>");
  // A table's delimiter row is dropped; a text cut short ends its quote where it ends.
  EXPECT_EQ(html::SpecText("§1: \"| a | b | | --- | :-: | | c | d |\"; §2: \"cut sho…"),
            "<div class=\"quote\"><cite>§1</cite> <div class=\"scroll quote\"><table "
            "class=\"quote-table\"><tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td>"
            "</tr></tbody></table></div>\n</div><div class=\"quote\"><cite>§2</cite> cut sho…"
            "</div>");
  // Delimiters that do not pair, and globs, stay text; no link, image or tag ever forms.
  EXPECT_EQ(html::MarkdownInline("spool-3.* and a * b, `open, **bold"),
            "spool-3.* and a * b, `open, **bold");
  EXPECT_EQ(html::MarkdownInline("[x](javascript:alert(1)) ![i](y) <b>`<i>`</b> *<s>*"),
            "[x](javascript:alert(1)) ![i](y) &lt;b&gt;<code>&lt;i&gt;</code>&lt;/b&gt; "
            "<em>&lt;s&gt;</em>");
  EXPECT_EQ(html::MarkdownInline("`` a`b ``"), "<code>a`b</code>");
  // A hostile report's megabyte of delimiters is cut first: bounded work, a bounded rendering.
  std::string nested;
  while (nested.size() < (1u << 20)) nested += "*a **b `c ";
  for (const std::string& text : {nested, std::string(1u << 20, '*')}) {
    EXPECT_LT(html::SpecText(text).size(), 30 * html::kMaxTextBytes);
  }
  // The sample's quotes on the page: no raw table syntax is left.
  const std::string html = RenderHtml(testing::SampleReport());
  for (std::size_t at = html.find("<blockquote class=\"spec\">"); at != std::string::npos;
       at = html.find("<blockquote class=\"spec\">", at + 1)) {
    const std::string quote = html.substr(at, html.find("</blockquote>", at) - at);
    EXPECT_EQ(quote.find("| `"), std::string::npos) << quote;
    EXPECT_EQ(quote.find("` |"), std::string::npos) << quote;
    EXPECT_NE(quote.find("<table class=\"quote-table\">"), std::string::npos) << quote;
  }
  EXPECT_TRUE(testing::CheckHtml(html).ok());
}

TEST(ReportHtml, CapsTheEvidencePerImplementation) {
  Report r = testing::SampleReport();
  ImplementationReport& impl = r.implementations[1];
  const CaseResult failed = impl.cases[0];
  impl.cases.clear();
  for (int i = 0; i < 130; ++i) {
    CaseResult c = failed;
    c.id = "lightbox-" + std::to_string(1000 + i);
    impl.cases.push_back(c);
  }
  Recount(&impl);
  const std::string html = RenderHtml(r);
  EXPECT_EQ(Occurrences(html, "<details class=\"case\""), 130u + 1);  // and the reference's
  EXPECT_EQ(Occurrences(html, "<h5>Outputs</h5>"), 100u);
  EXPECT_EQ(Occurrences(html, "Evidence left out"), 30u);
  EXPECT_NE(html.find("Evidence is shown for the first 100 failures of &lt;script&gt;alert(1)"
                      "&lt;/script&gt; py.spool; 30 more show expected and actual only"),
            std::string::npos);
}

TEST(ReportHtml, SaysPlainlyWhenEverythingPassed) {
  Report r = testing::SampleReport();
  r.implementations.resize(1);
  std::erase_if(r.implementations[0].cases,
                [](const CaseResult& c) { return c.outcome != Outcome::kPassed; });
  Recount(&r.implementations[0]);
  const std::string html = RenderHtml(r);
  EXPECT_NE(html.find("<h3 id=\"failures\">What did not pass (0 cases)</h3>\n<p id=\"all-passed\">"
                      "All 7 cases passed. <button type=\"button\" id=\"show-all\">Show all cases"
                      "</button></p>"),
            std::string::npos);
  EXPECT_NE(html.find("Details of the 7 cases no implementation failed"), std::string::npos);
}

TEST(ReportHtml, RollsUpBySectionAndRequirement) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string sections = Part(html, "<table id=\"sections\">", "</table>");
  // Numerically: 2.3, 3.4, 3.6, 11.1, 11.4 (as text, 11.1 would come first).
  std::vector<std::size_t> at;
  for (const char* s : {"§2.3", "§3.4", "§3.6", "§11.1", "§11.4"}) at.push_back(sections.find(s));
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end())) << sections;
  EXPECT_NE(sections.find("<tr><td>spool</td><td>§11.1</td><td class=\"n\">2</td><td class=\"pct "
                          "p-none\">0/1 0%</td><td class=\"pct\">—</td></tr>"),
            std::string::npos);
  EXPECT_NE(sections.find("<tr><td>spool</td><td>§11.4</td><td class=\"n\">1</td><td class=\"pct "
                          "p-full\">1/1 100%</td><td class=\"pct p-none\">0/2 0%</td></tr>"),
            std::string::npos);
  const std::string requirements = Part(html, "<table id=\"requirements\">", "</table>");
  EXPECT_NE(requirements.find("<tr id=\"q5\"><td>spool</td><td>SP-3.4-1</td><td>§3.4</td><td>MUST"
                              "</td><td class=\"text\">Readers MUST do what SP-3.4-1 says. "),
            std::string::npos);
  EXPECT_LT(requirements.find("SP-3.6-2"), requirements.find("SP-11.1-1"));
}

TEST(ReportHtml, NaturalOrderReadsNumbers) {
  EXPECT_TRUE(html::NaturalLess("2.9", "2.10"));
  EXPECT_FALSE(html::NaturalLess("2.10", "2.9"));
  EXPECT_TRUE(html::NaturalLess("2", "2.1"));
  EXPECT_TRUE(html::NaturalLess("A.1", "B"));
  EXPECT_TRUE(html::NaturalLess("1", "01") != html::NaturalLess("01", "1"));
  EXPECT_FALSE(html::NaturalLess("3.1", "3.1"));
}

TEST(ReportHtml, ListsTheSlowestCases) {
  const std::string html = RenderHtml(testing::SampleReport());
  const std::string slowest = Part(html, "<table id=\"slowest-table\">", "</table>");
  EXPECT_EQ(Occurrences(slowest, "<tr><td>"), 17u);  // 8 and 9 cases: fewer than 10 each
  EXPECT_NE(slowest.find("<tbody>\n<tr><td>arcs-reference</td><td><a href=\"#c9-0\">"
                         "spool-limit-deep-nesting</a></td><td>validate</td><td>spool</td><td "
                         "class=\"o o-passed\">passed</td><td class=\"n\">1.000 s</td></tr>"),
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
  EXPECT_NE(html.find("<li>arcs-reference / spool: ARCS strict profile (the reference&#39;s own "
                      "choices; not part of conformance): 7 of 7 match</li>"),
            std::string::npos);
  const std::string resources = Part(html, "<table id=\"resources-table\">", "</table>");
  EXPECT_NE(resources.find("<tr><td>arcs-reference</td><td>spool</td><td>spool-limit-deep-nesting"
                           "</td><td>validate</td><td class=\"o o-passed\">passed</td><td "
                           "class=\"n\">12.0 MiB</td></tr>"),
            std::string::npos);
}

TEST(ReportHtml, SummarizesAndCertifies) {
  const std::string html = RenderHtml(testing::SampleReport());
  // Each level with how it was reached, under the rule that decides every level.
  EXPECT_NE(html.find("<h2 id=\"certification\">Certification</h2>\n<p id=\"level-rule\">A "
                      "format&#39;s level counts its MUST cases"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"cert-partial\"><b>partial 40%</b></td><td class=\"text\">2 of "
                      "5 MUST cases passed"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"cert-full\"><b>full</b></td><td class=\"text\">"),
            std::string::npos);
  EXPECT_NE(html.find("Incomplete"), std::string::npos);
  EXPECT_NE(html.find("Abandoned"), std::string::npos);
  // Every table sits in a box of its own that scrolls sideways.
  EXPECT_EQ(Occurrences(html, "<table"), Occurrences(html, "<div class=\"scroll"));
}

TEST(ReportHtml, RendersAnEmptyReport) {
  const std::string html = RenderHtml(Report{});
  EXPECT_NE(html.find("<table id=\"matrix\">"), std::string::npos);
  EXPECT_NE(html.find("<p>No case depends on an ambiguous passage.</p>"), std::string::npos);
  EXPECT_NE(html.find("<p>No case was run.</p>"), std::string::npos);
  EXPECT_EQ(html.find("<table id=\"resources-table\">"), std::string::npos);
  EXPECT_TRUE(html.ends_with("</html>\n"));
  EXPECT_TRUE(testing::CheckHtml(html).ok());
}

}  // namespace
}  // namespace arcs::report
