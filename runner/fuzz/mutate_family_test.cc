#include "runner/fuzz/mutate_family.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace arcs::fuzz {
namespace {

std::optional<std::string> Never(const Target&, Random&) { return std::nullopt; }
std::optional<std::string> Grow(const Target& target, Random&) {
  return std::string(target.bytes) + "++";
}
std::optional<std::string> Same(const Target& target, Random&) { return std::string(target.bytes); }

TEST(MutateFamily, TriesFamiliesThatApplyAndFit) {
  constexpr std::array<Family, 3> kFamilies = {
      {{"test:never", Never}, {"test:grow", Grow}, {"test:same", Same}}};
  Random random(4);
  int found = 0;
  for (int i = 0; i < 100; ++i) {
    // Growing to 4 bytes does not fit; the one that does is missed only when none of the
    // attempts draws it.
    if (const std::optional<Mutation> mutation = TryFamilies(kFamilies, {"ab", "", 3}, random)) {
      EXPECT_EQ(*mutation, (Mutation{"ab", "test:same"}));
      ++found;
    }
  }
  EXPECT_GT(found, 80);
  constexpr std::array<Family, 1> kNothing = {{{"test:never", Never}}};
  EXPECT_FALSE(TryFamilies(kNothing, {"ab", "", 3}, random).has_value());
  EXPECT_EQ(FindFamily(kFamilies, "test:grow"), &kFamilies[1]);
  EXPECT_EQ(FindFamily(kFamilies, "test:other"), nullptr);
}

TEST(MutateFamily, RangesAreMostlyShortAndNeverEmptyOrLong) {
  Random random(5);
  EXPECT_EQ(RangeLength(0, random), 0u);
  EXPECT_EQ(RangeLength(1, random), 1u);
  int long_ones = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::size_t length = RangeLength(1000, random);
    ASSERT_GE(length, 1u);
    ASSERT_LE(length, 1000u);
    long_ones += length > 16 ? 1 : 0;
  }
  EXPECT_GT(long_ones, 50);
  EXPECT_LT(long_ones, 250);
  EXPECT_EQ(Room(3, 10), 7u);
  EXPECT_EQ(Room(10, 3), 0u);
}

}  // namespace
}  // namespace arcs::fuzz
