// A rich sample report for tests and for the schema check (sample_main.cc prints it): two
// implementations, every outcome and error kind, several formats, operations and levels, every
// ground (a policy declared and one not declared, a resource case with its peak memory), a flag
// read consistently, one read two ways, one answered outside every reading, one never answered,
// strict passed, failed and not judged, and hostile strings (markup, quotes, script end tags,
// control characters, bidi overrides) wherever an implementation could put text. All of its strings
// are valid UTF-8, so it round-trips through ToJson/FromJson exactly.
#ifndef ARCS_RUNNER_REPORT_SAMPLE_H_
#define ARCS_RUNNER_REPORT_SAMPLE_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "runner/report/report.h"

namespace arcs::report::testing {

Report SampleReport();

// The hostile strings SampleReport() plants; no rendering may contain one of them verbatim
// where markup is interpreted.
const std::vector<std::string_view>& HostileStrings();

// How many times `what` occurs in `text` (overlapping occurrences included).
std::size_t Occurrences(std::string_view text, std::string_view what);

}  // namespace arcs::report::testing

#endif  // ARCS_RUNNER_REPORT_SAMPLE_H_
