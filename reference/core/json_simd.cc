#include "reference/core/json_simd.h"

#include <simdjson.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "reference/core/strings.h"

namespace arcs::json::internal {
namespace {

// simdjson's stage 1, one per thread, reused from text to text. Its index takes 4 bytes per byte of
// capacity (untouched beyond the structurals a text has), so a capacity grown for a huge text is
// given back afterwards rather than kept for the thread's life.
class StructuralIndex {
 public:
  // Indexes text[0, size); false when simdjson refuses it (ill-formed UTF-8, a raw control
  // character in a string, an unclosed string, no token at all) or cannot take it.
  bool Build(const char* text, std::size_t size) {
    if (!Reserve(size)) return false;
    return parser_->stage1(reinterpret_cast<const std::uint8_t*>(text), size,
                           simdjson::stage1_mode::regular) == simdjson::SUCCESS;
  }
  const std::uint32_t* positions() const { return parser_->structural_indexes.get(); }
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

void AppendUtf8(std::uint32_t code_point, char** out) {
  char* p = *out;
  if (code_point < 0x80) {
    *p++ = static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    *p++ = static_cast<char>(0xC0 | (code_point >> 6));
    *p++ = static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    *p++ = static_cast<char>(0xE0 | (code_point >> 12));
    *p++ = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    *p++ = static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    *p++ = static_cast<char>(0xF0 | (code_point >> 18));
    *p++ = static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    *p++ = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    *p++ = static_cast<char>(0x80 | (code_point & 0x3F));
  }
  *out = p;
}

// Moves the bytes from src up to the next backslash, or up to `end`, down to dst (dst <= src; they
// may overlap), and returns how many. Inside a string that stage 1 accepted (no raw quote or
// control character), the only byte that ends a plain run is a backslash.
std::size_t MoveUntilBackslashPortable(const char* src, const char* end, char* dst) {
  const void* backslash = std::memchr(src, '\\', static_cast<std::size_t>(end - src));
  const std::size_t run =
      static_cast<std::size_t>((backslash ? static_cast<const char*>(backslash) : end) - src);
  std::memmove(dst, src, run);
  return run;
}

#if defined(__x86_64__)
// The same, 64 bytes at a time, with masked loads (nothing past `end` is read) and masked stores
// (only the run is written, so nothing not yet read is overwritten): strings in recordings have an
// escape every few dozen bytes (\n), and a call to memmove per run cost more than the run.
__attribute__((target("avx512f,avx512bw"))) std::size_t MoveUntilBackslashAvx512(const char* src,
                                                                                 const char* end,
                                                                                 char* dst) {
  const __m512i backslash = _mm512_set1_epi8('\\');
  std::size_t moved = 0;
  for (;;) {
    const std::size_t left = static_cast<std::size_t>(end - src) - moved;
    if (left == 0) return moved;
    const __mmask64 valid = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(valid, src + moved);
    const __mmask64 stops = _mm512_cmpeq_epi8_mask(v, backslash) & valid;
    const std::size_t run =
        stops ? static_cast<std::size_t>(__builtin_ctzll(stops)) : std::min<std::size_t>(left, 64);
    const __mmask64 written = run >= 64 ? ~__mmask64{0} : (__mmask64{1} << run) - 1;
    _mm512_mask_storeu_epi8(dst + moved, written, v);
    moved += run;
    if (stops) return moved;
  }
}
#endif

// One escape at *src (a backslash; the text ends at text_end), decoded at *dst.
inline bool Unescape(char** src, const char* text_end, char** dst) {
  const char* p = *src;
  const std::string_view rest(p, static_cast<std::size_t>(text_end - p));
  char simple = 0;
  switch (rest.size() > 1 ? p[1] : '\0') {
    case '"':
      simple = '"';
      break;
    case '\\':
      simple = '\\';
      break;
    case '/':
      simple = '/';
      break;
    case 'b':
      simple = '\b';
      break;
    case 'f':
      simple = '\f';
      break;
    case 'n':
      simple = '\n';
      break;
    case 'r':
      simple = '\r';
      break;
    case 't':
      simple = '\t';
      break;
    case 'u':
      break;
    default:
      return false;
  }
  if (simple != 0) {
    *(*dst)++ = simple;
    *src += 2;
    return true;
  }
  const int unit = Hex4(rest, 2);
  if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) return false;  // RapidJSON decides
  std::uint32_t code_point = static_cast<std::uint32_t>(unit);
  std::size_t taken = 6;
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    const int low = rest.size() >= 12 && rest[6] == '\\' && rest[7] == 'u' ? Hex4(rest, 8) : -1;
    if (low < 0xDC00 || low > 0xDFFF) return false;
    code_point = 0x10000 + ((code_point - 0xD800) << 10) + static_cast<std::uint32_t>(low - 0xDC00);
    taken = 12;
  }
  AppendUtf8(code_point, dst);
  *src += taken;
  return true;
}

// Decodes a string's body in place from its first backslash (*src == *dst) up to its closing quote
// at `close`: true with *src == close, or false with *src at the escape that is not JSON (or past
// the quote, which stage 1 rules out). One call a string: the runs between escapes are moved
// inline.
template <std::size_t (*MoveRun)(const char*, const char*, char*)>
inline bool DecodeEscapes(char** src, char** dst, const char* close, const char* text_end) {
  while (*src < close) {
    if (**src != '\\') {
      const std::size_t run = MoveRun(*src, close, *dst);
      *src += run;
      *dst += run;
    } else if (!Unescape(src, text_end, dst)) {
      return false;
    }
  }
  return *src == close;
}

bool DecodeEscapesPortable(char** src, char** dst, const char* close, const char* text_end) {
  return DecodeEscapes<MoveUntilBackslashPortable>(src, dst, close, text_end);
}

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw"))) bool DecodeEscapesAvx512(char** src, char** dst,
                                                                     const char* close,
                                                                     const char* text_end) {
  return DecodeEscapes<MoveUntilBackslashAvx512>(src, dst, close, text_end);
}
#endif

