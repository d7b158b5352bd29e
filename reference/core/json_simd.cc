#include "reference/core/json_simd.h"

#include <simdjson.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "reference/core/simd_blocks.h"
#include "reference/core/strings.h"

namespace arcs::json::internal {
namespace {

// simdjson's stage 1, one per thread, reused from text to text. Its index takes 4 bytes per byte of
// capacity (untouched beyond the structurals a text has), so a capacity grown for a huge text is
// given back afterwards rather than kept for the thread's life.
class StructuralIndex {
 public:
  enum class Outcome : std::uint8_t {
    kIndexed,
    kEmpty,     // whitespace only
    kUnclosed,  // it ends inside a string
    kRefused,   // ill-formed UTF-8, a raw control character in a string, or more than simdjson
                // can take
  };
  // Indexes text[0, size), as simdjson would a whole text: positions from text.
  Outcome Build(const char* text, std::size_t size) {
    if (!Reserve(size)) return Outcome::kRefused;
    switch (parser_->stage1(reinterpret_cast<const std::uint8_t*>(text), size,
                            simdjson::stage1_mode::regular)) {
      case simdjson::SUCCESS:
        return Outcome::kIndexed;
      case simdjson::EMPTY:
        return Outcome::kEmpty;
      case simdjson::UNCLOSED_STRING:
        return Outcome::kUnclosed;
      default:
        return Outcome::kRefused;
    }
  }
  const std::uint32_t* positions() const { return parser_->structural_indexes.get(); }
  // Positions from `base` bytes before the text indexed: a piece's from the whole text's start, so
  // that the walk reads a piece's index as it reads a whole text's.
  void Offset(std::uint32_t base) {
    std::uint32_t* const at = parser_->structural_indexes.get();
    for (std::uint32_t k = 0; k < count(); ++k) at[k] += base;
  }
  std::uint32_t count() const { return parser_->n_structural_indexes; }
  void ReleaseIfLarge() {
    if (capacity_ > kKeptCapacity) {
      parser_.reset();
      capacity_ = 0;
    }
  }

