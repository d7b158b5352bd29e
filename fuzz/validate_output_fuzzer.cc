// Fuzz target: what `arcs validate` prints (runner/validate_output.h), for every registered
// format. The first byte is the length of a file name (any bytes: newlines, escapes, invalid
// UTF-8), the next that many bytes the name, the rest the file. Each format validates the file
// (at most 64 findings kept), then:
//  text  every line is the escaped name, ':', and a finding, one per kept finding (plus one when
//        some were dropped); no control character but the newlines, no C1 control, no
//        bidirectional control, valid UTF-8: nothing reaches a terminal raw, no line is forged.
//  JSON  parses strictly (valid UTF-8, no repeated names), holds every kept finding, and its
//        file_base64, when present, decodes to the exact name.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "conformance/registry.h"
#include "reference/core/base64.h"
#include "reference/core/diagnostics.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/strings.h"
#include "runner/report/escape.h"
#include "runner/validate_output.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::size_t kMaxFindings = 64;

void Check(bool ok, const char* what, std::string_view detail = "") {
  if (!ok) {
    std::fprintf(stderr, "validate_output_fuzzer: %s %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    __builtin_trap();
  }
}

// What may not reach a terminal: C0 but LF, DEL, C1 (U+0080..U+009F), the bidirectional
// controls and marks, the line and paragraph separators.
bool HasLiveControl(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F) return true;
    const std::string_view rest = text.substr(i);
    if (c == 0xC2 && rest.size() > 1 && static_cast<unsigned char>(rest[1]) <= 0x9F) return true;
    for (std::string_view mark :
         {"\xE2\x80\xAA", "\xE2\x80\xAB", "\xE2\x80\xAC", "\xE2\x80\xAD", "\xE2\x80\xAE",
          "\xE2\x81\xA6", "\xE2\x81\xA7", "\xE2\x81\xA8", "\xE2\x81\xA9", "\xE2\x80\x8E",
          "\xE2\x80\x8F", "\xD8\x9C", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
      if (rest.starts_with(mark)) return true;
    }
  }
  return false;
}

void CheckText(const arcs::runner::ValidatedFile& file, const std::string& text) {
  using arcs::Printable;
  using arcs::report::ValidUtf8;
  Check(ValidUtf8(text) == text, "text output is not UTF-8");
  Check(!HasLiveControl(text), "a control character in the text output");
  const std::string prefix = Printable(file.name) + ":";
  std::size_t lines = 0;
  for (std::size_t start = 0; start < text.size(); ++lines) {
    const std::size_t end = text.find('\n', start);
    Check(end != std::string::npos, "the text output does not end its last line");
    Check(text.compare(start, prefix.size(), prefix) == 0,
          "a line not of the file:", text.substr(start, end - start));
    start = end + 1;
  }
  const arcs::Diagnostics& d = file.diagnostics;
  Check(lines == d.findings().size() + (d.dropped_count() > 0 ? 1 : 0), "not one line per finding");
}

void CheckJson(const arcs::runner::ValidatedFile& file, const std::string& text) {
  arcs::json::Document doc;
  Check(doc.Parse(text), "the JSON output does not parse:", doc.error().message);
  Check(doc.duplicates().empty(), "a repeated name in the JSON output");
  const arcs::json::Value* findings = doc.root().Find("findings");
  Check(findings && findings->items().size() == file.diagnostics.findings().size(),
        "the JSON output lost findings");
  if (const arcs::json::Value* exact = doc.root().Find("file_base64")) {
    Check(arcs::base64::Decode(exact->text()) == std::string(file.name),
          "file_base64 is not the name");
  } else {
    Check(doc.root().Find("file")->text() == file.name, "the file name changed in JSON");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > kMaxInputBytes) return -1;  // validating is linear: size costs time
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t name_size = std::min<std::size_t>(data[0], size - 1);
  const std::string_view name = input.substr(1, name_size);
  const std::string_view content = input.substr(1 + name_size);
  for (const arcs::conformance::FormatModule* format : arcs::conformance::Formats()) {
    arcs::Diagnostics diagnostics(kMaxFindings);
    arcs::jsonl::MemorySource source(content);
    format->Validate(&source, {}, format->DefaultLimits(), &diagnostics);
    const arcs::runner::ValidatedFile file{name, format->name, diagnostics};
    std::string text, json;
    arcs::runner::AppendValidateText(file, &text);
    CheckText(file, text);
    arcs::runner::AppendValidateJson(file, &json);
    CheckJson(file, json);
  }
  return 0;
}
