#include "runner/report/diff.h"

#include <gtest/gtest.h>

#include "runner/report/sample.h"

namespace arcs::report {
namespace {

// The reference implementation's case with this id and operation in r.
CaseResult& Find(Report& r, std::string_view id, std::string_view operation) {
  for (CaseResult& c : r.implementations[0].cases) {
    if (c.id == id && c.operation == operation) return c;
  }
  ADD_FAILURE() << "no case " << id;
  return r.implementations[0].cases[0];
}

ReportDiff MustCompare(const Report& a, const Report& b) {
  Result<ReportDiff> diff = Compare(a, b);
  EXPECT_TRUE(diff.ok()) << diff.status().ToString();
  return diff.ok() ? *diff : ReportDiff{};
}

TEST(ReportDiff, EqualReportsHaveNoDifferences) {
  const Report r = testing::SampleReport();
  const ReportDiff diff = MustCompare(r, r);
  EXPECT_FALSE(diff.HasDifferences());
  EXPECT_EQ(diff.regressions, 0u);
  EXPECT_EQ(FormatDiff(diff),
            "notes:\n  the old report is incomplete (interrupted)\n"
            "  the new report is incomplete (interrupted)\narcs diff: no differences\n");
}

TEST(ReportDiff, IgnoresWhatVariesFromRunToRun) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  new_report.run = RunInfo{"9.9", "2030-01-01T00:00:00Z", 99, 8, 1, 5, {"x"}, "other"};
  new_report.implementations[1].stderr_tail = "different";
  new_report.implementations[1].restarts = 0;
  new_report.implementations[1].summary = {};
  new_report.implementations[0].cases[0].message = "another message";
  new_report.implementations[0].cases[0].rerun = true;
  Find(new_report, "spool-limit-deep-nesting", "validate").peak_rss_bytes = 1;
  EXPECT_FALSE(MustCompare(old_report, new_report).HasDifferences());
}

TEST(ReportDiff, AFailingCaseThatPassedIsARegression) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  CaseResult& c = Find(new_report, "spool-3.4-bom", "validate");
  c.outcome = Outcome::kFailed;
  c.expected = "valid";
  c.actual = "invalid (SP-3.4-1)";
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 1u);
  ASSERT_EQ(diff.cases.size(), 1u);
  EXPECT_TRUE(diff.cases[0].regression);
  EXPECT_EQ(diff.cases[0].fields, (std::vector<std::string>{"outcome", "expected", "actual"}));
  const std::string text = FormatDiff(diff);
  EXPECT_NE(text.find("regressions:\n  arcs-reference  spool  spool-3.4-bom  validate: passed -> "
                      "failed\n      expected: \"valid\"\n      actual: \"invalid (SP-3.4-1)\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("arcs diff: 1 regression, 1 outcome change, 0 other case changes, 0 cases "
                      "added, 0 cases removed, 0 format changes\n"),
            std::string::npos)
      << text;
}

TEST(ReportDiff, AKnownFailureThatNowPassesIsAChangeNotARegression) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  CaseResult& c = Find(new_report, "spool-11.1-minimal", "validate");
  c.outcome = Outcome::kPassed;
  c.expected = c.actual = "";
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 0u);
  EXPECT_TRUE(diff.HasDifferences());
  EXPECT_NE(FormatDiff(diff).find("changed:\n  arcs-reference  spool  spool-11.1-minimal  "
                                  "validate: known_failure -> passed\n"),
            std::string::npos);
  // What a passing case does not store is no change to show (issue #27 item 5).
  EXPECT_EQ(FormatDiff(diff).find("-> \"\""), std::string::npos) << FormatDiff(diff);
}

TEST(ReportDiff, ComparesEveryRecordedField) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  CaseResult& c = Find(new_report, "spool-3.6-crlf", "validate");
  c.level = "MUST";
  c.requirements.push_back("SP-3.6-3");
  c.rules = "differ";
  c.flag = "SP-E6";
  c.readings = {"lf-or-crlf"};
  c.strict = Strict::kFailed;
  CaseResult& policy = Find(new_report, "spool-11.4-skip", "validate");
  policy.ground = Ground::kRequired;
  policy.policy = "";
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 0u);
  ASSERT_EQ(diff.cases.size(), 2u);
  EXPECT_EQ(diff.cases[0].fields, (std::vector<std::string>{"ground", "policy"}));
  EXPECT_EQ(diff.cases[1].fields, (std::vector<std::string>{"level", "requirements", "rules",
                                                            "flag", "readings", "strict"}));
  EXPECT_NE(FormatDiff(diff).find("requirements: \"SP-3.6-2\" -> \"SP-3.6-2, SP-3.6-3\""),
            std::string::npos);
}