 private:
  static constexpr std::size_t kKeptCapacity = std::size_t{1} << 20;
  bool Reserve(std::size_t size) {
    if (parser_ && size < capacity_) return true;
    const std::size_t capacity = std::max<std::size_t>({size + 1, 2 * capacity_, 4096});
    parser_.reset();
    capacity_ = 0;
    // Stage 2's depth is never used: ARCS walks the index itself.
    if (simdjson::get_active_implementation()->create_dom_parser_implementation(
            capacity, 1, parser_) != simdjson::SUCCESS) {
      return false;
    }
    capacity_ = capacity;
    return true;
  }
  std::unique_ptr<simdjson::internal::dom_parser_implementation> parser_;
  std::size_t capacity_ = 0;
};

thread_local std::size_t stage1_piece_bytes = kStage1PieceBytes;

bool IsStructuralOrSpace(char c) {
  return IsJsonSpace(c) || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}';
}
thread_local SimdCounts counts;

// What each escaped letter of a two-character escape stands for, by the letter's code (0: it does
// not make one).
constexpr std::array<char, 128> kEscapedLetters = [] {
  std::array<char, 128> letters{};
  for (const auto& [letter, meaning] : {std::pair{'"', '"'},
                                        {'/', '/'},
                                        {'\\', '\\'},
                                        {'b', '\b'},
                                        {'f', '\f'},
                                        {'n', '\n'},
                                        {'r', '\r'},
                                        {'t', '\t'}}) {
    letters[static_cast<unsigned char>(letter)] = meaning;
  }
  return letters;
}();

// One escape at *src (a backslash; the text ends at text_end), decoded at *dst. A surrogate without
// its partner is refused, or with kReplace decoded as U+FFFD, as Go's decoder reads it.
inline bool Unescape(char** src, const char* text_end, char** dst, LoneSurrogates lone) {
  const char* p = *src;
  const std::string_view rest(p, static_cast<std::size_t>(text_end - p));
  // A table, not a switch: the kinds of escape alternate unpredictably in text (\n, \", \u), and a
  // mispredicted jump through a switch's table was most of an escape's cost.
  const auto letter = static_cast<unsigned char>(rest.size() > 1 ? p[1] : '\0');
  const char simple = letter < kEscapedLetters.size() ? kEscapedLetters[letter] : '\0';
  if (simple != 0) {
    *(*dst)++ = simple;
    *src += 2;
    return true;
  }
  if (letter != 'u') return false;
  const int unit = Hex4(rest, 2);
  if (unit < 0) return false;
  std::uint32_t code_point = static_cast<std::uint32_t>(unit);
  std::size_t taken = 6;
  const int low =
      unit >= 0xD800 && unit <= 0xDBFF && rest.size() >= 12 && rest[6] == '\\' && rest[7] == 'u'
          ? Hex4(rest, 8)
          : -1;
  if (low >= 0xDC00 && low <= 0xDFFF) {
    code_point = 0x10000 + ((code_point - 0xD800) << 10) + static_cast<std::uint32_t>(low - 0xDC00);
    taken = 12;
  } else if (unit >= 0xD800 && unit <= 0xDFFF) {
    // Refused, RapidJSON decides: so the walk hands the builder only strings without an unpaired
    // surrogate (ValueBuilder::PairedString). Go's decoder reads the lone escape alone, as U+FFFD.
    if (lone == LoneSurrogates::kRefuse) return false;
    code_point = 0xFFFD;
  }
  *dst = EncodeUtf8(code_point, *dst);
  *src += taken;
  return true;
}

// Where the decoded string that starts at `out` goes on from: the plain prefix [start, first
// backslash) is left where it stands when decoding in place (out == start), copied otherwise.
inline char* PastThePlainPrefix(const char* start, const char* backslash, char* out) {
  const auto prefix = static_cast<std::size_t>(backslash - start);
  if (out != start) std::memcpy(out, start, prefix);
  return out + prefix;
}

// A string's body [start, close), decoded as RapidJSON decodes it, into `out`: in place (out ==
// start), or into a buffer of close - start bytes of its own. *src: null when the body has no
// backslash (nothing is written: the string is its source); otherwise where decoding stopped,
// with *dst where the decoded bytes end: true with *src == close, or false with *src at an escape
// that is not JSON (or past the quote, which stage 1 rules out). Inside a string that stage 1
// accepted (no raw quote or control character), the only byte that ends a plain run is a
// backslash.
bool DecodeStringPortable(char* start, char* close, const char* text_end, LoneSurrogates lone,
                          char* out, char** src, char** dst) {
  *src = static_cast<char*>(std::memchr(start, '\\', static_cast<std::size_t>(close - start)));
  if (*src == nullptr) return true;
  *dst = PastThePlainPrefix(start, *src, out);
  while (*src < close) {
    if (**src == '\\') {
      if (!Unescape(src, text_end, dst, lone)) return false;
      continue;
    }
    const void* backslash = std::memchr(*src, '\\', static_cast<std::size_t>(close - *src));
    const std::size_t run =
        static_cast<std::size_t>((backslash ? static_cast<const char*>(backslash) : close) - *src);
    std::memmove(*dst, *src, run);
    *src += run;
    *dst += run;
  }
  return *src == close;
}

#if defined(__x86_64__)
// 0, 1, ..., 63: each byte's place in a block.
alignas(64) constexpr std::array<char, 64> kByteIndexes = [] {
  std::array<char, 64> indexes{};
  for (std::size_t k = 0; k < indexes.size(); ++k) indexes[k] = static_cast<char>(k);
  return indexes;
}();

// The backslashes of `backslashes` (a block's, which starts outside any escape) that begin an
// escape: in each run of them, the first and every other one after it. Without a branch: adding a
// run's first bit to the run carries through it, so the runs that start at an even position are
// the backslashes that addition clears; in those the even positions begin escapes, in the others
// the odd ones.
inline std::uint64_t EscapeStarts(std::uint64_t backslashes) {
  constexpr std::uint64_t kEven = 0x5555555555555555;
  const std::uint64_t run_starts = backslashes & ~(backslashes << 1);
  const std::uint64_t in_even_runs = backslashes & ~(backslashes + (run_starts & kEven));
  return (in_even_runs & kEven) | (backslashes & ~in_even_runs & ~kEven);
}

// Byte i of the result is byte i + k of x (indexes: kByteIndexes), modulo 64. (Zero-masked with
// every byte kept: GCC 12's unmasked form reads an undefined register, which -Werror refuses.)
ARCS_AVX512VBMI2_TARGET inline __m512i ShiftedDown(__m512i x, __m512i indexes, int k) {
  return _mm512_maskz_permutexvar_epi8(
      ~__mmask64{0}, _mm512_add_epi8(indexes, _mm512_set1_epi8(static_cast<char>(k))), x);
}

ARCS_AVX512VBMI2_TARGET inline __m512i ByteBits(__m512i x, int mask) {
  return _mm512_and_si512(x, _mm512_set1_epi8(static_cast<char>(mask)));
}

// The \u escapes of a block v (their backslashes at `unicode`; `whole` bytes valid) decoded in
// the block register, all at once: each escape's UTF-8 bytes (one to three) in place of its first
// bytes, the rest of it added to `dropped`. An escape of a surrogate (a pair needs both halves),
// one without four hex digits, or one past the block's end is added to `refused`, for Unescape.
// Text written by an ASCII-only writer (Python's json.dumps) has a \u escape for each character
// that is not ASCII: one at a time, they halved the decoder's speed.
ARCS_AVX512VBMI2_TARGET inline void DecodeUnicodeEscapes(__m512i v, std::uint64_t unicode,
                                                         std::size_t whole, __m512i* block,
                                                         std::uint64_t* dropped,
                                                         std::uint64_t* refused) {
  const __m512i indexes = _mm512_load_si512(kByteIndexes.data());
  // Each byte's value as a hex digit, and whether it is one.
  const __m512i digit = _mm512_sub_epi8(v, _mm512_set1_epi8('0'));
  const __m512i letter =
      _mm512_sub_epi8(_mm512_or_si512(v, _mm512_set1_epi8(0x20)), _mm512_set1_epi8('a'));
  const __mmask64 is_digit = _mm512_cmplt_epu8_mask(digit, _mm512_set1_epi8(10));
  const __mmask64 is_hex =
      (is_digit | _mm512_cmplt_epu8_mask(letter, _mm512_set1_epi8(6))) & simd::LowBits(whole);
  // (Four bits a byte, whatever the byte: shifted in 16-bit lanes, no bit may reach the next byte.)
  const __m512i nibble = ByteBits(
      _mm512_mask_mov_epi8(_mm512_add_epi8(letter, _mm512_set1_epi8(10)), is_digit, digit), 0x0F);
  // At each escape's backslash: the digits after it, two a byte (high: the first two).
  const __m512i high = _mm512_or_si512(_mm512_slli_epi16(ShiftedDown(nibble, indexes, 2), 4),
                                       ShiftedDown(nibble, indexes, 3));
  const __m512i low = _mm512_or_si512(_mm512_slli_epi16(ShiftedDown(nibble, indexes, 4), 4),
                                      ShiftedDown(nibble, indexes, 5));
  const std::uint64_t four_digits = is_hex >> 2 & is_hex >> 3 & is_hex >> 4 & is_hex >> 5;
  const std::uint64_t surrogate =
      _mm512_cmpeq_epi8_mask(_mm512_and_si512(high, _mm512_set1_epi8(static_cast<char>(0xF8))),
                             _mm512_set1_epi8(static_cast<char>(0xD8)));
  const std::uint64_t decoded = unicode & four_digits & ~surrogate;
  *refused |= unicode & ~decoded;
  if (decoded == 0) return;
  // The UTF-8 bytes at each backslash: one for U+0000-U+007F, two up to U+07FF, else three.
  const std::uint64_t one = _mm512_cmpeq_epi8_mask(high, _mm512_setzero_si512()) &
                            _mm512_cmplt_epu8_mask(low, _mm512_set1_epi8(static_cast<char>(0x80)));
  const std::uint64_t two = ~one & _mm512_cmplt_epu8_mask(high, _mm512_set1_epi8(0x08));
  const __m512i low_top = ByteBits(_mm512_srli_epi16(low, 6), 0x03);
  const __m512i last =
      _mm512_or_si512(ByteBits(low, 0x3F), _mm512_set1_epi8(static_cast<char>(0x80)));
  __m512i first = _mm512_or_si512(_mm512_set1_epi8(static_cast<char>(0xE0)),
                                  ByteBits(_mm512_srli_epi16(high, 4), 0x0F));
  first = _mm512_mask_mov_epi8(
      first, two,
      _mm512_or_si512(_mm512_set1_epi8(static_cast<char>(0xC0)),
                      _mm512_or_si512(_mm512_slli_epi16(ByteBits(high, 0x07), 2), low_top)));
  first = _mm512_mask_mov_epi8(first, one, low);
  const __m512i middle =
      _mm512_or_si512(_mm512_set1_epi8(static_cast<char>(0x80)),
                      _mm512_or_si512(_mm512_slli_epi16(ByteBits(high, 0x0F), 2), low_top));
  __m512i second = _mm512_mask_mov_epi8(middle, two, last);
  // The second and third bytes go after the first: moved up one byte and two.
  const std::uint64_t two_or_more = decoded & ~one;
  const std::uint64_t three = two_or_more & ~two;
  *block = _mm512_mask_mov_epi8(*block, decoded, first);
  *block = _mm512_mask_mov_epi8(*block, two_or_more << 1, ShiftedDown(second, indexes, -1));
  *block = _mm512_mask_mov_epi8(*block, three << 2, ShiftedDown(last, indexes, -2));
  const std::uint64_t escapes =
      decoded << 1 | decoded << 2 | decoded << 3 | decoded << 4 | decoded << 5;
  *dropped = (*dropped & ~decoded) | (escapes & ~(two_or_more << 1) & ~(three << 2));
}

// The same, a block of 64 bytes at a time, with AVX-512 VBMI2: a block's two-character escapes are
// decoded together (each escaped letter looked up in a table, the backslashes squeezed out by one
// compress), so that the escape every few dozen bytes of a recording's text (\n) costs no branch
// of its own; so are its \u escapes (DecodeUnicodeEscapes), all but surrogates; any other escape,
// or one that is not JSON, is left to Unescape. Loads are masked (nothing past `close` is read),
// and so are stores: a block's decoded bytes, no more than it read, are written where they belong,
// in place at or before the block (an unmasked store could reach bytes not read yet; staged in a
// scratch buffer and copied back, they cost a copy of the text) or in `out`'s buffer.
ARCS_AVX512VBMI2_TARGET bool DecodeStringAvx512(char* start, char* close, const char* text_end,
                                                LoneSurrogates lone, char* out, char** src_out,
                                                char** dst_out) {
  const __m512i backslash = _mm512_set1_epi8('\\');
  char* src = start;
  for (;;) {  // the plain prefix
    const std::size_t left = static_cast<std::size_t>(close - src);
    if (left == 0) {
      *src_out = *dst_out = nullptr;
      return true;
    }
    const __mmask64 valid = simd::LowBits(left);
    const __m512i v = _mm512_maskz_loadu_epi8(valid, src);
    const __mmask64 stops = _mm512_cmpeq_epi8_mask(v, backslash) & valid;
    if (stops != 0) {
      src += __builtin_ctzll(stops);
      break;
    }
    src += std::min<std::size_t>(left, 64);
  }
  const __m512i letters_low = _mm512_loadu_si512(kEscapedLetters.data());
  const __m512i letters_high = _mm512_loadu_si512(kEscapedLetters.data() + 64);
  const __m512i letter_u = _mm512_set1_epi8('u');
  char* dst = PastThePlainPrefix(start, src, out);
  bool ok = true;
  while (src < close) {
    const std::size_t whole = std::min<std::size_t>(static_cast<std::size_t>(close - src), 64);
    const __m512i v = _mm512_maskz_loadu_epi8(simd::LowBits(whole), src);
    const std::uint64_t backslashes = _mm512_cmpeq_epi8_mask(v, backslash) & simd::LowBits(whole);
    std::size_t taken = whole;
    if (backslashes == 0) {
      _mm512_mask_storeu_epi8(dst, simd::LowBits(whole), v);
      dst += whole;
    } else {
      const std::uint64_t starts = EscapeStarts(backslashes);
      const __m512i decoded = _mm512_permutex2var_epi8(letters_low, v, letters_high);
      // Escapes this block does not decode: a letter outside the table (u, not JSON, or past
      // the text) or past the block. The block is cut before the first of them.
      const std::uint64_t not_two_char =
          (_mm512_cmpeq_epi8_mask(decoded, _mm512_setzero_si512()) | _mm512_movepi8_mask(v));
      const std::uint64_t other_letters = starts << 1 & not_two_char;
      std::uint64_t refused = starts & 1ull << 63;
      __m512i block = _mm512_mask_mov_epi8(v, starts << 1, decoded);
      std::uint64_t dropped = starts;
      if (other_letters != 0) {  // most blocks have only two-character escapes
        const std::uint64_t unicode = (other_letters & _mm512_cmpeq_epi8_mask(v, letter_u)) >> 1;
        refused |= other_letters >> 1 & ~unicode;
        if (unicode != 0) DecodeUnicodeEscapes(v, unicode, whole, &block, &dropped, &refused);
      }
      if (refused != 0) taken = static_cast<std::size_t>(__builtin_ctzll(refused));
      const std::uint64_t kept = simd::LowBits(taken) & ~dropped;
      const auto written = static_cast<std::size_t>(__builtin_popcountll(kept));
      _mm512_mask_storeu_epi8(dst, simd::LowBits(written), _mm512_maskz_compress_epi8(kept, block));
      dst += written;
    }
    src += taken;
    if (taken == whole) continue;
    // Cut before an escape this block does not decode: Unescape takes it now, and the \u
    // escapes right after it (text written by an ASCII-only writer, Python's json.dumps, has
    // one for each character that is not ASCII) without a block between them.
    do {
      if (!(ok = Unescape(&src, text_end, &dst, lone))) break;
    } while (src + 1 < close && src[0] == '\\' && src[1] == 'u');
    if (!ok) break;
  }
  *src_out = src;
  *dst_out = dst;
  return ok && src == close;
}

// The same with blocks of any width (AVX2's; a CPU with AVX-512BW but not VBMI2 takes them too), an
// escape at a time: a block is stored whole and kept up to its first backslash, and Unescape takes
// the escape there, in the same step. One call to memchr and one to memmove an escape, as the
// portable decoder makes, cost more than the run between two \n of a recording's text.
template <typename Blocks>
bool DecodeStringInBlocks(char* start, char* close, const char* text_end, LoneSurrogates lone,
                          char* out, char** src_out, char** dst_out) {
  // The bytes from src up to the next backslash in its block or the close, and whether a
  // backslash ends them.
  const auto run = [close](const char* src, bool* stops) {
    const auto left = static_cast<std::size_t>(close - src);
    const std::uint64_t backslashes = Blocks::Backslashes(src, left);
    *stops = backslashes != 0;
    return *stops ? static_cast<std::size_t>(__builtin_ctzll(backslashes))
                  : std::min(left, Blocks::kWidth);
  };
  char* src = start;
  for (bool stops = false; !stops;) {  // the plain prefix
    if (src == close) {
      *src_out = *dst_out = nullptr;
      return true;
    }
    src += run(src, &stops);
  }
  // Decoded bytes go to a scratch buffer in whole-block stores and are copied into place a chunk at
  // a time (in place, dst stays at or before src, so the copy overwrites only what was read). A
  // chunk; past it, a whole block stored where the chunk ends, and an escape Unescape decodes (4
  // bytes at most).
  constexpr std::size_t kChunk = 16 * 1024;
  thread_local char scratch[kChunk + Blocks::kWidth + 4];
  char* dst = PastThePlainPrefix(start, src, out);
  bool ok = true;
  while (ok && src < close) {
    char* staged = scratch;
    while (src < close && staged < scratch + kChunk) {
      bool stops = false;
      Blocks::Copy(src, static_cast<std::size_t>(close - src), staged);
      const std::size_t plain = run(src, &stops);
      src += plain;
      staged += plain;
      if (stops && !(ok = Unescape(&src, text_end, &staged, lone))) break;
    }
    const auto decoded = static_cast<std::size_t>(staged - scratch);
    std::memcpy(dst, scratch, decoded);
    dst += decoded;
  }
  *src_out = src;
  *dst_out = dst;
  return ok && src == close;
}

ARCS_AVX2_TARGET ARCS_FLATTEN bool DecodeStringAvx2(char* start, char* close, const char* text_end,
                                                    LoneSurrogates lone, char* out, char** src_out,
                                                    char** dst_out) {
  return DecodeStringInBlocks<simd::Avx2Blocks>(start, close, text_end, lone, out, src_out,
                                                dst_out);
}
#endif

// False when [start, close) holds no backslash, which most names and short values are seen to hold
// here, in a word or two, without a call to the decoder; true for those that may (and all longer).
[[gnu::always_inline]] inline bool MayHoldABackslash(const char* start, const char* close) {
  const auto n = static_cast<std::size_t>(close - start);
  if (n > 16) return true;
  const auto has = [](std::uint64_t word) {  // a byte of `word` is a backslash
    word ^= 0x5C5C5C5C5C5C5C5Cull;
    return ((word - 0x0101010101010101ull) & ~word & 0x8080808080808080ull) != 0;
  };
  const auto at = [&](std::size_t offset, auto word) {
    std::memcpy(&word, start + offset, sizeof word);
    return static_cast<std::uint64_t>(word);
  };
  if (n >= 8) return has(at(0, std::uint64_t{})) || has(at(n - 8, std::uint64_t{}));
  if (n >= 4) return has(at(0, std::uint32_t{})) || has(at(n - 4, std::uint32_t{}));
  return std::find(start, close, '\\') != close;
}

using DecodeStringFunction = bool (*)(char*, char*, const char*, LoneSurrogates, char*, char**,
                                      char**);
const DecodeStringFunction kDecodeString = [] {
#if defined(__x86_64__)
  if (UseAvx512Vbmi2()) return &DecodeStringAvx512;
  if (UseAvx2()) return &DecodeStringAvx2;
#endif
  return &DecodeStringPortable;
}();

// One walk over the structural index: values in, events out to the builder. Iterative; the
// builder's frames are the only stack. Stage 1 indexes the text a piece at a time, as the walk
// reaches the end of what is indexed: a piece's index and text are still in the cache when the walk
// reads them, and the index never grows past a piece's.
class Walker {
 public:
  Walker(char* text, std::size_t size, LoneSurrogates lone, StructuralIndex* index,
         ValueBuilder* builder, TextStream* stream)
      : text_(text),
        size_(size),
        lone_(lone),
        piece_bytes_(lone == LoneSurrogates::kRefuse || stream->read_only ? stage1_piece_bytes : 0),
        index_(*index),
        builder_(*builder),
        stream_(*stream) {}

