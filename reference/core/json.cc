#include "reference/core/json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <optional>

#include "reference/core/strings.h"

namespace arcs::json {
namespace {

// RapidJSON reads from this stream, in situ (kParseInsituFlag): the text is the document's own
// copy (Document::Arena::text), NUL-terminated and NUL-padded, so Peek() needs no bounds check. The
// text has been checked for NUL bytes before parsing, so a '\0' can only mean "end of input".
// Strings are decoded in place: Put() writes at or behind the read position (a decoded string is
// never longer than its source), and String()/Key() receive pointers into the copy.
// Read-only (Document::ParseBorrowing): the text is a caller's std::string, NUL-terminated but
// not padded, well-formed UTF-8 (so the validating path, the one that reads past the NUL, is never
// taken) and without a backslash, so every string decodes to its source bytes where they stand;
// Put() then only counts, and the NUL that would end each string is never written.
struct TextStream {
  using Ch = char;
  char* begin;
  char* cur;
  char* end;  // the first NUL; kTextPadding bytes of NUL follow it, unless read-only
  char* dst = nullptr;
  bool read_only = false;
  Ch Peek() const { return *cur; }
  Ch Take() { return *cur++; }
  std::size_t Tell() const { return static_cast<std::size_t>(cur - begin); }
  Ch* PutBegin() { return dst = cur; }
  void Put(Ch c) {
    if (!read_only) *dst = c;
    ++dst;
  }
  void Flush() {}
  std::size_t PutEnd(Ch* b) { return static_cast<std::size_t>(dst - b); }
};

// NUL bytes after the text's terminating NUL. RapidJSON's UTF-8 validation takes a multi-byte
// sequence's continuation bytes without looking at them first: a lead byte of a 4-byte sequence as
// the text's last byte makes it Take() the terminator and then two more bytes (and Put() them back
// in place) before it reports the invalid sequence. The padding keeps all of that inside the copy.
constexpr std::size_t kTextPadding = 4;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A UTF-8 encoded surrogate (ED A0..BF xx). RapidJSON's encoding validation rejects these as raw
// input, so in a decoded string they can only come from a \uDC00-style escape with no partner.
bool HasEncodedSurrogate(const char* s, std::size_t n) {
  const char* end = s + n;
  for (const char* p = s; (p = static_cast<const char*>(std::memchr(p, '\xED', end - p)));) {
    if (p + 1 < end && static_cast<unsigned char>(p[1]) >= 0xA0) return true;
    ++p;
  }
  return false;
}

// The value of four hex digits at text[at], or -1.
int Hex4(std::string_view text, std::size_t at) {
  if (at + 4 > text.size()) return -1;
  int value = 0;
  for (const char c : text.substr(at, 4)) {
    const char lower = static_cast<char>(c | 0x20);
    int digit = -1;
    if (IsDigit(c)) digit = c - '0';
    if (lower >= 'a' && lower <= 'f') digit = lower - 'a' + 10;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// The offsets of the \u escapes that name a surrogate without its partner. A backslash stands
// only inside strings in JSON (anywhere else the text is not JSON, whatever is replaced), so the
// scan jumps from backslash to backslash and needs no notion of where strings are.
std::vector<std::size_t> LoneSurrogateEscapes(std::string_view text) {
  std::vector<std::size_t> lone;
  for (std::size_t i = text.find('\\'); i != std::string_view::npos; i = text.find('\\', i)) {
    const int unit = i + 1 < text.size() && text[i + 1] == 'u' ? Hex4(text, i + 2) : -1;
    const bool high = unit >= 0xD800 && unit <= 0xDBFF, low = unit >= 0xDC00 && unit <= 0xDFFF;
    const bool escape_follows = i + 8 <= text.size() && text.compare(i + 6, 2, "\\u") == 0;
    const int next = high && escape_follows ? Hex4(text, i + 8) : -1;
    if (high && next >= 0xDC00 && next <= 0xDFFF) {
      i += 12;  // a pair: one character
    } else if (high || low) {
      lone.push_back(i);
      i += 6;
    } else {
      i += 2;  // the escaped character (a quote, a backslash) is not the start of an escape
    }
  }
  return lone;
}

// BadUnicode::kReplaceAsGo: the text with ill-formed UTF-8 replaced byte by byte, and each \u
// escape of a lone surrogate inside a string rewritten as \ufffd (the same six bytes, so offsets
// hold), as Go's decoder reads them; nullopt when the text needs neither (no copy is made then).
std::optional<std::string> RepairAsGo(std::string_view source, bool* replaced_utf8) {
  std::string text;
  *replaced_utf8 = !IsValidUtf8(source);
  if (*replaced_utf8) text = ReplaceIllFormedUtf8(source);
  const std::vector<std::size_t> lone = LoneSurrogateEscapes(text.empty() ? source : text);
  if (text.empty() && lone.empty()) return std::nullopt;
  if (text.empty()) text = std::string(source);
  for (std::size_t at : lone) text.replace(at, 6, "\\ufffd");
  return text;
}

}  // namespace

// One document's storage: a bump allocator for its values and members (Reset() keeps the largest
// block), and its copy of the text, which its strings, names and numbers point into.
struct Document::Arena {
  static constexpr std::size_t kMinBlock = 16 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks;
  std::vector<std::size_t> sizes;
  char* next = nullptr;
  std::size_t left = 0;
  // The text being parsed, copied (or taken: ParseTaking) and followed by 1 + kTextPadding NUL
  // bytes; parsed in situ, so decoded strings and member names point into it. Reused across
  // parses and never shrunk: its size is that of the longest text parsed so far (plus the
  // padding), not of a whole file.
  std::string text;

  char* CopyText(std::string_view source) {
    const std::size_t need = source.size() + 1 + kTextPadding;
    if (need > text.capacity()) {
      std::string().swap(text);  // never the old and the new at once
      text.reserve(need);        // the padding must not make the copy grow (and double) again
    }
    text.assign(source);
    return Pad();
  }

  char* TakeText(std::string&& source) {
    text = std::move(source);
    return Pad();
  }

  char* Pad() {
    text.append(1 + kTextPadding, '\0');
    return text.data();
  }

  void* Allocate(std::size_t size, std::size_t align) {
    std::size_t pad = (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
    if (size + pad > left) {
      // The first block is sized to the text: a reader keeps one Document per entry, and a
      // million small entries must not cost a million 16 KiB blocks. Later blocks double.
      const std::size_t first = std::clamp<std::size_t>(2 * text.capacity(), 256, kMinBlock);
      std::size_t block = std::max(first, size + align);
      if (!sizes.empty()) block = std::max(block, sizes.back() * 2);
      blocks.push_back(std::make_unique_for_overwrite<char[]>(block));
      sizes.push_back(block);
      next = blocks.back().get();
      left = block;
      pad = (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
    }
    char* out = next + pad;
    next += pad + size;
    left -= pad + size;
    return out;
  }

  template <typename T>
  T* AllocateArray(std::size_t n) {
    return static_cast<T*>(Allocate(sizeof(T) * std::max<std::size_t>(n, 1), alignof(T)));
  }

  void Reset() {
    if (blocks.size() > 1) {
      blocks.erase(blocks.begin(), blocks.end() - 1);
      sizes.erase(sizes.begin(), sizes.end() - 1);
    }
    next = blocks.empty() ? nullptr : blocks.back().get();
    left = sizes.empty() ? 0 : sizes.back();
  }
};

// Receives RapidJSON's SAX events and builds the document in the arena.
struct ValueBuilder : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, ValueBuilder> {
  struct Frame {
    std::size_t start;     // index in values of the container's first child
    std::string_view key;  // the container's own member name, if it is an object member
    std::size_t index;     // its index in its parent container
    bool is_object;
    std::size_t names_start;  // index in names of its first member's name (objects)
  };
  struct Name {
    std::string_view text;
    std::size_t offset;  // where the name ended in the text
  };

  Document::Arena* arena = nullptr;
  const TextStream* stream = nullptr;
  std::uint32_t max_depth = 0;
  std::uint64_t values_left = 0;
  std::vector<Value> values;
  // The names of the members of the open objects, one per member: array elements have none, so
  // that an array of small values costs 16 bytes a value here, not 40 (issue #8).
  std::vector<Name> names;
  std::vector<Frame> frames;
  std::string_view pending_key;
  std::size_t pending_key_offset = 0;
  std::vector<Duplicate>* duplicates = nullptr;
  ErrorCode stop_reason = ErrorCode::kNone;  // why a handler call returned false
  std::size_t stop_offset = 0;

  // Ready for a text of text_bytes bytes. A value takes at least two bytes of text (one and a
  // separator), so the stack never outgrows this reservation: it is never copied to grow, and
  // pages of it that a small text does not reach are never touched (no resident memory). Stacks
  // left large by a huge text are given back, so a thread does not keep them for ever.
  void Reset(std::size_t text_bytes) {
    constexpr std::size_t kKeptValues = std::size_t{1} << 16;
    if (values.capacity() > kKeptValues) std::vector<Value>().swap(values);
    if (names.capacity() > kKeptValues) std::vector<Name>().swap(names);
    values.clear();
    values.reserve(text_bytes / 2 + 2);
    names.clear();
    frames.clear();
    pending_key = {};
    stop_reason = ErrorCode::kNone;
  }

  bool Stop(ErrorCode reason) {
    stop_reason = reason;
    stop_offset = stream->Tell();
    return false;
  }

  bool Push(Value v) {
    if (values_left == 0) return Stop(ErrorCode::kTooManyValues);
    --values_left;
    values.push_back(v);
    if (!frames.empty() && frames.back().is_object) {
      names.push_back({pending_key, pending_key_offset});
    }
    pending_key = {};
    return true;
  }

  bool Null() { return Push(Value()); }
  bool Bool(bool b) {
    Value v;
    v.kind_ = b ? Kind::kTrue : Kind::kFalse;
    return Push(v);
  }
  // Numbers, strings and names are not copied: they point into the document's in-situ text.
  bool PushText(Kind kind, const char* s, rapidjson::SizeType n, bool escape_free = false) {
    Value v;
    v.kind_ = kind;
    v.escape_free_ = escape_free;
    v.chars_ = s;
    v.size_ = n;
    return Push(v);
  }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    return PushText(Kind::kNumber, s, n);
  }
  // Whether the string just decoded (the closing quote is taken) had an escape in its source: it
  // did when the decoded bytes are fewer. Only escapes can bring a surrogate (raw ones never pass
  // the UTF-8 check) or a character a writer must escape.
  bool HadEscape(const char* s, rapidjson::SizeType n) const {
    return static_cast<std::size_t>(stream->cur - 1 - s) != n;
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    const bool escaped = HadEscape(s, n);
    if (escaped && HasEncodedSurrogate(s, n)) return Stop(ErrorCode::kLoneSurrogate);
    return PushText(Kind::kString, s, n, !escaped);
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (HadEscape(s, n) && HasEncodedSurrogate(s, n)) return Stop(ErrorCode::kLoneSurrogate);
    pending_key = {s, n};
    pending_key_offset = stream->Tell();
    return true;
  }
  // The container's own member name waits in its frame until the container is closed and pushed.
  bool Open(bool is_object) {
    if (frames.size() >= max_depth) return Stop(ErrorCode::kDepthExceeded);
    std::size_t parent_start = frames.empty() ? 0 : frames.back().start;
    frames.push_back(
        {values.size(), pending_key, values.size() - parent_start, is_object, names.size()});
    pending_key = {};
    return true;
  }
  bool StartObject() { return Open(true); }
  bool StartArray() { return Open(false); }

  bool EndArray(rapidjson::SizeType) {
    Frame frame = frames.back();
    frames.pop_back();
    std::size_t n = values.size() - frame.start;
    Value* items = arena->AllocateArray<Value>(n);
    std::copy(values.begin() + frame.start, values.end(), items);
    Value v;
    v.kind_ = Kind::kArray;
    v.items_ = items;
    return Close(frame, v, n);
  }

  bool EndObject(rapidjson::SizeType) {
    Frame frame = frames.back();
    std::size_t n = values.size() - frame.start;
    Member* members = arena->AllocateArray<Member>(n);
    for (std::size_t i = 0; i < n; ++i) {
      new (&members[i]) Member{names[frame.names_start + i].text, values[frame.start + i]};
    }
    FindDuplicates(members, n, frame.names_start);
    frames.pop_back();
    Value v;
    v.kind_ = Kind::kObject;
    v.members_ = members;
    return Close(frame, v, n);
  }

  // Replaces the closed container's children by the container itself, under its own name.
  bool Close(const Frame& frame, Value container, std::size_t n) {
    values.resize(frame.start);
    names.resize(frame.names_start);
    container.size_ = static_cast<std::uint32_t>(n);
    pending_key = frame.key;
    return Push(container);
  }

  // Objects in recordings are small, so a quadratic scan beats hashing until they are not.
  void FindDuplicates(const Member* members, std::size_t n, std::size_t names_start) {
    auto report = [&](std::size_t second) {
      std::string pointer = PointerOfOpenObject();
      pointer += '/';
      AppendPointerToken(members[second].name, &pointer);
      duplicates->push_back({std::move(pointer), names[names_start + second].offset});
    };
    if (n <= 32) {
      for (std::size_t j = 1; j < n; ++j) {
        for (std::size_t i = 0; i < j; ++i) {
          if (members[i].name == members[j].name) {
            report(j);
            break;
          }
        }
      }
      return;
    }
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return members[a].name < members[b].name;
    });
    std::vector<std::size_t> seconds;
    for (std::size_t k = 1; k < n; ++k) {
      if (members[order[k]].name == members[order[k - 1]].name) seconds.push_back(order[k]);
    }
    std::sort(seconds.begin(), seconds.end());
    for (std::size_t s : seconds) report(s);
  }

  // The pointer of the innermost open container (the one being closed), from the frame stack.
  std::string PointerOfOpenObject() const {
    std::string pointer;
    for (std::size_t f = 1; f < frames.size(); ++f) {
      pointer += '/';
      if (frames[f - 1].is_object) {
        AppendPointerToken(frames[f].key, &pointer);
      } else {
        pointer += std::to_string(frames[f].index);
      }
    }
    return pointer;
  }
};

}  // namespace arcs::json

// RapidJSON 1.1.0's number parser rejects valid JSON (1e400, integers over ~309 digits) with
// kParseErrorNumberTooBig even when asked for numbers as strings, and its full-precision path
// misparses some inputs. This explicit specialization replaces it, for our stream and handler
// only, by a strict RFC 8259 grammar scan that hands the exact text to the handler.
//
// RapidJSON validates UTF-8 one code point at a time inside strings, which was a quarter of the
// time Lightbox spends verifying a chain. A text that is valid UTF-8 throughout (checked first,
// sixteen ASCII bytes at a time) is parsed without that flag: the result is the same, since the
// validation could only have failed on bytes that are not there. Any other text takes the
// validating path, so every error is reported exactly as before.
namespace {
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseInsituFlag |
                                 rapidjson::kParseValidateEncodingFlag |
                                 rapidjson::kParseNumbersAsStringsFlag |
                                 rapidjson::kParseStopWhenDoneFlag;
constexpr unsigned kValidUtf8ParseFlags = kParseFlags & ~rapidjson::kParseValidateEncodingFlag;
using Reader = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>>;
}  // namespace

template <>
template <>
void Reader::ParseNumber<kParseFlags, arcs::json::TextStream, arcs::json::ValueBuilder>(
    arcs::json::TextStream& is, arcs::json::ValueBuilder& handler) {
  using arcs::json::IsDigit;
  const char* start = is.cur;
  auto fail = [&](std::size_t offset) {
    handler.stop_reason = arcs::json::ErrorCode::kInvalidNumber;
    handler.stop_offset = offset;
    RAPIDJSON_PARSE_ERROR_NORETURN(rapidjson::kParseErrorValueInvalid, offset);
  };
  if (is.Peek() == '-') is.Take();
  if (is.Peek() == '0') {
    is.Take();
  } else if (is.Peek() >= '1' && is.Peek() <= '9') {
    while (IsDigit(is.Peek())) is.Take();
  } else {
    // Not a number at all (RapidJSON sends every unrecognized value here): a syntax error.
    RAPIDJSON_PARSE_ERROR_NORETURN(rapidjson::kParseErrorValueInvalid, is.Tell());
    return;
  }
  if (is.Peek() == '.') {
    is.Take();
    if (!IsDigit(is.Peek())) return fail(is.Tell());
    while (IsDigit(is.Peek())) is.Take();
  }
  if (is.Peek() == 'e' || is.Peek() == 'E') {
    is.Take();
    if (is.Peek() == '+' || is.Peek() == '-') is.Take();
    if (!IsDigit(is.Peek())) return fail(is.Tell());
    while (IsDigit(is.Peek())) is.Take();
  }
  if (!handler.RawNumber(start, static_cast<rapidjson::SizeType>(is.cur - start), false)) {
    RAPIDJSON_PARSE_ERROR_NORETURN(rapidjson::kParseErrorTermination, is.Tell());
  }
}

// The same scan for the path that skips RapidJSON's encoding validation.
template <>
template <>
void Reader::ParseNumber<kValidUtf8ParseFlags, arcs::json::TextStream, arcs::json::ValueBuilder>(
    arcs::json::TextStream& is, arcs::json::ValueBuilder& handler) {
  ParseNumber<kParseFlags>(is, handler);
}

// RapidJSON copies a string's bytes one at a time unless its stream type has a SIMD scan, which our
// TextStream does not: this gives it one, for the path without encoding validation (RapidJSON
// calls it only there). Parsing in situ, `is` and `os` are the same stream; the run up to the next
// '"', '\\' or control character (the NUL after the text is one) is skipped, or moved down to the
// write position once an escape has made the decoded string shorter than its source.
template <>
template <>
void Reader::ScanCopyUnescapedString<arcs::json::TextStream, arcs::json::TextStream>(
    arcs::json::TextStream& is, arcs::json::TextStream& os) {
  const std::size_t run =
      arcs::JsonPlainPrefix(std::string_view(is.cur, static_cast<std::size_t>(is.end - is.cur)));
  if (os.dst != is.cur) std::memmove(os.dst, is.cur, run);  // never read-only: no escape there
  os.dst += run;
  is.cur += run;
}

namespace arcs::json {

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kFalse:
    case Kind::kTrue:
      return "boolean";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "array";
    case Kind::kObject:
      return "object";
  }
  return "null";
}

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNone:
      return "none";
    case ErrorCode::kEmpty:
      return "empty";
    case ErrorCode::kSyntax:
      return "syntax";
    case ErrorCode::kInvalidUtf8:
      return "invalid-utf8";
    case ErrorCode::kLoneSurrogate:
      return "lone-surrogate";
    case ErrorCode::kNulByte:
      return "nul-byte";
    case ErrorCode::kControlCharacter:
      return "control-character";
    case ErrorCode::kInvalidNumber:
      return "invalid-number";
    case ErrorCode::kTrailingContent:
      return "trailing-content";
    case ErrorCode::kDepthExceeded:
      return "depth-exceeded";
    case ErrorCode::kTooLarge:
      return "too-large";
    case ErrorCode::kTooManyValues:
      return "too-many-values";
  }
  return "none";
}

