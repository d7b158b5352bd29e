// The SessionData 1.0 reference (session-data.md): the spec states the format twice, and this
// reads a file under each statement (errata SD-E1):
//  - the rules: the spec's Go types decoded as Go's encoding/json decodes them (names matched
//    case-insensitively, null leaving the zero value, a value of the wrong JSON type a decode
//    error, numbers in maps as float64), then the Validation list;
//  - the schema: the JSON Schema block of the spec (schemas/session_data/session.schema.json, the
//    block byte for byte) under draft 2020-12, format date-time asserted, repeated names read as
//    Python's json keeps them (the last);
//  - the prose ARCS holds every file to (unique exchange ids) and warns on (a workspaceRoot that
//    is not absolute, a slug that is not filename-safe).
// It also renders a session to Markdown (the spec's five rendering rules, errata SD-E26).
#ifndef ARCS_REFERENCE_SESSION_DATA_SESSION_DATA_H_
#define ARCS_REFERENCE_SESSION_DATA_SESSION_DATA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::session_data {

// ARCS's limits (RFC 8259 §9 lets a reader set them; SD-JSON-3).
struct Limits {
  std::uint64_t max_file_bytes = std::uint64_t{4} << 30;
  std::uint64_t max_json_depth = 128;  // the top-level value is depth 1
};

// Which statement of the format a finding comes from. kJson: the file is not one JSON text, or is
// deeper than a limit: no statement has a value to judge.
enum class Statement : std::uint8_t { kJson, kRules, kSchema, kProse };
std::string_view StatementName(Statement statement);  // "json", "rules", "schema", "prose"

struct Finding {
  Statement statement = Statement::kRules;
  // A requirement of conformance/session_data/requirements.json; "" for a schema error, which
  // names its schema location and keyword instead (the catalogue gives each its id).
  std::string rule_id;
  std::string schema_location;
  std::string schema_keyword;
  std::string pointer;     // JSON Pointer into the file, "" for the whole file
  std::size_t offset = 0;  // kJson: the byte where the text stops being JSON
  bool warning = false;
  std::string message;
  std::string reading = {};  // the errata entry whose reading alone makes it one (Finding::reading)
  // An informative mark, no defect: where the statement takes the lenient reading of `reading`
  // and another reading of it finds what `message` says.
  bool note = false;
};

// The session as the spec's Go types hold it after encoding/json: strings point into the parsed
// document; a missing or null member is the zero value (""; an empty slice; no tool).
struct ContentPart {
  std::string_view type, text;
};
struct ToolInfo {
  std::string_view name, type, use_id;
  const json::Value* input = nullptr;  // the object last decoded into the map, if any
  const json::Value* output = nullptr;
  std::optional<std::string_view> summary, formatted_markdown;
};
struct Message {
  std::string_view id, timestamp, role, model;
  std::vector<ContentPart> content;
  std::optional<ToolInfo> tool;
  std::vector<std::string_view> path_hints;
  bool empty_array_written = false;  // content or pathHints written as [] (errata SD-E15)
};
struct Exchange {
  std::string_view exchange_id, start_time, end_time;
  std::vector<Message> messages;
};
struct ProviderInfo {
  std::string_view id, name, version;
};
struct Session {
  std::string_view schema_version;
  ProviderInfo provider;
  std::string_view session_id, created_at, updated_at, slug, workspace_root;
  std::vector<Exchange> exchanges;
};

// A file read once for every statement. The document and the decoded session live as long as it.
class Reading {
 public:
  // What a reading is for. kJudge: every statement. kRender: the session as Go decodes it, for a
  // renderer; its findings are only those of the JSON text and of decoding.
  enum class Purpose : std::uint8_t { kJudge, kRender };

  // Reads `text` (a whole file): every finding of every statement, in the order json, rules,
  // schema, prose, each naming the errata reading it rests on, if any. Memory: the text once in
  // the document, 16-24 bytes per value, and the decoded session (a few hundred bytes per
  // message); for kJudge, a file with repeated names is read once more with each name once (the
  // first, then the last) to tell which errors rest on them (errata SD-E22).
  static Reading Read(std::string text, const Limits& limits, Purpose purpose = Purpose::kJudge);

  const std::vector<Finding>& findings() const { return findings_; }
  // Whether the file is a JSON text whose value is an object: what a renderer needs (SD-RENDER-6).
  bool is_object() const { return is_object_; }
  // The session as Go decodes it, as far as it decodes (fields that failed keep their zero value).
  const Session& session() const { return session_; }

  Reading(Reading&&) noexcept = default;
  Reading& operator=(Reading&&) noexcept = default;

 private:
  Reading() = default;
  bool Parse(std::string text, const Limits& limits);
  bool Decode();
  void Judge(bool decoded, const Limits& limits);
  void TagFoldedNames();
  void TagRepeatedNames(const Limits& limits);
  json::Document doc_;
  Session session_;
  bool is_object_ = false;
  bool folded_ = false;  // a member filled a Go field by a case-insensitive match (SD-E10)
  std::vector<Finding> findings_;
};

// Whether findings leave a file valid under a statement choice: "rules" counts json, rules and
// prose errors; "schema" json, schema and prose errors; "both" every error. Warnings never count.
bool ValidUnder(const std::vector<Finding>& findings, std::string_view choice);

// The rule ids of the Go fields and Validation rules the rules statement can cite, and of the
// json and prose findings (schema errors are cited by the catalogue's schema ids).
std::vector<std::string_view> RuleIds();

// The spec's JSON Schema block, as schemas/session_data/session.schema.json holds it.
std::string_view SchemaText();

// The session as a Markdown transcript (errata SD-E26): messages in array order; content text
// escaped so that it stays text, with the code blocks it fences kept as code blocks fenced longer
// than any backtick run inside; thinking in a <details> section; each tool use with its type,
// name and pathHints; summary in <summary>, formattedMarkdown verbatim in <formatted-markdown>,
// input and output as fenced JSON when there is no formattedMarkdown.
void RenderMarkdown(const Session& session, std::string* out);

// A file's transcript (errata SD-E26: every JSON object is rendered, as far as it decodes), or
// nullopt for a file that is not one JSON text holding an object (SD-RENDER-6): what `render`
// answers, for the runner and on the command line alike.
std::optional<std::string> RenderFile(std::string text, const Limits& limits);

}  // namespace arcs::session_data

#endif  // ARCS_REFERENCE_SESSION_DATA_SESSION_DATA_H_