TEST(ReportDiff, AnotherReadingOrStrictResultIsAChangeNotARegression) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  // The other implementation now reads SP-E14 one way, the reference's: consistent again.
  CaseResult& c = new_report.implementations[1].cases[3];
  ASSERT_EQ(c.id, "spool-2.3-iso8601-basic");
  c.readings = {"rfc3339"};
  c.strict = Strict::kPassed;
  Recount(&new_report.implementations[1]);
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 0u);
  ASSERT_EQ(diff.cases.size(), 1u);
  EXPECT_FALSE(diff.cases[0].regression);
  EXPECT_EQ(diff.cases[0].fields, (std::vector<std::string>{"readings", "strict"}));
  ASSERT_EQ(diff.formats.size(), 1u);
  EXPECT_EQ(diff.formats[0].what, "consistency");
  EXPECT_EQ(diff.formats[0].flag, "SP-E14");
  EXPECT_FALSE(diff.formats[0].regression);
  const std::string text = FormatDiff(diff);
  EXPECT_NE(text.find("changed:\n  <script>alert(1)</script> py.spool  spool  "
                      "spool-2.3-iso8601-basic  validate: passed\n      readings: \"iso8601\" -> "
                      "\"rfc3339\"\n      strict: \"failed\" -> \"passed\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("formats:\n  <script>alert(1)</script> py.spool/spool: SP-E14 \"takes "
                      "different readings: iso8601 (1), rfc3339 (1)\" -> \"consistent: rfc3339 "
                      "(2)\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("arcs diff: 0 regressions, 0 outcome changes, 1 other case change, 0 cases "
                      "added, 0 cases removed, 1 format change\n"),
            std::string::npos)
      << text;
}

TEST(ReportDiff, AFlagNoLongerReadConsistentlyIsARegression) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  CaseResult& c = Find(new_report, "spool-2.3-iso8601-week", "validate");
  c.readings = {"iso8601"};
  c.strict = Strict::kFailed;
  Recount(&new_report.implementations[0]);
  const ReportDiff diff = MustCompare(old_report, new_report);
  // The case still passed: only the flag regressed.
  EXPECT_EQ(diff.regressions, 1u);
  ASSERT_EQ(diff.cases.size(), 1u);
  EXPECT_FALSE(diff.cases[0].regression);
  ASSERT_EQ(diff.formats.size(), 1u);
  EXPECT_TRUE(diff.formats[0].regression);
  const std::string text = FormatDiff(diff);
  EXPECT_TRUE(
      text.starts_with("regressions:\n  arcs-reference/spool: SP-E14 \"consistent: "
                       "rfc3339 (2)\" -> \"takes different readings: iso8601 (1), "
                       "rfc3339 (1)\"\nchanged:\n"))
      << text;
  EXPECT_EQ(text.find("formats:"), std::string::npos) << text;
  EXPECT_NE(text.find("arcs diff: 1 regression, 0 outcome changes, 1 other case change, 0 cases "
                      "added, 0 cases removed, 1 format change\n"),
            std::string::npos)
      << text;

  // Answered outside every reading: a regression too.
  c.readings = {};
  c.outcome = Outcome::kFailed;
  Recount(&new_report.implementations[0]);
  const ReportDiff failed = MustCompare(old_report, new_report);
  EXPECT_EQ(failed.regressions, 2u);  // the case and the flag
  EXPECT_NE(FormatDiff(failed).find("arcs-reference/spool: SP-E14 \"consistent: rfc3339 (2)\" "
                                    "-> \"takes different readings: rfc3339 (1)\"\n"),
            std::string::npos);
}

