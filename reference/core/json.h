// Strict JSON: the only way ARCS reads JSON.
//
// simdjson (FrontEnd below) or RapidJSON 1.1.0 (Debian's) does the tokenizing; this layer makes
// sure none of RapidJSON's known defects decides a verdict:
//  - numbers: RapidJSON's own number parser is replaced (see json.cc) by a strict RFC 8259 scanner
//    that keeps each number's exact text. 1.1.0 rejects valid numbers such as 1e400 or a 400-digit
//    integer even with kParseNumbersAsStringsFlag, and its full-precision path misparses or
//    crashes; we never ask it for a numeric value. Classification and conversion use
//    std::from_chars on the kept text (see number.h).
//  - duplicate member names are recorded (RapidJSON keeps both silently); both members stay in the
//    document, in order, so nothing is lost.
//  - a lone low surrogate escape (\udc00), which 1.1.0 accepts even with encoding validation, is
//    rejected, as is every invalid or overlong UTF-8 sequence.
//  - a NUL byte ends RapidJSON's input; it is found first and reported with its column.
//  - nesting depth is bounded (the iterative parser never recurses; the writer recurses at most to
//    the bound).
// Values keep member order and exact text, so a document can be written back unchanged.
#ifndef ARCS_REFERENCE_CORE_JSON_H_
#define ARCS_REFERENCE_CORE_JSON_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace arcs::json {

namespace internal {  // the SIMD front end's (json_simd.h)
enum class SimdOutcome : std::uint8_t;
enum class LoneSurrogates : std::uint8_t;
}  // namespace internal

enum class Kind : std::uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };
std::string_view KindName(Kind kind);  // "null", "boolean", "number", "string", "array", "object"

struct Member;

