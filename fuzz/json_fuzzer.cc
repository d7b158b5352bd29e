// Fuzz target: strict JSON (reference/core/json.h).
//
// 1. Round trip: a text Parse() accepts is written with Write(), parsed again and must be Equal()
//    to the first value with the same duplicate names, and writing it again must give the same
//    bytes. Reparsing into the first Document checks that a reused arena starts clean.
// 2. Differential check against raw RapidJSON 1.1.0 (the same tokenizer, without our number
//    scanner and checks): what we accept it must accept, and what we call a syntax error it must
//    reject. Disagreements in the classes where 1.1.0 is known to be wrong are expected and not
//    reported:
//    - numbers it rejects although they are valid (an exponent of 3+ digits, 300+ digits in a
//      row): the differential is skipped for any input containing such a digit sequence;
//    - what it accepts and we reject (lone low surrogate, NUL byte, nesting depth): we reject
//      those with their own error codes, never kSyntax, so they do not reach the check;
//    - duplicate member names: neither side rejects them.
// Any other disagreement traps.
// 3. Reading as Go (BadUnicode::kReplaceAsGo) changes only what is not Unicode.
// 4. ParseBorrowing() decides as Parse() does (the same error at the same offset, or an Equal()
//    value with the same duplicates) and leaves the text it borrows unchanged.
// 5. WritePythonWithoutFloats() (one walk) decides and writes as the two walks it replaced: a
//    float anywhere (FirstPointerWhere over every member, repeated and omitted ones included)
//    refuses, leaving the output as it was; otherwise the members sorted last-wins, the omitted
//    name left out at the top, each value written with WriteStyle::kPython.
// 6. AppendQuoted() writes the input's bytes, taken as one string whatever they are, as the
//    byte-at-a-time oracle (testing/escaped_slowly.h) does, after what the output already held.
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "reference/core/json.h"
#include "reference/core/testing/escaped_slowly.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::uint32_t kMaxDepth = 64;

[[noreturn]] void Fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "json_fuzzer: %s\ninput (%zu bytes): %.*s\n", what, input.size(),
               static_cast<int>(input.size() < 512 ? input.size() : 512), input.data());
  __builtin_trap();
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether the text holds a digit sequence RapidJSON 1.1.0's number parser rejects even with
// kParseNumbersAsStringsFlag: an exponent of 3 or more digits (it rejects exponents over
// 308 - fraction digits) or a run of 300 or more digits (it rejects integer parts once their
// double value passes DBL_MAX / 10, about 308 digits). Deliberately coarse: strings count too.
bool HasNumberRapidJsonRejects(std::string_view text) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (IsDigit(c)) {
      if (++run >= 300) return true;
      continue;
    }
    run = 0;
    if (c == 'e' || c == 'E') {
      std::size_t j = i + 1;
      if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
      std::size_t digits = 0;
      while (j < text.size() && IsDigit(text[j])) {
        ++j;
        ++digits;
      }
      if (digits >= 3) return true;
    }
  }
  return false;
}

// Raw RapidJSON with the flags our parser starts from (minus kParseStopWhenDoneFlag: it checks
// for trailing content itself) and a handler that accepts everything.
rapidjson::ParseResult RapidJsonParse(std::string_view text) {
  constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag |
                              rapidjson::kParseIterativeFlag |
                              rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::MemoryStream stream(text.data(), text.size());
  rapidjson::BaseReaderHandler<> handler;
  rapidjson::Reader reader;
  return reader.Parse<kFlags>(stream, handler);
}

void CheckRoundTrip(arcs::json::Document& first, std::string_view input) {
  using namespace arcs::json;
  ParseOptions options;
  options.max_depth = kMaxDepth;

  std::string written = ToString(first.root());
  Document second;
  if (!second.Parse(written, options)) Fail("Write() output does not parse", input);
  if (!Equal(first.root(), second.root())) Fail("reparsed value is not Equal()", input);
  if (first.duplicates().size() != second.duplicates().size()) {
    Fail("reparsed value reports different duplicate names", input);
  }
  for (std::size_t i = 0; i < first.duplicates().size(); ++i) {
    if (first.duplicates()[i].pointer != second.duplicates()[i].pointer) {
      Fail("reparsed value reports different duplicate names", input);
    }
  }
  std::string rewritten;
  Write(second.root(), &rewritten);
  if (rewritten != written) Fail("second Write() differs from the first", input);

  // The first document again, now over an arena that already held a value.
  if (!first.Parse(rewritten, options)) Fail("Write() output does not parse on reuse", input);
  if (!Equal(first.root(), second.root())) Fail("reused Document parses differently", input);
}

