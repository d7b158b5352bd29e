// Writing and comparing json::Value trees. Both walk with an explicit stack: a document parsed
// with a generous depth limit must not overflow the call stack here either.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/number.h"
#include "reference/core/simd_blocks.h"
#include "reference/core/strings.h"
#include "reference/core/swar.h"

namespace arcs::json {

// Python's dict keeps the last value of a repeated name, and sort_keys orders names by code point,
// which is the byte order of their UTF-8.
void AppendMembersSortedLastWins(const Value& object, std::vector<const Member*>* sorted,
                                 std::string_view omit) {
  const std::size_t first = sorted->size();
  for (const Member& m : object.members()) {
    if (omit.empty() || m.name != omit) sorted->push_back(&m);
  }
  const auto begin = sorted->begin() + static_cast<std::ptrdiff_t>(first);
  // Byte order (std::string_view's); names mostly differ in their first byte, told without a call.
  auto by_name = [](const Member* a, const Member* b) {
    if (!a->name.empty() && !b->name.empty() && a->name[0] != b->name[0]) {
      return static_cast<unsigned char>(a->name[0]) < static_cast<unsigned char>(b->name[0]);
    }
    return a->name < b->name;
  };
  // A canonical writer's output, already in order with no repeated name, is the common case.
  if (std::adjacent_find(begin, sorted->end(), [&](const Member* a, const Member* b) {
        return !by_name(a, b);
      }) == sorted->end()) {
    return;
  }
  if (sorted->end() - begin <= 16) {
    // Insertion sort, stable: objects are small, and std::stable_sort allocates a buffer.
    for (auto i = begin + 1; i != sorted->end(); ++i) {
      const Member* m = *i;
      auto j = i;
      for (; j != begin && by_name(m, *(j - 1)); --j) *j = *(j - 1);
      *j = m;
    }
  } else {
    std::stable_sort(begin, sorted->end(), by_name);
  }
  const auto last =
      std::unique(std::make_reverse_iterator(sorted->end()), std::make_reverse_iterator(begin),
                  [](const Member* a, const Member* b) { return a->name == b->name; });
  sorted->erase(begin, last.base());
}

std::vector<const Member*> MembersSortedLastWins(const Value& object) {
  std::vector<const Member*> sorted;
  sorted.reserve(object.members().size());
  AppendMembersSortedLastWins(object, &sorted);
  return sorted;
}

namespace {

// One open container while walking: the value and how many children have been visited, and for
// sorted objects where the order to visit its members in starts in the walk's `sorted` list.
struct Cursor {
  const Value* value;
  std::size_t next;
  std::size_t sorted_start;  // WriteStyle::kPython only
  std::size_t size;          // children to visit
};

// The walk's stack and the sorted member lists of its open objects, kept by each thread from one
// Write to the next: a canonical form is written for every event of a log.
struct WriteScratch {
  std::vector<Cursor> stack;
  std::vector<const Member*> sorted;