  // Indexes the first piece: false when stage 1 refuses it or finds no token.
  bool Start() { return IndexPiece() && count_ > 0; }

  bool Run() {
    bool value_expected = true;
    for (;;) {
      if (value_expected) {
        const Read read = Value();
        if (read == Read::kRefused) return false;
        if (read == Read::kOpened) continue;
      }
      value_expected = false;
      if (builder_.frames.empty()) return !Have() && !refused_;
      if (!Have()) return false;
      const char separator = Structural();
      const bool in_object = builder_.frames.back().is_object;
      if (separator == ',') {
        if (in_object && !Name()) return false;
        value_expected = true;
      } else if (separator != (in_object ? '}' : ']') || !Close()) {
        return false;
      }
    }
  }

  // The spans of strings decoded in place (their source is gone), for Neutralize.
  const std::vector<std::pair<std::size_t, std::size_t>>& written() const { return written_; }

 private:
  // Whether a structural is left to read, indexing the next pieces when the walk has read every
  // one indexed.
  // (Inlined: the walk asks before each structural, and a text indexed whole, as most are, has
  // nothing more to index. Called, they cost 7% more instructions of a SessionData read.)
  [[gnu::always_inline]] bool Have() { return next_ != count_ || IndexTheNextPieces(); }
  [[gnu::noinline]] bool IndexTheNextPieces() {
    while (next_ == count_) {
      if (indexed_to_ == size_ || !IndexPiece()) return false;
    }
    return true;
  }

