// The checks the report fuzzer relies on: they catch broken markup, and pass every rendering of
// the hostile sample report.
#include "runner/report/markup_check.h"

#include <gtest/gtest.h>

#include "runner/report/render.h"
#include "runner/report/sample.h"

namespace arcs::report::testing {
namespace {

TEST(MarkupCheck, CatchesWhatInjectedTextWouldBreak) {
  EXPECT_TRUE(
      CheckXml("<?xml version=\"1.0\"?>\n<a x=\"1\" y='&amp;'><b/>t &#39; &#x41;</a>").ok());
  EXPECT_FALSE(CheckXml("<a><b></a></b>").ok());
  EXPECT_FALSE(CheckXml("<a>").ok());
  EXPECT_FALSE(CheckXml("<a>x < y</a>").ok());
  EXPECT_FALSE(CheckXml("<a>R&D</a>").ok());
  EXPECT_FALSE(CheckXml("<a x=1></a>").ok());
  EXPECT_FALSE(CheckXml("<a x=\"<\"></a>").ok());
  EXPECT_FALSE(CheckXml("<a>\x1b</a>").ok());
  EXPECT_FALSE(CheckXml("<a>\xFF</a>").ok());
  EXPECT_TRUE(CheckHtml("<!DOCTYPE html><p>a<br>b</p><script>if (a<b) x();</script>").ok());
  EXPECT_FALSE(CheckHtml("<p><script>x</p>").ok());
  EXPECT_TRUE(CheckMarkdown("| a | b |\n|---|---|\n| 1 \\| 2 | 3<br>4 |\n").ok());
  EXPECT_FALSE(CheckMarkdown("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n").ok());
  EXPECT_FALSE(CheckMarkdown("text <img src=x>\n").ok());
}

TEST(MarkupCheck, EveryRenderingOfTheHostileSampleIsWellFormed) {
  const Report report = SampleReport();
  Status s = CheckHtml(RenderHtml(report));
  EXPECT_TRUE(s.ok()) << s.message();
  s = CheckXml(RenderJunit(report));
  EXPECT_TRUE(s.ok()) << s.message();
  s = CheckMarkdown(RenderMarkdown(report));
  EXPECT_TRUE(s.ok()) << s.message();
  for (const Badge& badge : RenderBadges(report)) {
    s = CheckXml(badge.svg);
    EXPECT_TRUE(s.ok()) << badge.file_name << ": " << s.message();
  }
}

}  // namespace
}  // namespace arcs::report::testing
