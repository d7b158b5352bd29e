#include "reference/core/testing/json_differential.h"

#include <vector>

#include "reference/core/json.h"
#include "reference/core/json_simd.h"

namespace arcs::json::testing {
namespace {

class FrontEndScope {
 public:
  explicit FrontEndScope(FrontEnd front_end) : previous_(CurrentFrontEnd()) {
    SetFrontEnd(front_end);
  }
  ~FrontEndScope() { SetFrontEnd(previous_); }
  FrontEndScope(const FrontEndScope&) = delete;
  FrontEndScope& operator=(const FrontEndScope&) = delete;

 private:
  FrontEnd previous_;
};

class PiecesScope {
 public:
  explicit PiecesScope(std::size_t bytes) : previous_(internal::Stage1PieceBytes()) {
    internal::SetStage1PieceBytes(bytes);
  }
  ~PiecesScope() { internal::SetStage1PieceBytes(previous_); }
  PiecesScope(const PiecesScope&) = delete;
  PiecesScope& operator=(const PiecesScope&) = delete;

 private:
  std::size_t previous_;
};

// Stage 1 in pieces of the size the parser takes (longer than most texts here), and in pieces so
// small that a text of a few dozen bytes is cut several times (json_simd.h).
constexpr std::size_t kPieceSizes[] = {internal::kStage1PieceBytes, 4, 11};

// The first difference between two values, by JSON Pointer; escape-free and repeated-name marks
// count. Recursion is bounded by the parse's depth bound.
std::string ValueDifference(const Value& a, const Value& b, const std::string& pointer) {
  if (a.kind() != b.kind()) return pointer + ": kinds differ";
  // text() is a string's or a number's only.
  if ((a.is_string() || a.is_number()) && a.text() != b.text()) return pointer + ": text differs";
  if (a.is_string() && a.is_escape_free() != b.is_escape_free()) {
    return pointer + ": escape-free marks differ";
  }
  if (a.repeats_a_name() != b.repeats_a_name()) return pointer + ": repeated-name marks differ";
  if (a.items().size() != b.items().size() || a.members().size() != b.members().size()) {
    return pointer + ": sizes differ";
  }
  for (std::size_t i = 0; i < a.items().size(); ++i) {
    std::string d = ValueDifference(a.items()[i], b.items()[i], pointer + "/" + std::to_string(i));
    if (!d.empty()) return d;
  }
  for (std::size_t i = 0; i < a.members().size(); ++i) {
    std::string at = pointer + "/";
    AppendPointerToken(a.members()[i].name, &at);
    if (a.members()[i].name != b.members()[i].name) return at + ": names differ";
    std::string d = ValueDifference(a.members()[i].value, b.members()[i].value, at);
    if (!d.empty()) return d;
  }
  return "";
}

std::string DocumentDifference(const Document& a, const Document& b) {
  for (const Document* d : {&a, &b}) {
    if (FirstNumberBeyondDoubles(*d) != FirstNumberBeyondDoubles(d->root())) {
      return std::string(d == &a ? "first" : "second") +
             " document: its number flag hides a number beyond the doubles";
    }
  }
  if (a.error().code != b.error().code) {
    return "error codes differ: " + std::string(ErrorCodeName(a.error().code)) + " / " +
           std::string(ErrorCodeName(b.error().code)) + " (" + a.error().message + " / " +
           b.error().message + ")";
  }
  if (a.error().offset != b.error().offset) {
    return "error offsets differ: " + std::to_string(a.error().offset) + " / " +
           std::to_string(b.error().offset);
  }
  if (a.error().message != b.error().message) {
    return "error messages differ: " + a.error().message + " / " + b.error().message;
  }
  if (a.replaced_ill_formed_utf8() != b.replaced_ill_formed_utf8()) {
    return "the Go repair flags differ";
  }
  if (a.duplicates().size() != b.duplicates().size()) return "duplicate counts differ";
  for (std::size_t i = 0; i < a.duplicates().size(); ++i) {
    if (a.duplicates()[i].pointer != b.duplicates()[i].pointer ||
        a.duplicates()[i].offset != b.duplicates()[i].offset) {
      return "duplicate " + std::to_string(i) + " differs";
    }
  }
  return ValueDifference(a.root(), b.root(), "");
}

// Each entry point parses a text the caller holds, as ParseBorrowing requires, and may keep a copy
// of it in `buffer`, which outlives the document as ParseInBuffer requires.
using EntryPoint = void (*)(Document*, const std::string&, std::string* buffer,
                            const ParseOptions&);

std::vector<std::pair<const char*, EntryPoint>> EntryPoints() {
  return {
      {"Parse", [](Document* d, const std::string& t, std::string*,
                   const ParseOptions& o) { d->Parse(t, o); }},
      {"ParseTaking", [](Document* d, const std::string& t, std::string*,
                         const ParseOptions& o) { d->ParseTaking(std::string(t), o); }},
      {"ParseBorrowing", [](Document* d, const std::string& t, std::string*,
                            const ParseOptions& o) { d->ParseBorrowing(t, o); }},
      {"ParseInBuffer",
       [](Document* d, const std::string& t, std::string* buffer, const ParseOptions& o) {
         *buffer = t;
         buffer->append(Document::kTakenTextSpare, '\xff');
         d->ParseInBuffer(buffer->data(), t.size(), o);
       }},
  };
}

std::vector<std::pair<const char*, ParseOptions>> OptionSets() {
  ParseOptions go;
  go.bad_unicode = BadUnicode::kReplaceAsGo;
  ParseOptions shallow;
  shallow.max_depth = 3;
  ParseOptions few;
  few.max_values = 5;
  return {{"strict", ParseOptions()}, {"as Go", go}, {"depth 3", shallow}, {"5 values", few}};
}

}  // namespace

std::string FrontEndDifference(std::string_view text) {
  return FrontEndDifference(text, kPieceSizes);
}

std::string FrontEndDifference(std::string_view text, std::span<const std::size_t> piece_sizes) {
  for (const auto& [options_name, options] : OptionSets()) {
    for (const auto& [entry_name, entry] : EntryPoints()) {
      const std::string held(text);
      std::string rapidjson_buffer;
      Document rapidjson;
      {
        FrontEndScope scope(FrontEnd::kRapidJson);
        entry(&rapidjson, held, &rapidjson_buffer, options);
      }
      for (std::size_t piece_bytes : piece_sizes) {
        std::string simd_buffer;
        Document simd;
        {
          FrontEndScope scope(FrontEnd::kSimd);
          PiecesScope pieces(piece_bytes);
          entry(&simd, held, &simd_buffer, options);
        }
        if (held != text) return std::string(entry_name) + " wrote to the text it borrows";
        std::string difference = DocumentDifference(simd, rapidjson);
        if (!difference.empty()) {
          return std::string(entry_name) + ", " + options_name + ", stage 1 in pieces of " +
                 std::to_string(piece_bytes) + " bytes: simd / rapidjson: " + difference;
        }
      }
    }
  }
  return "";
}

}  // namespace arcs::json::testing