  // Where the next structural is (the text's end after the last); false when stage 1 refused a
  // piece of the text.
  [[gnu::always_inline]] bool NextAt(std::size_t* at) {
    if (Have()) {  // then no piece was refused
      *at = at_[next_];
      return true;
    }
    *at = size_;
    return !refused_;
  }

  // Indexes the piece of the text after the last. Stage 1 indexes a piece as it indexes the whole
  // text when the whole text's stage 1 stands outside any string, escape and scalar where the
  // piece starts and ends. It does at the text's start, and just past a structural character or
  // whitespace that follows a piece stage 1 found to end outside a string. A piece found to end
  // inside one was cut just past the quote that opens it (PieceEnd): it is cut again before that
  // quote.
  bool IndexPiece() {
    ++counts.pieces;
    std::size_t end = PieceEnd(indexed_to_);
    StructuralIndex::Outcome outcome = index_.Build(text_ + indexed_to_, end - indexed_to_);
    if (outcome == StructuralIndex::Outcome::kUnclosed && end != size_) {
      const std::size_t quote = end - 2;
      end = IsStructuralOrSpace(text_[quote - 1]) ? quote : size_;
      outcome = index_.Build(text_ + indexed_to_, end - indexed_to_);
    }
    next_ = 0;
    refused_ = outcome == StructuralIndex::Outcome::kRefused ||
               outcome == StructuralIndex::Outcome::kUnclosed;
    if (outcome == StructuralIndex::Outcome::kIndexed && indexed_to_ != 0) {
      index_.Offset(static_cast<std::uint32_t>(indexed_to_));
    }
    indexed_to_ = refused_ ? size_ : end;
    at_ = index_.positions();
    count_ = outcome == StructuralIndex::Outcome::kIndexed ? index_.count() : 0;
    return !refused_;
  }

