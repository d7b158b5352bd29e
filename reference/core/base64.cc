#include "reference/core/base64.h"

#include <array>
#include <cstdint>

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
#endif

// Whether every character of `text` is one of the alphabet's 64 ('=' is not).
bool AllInAlphabet(std::string_view text) {
#if defined(__x86_64__)
  if (text.size() >= 64 && UseAvx512Bw()) return AllInAlphabetAvx512(text);
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
  for (std::size_t i = 0; i < text.size(); i += 4) {
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
