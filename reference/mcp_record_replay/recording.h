// TJ-SPEC-010 recordings (F-002): NDJSON, a header line, message lines, and a footer line on a
// clean shutdown. This reads a recording as a stream, one line at a time, and reports what the
// Serde statement of the format (RecordLine and its structs, decoded with serde_json), the JSON
// Schema of its appendix and the file rules of conformance/mcp_record_replay/requirements.json
// find, each finding with its requirement
// id and line. Memory: the longest line, and for each request not yet answered its id (pairing,
// errata MRR-E28), whatever the size of the file (EC-REC-007).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_RECORDING_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_RECORDING_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/status.h"

namespace arcs::mcp_record_replay {

// ARCS's limits (RFC 8259 §9; errata MRR-E25): serde_json's own recursion limit, and a line.
struct Limits {
  std::uint64_t max_line_bytes = 64ull << 20;
  std::uint64_t max_json_depth = 128;  // a line's object is depth 1
};

struct RecordingFinding {
  // A requirement of the catalogue; "" for an error of the schema statement, which names the
  // schema location and keyword instead (the catalogue gives each its MRR-SCHEMA id).
  std::string rule_id;
  std::string schema_location;
  std::string schema_keyword;
  std::uint64_t line = 0;  // 1-based; 0 for the file as a whole
  std::string pointer;     // inside the line's object
  bool warning = false;
  std::string message;       // one line, quoting the file only as excerpts
  std::string reading = {};  // the errata entry whose reading alone makes it one (Finding::reading)
};

using FindingSink = std::function<void(RecordingFinding)>;

// Reads the whole recording and passes every finding to `sink`, in line order: each line under
// the Serde statement and under the schema statement (the appendix JSON Schema, draft-07, format
// date-time asserted; errata MRR-E2 `both`). A line the schema refuses is one oneOf error; where
// the line's type selects a definition, the errors of that definition are cited instead, since
// they say what is wrong. Returns an error
// only when the source fails (I/O); a recording that breaks the format is findings, not an error.
// A line over a limit ends the reading there (MRR-JSON-5: the recording is refused, not judged).
Status CheckRecording(jsonl::ByteSource* source, const Limits& limits, const FindingSink& sink);

// The same judgement one line at a time, for a reader that also uses what it reads (the loader of
// loader.h): every finding of a line reaches the sink during Line().
class LineChecker {
 public:
  // with_schema false leaves out the schema statement (a loader, which refuses only what the
  // Serde types cannot read, has no use for it: errata MRR-E11).
  LineChecker(const Limits& limits, FindingSink sink, bool with_schema = true);
  ~LineChecker();
  // false when the reading must stop (a limit). Only the last line can lack a line ending. The
  // line's text must stay as it is until the next Line() (last_object() reads it).
  bool Line(const jsonl::Line& line);
  void End();  // after the last line
  // The last line's object when it parsed as one, else null; valid until the next Line().
  const json::Value* last_object() const;
  // The last line's type: "header", "message", "footer", or "" for none of them.
  std::string_view last_type() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Every requirement id a finding can cite besides the schema statement's (which the catalogue
// numbers by location and keyword).
std::vector<std::string_view> RecordingRuleIds();

// The appendix's JSON Schema, as schemas/mcp_record_replay/recording.schema.json holds it.
std::string_view RecordingSchemaText();

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_RECORDING_H_
