#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/sample.h"

namespace arcs::report {
namespace {

using testing::Occurrences;

// Cell separators of a table row: '|' not escaped by a backslash.
std::size_t Separators(std::string_view line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') {
      ++i;
    } else if (line[i] == '|') {
      ++n;
    }
  }
  return n;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ReportMarkdown, EveryTableRowHasItsHeadersCellCount) {
  const std::string md = RenderMarkdown(testing::SampleReport());
  std::size_t header = 0, rows = 0;
  for (const std::string& line : Lines(md)) {
    if (!line.starts_with("|")) {
      header = 0;
      continue;
    }
    if (header == 0) {
      header = Separators(line);
      continue;
    }
    EXPECT_EQ(Separators(line), header) << line;
    ++rows;
  }
  EXPECT_GT(rows, 20u);
}

TEST(ReportMarkdown, OpensNoHtmlNoCodeSpanAndNoLink) {
  Report r = testing::SampleReport();
  r.implementations[1].cases[1].actual += " \xFF";
  // Readings are named by the vectors, flags by the errata: escaped all the same.
  r.implementations[1].cases[3].readings = {"<b>bold</b> `x` [l](javascript:1)", "| a |"};
  Recount(&r.implementations[1]);
  const std::string md = RenderMarkdown(r);
  std::string without_breaks = md;
  for (std::size_t at; (at = without_breaks.find("<br>")) != std::string::npos;) {
    without_breaks.erase(at, 4);
  }
  EXPECT_EQ(without_breaks.find('<'), std::string::npos);
  for (std::size_t i = 0; i < md.size(); ++i) {
    if (md[i] == '\\') {
      ++i;
      continue;
    }
    EXPECT_NE(md[i], '`') << md.substr(i, 40);
    EXPECT_NE(md[i], '[') << md.substr(i, 40);
  }
  EXPECT_EQ(ValidUtf8(md), md);
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  EXPECT_EQ(md.find('\x07'), std::string::npos);
}

// Any double a report may hold is shown whole (1e308 with "%.1f" was cut off at 31 characters).
TEST(ReportMarkdown, ShowsHugeDurationsWhole) {
  Report r = testing::SampleReport();
  r.run.seconds = 1e308;
  r.run.timeout_seconds = 86400;
  const std::string md = RenderMarkdown(r);
  EXPECT_NE(md.find(", 1e+308 s, 2 job(s), timeout 86400.0 s per case"), std::string::npos);
  EXPECT_NE(RenderHtml(r).find("1e+308 s"), std::string::npos);
}

