#include "reference/core/keyed_hash.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace arcs {
namespace {

// Function pointers, since a macro argument cannot hold a template's comma.
constexpr auto SipHash13 = &SipHash<1, 3>;
constexpr auto SipHash24 = &SipHash<2, 4>;

std::string Bytes(int count) {
  std::string bytes;
  for (int i = 0; i < count; ++i) bytes.push_back(static_cast<char>(i));
  return bytes;
}

// The test vector of the SipHash paper (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
// appendix A): SipHash-2-4, key 00 01 .. 0f, message 00 01 .. 0e.
TEST(KeyedHash, SipHash24MatchesThePapersTestVector) {
  const SipKey key{0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
  EXPECT_EQ(SipHash24(key, Bytes(15)), 0xa129ca6149be45e5ull);
}

// CPython 3.11 hashes bytes with SipHash-1-3 and, under PYTHONHASHSEED=0, a key of zeros: these
// values are what `PYTHONHASHSEED=0 python3 -c 'print(hash(M) % 2**64)'` printed for each M.
TEST(KeyedHash, SipHash13MatchesCPython) {
  const SipKey zero;
  EXPECT_EQ(SipHash13(zero, "a"), 0x407448d2b89b1813ull);
  EXPECT_EQ(SipHash13(zero, "abcdefgh"), 0x3f7b849c0b8e35eaull);
  EXPECT_EQ(SipHash13(zero, Bytes(15)), 0xf30eb725bb91c9eaull);
  EXPECT_EQ(SipHash13(zero, Bytes(16)), 0x8972188433a5c5b7ull);
  EXPECT_EQ(SipHash13(zero, "550e8400-e29b-41d4-a716-446655440000"), 0x8f008d348098d093ull);
  EXPECT_EQ(SipHash13(zero, Bytes(64)), 0x75e05fd5bbc870c6ull);
}

TEST(KeyedHash, TheProcessKeyIsDrawnOnceAndIsNotZero) {
  const SipKey& key = ProcessSipKey();
  EXPECT_TRUE(key.k0 != 0 || key.k1 != 0);
  EXPECT_EQ(&key, &ProcessSipKey());
  EXPECT_EQ(KeyedHash("id"), KeyedHash(std::string("id")));
  EXPECT_EQ(KeyedHash("id"), SipHash13(key, "id"));
}

// The largest bucket of `table`: what a lookup of its keys walks at worst.
template <typename Table>
std::size_t LargestBucket(const Table& table) {
  std::size_t largest = 0;
  for (std::size_t b = 0; b < table.bucket_count(); ++b) {
    largest = std::max(largest, table.bucket_size(b));
  }
  return largest;
}

// Keys an attacker would pick against an unkeyed integer hash (std::hash<std::uint64_t> is the
// identity, and std::unordered_map takes it modulo its bucket count, a prime): multiples of the
// bucket count all land in one bucket, so n lookups cost n^2 / 2. Under the keyed hash the same
// keys spread as random ones do: no bucket holds more than a handful.
TEST(KeyedHash, KeysCraftedAgainstAnUnkeyedHashSpread) {
  constexpr std::size_t kKeys = 5000;
  std::unordered_set<std::uint64_t> unkeyed;
  unkeyed.reserve(kKeys);
  const std::uint64_t buckets = unkeyed.bucket_count();
  std::unordered_set<std::uint64_t, KeyedBytesHash<std::uint64_t>> keyed;
  keyed.reserve(kKeys);
  ASSERT_EQ(keyed.bucket_count(), buckets);
  for (std::uint64_t i = 1; i <= kKeys; ++i) {
    unkeyed.insert(i * buckets);
    keyed.insert(i * buckets);
  }
  EXPECT_EQ(LargestBucket(unkeyed), kKeys);  // the attack, as it worked before
  EXPECT_LE(LargestBucket(keyed), 16u);
}

// Strings that differ in one place only (counters, as ids often are) spread over the table.
TEST(KeyedHash, StringTablesSpreadCounterLikeKeys) {
  KeyedStringMap<int> table;
  for (int i = 0; i < 20000; ++i) table["inv_" + std::to_string(i)] = i;
  EXPECT_LE(LargestBucket(table), 16u);
  EXPECT_EQ(table.find(std::string_view("inv_123"))->second, 123);  // transparent lookup
}

}  // namespace
}  // namespace arcs