std::span<const Value> Value::items() const {
  if (kind_ != Kind::kArray) return {};
  return {items_, size_};
}

std::span<const Member> Value::members() const {
  if (kind_ != Kind::kObject) return {};
  return {members_, size_};
}

const Value* Value::Find(std::string_view name) const {
  for (const Member& m : members()) {
    if (m.name == name) return &m.value;
  }
  return nullptr;
}

const Value* Value::FindLast(std::string_view name) const {
  const std::span<const Member> all = members();
  for (auto m = all.rbegin(); m != all.rend(); ++m) {
    if (m->name == name) return &m->value;
  }
  return nullptr;
}

Document::Document() : arena_(std::make_unique<Arena>()) {}
Document::~Document() = default;

std::string Document::ReleaseText() {
  root_ = Value();
  if (borrowed_) return "";  // the caller's text: never ours to hand over
  return std::move(arena_->text);
}
Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;

namespace {

std::string DescribeRapidJsonError(rapidjson::ParseErrorCode code) {
  return rapidjson::GetParseError_En(code);
}

ErrorCode MapRapidJsonError(rapidjson::ParseErrorCode code) {
  switch (code) {
    case rapidjson::kParseErrorDocumentEmpty:
      return ErrorCode::kEmpty;
    case rapidjson::kParseErrorStringInvalidEncoding:
      return ErrorCode::kInvalidUtf8;
    case rapidjson::kParseErrorStringUnicodeSurrogateInvalid:
      return ErrorCode::kLoneSurrogate;
    default:
      return ErrorCode::kSyntax;
  }
}

std::string MessageFor(ErrorCode code, const ParseOptions& options) {
  switch (code) {
    case ErrorCode::kEmpty:
      return "no JSON value";
    case ErrorCode::kInvalidUtf8:
      return "invalid UTF-8 in a string";
    case ErrorCode::kLoneSurrogate:
      return "a \\u escape names a surrogate with no partner (not a Unicode scalar value)";
    case ErrorCode::kNulByte:
      return "raw NUL byte (U+0000 must be escaped as \\u0000)";
    case ErrorCode::kControlCharacter:
      return "raw control character in a string (U+0000..U+001F must be escaped)";
    case ErrorCode::kInvalidNumber:
      return "malformed number";
    case ErrorCode::kTrailingContent:
      return "content after the JSON value";
    case ErrorCode::kDepthExceeded:
      return "nesting deeper than the limit of " + std::to_string(options.max_depth);
    case ErrorCode::kTooLarge:
      return "text longer than 4 GiB";
    case ErrorCode::kTooManyValues:
      return "more than " + std::to_string(options.max_values) + " values";
    default:
      return "not JSON";
  }
}

}  // namespace

