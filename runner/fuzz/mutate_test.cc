#include "runner/fuzz/mutate.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace arcs::fuzz {
namespace {

constexpr std::string_view kJsonLines =
    "{\"type\":\"session\",\"id\":\"s1\",\"ts\":1.50,\"tags\":[\"a\",\"b\"],"
    "\"meta\":{\"n\":null,\"ok\":true}}\n"
    "{\"type\":\"message\",\"role\":\"user\",\"text\":\"caf\\u00e9 \\\"hi\\\"\",\"n\":-3e2}\n"
    "{\"type\":\"end\",\"count\":2}\n";

constexpr std::string_view kDocument = R"({
  "model": "m-1",
  "request": {"messages": [{"role": "user", "content": "hi\n"}], "temperature": 0.7},
  "response": {"id": 12, "ok": false, "usage": null}
}
)";

// `count` mutations of `input`, one after another from one Random(seed).
std::vector<Mutation> Mutants(std::string_view input, std::uint64_t seed, int count,
                              std::size_t max_bytes = 1 << 16, std::string_view other = kDocument) {
  Random random(seed);
  std::vector<Mutation> mutations;
  for (int i = 0; i < count; ++i) {
    mutations.push_back(Mutate(input, other, max_bytes, random));
  }
  return mutations;
}

TEST(MutateRandom, TheSameSeedGivesTheSameSequenceEverywhere) {
  // xoshiro256** seeded by splitmix64, as its authors publish them (checked against an
  // independent implementation in Python).
  Random zero(0);
  EXPECT_EQ(zero.Next(), 0x99ec5f36cb75f2b4u);
  EXPECT_EQ(zero.Next(), 0xbf6e1f784956452au);
  EXPECT_EQ(zero.Next(), 0x1a5f849d4933e6e0u);
  Random answer(42);
  EXPECT_EQ(answer.Next(), 0x15780b2e0c2ec716u);
  // Bounded draws by Lemire's method, checked against the same implementation.
  Random seven(7);
  EXPECT_EQ(seven.Below(10), 7u);
  EXPECT_EQ(seven.Below(1000), 278u);
  EXPECT_EQ(seven.Below(3), 2u);
  EXPECT_EQ(seven.Below((std::uint64_t{1} << 63) + 5), 9049029322324588836u);
  EXPECT_EQ(seven.Below(std::uint64_t{1} << 40), 1089462398078u);
  EXPECT_EQ(seven.Below(6), 5u);
}

TEST(MutateRandom, BelowCoversItsRangeAndNothingElse) {
  Random random(1);
  EXPECT_EQ(random.Below(0), 0u);
  EXPECT_EQ(random.Below(1), 0u);
  EXPECT_TRUE(random.OneIn(1));
  std::vector<int> seen(7);
  for (int i = 0; i < 7000; ++i) {
    const std::uint64_t draw = random.Below(7);
    ASSERT_LT(draw, 7u);
    ++seen[draw];
  }
  for (int count : seen) EXPECT_GT(count, 800);
  EXPECT_LT(random.Below(UINT64_MAX), UINT64_MAX);
}

TEST(Mutate, TheSameSeedGivesTheSameMutants) {
  for (std::string_view input : {kJsonLines, kDocument, std::string_view("\x01\xFF garbage")}) {
    EXPECT_TRUE(Mutants(input, 5, 1000) == Mutants(input, 5, 1000));
    EXPECT_FALSE(Mutants(input, 5, 1000) == Mutants(input, 6, 1000));
  }
}

TEST(Mutate, AKnownShapeMutatesAsASniffedOne) {
  for (std::string_view input : {kJsonLines, kDocument, std::string_view("\x01\xFF garbage")}) {
    Random sniffing(8);
    Random told(8);
    for (int i = 0; i < 200; ++i) {
      ASSERT_EQ(Mutate(input, "", 1000, sniffing),
                Mutate(input, SniffShape(input), "", 1000, told));
    }
  }
}

