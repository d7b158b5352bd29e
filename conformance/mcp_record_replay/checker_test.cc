#include "conformance/mcp_record_replay/checker.h"

#include <gtest/gtest.h>

#include <string>

#include "conformance/mcp_record_replay/module.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

std::vector<std::string> Findings(std::string_view text) {
  jsonl::MemorySource source(text);
  Diagnostics diagnostics;
  Validate(&source, {}, &diagnostics);
  diagnostics.Sort();
  std::vector<std::string> out;
  for (const Finding& f : diagnostics.findings()) {
    out.push_back(f.rule_id + " " + std::to_string(f.location.line) + " " + f.location.pointer +
                  " " + std::string(SeverityName(f.severity)));
  }
  return out;
}

// The appendix numbers 36 keyword places; never cited: $schema, the three definitions' `type`
// (a line that is not an object is MRR-JSON-1) and the three `const` of a line's type.
TEST(McpRecordReplayChecker, EverySchemaKeywordHasItsCatalogueId) {
  EXPECT_EQ(SchemaRuleId("#", "oneOf"), "MRR-SCHEMA-2");
  EXPECT_EQ(SchemaRuleId("#/definitions/message/properties/seq", "minimum"), "MRR-SCHEMA-19");
  EXPECT_EQ(SchemaRuleId("#/definitions/footer/properties/server_messages", "minimum"),
            "MRR-SCHEMA-36");
  EXPECT_EQ(SchemaRuleId("#/nowhere", "type"), "");
  int numbered = 0;
  for (std::string_view id : AllRules()) numbered += id.starts_with("MRR-SCHEMA-");
  EXPECT_EQ(numbered, 36 - 7);
}

TEST(McpRecordReplayChecker, BothStatementsAtTheirLines) {
  const std::string header =
      R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"})";
  // seq -1: serde's u64 refuses it (MRR-MESSAGE-2), the schema's minimum too (MRR-SCHEMA-19).
  EXPECT_EQ(
      Findings(
          header + "\n" +
          R"({"type":"message","seq":-1,"ts":"2025-02-04T10:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","method":"n"}})"
          "\n"),
      (std::vector<std::string>{"MRR-MESSAGE-2 2 /seq error", "MRR-SCHEMA-19 2 /seq error"}));
  EXPECT_EQ(Findings(""), std::vector<std::string>{"MRR-HEADER-1 0  error"});
}

TEST(McpRecordReplayChecker, LevelsComeFromTheCatalogue) {
  EXPECT_EQ(Module().LevelOf("MRR-FOOTER-3"),
            Module().BuiltInCatalogue().Find("MRR-FOOTER-3")->level);
  EXPECT_EQ(Module().LevelOf("EC-REC-002"), Level::kMust);
}

}  // namespace
}  // namespace arcs::conformance::mcp_record_replay
