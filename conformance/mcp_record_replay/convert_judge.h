// The judge of TJ-SPEC-010's convert operation (errata MRR-E43, MRR-E44): it parses the YAML an
// implementation wrote with yaml-cpp, resolves its scalars by the YAML 1.2 core schema, and
// compares as data the properties a vector's expect_convert names, never the text (comments, key
// order, quoting and block or flow style are free). Independent of the reference converter by
// design: it shares no code with reference/mcp_record_replay/convert.cc.
//
// expect_convert (a case's expectation of a `converted` outcome):
//   {"style": "simple" | "phased",
//    "tools": [TOOL, ...],        simple only: the top-level `tools` list, in this order
//    "baseline": [TOOL, ...],     phased only: `baseline.tools`, in this order
//    "phase_after": N}            phased only: phases[0].advance is {on: tools/call, count: N}
//   TOOL: {"name": "read_file",
//          "definition": {...},   optional: the recorded definition; its name, description and
//                                 inputSchema must be equal as data, present or absent alike
//                                 (other members are not judged)
//          "results": [r1, ...]}  the tool's results in call order: none, nothing judged; one,
//                                 `response` equal to r1 or `response.sequence` equal to [r1];
//                                 more, `response.sequence` equal to the list
// Every item of the YAML list is a mapping whose `tool` is a mapping with a string `name`; the
// names are the expected names in the expected order, nothing more. An empty list expects `tools`
// absent, null or empty. Data compares as JSON: numbers by exact decimal value (1.0 equals 1, the
// string "1" does not), a plain `yes` or `on` is the string (YAML 1.2), mapping keys are strings
// and not repeated. `on_exhausted`, `server`, resources, prompts and the attack phase's content
// are not judged.
//
// Hostile YAML: more than 64 MiB, or flow collections ([ and {) nested deeper than 256, is not
// handed to yaml-cpp (a pre-scan of the text outside comments and quoted scalars, which counts
// only brackets that open a collection where they stand; deeper block nesting meets yaml-cpp's
// own depth guard). Documents are counted on yaml-cpp's events, never more than two, before the
// first is built (yaml-cpp 0.7 reads a stray ',' as endless empty documents). The walk visits at
// most 1,000,000 nodes and 256 levels, so aliases that multiply a small text into a huge tree
// (billion laughs) or refer to themselves end as a problem. yaml-cpp's exceptions never leave
// the judge.
#ifndef ARCS_CONFORMANCE_MCP_RECORD_REPLAY_CONVERT_JUDGE_H_
#define ARCS_CONFORMANCE_MCP_RECORD_REPLAY_CONVERT_JUDGE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::conformance::mcp_record_replay {

enum class ExpectedStyle : std::uint8_t { kSimple, kPhased };

// Views into the expect_convert value it was read from: valid while that document lives.
struct ExpectedTool {
  std::string name;
  const json::Value* definition = nullptr;  // an object, when the case gives one
  std::vector<const json::Value*> results;
};

struct ConvertExpectation {
  ExpectedStyle style = ExpectedStyle::kSimple;
  std::vector<ExpectedTool> tools;     // simple
  std::vector<ExpectedTool> baseline;  // phased
  std::uint64_t phase_after = 3;       // phased
};

// Reads an expect_convert object strictly (every member known and typed, the members of the
// other style refused; the message names the place as a JSON Pointer under `pointer`).
Result<ConvertExpectation> ReadConvertExpectation(const json::Value& value,
                                                  const std::string& pointer);

// Every property of `expected` that `yaml` (any bytes: it comes from an implementation) does not
// hold, each one line naming the YAML path (tools[1].response.sequence[0]) and what differs,
// quoting the YAML only as excerpts; empty when all hold. At most 50 are listed, then a count.
std::vector<std::string> JudgeConvert(std::string_view yaml, const ConvertExpectation& expected);

// The same, reading expect_convert first; a malformed one is the only problem.
std::vector<std::string> JudgeConvert(std::string_view yaml, const json::Value& expect_convert);

}  // namespace arcs::conformance::mcp_record_replay

#endif  // ARCS_CONFORMANCE_MCP_RECORD_REPLAY_CONVERT_JUDGE_H_
