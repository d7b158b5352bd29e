// What `arcs validate` prints for one file, as text or as JSON. Apart from the command so that the
// validate-output fuzzer (fuzz/validate_output_fuzzer.cc) holds exactly these to their promises:
// the text is one line per finding with every untrusted string escaped, the JSON is JSON.
#ifndef ARCS_RUNNER_VALIDATE_OUTPUT_H_
#define ARCS_RUNNER_VALIDATE_OUTPUT_H_

#include <string>
#include <string_view>

#include "reference/core/diagnostics.h"

namespace arcs::runner {

// One validated file: its name as given (any bytes), its format's name, its findings.
struct ValidatedFile {
  std::string_view name;
  std::string_view format;
  const Diagnostics& diagnostics;
};

// "FILE:LINE: RULE-ID LEVEL message (at POINTER)" per finding, then "FILE:0: ... N more findings
// not shown" when some were dropped. The file name, the message and the pointer (which quote the
// file's content) are escaped (report::EscapeTerminal): a hostile file can neither forge a line
// for a CI log parser nor reach the terminal raw.
void AppendValidateText(const ValidatedFile& file, std::string* out);

// {"file":..., ["file_base64":...,] "format":..., "valid":..., "errors":..., "warnings":...,
//  "dropped":..., "findings":[{"rule","level","severity","line","column","pointer","message"}]}
// Valid JSON whatever the bytes: a file name that is not UTF-8 is given with U+FFFD where it is
// ill-formed, and exactly, in base64, as file_base64.
void AppendValidateJson(const ValidatedFile& file, std::string* out);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_OUTPUT_H_