  // What a deep or wide document grew is not kept for the thread's life.
  void ReleaseIfLarge() {
    constexpr std::size_t kKept = 4096;
    if (stack.capacity() > kKept) std::vector<Cursor>().swap(stack);
    if (sorted.capacity() > kKept) std::vector<const Member*>().swap(sorted);
  }
};

Cursor Open(const Value* value, WriteStyle style, std::vector<const Member*>* sorted,
            std::string_view omit = {}) {
  if (value->is_array()) return {value, 0, 0, value->items().size()};
  if (style != WriteStyle::kPython) return {value, 0, 0, value->members().size()};
  const std::size_t start = sorted->size();
  AppendMembersSortedLastWins(*value, sorted, omit);
  return {value, 0, start, sorted->size() - start};
}

// Copies `s` (a short run: a name or a plain string staged for one append) to dst, in moves of 16
// bytes, the last one overlapping (or of 8, 4 or single bytes below 16); returns the end. Inline:
// std::copy calls memcpy for each, and Lightbox's verify took about 5% longer with it (8
// alternated pairs over 128 MiB).
char* CopyShort(std::string_view s, char* dst) {
  const std::size_t n = s.size();
  const char* src = s.data();
  const auto move = [&](std::size_t at, auto word) {
    std::memcpy(&word, src + at, sizeof word);
    std::memcpy(dst + at, &word, sizeof word);
  };
  if (n >= 16) {
    struct Bytes16 {
      std::uint64_t low, high;
    };
    for (std::size_t at = 0; at + 16 < n; at += 16) move(at, Bytes16{});
    move(n - 16, Bytes16{});
  } else if (n >= 8) {
    move(0, std::uint64_t{});
    move(n - 8, std::uint64_t{});
  } else if (n >= 4) {
    move(0, std::uint32_t{});
    move(n - 4, std::uint32_t{});
  } else if (n > 0) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  }
  return dst + n;
}

// out->append(staged, n) for a run staged on the stack. Its length is hidden from the optimizer:
// knowing it to be short, GCC expands the copy inside append into `rep movsq`, whose start-up costs
// more than these strings take to copy (7% of Lightbox's verify, in AppendScalar), where glibc's
// memcpy takes a few moves.
void AppendStaged(const char* staged, std::size_t n, std::string* out) {
  asm("" : "+r"(n));
  out->append(staged, n);
}

// `"s"` for a string that needs no escape: one append for all but long ones, not three
// (std::string's push_back is not inlined, and every event of a Lightbox log has a dozen such
// strings: ids, hashes, names of tools).
void AppendQuotedPlain(std::string_view s, std::string* out) {
  constexpr std::size_t kStaged = 126;
  if (s.size() > kStaged) {
    out->push_back('"');
    out->append(s);
    out->push_back('"');
    return;
  }
  char quoted[kStaged + 2];
  quoted[0] = '"';
  *CopyShort(s, quoted + 1) = '"';
  AppendStaged(quoted, s.size() + 2, out);
}

void AppendScalar(const Value& v, std::string* out, WriteStyle style = WriteStyle::kAsParsed) {
  switch (v.kind()) {
    case Kind::kNull:
      out->append("null");
      break;
    case Kind::kFalse:
      out->append("false");
      break;
    case Kind::kTrue:
      out->append("true");
      break;
    case Kind::kNumber:
      out->append(style == WriteStyle::kPython && v.text() == "-0" ? "0" : v.text());
      break;
    case Kind::kString:
      if (v.is_escape_free()) {
        AppendQuotedPlain(v.text(), out);
      } else {
        AppendQuoted(v.text(), out);
      }
      break;
    case Kind::kArray:
    case Kind::kObject:
      break;
  }
}

}  // namespace

