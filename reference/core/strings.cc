#include "reference/core/strings.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include "reference/core/json.h"
#include "reference/core/number.h"
#include "reference/core/simd_blocks.h"
#include "reference/core/swar.h"

namespace arcs {

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::vector<std::string_view> LinesWithEnds(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::size_t size = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(0, size));
    text.remove_prefix(size);
  }
  return lines;
}

std::string_view TrimBlanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

namespace {

// The length of the run of ASCII bytes at the start of `text`.
std::size_t AsciiPrefix(std::string_view text) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    if (const int high = _mm_movemask_epi8(v)) return i + __builtin_ctz(high);
  }
#endif
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  return i;
}

bool InRange(unsigned char byte, unsigned char low, unsigned char high) {
  return byte >= low && byte <= high;
}

}  // namespace

namespace {

// JsonPlainPrefix's scan, 16 bytes at a time with SSE2 (every x86-64 has it); the scalar tail
// finishes what is shorter than a vector.
std::size_t JsonPlainPrefixSse2(std::string_view text) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
  const __m128i below = _mm_set1_epi8(static_cast<char>(0x20 ^ 0x80));  // unsigned < 0x20
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    const __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmplt_epi8(_mm_xor_si128(v, flip), below));
    if (const int mask = _mm_movemask_epi8(special)) return i + __builtin_ctz(mask);
  }
#endif
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == '"' || c == '\\') break;
  }
  return i;
}

#if defined(__x86_64__)
// The same, a block of 32 or 64 bytes at a time, on CPUs with AVX2 or AVX-512BW (chosen at run
// time: the build targets every x86-64). Strings in recordings are long (base64, model output):
// this is most of the time a parse spends inside them. The last block is loaded without reading
// past the text, so short strings, and the tail of every string a writer escapes, take one block.
template <typename Blocks>
std::size_t JsonPlainPrefixIn(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); i += Blocks::kWidth) {
    const std::size_t left = text.size() - i;
    const std::uint64_t special = Blocks::ToEscape(text.data() + i, left);
    if (special != 0) return i + static_cast<std::size_t>(__builtin_ctzll(special));
  }
  return text.size();
}

ARCS_AVX512BW_TARGET ARCS_FLATTEN std::size_t JsonPlainPrefixAvx512(std::string_view text) {
  return JsonPlainPrefixIn<simd::Avx512Blocks>(text);
}

ARCS_AVX2_TARGET ARCS_FLATTEN std::size_t JsonPlainPrefixAvx2(std::string_view text) {
  return JsonPlainPrefixIn<simd::Avx2Blocks>(text);
}
#endif

// The widest vector paths that run: what the CPU has, narrowed by ARCS_SIMD ("portable": none of
// them; "avx2": none that need AVX-512; "avx512bw": none that need VBMI or VBMI2). Read once.
enum class SimdLevel : std::uint8_t { kPortable, kAvx2, kAvx512Bw, kAvx512Vbmi2 };
SimdLevel ChosenSimd() {
  static const SimdLevel level = [] {
    const char* simd = std::getenv("ARCS_SIMD");
    const std::string_view allowed = simd == nullptr ? "" : simd;
    if (allowed == "portable") return SimdLevel::kPortable;
#if defined(__x86_64__)
    if (allowed != "avx2" && __builtin_cpu_supports("avx512bw")) {
      return allowed != "avx512bw" && __builtin_cpu_supports("avx512vbmi") &&
                     __builtin_cpu_supports("avx512vbmi2")
                 ? SimdLevel::kAvx512Vbmi2
                 : SimdLevel::kAvx512Bw;
    }
    if (__builtin_cpu_supports("avx2")) return SimdLevel::kAvx2;
#endif
    return SimdLevel::kPortable;
  }();
  return level;
}

}  // namespace

bool UseAvx512Vbmi2() { return ChosenSimd() == SimdLevel::kAvx512Vbmi2; }

bool UseAvx512Bw() { return ChosenSimd() >= SimdLevel::kAvx512Bw; }

bool UseAvx2() { return ChosenSimd() >= SimdLevel::kAvx2; }

bool IsLowercaseHex(std::string_view text) {
  const auto hex = [](std::uint64_t word) {
    return (swar::BytesBetween(word, '0' - 1, '9' + 1) |
            swar::BytesBetween(word, 'a' - 1, 'f' + 1)) == swar::kEachByte * 0x80;
  };
  const auto at = [&text](std::size_t offset) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + offset, sizeof word);
    return word;
  };
  if (text.size() < 8) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
  }
  for (std::size_t i = 0; i + 8 <= text.size(); i += 8) {
    if (!hex(at(i))) return false;
  }
  return hex(at(text.size() - 8));  // the last word, overlapping the one before when it must
}

