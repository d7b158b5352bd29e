#include <gtest/gtest.h>

#include "reference/core/testing/scratch_dir.h"
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/sample.h"

namespace arcs::report {
namespace {

TEST(ReportBadges, OnePerImplementationAndFormat) {
  const std::vector<Badge> badges = RenderBadges(testing::SampleReport());
  ASSERT_EQ(badges.size(), 3u);
  EXPECT_EQ(badges[0].file_name, "arcs-reference-spool.svg");
  EXPECT_EQ(badges[1].file_name, "script-alert-1-script-py-spool-spool.svg");
  EXPECT_EQ(badges[2].file_name, "script-alert-1-script-py-spool-lightbox.svg");
}

TEST(ReportBadges, ShowTheCertificationInItsColour) {
  const std::vector<Badge> badges = RenderBadges(testing::SampleReport());
  EXPECT_NE(badges[0].svg.find(">full</text>"), std::string::npos);
  EXPECT_NE(badges[0].svg.find("fill=\"#4c1\""), std::string::npos);
  EXPECT_NE(badges[0].svg.find(">spool</text>"), std::string::npos);
  EXPECT_NE(badges[1].svg.find(">partial 40%</text>"), std::string::npos);
  EXPECT_NE(badges[1].svg.find("fill=\"#dfb317\""), std::string::npos);
  EXPECT_NE(badges[2].svg.find(">none</text>"), std::string::npos);
  EXPECT_NE(badges[2].svg.find("fill=\"#e05d44\""), std::string::npos);
  for (const Badge& b : badges) {
    EXPECT_TRUE(b.svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""));
    EXPECT_TRUE(b.svg.ends_with("</svg>\n"));
  }
}

TEST(ReportBadges, EscapeUntrustedNames) {
  Report r = testing::SampleReport();
  r.implementations[1].formats[0].format = "<b>\"x\"</b>";
  for (const Badge& b : RenderBadges(r)) {
    for (std::string_view hostile : testing::HostileStrings()) {
      EXPECT_EQ(b.svg.find(hostile), std::string::npos) << hostile;
    }
    EXPECT_EQ(b.svg.find("<b>"), std::string::npos);
  }
  EXPECT_NE(RenderBadges(r)[1].svg.find("&lt;b&gt;&quot;x&quot;&lt;/b&gt;"), std::string::npos);
}

TEST(ReportBadges, FileNamesStayUniqueAndInsideTheDirectory) {
  Report r = testing::SampleReport();
  r.implementations[1].name = "Arcs Reference";  // slugs like the first one
  r.implementations[1].formats[1].format = "../../spool";
  const std::vector<Badge> badges = RenderBadges(r);
  EXPECT_EQ(badges[0].file_name, "arcs-reference-spool.svg");
  EXPECT_EQ(badges[1].file_name, "arcs-reference-spool-2.svg");
  EXPECT_EQ(badges[2].file_name, "arcs-reference-spool-3.svg");
}

// A 300-character implementation name once failed with "File name too long" (issue #8).
TEST(ReportBadges, LongNamesMakeShortDistinctFileNamesThatCanBeWritten) {
  Report r = testing::SampleReport();
  r.implementations[0].name = std::string(300, 'a');
  r.implementations[1].name = std::string(299, 'a') + "b";
  const std::vector<Badge> badges = RenderBadges(r);
  EXPECT_LE(badges[0].file_name.size(), 2 * kMaxSlugBytes + 5);
  EXPECT_NE(badges[0].file_name.substr(0, 64), badges[1].file_name.substr(0, 64));
  const arcs::testing::ScratchDir dir("long-badges");
  ASSERT_TRUE(WriteBadges(r, dir.path()).ok());
}

}  // namespace
}  // namespace arcs::report
