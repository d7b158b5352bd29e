#include "reference/core/testing/json_baselines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arcs::json::testing {
namespace {

TEST(BenchmarkFigures, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(Median({}), 0);
  EXPECT_EQ(Median({3}), 3);
  EXPECT_EQ(Median({5, 1, 3}), 3);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
}

// A machine twice as slow for the last two runs: both sides of each pair slow alike, and the paired
// ratio stays what it is at any speed (a ratio of the medians would say 1.5 / 0.75 = 2 here).
TEST(BenchmarkFigures, PairedSpeedRatioCancelsADriftBothSidesShare) {
  const std::vector<double> baseline = {1.0, 1.0, 1.0, 2.0, 2.0};
  const std::vector<double> candidate = {0.5, 0.5, 0.5, 1.0, 1.0};
  EXPECT_EQ(PairedSpeedRatio(baseline, candidate), 2.0);
  EXPECT_EQ(PairedSpeedRatio({2.0, 1.0, 3.0}, {1.0, 1.0, 1.0}), 2.0);  // the median of 2, 1, 3
  EXPECT_EQ(PairedSpeedRatio({1.0, 4.0, 9.0}, {1.0, 1.0}), 2.5);       // only whole pairs count
  EXPECT_EQ(PairedSpeedRatio({}, {1.0}), 0);
}

// The baselines must take what they are timed on: every value, one a line or one in all.
TEST(BenchmarkBaselines, RapidJsonSaxNullReadsEveryValueInTurn) {
  EXPECT_TRUE(RapidJsonSaxNull(R"({"a":[1,2]})"));
  EXPECT_TRUE(RapidJsonSaxNull("{}\n[1]\n\n\"s\"\n"));
  EXPECT_TRUE(RapidJsonSaxNull(""));
  EXPECT_FALSE(RapidJsonSaxNull("{}\n{\n"));
  EXPECT_FALSE(RapidJsonSaxNull("[1,]"));
}

TEST(BenchmarkBaselines, CountLinesCountsEveryValueOfEveryLine) {
  SimdjsonOnDemandCount counter;
  const std::string text = "[1,2]\n\n{\"a\":true,\"b\":{}}\n\"s\"";
  const std::string padded = SimdjsonOnDemandCount::Padded(text);
  EXPECT_EQ(counter.CountLines(padded, text.size()), 3 + 3 + 1);
  const std::string bad = "[1]\n[1,\n";
  EXPECT_EQ(counter.CountLines(SimdjsonOnDemandCount::Padded(bad), bad.size()), -1);
  SimdjsonDomParse dom;
  EXPECT_TRUE(dom.Parse(padded, text.size(), /*lines=*/true));
  EXPECT_FALSE(dom.Parse(padded, text.size(), /*lines=*/false));  // not one document
  EXPECT_FALSE(dom.Parse(SimdjsonOnDemandCount::Padded(bad), bad.size(), /*lines=*/true));
  const std::string huge = "[18446744073709551616]\n{\"n\":-99999999999999999999}\n[1e999]";
  EXPECT_TRUE(dom.Parse(SimdjsonOnDemandCount::Padded(huge), huge.size(), /*lines=*/true));
  CeilingTimes times;
  ASSERT_TRUE(TimeCeiling(text, /*lines=*/true, 2, &times));
  EXPECT_EQ(times.baseline_seconds.size(), 2u);
  EXPECT_EQ(times.ceiling_seconds.size(), 2u);
  EXPECT_EQ(times.dom_seconds.size(), 2u);
  EXPECT_FALSE(TimeCeiling(text, /*lines=*/false, 1, &times));  // not one document
}

}  // namespace
}  // namespace arcs::json::testing
