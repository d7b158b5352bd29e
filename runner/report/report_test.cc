#include "runner/report/report.h"

#include <gtest/gtest.h>

#include "reference/core/json.h"
#include "runner/report/sample.h"

namespace arcs::report {
namespace {

using testing::SampleReport;

TEST(ReportModel, OutcomeNamesRoundTrip) {
  for (Outcome o : {Outcome::kPassed, Outcome::kFailed, Outcome::kErrored, Outcome::kSkipped,
                    Outcome::kKnownFailure}) {
    Outcome parsed = Outcome::kPassed;
    ASSERT_TRUE(ParseOutcome(OutcomeName(o), &parsed)) << OutcomeName(o);
    EXPECT_EQ(parsed, o);
  }
  EXPECT_EQ(OutcomeName(Outcome::kKnownFailure), "known_failure");
  Outcome parsed = Outcome::kFailed;
  EXPECT_FALSE(ParseOutcome("PASSED", &parsed));
  EXPECT_FALSE(ParseOutcome("", &parsed));
  EXPECT_EQ(parsed, Outcome::kFailed);
}

TEST(ReportModel, CountsAddCountsEachOutcomeAndTheTotal) {
  Counts c;
  for (Outcome o : {Outcome::kPassed, Outcome::kPassed, Outcome::kFailed, Outcome::kErrored,
                    Outcome::kSkipped, Outcome::kKnownFailure}) {
    c.Add(o);
  }
  EXPECT_EQ(c, (Counts{2, 1, 1, 1, 1, 6}));
}

TEST(ReportModel, ToJsonWritesTheDocumentedShape) {
  Report r;
  r.run.arcs_version = "0.3.0";
  r.run.seconds = 0.5;
  r.run.filters = {"--format", "spool"};
  ImplementationReport impl;
  impl.name = "x";
  CaseResult c;
  c.id = "a";
  c.format = "spool";
  c.operation = "validate";
  c.requirements = {"SP-1", "SP-2"};
  c.level = "MUST";
  impl.cases.push_back(c);
  r.implementations.push_back(impl);
  EXPECT_EQ(ToJson(r), R"({
  "report_version": 1,
  "complete": true,
  "run": {
    "arcs_version": "0.3.0",
    "started_at": "",
    "seconds": 0.5,
    "jobs": 1,
    "timeout_seconds": 0,
    "filters": ["--format", "spool"],
    "known_failures": ""
  },
  "implementations": [
    {
      "name": "x",
      "version": "",
      "language": "",
      "homepage": "",
      "command": "",
      "summary": {
        "passed": 0,
        "failed": 0,
        "errored": 0,
        "skipped": 0,
        "known_failures": 0,
        "total": 0
      },
      "formats": [],
      "cases": [
        {
          "id": "a",
          "format": "spool",
          "operation": "validate",
          "requirements": ["SP-1", "SP-2"],
          "level": "MUST",
          "outcome": "passed",
          "error_kind": "",
          "expected": "",
          "actual": "",
          "message": "",
          "rerun": false,
          "rules": ""
        }
      ],
      "abandoned": false,
      "restarts": 0,
      "stderr_tail": ""
    }
  ]
}
)");
}

TEST(ReportModel, ToJsonRoundTripsTheSample) {
  const Report sample = SampleReport();
  const std::string text = ToJson(sample);
  Result<Report> back = FromJson(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == sample);
  EXPECT_EQ(ToJson(*back), text);
}

TEST(ReportModel, ToJsonRoundTripsAnEmptyReport) {
  Result<Report> back = FromJson(ToJson(Report{}));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == Report{});
}

