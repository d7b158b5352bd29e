#include "runner/validate_sarif.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "reference/core/json.h"
#include "reference/core/version.h"
#include "runner/validate_explain.h"

namespace arcs::runner {
namespace {

TEST(ArtifactUri, PercentEncodesAllButUnreservedAndSlash) {
  EXPECT_EQ(ArtifactUri("logs/a-b_c.~1.spool"), "logs/a-b_c.~1.spool");
  EXPECT_EQ(ArtifactUri("a b/c:d?#%.spool"), "a%20b/c%3Ad%3F%23%25.spool");
  EXPECT_EQ(ArtifactUri("bad-\xff\n\xc3\xa9"), "bad-%FF%0A%C3%A9");
  EXPECT_EQ(ArtifactUri("/tmp/x y.spool"), "file:///tmp/x%20y.spool");
}

Finding MakeFinding(std::string rule, Severity severity, Location location, std::string message) {
  Finding f;
  f.rule_id = std::move(rule);
  f.severity = severity;
  f.location = std::move(location);
  f.message = std::move(message);
  return f;
}

class SarifLogTest : public ::testing::Test {
 protected:
  // The log of `files`, parsed; `failure` is a path that could not be checked, when not empty.
  const json::Value& Log(const std::vector<ValidatedFile>& files, std::string_view failure = "") {
    SarifLog log(DefaultSpecsDir());
    text_ = SarifLog::Begin();
    for (const ValidatedFile& file : files) log.AppendResults(file, &text_);
    if (!failure.empty()) log.AddFailure(failure, "cannot be read");
    log.AppendEnd(&text_);
    EXPECT_TRUE(doc_.Parse(text_)) << text_;
    EXPECT_TRUE(doc_.duplicates().empty()) << text_;
    return doc_.root();
  }
  std::string text_;
  json::Document doc_;
};

TEST_F(SarifLogTest, AFindingOnAnErrataReadingCarriesItAsAProperty) {
  Diagnostics d;
  Finding f = MakeFinding("SP-3.6-1", Severity::kWarning, {2, 0, ""}, "blank line");
  f.reading = "SP-E6";
  d.Add(f);
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {3, 0, ""}, "not a UUID"));
  const json::Value& log = Log({{"a.spool", "spool", d}});
  const auto results = log.Find("runs")->items()[0].Find("results")->items();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].Find("level")->text(), "warning");
  EXPECT_EQ(results[0].Find("properties")->Find("reading")->text(), "SP-E6");
  EXPECT_EQ(results[1].Find("properties"), nullptr);
}

TEST_F(SarifLogTest, OneRunOfArcsWithItsRulesAndResults) {
  Diagnostics a;
  a.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 7, "/id"}, "not a UUID"));
  a.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 0, ""}, "CRLF"));
  Diagnostics b;
  b.Add(MakeFinding("SP-5.1-2", Severity::kError, {0, 0, ""}, "whole file"));
  const json::Value& log = Log({{"a b.spool", "spool", a}, {"-", "spool", b}});
  EXPECT_EQ(log.Find("version")->text(), "2.1.0");
  EXPECT_TRUE(log.Find("$schema")->text().ends_with("sarif-schema-2.1.0.json"));
  ASSERT_EQ(log.Find("runs")->items().size(), 1u);
  const json::Value& run = log.Find("runs")->items()[0];
  const json::Value& driver = *run.Find("tool")->Find("driver");
  EXPECT_EQ(driver.Find("name")->text(), "arcs");
  EXPECT_EQ(driver.Find("version")->text(), kArcsVersion);
  const auto rules = driver.Find("rules")->items();
  ASSERT_EQ(rules.size(), 2u);  // each rule once, in the order first cited
  EXPECT_EQ(rules[0].Find("id")->text(), "SP-5.1-2");
  EXPECT_EQ(rules[1].Find("id")->text(), "SP-3.5-1");
  EXPECT_TRUE(
      rules[1].Find("shortDescription")->Find("text")->text().starts_with("Writers SHOULD"));
  EXPECT_EQ(rules[1].Find("defaultConfiguration")->Find("level")->text(), "warning");
  EXPECT_EQ(rules[1].Find("properties")->Find("section")->text(), "3.5");
  EXPECT_EQ(rules[1].Find("properties")->Find("spec")->text(), "spool.md");

  const auto results = run.Find("results")->items();
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].Find("ruleId")->text(), "SP-5.1-2");
  EXPECT_EQ(results[0].Find("ruleIndex")->text(), "0");
  EXPECT_EQ(results[0].Find("level")->text(), "error");
  EXPECT_EQ(results[0].Find("message")->Find("text")->text(), "not a UUID (at /id)");
  const json::Value& physical = *results[0].Find("locations")->items()[0].Find("physicalLocation");
  EXPECT_EQ(physical.Find("artifactLocation")->Find("uri")->text(), "a%20b.spool");
  EXPECT_EQ(physical.Find("region")->Find("startLine")->text(), "2");
  EXPECT_EQ(physical.Find("region")->Find("startColumn")->text(), "7");
  // Where the text shows them: a line without a column at its column 1, the whole file at 1:1.
  const json::Value& no_column = *results[1].Find("locations")->items()[0].Find("physicalLocation");
  EXPECT_EQ(results[1].Find("level")->text(), "warning");
  EXPECT_EQ(results[1].Find("ruleIndex")->text(), "1");
  EXPECT_EQ(no_column.Find("region")->Find("startLine")->text(), "1");
  EXPECT_EQ(no_column.Find("region")->Find("startColumn")->text(), "1");
  const json::Value& stdin_file =
      *results[2].Find("locations")->items()[0].Find("physicalLocation");
  EXPECT_EQ(stdin_file.Find("region")->Find("startLine")->text(), "1");
  EXPECT_EQ(stdin_file.Find("region")->Find("startColumn")->text(), "1");
  EXPECT_EQ(stdin_file.Find("artifactLocation")->Find("uri"), nullptr);
  EXPECT_EQ(results[2].Find("ruleIndex")->text(), "0");
  const json::Value& invocation = run.Find("invocations")->items()[0];
  EXPECT_EQ(invocation.Find("executionSuccessful")->kind(), json::Kind::kTrue);
}