TEST(Mutate, EveryFamilyIsReached) {
  std::set<std::string> reached;
  for (std::string_view input : {kJsonLines, kDocument}) {
    for (const Mutation& mutation : Mutants(input, 99, 20000)) reached.insert(mutation.what);
  }
  const std::vector<std::string_view> names = MutationNames();
  EXPECT_EQ(reached, std::set<std::string>(names.begin(), names.end()));
  EXPECT_EQ(names.size(), 26u);
}

// A JSON-aware mutation of a JSON Lines input edits one line: all the others stay as they were.
TEST(Mutate, JsonMutationsKeepTheOtherLines) {
  std::vector<std::string_view> all;
  for (std::size_t start = 0; start < kJsonLines.size();) {
    const std::size_t end = kJsonLines.find('\n', start) + 1;
    all.push_back(kJsonLines.substr(start, end - start));
    start = end;
  }
  ASSERT_EQ(all.size(), 3u);
  int json = 0;
  for (const Mutation& mutation : Mutants(kJsonLines, 17, 3000)) {
    if (!mutation.what.starts_with("json:")) continue;
    ++json;
    const std::string_view mutant = mutation.bytes;
    const bool kept = (mutant.ends_with(std::string(all[1]) + std::string(all[2]))) ||
                      (mutant.starts_with(all[0]) && mutant.ends_with(all[2])) ||
                      mutant.starts_with(std::string(all[0]) + std::string(all[1]));
    EXPECT_TRUE(kept) << mutation.what << ": " << mutant;
    EXPECT_NE(mutant, kJsonLines) << mutation.what;
  }
  EXPECT_GT(json, 500);
}

TEST(Mutate, NeverLongerThanMaxBytes) {
  const std::size_t size = kJsonLines.size();
  for (std::size_t max_bytes : {std::size_t{0}, std::size_t{1}, std::size_t{10}, size - 1, size,
                                size + 1, size + 100, std::size_t{1} << 20}) {
    for (const Mutation& mutation : Mutants(kJsonLines, max_bytes, 500, max_bytes)) {
      ASSERT_LE(mutation.bytes.size(), max_bytes) << mutation.what;
      if (max_bytes < size) {
        EXPECT_EQ(mutation.what, "byte:truncate");
        EXPECT_TRUE(kJsonLines.starts_with(mutation.bytes));
      }
    }
  }
  // Nothing to mutate and no room to grow: the empty input stays empty.
  EXPECT_EQ(Mutants("", 1, 10, 0)[0].bytes, "");
  for (const Mutation& mutation : Mutants("", 1, 100, 3)) EXPECT_LE(mutation.bytes.size(), 3u);
}

TEST(SniffShape, TellsLinesDocumentsAndBytesApart) {
  EXPECT_EQ(SniffShape(kJsonLines), Shape::kJsonLines);
  EXPECT_EQ(SniffShape(kDocument), Shape::kJsonDocument);
  EXPECT_EQ(SniffShape("\x89PNG\r\n\x1a\n"), Shape::kBytes);

  EXPECT_EQ(SniffShape(""), Shape::kBytes);
  EXPECT_EQ(SniffShape("\n"), Shape::kBytes);
  EXPECT_EQ(SniffShape(" \r\n\t\n"), Shape::kBytes);
  EXPECT_EQ(SniffShape("{}"), Shape::kJsonDocument);
  EXPECT_EQ(SniffShape("  \n{}"), Shape::kJsonDocument);
  EXPECT_EQ(SniffShape("{}\n"), Shape::kJsonLines);
  EXPECT_EQ(SniffShape("{}\n\n  \n"), Shape::kJsonLines);
  EXPECT_EQ(SniffShape("1\n2"), Shape::kJsonLines);
  EXPECT_EQ(SniffShape("{}\r\n[]\r\n"), Shape::kJsonLines);
  EXPECT_EQ(SniffShape("[1,\n2]\n"), Shape::kJsonDocument);
  EXPECT_EQ(SniffShape("{}\n{\n"), Shape::kBytes);
  EXPECT_EQ(SniffShape("{} {}\n"), Shape::kBytes);
  EXPECT_EQ(SniffShape("\"\xC3\x28\"\n"), Shape::kBytes);  // invalid UTF-8
  EXPECT_EQ(SniffShape("[\"\\ud800\"]"), Shape::kBytes);   // a lone surrogate
  EXPECT_EQ(SniffShape("\xEF\xBB\xBF{}\n"), Shape::kBytes);
  EXPECT_EQ(SniffShape(std::string(kMaxDepth, '[') + std::string(kMaxDepth, ']')),
            Shape::kJsonDocument);
  EXPECT_EQ(SniffShape(std::string(kMaxDepth + 1, '[') + std::string(kMaxDepth + 1, ']')),
            Shape::kBytes);
}

