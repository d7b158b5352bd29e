// Internal to reference/core's JSON parser (json.cc, json_simd.cc): what both front ends share, the
// token scanners, the document's storage and the builder that turns tokens into a Document. Not
// part of the public interface (json.h).
#ifndef ARCS_REFERENCE_CORE_JSON_INTERNAL_H_
#define ARCS_REFERENCE_CORE_JSON_INTERNAL_H_

#include <rapidjson/reader.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/pages_faulted_ahead.h"
#include "reference/core/strings.h"
#include "reference/core/swar.h"

namespace arcs::json {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The value of four hex digits at text[at], or -1. Read as one word: a recording written with
// ASCII-only escapes (Python's json.dumps) has a \u escape for each character that is not ASCII.
inline int Hex4(std::string_view text, std::size_t at) {
  if (at > text.size() || text.size() - at < 4) return -1;
  std::uint32_t word;
  std::memcpy(&word, text.data() + at, sizeof word);
  const std::uint64_t x = word;
  // 'A'-'F' and 'a'-'f' are the only bytes whose lowercase (bit 5 set) is a letter a-f.
  const std::uint64_t letters = swar::BytesBetween(x | swar::kEachByte * 0x20, 'a' - 1, 'f' + 1);
  if ((swar::BytesBetween(x, '0' - 1, '9' + 1) | letters) != 0x80808080) return -1;
  // Bytes 0 and 2 spell the high and the low byte of the value.
  const std::uint64_t pairs = swar::JoinDigitPairs(swar::HexDigitValues(x, letters));
  return static_cast<int>(((pairs & 0xFF) << 8) | ((pairs >> 16) & 0xFF));
}

// The strict RFC 8259 number grammar, over a NUL-terminated text (the NUL ends any scan). Both
// front ends keep a number's exact text; neither asks a library for its value.
struct NumberScan {
  enum Outcome : std::uint8_t { kNumber, kMalformed, kNotANumber } outcome;
  // kNumber: one past the number; kMalformed: where the grammar broke; kNotANumber: after the
  // optional minus sign (where RapidJSON reports an unrecognized value).
  const char* end;
};
inline NumberScan ScanNumber(const char* p) {
  if (*p == '-') ++p;
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    while (IsDigit(*p)) ++p;
  } else {
    return {NumberScan::kNotANumber, p};
  }
  if (*p == '.') {
    ++p;
    if (!IsDigit(*p)) return {NumberScan::kMalformed, p};
    while (IsDigit(*p)) ++p;
  }
  if (*p == 'e' || *p == 'E') {
    ++p;
    if (*p == '+' || *p == '-') ++p;
    if (!IsDigit(*p)) return {NumberScan::kMalformed, p};
    while (IsDigit(*p)) ++p;
  }
  return {NumberScan::kNumber, p};
}

// RapidJSON reads from this stream, in situ (kParseInsituFlag): the text is the document's own
// copy (Document::Arena::text), NUL-terminated and NUL-padded, so Peek() needs no bounds check. The
// text has been checked for NUL bytes before parsing, so a '\0' can only mean "end of input".
// Strings are decoded in place: Put() writes at or behind the read position (a decoded string is
// never longer than its source), and String()/Key() receive pointers into the copy.
// Read-only (Document::ParseBorrowing): the text is a caller's, neither terminated nor padded, and
// only the SIMD walk reads it, decoding strings into the document's arena; RapidJSON never does.
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
  void Put(Ch c) { *dst++ = c; }
  void Flush() {}
  std::size_t PutEnd(Ch* b) { return static_cast<std::size_t>(dst - b); }
};

// NUL bytes after the text's terminating NUL. RapidJSON's UTF-8 validation takes a multi-byte
// sequence's continuation bytes without looking at them first: a lead byte of a 4-byte sequence as
// the text's last byte makes it Take() the terminator and then two more bytes (and Put() them back
// in place) before it reports the invalid sequence. The padding keeps all of that inside the copy.
constexpr std::size_t kTextPadding = 4;
static_assert(1 + kTextPadding <= Document::kTakenTextSpare);

// A UTF-8 encoded surrogate (ED A0..BF xx). RapidJSON's encoding validation rejects these as raw
// input, so in a decoded string they can only come from a \uDC00-style escape with no partner.
inline bool HasEncodedSurrogate(const char* s, std::size_t n) {
  const char* end = s + n;
  for (const char* p = s; (p = static_cast<const char*>(std::memchr(p, '\xED', end - p)));) {
    if (p + 1 < end && static_cast<unsigned char>(p[1]) >= 0xA0) return true;
    ++p;
  }
  return false;
}

// One document's storage: a bump allocator for its values and members (Reset() keeps the largest
// block), and its copy of the text, which its strings, names and numbers point into.
struct Document::Arena {
  static constexpr std::size_t kMinBlock = 16 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks;
  std::vector<std::size_t> sizes;
  char* next = nullptr;
  std::size_t left = 0;
  // The size of the block ReserveStringsBlock takes, for the text being parsed; 0 for none.
  std::size_t strings_block = 0;
  // Faulting the pages of that block in; declared after `blocks`, so it is done before they go.
  std::unique_ptr<PagesFaultedAhead> strings_faulted_ahead;
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

