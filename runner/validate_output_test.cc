#include "runner/validate_output.h"

#include <gtest/gtest.h>

#include <string>

#include "conformance/registry.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"

namespace arcs::runner {
namespace {

Finding MakeFinding(std::string rule, Severity severity, Location location, std::string message) {
  Finding f;
  f.rule_id = std::move(rule);
  f.severity = severity;
  f.level = severity == Severity::kError ? Level::kMust : Level::kShould;
  f.location = std::move(location);
  f.message = std::move(message);
  return f;
}

// A catalogue as a build would embed it, for a test that changes one level (a function pointer
// has no captures).
std::string g_changed_catalogue;
std::string_view ChangedCatalogue() { return g_changed_catalogue; }

// `arcs validate --json` over one file with a format module: the first finding's rule and the JSON.
std::pair<std::string, std::string> ValidateJson(const conformance::FormatModule& format,
                                                 std::string_view bytes) {
  jsonl::MemorySource source(bytes);
  Diagnostics d;
  format.Validate(&source, {}, format.DefaultLimits(), &d);
  std::string out;
  AppendValidateJson({"a.spool", format.name, d}, &out);
  return {d.findings().empty() ? "" : d.findings().front().rule_id, out};
}

std::string Text(std::string_view name, const Diagnostics& d, bool color = false) {
  std::string out;
  AppendValidateText({name, "spool", d}, &out, color);
  return out;
}

// A finding's level is the catalogue's, whatever the checker thought: the catalogue is the only
// place a level is stated (FormatModule::Validate).
TEST(ValidateJson, AFindingsLevelFollowsTheCatalogue) {
  const conformance::FormatModule& spool = *conformance::FindFormat("spool");
  const std::string file = "{\"id\":\"x\",\"ts\":0,\"type\":\"session\"}\n";
  const auto [rule, before] = ValidateJson(spool, file);
  ASSERT_FALSE(rule.empty());
  ASSERT_EQ(spool.LevelOf(rule), Level::kMust) << rule;
  EXPECT_NE(before.find("{\"rule\":\"" + rule + "\",\"level\":\"MUST\""), std::string::npos)
      << before;

  std::string catalogue(spool.catalogue_text());
  const std::size_t entry = catalogue.find("\"id\": \"" + rule + "\"");
  const std::string must = "\"level\": \"MUST\"";
  const std::size_t level = catalogue.find(must, entry);
  ASSERT_NE(entry, std::string::npos);
  ASSERT_LT(level, catalogue.find('}', entry)) << "the rule's level is not plain MUST";
  g_changed_catalogue = catalogue.replace(level, must.size(), "\"level\": \"SHOULD\"");
  conformance::FormatModule changed = spool;
  changed.catalogue_text = ChangedCatalogue;
  const auto [same_rule, after] = ValidateJson(changed, file);
  EXPECT_EQ(same_rule, rule);
  EXPECT_NE(after.find("{\"rule\":\"" + rule + "\",\"level\":\"SHOULD\""), std::string::npos)
      << after;
}

TEST(ValidateText, OneGccStyleLinePerFinding) {
  Diagnostics d;
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 7, "/id"}, "not a UUID"));
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 0, ""}, "CRLF"));
  EXPECT_EQ(Text("a.spool", d),
            "a.spool:2:7: error: not a UUID (at /id) [SP-5.1-2]\n"
            "a.spool:1:1: warning: CRLF [SP-3.5-1]\n");
}

TEST(ValidateText, AFindingOnAnErrataReadingNamesIt) {
  Diagnostics d;
  Finding f = MakeFinding("LB-EVENT-17", Severity::kWarning, {3, 0, "/output"}, "null output");
  f.reading = "LB-E17";
  d.Add(f);
  EXPECT_EQ(Text("events.jsonl", d),
            "events.jsonl:3:1: warning: null output (at /output) [LB-EVENT-17, reading LB-E17]\n");
  std::string out;
  AppendValidateJson({"events.jsonl", "lightbox", d}, &out);
  json::Document doc;
  ASSERT_TRUE(doc.Parse(out)) << out;
  EXPECT_EQ(doc.root().Find("findings")->items()[0].Find("reading")->text(), "LB-E17");
}