TEST(ReportModel, ToJsonRepairsInvalidUtf8SoTheOutputStaysJson) {
  Report r;
  ImplementationReport impl;
  impl.name = "bad \xC3";
  impl.stderr_tail = std::string("\xFF\xFE nul:\0 end", 13);
  impl.formats.emplace_back().policies["\xC3"] = "\xED\xA0\x80";
  impl.formats.back().policies["\xFF"] = "repaired to the same name as the key above";
  r.implementations.push_back(impl);
  json::Document doc;
  ASSERT_TRUE(doc.Parse(ToJson(r))) << doc.error().message;
  Result<Report> back = FromJson(ToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->implementations[0].name, "bad \xEF\xBF\xBD");
  EXPECT_EQ(back->implementations[0].stderr_tail,
            std::string("\xEF\xBF\xBD\xEF\xBF\xBD nul:\0 end", 17));
  EXPECT_EQ(back->implementations[0].formats[0].policies,
            (std::map<std::string, std::string>{
                {"\xEF\xBF\xBD", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"}}));
}

TEST(ReportModel, ToJsonWritesNonFiniteNumbersAsZero) {
  Report r;
  r.run.seconds = 1.0 / 0.0;
  Result<Report> back = FromJson(ToJson(r));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->run.seconds, 0);
}

// Replaces the first occurrence of `from` in the sample's JSON and returns FromJson's message.
std::string ErrorAfterReplacing(std::string_view from, std::string_view to) {
  std::string text = ToJson(SampleReport());
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at == std::string::npos) return "";
  text.replace(at, from.size(), to);
  Result<Report> r = FromJson(text);
  EXPECT_FALSE(r.ok()) << "accepted after replacing " << from;
  return r.ok() ? "" : r.status().message();
}

TEST(ReportModel, FromJsonNamesTheOffendingPlace) {
  EXPECT_EQ(ErrorAfterReplacing("\"passed\": 4", "\"passed\": \"4\""),
            "/implementations/0/summary/passed: expected a number, found a string");
  EXPECT_EQ(ErrorAfterReplacing("\"passed\": 4", "\"passed\": -2"),
            "/implementations/0/summary/passed: expected a non-negative integer, found -2");
  EXPECT_EQ(ErrorAfterReplacing("\"passed\": 4", "\"passed\": 2.5"),
            "/implementations/0/summary/passed: expected a non-negative integer, found 2.5");
  EXPECT_EQ(ErrorAfterReplacing("\"outcome\": \"passed\"", "\"outcome\": \"won\""),
            "/implementations/0/cases/1/outcome: unknown outcome \"won\"");
  EXPECT_EQ(ErrorAfterReplacing("\"requirements\": [\"SP-3.4-1\"]", "\"requirements\": [1]"),
            "/implementations/0/cases/2/requirements/0: expected a string, found a number");
  EXPECT_EQ(ErrorAfterReplacing("\"rerun\": false", "\"rerun\": 0"),
            "/implementations/0/cases/0/rerun: expected a boolean, found a number");
  EXPECT_EQ(ErrorAfterReplacing("\"invalid_line\": \"reject\"", "\"invalid_line\": null"),
            "/implementations/0/formats/0/policies/invalid_line: expected a string, found null");
  EXPECT_EQ(ErrorAfterReplacing("\"jobs\": 2", "\"jobs\": 9999999999"),
            "/run/jobs: expected an integer in the range of int, found 9999999999");
  EXPECT_TRUE(
      ErrorAfterReplacing("\"formats\": [", "\"formats\": {").starts_with("not JSON ("));
}

TEST(ReportModel, FromJsonRejectsUnknownMissingAndDuplicateMembers) {
  EXPECT_EQ(ErrorAfterReplacing("\"rules\": \"agree\"", "\"rules\": \"agree\", \"extra\": 1"),
            "/implementations/0/cases/3/extra: unknown member");
  EXPECT_EQ(ErrorAfterReplacing("\"complete\": false,", ""), "/complete: missing");
  EXPECT_EQ(ErrorAfterReplacing("\"complete\": false,", "\"complete\": false, \"complete\": true,"),
            "member name repeated at /complete");
  EXPECT_EQ(ErrorAfterReplacing("\"total\": 5\n", "\"total\": 5, \"total~/x\": 1\n"),
            "/implementations/0/summary/total~0~1x: unknown member");
}

TEST(ReportModel, FromJsonRejectsOtherVersionsAndShapes) {
  Result<Report> r = FromJson("{\"report_version\": 2, \"anything\": []}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  r = FromJson("[]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "(root): expected an object, found an array");
  r = FromJson("");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kParseError);
}

TEST(ReportModel, ReadReportFilePrefixesThePath) {
  Result<Report> r = ReadReportFile("/nonexistent/report.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("/nonexistent/report.json"), std::string::npos);
}

TEST(ReportModel, RecountCountsCasesPerFormatOperationAndLevel) {
  ImplementationReport impl = SampleReport().implementations[1];
  impl.summary = {};
  impl.formats[0].operations[0].by_level.clear();
  Recount(&impl);
  EXPECT_EQ(impl.summary, (Counts{1, 2, 2, 1, 0, 6}));
  const FormatSummary& spool = impl.formats[0];
  EXPECT_EQ(spool.counts, (Counts{1, 1, 2, 1, 0, 5}));
  EXPECT_EQ(spool.operations[0].operation, "validate");
  EXPECT_EQ(spool.operations[0].counts, (Counts{1, 1, 2, 0, 0, 4}));
  EXPECT_EQ(spool.operations[0].by_level.at("MUST"), (Counts{1, 1, 1, 0, 0, 3}));
  EXPECT_EQ(spool.operations[0].by_level.at("SHOULD"), (Counts{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(spool.operations[1].counts, (Counts{0, 0, 0, 1, 0, 1}));
  EXPECT_EQ(impl.formats[1].counts, (Counts{0, 1, 0, 0, 0, 1}));
}

}  // namespace
}  // namespace arcs::report
