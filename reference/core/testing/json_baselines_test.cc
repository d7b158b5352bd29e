#include "reference/core/testing/json_baselines.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace arcs::json::testing