TEST(ValidateText, AFindingAboutTheWholeFileStandsAtItsStart) {
  Diagnostics d;
  d.Add(MakeFinding("LB-META-1", Severity::kError, {0, 0, "meta.json/x"}, "bad"));
  d.Add(MakeFinding("MI3", Severity::kNote, {0, 9, ""}, "a note"));
  EXPECT_EQ(Text("s/events.jsonl", d),
            "s/events.jsonl:1:1: error: bad (at meta.json/x) [LB-META-1]\n"
            "s/events.jsonl:1:1: note: a note [MI3]\n");
}

TEST(ValidateText, UntrustedTextIsEscaped) {
  Diagnostics d;
  d.Add(MakeFinding("SP-3.6-1", Severity::kError, {1, 1, "/\x1b[2J"}, "quote \n\x9b\xe2\x80\xae"));
  EXPECT_EQ(Text("x\nforged.spool:1:1: error: y [SP-0]", d),
            "x\\u000aforged.spool:1:1: error: y [SP-0]:1:1: error: quote \\u000a\\x9b\\u202e "
            "(at /\\u001b[2J) [SP-3.6-1]\n");
}

TEST(ValidateText, ColourIsGccsAndOnlyWhenAsked) {
  Diagnostics d;
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 1, ""}, "e"));
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {3, 1, ""}, "w"));
  d.Add(MakeFinding("SP-3.1-1", Severity::kNote, {4, 1, ""}, "n"));
  EXPECT_EQ(Text("a.spool", d, true),
            "\033[1ma.spool:2:1:\033[0m \033[1;31merror:\033[0m e [\033[1;31mSP-5.1-2\033[0m]\n"
            "\033[1ma.spool:3:1:\033[0m \033[1;35mwarning:\033[0m w [\033[1;35mSP-3.5-1\033[0m]\n"
            "\033[1ma.spool:4:1:\033[0m \033[1;36mnote:\033[0m n [\033[1;36mSP-3.1-1\033[0m]\n");
  EXPECT_EQ(Text("a.spool", d).find('\033'), std::string::npos);
}

TEST(ValidateText, DroppedFindingsAreCounted) {
  Diagnostics d(1);
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 1, ""}, "e"));
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {3, 1, ""}, "e"));
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {4, 1, ""}, "e"));
  EXPECT_EQ(Text("a.spool", d),
            "a.spool:2:1: error: e [SP-5.1-2]\n"
            "a.spool: note: 2 more findings not shown\n");
}

TEST(ValidateJson, GivesLevelAndSeverity) {
  Diagnostics d;
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 0, ""}, "CRLF"));
  std::string out;
  AppendValidateJson({"bad-\xff.spool", "spool", d}, &out);
  json::Document doc;
  ASSERT_TRUE(doc.Parse(out)) << out;
  EXPECT_EQ(doc.root().Find("valid")->kind(), json::Kind::kTrue);
  EXPECT_EQ(doc.root().Find("file")->text(), "bad-\xEF\xBF\xBD.spool");
  EXPECT_NE(doc.root().Find("file_base64"), nullptr);
  const json::Value& finding = doc.root().Find("findings")->items()[0];
  EXPECT_EQ(finding.Find("severity")->text(), "warning");
  EXPECT_EQ(finding.Find("level")->text(), "SHOULD");
  EXPECT_EQ(finding.Find("line")->text(), "1");
  EXPECT_EQ(finding.Find("whole_file"), nullptr);
}

