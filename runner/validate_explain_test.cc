#include "runner/validate_explain.h"

#include <gtest/gtest.h>

#include "conformance/registry.h"

namespace arcs::runner {
namespace {

TEST(ValidateExplain, EveryRuleACheckerCitesIsExplained) {
  for (const conformance::FormatModule* f : conformance::Formats()) {
    for (std::string_view rule : f->rules()) {
      const std::optional<CatalogueRule> found = FindCatalogueRule(rule);
      ASSERT_TRUE(found.has_value()) << rule;
      EXPECT_EQ(found->format, f) << rule;
      EXPECT_EQ(found->requirement->id, rule);
    }
  }
}

TEST(ValidateExplain, SaysWhatTheRequirementAsks) {
  const std::optional<CatalogueRule> rule = FindCatalogueRule("SP-3.5-1");
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(ExplainText(*rule),
            "SP-3.5-1 (SHOULD): Spool 1.0, spool.md section 3.5\n"
            "text: Writers SHOULD use Unix-style line endings (`\\n`, U+000A).\n"
            "applies to: writer (from the spec's prose)\n"
            "coverage: checker: arcs validate reports a file that breaks it\n"
            "reason: Warning on CRLF or mixed line endings (D2).\n"
            "catalogue: conformance/spool/requirements.json\n"
            "errata: conformance/spool/errata.md\n");
}

TEST(ValidateExplain, NamesTheStatementWhereASpecHasTwo) {
  const std::optional<CatalogueRule> rule = FindCatalogueRule("SD-SCHEMA-4");
  ASSERT_TRUE(rule.has_value());
  EXPECT_NE(ExplainText(*rule).find("\nstatement: schema\n"), std::string::npos);
}

TEST(ValidateExplain, TakesAnIdInAnyCase) {
  const std::optional<CatalogueRule> rule = FindCatalogueRule("sp-3.5-1");
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->requirement->id, "SP-3.5-1");
  EXPECT_EQ(FindCatalogueRule("mi3")->requirement->id, "MI3");
}

TEST(ValidateExplain, AnUnknownIdGetsExamplesAndTheIdsItStarts) {
  EXPECT_FALSE(FindCatalogueRule("SP-3.5").has_value());
  const std::string text = UnknownRuleText("SP-3.5");
  EXPECT_TRUE(text.starts_with("unknown rule id 'SP-3.5': no requirement catalogue has it"));
  EXPECT_NE(text.find("ids look like SP-"), std::string::npos);
  EXPECT_TRUE(text.ends_with("ids starting with it: SP-3.5-1, SP-3.5-2, SP-3.5-3")) << text;
  EXPECT_EQ(UnknownRuleText("NOPE\x1b]0;x\x07").find('\x1b'), std::string::npos);
  EXPECT_NE(UnknownRuleText("SP-").find(" more"), std::string::npos);
}

}  // namespace
}  // namespace arcs::runner
