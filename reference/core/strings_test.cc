#include "reference/core/strings.h"

#include <gtest/gtest.h>

namespace arcs {
namespace {

TEST(Strings, JoinPutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(Join({}), "");
  EXPECT_EQ(Join({"a"}), "a");
  EXPECT_EQ(Join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(Join({"", "b"}), ", b");  // an empty item keeps its place
  EXPECT_EQ(Join({"reject", "skip"}, " or "), "reject or skip");
}

}  // namespace
}  // namespace arcs