  // The end of the piece from `from`: the text's end, or at most piece_bytes_ on, just past a quote
  // (no backslash before it) and the ',', ':', '}' or ']' after it, which that quote closes unless
  // a string starts with one.
  std::size_t PieceEnd(std::size_t from) const {
    if (piece_bytes_ == 0 || size_ - from < 2 * piece_bytes_) return size_;
    const char* const floor = text_ + from + 1;
    for (const char* limit = text_ + from + piece_bytes_; limit > floor;) {
      const auto* quote =
          static_cast<const char*>(memrchr(floor, '"', static_cast<std::size_t>(limit - floor)));
      if (quote == nullptr) break;
      const char after = quote[1];
      if ((after == ',' || after == ':' || after == '}' || after == ']') && quote[-1] != '\\') {
        return static_cast<std::size_t>(quote + 2 - text_);
      }
      limit = quote;
    }
    return size_;
  }

  // The next structural character or token start, consumed (Have() said there is one); the
  // stream stands after it, where RapidJSON's would stand after reading it (the builder takes
  // positions from the stream).
  char Structural() {
    const std::size_t at = at_[next_++];
    stream_.cur = text_ + at + 1;
    return text_[at];
  }

  enum class Read : std::uint8_t { kRefused, kComplete, kOpened };