void CheckPythonWithoutFloats(const arcs::json::Document& document, std::string_view input) {
  using namespace arcs::json;
  const Value& root = document.root();
  std::string omit;
  if (root.is_object() && !root.members().empty()) omit = root.members().front().name;
  for (std::string_view name : {std::string_view(), std::string_view(omit)}) {
    std::string expected;
    const bool has_float = FirstPointerWhere(root, &IsFloat).has_value();
    if (!has_float && (name.empty() || !root.is_object())) {
      Write(root, &expected, WriteStyle::kPython);
    } else if (!has_float) {
      expected = "{";
      for (const Member* m : MembersSortedLastWins(root)) {
        if (m->name == name) continue;
        AppendMemberName(m->name, &expected);
        Write(m->value, &expected, WriteStyle::kPython);
      }
      expected += "}";
    }
    std::string written = "before";
    const bool ok = WritePythonWithoutFloats(root, name, &written);
    if (ok == has_float) Fail("WritePythonWithoutFloats() decides floats otherwise", input);
    if (written != "before" + expected) Fail("WritePythonWithoutFloats() writes otherwise", input);
  }
}

// BadUnicode::kReplaceAsGo changes only what is not Unicode: a text the strict read accepts reads
// the same; one it refuses for ill-formed UTF-8 or a lone surrogate reads, or fails for another
// reason, and whatever it reads is well-formed Unicode.
void CheckReadAsGo(const arcs::json::Document* strict, arcs::json::ErrorCode strict_code,
                   std::string_view input) {
  using namespace arcs::json;
  ParseOptions options;
  options.max_depth = kMaxDepth;
  options.bad_unicode = BadUnicode::kReplaceAsGo;
  Document as_go;
  const bool accepted = as_go.Parse(input, options);
  if (strict && !(accepted && Equal(strict->root(), as_go.root()))) {
    Fail("read as Go, a strictly valid text reads otherwise", input);
  }
  const ErrorCode code = as_go.error().code;
  if (code == ErrorCode::kInvalidUtf8 || code == ErrorCode::kLoneSurrogate) {
    Fail("read as Go, a text is refused for its Unicode", input);
  }
  if (!strict && accepted && strict_code != ErrorCode::kInvalidUtf8 &&
      strict_code != ErrorCode::kLoneSurrogate) {
    Fail("read as Go, a text refused for something else reads", input);
  }
}

void CheckBorrowing(const arcs::json::Document& copied, std::string_view input) {
  using namespace arcs::json;
  ParseOptions options;
  options.max_depth = kMaxDepth;
  const std::string text(input);
  Document borrowing;
  const bool accepted = borrowing.ParseBorrowing(text, options);
  if (text != input) Fail("ParseBorrowing() wrote to the text it borrows", input);
  if (accepted != (copied.error().code == ErrorCode::kNone) ||
      borrowing.error().code != copied.error().code ||
      borrowing.error().offset != copied.error().offset) {
    Fail("ParseBorrowing() decides otherwise than Parse()", input);
  }
  if (accepted && (!Equal(borrowing.root(), copied.root()) ||
                   borrowing.duplicates().size() != copied.duplicates().size())) {
    Fail("ParseBorrowing() reads a value otherwise than Parse()", input);
  }
}

void CheckQuoted(std::string_view input) {
  std::string quoted = "[";
  arcs::json::AppendQuoted(input, &quoted);
  if (quoted != "[" + arcs::testing::EscapedSlowly(input)) {
    Fail("AppendQuoted() differs from the byte-at-a-time oracle", input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);

  arcs::json::ParseOptions options;
  options.max_depth = kMaxDepth;
  arcs::json::Document document;
  bool accepted = document.Parse(input, options);
  arcs::json::ErrorCode code = document.error().code;
  if (accepted != (code == arcs::json::ErrorCode::kNone))
    Fail("Parse() result and error disagree", input);
  if (!accepted &&
      (document.root().kind() != arcs::json::Kind::kNull || !document.duplicates().empty())) {
    Fail("a failed Parse() left a value or duplicates behind", input);
  }

  if (accepted || code == arcs::json::ErrorCode::kSyntax) {
    if (!HasNumberRapidJsonRejects(input)) {
      rapidjson::ParseResult theirs = RapidJsonParse(input);
      if (accepted && theirs.IsError()) {
        std::fprintf(stderr, "RapidJSON: %s at %zu\n", rapidjson::GetParseError_En(theirs.Code()),
                     theirs.Offset());
        Fail("we accept, raw RapidJSON rejects", input);
      }
      if (!accepted && !theirs.IsError()) {
        std::fprintf(stderr, "ours: %s at %zu\n", document.error().message.c_str(),
                     document.error().offset);
        Fail("we call it a syntax error, raw RapidJSON accepts", input);
      }
    }
  }

  CheckBorrowing(document, input);
  if (accepted) CheckRoundTrip(document, input);
  if (accepted) CheckPythonWithoutFloats(document, input);
  CheckReadAsGo(accepted ? &document : nullptr, code, input);
  CheckQuoted(input);
  return 0;
}