TEST(ValidateJson, ShowsTheTextsLineAndColumn) {
  // The text, the JSON and SARIF agree: a column the checker does not know is 1, and so is the
  // line of a finding about the whole file, which the JSON marks as such.
  Diagnostics d;
  d.Add(MakeFinding("SP-4.1-1", Severity::kError, {0, 0, ""}, "whole"));
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {3, 0, ""}, "line"));
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {4, 9, "/id"}, "placed"));
  std::string out;
  AppendValidateJson({"a.spool", "spool", d}, &out);
  json::Document doc;
  ASSERT_TRUE(doc.Parse(out)) << out;
  const auto findings = doc.root().Find("findings")->items();
  ASSERT_EQ(findings.size(), 3u);
  const std::string text = Text("a.spool", d);
  for (const json::Value& f : findings) {
    const std::string at = "a.spool:" + std::string(f.Find("line")->text()) + ":" +
                           std::string(f.Find("column")->text()) + ": ";
    EXPECT_NE(text.find(at + std::string(f.Find("severity")->text()) + ": " +
                        std::string(f.Find("message")->text())),
              std::string::npos)
        << at << "\n"
        << text;
  }
  EXPECT_EQ(findings[0].Find("whole_file")->kind(), json::Kind::kTrue);
  EXPECT_EQ(findings[1].Find("whole_file"), nullptr);
  EXPECT_EQ(findings[1].Find("column")->text(), "1");
}

TEST(ValidateOutput, QuietPrintsOnlyErrorsButCountsEverything) {
  Diagnostics d;
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 0, ""}, "CRLF"));
  d.Add(MakeFinding("SP-3.1-1", Severity::kNote, {1, 0, ""}, "n"));
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 3, "/id"}, "not a UUID"));
  std::string text;
  AppendValidateText({"a.spool", "spool", d, true}, &text);
  EXPECT_EQ(text, "a.spool:2:3: error: not a UUID (at /id) [SP-5.1-2]\n");
  std::string out;
  AppendValidateJson({"a.spool", "spool", d, true}, &out);
  json::Document doc;
  ASSERT_TRUE(doc.Parse(out)) << out;
  EXPECT_EQ(doc.root().Find("findings")->items().size(), 1u);
  EXPECT_EQ(doc.root().Find("warnings")->text(), "1");
}

TEST(ValidateOutput, IgnoredFindingsAreCountedApart) {
  Diagnostics d;
  d.KeepOnly([](std::string_view rule) { return rule != "SP-5.1-2"; });
  d.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 1, ""}, "e"));
  d.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 1, ""}, "w"));
  std::string out;
  AppendValidateJson({"a.spool", "spool", d}, &out);
  json::Document doc;
  ASSERT_TRUE(doc.Parse(out)) << out;
  EXPECT_EQ(doc.root().Find("valid")->kind(), json::Kind::kTrue);
  EXPECT_EQ(doc.root().Find("ignored")->text(), "1");
  ValidateTally tally;
  tally.Add(d);
  EXPECT_EQ(TallyText(tally), "1 file checked: 0 invalid, 0 errors, 1 warning (1 ignored)");
}

TEST(ValidateTally, SaysWhatTheRunCameTo) {
  ValidateTally tally;
  Diagnostics clean;
  Diagnostics bad;
  bad.Add(MakeFinding("SP-5.1-2", Severity::kError, {2, 1, ""}, "e"));
  bad.Add(MakeFinding("SP-5.1-2", Severity::kError, {3, 1, ""}, "e"));
  bad.Add(MakeFinding("SP-3.5-1", Severity::kWarning, {1, 1, ""}, "w"));
  tally.Add(bad);
  EXPECT_EQ(TallyText(tally), "1 file checked: 1 invalid, 2 errors, 1 warning");
  tally.Add(clean);
  tally.Add(bad);
  EXPECT_EQ(TallyText(tally), "3 files checked: 2 invalid, 4 errors, 2 warnings");
  tally.unchecked = 1;
  EXPECT_EQ(TallyText(tally),
            "3 files checked: 2 invalid, 4 errors, 2 warnings; 1 could not be checked");
  std::string json = "x";
  AppendTallyJson(tally, &json);
  EXPECT_EQ(json,
            R"(x{"checked":3,"invalid":2,"errors":4,"warnings":2,"ignored":0,"unchecked":1})");
}

}  // namespace
}  // namespace arcs::runner
