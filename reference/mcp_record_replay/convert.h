// TJ-SPEC-010 convert (F-004): a loaded recording written as a ThoughtJack attack configuration in
// YAML, the shape of the spec's two examples (errata MRR-E43, MRR-E44). Tools come from the first
// tools/list response, in order, each with the results of its tools/call requests (paired with
// their responses by id, errata MRR-E28) in call order; resources and prompts likewise from
// resources/list with resources/read and prompts/list with prompts/get. The phased style adds a
// baseline of the first N tools/call requests and an attack phase to edit.
//
// The YAML is written here, not by yaml-cpp's emitter, which writes `on`, `yes` and `1e3` plain
// and U+2028 raw: every string that is not a plain word is double-quoted with escapes, so that a
// YAML 1.2 core-schema reader and a YAML 1.1 reader (PyYAML) both read back the JSON data.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_CONVERT_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_CONVERT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"
#include "reference/mcp_record_replay/loader.h"

namespace arcs::mcp_record_replay {

// §5.3 --style: simple (the default) or phased (rug-pull).
enum class ConvertStyle : std::uint8_t { kSimple, kPhased };

struct ConvertOptions {
  ConvertStyle style = ConvertStyle::kSimple;
  std::uint64_t phase_after = 3;  // §5.3 --phase-after; read only by the phased style
};

struct Converted {
  std::string yaml;
  // What the conversion passed over or guessed (EC-REC-010's missing schemas, a tools/call
  // without params.name, ...): one line each, for the log. Never part of the YAML.
  std::vector<std::string> warnings;
};

// Converts `recording`, whose message lines `lines` reads again. source_name is the recording's
// file name, for the "# Auto-generated from" comment. A recording without a tools/list response
// (EC-REC-010) or with no message at all (EC-REC-001) converts, with fewer tools. Fails only when
// `lines` fails (the status as it is) or a value nests deeper than 512 levels (kLimitExceeded).
Result<Converted> Convert(const LoadedRecording& recording, const RandomAccessSource& lines,
                          const ConvertOptions& options, std::string_view source_name);

// One JSON value as a YAML document in block style, as Convert writes JSON data: strings that are
// not plain words double-quoted, numbers as their exact JSON text (an exponent given a '.' and a
// sign, "1e3" as "1.0e+3", which PyYAML otherwise reads as a string), objects with a repeated
// member name holding its last value (errata MRR-E24). kLimitExceeded past 512 levels.
Result<std::string> JsonAsYaml(const json::Value& value);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_CONVERT_H_