// A megabyte on one line: an array of small objects, the most values per byte a recording has.
std::string LongLine() {
  std::string line = "[";
  while (line.size() < (1 << 20)) line += "{\"k\":1,\"s\":\"ab\\n\"},";
  line.back() = ']';
  return line;
}

std::string RandomBytes(std::size_t size) {
  Random random(2024);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(random.Next());
  return bytes;
}

// `rounds` mutations of a hostile input sniffed once, as a fuzzing loop makes them, and a tenth as
// many sniffing it each time, each within bounds (and, run under the sanitizers, touching no memory
// it should not).
void MutateHostile(const std::string& input, int rounds = 2000) {
  const std::size_t max_bytes = input.size() + 4096;
  const std::string other = RandomBytes(1 << 10);
  const Shape shape = SniffShape(input);
  Random random(input.size());
  for (int i = 0; i < rounds; ++i) {
    ASSERT_LE(Mutate(input, shape, other, max_bytes, random).bytes.size(), max_bytes);
  }
  for (int i = 0; i < rounds / 10; ++i) {
    ASSERT_LE(Mutate(input, other, max_bytes, random).bytes.size(), max_bytes);
  }
}

TEST(MutateHostile, DeepNesting) {
  MutateHostile(std::string(100000, '['));
  MutateHostile(std::string(kMaxDepth, '[') + "{\"a\":1}" + std::string(kMaxDepth, ']') + "\n");
}

// Each mutation scans the whole megabyte to pick its place (8 ms here). With this seed, 300 of them
// draw each of the 15 families that fit the line at least 7 times (2,000 took 17 s).
TEST(MutateHostile, AMegabyteLine) { MutateHostile(LongLine(), 300); }

TEST(MutateHostile, RandomBytes) { MutateHostile(RandomBytes(1 << 16)); }

TEST(MutateHostile, UnterminatedString) { MutateHostile("{\"a\":\"" + std::string(1000, 'x')); }

TEST(MutateHostile, LoneSurrogates) {
  MutateHostile("{\"s\":\"\\ud800\",\"t\":\"\\udc00\"}\n[\"\\udc00\\ud800\"]\n");
}

// Mutants of mutants wander far from the seeds: thousands of inputs no one would write.
TEST(MutateHostile, MutantsOfMutants) {
  for (std::string_view seed : {kJsonLines, kDocument}) {
    std::string input(seed);
    Random random(3);
    for (int i = 0; i < 5000; ++i) {
      Mutation mutation = Mutate(input, kJsonLines, 4096, random);
      ASSERT_LE(mutation.bytes.size(), 4096u);
      input = mutation.bytes.empty() ? std::string(seed) : std::move(mutation.bytes);
    }
  }
}

TEST(MutateHostile, BlankLinesOnly) { MutateHostile("\n\n\n\r\n"); }

}  // namespace
}  // namespace arcs::fuzz
