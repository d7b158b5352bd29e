#include "runner/fuzz/fuzz_render.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>

#include "reference/core/base64.h"
#include "reference/core/sha256.h"
#include "runner/report/markup_check.h"
#include "runner/report/sample.h"

namespace arcs::fuzz {
namespace {

using namespace std::string_literals;
using report::testing::HostileStrings;
using report::testing::Occurrences;

constexpr std::string_view kScript = "<script>alert(1)</script>";
// Markdown markup, and text GitHub would make into links and notifications.
constexpr std::string_view kMarkdown =
    "| `code` *em* _u_ [link](javascript:alert(5)) https://evil.example/x www.evil.example "
    "b@evil.example @octocat";
constexpr std::string_view kReproduce =
    "arcs fuzz --impl 'python3 impl.py' --format spool --seed 1";

// 24 bytes that are not text (a CR, a NUL, a control), as `hexdump -C` shows them.
const std::string kBinary = "{\"a\":1}\r\n\x00\x01<script>\x1b[2J!"s;
constexpr std::string_view kBinaryDump =
    "00000000  7b 22 61 22 3a 31 7d 0d  0a 00 01 3c 73 63 72 69  |{\"a\":1}....<scri|\n"
    "00000010  70 74 3e 1b 5b 32 4a 21                           |pt>.[2J!|\n";

Finding HostileFinding() {
  Finding f;
  f.signature = "validate verdict: invalid / valid " + std::string(kScript);
  f.kind = "verdict";
  f.format = "spool";
  f.operation = "validate";
  f.origin = "spool-11.1-minimal/validate";
  f.mutations = "insert-bytes " + std::string(kMarkdown);
  f.implementation_outcome = "invalid";
  f.reference_outcome = "valid";
  f.rules = {"SP-3.5-1", std::string(kScript)};
  f.detail = std::string(kScript) + " \x1b[31mred\x07 \xE2\x80\xAE" + "evil \xC3( nul\x00!"s +
             std::string(kMarkdown);
  f.inputs = {{"file", kBinary}};
  f.found_bytes = 120;
  f.found_at = 42;
  return f;
}

// A crash on two inputs: one text with markup in it, one text cut at 4 KiB.
Finding CrashFinding() {
  Finding f;
  f.signature = "read crash: crash / valid | `sig` *";
  f.kind = "crash";
  f.format = "lightbox";
  f.operation = "read";
  f.origin = "lightbox-minimal/read";
  f.mutations = "duplicate-line";
  f.implementation_outcome = "crash";
  f.reference_outcome = "valid";
  f.inputs = {{"events", "{\"x\": \"" + std::string(kScript) + "\"}\n\t| two `x` *y*\n"},
              {"meta", std::string(10000, 'm')}};
  f.found_bytes = 20000;
  f.found_at = 7;
  return f;
}

FuzzReport HostileReport() {
  FuzzReport r;
  r.implementation = std::string(kScript) + " `impl` | *x* \xFF\x1b\x01";
  r.execs = 3000;
  r.compared = 2990;
  r.skipped = 10;
  r.seconds = 2.5;
  r.seeds = 100;
  r.loaded = 3;
  r.unreadable = 1;
  r.corpus = 150;
  for (std::size_t i = 0; i < 50; ++i)
    r.growth.emplace_back(0.05 * static_cast<double>(i), 101 + i);
  r.open_disagreements = 7;
  r.open = {{"validate verdict: valid / invalid " + std::string(kScript), "spool-policy/validate",
             std::string(kMarkdown), "a policy \x1b case", 7, 12}};
  r.findings = {HostileFinding(), CrashFinding()};
  r.restarts = 2;
  return r;
}

// The content of the first <tag>...</tag> in html.
std::string Inline(const std::string& html, const std::string& tag) {
  const std::string open = "<" + tag + ">", close = "</" + tag + ">";
  const std::size_t begin = html.find(open) + open.size();
  return html.substr(begin, html.find(close) - begin);
}

// From `from` to the next `to`, both included ("" when `from` is missing).
std::string Part(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t begin = text.find(from);
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find(to, begin + from.size());
  return text.substr(begin, end == std::string::npos ? std::string::npos : end + to.size() - begin);
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string HashSource(std::string_view text) {
  const Sha256Digest d = Sha256::Of(text);
  return "'sha256-" +
         base64::Encode(std::string_view(reinterpret_cast<const char*>(d.data()), d.size())) + "'";
}

// The attribute names of every tag in html (quoted values blanked first, so that text in them
// cannot pass for an attribute).
std::vector<std::string> AttributeNames(const std::string& html) {
  const std::regex tag(R"(<[^>]*>)"), quoted(R"("[^"]*")"), name(R"(\s([A-Za-z][A-Za-z0-9-]*)=)");
  std::vector<std::string> names;
  for (auto t = std::sregex_iterator(html.begin(), html.end(), tag); t != std::sregex_iterator();
       ++t) {
    const std::string unquoted = std::regex_replace(t->str(), quoted, "\"\"");
    for (auto a = std::sregex_iterator(unquoted.begin(), unquoted.end(), name);
         a != std::sregex_iterator(); ++a) {
      names.push_back((*a)[1]);
    }
  }
  return names;
}

TEST(FuzzHtml, IsWellFormedAndInert) {
  const std::string html = RenderFuzzHtml(HostileReport(), kReproduce);
  const Status well_formed = report::testing::CheckHtml(html);
  EXPECT_TRUE(well_formed.ok()) << well_formed.message();
  for (std::string_view hostile : HostileStrings()) {
    EXPECT_EQ(html.find(hostile), std::string::npos) << "found: " << hostile;
  }
  EXPECT_EQ(Occurrences(html, "<style"), 1u);
  EXPECT_EQ(Occurrences(html, "</style"), 1u);
  EXPECT_EQ(Lower(html).find("<script"), std::string::npos);
  const std::vector<std::string> attributes = AttributeNames(html);
  EXPECT_GT(attributes.size(), 20u);
  for (const std::string& attribute : attributes) {
    EXPECT_FALSE(Lower(attribute).starts_with("on")) << attribute;
    EXPECT_NE(attribute, "style");
    EXPECT_NE(attribute, "src");
  }
  const std::regex href(R"(href="([^"]*)\")");
  for (auto h = std::sregex_iterator(html.begin(), html.end(), href); h != std::sregex_iterator();
       ++h) {
    EXPECT_TRUE(std::regex_match((*h)[1].str(), std::regex("#[a-z][a-z0-9-]*"))) << h->str();
  }
  // The hostile text is there, as text.
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; `impl` | *x* \uFFFD\uFFFD\uFFFD"),
            std::string::npos);
  EXPECT_NE(html.find("<h1>ARCS fuzz report: &lt;script&gt;alert(1)"), std::string::npos);
}

TEST(FuzzHtml, AllowsOnlyItsOwnStyle) {
  const std::string html = RenderFuzzHtml(HostileReport(), kReproduce);
  const std::string csp =
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; style-src " +
      HashSource(Inline(html, "style")) + "; base-uri 'none'; form-action 'none'\">";
  EXPECT_NE(html.find(csp), std::string::npos) << csp;
  EXPECT_LT(html.find("Content-Security-Policy"), html.find("<style>"));
  EXPECT_EQ(Occurrences(html, "Content-Security-Policy"), 1u);
  EXPECT_EQ(html.find("script-src"), std::string::npos);
}

TEST(FuzzMarkdown, PassesTheChecksAndTheGfmParser) {
  const std::string markdown = RenderFuzzMarkdown(HostileReport(), kReproduce);
  const Status shape = report::testing::CheckMarkdown(markdown);
  EXPECT_TRUE(shape.ok()) << shape.message();
  for (std::string_view hostile : HostileStrings()) {
    EXPECT_EQ(markdown.find(hostile), std::string::npos) << "found: " << hostile;
  }
  EXPECT_NE(markdown.find("# ARCS fuzz report: &lt;script&gt;alert(1)&lt;/script&gt; \\`impl\\` "
                          "\\| \\*x\\*"),
            std::string::npos);
  // An independent parser (cmark-gfm) finds no link, raw HTML or mention in it.
  const char* source = std::getenv("ARCS_SOURCE_DIR");
  const std::string command = "/usr/bin/python3 " + std::string(source ? source : ".") +
                              "/runner/report/check_markdown_gfm.py -";
  FILE* pipe = popen(command.c_str(), "w");
  ASSERT_NE(pipe, nullptr);
  std::fwrite(markdown.data(), 1, markdown.size(), pipe);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

TEST(FuzzRender, ShowsBytesThatAreNotTextAsAHexDump) {
  const FuzzReport r = HostileReport();
  const std::string html = RenderFuzzHtml(r, kReproduce);
  std::string escaped_dump(kBinaryDump);
  escaped_dump = std::regex_replace(escaped_dump, std::regex("\""), "&quot;");
  escaped_dump = std::regex_replace(escaped_dump, std::regex("<"), "&lt;");
  escaped_dump = std::regex_replace(escaped_dump, std::regex(">"), "&gt;");
  EXPECT_NE(html.find("<div class=\"blob-h\">input <b>file</b>: 24 bytes, in hex (not plain "
                      "text)</div>\n<pre class=\"hex\">" +
                      escaped_dump + "</pre>"),
            std::string::npos);
  const std::string markdown = RenderFuzzMarkdown(r, kReproduce);
  EXPECT_NE(markdown.find("input **file**: 24 bytes, in hex (not plain text)\n\n"
                          "| offset | hex | text |\n|---|---|---|\n"
                          "| 00000000 | `7b 22 61 22 3a 31 7d 0d  0a 00 01 3c 73 63 72 69` | "
                          "{\"a\":1}....&lt;scri |\n"
                          "| 00000010 | `70 74 3e 1b 5b 32 4a 21` | pt&gt;.\\[2J! |\n"),
            std::string::npos)
      << markdown;
}

TEST(FuzzRender, ShowsTextAsText) {
  const std::string html = RenderFuzzHtml(HostileReport(), kReproduce);
  EXPECT_NE(html.find("input <b>events</b>: 50 bytes, text</div>\n<pre>{&quot;x&quot;: "
                      "&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;}\n\t| two `x` *y*\n"
                      "</pre>"),
            std::string::npos);
  const std::string markdown = RenderFuzzMarkdown(HostileReport(), kReproduce);
  EXPECT_NE(markdown.find("| line | text |\n|---|---|\n"
                          "| 1 | {\"x\": \"&lt;script&gt;alert(1)&lt;/script&gt;\"} |\n"
                          "| 2 |  \\| two \\`x\\` \\*y\\* |\n"),
            std::string::npos)
      << markdown;
}

TEST(FuzzRender, CutsAnInputAtFourKibibytes) {
  FuzzReport r = HostileReport();
  r.findings[0].inputs["file"] = std::string(5000, '\0');
  for (const std::string& rendering :
       {RenderFuzzHtml(r, kReproduce), RenderFuzzMarkdown(r, kReproduce)}) {
    EXPECT_NE(rendering.find("10000 bytes, text, first 4096 of 10000 bytes"), std::string::npos);
    EXPECT_NE(rendering.find("5000 bytes, in hex (not plain text), first 4096 of 5000 bytes"),
              std::string::npos);
    EXPECT_NE(rendering.find("00000ff0"), std::string::npos);
    EXPECT_EQ(rendering.find("00001000"), std::string::npos);
    EXPECT_EQ(rendering.find(std::string(4097, 'm')), std::string::npos);
  }
  EXPECT_NE(RenderFuzzHtml(r, kReproduce).find("<pre>" + std::string(4096, 'm') + "</pre>"),
            std::string::npos);
}

TEST(FuzzRender, ThinsTheGrowthKeepingTheFirstAndTheLast) {
  std::vector<std::pair<double, std::size_t>> growth;
  for (std::size_t i = 0; i < 345; ++i) growth.emplace_back(0.01 * static_cast<double>(i), i);
  const auto rows = ThinGrowth(growth);
  ASSERT_EQ(rows.size(), kMaxGrowthRows);
  EXPECT_EQ(rows.front(), growth.front());
  EXPECT_EQ(rows.back(), growth.back());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_GT(rows[i].second, rows[i - 1].second);
    // Evenly spaced: steps of 18 or 19 points among 345.
    EXPECT_GE(rows[i].second - rows[i - 1].second, 18u);
    EXPECT_LE(rows[i].second - rows[i - 1].second, 19u);
  }
  const std::vector<std::pair<double, std::size_t>> few(growth.begin(), growth.begin() + 20);
  EXPECT_EQ(ThinGrowth(few), few);

  FuzzReport r = HostileReport();
  r.growth = growth;
  const std::string table =
      Part(RenderFuzzHtml(r, kReproduce), "<table id=\"growth-table\">", "</table>");
  EXPECT_EQ(Occurrences(table, "<tr>"), 1 + kMaxGrowthRows);
  EXPECT_NE(table.find("<td class=\"n\">0.00</td><td class=\"n\">0</td>"), std::string::npos);
  EXPECT_NE(table.find("<td class=\"n\">3.44</td><td class=\"n\">344</td>"), std::string::npos);
  const std::string section = Part(RenderFuzzMarkdown(r, kReproduce), "## Corpus growth", "\n## ");
  EXPECT_EQ(Occurrences(section, "\n| "), 1 + kMaxGrowthRows);  // the header, the rows
  EXPECT_NE(section.find("| 0.00 | 0 |\n"), std::string::npos);
  EXPECT_NE(section.find("| 3.44 | 344 |\n"), std::string::npos);
  EXPECT_NE(section.find("20 of the 345 times the corpus grew"), std::string::npos);
}

TEST(FuzzRender, DrawsTheGrowthAsSteps) {
  FuzzReport r = HostileReport();
  r.growth = {{0.5, 110}, {0.5, 120}, {1.0, 150}};
  const std::string svg = Part(RenderFuzzHtml(r, kReproduce), "<svg ", "</svg>");
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  // The plot spans x 70..630 over 2.5 s and y 170..10 over 100..150 entries: from the seeds at
  // 0 s, along to 0.5 s, up to 120 (two points one pixel apart are one step), along to 1 s, up to
  // 150, along to the end of the run.
  EXPECT_NE(svg.find("d=\"M70,170 H182 V106 H294 V10 H630\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>the corpus from 100 seeds to 150 entries in 2.5 s</title>"),
            std::string::npos);
}

TEST(FuzzRender, SaysSoWhenThereIsNoFinding) {
  FuzzReport r = HostileReport();
  r.findings.clear();
  r.open.clear();
  r.growth.clear();
  const std::string html = RenderFuzzHtml(r, kReproduce);
  const std::string markdown = RenderFuzzMarkdown(r, kReproduce);
  for (const std::string& rendering : {html, markdown}) {
    EXPECT_NE(rendering.find("Findings (0)"), std::string::npos);
    EXPECT_NE(rendering.find("No findings: on every mutant the implementation agreed with the "
                             "ARCS reference"),
              std::string::npos);
    EXPECT_NE(rendering.find("The corpus did not grow"), std::string::npos);
  }
  EXPECT_TRUE(report::testing::CheckHtml(html).ok());
  EXPECT_TRUE(report::testing::CheckMarkdown(markdown).ok());
}

// A run that compared nothing showed nothing: never "No findings".
TEST(FuzzRender, NeverCallsARunThatComparedNothingClean) {
  FuzzReport skipped = HostileReport();
  skipped.findings.clear();
  skipped.compared = 0;
  skipped.skipped = skipped.execs;
  FuzzReport undeclared;
  undeclared.undeclared = 2564;
  FuzzReport stopped;
  stopped.interrupted = true;
  for (const auto& [r, why] : std::vector<std::pair<FuzzReport, std::string>>{
           {skipped, "the implementation skipped all 3000 cases."},
           {undeclared,
            "the hello of the implementation declares none of the selected formats and "
            "operations (2564 seeds left out)."},
           {stopped, "the run was stopped before any answer came."}}) {
    for (const std::string& rendering :
         {RenderFuzzHtml(r, kReproduce), RenderFuzzMarkdown(r, kReproduce)}) {
      EXPECT_EQ(rendering.find("No findings"), std::string::npos) << why;
      EXPECT_NE(rendering.find("Nothing compared, so nothing shown: " + why), std::string::npos)
          << rendering;
    }
  }
  EXPECT_NE(RenderFuzzMarkdown(undeclared, kReproduce)
                .find("seeds the implementation does not declare, left out: 2564; compared: 0"),
            std::string::npos);
  EXPECT_NE(RenderFuzzMarkdown(stopped, kReproduce)
                .find("The run was stopped before its budget was spent."),
            std::string::npos);
}

TEST(FuzzRender, NamesBothAnswersAndNeverTheReferencesAsExpected) {
  const std::string html = RenderFuzzHtml(HostileReport(), kReproduce);
  const std::string markdown = RenderFuzzMarkdown(HostileReport(), kReproduce);
  EXPECT_EQ(Lower(html).find("expected"), std::string::npos);
  EXPECT_EQ(Lower(markdown).find("expected"), std::string::npos);
  EXPECT_NE(html.find("<dt>the ARCS reference says</dt><dd>valid</dd>"), std::string::npos);
  EXPECT_NE(html.find("\uFFFD says</dt><dd>invalid</dd>"), std::string::npos);
  EXPECT_NE(markdown.find("- the ARCS reference says: valid\n"), std::string::npos);
  EXPECT_NE(markdown.find("- rule ids: SP-3.5-1, &lt;script&gt;alert(1)&lt;/script&gt;\n"),
            std::string::npos);
  EXPECT_NE(markdown.find("for a person to fill in from the spec text"), std::string::npos);
}

TEST(FuzzRender, ShowsTheRunAndTheReproduceCommand) {
  const std::string html = RenderFuzzHtml(HostileReport(), kReproduce);
  const std::string markdown = RenderFuzzMarkdown(HostileReport(), kReproduce);
  for (const std::string& rendering : {html, markdown}) {
    EXPECT_NE(rendering.find("3000 execs in 2.5 s (1200 execs/s); corpus: 100 seeds → 150 entries "
                             "(corpus folder: 3 entries read, 1 unreadable); compared: 2990, "
                             "skipped: 10; restarts: 2."),
              std::string::npos);
    EXPECT_NE(rendering.find("Open disagreements: 7 (disagreements with the ARCS reference on an "
                             "outcome the spec may leave to the implementation"),
              std::string::npos);
    EXPECT_NE(rendering.find("Input, minimized from 120 bytes"), std::string::npos);
    EXPECT_NE(rendering.find("Inputs, minimized from 20000 bytes"), std::string::npos);
  }
  // Each finding's command runs up to the run that found it (42 and 7). In Markdown a plain
  // command is a code span, to copy as it is.
  for (const char* runs : {" --runs 43", " --runs 8"}) {
    EXPECT_EQ(Occurrences(markdown, "Reproduce: `" + std::string(kReproduce) + runs + "`\n"), 1u);
    EXPECT_EQ(Occurrences(html,
                          "<pre>arcs fuzz --impl &#39;python3 impl.py&#39; --format spool "
                          "--seed 1" +
                              std::string(runs) + "</pre>"),
              1u);
  }
  // One that is not plain is escaped instead.
  const std::string mention = RenderFuzzMarkdown(HostileReport(), "arcs fuzz --impl 'npx @a/b'");
  EXPECT_NE(mention.find("Reproduce: arcs fuzz --impl 'npx @\u2060a/b' --runs 43\n"),
            std::string::npos);
}

TEST(FuzzRender, ShowsTheRunThatCouldNotStart) {
  FuzzReport r;
  r.error = "the implementation did not start: " + std::string(kScript);
  const std::string html = RenderFuzzHtml(r, kReproduce);
  EXPECT_NE(html.find("<p class=\"warn\">The run stopped before it began: the implementation did "
                      "not start: &lt;script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("<h1>ARCS fuzz report: (no name)</h1>"), std::string::npos);
  EXPECT_NE(RenderFuzzMarkdown(r, kReproduce)
                .find("**The run stopped before it began:** the implementation did not start: "
                      "&lt;script&gt;"),
            std::string::npos);
}

}  // namespace
}  // namespace arcs::fuzz
