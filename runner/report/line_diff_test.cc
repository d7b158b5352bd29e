#include "runner/report/line_diff.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::report {
namespace {

// The diff as text: " " kept, "-" removed, "+" added, one line each.
std::string Show(std::string_view before, std::string_view after) {
  std::string out;
  for (const DiffLine& line : DiffLines(before, after)) {
    out += line.kind == DiffLine::Kind::kSame      ? ' '
           : line.kind == DiffLine::Kind::kRemoved ? '-'
                                                   : '+';
    out += line.text;
    if (!line.text.ends_with('\n')) out += "\\\n";
  }
  return out;
}

TEST(ReportLineDiff, KeepsEqualTexts) {
  EXPECT_EQ(Show("a\nb\n", "a\nb\n"), " a\n b\n");
  EXPECT_EQ(Show("", ""), "");
}

TEST(ReportLineDiff, AlignsOnTheCommonLines) {
  EXPECT_EQ(Show("a\nb\nc\nd\n", "a\nx\nc\nd\ny\n"), " a\n-b\n+x\n c\n d\n+y\n");
  EXPECT_EQ(Show("h\n1\n2\n3\nt\n", "h\n2\n3\n4\nt\n"), " h\n-1\n 2\n 3\n+4\n t\n");
  EXPECT_EQ(Show("", "a\n"), "+a\n");
  EXPECT_EQ(Show("a\n", ""), "-a\n");
}

TEST(ReportLineDiff, ListsRemovalsBeforeAdditions) {
  EXPECT_EQ(Show("a\nb\nc\n", "x\ny\nc\n"), "-a\n-b\n+x\n+y\n c\n");
}

TEST(ReportLineDiff, ShowsAMissingFinalLineBreak) {
  EXPECT_EQ(Show("a\nb\n", "a\nb"), " a\n-b\n+b\\\n");
}

TEST(ReportLineDiff, StaysBoundedOnLargeChanges) {
  std::string before, after;
  for (int i = 0; i < 2000; ++i) {
    before += "b" + std::to_string(i) + "\n";
    after += "a" + std::to_string(i) + "\n";
  }
  const std::vector<DiffLine> lines =
      DiffLines("same\n" + before + "end\n", "same\n" + after + "end\n");
  ASSERT_EQ(lines.size(), 4002u);
  EXPECT_EQ(lines[0].kind, DiffLine::Kind::kSame);
  EXPECT_EQ(lines[1].kind, DiffLine::Kind::kRemoved);
  EXPECT_EQ(lines[2000].kind, DiffLine::Kind::kRemoved);
  EXPECT_EQ(lines[2001].kind, DiffLine::Kind::kAdded);
  EXPECT_EQ(lines[4001].text, "end\n");
}

}  // namespace
}  // namespace arcs::report