bool Document::Fail(ErrorCode code, std::size_t offset, std::string message) {
  error_ = {code, offset, std::move(message)};
  root_ = Value();
  duplicates_.clear();
  return false;
}

bool Document::Start(std::string_view text, const ParseOptions& options) {
  arena_->Reset();
  root_ = Value();
  error_ = ParseError();
  duplicates_.clear();
  if (text.size() >= std::numeric_limits<rapidjson::SizeType>::max()) {
    return Fail(ErrorCode::kTooLarge, 0, MessageFor(ErrorCode::kTooLarge, options));
  }
  if (const void* nul = std::memchr(text.data(), '\0', text.size())) {
    std::size_t at = static_cast<const char*>(nul) - text.data();
    return Fail(ErrorCode::kNulByte, at, MessageFor(ErrorCode::kNulByte, options));
  }
  return true;
}

// After RepairAsGo the text is well-formed UTF-8, whether it was repaired or found so: the parse
// need not check again.
bool Document::Parse(std::string_view text, const ParseOptions& options) {
  replaced_ill_formed_utf8_ = false;
  borrowed_ = false;
  const bool go = options.bad_unicode == BadUnicode::kReplaceAsGo;
  if (go) {
    if (std::optional<std::string> repaired = RepairAsGo(text, &replaced_ill_formed_utf8_)) {
      return ParseOwned(std::move(*repaired), options, true);
    }
  }
  return Start(text, options) && ParseInPlace(arena_->CopyText(text), text.size(), options, go);
}

