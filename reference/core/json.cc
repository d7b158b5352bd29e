#include "reference/core/json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>

#include "reference/core/json_internal.h"
#include "reference/core/json_simd.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::json {
namespace {

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
  const char* start = is.cur;
  const arcs::json::NumberScan scan = arcs::json::ScanNumber(start);
  is.cur = const_cast<char*>(scan.end);
  if (scan.outcome == arcs::json::NumberScan::kNotANumber) {
    // Not a number at all (RapidJSON sends every unrecognized value here): a syntax error.
    RAPIDJSON_PARSE_ERROR_NORETURN(rapidjson::kParseErrorValueInvalid, is.Tell());
    return;
  }
  if (scan.outcome == arcs::json::NumberScan::kMalformed) {
    handler.stop_reason = arcs::json::ErrorCode::kInvalidNumber;
    handler.stop_offset = is.Tell();
    RAPIDJSON_PARSE_ERROR_NORETURN(rapidjson::kParseErrorValueInvalid, is.Tell());
    return;
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
    if (SameBytes(m.name, name)) return &m.value;
  }
  return nullptr;
}

const Value* Value::FindLast(std::string_view name) const {
  const std::span<const Member> all = members();
  for (auto m = all.rbegin(); m != all.rend(); ++m) {
    if (SameBytes(m->name, name)) return &m->value;
  }
  return nullptr;
}

const Value* FirstNumberBeyondDoubles(const Value& root) {
  std::vector<const Value*> pending = {&root};
  while (!pending.empty()) {
    const Value* v = pending.back();
    pending.pop_back();
    if (v->is_number() && !IsWithinDoubles(*v)) return v;
    for (auto item = v->items().rbegin(); item != v->items().rend(); ++item) {
      pending.push_back(&*item);
    }
    for (auto m = v->members().rbegin(); m != v->members().rend(); ++m) {
      pending.push_back(&m->value);
    }
  }
  return nullptr;
}

bool IsWithinDoubles(const Value& number) {
  return number.is_short_plain_number() || IsWithinDoubles(number.text());
}

const Value* FirstNumberBeyondDoubles(const Document& document) {
  return document.numbers_seen().may_pass_doubles ? FirstNumberBeyondDoubles(document.root())
                                                  : nullptr;
}

std::optional<std::string> FirstPointerWhere(const Value& root, bool (*matches)(const Value&)) {
  if (matches(root)) return std::string();
  struct Frame {
    const Value* value;
    std::size_t next;  // the child to visit next
  };
  thread_local std::vector<Frame> frames;  // kept: a validator searches every event of a log
  frames.clear();
  const auto done = [](std::optional<std::string> found) {
    if (frames.capacity() > 4096) std::vector<Frame>().swap(frames);
    return found;
  };
  if (root.is_array() || root.is_object()) frames.push_back({&root, 0});
  while (!frames.empty()) {
    Frame& top = frames.back();
    const bool array = top.value->is_array();
    if (top.next == (array ? top.value->items().size() : top.value->members().size())) {
      frames.pop_back();
      continue;
    }
    const Value& child =
        array ? top.value->items()[top.next] : top.value->members()[top.next].value;
    ++top.next;
    if (matches(child)) {
      std::string pointer;
      for (const Frame& f : frames) {
        pointer += '/';
        if (f.value->is_array()) {
          pointer += std::to_string(f.next - 1);
        } else {
          AppendPointerToken(f.value->members()[f.next - 1].name, &pointer);
        }
      }
      return done(std::move(pointer));
    }
    if (child.is_array() || child.is_object()) frames.push_back({&child, 0});
  }
  return done(std::nullopt);
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
  numbers_seen_ = NumbersSeen();
  error_ = ParseError();
  duplicates_.clear();
  if (text.size() >= std::numeric_limits<rapidjson::SizeType>::max()) {
    return Fail(ErrorCode::kTooLarge, 0, MessageFor(ErrorCode::kTooLarge, options));
  }
  return true;
}

bool Document::Parse(std::string_view text, const ParseOptions& options) {
  replaced_ill_formed_utf8_ = false;
  return Start(text, options) && ParseCopy(text, options, Walk::kWalk);
}