namespace {

constexpr char kHex[] = "0123456789abcdef";

// The escape of byte c, which JsonPlainPrefix stops at, written at o; returns its end.
constexpr char* WriteEscape(unsigned char c, char* o) {
  switch (c) {
    case '"':
      return std::copy_n("\\\"", 2, o);
    case '\\':
      return std::copy_n("\\\\", 2, o);
    case '\b':
      return std::copy_n("\\b", 2, o);
    case '\f':
      return std::copy_n("\\f", 2, o);
    case '\n':
      return std::copy_n("\\n", 2, o);
    case '\r':
      return std::copy_n("\\r", 2, o);
    case '\t':
      return std::copy_n("\\t", 2, o);
    default: {
      const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      return std::copy_n(escape, 6, o);
    }
  }
}

// Each byte's escape as WriteEscape writes it, padded to 8 bytes, and its length: 0 for a byte a
// string holds as it is. A writer stores all 8 and keeps `size`, whatever the byte.
struct EscapeText {
  char bytes[8] = {};
  std::size_t size = 0;
};
constexpr std::array<EscapeText, 256> kEscapeTexts = [] {
  std::array<EscapeText, 256> table{};
  for (unsigned c = 0; c < table.size(); ++c) {
    if (c < 0x20 || c == '"' || c == '\\') {
      table[c].size = static_cast<std::size_t>(
          WriteEscape(static_cast<unsigned char>(c), table[c].bytes) - table[c].bytes);
    }
  }
  return table;
}();

void AppendQuotedPortable(std::string_view s, std::string* out) {
  out->push_back('"');
  std::size_t run = 0;  // start of the pending run of bytes that need no escaping
  for (std::size_t i = 0; i < s.size(); ++i) {
    i += JsonPlainPrefix(s.substr(i));
    if (i == s.size()) break;
    out->append(s.data() + run, i - run);
    run = i + 1;
    char escape[6];
    out->append(escape, WriteEscape(static_cast<unsigned char>(s[i]), escape));
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

#if defined(__x86_64__)
// The same, a block (32 or 64 bytes) at a time, each block stored whole into room made at the end
// of *out and kept up to its first byte to escape: a call per run of plain bytes (strings in
// recordings have a \n every few dozen bytes) cost more than the run.
template <typename Blocks>
void AppendQuotedInBlocks(std::string_view s, std::string* out) {
  constexpr std::size_t kSlack = Blocks::kWidth;  // a whole block stored last, or an escape
  std::size_t at = out->size();
  out->resize(at + 1 + s.size() + kSlack + 1);
  (*out)[at++] = '"';
  for (std::size_t i = 0; i < s.size();) {
    // Room for this block and an escape: escapes lengthen the output past what was reserved.
    if (at + kSlack + (s.size() - i) + 1 > out->size()) {
      out->resize(at + kSlack + (s.size() - i) + 1 + s.size() / 2);
    }
    const std::size_t left = s.size() - i;
    const std::uint64_t special = Blocks::ToEscape(s.data() + i, left);
    Blocks::Copy(s.data() + i, left, out->data() + at);
    const bool stops = special != 0;
    const std::size_t n =
        stops ? static_cast<std::size_t>(__builtin_ctzll(special)) : std::min(left, Blocks::kWidth);
    at += n;
    i += n;
    // The escape there, written without a branch on whether the block has one: in text with a \n
    // every few dozen bytes, blocks with and without alternate unpredictably. A block without
    // writes its last byte's entry, which is empty.
    const EscapeText& escape = kEscapeTexts[static_cast<unsigned char>(s[stops ? i : i - 1])];
    std::memcpy(out->data() + at, escape.bytes, sizeof escape.bytes);
    at += escape.size;
    i += stops ? 1 : 0;
  }
  (*out)[at++] = '"';
  out->resize(at);
}

ARCS_AVX512BW_TARGET ARCS_FLATTEN void AppendQuotedAvx512(std::string_view s, std::string* out) {
  AppendQuotedInBlocks<simd::Avx512Blocks>(s, out);
}

ARCS_AVX2_TARGET ARCS_FLATTEN void AppendQuotedAvx2(std::string_view s, std::string* out) {
  AppendQuotedInBlocks<simd::Avx2Blocks>(s, out);
}

// The letter of each byte's two-character escape ('n' for \n), or 0: for the bytes 0-127, which a
// byte permute looks up all at once.
constexpr std::array<char, 128> kEscapeLetters = [] {
  std::array<char, 128> letters{};
  for (std::size_t c = 0; c < letters.size(); ++c) {
    if (kEscapeTexts[c].size == 2) letters[c] = kEscapeTexts[c].bytes[1];
  }
  return letters;
}();

// Half of a 64-byte block written escaped at `to`, as AppendQuotedVbmi2 takes it: `half` picks,
// for byte j of the pairs written, byte j / 2 of that half. The pair of a plain byte is (byte, 0),
// of an `escaped` one ('\\', its letter). No byte written is 0 (NUL is escaped), so the nonzero
// bytes of the pairs are what is written: up to the end of the step, and past it what the next
// step or escape writes over. (Always inlined: a vector argument depends on the caller's target.)
ARCS_AVX512VBMI2_TARGET __attribute__((always_inline)) inline void WriteEscapedHalf(
    __m512i bytes, __m512i letters, __m512i half, __mmask32 escaped, char* to) {
  constexpr __mmask64 kLowBytes = 0x5555555555555555;
  const __m512i pairs = _mm512_mask_mov_epi16(
      _mm512_maskz_permutexvar_epi8(kLowBytes, half, bytes), escaped,
      _mm512_mask_permutexvar_epi8(_mm512_set1_epi8('\\'), ~kLowBytes, half, letters));
  _mm512_storeu_si512(to, _mm512_maskz_compress_epi8(_mm512_test_epi8_mask(pairs, pairs), pairs));
}

// The same with AVX-512 VBMI2, 64 bytes a step, and no branch on where in a block its escapes are:
// each byte becomes a pair (itself and nothing, or a backslash and its escape's letter), and a
// compress of each half's pairs keeps what is written. The escape every few dozen bytes of a
// recording's text (\n) then costs no step of its own; a byte written \u00XX (a control without a
// letter) cuts the step there. The output's room is checked against locals: through `base` (a
// char*) the compiler would otherwise reload *out after each store.
ARCS_AVX512VBMI2_TARGET void AppendQuotedVbmi2(std::string_view s, std::string* out) {
  constexpr std::size_t kSlack = 2 * 64 + 8;  // two whole 64-byte stores, then an 8-byte escape
  const __m512i letters_low = _mm512_loadu_si512(kEscapeLetters.data());
  const __m512i letters_high = _mm512_loadu_si512(kEscapeLetters.data() + 64);
  const __m512i first_half = _mm512_set_epi8(
      31, 31, 30, 30, 29, 29, 28, 28, 27, 27, 26, 26, 25, 25, 24, 24, 23, 23, 22, 22, 21, 21, 20,
      20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8,
      8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
  const __m512i second_half = _mm512_add_epi8(first_half, _mm512_set1_epi8(32));
  std::size_t at = out->size();
  out->resize(at + 1 + s.size() + kSlack);
  char* base = out->data();
  std::size_t room = out->size();
  base[at++] = '"';
  for (std::size_t i = 0; i < s.size();) {
    if (at + kSlack + (s.size() - i) > room) {
      out->resize(at + kSlack + (s.size() - i) + s.size() / 2);
      base = out->data();
      room = out->size();
    }
    const std::size_t n = std::min<std::size_t>(s.size() - i, 64);
    const __m512i bytes = _mm512_maskz_loadu_epi8(simd::LowBits(n), s.data() + i);
    const std::uint64_t special = simd::BytesToEscape(bytes, simd::LowBits(n));
    const __m512i letters = _mm512_permutex2var_epi8(letters_low, bytes, letters_high);
    const std::uint64_t six = special & _mm512_testn_epi8_mask(letters, letters);
    const std::size_t taken = six == 0 ? n : static_cast<std::size_t>(__builtin_ctzll(six));
    const std::uint64_t escaped = special & simd::LowBits(taken);
    if (escaped == 0) {
      _mm512_storeu_si512(base + at, bytes);
      at += taken;
    } else {
      const std::size_t first = std::min<std::size_t>(taken, 32);
      WriteEscapedHalf(bytes, letters, first_half, static_cast<__mmask32>(escaped), base + at);
      at += first + static_cast<std::size_t>(__builtin_popcount(static_cast<__mmask32>(escaped)));
      WriteEscapedHalf(bytes, letters, second_half, static_cast<__mmask32>(escaped >> 32),
                       base + at);
      at += taken - first + static_cast<std::size_t>(__builtin_popcountll(escaped >> 32));
    }
    i += taken;
    if (taken < n) {
      const EscapeText& escape = kEscapeTexts[static_cast<unsigned char>(s[i++])];
      std::memcpy(base + at, escape.bytes, sizeof escape.bytes);
      at += escape.size;
    }
  }
  base[at++] = '"';
  out->resize(at);
}
#endif

constexpr std::size_t kShortString = 16;

// Whether `s` is at most kShortString bytes, none of which is escaped. Member names are: the test
// runs for every member written, so it reads `s` in two words that overlap, and tests each whole.
// (Staged in a padded buffer and read back as one vector, the load waited for the stores just made
// to it: 40% of AppendMemberName's time in Lightbox's verify.)
bool IsShortAndPlain(std::string_view s) {
  static_assert(kShortString == 16);
  const std::size_t n = s.size();
  if (n > kShortString) return false;
  const auto plain = [](std::uint64_t word) {
    return !swar::AnyByteBelow(word, 0x20) && !swar::AnyByteIs(word, '"') &&
           !swar::AnyByteIs(word, '\\');
  };
  const auto at = [&s](std::size_t offset, auto word) {
    std::memcpy(&word, s.data() + offset, sizeof word);
    return static_cast<std::uint64_t>(word);
  };
  constexpr std::uint64_t kPlainHigh = 0x6161616100000000;  // "aaaa" above a 4-byte word
  if (n >= 8) return plain(at(0, std::uint64_t{})) && plain(at(n - 8, std::uint64_t{}));
  if (n >= 4) {
    return plain(at(0, std::uint32_t{}) | kPlainHigh) &&
           plain(at(n - 4, std::uint32_t{}) | kPlainHigh);
  }
  std::uint64_t word = swar::kEachByte * 'a';
  for (std::size_t i = 0; i < n; ++i) {
    word = (word << 8) | static_cast<unsigned char>(s[i]);
  }
  return plain(word);
}

}  // namespace

void AppendQuoted(std::string_view s, std::string* out) {
  // Member names and other short strings, nearly always plain: appended as they are, without the
  // block writer's set-up (room made, and taken back), which costs more than such a string.
  if (IsShortAndPlain(s)) return AppendQuotedPlain(s, out);
#if defined(__x86_64__)
  if (UseAvx512Vbmi2()) return AppendQuotedVbmi2(s, out);
  if (UseAvx512Bw()) return AppendQuotedAvx512(s, out);
  if (UseAvx2()) return AppendQuotedAvx2(s, out);
#endif
  AppendQuotedPortable(s, out);
}

void AppendQuotedAscii(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto unit = [&](std::uint32_t u) {
    out->append("\\u");
    for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(u >> shift) & 0xF]);
  };
  std::string ascii;  // each run of ASCII, escaped as AppendQuoted escapes it
  out->push_back('"');
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t run = i;
    while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x7F) ++i;
    if (i > run) {
      ascii.clear();
      AppendQuoted(s.substr(run, i - run), &ascii);
      out->append(ascii, 1, ascii.size() - 2);
    }
    if (i == s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == 0x7F) {  // Python escapes DEL too: it is not printable ASCII
      unit(c);
      ++i;
      continue;
    }
    const int length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    std::uint32_t cp = c & (0x7F >> length);
    for (int k = 1; k < length && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
    if (cp >= 0x10000) {
      unit(0xD800 + ((cp - 0x10000) >> 10));
      unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      unit(cp);
    }
    i += length;
  }
  out->push_back('"');
}