bool Document::ParseBorrowing(const std::string& text, const ParseOptions& options) {
  if (text.find('\\') != std::string::npos || !IsValidUtf8(text)) return Parse(text, options);
  replaced_ill_formed_utf8_ = false;
  borrowed_ = true;
  // Never written (TextStream::read_only), so the cast takes nothing the caller did not lend.
  return Start(text, options) &&
         ParseInPlace(const_cast<char*>(text.data()), text.size(), options, true);
}

bool Document::ParseTaking(std::string text, const ParseOptions& options) {
  replaced_ill_formed_utf8_ = false;
  borrowed_ = false;
  const bool go = options.bad_unicode == BadUnicode::kReplaceAsGo;
  if (go) {
    if (std::optional<std::string> repaired = RepairAsGo(text, &replaced_ill_formed_utf8_)) {
      text = std::move(*repaired);
    }
  }
  return ParseOwned(std::move(text), options, go);
}

bool Document::ParseOwned(std::string text, const ParseOptions& options, bool valid_utf8) {
  if (!Start(text, options)) return false;
  const std::size_t size = text.size();
  return ParseInPlace(arena_->TakeText(std::move(text)), size, options, valid_utf8);
}

bool Document::ParseInPlace(char* text, std::size_t size, const ParseOptions& options,
                            bool valid_utf8) {
  TextStream stream{text, text, text + size};
  stream.read_only = borrowed_;
  thread_local ValueBuilder builder;
  builder.Reset(size);
  builder.arena = arena_.get();
  builder.stream = &stream;
  builder.max_depth = options.max_depth;
  builder.values_left = options.max_values;
  builder.duplicates = &duplicates_;

  // Reused, like the builder: its parse stack is allocated once per thread, not once per line.
  thread_local Reader reader;
  rapidjson::ParseResult result = valid_utf8 || IsValidUtf8({text, size})
                                      ? reader.Parse<kValidUtf8ParseFlags>(stream, builder)
                                      : reader.Parse<kParseFlags>(stream, builder);
  if (result.IsError()) {
    ErrorCode code = builder.stop_reason;
    std::size_t offset = builder.stop_offset;
    std::string message;
    if (code == ErrorCode::kNone) {
      code = MapRapidJsonError(result.Code());
      offset = result.Offset();
      // RapidJSON reports a raw control character as a bad escape, positioned on the character.
      // (Decoding in place writes only behind the read position, so that byte is the text's.)
      if (result.Code() == rapidjson::kParseErrorStringEscapeInvalid && offset < size &&
          static_cast<unsigned char>(text[offset]) < 0x20) {
        code = ErrorCode::kControlCharacter;
      }
      message = code == ErrorCode::kSyntax ? DescribeRapidJsonError(result.Code())
                                           : MessageFor(code, options);
    } else {
      message = MessageFor(code, options);
    }
    return Fail(code, offset, std::move(message));
  }
  while (stream.cur < stream.end && IsJsonSpace(*stream.cur)) ++stream.cur;
  if (stream.cur != stream.end) {
    return Fail(ErrorCode::kTrailingContent, stream.Tell(),
                MessageFor(ErrorCode::kTrailingContent, options));
  }
  root_ = builder.values.back();
  return true;
}

}  // namespace arcs::json
