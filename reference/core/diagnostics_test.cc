#include "reference/core/diagnostics.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/status.h"

namespace arcs {
namespace {

Finding Make(std::uint64_t line, std::uint64_t column, std::string pointer, std::string rule_id,
             std::string message, Severity severity = Severity::kError) {
  Finding finding;
  finding.rule_id = std::move(rule_id);
  finding.severity = severity;
  finding.location.line = line;
  finding.location.column = column;
  finding.location.pointer = std::move(pointer);
  finding.message = std::move(message);
  return finding;
}

TEST(DiagnosticsTest, Names) {
  EXPECT_EQ(LevelName(Level::kMust), "MUST");
  EXPECT_EQ(LevelName(Level::kShould), "SHOULD");
  EXPECT_EQ(LevelName(Level::kMay), "MAY");
  EXPECT_EQ(SeverityName(Severity::kError), "error");
  EXPECT_EQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_EQ(SeverityName(Severity::kNote), "note");
}

TEST(DiagnosticsTest, FindingDefaults) {
  const Finding finding;
  EXPECT_EQ(finding.level, Level::kMust);
  EXPECT_EQ(finding.severity, Severity::kError);
  EXPECT_EQ(finding.location.line, 0u);
  EXPECT_EQ(finding.location.column, 0u);
  EXPECT_TRUE(finding.location.pointer.empty());
}

TEST(DiagnosticsTest, FindingLessOrdersByEachKeyInTurn) {
  // Each pair differs first in one key, and the later keys point the other way, so only the
  // earlier key can decide.
  const std::vector<std::pair<Finding, Finding>> ordered = {
      {Make(1, 9, "/z", "Z", "z"), Make(2, 1, "", "A", "a")},      // line
      {Make(3, 1, "/z", "Z", "z"), Make(3, 2, "", "A", "a")},      // column
      {Make(3, 2, "/a", "Z", "z"), Make(3, 2, "/b", "A", "a")},    // pointer
      {Make(3, 2, "/a", "R1", "z"), Make(3, 2, "/a", "R2", "a")},  // rule id
      {Make(3, 2, "/a", "R1", "a"), Make(3, 2, "/a", "R1", "b")},  // message
  };
  for (const auto& [less, more] : ordered) {
    EXPECT_TRUE(FindingLess(less, more)) << less.location.line << " " << less.rule_id;
    EXPECT_FALSE(FindingLess(more, less)) << less.location.line << " " << less.rule_id;
  }
  // Line 0 (the file as a whole) comes first.
  EXPECT_TRUE(FindingLess(Make(0, 0, "", "Z", ""), Make(1, 1, "", "A", "")));
  // Irreflexive, and equal keys are not ordered even if level or severity differ.
  const Finding a = Make(1, 1, "", "R", "m", Severity::kError);
  const Finding b = Make(1, 1, "", "R", "m", Severity::kNote);
  EXPECT_FALSE(FindingLess(a, a));
  EXPECT_FALSE(FindingLess(a, b));
  EXPECT_FALSE(FindingLess(b, a));
}

TEST(DiagnosticsTest, CountsBySeverity) {
  Diagnostics diagnostics;
  EXPECT_FALSE(diagnostics.has_errors());
  diagnostics.Add(Make(1, 1, "", "R", "", Severity::kWarning));
  diagnostics.Add(Make(1, 1, "", "R", "", Severity::kNote));
  EXPECT_FALSE(diagnostics.has_errors());
  EXPECT_EQ(diagnostics.warning_count(), 1u);
  diagnostics.Add(Make(1, 1, "", "R", "", Severity::kError));
  diagnostics.Add(Make(2, 1, "", "R", "", Severity::kError));
  EXPECT_TRUE(diagnostics.has_errors());
  EXPECT_EQ(diagnostics.error_count(), 2u);
  EXPECT_EQ(diagnostics.warning_count(), 1u);
  EXPECT_EQ(diagnostics.dropped_count(), 0u);
  EXPECT_EQ(diagnostics.findings().size(), 4u);
}

TEST(DiagnosticsTest, ReadingsAsWarningsDemotesOnlyErrorsThatRestOnAReading) {
  Finding by_reading = Make(1, 1, "", "R", "blank line", Severity::kError);
  by_reading.reading = "X-E4";
  Diagnostics strict;
  strict.Add(by_reading);
  EXPECT_TRUE(strict.has_errors());
  Diagnostics lenient(1);  // a dropped finding is demoted and counted as a warning too
  lenient.ReadingsAsWarnings();
  lenient.Add(by_reading);
  lenient.Add(by_reading);
  EXPECT_FALSE(lenient.has_errors());
  EXPECT_EQ(lenient.warning_count(), 2u);
  EXPECT_EQ(lenient.findings()[0].severity, Severity::kWarning);
  EXPECT_EQ(lenient.findings()[0].reading, "X-E4");
  lenient.Add(Make(2, 1, "", "R", "settled by the text", Severity::kError));
  EXPECT_EQ(lenient.error_count(), 1u);
}

TEST(DiagnosticsTest, KeepsAtMostMaxFindingsButCountsAllErrors) {
  Diagnostics diagnostics(3);
  for (int i = 0; i < 10; ++i) {
    diagnostics.Add(Make(static_cast<std::uint64_t>(i + 1), 1, "", "R", "e"));
  }
  diagnostics.Add(Make(20, 1, "", "R", "w", Severity::kWarning));
  diagnostics.Add(Make(21, 1, "", "R", "n", Severity::kNote));
  ASSERT_EQ(diagnostics.findings().size(), 3u);
  // The first ones are kept, in arrival order.
  EXPECT_EQ(diagnostics.findings()[0].location.line, 1u);
  EXPECT_EQ(diagnostics.findings()[2].location.line, 3u);
  EXPECT_EQ(diagnostics.error_count(), 10u);
  EXPECT_EQ(diagnostics.warning_count(), 1u);
  EXPECT_EQ(diagnostics.dropped_count(), 9u);
  EXPECT_TRUE(diagnostics.has_errors());
}

TEST(DiagnosticsTest, ZeroMaxKeepsNothingButStillCounts) {
  Diagnostics diagnostics(0);
  diagnostics.Add(Make(1, 1, "", "R", ""));
  EXPECT_TRUE(diagnostics.findings().empty());
  EXPECT_EQ(diagnostics.dropped_count(), 1u);
  EXPECT_TRUE(diagnostics.has_errors());
}

TEST(DiagnosticsTest, DefaultLimit) {
  Diagnostics diagnostics;
  for (std::size_t i = 0; i < Diagnostics::kDefaultMaxFindings + 5; ++i) {
    diagnostics.Add(Make(i, 0, "", "R", "", Severity::kNote));
  }
  EXPECT_EQ(diagnostics.findings().size(), Diagnostics::kDefaultMaxFindings);
  EXPECT_EQ(diagnostics.dropped_count(), 5u);
  EXPECT_FALSE(diagnostics.has_errors());
}

TEST(DiagnosticsTest, SortOrdersByFindingLessAndIsStable) {
  Diagnostics diagnostics;
  diagnostics.Add(Make(2, 1, "", "B", "m"));
  diagnostics.Add(Make(1, 5, "/x", "A", "m"));
  diagnostics.Add(Make(1, 5, "", "C", "m"));
  diagnostics.Add(Make(0, 0, "", "Z", "m"));
  // Two findings equal under FindingLess, told apart by severity: arrival order is kept.
  diagnostics.Add(Make(2, 1, "", "A", "same", Severity::kWarning));
  diagnostics.Add(Make(2, 1, "", "A", "same", Severity::kNote));
  diagnostics.Sort();
  const std::vector<Finding>& f = diagnostics.findings();
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(f[0].rule_id, "Z");
  EXPECT_EQ(f[1].rule_id, "C");  // empty pointer before "/x"
  EXPECT_EQ(f[2].rule_id, "A");
  EXPECT_EQ(f[3].severity, Severity::kWarning);
  EXPECT_EQ(f[4].severity, Severity::kNote);
  EXPECT_EQ(f[5].rule_id, "B");
  for (std::size_t i = 1; i < f.size(); ++i) EXPECT_FALSE(FindingLess(f[i], f[i - 1]));
}

TEST(DiagnosticsTest, KeepOnlyNeitherKeepsNorCountsWhatItRefuses) {
  Diagnostics diagnostics(2);
  diagnostics.KeepOnly([](std::string_view rule) { return !rule.starts_with("SP-4"); });
  for (int i = 0; i < 5; ++i) diagnostics.Add(Make(1, 1, "", "SP-4.3-1", "ignored"));
  diagnostics.Add(Make(2, 1, "", "SP-4.3-1", "ignored too", Severity::kWarning));
  diagnostics.Add(Make(3, 1, "", "SP-5.1-2", "kept", Severity::kWarning));
  EXPECT_FALSE(diagnostics.has_errors());  // the ignored errors make nothing invalid
  EXPECT_EQ(diagnostics.warning_count(), 1u);
  EXPECT_EQ(diagnostics.ignored_count(), 6u);
  EXPECT_EQ(diagnostics.dropped_count(), 0u);  // nor do they take the room of kept ones
  ASSERT_EQ(diagnostics.findings().size(), 1u);
  EXPECT_EQ(diagnostics.findings()[0].rule_id, "SP-5.1-2");
}

TEST(DiagnosticsTest, RelocateChangesOnlyTheLocationAndSortsAgain) {
  Diagnostics diagnostics;
  diagnostics.Add(Make(1, 0, "/b", "R", "first"));
  diagnostics.Add(Make(1, 0, "/a", "R", "second", Severity::kWarning));
  diagnostics.Relocate([](const Finding& f, Location* location) {
    location->column = f.location.pointer == "/a" ? 20 : 5;
  });
  const std::vector<Finding>& f = diagnostics.findings();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].message, "first");
  EXPECT_EQ(f[0].location.column, 5u);
  EXPECT_EQ(f[1].location.column, 20u);
  EXPECT_EQ(f[1].severity, Severity::kWarning);
  EXPECT_EQ(diagnostics.warning_count(), 1u);
  EXPECT_EQ(diagnostics.error_count(), 1u);
}

