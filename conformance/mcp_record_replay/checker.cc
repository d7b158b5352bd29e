#include "conformance/mcp_record_replay/checker.h"

#include <algorithm>

#include "conformance/catalogue.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

using arcs::mcp_record_replay::RecordingFinding;

const SchemaRuleMap& SchemaRules() {
  static const SchemaRuleMap rules = SchemaRulesOf(EmbeddedCatalogue(CatalogueText), "MRR-SCHEMA-");
  return rules;
}

std::string RuleOf(const RecordingFinding& f) {
  if (!f.rule_id.empty()) return f.rule_id;
  const std::string_view id = SchemaRuleId(f.schema_location, f.schema_keyword);
  // Every keyword of the appendix that can fail has an id (checker_test.cc); an error without one
  // would be a catalogue out of step with the schema, cited as the line's oneOf (MRR-SCHEMA-2).
  return id.empty() ? "MRR-SCHEMA-2" : std::string(id);
}

}  // namespace

std::string_view SchemaRuleId(std::string_view location, std::string_view keyword) {
  auto it = SchemaRules().find(std::make_pair(std::string(location), std::string(keyword)));
  return it == SchemaRules().end() ? std::string_view() : std::string_view(it->second);
}

void Validate(jsonl::ByteSource* source, const arcs::mcp_record_replay::Limits& limits,
              Diagnostics* diagnostics) {
  Status status =
      arcs::mcp_record_replay::CheckRecording(source, limits, [diagnostics](RecordingFinding f) {
        const std::string rule = RuleOf(f);
        diagnostics->Add({rule,
                          f.warning ? Severity::kWarning : Severity::kError,
                          {f.line, 0, std::move(f.pointer)},
                          std::move(f.message),
                          std::move(f.reading)});
      });
  if (!status.ok()) {
    // Member by member: GCC 12 at -O3 takes a braced {} Location for maybe-uninitialized.
    Finding failure;
    failure.rule_id = "MRR-JSON-1";
    failure.message = status.message();
    diagnostics->Add(std::move(failure));
  }
}

std::vector<std::string_view> AllRules() {
  std::vector<std::string_view> rules = arcs::mcp_record_replay::RecordingRuleIds();
  // Never cited: $schema (an annotation), a definition's `type` (a line that is not an object is
  // MRR-JSON-1 alone) and `const` on a line's type (a type none of the three selects no
  // definition: MRR-SCHEMA-2).
  for (const auto& [where, id] : SchemaRules()) {
    const auto& [location, keyword] = where;
    const bool definition = std::count(location.begin(), location.end(), '/') == 2;
    if (keyword != "$schema" && keyword != "const" && !(definition && keyword == "type")) {
      rules.push_back(id);
    }
  }
  std::sort(rules.begin(), rules.end());
  rules.erase(std::unique(rules.begin(), rules.end()), rules.end());
  return rules;
}

}  // namespace arcs::conformance::mcp_record_replay
