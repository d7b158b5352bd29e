// The TJ-SPEC-010 recording validator: the verdict on a recording as findings that each cite a
// requirement of conformance/mcp_record_replay/requirements.json, at its line and pointer. Both
// statements of the line format are judged (errata MRR-E2 `both`): the Serde types' findings cite
// their field's requirement, the schema statement's the MRR-SCHEMA id of the keyword that failed
// (its message starts "schema: "). Streaming: memory grows with the longest line.
#ifndef ARCS_CONFORMANCE_MCP_RECORD_REPLAY_CHECKER_H_
#define ARCS_CONFORMANCE_MCP_RECORD_REPLAY_CHECKER_H_

#include <string_view>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/mcp_record_replay/recording.h"

namespace arcs::conformance::mcp_record_replay {

// Built at compile time from conformance/mcp_record_replay/requirements.json: the catalogue, which
// also numbers the schema's keywords (SchemaRuleId).
std::string_view CatalogueText();

// Reads the whole recording and adds every finding to *diagnostics; an I/O error of the source is
// a finding against the file as a whole (MRR-JSON-1).
void Validate(jsonl::ByteSource* source, const arcs::mcp_record_replay::Limits& limits,
              Diagnostics* diagnostics);

// The catalogue's id of a schema error ("" for none): see SchemaRulesOf.
std::string_view SchemaRuleId(std::string_view location, std::string_view keyword);

// Every requirement id the validator can cite, for the catalogue cross-check.
std::vector<std::string_view> AllRules();

}  // namespace arcs::conformance::mcp_record_replay

#endif  // ARCS_CONFORMANCE_MCP_RECORD_REPLAY_CHECKER_H_