TEST(ReportMarkdown, SummarizesCertificationOperationsAndFailures) {
  const std::string md = RenderMarkdown(testing::SampleReport());
  EXPECT_NE(md.find("| implementation | version | passed | failed | errored | skipped | known "
                    "failures | total |\n|---|---|--:|--:|--:|--:|--:|--:|\n"
                    "| arcs-reference | 0.3.0 | 7 | 0 | 0 | 0 | 1 | 8 |\n"),
            std::string::npos);
  // Each level with how it was reached, under the rule that decides every level.
  EXPECT_NE(md.find("### Certification\n\nA format's level counts its MUST cases (a case is MUST "
                    "when the strongest requirement its operation cites is a MUST): full when"),
            std::string::npos);
  EXPECT_NE(md.find("| format | certification | how | missing |\n|---|---|---|---|\n"
                    "| spool | **full** | 4 of 4 MUST cases passed"),
            std::string::npos);
  EXPECT_NE(md.find("| spool | **partial 40%** | 2 of 5 MUST cases passed"), std::string::npos);
  EXPECT_NE(md.find(" | roundtrip: not supported<br>&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(md.find("| lightbox | **none** | 0 of 1 MUST cases passed"), std::string::npos);
  EXPECT_NE(md.find(" | validate: 1 MUST case failed |"), std::string::npos);
  EXPECT_NE(md.find("| spool | validate | yes | MUST | 2 | 1 | 1 | 0 | 0 | 4 |"),
            std::string::npos);
  EXPECT_NE(md.find("| spool | roundtrip | no | all | 0 | 0 | 0 | 1 | 0 | 1 |"), std::string::npos);
  EXPECT_NE(md.find("### Cases that did not pass (1)"), std::string::npos);
  EXPECT_NE(
      md.find("| spool-11.1-minimal | spool | validate | MAY | policy invalid\\_line=reject | "
              "known\\_failure (rejected) | valid | invalid (SP-3.6-1) | — | file (33 bytes): "
              "{\"type\":\"header\"}; vector vectors/spool/manifest.json |"),
      std::string::npos);
  EXPECT_NE(md.find("### Cases that did not pass (5)"), std::string::npos);
  EXPECT_NE(md.find("errored (crash)"), std::string::npos);
  EXPECT_NE(md.find("**Incomplete:**"), std::string::npos);
  EXPECT_NE(md.find("**Abandoned**"), std::string::npos);
}

TEST(ReportMarkdown, ShowsTheGroundOfEachCaseThatDidNotPass) {
  const std::string md = RenderMarkdown(testing::SampleReport());
  EXPECT_NE(md.find("| lightbox-2.1-hash | lightbox | validate | MUST | policy digest\\_case | "
                    "failed (accepted) |"),
            std::string::npos);
  EXPECT_NE(md.find("| MUST | acceptable SP-E&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt;, "
                    "fits no reading | failed (output) |"),
            std::string::npos);
  EXPECT_NE(md.find("| spool-3.6-crlf | spool | validate | SHOULD | acceptable SP-E5 | errored "
                    "(crash) |"),
            std::string::npos);
  EXPECT_NE(md.find("| spool-3.4-bom | spool | roundtrip | MUST | required | skipped |"),
            std::string::npos);
}

TEST(ReportMarkdown, ShowsAFailuresEvidenceInOneLine) {
  Report r = testing::SampleReport();
  EXPECT_NE(RenderMarkdown(r).find("| file (33 bytes): {\"type\":\"header\"}; 2 more input(s); "
                                   "vector vectors/lightbox/manifest.json |"),
            std::string::npos);
  // Binary input shows its first bytes in hex.
  std::vector<Blob>& inputs = r.implementations[1].cases[0].evidence->inputs;
  std::rotate(inputs.begin(), inputs.begin() + 1, inputs.end());
  EXPECT_NE(RenderMarkdown(r).find("| binary (11 bytes): hex 00fffe3c7363726970743e; 2 more "
                                   "input(s); vector vectors/lightbox/manifest.json |"),
            std::string::npos);
}

TEST(ReportMarkdown, ShowsReadingsTheStrictProfileAndResourceCases) {
  const std::string md = RenderMarkdown(testing::SampleReport());
  EXPECT_EQ(Occurrences(md,
                        "### Readings of ambiguous passages\n\n| format | flag | cases | "
                        "readings taken | consistent |\n|---|---|---|---|---|\n"),
            2u);
  EXPECT_NE(md.find("| spool | SP-E14 | 2 | rfc3339 (2) | yes: rfc3339 |\n"
                    "| spool | SP-E5 | 1 | any-line-end (1), lf-or-crlf (1) | yes: any-line-end, "
                    "lf-or-crlf |\n"),
            std::string::npos);
  EXPECT_NE(md.find("| spool | SP-E14 | 2 | iso8601 (1), rfc3339 (1) | **no: takes different "
                    "readings** |\n| spool | SP-E5 | 0 | — | yes |\n| spool | "
                    "SP-E&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt; | 1 | — | **no: fits "
                    "no reading** |\n"),
            std::string::npos);
  const std::string strict =
      ": ARCS strict profile (the reference's own choices; not part of conformance): ";
  EXPECT_NE(md.find("- spool" + strict + "7 of 7 match\n"), std::string::npos);
  EXPECT_NE(md.find("- spool" + strict + "2 of 4 match\n- lightbox" + strict + "0 of 1 match\n"),
            std::string::npos);
  EXPECT_NE(md.find("| spool-limit-deep-nesting | spool | validate | passed | 12.0 MiB |"),
            std::string::npos);
  EXPECT_NE(md.find("| spool-limit-deep-nesting | spool | validate | passed | 1.5 GiB |"),
            std::string::npos);
}

TEST(ReportMarkdown, SaysSoWhenNoCaseDependsOnAnAmbiguousPassage) {
  Report r = testing::SampleReport();
  for (CaseResult& c : r.implementations[0].cases) {
    if (c.ground == Ground::kAcceptable || c.ground == Ground::kResource) {
      c.ground = Ground::kRequired;
      c.flag.clear();
      c.readings.clear();
    }
  }
  Recount(&r.implementations[0]);
  r.implementations.resize(1);
  const std::string md = RenderMarkdown(r);
  EXPECT_NE(md.find("### Readings of ambiguous passages\n\nNo case depends on an ambiguous "
                    "passage.\n"),
            std::string::npos);
  EXPECT_EQ(md.find("### Resource limits"), std::string::npos);
}

TEST(ReportMarkdown, SaysSoWhenEveryCasePassed) {
  Report r = testing::SampleReport();
  r.implementations.resize(1);
  r.implementations[0].cases.erase(r.implementations[0].cases.begin());
  EXPECT_NE(RenderMarkdown(r).find("Every case passed."), std::string::npos);
}

}  // namespace
}  // namespace arcs::report