TEST(ReportDiff, ANewFlagReadInconsistentlyIsListedNotARegression) {
  Report old_report = testing::SampleReport();
  const Report new_report = old_report;
  // The old report has no SP-E14 case for the other implementation.
  auto& cases = old_report.implementations[1].cases;
  std::erase_if(cases, [](const CaseResult& c) { return c.flag == "SP-E14"; });
  Recount(&old_report.implementations[1]);
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 0u);
  ASSERT_EQ(diff.formats.size(), 1u);
  EXPECT_EQ(diff.formats[0].old_value, "(not in the old report)");
  EXPECT_FALSE(diff.formats[0].regression);
  // A flag that is gone says nothing more than its removed cases.
  const ReportDiff back = MustCompare(new_report, old_report);
  EXPECT_TRUE(back.formats.empty());
  EXPECT_EQ(back.regressions, 2u);  // its two passing cases
}

TEST(ReportDiff, AddedAndRemovedCases) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  auto& cases = new_report.implementations[0].cases;
  cases.erase(cases.begin());  // spool-11.1-minimal, a known failure: removed, not a regression
  CaseResult added = cases[0];
  added.id = "spool-99-new";
  cases.push_back(added);
  ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 0u);
  ASSERT_EQ(diff.cases.size(), 2u);
  const std::string text = FormatDiff(diff);
  EXPECT_NE(text.find("added:\n  arcs-reference  spool  spool-99-new  validate: passed\n"),
            std::string::npos);
  EXPECT_NE(text.find("removed:\n  arcs-reference  spool  spool-11.1-minimal  validate: "
                      "known_failure -> (removed)\n"),
            std::string::npos);

  // A passing case that disappears is a regression.
  cases.erase(cases.begin());  // spool-11.4-skip, passed
  diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 1u);
  EXPECT_NE(FormatDiff(diff).find("regressions:\n  arcs-reference  spool  spool-11.4-skip  "
                                  "validate: passed -> (removed)\n"),
            std::string::npos);
}

TEST(ReportDiff, AMissingImplementationLosesItsPassingCases) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  new_report.implementations.erase(new_report.implementations.begin());
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_EQ(diff.regressions, 7u);
  EXPECT_NE(FormatDiff(diff).find("  implementation removed: arcs-reference\n"), std::string::npos);
}

TEST(ReportDiff, FormatChanges) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  FormatSummary& spool = new_report.implementations[0].formats[0];
  spool.certification = "partial";
  spool.missing = {"roundtrip: 1 MUST case failed"};
  spool.policies["invalid_line"] = "skip";
  spool.operations[1].supported = false;
  new_report.implementations[1].formats.pop_back();
  const ReportDiff diff = MustCompare(old_report, new_report);
  EXPECT_TRUE(diff.HasDifferences());
  EXPECT_EQ(diff.regressions, 0u);
  ASSERT_EQ(diff.formats.size(), 5u);
  const std::string text = FormatDiff(diff);
  EXPECT_NE(text.find("  arcs-reference/spool: certification \"full\" -> \"partial\"\n"),
            std::string::npos);
  EXPECT_NE(text.find("  arcs-reference/spool: missing \"\" -> \"roundtrip: 1 MUST case "
                      "failed\"\n"),
            std::string::npos);
  EXPECT_NE(text.find("policies \"invalid_line=reject\" -> \"invalid_line=skip\""),
            std::string::npos);
  EXPECT_NE(text.find("operations \"validate, roundtrip\" -> \"validate, roundtrip "
                      "(unsupported)\""),
            std::string::npos);
  EXPECT_NE(text.find("py.spool/lightbox: removed\n"), std::string::npos);
}

TEST(ReportDiff, EscapesUntrustedTextForTheTerminal) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  new_report.implementations[1].cases[1].actual = "\x1b]0;pwned\x07";
  const std::string text = FormatDiff(MustCompare(old_report, new_report));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_NE(text.find("\\u001b]0;pwned\\u0007"), std::string::npos);
}

TEST(ReportDiff, RefusesDuplicateCases) {
  const Report old_report = testing::SampleReport();
  Report new_report = old_report;
  new_report.implementations[0].cases.push_back(new_report.implementations[0].cases[0]);
  Result<ReportDiff> diff = Compare(old_report, new_report);
  ASSERT_FALSE(diff.ok());
  EXPECT_EQ(diff.status().message(),
            "new report: case spool-11.1-minimal (validate) appears twice for "
            "arcs-reference/spool");
}

}  // namespace
}  // namespace arcs::report