void AppendPointerToken(std::string_view token, std::string* out) {
  std::size_t run = 0;  // the pending bytes that need no escaping, appended at once
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' || token[i] == '/') {
      out->append(token.substr(run, i - run)).append(token[i] == '~' ? "~0" : "~1");
      run = i + 1;
    }
  }
  out->append(token.substr(run));
}

namespace {

// Whether an object has a float among the members WriteStyle::kPython leaves out: the earlier
// members of a repeated name. Python's json.loads reads those too, and refuses their floats as it
// refuses any. Checked only for objects that repeat a name.
bool HidesAFloat(const Value& value) {
  return value.is_object() && value.repeats_a_name() && FirstPointerWhere(value, &IsFloat);
}

// Write's walk, with the members named `omit` (unless empty) of the top-level object left out
// (WriteStyle::kPython only). With kRefuseFloats, false at the first float, what was written before
// it left for the caller to take back.
template <bool kRefuseFloats>
bool WriteTree(const Value& value, std::string* out, WriteStyle style, std::string_view omit) {
  if (!value.is_array() && !value.is_object()) {
    if (kRefuseFloats && IsFloat(value)) return false;
    AppendScalar(value, out, style);
    return true;
  }
  if (kRefuseFloats && HidesAFloat(value)) return false;
  thread_local WriteScratch scratch;
  std::vector<Cursor>& stack = scratch.stack;
  std::vector<const Member*>& sorted = scratch.sorted;
  const std::size_t stack_base = stack.size();  // the scratch is empty unless Write is re-entered
  const std::size_t sorted_base = sorted.size();
  stack.push_back(Open(&value, style, &sorted, omit));
  out->push_back(value.is_array() ? '[' : '{');
  bool written = true;
  while (stack.size() > stack_base) {
    Cursor& top = stack.back();
    const Value& container = *top.value;
    if (top.next == top.size) {
      out->push_back(container.is_array() ? ']' : '}');
      if (container.is_object() && style == WriteStyle::kPython) sorted.resize(top.sorted_start);
      stack.pop_back();
      continue;
    }
    const Value* child;
    if (container.is_array()) {
      if (top.next > 0) out->push_back(',');
      child = &container.items()[top.next];
    } else {
      const Member& m = style == WriteStyle::kPython ? *sorted[top.sorted_start + top.next]
                                                     : container.members()[top.next];
      AppendMemberName(m.name, out);
      child = &m.value;
    }
    ++top.next;
    if (kRefuseFloats && (IsFloat(*child) || HidesAFloat(*child))) {
      written = false;
      break;
    }
    if (child->is_array() || child->is_object()) {
      out->push_back(child->is_array() ? '[' : '{');
      stack.push_back(Open(child, style, &sorted));  // may move `top`: not used again in this turn
    } else {
      AppendScalar(*child, out, style);
    }
  }
  stack.resize(stack_base);
  sorted.resize(sorted_base);
  if (stack_base == 0) scratch.ReleaseIfLarge();
  return written;
}

}  // namespace