std::size_t JsonPlainPrefix(std::string_view text) {
#if defined(__x86_64__)
  if (UseAvx512Bw()) return JsonPlainPrefixAvx512(text);
  if (UseAvx2()) return JsonPlainPrefixAvx2(text);
#endif
  return JsonPlainPrefixSse2(text);
}

Utf8Sequence DecodeUtf8(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return {1, lead, true};
  std::size_t length;
  char32_t value;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (InRange(lead, 0xC2, 0xDF)) {
    length = 2;
    value = lead & 0x1F;
  } else if (InRange(lead, 0xE0, 0xEF)) {
    length = 3;
    value = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (InRange(lead, 0xF0, 0xF4)) {
    length = 4;
    value = lead & 0x07;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
  } else {
    return {1, 0, false};  // a continuation byte, C0, C1 or F5..FF
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= text.size() || !InRange(static_cast<unsigned char>(text[i + k]),
                                         k == 1 ? low : 0x80, k == 1 ? high : 0xBF)) {
      return {k, 0, false};
    }
    value = (value << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  }
  return {length, value, true};
}

// simdjson's validator (SIMD, the instruction set chosen at run time) decides as Unicode's table
// 3-7 does; strings_test holds it to ReplaceIllFormedUtf8's byte-by-byte reading.
bool IsValidUtf8(std::string_view text) {
  return simdjson::validate_utf8(text.data(), text.size());
}

std::string ReplaceIllFormedUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t plain = AsciiPrefix(text.substr(i));
    out.append(text.substr(i, plain));
    i += plain;
    if (i == text.size()) break;
    if (const Utf8Sequence sequence = DecodeUtf8(text, i); !sequence.well_formed) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, sequence.length));
      i += sequence.length;
    }
  }
  return out;
}

std::string Excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string out(text.substr(0, cut));
  out += "\xE2\x80\xA6";
  return out;
}

namespace {

// Whether the code point is one Printable escapes although it is well-formed: a C1 control, a
// bidi or invisible format control, or a line or paragraph separator.
bool IsHiddenControl(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x061C || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

void AppendHex(std::string& out, std::uint32_t value, int digits) {
  constexpr char kHex[] = "0123456789abcdef";
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 15];
}

// What the three entry points do beyond the escapes they share.
enum class Style {
  kLine,      // Printable
  kDocument,  // PrintableDocument: '\n' and '\t' kept, '\\' not doubled
  kJson,      // Quoted: \" and JSON's \n, \r and \t
};

// `text` escaped in `style`.
std::string Escaped(std::string_view text, Style style) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u == '\\' && style != Style::kDocument) {
      out += "\\\\";
      ++i;
    } else if (style == Style::kDocument && (u == '\n' || u == '\t')) {
      out += text[i++];
    } else if (style == Style::kJson && (u == '"' || u == '\n' || u == '\r' || u == '\t')) {
      out += u == '"' ? "\\\"" : u == '\n' ? "\\n" : u == '\r' ? "\\r" : "\\t";
      ++i;
    } else if (u < 0x20 || u == 0x7F) {
      out += "\\u";
      AppendHex(out, u, 4);
      ++i;
    } else if (u < 0x80) {
      out += text[i++];
    } else if (const Utf8Sequence sequence = DecodeUtf8(text, i); !sequence.well_formed) {
      out += "\\x";
      AppendHex(out, u, 2);
      ++i;
    } else {
      if (IsHiddenControl(sequence.code_point)) {
        out += "\\u";
        AppendHex(out, sequence.code_point, 4);
      } else {
        out.append(text.substr(i, sequence.length));
      }
      i += sequence.length;
    }
  }
  return out;
}

}  // namespace

std::string Printable(std::string_view text) { return Escaped(text, Style::kLine); }

std::string PrintableDocument(std::string_view text) { return Escaped(text, Style::kDocument); }

std::string Quoted(std::string_view text, std::size_t max_bytes) {
  return "\"" + Escaped(Excerpt(text, max_bytes), Style::kJson) + "\"";
}

std::optional<std::uint64_t> ParseCount(std::string_view text, std::uint64_t max) {
  std::uint64_t value = 0;
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> ParseDecimal(std::string_view text, double min, double max) {
  json::Document doc;
  // JSON allows whitespace around a value; a command-line number has none.
  if (text.find_first_of(" \t\r\n") != std::string_view::npos || !doc.Parse(text) ||
      !doc.root().is_number()) {
    return std::nullopt;
  }
  std::optional<double> value = json::ToDouble(doc.root().text());
  if (!value || *value < min || *value > max) return std::nullopt;
  return value;
}

}  // namespace arcs