  // A value: a scalar, an empty container, or a container opened (with its first member's name)
  // whose first value comes next.
  Read Value() {
    if (!Have()) return Read::kRefused;
    const std::size_t at = at_[next_];
    const char c = Structural();
    bool ok;
    if (c != '{' && c != '[') {
      ok = Scalar(at) && AtTokenEnd();
    } else if (!builder_.Open(c == '{') || !Have()) {
      ok = false;
    } else if (text_[at_[next_]] == (c == '{' ? '}' : ']')) {
      Structural();
      ok = Close();
    } else {
      return c == '[' || Name() ? Read::kOpened : Read::kRefused;
    }
    return ok ? Read::kComplete : Read::kRefused;
  }

  // A member's name and its colon.
  [[gnu::always_inline]] bool Name() {
    if (!Have() || Structural() != '"') return false;
    const char* name;
    std::size_t length;
    bool escaped;
    if (!String(&name, &length, &escaped) || !AtTokenEnd()) return false;
    if (!builder_.PairedKey(name, static_cast<rapidjson::SizeType>(length))) return false;
    return Have() && Structural() == ':';
  }

  bool Close() {
    return builder_.frames.back().is_object ? builder_.EndObject(0) : builder_.EndArray(0);
  }

  bool Scalar(std::size_t at) {
    const char c = text_[at];
    if (c == '"') {
      const char* s;
      std::size_t length;
      bool escaped;
      return String(&s, &length, &escaped) &&
             builder_.PairedString(s, static_cast<rapidjson::SizeType>(length), escaped);
    }
    if (c == 't') return Literal("true") && builder_.Bool(true);
    if (c == 'f') return Literal("false") && builder_.Bool(false);
    if (c == 'n') return Literal("null") && builder_.Null();
    const NumberScan scan = ScanNumber(text_ + at);
    if (scan.outcome != NumberScan::kNumber) return false;
    stream_.cur = const_cast<char*>(scan.end);
    return builder_.RawNumber(text_ + at, static_cast<rapidjson::SizeType>(scan.end - text_ - at),
                              false);
  }

