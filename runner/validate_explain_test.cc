#include "runner/validate_explain.h"

#include <gtest/gtest.h>

#include <filesystem>

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

TEST(RuleHelpUri, HeadingAnchorsAsGitHubMakesThem) {
  EXPECT_EQ(HeadingAnchor("3.5 Line Endings"), "35-line-endings");
  EXPECT_EQ(HeadingAnchor("MI4: Interactions Array Present"), "mi4-interactions-array-present");
  EXPECT_EQ(HeadingAnchor("F-004: Convert to Attack Config"), "f-004-convert-to-attack-config");
  EXPECT_EQ(HeadingAnchor("SessionStats Structure (Optional, Ephemeral)"),
            "sessionstats-structure-optional-ephemeral");
  EXPECT_EQ(HeadingAnchor("`snake_case` names"), "snake_case-names");
}

TEST(RuleHelpUri, EveryCitedRuleLinksIntoItsSpec) {
  const std::string specs = DefaultSpecsDir();
  if (!std::filesystem::exists(specs + "/spool.md")) GTEST_SKIP() << "no specs in " << specs;
  for (const conformance::FormatModule* f : conformance::Formats()) {
    for (std::string_view id : f->rules()) {
      const std::optional<CatalogueRule> rule = FindCatalogueRule(id);
      ASSERT_TRUE(rule.has_value()) << id;
      const std::string uri = RuleHelpUri(*rule, specs);
      EXPECT_TRUE(uri.starts_with("file:///") &&
                  uri.find("/shared/specs/" + std::string(f->spec)) != std::string::npos)
          << id << " " << uri;
    }
  }
  const std::optional<CatalogueRule> numbered = FindCatalogueRule("SP-10.1-2");
  EXPECT_TRUE(RuleHelpUri(*numbered, specs).ends_with("spool.md#101-parsing-untrusted-files"))
      << RuleHelpUri(*numbered, specs);
  const std::optional<CatalogueRule> native = FindCatalogueRule("F-002");
  EXPECT_TRUE(RuleHelpUri(*native, specs).ends_with("mcp-record-replay.md#f-002-recording-format"))
      << RuleHelpUri(*native, specs);
  // Without the spec at hand there is nothing to link to.
  EXPECT_EQ(RuleHelpUri(*numbered, "/nonexistent"), "");
}

}  // namespace
}  // namespace arcs::runner
