// What `arcs validate` prints for one file, as text or as JSON, and the tally of a whole run. Apart
// from the command so that the validate-output fuzzer (fuzz/validate_output_fuzzer.cc) holds
// exactly these to their promises: the text is one line per finding with every untrusted string
// escaped, the JSON is JSON.
#ifndef ARCS_RUNNER_VALIDATE_OUTPUT_H_
#define ARCS_RUNNER_VALIDATE_OUTPUT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "reference/core/diagnostics.h"

namespace arcs::runner {

// One validated file: its name as given (any bytes), its format's name, its findings.
struct ValidatedFile {
  std::string_view name;
  std::string_view format;
  const Diagnostics& diagnostics;
  // --quiet: only the errors are printed (the counts still hold every finding).
  bool errors_only = false;
};

// Where every output shows a finding (the text, the JSON and SARIF agree): its 1-based line and
// byte column, 1 for either when the checker gives none (line 0 is the file as a whole, column 0
// a line's finding whose place in it is not known).
std::uint64_t ShownLine(const Location& location);
std::uint64_t ShownColumn(const Location& location);

// Whether a finding is printed: every one, or under --quiet only the errors.
bool Shown(const ValidatedFile& file, const Finding& finding);

// One line per finding, in the form gcc gives its diagnostics:
//   FILE:LINE:COL: SEVERITY: message (at POINTER) [RULE-ID]
// SEVERITY is error, warning or note; only errors make a file invalid. LINE and COL are the
// finding's own (1-based) where the checker gives them, else 1: a finding about the whole file
// stands at 1:1, one about a line without a column at the line's column 1, so that every line has
// the form editors and CI problem matchers parse. Then, when some findings were dropped,
// "FILE: note: N more findings not shown". The file name, the message and the pointer (which
// quote the file's content) are escaped (arcs::Printable): a hostile file can neither
// forge a line for a CI log parser nor reach the terminal raw. With `color`, the location is bold
// and the severity and rule id coloured as gcc colours them (SGR escapes of ours only: the escaped
// text holds none).
void AppendValidateText(const ValidatedFile& file, std::string* out, bool color = false);

// {"file":..., ["file_base64":...,] "format":..., "valid":..., "errors":..., "warnings":...,
//  "dropped":..., "ignored":..., "findings":[{"rule","level","severity","line","column",
//  ["whole_file":true,] "pointer","message"}]}
// Valid JSON whatever the bytes: a file name that is not UTF-8 is given with U+FFFD where it is
// ill-formed, and exactly, in base64, as file_base64. "level" is the cited requirement's keyword
// level (MUST, SHOULD, MAY); "severity" (error, warning, note) is what decides validity. "line"
// and "column" are the text's (ShownLine, ShownColumn); "whole_file" marks a finding about the
// file as a whole, which stands at 1:1. "ignored" counts the findings --select/--ignore and the
// config files left out.
void AppendValidateJson(const ValidatedFile& file, std::string* out);

// What a run over many files came to.
struct ValidateTally {
  std::uint64_t checked = 0;    // files validated
  std::uint64_t invalid = 0;    // of those, files with an error
  std::uint64_t errors = 0;     // error findings, dropped ones included
  std::uint64_t warnings = 0;   // warning findings, dropped ones included
  std::uint64_t ignored = 0;    // findings left out by --select, --ignore and config files
  std::uint64_t unchecked = 0;  // files and folders that could not be read or checked
  void Add(const Diagnostics& diagnostics);
};

// "3 files checked: 1 invalid, 4 errors, 2 warnings", then " (5 ignored)" when findings were left
// out, then "; 1 could not be checked" when some could not; no newline.
std::string TallyText(const ValidateTally& tally);

// {"checked":...,"invalid":...,"errors":...,"warnings":...,"ignored":...,"unchecked":...}
void AppendTallyJson(const ValidateTally& tally, std::string* out);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_OUTPUT_H_