  bool Literal(std::string_view word) {
    char* const start = stream_.cur - 1;
    if (static_cast<std::size_t>(text_ + size_ - start) < word.size() ||
        std::memcmp(start, word.data(), word.size()) != 0) {
      return false;
    }
    stream_.cur = start + word.size();
    return true;
  }

  // Whether only whitespace lies between the token just read and the next structural (or the
  // end): stage 1 starts a new token at any other byte after whitespace, so a byte that is neither
  // belongs to this token ("truex", "1x").
  bool AtTokenEnd() {
    std::size_t next;
    if (!NextAt(&next)) return false;
    const char* p = stream_.cur;
    while (p < text_ + next && IsJsonSpace(*p)) ++p;
    return p == text_ + next;
  }

  // The string whose opening quote was just read, decoded as RapidJSON decodes it: in place, or
  // into the document's arena when the text is read-only (and *escaped: whether it had an escape,
  // so was decoded at all); the stream then stands after its closing quote. Stage 1 starts a token
  // at whatever follows a closing quote (unlike other bytes of a scalar), so that quote is the last
  // byte before the next structural that is not whitespace; and stage 1 found no raw control
  // character and no other unescaped quote inside. What is left to find is escapes, and most
  // strings have none.
  [[gnu::always_inline]] bool String(const char** decoded, std::size_t* length, bool* escaped) {
    char* const start = stream_.cur;
    std::size_t next;
    if (!NextAt(&next)) return false;
    char* close = text_ + next;
    while (close > start && IsJsonSpace(close[-1])) --close;
    if (close == start || *--close != '"') return false;
    char* src = nullptr;
    char* dst = nullptr;
    char* out = start;
    bool decoded_all = true;
    if (MayHoldABackslash(start, close)) {
      const auto room = static_cast<std::size_t>(close - start);
      if (stream_.read_only) out = builder_.arena->StringRoom(room);
      decoded_all = kDecodeString(start, close, text_ + size_, lone_, out, &src, &dst);
      if (out != start) {
        builder_.arena->GiveBackStringRoom(out, room,
                                           static_cast<std::size_t>(src ? dst - out : 0));
      }
    }
    *escaped = src != nullptr;
    if (*escaped) {
      // In place, what lies before src was read, and written over once an escape shortened it.
      if (out == start) written_.emplace_back(start - text_, src - text_);
      if (!decoded_all) return false;
    }
    *decoded = *escaped ? out : start;
    *length = static_cast<std::size_t>(*escaped ? dst - out : close - start);
    stream_.cur = close + 1;
    return true;
  }

