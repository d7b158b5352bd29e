#include "runner/fuzz/mutate_lines.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runner/fuzz/testing/distinct_mutants.h"

namespace arcs::fuzz {
namespace {

// Every distinct mutant one line family makes of `input` (nothing when it never applies).
std::set<std::string> LineMutants(std::string_view what, std::string_view input) {
  return testing::DistinctMutants(LineFamilies(), what, {input, "", 1 << 20}, 7, 300);
}

using Set = std::set<std::string>;

TEST(MutateSplitLines, KeepsCarriageReturnsAndKnowsTheFinalNewline) {
  EXPECT_TRUE(SplitLines("").items.empty());
  const Lines one = SplitLines("\n");
  EXPECT_EQ(one.items, std::vector<std::string_view>{""});
  EXPECT_TRUE(one.final_newline);
  const Lines crlf = SplitLines("a\r\nb");
  EXPECT_EQ(crlf.items, (std::vector<std::string_view>{"a\r", "b"}));
  EXPECT_FALSE(crlf.final_newline);
  for (std::string_view text : {"", "\n", "a", "a\n", "a\r\nb", "\n\n", "a\n\nb\n"}) {
    EXPECT_EQ(JoinLines(SplitLines(text)), text);
  }
}

TEST(LineFamilies, DropRepeatAndSwapMoveWholeLines) {
  EXPECT_EQ(LineMutants("line:drop", "a\nb\nc\n"), (Set{"b\nc\n", "a\nc\n", "a\nb\n"}));
  // An unterminated last line goes alone; the line before keeps its '\n'.
  EXPECT_EQ(LineMutants("line:drop", "a\nb"), (Set{"b", "a\n"}));
  EXPECT_EQ(LineMutants("line:repeat", "a\nb\nc\n"),
            (Set{"a\na\nb\nc\n", "a\nb\nb\nc\n", "a\nb\nc\nc\n"}));
  EXPECT_EQ(LineMutants("line:swap", "a\nb\nc\n"), (Set{"b\na\nc\n", "c\nb\na\n", "a\nc\nb\n"}));
  EXPECT_EQ(LineMutants("line:swap", "a\n"), Set{});
}

TEST(LineFamilies, TruncationsCutMidLine) {
  EXPECT_EQ(LineMutants("line:truncate", "abc\nd\nef\n"),
            (Set{"a\nd\nef\n", "ab\nd\nef\n", "abc\nd\ne\n"}));
  EXPECT_EQ(LineMutants("line:truncate-last", "a\nbcd\n"), (Set{"a\nb", "a\nbc"}));
  EXPECT_EQ(LineMutants("line:truncate-last", "a\nb\n"), Set{});
}

TEST(LineFamilies, LineEndsBlankLinesAndBom) {
  EXPECT_EQ(LineMutants("line:crlf", "a\nb\r\nc"), Set{"a\r\nb\r\nc"});
  EXPECT_EQ(LineMutants("line:crlf", "a\nb\nc\n"),
            (Set{"a\r\nb\nc\n", "a\nb\r\nc\n", "a\nb\nc\r\n"}));
  EXPECT_EQ(LineMutants("line:crlf-all", "a\nb\nc\n"), Set{"a\r\nb\r\nc\r\n"});
  EXPECT_EQ(LineMutants("line:crlf-all", "a\r\nb"), Set{});
  EXPECT_EQ(LineMutants("line:blank", "a\nb\n"), (Set{"\na\nb\n", "a\n\nb\n", "a\nb\n\n"}));
  EXPECT_EQ(LineMutants("line:blank", "a\nb"), (Set{"\na\nb", "a\n\nb"}));
  const Set spaced = LineMutants("line:whitespace", "a\nb\n");
  EXPECT_GT(spaced.size(), 8u);  // 8 kinds of whitespace, 3 places
  for (const std::string& mutant : spaced) {
    Lines lines = SplitLines(mutant);
    ASSERT_EQ(lines.items.size(), 3u) << mutant;
    std::erase_if(lines.items, [](std::string_view line) {
      return !line.empty() && line.find_first_not_of(" \t\r\v\f\xC2\xA0") == line.npos;
    });
    EXPECT_EQ(JoinLines(lines), "a\nb\n") << mutant;
  }
  EXPECT_EQ(LineMutants("line:no-final-newline", "a\nb\nc\n"), Set{"a\nb\nc"});
  EXPECT_EQ(LineMutants("line:no-final-newline", "a\nb"), Set{});
  EXPECT_EQ(LineMutants("line:bom", "a\nb\nc\n"), Set{"\xEF\xBB\xBF"
                                                      "a\nb\nc\n"});
}

TEST(LineFamilies, NothingToDoOnAnEmptyInputButABom) {
  for (const Family& family : LineFamilies()) {
    const Set mutants = LineMutants(family.what, "");
    if (family.what == "line:bom") {
      EXPECT_EQ(mutants, Set{"\xEF\xBB\xBF"});
    } else {
      EXPECT_EQ(mutants, Set{}) << family.what;
    }
  }
}

}  // namespace
}  // namespace arcs::fuzz
