#include "reference/core/base64.h"

#include <array>
#include <cstdint>
#include <cstring>

#include "reference/core/simd_blocks.h"
#include "reference/core/strings.h"

namespace arcs::base64 {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kPad = '=';
constexpr std::int8_t kInvalid = -1;

constexpr std::array<std::int8_t, 256> MakeDecodeTable() {
  std::array<std::int8_t, 256> table{};
  for (auto& entry : table) entry = kInvalid;
  for (int i = 0; i < 64; ++i)
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return table;
}

constexpr std::array<std::int8_t, 256> kDecode = MakeDecodeTable();

int Sextet(char c) { return kDecode[static_cast<unsigned char>(c)]; }

#if defined(__x86_64__)
// The bytes of `block` from `first` to `last`: below `first`, the unsigned difference wraps high.
ARCS_AVX512BW_TARGET inline __mmask64 FromTo(__m512i block, char first, char last) {
  return _mm512_cmple_epu8_mask(_mm512_sub_epi8(block, _mm512_set1_epi8(first)),
                                _mm512_set1_epi8(static_cast<char>(last - first)));
}

// The same test as AllInAlphabet's, 64 characters at a time: a recording's data runs to megabytes.
ARCS_AVX512BW_TARGET bool AllInAlphabetAvx512(std::string_view text) {
  __mmask64 outside = 0;
  for (std::size_t i = 0; i < text.size(); i += 64) {
    const __mmask64 valid = simd::LowBits(text.size() - i);
    const __m512i v = _mm512_maskz_loadu_epi8(valid, text.data() + i);
    const __mmask64 inside = FromTo(v, 'A', 'Z') | FromTo(v, 'a', 'z') | FromTo(v, '/', '9') |
                             _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('+'));
    outside |= ~inside & valid;
  }
  return outside == 0;
}

// AVX2's version of FromTo: 0xFF for each byte from `first` to `last` (no unsigned compare: the
// smaller of the difference and the span is the difference).
ARCS_AVX2_TARGET inline __m256i InRange(__m256i block, char first, char last) {
  const __m256i offset = _mm256_sub_epi8(block, _mm256_set1_epi8(first));
  return _mm256_cmpeq_epi8(
      _mm256_min_epu8(offset, _mm256_set1_epi8(static_cast<char>(last - first))), offset);
}

ARCS_AVX2_TARGET inline __m256i Load32(const char* at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

// How many characters at the start of `text`, whole 32-character blocks, are all in the alphabet:
// where the first block that holds another character starts, or the rest too short for a block.
ARCS_AVX2_TARGET std::size_t AlphabetPrefixAvx2(std::string_view text) {
  std::size_t i = 0;
  for (; i + 32 <= text.size(); i += 32) {
    const __m256i v = Load32(text.data() + i);
    const __m256i inside = _mm256_or_si256(
        _mm256_or_si256(InRange(v, 'A', 'Z'), InRange(v, 'a', 'z')),
        _mm256_or_si256(InRange(v, '/', '9'), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('+'))));
    if (_mm256_movemask_epi8(inside) != -1) return i;
  }
  return i;
}

// Decodes the first 32 * blocks characters of valid base64 without '=' (RFC 4648 Table 1 read
// backwards by ranges, then four sextets to three bytes by two multiply-adds), 24 bytes a block.
// A block's bytes are stored only after it was read, and end before the next block begins, so
// `out` may be in place as DecodeValid allows.
ARCS_AVX2_TARGET void DecodeBlocksAvx2(const char* text, std::size_t blocks, char* out) {
  const __m256i order = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2,
                                         1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  for (std::size_t k = 0; k < blocks; ++k, text += 32, out += 24) {
    const __m256i v = Load32(text);
    __m256i shift = _mm256_set1_epi8(63 - '/');  // what no range below takes is '/'
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8(-'A'), InRange(v, 'A', 'Z'));
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8(26 - 'a'), InRange(v, 'a', 'z'));
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8(52 - '0'), InRange(v, '0', '9'));
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8(62 - '+'),
                               _mm256_cmpeq_epi8(v, _mm256_set1_epi8('+')));
    const __m256i sextets = _mm256_add_epi8(v, shift);
    // Per 32 bits, a b c d: (a << 6 | b, c << 6 | d), then (a << 18 | b << 12 | c << 6 | d).
    const __m256i pairs = _mm256_maddubs_epi16(sextets, _mm256_set1_epi32(0x01400140));
    const __m256i words = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x00011000));
    const __m256i bytes = _mm256_shuffle_epi8(words, order);  // 12 bytes a lane, then 4 unused
    const __m128i high = _mm256_extracti128_si256(bytes, 1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(bytes));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + 12), high);
    const std::uint32_t last = static_cast<std::uint32_t>(_mm_extract_epi32(high, 2));
    std::memcpy(out + 20, &last, 4);
  }
}

