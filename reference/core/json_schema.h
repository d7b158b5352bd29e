// A JSON Schema evaluator for the keywords the specs' own schemas use (SessionData's, draft
// 2020-12; TJ-SPEC-010's, draft-07), so that a verdict can cite the schema location and keyword of
// every error (each keyword is a requirement of its catalogue). Supported: type (integer
// included), const, enum, required, properties, additionalProperties (a boolean or a schema), items
// (one schema), oneOf, minimum, pattern (ECMA-262), $ref to "#/..." in the same document, format
// "date-time" (asserted as RFC 3339), and the annotations $schema, $id, title, description, $defs,
// definitions. A schema using any other keyword is refused when compiled rather than
// half-evaluated. Python's jsonschema is the oracle the tests compare with.
#ifndef ARCS_REFERENCE_CORE_JSON_SCHEMA_H_
#define ARCS_REFERENCE_CORE_JSON_SCHEMA_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::json {

// One keyword an instance fails, as Python's jsonschema lists it in iter_errors().
struct SchemaError {
  // The schema object holding the keyword, as a URI fragment: "#", "#/properties/provider",
  // "#/$defs/exchange/properties/messages/items"... A $ref is followed, so the location of what it
  // refers to is given ("#/$defs/message"), not the path through the $ref.
  std::string location;
  std::string keyword;           // "type", "required", ...
  std::string instance_pointer;  // JSON Pointer of the failing value in the instance
  std::string message;           // one line; quotes the instance only as short excerpts
  // A oneOf error: the errors of every branch (Python's error.context).
  std::vector<SchemaError> context;
};

// How an instance's repeated member names are read: the last one counts, as Python's json.loads
// keeps it (the oracle); every member otherwise (the same, and cheaper, for a document the parser
// found no repeated name in).
enum class RepeatedNamesRead : std::uint8_t { kAllMembers, kLastWins };

class Schema {
 public:
  // Compiles a schema document's text. kUnsupported for a keyword or format the evaluator does
  // not implement, kParseError for text that is not a schema.
  static Result<Schema> Compile(std::string_view text);

  Schema(Schema&&) noexcept;
  Schema& operator=(Schema&&) noexcept;
  ~Schema();

  // Every error of `instance`, depth-first. Recursive where the schema descends (properties,
  // items, additionalProperties, $ref), so never deeper than the instance, which the parser
  // bounds.
  std::vector<SchemaError> Evaluate(const Value& instance, RepeatedNamesRead repeated) const;

  // The compiled form (json_schema.cc); public so that its compiler, in that file, may build one.
  struct Compiled;

 private:
  explicit Schema(std::unique_ptr<Compiled> compiled);
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace arcs::json

#endif  // ARCS_REFERENCE_CORE_JSON_SCHEMA_H_
