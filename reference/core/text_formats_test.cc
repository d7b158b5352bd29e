#include "reference/core/text_formats.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace arcs
