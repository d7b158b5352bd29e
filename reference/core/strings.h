// Small string and UTF-8 helpers every part of ARCS uses, for messages and reports among others.
#ifndef ARCS_REFERENCE_CORE_STRINGS_H_
#define ARCS_REFERENCE_CORE_STRINGS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace arcs {

// The UTF-8 byte order mark (U+FEFF encoded), which a reader may meet at the start of a text.
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Whether a and b hold the same bytes. Member names and keywords are short: up to 16 bytes they
// are compared in at most two overlapping loads a side, where std::string_view's == calls memcmp
// (most of the time a schema spent matching names was in that call).
[[gnu::always_inline]] inline bool SameBytes(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
  const auto same = [&](std::size_t at, auto word) {
    decltype(word) x, y;
    std::memcpy(&x, a.data() + at, sizeof x);
    std::memcpy(&y, b.data() + at, sizeof y);
    return x == y;
  };
  if (n >= 8) return same(0, std::uint64_t{}) && same(n - 8, std::uint64_t{});
  if (n >= 4) return same(0, std::uint32_t{}) && same(n - 4, std::uint32_t{});
  return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

// The items with `separator` between them ("" for none): Join({"a", "b"}) == "a, b".
std::string Join(const std::vector<std::string>& items, std::string_view separator = ", ");

// `text` cut after each '\n', each line keeping its ending (a '\r' before it too; the last line
// may have none): joined again, the lines are the text. "" has no line.
std::vector<std::string_view> LinesWithEnds(std::string_view text);

// `text` without the spaces and tabs around it, nor the line ending after it ("\r", "\n"): one
// line of a hand-written list, as a person means it.
std::string_view TrimBlanks(std::string_view text);

// At most max_bytes bytes of `text`, never ending inside a UTF-8 sequence, with "…" (U+2026)
// appended when something was cut: how a message quotes text of unbounded length.
std::string Excerpt(std::string_view text, std::size_t max_bytes);

// `text` made safe to print: whatever reaches a terminal, a log or a one-line message from
// untrusted input (an argument, a file name, a file's content, an implementation's output) goes
// through this one function, so that it cannot move the cursor, recolour or retitle the terminal,
// set a hyperlink (ESC, OSC, BEL), forge a line for a log parser (U+2028, U+2029), reorder what
// is displayed (bidi overrides such as U+202E) or hide text (zero-width characters). Escaped as
// \u00xx: C0 controls (line feed and tab too: the text stays one line), DEL and C1 controls
// (U+0080-U+009F); as \uxxxx: U+061C, U+200B-U+200F, U+2028, U+2029, U+202A-U+202E,
// U+2060-U+2064, U+2066-U+2069, U+FEFF; as \xnn: each byte that begins no well-formed UTF-8
// sequence. A backslash is doubled, so that, as in JSON, an escape in the output always means an
// escaped character and the original bytes can be recovered. Everything else, ordinary non-ASCII
// text included, is unchanged. Hex digits are lower-case.
std::string Printable(std::string_view text);

// A document (a rendered transcript, a rule's explanation) made safe to print: as Printable,
// except that line feeds and tabs stay (they are its layout) and backslashes are not doubled
// (Markdown is full of them). Nothing in it can drive the terminal either.
std::string PrintableDocument(std::string_view text);

// A piece of a file's content quoted in a finding's message: "text" in double quotes, cut to an
// excerpt of max_bytes, made Printable with JSON's own escapes where JSON has one (\", \n, \r and
// \t), so that a message stays one readable, harmless line, and small, whatever the file holds.
std::string Quoted(std::string_view text, std::size_t max_bytes = 80);

// Whether `text` is well-formed UTF-8 (Unicode §3.9 table 3-7: no overlong form, no surrogate,
// nothing past U+10FFFF, no truncated sequence), checked with SIMD instructions.
bool IsValidUtf8(std::string_view text);

// The UTF-8 sequence that starts at text[i] (i < text.size()), read by Unicode §3.9 table 3-7:
// well formed, its `length` bytes (1 to 4) encode `code_point`; ill formed (an overlong form, a
// surrogate, past U+10FFFF, cut short, or a byte that begins no sequence), `length` is that of its
// maximal subpart, at least 1.
struct Utf8Sequence {
  std::size_t length = 0;
  char32_t code_point = 0;
  bool well_formed = false;
};
Utf8Sequence DecodeUtf8(std::string_view text, std::size_t i);

// Writes code_point (at most U+10FFFF, not a surrogate: the caller has decided it is a scalar
// value) in UTF-8 at `out`, 1 to 4 bytes; returns where they end.
inline char* EncodeUtf8(std::uint32_t code_point, char* out) {
  if (code_point < 0x80) {
    *out++ = static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    *out++ = static_cast<char>(0xC0 | (code_point >> 6));
    *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (code_point >> 12));
    *out++ = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (code_point >> 18));
    *out++ = static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (code_point & 0x3F));
  }
  return out;
}

// `text` with each byte that begins no well-formed sequence replaced by U+FFFD (EF BF BD): one
// replacement per byte, as Go's utf8.DecodeRune reads ill-formed text (encoding/json decodes
// strings so), not one per maximal subpart as Unicode recommends.
std::string ReplaceIllFormedUtf8(std::string_view text);

// The length of the run at the start of `text` that a JSON string holds as it is: no byte below
// 0x20, no '"' and no '\\'. Strings are most of what Lightbox parses and re-serializes to hash,
// and scanning them a byte at a time was a quarter of its verification time: 16 bytes at a time
// with SSE2 (every x86-64 has it), 32 with AVX2, 64 with AVX-512BW.
std::size_t JsonPlainPrefix(std::string_view text);

// Whether `text` is all lowercase hex digits (0-9, a-f), as a SHA-256 is written in the formats'
// hash fields: 8 bytes at a time (a byte at a time was 4% of Lightbox's validator). True for "".
bool IsLowercaseHex(std::string_view text);

// Whether the code paths written for AVX-512BW run: the CPU has it, and the environment does not
// say ARCS_SIMD=portable or ARCS_SIMD=avx2 (read once; the tests run the other paths that way on
// any CPU that has them).
bool UseAvx512Bw();
// Whether those written for AVX-512 VBMI and VBMI2 (byte permutes, compress) run too: the CPU has
// them, and the environment does not say ARCS_SIMD=avx512bw (or one of the narrower ones above).
bool UseAvx512Vbmi2();
// Whether those written for AVX2 may run where no AVX-512 path does: the CPU has it, and the
// environment does not say ARCS_SIMD=portable.
bool UseAvx2();

// Numbers on a command line, strictly: the whole text, nothing skipped or clamped (strtoull
// would read " -1" as 2^64-1 and an overflow as its maximum; strtod takes hex and "inf").
// A count: decimal digits only, at most `max`.
std::optional<std::uint64_t> ParseCount(std::string_view text, std::uint64_t max);
// A decimal number (JSON's grammar: 0.5, 2, 1e3), within [min, max].
std::optional<double> ParseDecimal(std::string_view text, double min, double max);

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_STRINGS_H_