TEST(StatusTest, OkByDefault) {
  const Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kOk);
  EXPECT_TRUE(status.message().empty());
  EXPECT_EQ(status.ToString(), "ok");
  EXPECT_TRUE(Status::Ok().ok());
}

TEST(StatusTest, CodeNames) {
  EXPECT_EQ(StatusCodeName(StatusCode::kOk), "ok");
  EXPECT_EQ(StatusCodeName(StatusCode::kInvalidArgument), "invalid-argument");
  EXPECT_EQ(StatusCodeName(StatusCode::kIoError), "io-error");
  EXPECT_EQ(StatusCodeName(StatusCode::kParseError), "parse-error");
  EXPECT_EQ(StatusCodeName(StatusCode::kLimitExceeded), "limit-exceeded");
  EXPECT_EQ(StatusCodeName(StatusCode::kUnsupported), "unsupported");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  const Status status(StatusCode::kParseError, "bad byte at 3");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kParseError);
  EXPECT_EQ(status.message(), "bad byte at 3");
  EXPECT_EQ(status.ToString(), "parse-error: bad byte at 3");
}

TEST(ResultTest, HoldsAValue) {
  Result<std::string> result(std::string("value"));
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result.status().ok());
  EXPECT_EQ(*result, "value");
  EXPECT_EQ(result->size(), 5u);
  result.value() += "!";
  EXPECT_EQ(result.value(), "value!");
  const Result<std::string>& view = result;
  EXPECT_EQ(*view, "value!");
  EXPECT_EQ(view->size(), 6u);
  const std::string moved = std::move(result).value();
  EXPECT_EQ(moved, "value!");
}

