#include "runner/fuzz/mutate_bytes.h"

#include <gtest/gtest.h>

#include <bit>
#include <string>

namespace arcs::fuzz {
namespace {

constexpr std::string_view kInput = "{\"a\":[1,2,3],\"b\":\"text\"}\n";

// Runs one family many times, checking each mutant with `check`; returns how often it applied.
template <typename Check>
int ForEachMutant(std::string_view what, const Target& target, Check check) {
  const Family* family = FindFamily(ByteFamilies(), what);
  EXPECT_NE(family, nullptr) << what;
  if (family == nullptr) return 0;
  Random random(11);
  int applied = 0;
  for (int i = 0; i < 500; ++i) {
    if (std::optional<std::string> mutant = family->mutate(target, random)) {
      ++applied;
      check(*mutant);
    }
  }
  return applied;
}

// The bytes of `input` that `mutant` changed, for mutants of the same size.
int ChangedBits(std::string_view input, std::string_view mutant) {
  int bits = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    bits += std::popcount(static_cast<unsigned>(static_cast<unsigned char>(input[i] ^ mutant[i])));
  }
  return bits;
}

TEST(ByteFamilies, FlipChangesOneBit) {
  EXPECT_EQ(ForEachMutant("byte:flip", {kInput, "", 100},
                          [](const std::string& mutant) {
                            ASSERT_EQ(mutant.size(), kInput.size());
                            EXPECT_EQ(ChangedBits(kInput, mutant), 1);
                          }),
            500);
}

TEST(ByteFamilies, InterestingSetsOneByte) {
  ForEachMutant("byte:interesting", {kInput, "", 100}, [](const std::string& mutant) {
    ASSERT_EQ(mutant.size(), kInput.size());
    int changed = 0;
    for (std::size_t i = 0; i < mutant.size(); ++i) {
      if (mutant[i] == kInput[i]) continue;
      ++changed;
      EXPECT_NE(std::string_view("\x00\xFF\x7F\x80\"\\{}\n\r", 10).find(mutant[i]),
                std::string_view::npos);
    }
    EXPECT_LE(changed, 1);
  });
}

TEST(ByteFamilies, InsertAndDeleteKeepTheRestAround) {
  ForEachMutant("byte:insert", {kInput, "", kInput.size() + 4}, [](const std::string& mutant) {
    ASSERT_GT(mutant.size(), kInput.size());
    EXPECT_LE(mutant.size(), kInput.size() + 4);
  });
  EXPECT_EQ(ForEachMutant("byte:insert", {kInput, "", kInput.size()}, [](const std::string&) {}),
            0);
  ForEachMutant("byte:delete", {kInput, "", 100}, [](const std::string& mutant) {
    ASSERT_LT(mutant.size(), kInput.size());
    std::size_t prefix = 0;
    while (prefix < mutant.size() && mutant[prefix] == kInput[prefix]) ++prefix;
    EXPECT_EQ(kInput.substr(kInput.size() - (mutant.size() - prefix)), mutant.substr(prefix));
  });
}

TEST(ByteFamilies, DuplicateAndSpliceCopyRanges) {
  ForEachMutant("byte:duplicate", {kInput, "", kInput.size() + 10}, [](const std::string& mutant) {
    ASSERT_GT(mutant.size(), kInput.size());
    EXPECT_LE(mutant.size(), kInput.size() + 10);
  });
  EXPECT_EQ(ForEachMutant("byte:splice", {kInput, "", 100}, [](const std::string&) {}), 0);
  ForEachMutant("byte:splice", {kInput, "@@@@", 100}, [](const std::string& mutant) {
    EXPECT_NE(mutant.find('@'), std::string::npos);
    EXPECT_LE(mutant.size(), kInput.size() + 4);
  });
}

TEST(ByteFamilies, TruncateKeepsAPrefix) {
  ForEachMutant("byte:truncate", {kInput, "", 100}, [](const std::string& mutant) {
    ASSERT_LT(mutant.size(), kInput.size());
    EXPECT_TRUE(kInput.starts_with(mutant));
  });
}

TEST(ByteFamilies, OnlyGrowthAppliesToAnEmptyInput) {
  for (const Family& family : ByteFamilies()) {
    const bool grows = family.what == "byte:insert" || family.what == "byte:splice";
    EXPECT_EQ(ForEachMutant(family.what, {"", "xy", 8}, [](const std::string&) {}) > 0, grows)
        << family.what;
  }
}

}  // namespace
}  // namespace arcs::fuzz