bool Document::ParseCopy(std::string_view text, const ParseOptions& options, Walk walk) {
  borrowed_ = false;
  char* copy = arena_->CopyText(text);
  if (options.bad_unicode == BadUnicode::kReplaceAsGo) {
    return ParseAsGo(copy, text.size(), options, walk);
  }
  return ParseInPlace(copy, text.size(), options, false, walk);
}

// Only the SIMD walk reads a text it may not write (its strings decoded into the arena), and only
// one that a number cannot end: ScanNumber reads on to the byte after a number, which a caller's
// text need not have. The walk refuses or accepts; the rest (RapidJSON's report, Go's repair) is
// done on a copy, as Parse does it.
bool Document::ParseBorrowing(std::string_view text, const ParseOptions& options) {
  replaced_ill_formed_utf8_ = false;
  if (!Start(text, options)) return false;
  const bool number_may_end_it =
      !text.empty() && (IsDigit(text.back()) ||
                        std::string_view(".eE+-").find(text.back()) != std::string_view::npos);
  if (CurrentFrontEnd() != FrontEnd::kSimd || number_may_end_it) {
    return ParseCopy(text, options, Walk::kWalk);
  }
  borrowed_ = true;
  if (text.size() >= PagesFaultedAhead::kFaultAheadMin) arena_->strings_block = text.size();
  const auto lone = options.bad_unicode == BadUnicode::kReplaceAsGo
                        ? internal::LoneSurrogates::kReplace
                        : internal::LoneSurrogates::kRefuse;
  // Never written (TextStream::read_only), so the cast takes nothing the caller did not lend.
  if (WalkWithSimd(const_cast<char*>(text.data()), text.size(), options, lone, true) ==
      internal::SimdOutcome::kAccepted) {
    return true;
  }
  return ParseCopy(text, options, Walk::kRefused);
}

bool Document::ParseInBuffer(char* text, std::size_t size, const ParseOptions& options) {
  replaced_ill_formed_utf8_ = false;
  borrowed_ = true;
  if (!Start({text, size}, options)) return false;
  std::memset(text + size, '\0', 1 + kTextPadding);  // as Arena::Pad pads its own copy
  if (options.bad_unicode == BadUnicode::kReplaceAsGo) return ParseAsGo(text, size, options);
  return ParseInPlace(text, size, options, false);
}

bool Document::ParseTaking(std::string text, const ParseOptions& options) {
  replaced_ill_formed_utf8_ = false;
  borrowed_ = false;
  if (!Start(text, options)) return false;
  const std::size_t size = text.size();
  char* taken = arena_->TakeText(std::move(text));
  if (options.bad_unicode == BadUnicode::kReplaceAsGo) return ParseAsGo(taken, size, options);
  return ParseInPlace(taken, size, options, false);
}

// After RepairAsGo the text is well-formed UTF-8, whether it was repaired or found so: the parse
// need not check again.
bool Document::ParseOwned(std::string text, const ParseOptions& options, bool valid_utf8) {
  borrowed_ = false;  // a repair of a caller's text (ParseInBuffer) is the document's own
  if (!Start(text, options)) return false;
  const std::size_t size = text.size();
  return ParseInPlace(arena_->TakeText(std::move(text)), size, options, valid_utf8);
}

namespace {

std::atomic<FrontEnd> g_front_end = [] {
  const char* chosen = std::getenv("ARCS_JSON_FRONT_END");
  return chosen != nullptr && std::string_view(chosen) == "rapidjson" ? FrontEnd::kRapidJson
                                                                      : FrontEnd::kSimd;
}();

// Reused from text to text, like RapidJSON's reader: its stacks are allocated once per thread.
ValueBuilder& BuilderFor(std::size_t size, TextStream* stream, Document::Arena* arena,
                         const ParseOptions& options, std::vector<Duplicate>* duplicates) {
  thread_local ValueBuilder builder;
  builder.Reset(size);
  builder.arena = arena;
  builder.stream = stream;
  builder.max_depth = options.max_depth;
  builder.values_left = options.max_values;
  builder.duplicates = duplicates;
  return builder;
}

}  // namespace

void SetFrontEnd(FrontEnd front_end) { g_front_end = front_end; }
FrontEnd CurrentFrontEnd() { return g_front_end; }