using DecodeEscapesFunction = bool (*)(char**, char**, const char*, const char*);
const DecodeEscapesFunction kDecodeEscapes = [] {
#if defined(__x86_64__)
  if (UseAvx512Bw()) return &DecodeEscapesAvx512;
#endif
  return &DecodeEscapesPortable;
}();

// One walk over the structural index: values in, events out to the builder. Iterative; the
// builder's frames are the only stack.
class Walker {
 public:
  Walker(char* text, std::size_t size, const StructuralIndex& index, ValueBuilder* builder,
         TextStream* stream)
      : text_(text),
        size_(size),
        at_(index.positions()),
        count_(index.count()),
        builder_(*builder),
        stream_(*stream) {}

  bool Run() {
    bool value_expected = true;
    for (;;) {
      if (value_expected) {
        const Read read = Value();
        if (read == Read::kRefused) return false;
        if (read == Read::kOpened) continue;
      }
      value_expected = false;
      if (builder_.frames.empty()) return next_ == count_;
      if (next_ == count_) return false;
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
  // The next structural character or token start, consumed; the stream stands after it, where
  // RapidJSON's would stand after reading it (the builder takes positions from the stream).
  char Structural() {
    const std::size_t at = at_[next_++];
    stream_.cur = text_ + at + 1;
    return text_[at];
  }

  enum class Read : std::uint8_t { kRefused, kComplete, kOpened };

  // A value: a scalar, an empty container, or a container opened (with its first member's name)
  // whose first value comes next.
  Read Value() {
    if (next_ == count_) return Read::kRefused;
    const std::size_t at = at_[next_];
    const char c = Structural();
    bool ok;
    if (c != '{' && c != '[') {
      ok = Scalar(at) && AtTokenEnd();
    } else if (!builder_.Open(c == '{') || next_ == count_) {
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
  bool Name() {
    if (next_ == count_ || Structural() != '"') return false;
    const char* name;
    std::size_t length;
    if (!String(&name, &length) || !AtTokenEnd()) return false;
    if (!builder_.Key(name, static_cast<rapidjson::SizeType>(length), false)) return false;
    return next_ < count_ && Structural() == ':';
  }

  bool Close() {
    return builder_.frames.back().is_object ? builder_.EndObject(0) : builder_.EndArray(0);
  }

  bool Scalar(std::size_t at) {
    const char c = text_[at];
    if (c == '"') {
      const char* s;
      std::size_t length;
      return String(&s, &length) &&
             builder_.String(s, static_cast<rapidjson::SizeType>(length), false);
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
  bool AtTokenEnd() const {
    const char* p = stream_.cur;
    const char* const next = text_ + (next_ < count_ ? at_[next_] : size_);
    while (p < next && IsJsonSpace(*p)) ++p;
    return p == next;
  }

  // The string whose opening quote was just read, decoded in place as RapidJSON decodes it; the
  // stream then stands after its closing quote. Stage 1 starts a token at whatever follows a
  // closing quote (unlike other bytes of a scalar), so that quote is the last byte before the next
  // structural that is not whitespace; and stage 1 found no raw control character and no other
  // unescaped quote inside. What is left to find is escapes, and most strings have none.
  bool String(const char** decoded, std::size_t* length) {
    char* const start = stream_.cur;
    char* close = text_ + (next_ < count_ ? at_[next_] : size_);
    while (close > start && IsJsonSpace(close[-1])) --close;
    if (close == start || *--close != '"') return false;
    char* src =
        static_cast<char*>(std::memchr(start, '\\', static_cast<std::size_t>(close - start)));
    char* dst = src;
    if (src != nullptr) {
      const bool decoded_all = kDecodeEscapes(&src, &dst, close, text_ + size_);
      // What lies before src was read, and written over once an escape shortened it.
      written_.emplace_back(start - text_, src - text_);
      if (!decoded_all) return false;
    }
    *decoded = start;
    *length = static_cast<std::size_t>((src ? dst : close) - start);
    stream_.cur = close + 1;
    return true;
  }

  char* const text_;
  const std::size_t size_;
  const std::uint32_t* const at_;
  const std::uint32_t count_;
  std::uint32_t next_ = 0;
  ValueBuilder& builder_;
  TextStream& stream_;
  std::vector<std::pair<std::size_t, std::size_t>> written_;
};

}  // namespace

namespace {

thread_local SimdCounts counts;

SimdOutcome Walk(char* text, std::size_t size, ValueBuilder* builder, TextStream* stream) {
  thread_local StructuralIndex index;
  if (!index.Build(text, size)) {
    index.ReleaseIfLarge();
    return SimdOutcome::kRefused;
  }
  Walker walker(text, size, index, builder, stream);
  const bool accepted = walker.Run();
  index.ReleaseIfLarge();
  if (accepted) return SimdOutcome::kAccepted;
  if (walker.written().empty()) return SimdOutcome::kRefused;
  // What was read of each string was valid JSON string content, so RapidJSON reads 'a's there in
  // the same state and refuses the text where it would refuse the original.
  for (const auto& [from, to] : walker.written()) std::memset(text + from, 'a', to - from);
  return SimdOutcome::kNeutralized;
}

}  // namespace

SimdOutcome ParseWithSimd(char* text, std::size_t size, ValueBuilder* builder, TextStream* stream) {
  const SimdOutcome outcome = Walk(text, size, builder, stream);
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

}  // namespace arcs::json::internal
