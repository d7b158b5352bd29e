#include "reference/core/swar.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "reference/core/xoshiro.h"

namespace arcs::swar {
namespace {

// The same questions asked a byte at a time.
bool AnyByteBelowSlowly(std::uint64_t x, std::uint64_t n) {
  for (int i = 0; i < 8; ++i) {
    if (((x >> (8 * i)) & 0xFF) < n) return true;
  }
  return false;
}

std::uint64_t WithByte(std::uint64_t word, int at, std::uint64_t byte) {
  return (word & ~(std::uint64_t{0xFF} << (8 * at))) | (byte << (8 * at));
}

// Every byte value at every position, among bytes just above the bound and among bytes of every
// kind (0x00, 0x80 and 0xFF next to it, where a borrow or a high bit could mislead the test).
TEST(Swar, AnyByteBelowAndAnyByteIsAnswerForTheWholeWord) {
  for (std::uint64_t n : {1u, 0x20u, 0x22u, 0x5Du, 0x80u}) {
    for (std::uint64_t filler :
         {kEachByte * n, kEachByte * 0x80, kEachByte * 0xFF, std::uint64_t{0x00FF80617F2000FF}}) {
      for (int at = 0; at < 8; ++at) {
        for (std::uint64_t byte = 0; byte < 256; ++byte) {
          const std::uint64_t word = WithByte(filler, at, byte);
          ASSERT_EQ(AnyByteBelow(word, n), AnyByteBelowSlowly(word, n))
              << std::hex << word << " below " << n;
        }
      }
    }
  }
  Xoshiro256 random(29);
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t word = random.Next();
    for (unsigned char c : {'"', '\\', 'a', '\0', '\xFF'}) {
      bool slowly = false;
      for (int at = 0; at < 8; ++at) slowly |= ((word >> (8 * at)) & 0xFF) == c;
      ASSERT_EQ(AnyByteIs(word, c), slowly) << std::hex << word << " " << int{c};
      ASSERT_EQ(AnyByteIs(WithByte(word, i % 8, c), c), true);
    }
    ASSERT_EQ(AnyByteBelow(word, 0x20), AnyByteBelowSlowly(word, 0x20)) << std::hex << word;
  }
}

}  // namespace
}  // namespace arcs::swar
