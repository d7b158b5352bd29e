#include "conformance/session_data/checker.h"

#include <gtest/gtest.h>

#include <string>

#include "conformance/session_data/module.h"

namespace arcs::conformance::session_data {
namespace {

std::vector<std::string> Findings(std::string_view text, arcs::session_data::Limits limits = {}) {
  jsonl::MemorySource source(text);
  Diagnostics diagnostics;
  Validate(&source, limits, &diagnostics);
  diagnostics.Sort();
  std::vector<std::string> out;
  for (const Finding& f : diagnostics.findings()) {
    out.push_back(f.rule_id + " " + std::to_string(f.location.line) + ":" +
                  std::to_string(f.location.column) + " " + f.location.pointer + " " +
                  f.message.substr(0, f.message.find(':')) + " " +
                  std::string(SeverityName(f.severity)));
  }
  return out;
}

// The schema block has 65 keywords the catalogue numbers: SD-SCHEMA-1 is its $schema, and the six
// `additionalProperties: true` (MAY) never fail, which leaves 58 a file can break.
TEST(SessionDataChecker, EverySchemaKeywordHasItsCatalogueId) {
  EXPECT_EQ(SchemaRuleId("#", "additionalProperties"), "SD-SCHEMA-4");
  EXPECT_EQ(SchemaRuleId("#/$defs/toolInfo/properties/formattedMarkdown", "type"), "SD-SCHEMA-65");
  EXPECT_EQ(SchemaRuleId("#/$defs/message", "additionalProperties"), "SD-SCHEMA-35");
  EXPECT_EQ(SchemaRuleId("#/nowhere", "type"), "");
  int numbered = 0;
  for (std::string_view id : AllRules()) numbered += id.starts_with("SD-SCHEMA-");
  EXPECT_EQ(numbered, 58);
}

TEST(SessionDataChecker, FindingsAreLabelledWithTheirStatement) {
  EXPECT_EQ(Findings(R"({"schemaVersion":"1.0","provider":{"id":"aider","name":"","version":"1"},
"sessionId":"s","createdAt":"2025-01-01T00:00:00Z","workspaceRoot":"rel","exchanges":[],"x":1})"),
            (std::vector<std::string>{"SD-SCHEMA-4 0:0  schema error",
                                      "SD-SCHEMA-11 0:0 /provider/id schema error",
                                      "SD-VALIDATE-2 0:0 /provider/name rules error",
                                      "SD-TOP-15 0:0 /workspaceRoot prose warning"}));
}

// A finding that rests on an errata reading names it, so that arcs validate can show it as a
// warning (errata SD-E7: RFC 8259 lets a parser ignore the byte order mark).
TEST(SessionDataChecker, AReadingReachesTheFinding) {
  jsonl::MemorySource source("\xEF\xBB\xBF{}");
  Diagnostics diagnostics;
  Validate(&source, {}, &diagnostics);
  ASSERT_FALSE(diagnostics.findings().empty());
  EXPECT_EQ(diagnostics.findings()[0].rule_id, "SD-JSON-1");
  EXPECT_EQ(diagnostics.findings()[0].reading, "SD-E7");
}

TEST(SessionDataChecker, AJsonErrorIsPlacedByLineAndColumn) {
  EXPECT_EQ(Findings("{\n  \"a\": tru\n}"), std::vector<std::string>{"SD-JSON-1 2:11  json error"});
  // Placed in the bytes as read: the line feeds that escapes before it decode to do not count.
  EXPECT_EQ(Findings("{\n  \"s\": \"x\\ny\\u000a\",\n  \"a\": tru\n}"),
            std::vector<std::string>{"SD-JSON-1 3:11  json error"});
  // A byte order mark, then the text after it judged and placed in the file's own bytes.
  EXPECT_EQ(Findings("\xEF\xBB\xBF{\n  \"a\": tru\n}"),
            (std::vector<std::string>{"SD-JSON-1 1:1  json error", "SD-JSON-1 2:11  json error"}));
  arcs::session_data::Limits limits;
  limits.max_file_bytes = 4;
  EXPECT_EQ(Findings("{}   ", limits), std::vector<std::string>{"SD-JSON-3 0:0  json error"});
}

TEST(SessionDataChecker, LevelsComeFromTheCatalogue) {
  EXPECT_EQ(Module().LevelOf("SD-TOP-14"), Level::kShould);
  EXPECT_EQ(Module().LevelOf("SD-SCHEMA-4"), Level::kMust);
}

}  // namespace
}  // namespace arcs::conformance::session_data
