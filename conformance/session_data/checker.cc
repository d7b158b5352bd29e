#include "conformance/session_data/checker.h"

#include <algorithm>

#include "conformance/catalogue.h"
#include "reference/core/json.h"

namespace arcs::conformance::session_data {
namespace {

using arcs::session_data::Finding;
using arcs::session_data::Reading;
using arcs::session_data::Statement;

const SchemaRuleMap& SchemaRules() {
  static const SchemaRuleMap rules = SchemaRulesOf(EmbeddedCatalogue(CatalogueText), "SD-SCHEMA-");
  return rules;
}

std::string RuleOf(const Finding& f) {
  if (!f.rule_id.empty()) return f.rule_id;
  const std::string_view id = SchemaRuleId(f.schema_location, f.schema_keyword);
  // Every keyword of the spec's schema that can fail has an id (checker_test.cc); an error
  // without one would be a catalogue out of step with the schema, reported against the schema as
  // a whole (SD-SCHEMA-1: the block is draft 2020-12).
  return id.empty() ? "SD-SCHEMA-1" : std::string(id);
}

}  // namespace

std::string_view SchemaRuleId(std::string_view location, std::string_view keyword) {
  auto it = SchemaRules().find(std::make_pair(std::string(location), std::string(keyword)));
  return it == SchemaRules().end() ? std::string_view() : std::string_view(it->second);
}

void Validate(jsonl::ByteSource* source, const arcs::session_data::Limits& limits,
              Diagnostics* diagnostics) {
  LineFeeds line_feeds;
  Result<std::string> text = jsonl::ReadSource(source, limits.max_file_bytes, &line_feeds);
  if (!text.ok()) {
    const bool limit = text.status().code() == StatusCode::kLimitExceeded;
    // Member by member: GCC 12 at -O3 takes a braced {} Location for maybe-uninitialized.
    arcs::Finding failure;
    failure.rule_id = limit ? "SD-JSON-3" : "SD-JSON-1";
    failure.message = "json: " + text.status().message() + (limit ? " (max_file_bytes)" : "");
    diagnostics->Add(std::move(failure));
    return;
  }
  // The reading takes the text (it decodes strings in place; ReadSource leaves the spare room the
  // parser's padding takes). Its line feeds were kept to place findings: a copy of the text would
  // double the memory and cost a fifth of the time.
  const Reading reading = Reading::Read(std::move(*text), limits);
  for (const Finding& f : reading.findings()) {
    const std::string rule = RuleOf(f);
    Location where = f.statement == Statement::kJson && f.pointer.empty()
                         ? line_feeds.LocationOf(f.offset)
                         : Location{};
    where.pointer = f.pointer;
    diagnostics->Add(
        {rule, f.note ? Severity::kNote : (f.warning ? Severity::kWarning : Severity::kError),
         std::move(where),
         std::string(arcs::session_data::StatementName(f.statement)) + ": " + f.message,
         f.reading});
  }
}

std::vector<std::string_view> AllRules() {
  std::vector<std::string_view> rules = arcs::session_data::RuleIds();
  // $schema is an annotation, and a MAY keyword ("additionalProperties": true) allows what it
  // names: neither ever fails.
  for (const auto& [where, id] : SchemaRules()) {
    if (where.second != "$schema" &&
        EmbeddedCatalogue(CatalogueText).Find(id)->level != Level::kMay)
      rules.push_back(id);
  }
  std::sort(rules.begin(), rules.end());
  rules.erase(std::unique(rules.begin(), rules.end()), rules.end());
  return rules;
}

}  // namespace arcs::conformance::session_data