TEST_F(SarifLogTest, UntrustedBytesStayJson) {
  Diagnostics d;
  d.Add(MakeFinding("SP-3.6-1", Severity::kError, {1, 1, "/\xff\""}, "quote \xc0\x01\n\""));
  const json::Value& run = Log({{"x\n\xff\".spool", "spool", d}}).Find("runs")->items()[0];
  const json::Value& result = run.Find("results")->items()[0];
  EXPECT_EQ(result.Find("message")->Find("text")->text(),
            "quote \xEF\xBF\xBD\x01\n\" (at /\xEF\xBF\xBD\")");
  EXPECT_EQ(result.Find("locations")
                ->items()[0]
                .Find("physicalLocation")
                ->Find("artifactLocation")
                ->Find("uri")
                ->text(),
            "x%0A%FF%22.spool");
}

TEST_F(SarifLogTest, FailuresAndDroppedFindingsAreNotifications) {
  Diagnostics d(1);
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 1, ""}, "e"));
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {3, 1, ""}, "e"));
  const json::Value& run = Log({{"a.spool", "spool", d}}, "gone.spool").Find("runs")->items()[0];
  const json::Value& invocation = run.Find("invocations")->items()[0];
  EXPECT_EQ(invocation.Find("executionSuccessful")->kind(), json::Kind::kFalse);
  const auto notes = invocation.Find("toolExecutionNotifications")->items();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].Find("level")->text(), "note");
  EXPECT_EQ(notes[0].Find("message")->Find("text")->text(), "1 more findings not shown");
  EXPECT_EQ(notes[1].Find("level")->text(), "error");
  EXPECT_EQ(notes[1]
                .Find("locations")
                ->items()[0]
                .Find("physicalLocation")
                ->Find("artifactLocation")
                ->Find("uri")
                ->text(),
            "gone.spool");
}

TEST_F(SarifLogTest, RulesLinkToWhereTheirSpecStatesThem) {
  if (!std::filesystem::exists(DefaultSpecsDir() + "/spool.md")) {
    GTEST_SKIP() << "no specs in " << DefaultSpecsDir();
  }
  Diagnostics spool;
  spool.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 0, ""}, "CRLF"));
  Diagnostics model_io;
  model_io.Add(MakeFinding("MI4", Severity::kError, {0, 0, ""}, "no interactions"));
  Diagnostics lightbox;
  lightbox.Add(MakeFinding("LB-LAYOUT-5", Severity::kError, {0, 0, ""}, "too long"));
  const json::Value& run = Log({{"a.spool", "spool", spool},
                                {"model_io.json", "model-io", model_io},
                                {"events.jsonl", "lightbox", lightbox}})
                               .Find("runs")
                               ->items()[0];
  const auto rules = run.Find("tool")->Find("driver")->Find("rules")->items();
  ASSERT_EQ(rules.size(), 3u);
  // helpUri is a file URI of the spec beside the suite, at the heading of the rule.
  for (const json::Value& rule : rules) ASSERT_NE(rule.Find("helpUri"), nullptr);
  const std::string_view uri = rules[0].Find("helpUri")->text();
  EXPECT_TRUE(uri.starts_with("file:///")) << uri;
  EXPECT_TRUE(uri.ends_with("/shared/specs/spool.md#35-line-endings")) << uri;
  EXPECT_TRUE(rules[1].Find("helpUri")->text().ends_with(
      "/shared/specs/model-io.md#mi4-interactions-array-present"));
  // A rule of a topic, not a numbered section: the spec itself.
  EXPECT_TRUE(rules[2].Find("helpUri")->text().ends_with("/shared/specs/lightbox.md"));
}

TEST_F(SarifLogTest, QuietLeavesOutAllButErrors) {
  Diagnostics d;
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 0, ""}, "CRLF"));
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 0, "/id"}, "not a UUID"));
  const json::Value& run = Log({{"a.spool", "spool", d, true}}).Find("runs")->items()[0];
  const auto results = run.Find("results")->items();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].Find("ruleId")->text(), "SP-5.1-2");
  EXPECT_EQ(run.Find("tool")->Find("driver")->Find("rules")->items().size(), 1u);
}

TEST_F(SarifLogTest, AnEmptyRunIsALog) {
  const json::Value& run = Log({}).Find("runs")->items()[0];
  EXPECT_TRUE(run.Find("results")->items().empty());
  EXPECT_TRUE(run.Find("tool")->Find("driver")->Find("rules")->items().empty());
}

}  // namespace
}  // namespace arcs::runner