bool Document::ParseInPlace(char* text, std::size_t size, const ParseOptions& options,
                            bool valid_utf8, Walk walk) {
  auto outcome = internal::SimdOutcome::kRefused;
  if (walk == Walk::kWalk && CurrentFrontEnd() == FrontEnd::kSimd) {
    outcome = WalkWithSimd(text, size, options, internal::LoneSurrogates::kRefuse);
    if (outcome == internal::SimdOutcome::kAccepted) return true;
  }
  return ReadAgainWithRapidJson(text, size, options, valid_utf8,
                                outcome == internal::SimdOutcome::kNeutralized);
}

// BadUnicode::kReplaceAsGo, the text in the arena. Stage 1 checks the UTF-8 and the walk decodes a
// lone surrogate escape as U+FFFD itself, so a text that needs no other repair is read in one pass,
// with no scan before it. Any other is repaired (RepairAsGo) and read again: the text as given, or
// as a refusing walk left it (neutralized: the strings it filled with 'a' were valid and are still,
// so it repairs and reads as the original would).
bool Document::ParseAsGo(char* text, std::size_t size, const ParseOptions& options, Walk walk) {
  auto outcome = internal::SimdOutcome::kRefused;
  if (walk == Walk::kWalk && CurrentFrontEnd() == FrontEnd::kSimd) {
    outcome = WalkWithSimd(text, size, options, internal::LoneSurrogates::kReplace);
    if (outcome == internal::SimdOutcome::kAccepted) return true;
  }
  const bool neutralized = outcome == internal::SimdOutcome::kNeutralized;
  std::optional<std::string> repaired = RepairAsGo({text, size}, &replaced_ill_formed_utf8_);
  if (repaired && !neutralized) return ParseOwned(std::move(*repaired), options, true);
  if (repaired) {
    borrowed_ = false;
    if (!Start(*repaired, options)) return false;
    size = repaired->size();
    text = arena_->TakeText(std::move(*repaired));
  }
  return ReadAgainWithRapidJson(text, size, options, true, neutralized);
}

internal::SimdOutcome Document::WalkWithSimd(char* text, std::size_t size,
                                             const ParseOptions& options,
                                             internal::LoneSurrogates lone, bool read_only) {
  TextStream stream{text, text, text + size};
  stream.read_only = read_only;
  ValueBuilder& builder = BuilderFor(size, &stream, arena_.get(), options, &duplicates_);
  builder.observer = options.observer;
  const internal::SimdOutcome outcome =
      internal::ParseWithSimd(text, size, lone, &builder, &stream);
  if (outcome == internal::SimdOutcome::kAccepted) {
    root_ = builder.values.back();
    numbers_seen_ = builder.numbers_seen;
  } else {
    arena_->Reset();
    duplicates_.clear();
  }
  return outcome;
}

// A text the walk did not accept (or was not asked to), read by RapidJSON, which reports the error.
bool Document::ReadAgainWithRapidJson(char* text, std::size_t size, const ParseOptions& options,
                                      bool valid_utf8, bool neutralized) {
  const bool accepted = ParseWithRapidJson(text, size, options, valid_utf8);
  if (accepted && neutralized) {
    // Never expected (the differential fuzzer looks for it): refusing is safer than a document
    // whose strings were overwritten.
    return Fail(ErrorCode::kSyntax, 0,
                "internal error: the SIMD front end refused a text RapidJSON accepts (run with "
                "ARCS_JSON_FRONT_END=rapidjson, and report it)");
  }
  return accepted;
}

// A NUL byte ends RapidJSON's input, so it is looked for first. (The SIMD walk never accepts a
// text with one: a raw control character in a string, or a stray byte outside one. Nor does
// neutralizing reach one: it writes only over string content that was read and valid.)
bool Document::ParseWithRapidJson(char* text, std::size_t size, const ParseOptions& options,
                                  bool valid_utf8) {
  if (const void* nul = std::memchr(text, '\0', size)) {
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nul) - text);
    return Fail(ErrorCode::kNulByte, at, MessageFor(ErrorCode::kNulByte, options));
  }
  TextStream stream{text, text, text + size};
  ValueBuilder& builder = BuilderFor(size, &stream, arena_.get(), options, &duplicates_);
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
  numbers_seen_ = builder.numbers_seen;
  return true;
}

}  // namespace arcs::json