bool IsFloat(const Value& value) {
  // A JSON number has a fraction or an exponent exactly when its text holds one of these (a
  // Document's numbers are valid JSON).
  return value.is_number() && value.text().find_first_of(".eE") != std::string_view::npos;
}

void Write(const Value& value, std::string* out, WriteStyle style) {
  WriteTree<false>(value, out, style, {});
}

bool WritePythonWithoutFloats(const Value& value, std::string_view omit, std::string* out) {
  if (!omit.empty() && value.is_object()) {  // left out, but a float still
    for (const Member& m : value.members()) {
      if (m.name == omit && FirstPointerWhere(m.value, &IsFloat)) return false;
    }
  }
  const std::size_t size = out->size();
  if (WriteTree<true>(value, out, WriteStyle::kPython, omit)) return true;
  out->resize(size);
  return false;
}

void AppendMemberName(std::string_view name, std::string* out) {
  const bool comma = out->back() != '{';
  char text[kShortString + 4];  // ,"name":
  char* end = text;
  if (comma) *end++ = ',';
  *end++ = '"';
  if (IsShortAndPlain(name)) {  // one call, as AppendQuoted's: every member written takes one
    end = CopyShort(name, end);
    *end++ = '"';
    *end++ = ':';
    AppendStaged(text, static_cast<std::size_t>(end - text), out);
    return;
  }
  if (comma) out->push_back(',');
  AppendQuoted(name, out);
  out->push_back(':');
}