  char* const text_;
  const std::size_t size_;
  const LoneSurrogates lone_;
  // Go's reading repairs a text stage 1 refuses, ill-formed UTF-8 first (ParseAsGo), and a text
  // whose strings were decoded in place before a later piece was refused can no longer be
  // repaired as it was given: that reading indexes the whole text first, unless the text is
  // read-only (its strings decoded out of place).
  const std::size_t piece_bytes_;
  StructuralIndex& index_;
  const std::uint32_t* at_ = nullptr;  // the piece's positions, from the text's start
  std::uint32_t count_ = 0;
  std::uint32_t next_ = 0;
  std::size_t indexed_to_ = 0;
  bool refused_ = false;  // stage 1 refused a piece
  ValueBuilder& builder_;
  TextStream& stream_;
  std::vector<std::pair<std::size_t, std::size_t>> written_;
};

}  // namespace

namespace {

SimdOutcome Walk(char* text, std::size_t size, LoneSurrogates lone, ValueBuilder* builder,
                 TextStream* stream) {
  thread_local StructuralIndex index;
  Walker walker(text, size, lone, &index, builder, stream);
  if (!walker.Start()) {
    index.ReleaseIfLarge();
    return SimdOutcome::kRefused;
  }
  const bool accepted = walker.Run();
  index.ReleaseIfLarge();
  if (accepted) return SimdOutcome::kAccepted;
  if (builder->observer != nullptr) builder->observer->Refusing();
  if (walker.written().empty()) return SimdOutcome::kRefused;
  // What was read of each string was valid JSON string content, so RapidJSON reads 'a's there in
  // the same state and refuses the text where it would refuse the original.
  for (const auto& [from, to] : walker.written()) std::memset(text + from, 'a', to - from);
  return SimdOutcome::kNeutralized;
}

}  // namespace

SimdOutcome ParseWithSimd(char* text, std::size_t size, LoneSurrogates lone, ValueBuilder* builder,
                          TextStream* stream) {
  const SimdOutcome outcome = Walk(text, size, lone, builder, stream);
  switch (outcome) {
    case SimdOutcome::kAccepted:
      ++counts.accepted;
      break;
    case SimdOutcome::kRefused:
      ++counts.refused;
      break;
    case SimdOutcome::kNeutralized:
      ++counts.neutralized;
      break;
  }
  return outcome;
}

const SimdCounts& ThisThreadSimdCounts() { return counts; }

void SetStage1PieceBytes(std::size_t bytes) { stage1_piece_bytes = bytes; }
std::size_t Stage1PieceBytes() { return stage1_piece_bytes; }

}  // namespace arcs::json::internal