// Encodes the first 24 * k bytes of `bytes` for the largest k that leaves 4 bytes after them (the
// second half of a block is read 16 bytes from byte 12), 32 characters a block: each 3 bytes
// spread over 32 bits, their sextets moved into place by two multiplies, then Table 1 by ranges.
// Returns the bytes encoded.
ARCS_AVX2_TARGET std::size_t EncodeBlocksAvx2(std::string_view bytes, char* to) {
  const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10, 1, 0,
                                          2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
  std::size_t i = 0;
  for (; i + 28 <= bytes.size(); i += 24, to += 32) {
    const char* from = bytes.data() + i;
    const __m256i loaded = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 12)), 1);
    // Per 32 bits, bytes b1 b0 b2 b1: the low 16 bits hold sextets 0 and 1 at bits 10 and 4, the
    // high 16 sextets 2 and 3 at bits 6 and 0; each is moved to the low bits of its byte.
    const __m256i in = _mm256_shuffle_epi8(loaded, spread);
    const __m256i first_third = _mm256_mulhi_epu16(
        _mm256_and_si256(in, _mm256_set1_epi32(0x0fc0fc00)), _mm256_set1_epi32(0x04000040));
    const __m256i second_fourth = _mm256_mullo_epi16(
        _mm256_and_si256(in, _mm256_set1_epi32(0x003f03f0)), _mm256_set1_epi32(0x01000010));
    const __m256i sextets = _mm256_or_si256(first_third, second_fourth);
    __m256i shift = _mm256_set1_epi8('A');
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8('a' - 26),
                               _mm256_cmpgt_epi8(sextets, _mm256_set1_epi8(25)));
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8('0' - 52),
                               _mm256_cmpgt_epi8(sextets, _mm256_set1_epi8(51)));
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8('+' - 62),
                               _mm256_cmpeq_epi8(sextets, _mm256_set1_epi8(62)));
    shift = _mm256_blendv_epi8(shift, _mm256_set1_epi8('/' - 63),
                               _mm256_cmpeq_epi8(sextets, _mm256_set1_epi8(63)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_add_epi8(sextets, shift));
  }
  return i;
}
#endif

// Whether every character of `text` is one of the alphabet's 64 ('=' is not).
bool AllInAlphabet(std::string_view text) {
#if defined(__x86_64__)
  if (text.size() >= 64 && UseAvx512Bw()) return AllInAlphabetAvx512(text);
  if (text.size() >= 32 && UseAvx2()) {
    const std::size_t checked = AlphabetPrefixAvx2(text);
    if (checked + 32 <= text.size()) return false;  // a block held another character
    text.remove_prefix(checked);
  }
#endif
  for (char c : text) {
    if (Sextet(c) == kInvalid) return false;
  }
  return true;
}

}  // namespace