void AppendRawMember(std::string_view name, std::string_view raw, std::string* out) {
  AppendMemberName(name, out);
  *out += raw;
}

void AppendMember(std::string_view name, std::string_view value, std::string* out) {
  AppendMemberName(name, out);
  AppendQuoted(value, out);
}

std::string ToString(const Value& value) {
  std::string out;
  Write(value, &out);
  return out;
}

namespace {

// An object's members: in source order, or in name order keeping the source order of repeated
// names; with kFirst or kLast only that one of each repeated name.
std::vector<const Member*> Members(const Value& object, bool in_order, RepeatedNames repeated) {
  std::vector<const Member*> out;
  for (const Member& m : object.members()) out.push_back(&m);
  if (in_order) return out;
  std::stable_sort(out.begin(), out.end(),
                   [](const Member* a, const Member* b) { return a->name < b->name; });
  if (repeated == RepeatedNames::kKeepAll) return out;
  std::vector<const Member*> one;
  for (const Member* m : out) {
    if (!one.empty() && one.back()->name == m->name) {
      if (repeated == RepeatedNames::kLast) one.back() = m;
    } else {
      one.push_back(m);
    }
  }
  return one;
}

// How two values are compared: Equal (spelling and member order count) or SameData.
struct Comparison {
  bool by_text = true;  // numbers by their text, members in order
  RepeatedNames repeated = RepeatedNames::kKeepAll;
};

// Two values of the same kind that is not a container.
bool SameScalar(const Value& x, const Value& y, const Comparison& how) {
  switch (x.kind()) {
    case Kind::kNumber:
      return how.by_text ? x.text() == y.text() : SameValue(x.text(), y.text());
    case Kind::kString:
      return x.text() == y.text();
    default:
      return true;
  }
}

bool IsContainer(const Value& v) { return v.is_array() || v.is_object(); }

bool Compare(const Value& a, const Value& b, const Comparison& how) {
  // Most comparisons are of scalars (a schema's const and enum against a name or a tag): no stack.
  if (!IsContainer(a)) return a.kind() == b.kind() && SameScalar(a, b, how);
  std::vector<std::pair<const Value*, const Value*>> work;
  work.emplace_back(&a, &b);
  while (!work.empty()) {
    auto [x, y] = work.back();
    work.pop_back();
    if (x->kind() != y->kind()) return false;
    switch (x->kind()) {
      case Kind::kArray: {
        auto xs = x->items();
        auto ys = y->items();
        if (xs.size() != ys.size()) return false;
        for (std::size_t i = 0; i < xs.size(); ++i) work.emplace_back(&xs[i], &ys[i]);
        break;
      }
      case Kind::kObject: {
        std::vector<const Member*> xs = Members(*x, how.by_text, how.repeated);
        std::vector<const Member*> ys = Members(*y, how.by_text, RepeatedNames::kKeepAll);
        if (xs.size() != ys.size()) return false;
        for (std::size_t i = 0; i < xs.size(); ++i) {
          if (xs[i]->name != ys[i]->name) return false;
          work.emplace_back(&xs[i]->value, &ys[i]->value);
        }
        break;
      }
      default:
        if (!SameScalar(*x, *y, how)) return false;
        break;
    }
  }
  return true;
}

}  // namespace

bool Equal(const Value& a, const Value& b) { return Compare(a, b, {}); }

bool SameData(const Value& a, const Value& b, RepeatedNames repeated) {
  return Compare(a, b, {.by_text = false, .repeated = repeated});
}

}  // namespace arcs::json
