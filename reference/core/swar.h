// Internal to reference/core: bytes tested and hex digits read a word at a time (SIMD within a
// register), for the readers of short fixed-width fields (UUIDs and JSON's \u escapes) where a
// vector unit would cost more to set up than the field takes to read.
#ifndef ARCS_REFERENCE_CORE_SWAR_H_
#define ARCS_REFERENCE_CORE_SWAR_H_

#include <bit>
#include <cstdint>

namespace arcs::swar {

static_assert(std::endian::native == std::endian::little, "words hold text's first byte lowest");

inline constexpr std::uint64_t kEachByte = 0x0101010101010101;

// The bytes of `x` strictly between `low` and `high` (both at most 128): each such byte's high bit,
// exactly, with no carry between bytes (a byte of 128 or more is never between).
constexpr std::uint64_t BytesBetween(std::uint64_t x, std::uint64_t low, std::uint64_t high) {
  const std::uint64_t low7 = x & (kEachByte * 0x7F);
  return (kEachByte * (127 + high) - low7) & ~x & (low7 + kEachByte * (127 - low)) &
         (kEachByte * 0x80);
}

// Whether some byte of `x` is below n (n at most 128). Only the answer for the whole word is exact:
// the borrow out of a byte below n can flag the byte above it.
constexpr bool AnyByteBelow(std::uint64_t x, std::uint64_t n) {
  return ((x - kEachByte * n) & ~x & (kEachByte * 0x80)) != 0;
}

// Whether some byte of `x` is c.
constexpr bool AnyByteIs(std::uint64_t x, unsigned char c) {
  return AnyByteBelow(x ^ (kEachByte * c), 1);
}

// The values of the hex digits a word holds, a byte each: a digit's low nibble is its value, and
// a letter's (A-F or a-f, flagged in `letters` as BytesBetween flags them) is its value less 9.
constexpr std::uint64_t HexDigitValues(std::uint64_t x, std::uint64_t letters) {
  return (x & (kEachByte * 0x0F)) + (letters >> 7) * 9;
}

// Digit values (HexDigitValues) joined in pairs, first digit high: byte 2k of the result is the
// byte that digits 2k and 2k + 1 spell (the odd bytes are zero).
constexpr std::uint64_t JoinDigitPairs(std::uint64_t values) {
  return ((values << 4) | (values >> 8)) & 0x00FF00FF00FF00FF;
}

}  // namespace arcs::swar

#endif  // ARCS_REFERENCE_CORE_SWAR_H_