std::optional<std::size_t> DecodedSize(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  if (text.empty()) return 0;
  const std::size_t last = text.size() - 4;  // start of the final quantum, the only one with '='
  if (!AllInAlphabet(text.substr(0, last))) return std::nullopt;
  const int a = Sextet(text[last]);
  const int b = Sextet(text[last + 1]);
  const char c = text[last + 2];
  const char d = text[last + 3];
  if (a == kInvalid || b == kInvalid) return std::nullopt;
  std::size_t padding = 0;
  if (c == kPad) {
    // "xy==": one byte; the low four bits of the second character carry nothing and must be zero
    // for the encoding to be canonical.
    if (d != kPad || (b & 0x0F) != 0) return std::nullopt;
    padding = 2;
  } else if (d == kPad) {
    // "xyz=": two bytes; the low two bits of the third character must be zero.
    const int s = Sextet(c);
    if (s == kInvalid || (s & 0x03) != 0) return std::nullopt;
    padding = 1;
  } else if (Sextet(c) == kInvalid || Sextet(d) == kInvalid) {
    return std::nullopt;
  }
  return text.size() / 4 * 3 - padding;
}

namespace {

// Decodes text that DecodedSize accepts. Each quantum is read whole before its bytes are written,
// and the writing never passes the reading (3 bytes for 4 characters, from no later a start), so
// `out` may be in place.
void DecodeValid(std::string_view text, char* out) {
  char* to = out;
  std::size_t i = 0;
#if defined(__x86_64__)
  // Whole blocks before the final quantum, the only one that may hold '='.
  if (text.size() > 32 && UseAvx2()) {
    const std::size_t blocks = (text.size() - 4) / 32;
    DecodeBlocksAvx2(text.data(), blocks, out);
    i = blocks * 32;
    to += blocks * 24;
  }
#endif
  for (; i < text.size(); i += 4) {
    // Validation above guarantees the alphabet; '=' maps to 0 and its bytes are dropped below.
    const auto value = [&](std::size_t j) -> std::uint32_t {
      return text[j] == kPad ? 0 : static_cast<std::uint32_t>(Sextet(text[j]));
    };
    const std::uint32_t quantum =
        (value(i) << 18) | (value(i + 1) << 12) | (value(i + 2) << 6) | value(i + 3);
    *to++ = static_cast<char>(quantum >> 16);
    *to++ = static_cast<char>((quantum >> 8) & 0xFF);
    *to++ = static_cast<char>(quantum & 0xFF);
  }
}

}  // namespace

std::optional<std::size_t> DecodeTo(std::string_view text, char* out) {
  const std::optional<std::size_t> size = DecodedSize(text);
  if (size) DecodeValid(text, out);
  return size;
}

std::optional<std::string> Decode(std::string_view text) {
  const std::optional<std::size_t> size = DecodedSize(text);
  if (!size) return std::nullopt;
  // Written through a pointer into a presized buffer: push_back per byte costs several times more.
  std::string out(text.size() / 4 * 3, '\0');
  DecodeValid(text, out.data());
  out.resize(*size);
  return out;
}

void EncodeAppend(std::string_view bytes, std::string* out) {
  const std::size_t start = out->size();
  out->resize(start + (bytes.size() + 2) / 3 * 4);
  char* to = out->data() + start;
  std::size_t i = 0;
#if defined(__x86_64__)
  if (bytes.size() >= 28 && UseAvx2()) {
    i = EncodeBlocksAvx2(bytes, to);
    to += i / 3 * 4;
  }
#endif
  const auto byte = [&](std::size_t j) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[j]));
  };
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t quantum = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    *to++ = kAlphabet[quantum >> 18];
    *to++ = kAlphabet[(quantum >> 12) & 0x3F];
    *to++ = kAlphabet[(quantum >> 6) & 0x3F];
    *to++ = kAlphabet[quantum & 0x3F];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 0) return;
  const std::uint32_t quantum = (byte(i) << 16) | (rest == 2 ? byte(i + 1) << 8 : 0);
  *to++ = kAlphabet[quantum >> 18];
  *to++ = kAlphabet[(quantum >> 12) & 0x3F];
  *to++ = rest == 2 ? kAlphabet[(quantum >> 6) & 0x3F] : kPad;
  *to++ = kPad;
}

std::string Encode(std::string_view bytes) {
  std::string out;
  EncodeAppend(bytes, &out);
  return out;
}

}  // namespace arcs::base64