// An immutable view of a parsed value. Storage belongs to the Document that produced it.
class Value {
 public:
  Value() = default;

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_bool() const { return kind_ == Kind::kFalse || kind_ == Kind::kTrue; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  bool as_bool() const { return kind_ == Kind::kTrue; }
  // The decoded UTF-8 content of a string (may contain U+0000), or a number's exact source text.
  std::string_view text() const { return {chars_, size_}; }
  // A string whose source had no escape, so text() holds no '"', '\\' or control character:
  // writers copy it without looking for one.
  bool is_escape_free() const { return escape_free_; }
  // An object in which some member name occurs more than once (Document::duplicates() says
  // where): readers that keep one member per name need to look only at these.
  bool repeats_a_name() const { return repeats_a_name_; }
  // A number with neither an exponent nor 309 characters: one that a finite double holds, told
  // without reading its text (which, in a large document, is seldom in the cache).
  bool is_short_plain_number() const { return short_plain_number_; }
  std::span<const Value> items() const;     // array elements; empty unless an array
  std::span<const Member> members() const;  // object members in source order; empty unless object

  // The first member with this name, or nullptr. Objects with duplicate names are reported by the
  // parser; callers that care check Document::duplicates().
  const Value* Find(std::string_view name) const;
  // The last member with this name: the one Python's json.loads keeps (WriteStyle::kPython).
  const Value* FindLast(std::string_view name) const;

 private:
  friend class Document;
  friend struct ValueBuilder;
  Kind kind_ = Kind::kNull;
  bool escape_free_ = false;
  bool repeats_a_name_ = false;
  bool short_plain_number_ = false;
  std::uint32_t size_ = 0;
  union {
    const char* chars_ = nullptr;
    const Value* items_;
    const Member* members_;
  };
};

struct Member {
  std::string_view name;
  Value value;
};

// Structural equality: same kinds, same member names in the same order, same string content,
// same number text. (Spool defines no canonical form, so this is what "preserved" means.)
bool Equal(const Value& a, const Value& b);

// Whether two values are the same data, as a reader that round-trips a file must keep it: same
// kinds, strings equal after unescaping, numbers equal by exact decimal value (1.0 equals 1, but
// not 1.0000000000000001), arrays element by element, objects with the same members regardless
// of order, every repeated name kept. Iterative, like Equal: any depth the parser allowed.
// RFC 8259 §4 leaves the meaning of a repeated name to the reader: with kFirst or kLast, `a`'s
// objects count as holding only the first (last) member of each repeated name.
enum class RepeatedNames : std::uint8_t { kKeepAll, kFirst, kLast };
bool SameData(const Value& a, const Value& b, RepeatedNames repeated = RepeatedNames::kKeepAll);

class Document;

// What a parse saw of a document's numbers, as the parser scans each (Document::numbers_seen).
struct NumbersSeen {
  // One had an exponent or 309 characters, without which no number is beyond the doubles
  // (IsWithinDoubles).
  bool may_pass_doubles = false;
  // One had a fraction, an exponent or more than 15 digits: without one, every number is an
  // integer within +-2^53 (every integer of 15 digits is below 2^53 = 9,007,199,254,740,992).
  bool beyond_short_integers = false;
};

// The first number of `root` (depth first) that no finite double holds: RFC 8785 and serde_json
// refuse those. Iterative: any depth the parser allowed.
const Value* FirstNumberBeyondDoubles(const Value& root);
// Whether a finite double holds a number (number.h's IsWithinDoubles of its text), most numbers
// told without reading the text (Value::is_short_plain_number).
bool IsWithinDoubles(const Value& number);
// The same for a document's root, without the walk when the parser saw no number that could be.
const Value* FirstNumberBeyondDoubles(const Document& document);

// The JSON Pointer of the first value under `root` for which `matches` holds ("" for root itself),
// in document order (a container before what it holds), or nothing. Iterative: any depth the
// parser allowed; the pointer is only written for the value found. `matches` must not search in
// turn: the walk's stack is the thread's.
std::optional<std::string> FirstPointerWhere(const Value& root, bool (*matches)(const Value&));

enum class ErrorCode : std::uint8_t {
  kNone,
  kEmpty,             // no value at all (only whitespace)
  kSyntax,            // not JSON
  kInvalidUtf8,       // raw bytes that are not UTF-8 (including overlong forms and surrogates)
  kLoneSurrogate,     // a \uXXXX escape naming a surrogate with no partner
  kNulByte,           // a raw U+0000 byte anywhere in the text
  kControlCharacter,  // a raw U+0001..U+001F inside a string (RFC 8259 requires an escape)
  kInvalidNumber,     // a number that breaks the RFC 8259 grammar
  kTrailingContent,   // something after the single top-level value
  kDepthExceeded,     // arrays and objects nested deeper than ParseOptions::max_depth
  kTooLarge,          // the text is longer than RapidJSON's 32-bit sizes allow
  kTooManyValues,     // more values (containers, members and elements included) than
                      // ParseOptions::max_values
};
std::string_view ErrorCodeName(ErrorCode code);

struct ParseError {
  ErrorCode code = ErrorCode::kNone;
  std::size_t offset = 0;  // byte offset into the text where the problem was found
  std::string message;
};

struct Duplicate {
  std::string pointer;     // JSON Pointer of the repeated member (the second occurrence)
  std::size_t offset = 0;  // byte offset of the second occurrence's name
};

// Memory: a parse holds the text once and 16 bytes per value while building it, then 16 bytes per
// value in the document (24 per member), so a text of n bytes costs at most about 17n (a text
// made only of one-byte values, [0,0,...]; ordinary recordings, whose values are longer, cost 2n
// to 4n). Callers bound n (a line limit); max_values bounds it further where a document is known
// to hold few values (protocol messages).
// How text that is not Unicode is read. kRefuse: ill-formed UTF-8 and a \u escape of a surrogate
// without its partner are errors (RFC 8259 §8.1, I-JSON). kReplaceAsGo: as Go's encoding/json
// reads them (SessionData's rules statement): each byte of ill-formed UTF-8 becomes U+FFFD, and
// so does each lone surrogate escape; error offsets then count in that repaired text.
enum class BadUnicode : std::uint8_t { kRefuse, kReplaceAsGo };

// Sees a large document's parts while it is parsed, so that work on them can start before the
// parse ends (Model IO's hash reads each interaction while the next is parsed). Called on the
// parsing thread, by the SIMD front end only: an observer may be shown nothing (the RapidJSON
// front end shows nothing), and its user must then work from the parsed document.
class ParseObserver {
 public:
  virtual ~ParseObserver() = default;
  // An element of an array that is the member `name` of the top-level object, as soon as it is
  // complete. It and what it holds stay as they are until Refusing() or the document's next parse.
  // `earlier` holds the top-level members before the array, in order: valid during the call only.
  virtual void Element(std::string_view name, const Value& element,
                       std::span<const Member> earlier) = 0;
  // The parse refuses the text: what Element was given is about to be written over or freed.
  // Return only when nothing reads it any more (Element is not called again during this parse).
  virtual void Refusing() = 0;
};

struct ParseOptions {
  std::uint32_t max_depth = 128;          // arrays and objects; the top-level value is depth 1
  std::uint64_t max_values = UINT64_MAX;  // every value, containers included
  BadUnicode bad_unicode = BadUnicode::kRefuse;
  ParseObserver* observer = nullptr;
};

// The tokenizer under the strict layer; both decide every text alike (the same document, the same
// error at the same offset), which json_differential_test and fuzz/json_differential_fuzzer check.
// kSimd, the default: simdjson's stage 1 validates and indexes the text with SIMD instructions and
// ARCS walks the index (json_simd.h); whatever that walk refuses, RapidJSON reads again and
// reports. kRapidJson: RapidJSON's reader alone. Process-wide; ARCS_JSON_FRONT_END=rapidjson in the
// environment selects it at start-up.
enum class FrontEnd : std::uint8_t { kSimd, kRapidJson };
void SetFrontEnd(FrontEnd front_end);
FrontEnd CurrentFrontEnd();

// Owns the storage of one parsed value, including its own copy of the text (strings and names
// point into it), so the text given to Parse() need not outlive the call. Reusable: each Parse()
// discards the previous content, and every Value of it, but keeps the memory, so parsing line
// after line allocates almost nothing.
class Document {
 public:
  Document();
  ~Document();
  Document(Document&&) noexcept;
  Document& operator=(Document&&) noexcept;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  // Parses exactly one JSON value, optionally surrounded by JSON whitespace.
  // Returns false and fills error() on failure; root() is then null.
  bool Parse(std::string_view text, const ParseOptions& options = {});
  // The same for a text the document may keep: moved in, not copied, and decoded in place, so a
  // file read whole is held once. (Its spare capacity takes the kTakenTextSpare bytes of padding
  // the parser needs; without them the string grows, and is copied, once.)
  bool ParseTaking(std::string text, const ParseOptions& options = {});
  static constexpr std::size_t kTakenTextSpare = 8;
  // The same for a text that outlives the document and every Value of it, read where it stands and
  // never written: strings that have an escape are decoded into the document's own storage, the
  // others point into the text. A text the SIMD walk refuses is then copied, as Parse copies it, to
  // be read again and reported; so is every text under FrontEnd::kRapidJson, and one that ends
  // with a byte a number may end with. For a caller that keeps the text while it reads the
  // document: a line in a reader's buffer is then not copied first (MCP's checker), nor a whole
  // file in memory (Model IO's). A text of 8 MiB or more has its decoded strings written to one
  // block whose pages are faulted in ahead on a second core (Arena::ReserveStringsBlock), as large
  // as the text: the memory a copy would have taken.
  bool ParseBorrowing(std::string_view text, const ParseOptions& options = {});
  // The same for a text in a writable buffer of the caller's, followed there by kTakenTextSpare
  // bytes of room: parsed where it stands, its strings decoded in place and the room written with
  // padding, so nothing is copied. The buffer must outlive the document and every Value of it. For
  // a reader that already holds each line in a buffer of its own (Lightbox's parallel verifier).
  bool ParseInBuffer(char* text, std::size_t size, const ParseOptions& options = {});

