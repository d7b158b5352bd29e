#include "reference/core/base64.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace arcs::base64 {
namespace {

// RFC 4648 §10.
const std::vector<std::pair<std::string, std::string>> kRfcVectors = {
    {"", ""},
    {"f", "Zg=="},
    {"fo", "Zm8="},
    {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="},
    {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
};

TEST(Base64Test, EncodesRfcVectors) {
  for (const auto& [plain, encoded] : kRfcVectors) {
    EXPECT_EQ(Encode(plain), encoded) << plain;
  }
}

TEST(Base64Test, DecodesRfcVectors) {
  for (const auto& [plain, encoded] : kRfcVectors) {
    EXPECT_EQ(DecodedSize(encoded), plain.size()) << encoded;
    EXPECT_EQ(Decode(encoded), plain) << encoded;
  }
}

TEST(Base64Test, EmptyIsValid) {
  EXPECT_EQ(DecodedSize(""), 0u);
  const std::optional<std::string> decoded = Decode("");
  ASSERT_TRUE(decoded.has_value());
  EXPECT_TRUE(decoded->empty());
}

TEST(Base64Test, UsesTheStandardAlphabet) {
  // 0xFB 0xFF 0xBF encodes to "+/+/": the two characters where the URL-safe alphabet differs.
  EXPECT_EQ(Encode("\xFB\xFF\xBF"), "+/+/");
  EXPECT_EQ(Decode("+/+/"), "\xFB\xFF\xBF");
  EXPECT_EQ(Encode(std::string_view("\0\0\0", 3)), "AAAA");
  EXPECT_EQ(Encode("\xFF\xFF\xFF"), "////");
}

void ExpectInvalid(std::string_view text) {
  EXPECT_EQ(DecodedSize(text), std::nullopt) << '"' << text << '"';
  EXPECT_EQ(Decode(text), std::nullopt) << '"' << text << '"';
}

TEST(Base64Test, RejectsCharactersOutsideTheAlphabet) {
  ExpectInvalid("Zm9v!mFy");
  ExpectInvalid("Zm9v-mFy");  // URL-safe alphabet
  ExpectInvalid("Zm9v_mFy");
  ExpectInvalid("Zm-=");
  ExpectInvalid("Z_==");
  ExpectInvalid(std::string_view("Zm9\0", 4));
  ExpectInvalid("Zm9\xC3");
  ExpectInvalid("Zm9\x80");
  ExpectInvalid("Zm9\xFF");
  ExpectInvalid("Zm.v");
}

// Every byte value at every place before the final quantum, where no '=' may stand: accepted only
// for the 64 characters of RFC 4648's Table 1. In a short text, and around the 64-character blocks
// of a long one (read 32 or 64 at a time where the CPU can).
TEST(Base64Test, EveryByteBeforeTheFinalQuantum) {
  const std::string_view table1 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string long_text;
  while (long_text.size() < 196) long_text += "Zm9vYmFy";
  long_text.resize(196);
  const std::vector<std::pair<std::string, std::vector<std::size_t>>> cases = {
      {"Zm9vYmFyYmF6", {0, 1, 2, 3, 4, 5, 6, 7}},
      {long_text, {0, 1, 31, 32, 33, 62, 63, 64, 65, 95, 96, 127, 128, 159, 160, 190, 191}},
  };
  for (const auto& [valid, places] : cases) {
    ASSERT_TRUE(DecodedSize(valid).has_value());
    for (std::size_t pos : places) {
      for (int b = 0; b < 256; ++b) {
        std::string text = valid;
        text[pos] = static_cast<char>(b);
        const bool in_table = table1.find(static_cast<char>(b)) != std::string_view::npos;
        EXPECT_EQ(DecodedSize(text).has_value(), in_table)
            << "byte " << b << " at " << pos << " of " << text.size();
      }
    }
  }
}

TEST(Base64Test, RejectsWhitespace) {
  ExpectInvalid("Zm9v Zm9v");
  ExpectInvalid("Zm9v\nZm9v");
  ExpectInvalid("Zm9vZm9v\n");
  ExpectInvalid("Zm9vZm9v\r\n");
  ExpectInvalid(" Zm9vZm9v");
  ExpectInvalid("Zm 9");
  ExpectInvalid("Zm9\t");
}

TEST(Base64Test, RejectsBadLengthAndMissingPadding) {
  ExpectInvalid("Z");
  ExpectInvalid("Zg");
  ExpectInvalid("Zg=");
  ExpectInvalid("Zm8");
  ExpectInvalid("Zm9vYg");
  ExpectInvalid("Zm9vYmE");
  ExpectInvalid("Zm9vY");
}

TEST(Base64Test, RejectsMisplacedOrExcessPadding) {
  ExpectInvalid("=");
  ExpectInvalid("==");
  ExpectInvalid("====");
  ExpectInvalid("Z===");
  ExpectInvalid("Zg==Zg==");  // '=' in the middle
  ExpectInvalid("Zm8=Zm9v");
  ExpectInvalid("Zm=v");
  ExpectInvalid("Z=9v");
  ExpectInvalid("=m9v");
  ExpectInvalid("Zg=A");
  ExpectInvalid("Zg===");
  ExpectInvalid("Zg======");
  ExpectInvalid("Zm9v====");
}

TEST(Base64Test, RejectsNonZeroPadBits) {
  // "f" is "Zg=="; the low four bits of 'g' (32 = 0b100000) are zero, those of 'h' are not.
  EXPECT_EQ(Decode("Zg=="), "f");
  for (const char* text : {"Zh==", "Zi==", "Zj==", "Zk==", "Zv==", "Zx==", "Z/=="}) {
    ExpectInvalid(text);
  }
  // "fo" is "Zm8="; the low two bits of '8' (60 = 0b111100) are zero.
  EXPECT_EQ(Decode("Zm8="), "fo");
  for (const char* text : {"Zm9=", "Zm+=", "Zm/=", "Zm9vZm9="}) {
    ExpectInvalid(text);
  }
  // Exhaustively: of the 64 possible last characters, exactly 4 are canonical before "=" and
  // exactly 16 before nothing-but-"=".
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  int two_pad = 0;
  int one_pad = 0;
  for (const char c : kAlphabet) {
    if (DecodedSize(std::string("Z") + c + "==")) ++two_pad;
    if (DecodedSize(std::string("Zm") + c + "=")) ++one_pad;
  }
  EXPECT_EQ(two_pad, 4);
  EXPECT_EQ(one_pad, 16);
}

TEST(Base64Test, RoundTripsEveryByteValue) {
  std::string all;
  for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
  // Every prefix length gives every remainder modulo 3 and every byte in every position.
  for (std::size_t length = 0; length <= all.size(); ++length) {
    const std::string plain = all.substr(all.size() - length);
    const std::string encoded = Encode(plain);
    ASSERT_EQ(encoded.size() % 4, 0u);
    ASSERT_EQ(DecodedSize(encoded), plain.size());
    ASSERT_EQ(Decode(encoded), plain);
  }
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 256; j += 5) {
      const std::string plain = {static_cast<char>(i), static_cast<char>(j)};
      ASSERT_EQ(Decode(Encode(plain)), plain);
      ASSERT_EQ(Decode(Encode(plain.substr(0, 1))), plain.substr(0, 1));
    }
  }
}

// RFC 4648 §4 read literally, a bit at a time: the oracle for texts long enough to take the
// vector paths (24 bytes and 32 characters a block), which the RFC's vectors are not.
std::string EncodeBitByBit(std::string_view bytes) {
  const std::string_view table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned group = 0;
  int bits = 0;
  for (unsigned char byte : bytes) {
    for (int b = 7; b >= 0; --b) {
      group = group << 1 | ((byte >> b) & 1u);
      if (++bits == 6) {
        out += table[group];
        group = 0;
        bits = 0;
      }
    }
  }
  if (bits > 0) out += table[group << (6 - bits)];
  while (out.size() % 4 != 0) out += '=';
  return out;
}

TEST(Base64Test, LongTextsAgreeWithABitByBitEncoder) {
  std::uint32_t state = 12345;
  const auto next = [&state] {
    state = state * 1103515245u + 12345u;
    return static_cast<char>(state >> 23);
  };
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0; n <= 200; ++n) sizes.push_back(n);
  for (std::size_t n : {4095, 4096, 4097, 100000}) sizes.push_back(n);
  for (std::size_t n : sizes) {
    std::string bytes;
    for (std::size_t i = 0; i < n; ++i) bytes += next();
    const std::string expected = EncodeBitByBit(bytes);
    ASSERT_EQ(Encode(bytes), expected) << n << " bytes";
    ASSERT_EQ(Decode(expected), bytes) << n << " bytes";
  }
  // Every character at every place of a quantum, read back by the oracle.
  const std::string table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  for (std::size_t r = 0; r < 4; ++r) text += table.substr(r) + table.substr(0, r);
  const std::optional<std::string> decoded = Decode(text);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(EncodeBitByBit(*decoded), text);
  EXPECT_EQ(Encode(*decoded), text);
}

