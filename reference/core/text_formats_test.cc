#include "reference/core/text_formats.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace arcs {
namespace {

TEST(Uuid, LowercaseHyphenatedOnly) {
  auto id = ParseLowercaseUuid("018d5f2c-8a3b-7def-9123-456789abcdef");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ((*id)[0], 0x01);
  EXPECT_EQ((*id)[15], 0xef);
  EXPECT_TRUE(ParseLowercaseUuid("00000000-0000-0000-0000-000000000000"));
  for (const char* bad :
       {"018D5F2C-8A3B-7DEF-9123-456789ABCDEF", "018d5f2c8a3b7def9123456789abcdef",
        "018d5f2c-8a3b-7def-9123-456789abcde", "{018d5f2c-8a3b-7def-9123-456789abcdef}",
        "018d5f2c-8a3b-7def-9123_456789abcdef", "018d5f2c-8a3b-7def-9123-456789abcdeg", ""}) {
    EXPECT_FALSE(ParseLowercaseUuid(bad)) << bad;
  }
}

// Every byte value at every position: only lowercase hex digits, and '-' at 8, 13, 18 and 23.
TEST(Uuid, EveryByteAtEveryPosition) {
  const std::string base = "0123abcd-ef01-2345-6789-abcdef012345";
  for (std::size_t pos = 0; pos < base.size(); ++pos) {
    const bool hyphen = pos == 8 || pos == 13 || pos == 18 || pos == 23;
    for (int b = 0; b < 256; ++b) {
      std::string text = base;
      text[pos] = static_cast<char>(b);
      const bool digit = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f');
      std::optional<Uuid> id = ParseLowercaseUuid(text);
      ASSERT_EQ(id.has_value(), hyphen ? b == '-' : digit) << "byte " << b << " at " << pos;
      if (!id || hyphen) continue;
      const std::size_t hex_index = pos - (pos > 8) - (pos > 13) - (pos > 18) - (pos > 23);
      const int value = b <= '9' ? b - '0' : b - 'a' + 10;
      const std::uint8_t byte = (*id)[hex_index / 2];
      EXPECT_EQ(hex_index % 2 ? (byte & 0x0F) : (byte >> 4), value) << "at " << pos;
    }
  }
}

// Random ids written as text (each byte as two lowercase digits, by snprintf) read back whole: the
// word-wide reader keeps every digit's nibble in its byte, with no carry into its neighbours.
TEST(Uuid, ReadsBackEveryByteOfRandomIds) {
  std::mt19937_64 rng(11);
  for (int n = 0; n < 20000; ++n) {
    Uuid id{};
    for (std::uint8_t& byte : id) byte = static_cast<std::uint8_t>(rng());
    char text[37];
    std::snprintf(text, sizeof text,
                  "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", id[0],
                  id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11],
                  id[12], id[13], id[14], id[15]);
    const std::optional<Uuid> read = ParseLowercaseUuid(text);
    ASSERT_TRUE(read.has_value()) << text;
    ASSERT_EQ(*read, id) << text;
  }
}

