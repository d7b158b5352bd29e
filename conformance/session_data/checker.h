// The SessionData 1.0 validator: the verdict on a session file as findings that each cite a
// requirement of conformance/session_data/requirements.json and say which statement of the
// format they come from (errata SD-E1): the message starts with "rules: ", "schema: ", "prose: "
// or "json: " (the file is not one JSON text, or is over a limit: every statement). The file is
// invalid when any finding is an error, the `both` choice of the statement policy: the default
// profile of `arcs validate`.
#ifndef ARCS_CONFORMANCE_SESSION_DATA_CHECKER_H_
#define ARCS_CONFORMANCE_SESSION_DATA_CHECKER_H_

#include <string_view>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/session_data/session_data.h"

namespace arcs::conformance::session_data {

// Built at compile time from conformance/session_data/requirements.json: the catalogue, which also
// numbers the schema's keywords (SchemaRuleId).
std::string_view CatalogueText();

// Reads the whole file (up to limits.max_file_bytes) and adds every finding to *diagnostics.
// Memory: about twice the file, since the text is kept to place JSON errors by line and column.
void Validate(jsonl::ByteSource* source, const arcs::session_data::Limits& limits,
              Diagnostics* diagnostics);

// The catalogue's id of a schema error: the requirement whose reason names its location and
// keyword ("Location `#/properties/provider`, keyword `required`"); "" for none.
std::string_view SchemaRuleId(std::string_view location, std::string_view keyword);

// Every requirement id the validator can cite, for the catalogue cross-check.
std::vector<std::string_view> AllRules();

}  // namespace arcs::conformance::session_data

#endif  // ARCS_CONFORMANCE_SESSION_DATA_CHECKER_H_