  void AddBlock(std::size_t block) {
    blocks.push_back(std::make_unique_for_overwrite<char[]>(block));
    sizes.push_back(block);
    next = blocks.back().get();
    left = block;
  }

  void* Allocate(std::size_t size, std::size_t align) {
    std::size_t pad = (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
    if (size + pad > left) {
      // The first block is sized to the text: a reader keeps one Document per entry, and a
      // million small entries must not cost a million 16 KiB blocks. Later blocks double.
      const std::size_t first = std::clamp<std::size_t>(2 * text.capacity(), 256, kMinBlock);
      std::size_t block = std::max(first, size + align);
      if (!sizes.empty()) block = std::max(block, sizes.back() * 2);
      AddBlock(block);
      pad = (align - reinterpret_cast<std::uintptr_t>(next) % align) % align;
    }
    char* out = next + pad;
    next += pad + size;
    left -= pad + size;
    return out;
  }

  // Room for a string decoded out of place (a borrowed text's: Document::ParseBorrowing), at most
  // as long as its source; then what the decoded string did not take is given back (nothing has
  // been allocated since).
  char* StringRoom(std::size_t size) {
    if (strings_block != 0) ReserveStringsBlock();
    return static_cast<char*>(Allocate(size, 1));
  }
  void GiveBackStringRoom(char* room, std::size_t size, std::size_t used) {
    next = room + used;
    left += size - used;
  }

  template <typename T>
  T* AllocateArray(std::size_t n) {
    return static_cast<T*>(Allocate(sizeof(T) * std::max<std::size_t>(n, 1), alignof(T)));
  }

  // A large borrowed text's strings, decoded out of place, write about as many fresh pages as a
  // copy of the text would, and a page's first write costs a fault, on a VM more than the write: a
  // block that holds them all (they are no longer than the text) is taken at the first string with
  // an escape, and its pages are faulted in on a second core ahead of the decoding, as a copy's are
  // (jsonl::ReadSource). Taken only then, so a text with no escape costs no memory for it.
  // Measured on Model IO's validator over 100 MB in memory, alternated in one process: reading a
  // copy 134-145 ms, borrowed without this 142-150, with it 110-122.
  // (A block kept from an earlier text that has the room is used as it is.)
  void ReserveStringsBlock() {
    const std::size_t block = std::exchange(strings_block, 0);
    if (left < block) AddBlock(block);
    strings_faulted_ahead = std::make_unique<PagesFaultedAhead>(next, block);
  }

  void Reset() {
    strings_faulted_ahead.reset();
    strings_block = 0;
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
  NumbersSeen numbers_seen;
  // ParseOptions::observer, on the SIMD walk only; `earlier` is what it is shown of the top-level
  // object, made again only when that has more members.
  ParseObserver* observer = nullptr;
  std::vector<Member> earlier;

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
    numbers_seen = NumbersSeen();
    observer = nullptr;
    earlier.clear();
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
    if (observer != nullptr) [[unlikely]]
      Observe(v);
    return true;
  }

  // Shows the observer `v` if it is an element of an array member of the top-level object.
  void Observe(const Value& v) {
    if (frames.size() != 2 || !frames[0].is_object || frames[1].is_object) return;
    const std::size_t before = frames[1].start - frames[0].start;
    if (earlier.size() != before) {
      earlier.clear();
      for (std::size_t i = 0; i < before; ++i) {
        earlier.push_back({names[frames[0].names_start + i].text, values[frames[0].start + i]});
      }
    }
    observer->Element(frames[1].key, v, earlier);
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
    bool exponent = false;
    bool fraction = false;
    for (const char c : std::string_view(s, n)) {
      exponent |= (c | 0x20) == 'e';
      fraction |= c == '.';
    }
    const bool short_plain = n < 309 && !exponent;
    constexpr std::size_t kShortIntegerDigits = 15;
    numbers_seen.may_pass_doubles |= !short_plain;
    numbers_seen.beyond_short_integers |=
        exponent || fraction || n - (s[0] == '-' ? 1 : 0) > kShortIntegerDigits;
    Value v;
    v.kind_ = Kind::kNumber;
    v.short_plain_number_ = short_plain;
    v.chars_ = s;
    v.size_ = n;
    return Push(v);
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
    return PairedKey(s, n);
  }
  // A string or name whose \u escapes the caller decoded itself, refusing every unpaired
  // surrogate (the SIMD walk): nothing is left for HasEncodedSurrogate to find. (Decoded out of
  // place, s is not in the text: the caller says whether its source had an escape.)
  bool PairedString(const char* s, rapidjson::SizeType n, bool escaped) {
    return PushText(Kind::kString, s, n, !escaped);
  }
  bool PairedKey(const char* s, rapidjson::SizeType n) {
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
    const std::size_t duplicates_before = duplicates->size();
    FindDuplicates(members, n, frame.names_start);
    frames.pop_back();
    Value v;
    v.kind_ = Kind::kObject;
    v.repeats_a_name_ = duplicates->size() != duplicates_before;
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

  // Objects in recordings are small, so a quadratic scan beats hashing until they are not. Names
  // of a length are compared inline (SameBytes): "role" against "text" was a call to memcmp.
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
          if (SameBytes(members[i].name, members[j].name)) {
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

#endif  // ARCS_REFERENCE_CORE_JSON_INTERNAL_H_