// Avalanche: flipping any one of an id's 128 bits flips each of the hash's 64 bits about half the
// time, over ids both random and counter-style (nil but for the last digits, where weak hashes
// fail). The id index takes its slot and its tag from different ends of the hash, so every output
// bit must depend on every input bit, not just the average. For each input bit: the mean number
// of output bits flipped (32 ideally) and each output bit's flip rate (1/2 ideally; chance moves
// it by about 0.008 with 4096 ids, and the worst of the 8192 rates is 0.466 here, so 0.1 off is a
// real bias). The old hash, which carried bits only upward, failed thousands of these.
TEST(UuidHash, EveryInputBitFlipsEveryOutputBitHalfTheTime) {
  static_assert(sizeof(std::size_t) == 8);
  constexpr int kIds = 4096;
  std::mt19937_64 rng(7);  // specified bit for bit: the same ids everywhere
  std::vector<std::array<int, 64>> flips(128, std::array<int, 64>{});
  std::vector<long> flipped(128, 0);
  for (int n = 0; n < kIds; ++n) {
    Uuid id{};
    if (n % 2) {
      const std::uint64_t a = rng(), b = rng();
      std::memcpy(id.data(), &a, 8);
      std::memcpy(id.data() + 8, &b, 8);
    } else {
      id[14] = static_cast<std::uint8_t>(n >> 8);
      id[15] = static_cast<std::uint8_t>(n);
    }
    const std::uint64_t hash = UuidHash()(id);
    for (int bit = 0; bit < 128; ++bit) {
      Uuid other = id;
      other[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      const std::uint64_t diff = hash ^ UuidHash()(other);
      flipped[bit] += std::popcount(diff);
      for (int out = 0; out < 64; ++out) flips[bit][out] += (diff >> out) & 1;
    }
  }
  double worst = 0.5;
  for (int bit = 0; bit < 128; ++bit) {
    const double mean = static_cast<double>(flipped[bit]) / kIds;
    EXPECT_GT(mean, 24.0) << "input bit " << bit;
    EXPECT_LT(mean, 40.0) << "input bit " << bit;
    for (int out = 0; out < 64; ++out) {
      const double rate = static_cast<double>(flips[bit][out]) / kIds;
      if (std::abs(rate - 0.5) > std::abs(worst - 0.5)) worst = rate;
      EXPECT_GT(rate, 0.4) << "input bit " << bit << ", output bit " << out;
      EXPECT_LT(rate, 0.6) << "input bit " << bit << ", output bit " << out;
    }
  }
  RecordProperty("worst flip rate", std::to_string(worst));
}

TEST(DateTime, Rfc3339) {
  for (const char* ok :
       {"2025-01-31T10:30:00Z", "2025-01-31t10:30:00z", "2024-02-29T00:00:00Z",
        "2025-01-31T10:30:00.123456+05:30", "2016-12-31T23:59:60Z", "2025-01-31T10:30:00-00:00"}) {
    EXPECT_TRUE(IsRfc3339DateTime(ok)) << ok;
  }
  for (const char* bad :
       {"2025-01-31", "2025-01-31T10:30Z", "2025-01-31 10:30:00Z", "2025-02-29T00:00:00Z",
        "2025-13-01T00:00:00Z", "2025-01-31T24:00:00Z", "2025-01-31T10:30:00",
        "2025-01-31T10:30:00+0530", "20250131T103000Z", "2025-01-31T10:30:00.Z",
        "2025-01-31T10:30:61Z", "2025-01-31T10:30:00Z ", "1900-02-29T00:00:00Z", ""}) {
    EXPECT_FALSE(IsRfc3339DateTime(bad)) << bad;
  }
}

// The steps the date-time readers share move past what they take, and only when they take it.
TEST(DateTime, StepsTakeOnlyWhatTheyRead) {
  std::size_t pos = 1;
  EXPECT_EQ(date_time::TakeDigits("x2025-", &pos, 4), 2025);
  EXPECT_EQ(pos, 5u);
  EXPECT_EQ(date_time::TakeDigits("x2025-", &pos, 2), std::nullopt);  // '-' is no digit
  EXPECT_EQ(pos, 5u);
  EXPECT_EQ(date_time::TakeDigits("07", &(pos = 1), 2), std::nullopt);  // the text ends first
  EXPECT_EQ(pos, 1u);
  EXPECT_EQ(date_time::TakeDigits("007", &(pos = 0), 3), 7);
  EXPECT_TRUE(date_time::Take("Tt", &(pos = 0), 't', 'T'));
  EXPECT_TRUE(date_time::Take("Tt", &pos, 't'));
  EXPECT_FALSE(date_time::Take("Tt", &pos, 't', 'T'));  // at the end
  EXPECT_EQ(pos, 2u);
  EXPECT_FALSE(date_time::Take(std::string_view("\0", 1), &(pos = 0), 'x'));  // '\0' is no `b`
  EXPECT_EQ(pos, 0u);
  for (const auto& [year, february] :
       {std::pair{2024, 29}, {2023, 28}, {2000, 29}, {1900, 28}, {2100, 28}, {2400, 29}}) {
    EXPECT_EQ(date_time::DaysInMonth(year, 2), february) << year;
  }
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (int month = 1; month <= 12; ++month) {
    EXPECT_EQ(date_time::DaysInMonth(2023, month), kDays[month - 1]) << month;
  }
}

}  // namespace
}  // namespace arcs