  const Value& root() const { return root_; }
  // Hands over the text the document parsed in place (its strings decoded where they stood, then
  // padding) and empties the document: its values pointed into the text. For a caller that reuses
  // the bytes of its largest string (the protocol decodes an answer's largest output in place).
  // "" after ParseBorrowing: that text is the caller's.
  std::string ReleaseText();
  const ParseError& error() const { return error_; }
  const std::vector<Duplicate>& duplicates() const { return duplicates_; }
  // BadUnicode::kReplaceAsGo: whether the text was not well-formed UTF-8 and had bytes replaced
  // (a reader of the same file that refuses such text can tell without scanning it again).
  bool replaced_ill_formed_utf8() const { return replaced_ill_formed_utf8_; }
  // What the parse saw of the document's numbers: a check for rare ones (floats, integers beyond
  // 2^53) need not walk the document when the parse saw none.
  const NumbersSeen& numbers_seen() const { return numbers_seen_; }

 private:
  friend struct ValueBuilder;

 public:
  struct Arena;  // defined in json_internal.h, for the front ends

 private:
  bool Start(std::string_view text, const ParseOptions& options);
  // Whether the SIMD walk is to be taken, or has already refused the text (a borrowed one, which
  // it leaves as it found it).
  enum class Walk : std::uint8_t { kWalk, kRefused };
  bool ParseCopy(std::string_view text, const ParseOptions& options, Walk walk);
  // After any repair; valid_utf8: the text is known to be well-formed UTF-8.
  bool ParseOwned(std::string text, const ParseOptions& options, bool valid_utf8);
  bool ParseInPlace(char* text, std::size_t size, const ParseOptions& options, bool valid_utf8,
                    Walk walk = Walk::kWalk);
  bool ParseAsGo(char* text, std::size_t size, const ParseOptions& options,
                 Walk walk = Walk::kWalk);
  // read_only: the text is a caller's, never to be written (ParseBorrowing): strings are decoded
  // into the arena.
  internal::SimdOutcome WalkWithSimd(char* text, std::size_t size, const ParseOptions& options,
                                     internal::LoneSurrogates lone, bool read_only = false);
  bool ReadAgainWithRapidJson(char* text, std::size_t size, const ParseOptions& options,
                              bool valid_utf8, bool neutralized);
  bool ParseWithRapidJson(char* text, std::size_t size, const ParseOptions& options,
                          bool valid_utf8);
  bool Fail(ErrorCode code, std::size_t offset, std::string message);
  std::unique_ptr<Arena> arena_;
  Value root_;
  ParseError error_;
  std::vector<Duplicate> duplicates_;
  bool replaced_ill_formed_utf8_ = false;
  NumbersSeen numbers_seen_;
  bool borrowed_ = false;  // the text parsed last is a caller's (ParseBorrowing, ParseInBuffer)
};

// How Write lays values out. kAsParsed: members in source order, numbers as their source text.
// kPython: what Python's json.dumps(sort_keys=True) writes of the object json.loads made: member
// names in code point order (the byte order of their UTF-8, not RFC 8785's UTF-16 order, which
// differs above U+FFFF), of a repeated name only the last member, and integers as Python prints
// them ("-0" is 0; other numbers are written as their text).
enum class WriteStyle : std::uint8_t { kAsParsed, kPython };

// Writes a value as compact JSON in `style`, strings with the minimal RFC 8259 escaping (", \,
// and U+0000..U+001F; \b \f \n \r \t in short form, the others as lowercase \u00xx) and UTF-8
// written raw, U+2028 and DEL included: the escaping of Python's json.dumps with
// ensure_ascii=False. As parsed, parsing the output gives a value Equal() to the input.
void Write(const Value& value, std::string* out, WriteStyle style = WriteStyle::kAsParsed);

// Whether `value` is a float: a number with a fraction or an exponent (Python's json.loads reads it
// as one; the canonical forms refuse it).
bool IsFloat(const Value& value);

// Write(value, out, WriteStyle::kPython) of a value without a float, checked in the same walk:
// false at the first float, *out then as it was. Members of the top-level object named `omit`
// (unless empty) are left out, though a float in them is still refused. One walk where a float
// check and a write took two (canonical::AppendPythonSortedJson, once per event of a Lightbox log).
bool WritePythonWithoutFloats(const Value& value, std::string_view omit, std::string* out);

// An object's members in the order WriteStyle::kPython writes them; or appended to *sorted, for a
// caller that writes one object after another and keeps the vector, which then leaves out the
// members named `omit` (unless empty).
std::vector<const Member*> MembersSortedLastWins(const Value& object);
void AppendMembersSortedLastWins(const Value& object, std::vector<const Member*>* sorted,
                                 std::string_view omit = {});
std::string ToString(const Value& value);

// Appends s as a JSON string literal (with quotes) using the same escaping as Write().
void AppendQuoted(std::string_view s, std::string* out);

// The same escaping with DEL and every code point above it written as \uxxxx (above U+FFFF, as
// its UTF-16 surrogate pair): Python's json.dumps with ensure_ascii=True. `s` is well-formed UTF-8.
void AppendQuotedAscii(std::string_view s, std::string* out);

// Building compact JSON objects by hand (messages, listings): appends "name":"value" (or the raw
// JSON text `raw`) to an object under construction in *out, after a comma unless it is the first
// member (*out ends with '{').
void AppendMember(std::string_view name, std::string_view value, std::string* out);
void AppendRawMember(std::string_view name, std::string_view raw, std::string* out);
// Only the `"name":` (after a comma unless *out ends with '{'), its value to follow.
void AppendMemberName(std::string_view name, std::string* out);

// RFC 6901 escaping of one reference token ("~" -> "~0", "/" -> "~1").
void AppendPointerToken(std::string_view token, std::string* out);

}  // namespace arcs::json

#endif  // ARCS_REFERENCE_CORE_JSON_H_