TEST(ResultTest, HoldsAStatus) {
  const Result<int> result(Status(StatusCode::kIoError, "gone"));
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kIoError);
  EXPECT_EQ(result.status().message(), "gone");
}

TEST(ResultTest, ConvertsImplicitlyFromValueAndStatus) {
  const auto half = [](int n) -> Result<int> {
    if (n % 2 != 0) return Status(StatusCode::kInvalidArgument, "odd");
    return n / 2;
  };
  EXPECT_EQ(*half(8), 4);
  EXPECT_EQ(half(3).status().code(), StatusCode::kInvalidArgument);
  const Result<bool> flag = false;  // a bool value, not a status
  ASSERT_TRUE(flag.ok());
  EXPECT_FALSE(*flag);
}

TEST(LocationOfTest, LinesAndByteColumnsAreOneBased) {
  EXPECT_EQ(LocationOf("ab\ncd", 0).line, 1u);
  EXPECT_EQ(LocationOf("ab\ncd", 0).column, 1u);
  EXPECT_EQ(LocationOf("ab\ncd", 4).line, 2u);
  EXPECT_EQ(LocationOf("ab\ncd", 4).column, 2u);
  EXPECT_EQ(LocationOf("ab", 99).column, 3u);  // past the end: just after the last byte
}

// Kept line feeds place every offset as the text itself does: before, on and after each feed, at
// the ends, past the end, in texts that start or end with one or hold several in a row, across the
// counts kept every 4 KiB, and in lines that run for thousands of bytes; whether the feeds were
// taken from the whole text or a piece at a time, of any size.
TEST(LocationOfTest, KeptLineFeedsPlaceOffsetsAsTheTextDoes) {
  std::string dense;
  std::mt19937 rng(3);
  for (int i = 0; i < 10000; ++i) dense += rng() % 5 == 0 ? '\n' : 'x';
  std::string sparse(9000, 'x');
  sparse[5] = sparse[4096] = sparse[8191] = sparse[8192] = '\n';
  std::string gaps(20000, 'x');  // counts kept for stretches of 4 KiB with no feed at all
  gaps[10] = gaps[15000] = '\n';
  for (const std::string& text :
       {std::string(), std::string("\n"), std::string("\n\n\n"), std::string("ab\ncd"),
        std::string("ab\n"), std::string("\nab"), std::string(64, '\n'), std::string(128, 'x'),
        dense, sparse, gaps}) {
    for (const std::size_t piece :
         {text.size(), std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{4099}}) {
      LineFeeds feeds;
      for (std::size_t at = 0; at < text.size(); at += piece) {
        feeds.Append(std::string_view(text).substr(at, piece));
      }
      for (std::size_t offset = 0; offset <= text.size() + 2; ++offset) {
        const Location want = LocationOf(text, offset);
        const Location got = feeds.LocationOf(offset);
        ASSERT_EQ(got.line, want.line)
            << "offset " << offset << " of " << text.size() << " in " << piece;
        ASSERT_EQ(got.column, want.column)
            << "offset " << offset << " of " << text.size() << " in " << piece;
      }
    }
  }
  EXPECT_EQ(LineFeeds("ab\ncd").LocationOf(4).line, 2u);
  EXPECT_EQ(LineFeeds("ab\ncd").LocationOf(4).column, 2u);
}

}  // namespace
}  // namespace arcs