TEST(Base64Test, DecodedSizeMatchesLength) {
  EXPECT_EQ(DecodedSize("AAAA"), 3u);
  EXPECT_EQ(DecodedSize("AAAAAA=="), 4u);
  EXPECT_EQ(DecodedSize("AAAAAAA="), 5u);
  EXPECT_EQ(DecodedSize(std::string(4000, 'A')), 3000u);
}

// Decoding in place: the bytes written to the front of the buffer that holds the text, from any
// start before or at the text, are the bytes encoded; text that is not base64 leaves it untouched.
TEST(Base64, DecodesInPlace) {
  for (std::size_t size : {0, 1, 2, 3, 4, 23, 24, 25, 27, 28, 47, 48, 49, 100, 4097}) {
    std::string bytes(size, '\0');
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 73 + 5);
    for (std::size_t at : {0, 1, 7}) {
      std::string buffer = std::string(at, '#') + Encode(bytes);
      const std::optional<std::size_t> n =
          DecodeTo(std::string_view(buffer).substr(at), buffer.data());
      ASSERT_TRUE(n.has_value());
      EXPECT_EQ(buffer.substr(0, *n), bytes) << size << " at " << at;
    }
  }
  std::string bad = "##QUJD!A==";
  const std::string before = bad;
  EXPECT_FALSE(DecodeTo(std::string_view(bad).substr(2), bad.data()).has_value());
  EXPECT_EQ(bad, before);
}

}  // namespace
}  // namespace arcs::base64
