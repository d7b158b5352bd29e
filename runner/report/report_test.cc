#include "runner/report/report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <regex>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "runner/report/sample.h"

namespace arcs::report {

// For gtest's messages; found by argument-dependent lookup, so outside the unnamed namespace.
void PrintTo(const FlagSummary& flag, std::ostream* out) {
  *out << "{" << flag.flag << ", cases " << flag.cases << ", readings [";
  for (const std::string& reading : flag.readings) *out << reading << ";";
  *out << "], consistent " << flag.consistent << ", taken {";
  for (const auto& [reading, n] : flag.taken) *out << reading << ":" << n << ";";
  *out << "}}";
}

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

TEST(ReportModel, GroundAndStrictNamesRoundTrip) {
  for (Ground g : {Ground::kRequired, Ground::kPolicy, Ground::kAcceptable, Ground::kResource}) {
    Ground parsed = Ground::kRequired;
    ASSERT_TRUE(ParseGround(GroundName(g), &parsed)) << GroundName(g);
    EXPECT_EQ(parsed, g);
  }
  for (Strict s : {Strict::kNotJudged, Strict::kPassed, Strict::kFailed}) {
    Strict parsed = Strict::kFailed;
    ASSERT_TRUE(ParseStrict(StrictName(s), &parsed)) << StrictName(s);
    EXPECT_EQ(parsed, s);
  }
  EXPECT_EQ(GroundName(Ground::kAcceptable), "acceptable");
  EXPECT_EQ(StrictName(Strict::kNotJudged), "");
  Ground ground = Ground::kPolicy;
  EXPECT_FALSE(ParseGround("Required", &ground));
  EXPECT_FALSE(ParseGround("", &ground));
  EXPECT_EQ(ground, Ground::kPolicy);
  Strict strict = Strict::kFailed;
  EXPECT_FALSE(ParseStrict("not_judged", &strict));
  EXPECT_EQ(strict, Strict::kFailed);
}

TEST(ReportModel, AnsweredMeansTheImplementationGaveAnAnswer) {
  CaseResult c;
  for (Outcome o : {Outcome::kPassed, Outcome::kFailed, Outcome::kKnownFailure}) {
    c.outcome = o;
    EXPECT_TRUE(Answered(c)) << OutcomeName(o);
  }
  for (Outcome o : {Outcome::kErrored, Outcome::kSkipped}) {
    c.outcome = o;
    EXPECT_FALSE(Answered(c)) << OutcomeName(o);
  }
  // A known failure that errored (it has an error kind) was not answered.
  c.outcome = Outcome::kKnownFailure;
  c.error_kind = "timeout";
  EXPECT_FALSE(Answered(c));
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
  c.id = "b";
  c.ground = Ground::kAcceptable;
  c.flag = "SP-E14";
  c.readings = {"iso8601", "rfc3339"};
  c.strict = Strict::kFailed;
  impl.cases.push_back(c);
  c.id = "c";
  c.ground = Ground::kResource;
  c.flag = "";
  c.readings = {};
  c.strict = Strict::kNotJudged;
  c.peak_rss_bytes = 1048576;
  impl.cases.push_back(c);
  impl.formats.emplace_back().format = "spool";
  Recount(&impl);
  impl.summary = {};  // only the format's members are shown below
  impl.formats[0].counts = {};
  r.implementations.push_back(impl);
  EXPECT_EQ(ToJson(r), R"({
  "report_version": 3,
  "complete": true,
  "run": {
    "arcs_version": "0.3.0",
    "started_at": "",
    "seconds": 0.5,
    "jobs": 1,
    "timeout_seconds": 0,
    "cpu_timeout_seconds": 0,
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
      "formats": [
        {
          "format": "spool",
          "certification": "",
          "missing": [],
          "policies": {},
          "counts": {
            "passed": 0,
            "failed": 0,
            "errored": 0,
            "skipped": 0,
            "known_failures": 0,
            "total": 0
          },
          "operations": [],
          "flags": [
            {
              "flag": "SP-E14",
              "cases": 1,
              "readings": ["iso8601", "rfc3339"],
              "consistent": true,
              "taken": {
                "iso8601": 1,
                "rfc3339": 1
              }
            }
          ],
          "strict": {
            "passed": 0,
            "failed": 1,
            "not_judged": 2
          }
        }
      ],
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
          "rules": "",
          "mismatch": "",
          "ground": "required",
          "flag": "",
          "policy": "",
          "readings": [],
          "strict": "",
          "peak_rss_bytes": 0,
          "seconds": 0,
          "evidence": null
        },
        {
          "id": "b",
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
          "rules": "",
          "mismatch": "",
          "ground": "acceptable",
          "flag": "SP-E14",
          "policy": "",
          "readings": ["iso8601", "rfc3339"],
          "strict": "failed",
          "peak_rss_bytes": 0,
          "seconds": 0,
          "evidence": null
        },
        {
          "id": "c",
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
          "rules": "",
          "mismatch": "",
          "ground": "resource",
          "flag": "",
          "policy": "",
          "readings": [],
          "strict": "",
          "peak_rss_bytes": 1048576,
          "seconds": 0,
          "evidence": null
        }
      ],
      "abandoned": false,
      "restarts": 0,
      "stderr_tail": ""
    }
  ],
  "requirements": []
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

// Where two texts first differ, as "line N: A | B", or "" when they are equal (a whole report in
// gtest's message would be megabytes).
std::string FirstDifference(std::string_view a, std::string_view b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  if (at == a.size() && at == b.size()) return "";
  const std::size_t newline = at == 0 ? std::string_view::npos : a.rfind('\n', at - 1);
  const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
  auto line = [start](std::string_view text) {
    return std::string(text.substr(start, text.find('\n', start) - start));
  };
  return "line " + std::to_string(std::count(a.begin(), a.begin() + start, '\n') + 1) + ": " +
         line(a) + " | " + line(b);
}

// The committed reference report (reports/reference.json) read and written back is the same
// bytes: the expected value is the file `arcs run` wrote, not this code's output.
TEST(ReportModel, TheCommittedReferenceReportRoundTripsByteForByte) {
  const char* source = std::getenv("ARCS_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "run through ctest, which sets ARCS_SOURCE_DIR";
  Result<std::string> text =
      ReadFile(std::string(source) + "/reports/reference.json", kMaxReportBytes);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  Result<Report> report = FromJson(*text);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(FirstDifference(*text, ToJson(*report)), "");
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
  EXPECT_EQ(ErrorAfterReplacing("\"passed\": 7", "\"passed\": \"7\""),
            "/implementations/0/summary/passed: expected a number, found a string");
  EXPECT_EQ(ErrorAfterReplacing("\"passed\": 7", "\"passed\": -2"),
            "/implementations/0/summary/passed: expected a non-negative integer, found -2");
  EXPECT_EQ(ErrorAfterReplacing("\"passed\": 7", "\"passed\": 2.5"),
            "/implementations/0/summary/passed: expected a non-negative integer, found 2.5");
  EXPECT_EQ(ErrorAfterReplacing("\"outcome\": \"passed\"", "\"outcome\": \"won\""),
            "/implementations/0/cases/1/outcome: unknown outcome \"won\"");
  EXPECT_EQ(ErrorAfterReplacing("\"requirements\": [\"SP-3.4-1\"]", "\"requirements\": [1]"),
            "/implementations/0/cases/4/requirements/0: expected a string, found a number");
  EXPECT_EQ(ErrorAfterReplacing("\"rerun\": false", "\"rerun\": 0"),
            "/implementations/0/cases/0/rerun: expected a boolean, found a number");
  EXPECT_EQ(ErrorAfterReplacing("\"invalid_line\": \"reject\"", "\"invalid_line\": null"),
            "/implementations/0/formats/0/policies/invalid_line: expected a string, found null");
  EXPECT_EQ(ErrorAfterReplacing("\"jobs\": 2", "\"jobs\": 9999999999"),
            "/run/jobs: expected an integer in the range of int, found 9999999999");
  EXPECT_TRUE(ErrorAfterReplacing("\"formats\": [", "\"formats\": {").starts_with("not JSON ("));
}

// Issue #8 part 5: the reader holds a report to its schema's bounds, and to one case per
// implementation, format, id and operation, as `arcs diff` always did.
TEST(ReportModel, FromJsonHoldsRunFieldsToTheirBoundsAndCasesToOneEach) {
  EXPECT_EQ(ErrorAfterReplacing("\"seconds\": 1.25", "\"seconds\": -1"),
            "/run/seconds: must not be negative");
  EXPECT_EQ(ErrorAfterReplacing("\"jobs\": 2", "\"jobs\": 0"), "/run/jobs: must be at least 1");
  EXPECT_EQ(ErrorAfterReplacing("\"jobs\": 2", "\"jobs\": -3"), "/run/jobs: must be at least 1");
  EXPECT_EQ(ErrorAfterReplacing("\"timeout_seconds\": 10", "\"timeout_seconds\": -0.5"),
            "/run/timeout_seconds: must not be negative");
  EXPECT_EQ(ErrorAfterReplacing("\"cpu_timeout_seconds\": 0", "\"cpu_timeout_seconds\": -1"),
            "/run/cpu_timeout_seconds: must not be negative");
  // Read when present as the other times are: a number past a double's range is out of range.
  EXPECT_EQ(ErrorAfterReplacing("\"cpu_timeout_seconds\": 0", "\"cpu_timeout_seconds\": 1e999"),
            "/run/cpu_timeout_seconds: number out of range: 1e999");
  // Reports written before --timeout-cpu have no cpu_timeout_seconds: none.
  std::string old = ToJson(SampleReport());
  const std::size_t at = old.find("\"cpu_timeout_seconds\": 0,");
  ASSERT_NE(at, std::string::npos);
  old.erase(at, std::string_view("\"cpu_timeout_seconds\": 0,").size());
  Result<Report> before = FromJson(old);
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_EQ(before->run.cpu_timeout_seconds, 0);
  Report twice = SampleReport();
  twice.implementations[0].cases.push_back(twice.implementations[0].cases[0]);
  Result<Report> read = FromJson(ToJson(twice));
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            "/implementations: case spool-11.1-minimal (validate) appears twice for "
            "arcs-reference/spool");
}

// `arcs report DIR` said "not JSON"; `arcs report /dev/zero` grew until std::bad_alloc.
TEST(ReportModel, ReadReportFileNamesDirectoriesAndStopsAtItsBound) {
  const std::string dir = ::testing::TempDir();
  Result<Report> read = ReadReportFile(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(read.status().message().ends_with(": is a directory")) << read.status().message();
  read = ReadReportFile("/dev/zero");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kLimitExceeded);
  EXPECT_EQ(read.status().message(),
            "/dev/zero: larger than " + std::to_string(kMaxReportBytes) + " bytes, the most read");
}

TEST(ReportModel, FromJsonRejectsUnknownMissingAndDuplicateMembers) {
  EXPECT_EQ(ErrorAfterReplacing("\"rules\": \"agree\"", "\"rules\": \"agree\", \"extra\": 1"),
            "/implementations/0/cases/5/extra: unknown member");
  EXPECT_EQ(ErrorAfterReplacing("\"complete\": false,", ""), "/complete: missing");
  EXPECT_EQ(ErrorAfterReplacing("\"complete\": false,", "\"complete\": false, \"complete\": true,"),
            "member name repeated at /complete");
  EXPECT_EQ(ErrorAfterReplacing("\"total\": 8\n", "\"total\": 8, \"total~/x\": 1\n"),
            "/implementations/0/summary/total~0~1x: unknown member");
}

TEST(ReportModel, FromJsonRefusesUnknownGroundsStrictValuesAndBadCounts) {
  EXPECT_EQ(ErrorAfterReplacing("\"ground\": \"required\"", "\"ground\": \"normative\""),
            "/implementations/0/cases/4/ground: unknown ground \"normative\"");
  EXPECT_EQ(ErrorAfterReplacing("\"ground\": \"policy\"", "\"ground\": null"),
            "/implementations/0/cases/0/ground: expected a string, found null");
  EXPECT_EQ(ErrorAfterReplacing("\"strict\": \"passed\"", "\"strict\": \"not_judged\""),
            "/implementations/0/cases/0/strict: unknown strict value \"not_judged\"");
  EXPECT_EQ(ErrorAfterReplacing("\"strict\": \"passed\"", "\"strict\": true"),
            "/implementations/0/cases/0/strict: expected a string, found a boolean");
  EXPECT_EQ(ErrorAfterReplacing("\"readings\": [\"rfc3339\"]", "\"readings\": \"rfc3339\""),
            "/implementations/0/formats/0/flags/0/readings: expected an array, found a string");
  EXPECT_EQ(ErrorAfterReplacing("\"readings\": [\"iso8601\"]", "\"readings\": [null]"),
            "/implementations/1/cases/3/readings/0: expected a string, found null");
  EXPECT_EQ(ErrorAfterReplacing("\"peak_rss_bytes\": 12582912", "\"peak_rss_bytes\": -1"),
            "/implementations/0/cases/7/peak_rss_bytes: expected a non-negative integer, found -1");
  EXPECT_EQ(
      ErrorAfterReplacing("\"rfc3339\": 2", "\"rfc3339\": \"2\""),
      "/implementations/0/formats/0/flags/0/taken/rfc3339: expected a number, found a string");
  EXPECT_EQ(ErrorAfterReplacing("\"rfc3339\": 2", "\"rfc3339\": 1e3"),
            "/implementations/0/formats/0/flags/0/taken/rfc3339: expected a non-negative integer, "
            "found 1e3");
  EXPECT_EQ(ErrorAfterReplacing("\"consistent\": true", "\"consistent\": \"yes\""),
            "/implementations/0/formats/0/flags/0/consistent: expected a boolean, found a string");
  EXPECT_EQ(ErrorAfterReplacing("\"not_judged\": 1\n", "\"not_judged\": 1, \"judged\": 7\n"),
            "/implementations/0/formats/0/strict/judged: unknown member");
  EXPECT_TRUE(ErrorAfterReplacing("\"flags\": [", "\"flags\": {").starts_with("not JSON ("));
}

TEST(ReportModel, FromJsonRejectsOtherVersionsAndShapes) {
  Result<Report> r = FromJson("{\"report_version\": 1, \"anything\": []}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(r.status().message(), "/report_version: 1 is not supported (this build reads version " +
                                      std::to_string(kReportVersion) + ")");
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
  EXPECT_EQ(impl.summary, (Counts{4, 2, 2, 1, 0, 9}));
  const FormatSummary& spool = impl.formats[0];
  EXPECT_EQ(spool.counts, (Counts{4, 1, 2, 1, 0, 8}));
  EXPECT_EQ(spool.operations[0].operation, "validate");
  EXPECT_EQ(spool.operations[0].counts, (Counts{4, 1, 2, 0, 0, 7}));
  EXPECT_EQ(spool.operations[0].by_level.at("MUST"), (Counts{2, 1, 1, 0, 0, 4}));
  EXPECT_EQ(spool.operations[0].by_level.at("SHOULD"), (Counts{2, 0, 1, 0, 0, 3}));
  EXPECT_EQ(spool.operations[1].counts, (Counts{0, 0, 0, 1, 0, 1}));
  EXPECT_EQ(impl.formats[1].counts, (Counts{0, 1, 0, 0, 0, 1}));
}

TEST(ReportModel, RecountDerivesFlagsAndTheStrictProfile) {
  ImplementationReport impl = SampleReport().implementations[1];
  impl.formats[0].flags = {FlagSummary{"SP-E99", 7, {"stale"}, false, {{"stale", 7}}}};
  impl.formats[0].strict = {};
  Recount(&impl);
  const FormatSummary& spool = impl.formats[0];
  ASSERT_EQ(spool.flags.size(), 3u);
  // Sorted by flag, bytewise: "SP-E1" < "SP-E5" < "SP-E<".
  EXPECT_EQ(
      spool.flags[0],
      (FlagSummary{"SP-E14", 2, {}, false, {{"iso8601", 1}, {"rfc3339", 1}}}));  // two readings
  EXPECT_EQ(spool.flags[1], (FlagSummary{"SP-E5", 0, {}, true, {}}));  // crashed: not answered
  EXPECT_EQ(spool.flags[2], (FlagSummary{"SP-E</script><script>alert(3)</script>",
                                         1,
                                         {},
                                         false,
                                         {}}));  // answered, fitting no reading
  EXPECT_EQ(spool.strict, (StrictCounts{2, 2, 4}));
  EXPECT_EQ(impl.formats[1].flags, std::vector<FlagSummary>{});
  EXPECT_EQ(impl.formats[1].strict, (StrictCounts{0, 1, 0}));

  const Report sample = SampleReport();
  const FormatSummary& reference = sample.implementations[0].formats[0];
  ASSERT_EQ(reference.flags.size(), 2u);
  EXPECT_EQ(reference.flags[0], (FlagSummary{"SP-E14", 2, {"rfc3339"}, true, {{"rfc3339", 2}}}));
  // One case fitting two readings: both fit every case.
  EXPECT_EQ(reference.flags[1], (FlagSummary{"SP-E5",
                                             1,
                                             {"any-line-end", "lf-or-crlf"},
                                             true,
                                             {{"any-line-end", 1}, {"lf-or-crlf", 1}}}));
  EXPECT_EQ(reference.strict, (StrictCounts{7, 0, 1}));
}

TEST(ReportModel, AFlagIsConsistentWhenOneReadingFitsEveryAnsweredCase) {
  ImplementationReport impl;
  impl.formats.emplace_back().format = "spool";
  auto add = [&impl](std::string id, Outcome outcome, std::vector<std::string> readings) {
    CaseResult c;
    c.id = std::move(id);
    c.format = "spool";
    c.outcome = outcome;
    c.ground = Ground::kAcceptable;
    c.flag = "SP-E14";
    c.readings = std::move(readings);
    impl.cases.push_back(std::move(c));
  };
  add("a", Outcome::kPassed, {"a", "b"});
  add("b", Outcome::kPassed, {"b", "c"});
  add("c", Outcome::kErrored, {});  // not answered: neither counted nor breaking consistency
  SummarizeReadings(&impl);
  EXPECT_EQ(impl.formats[0].flags,
            (std::vector<FlagSummary>{{"SP-E14", 2, {"b"}, true, {{"a", 1}, {"b", 2}, {"c", 1}}}}));
  // An answer that fits no reading leaves no reading fitting every case.
  add("d", Outcome::kFailed, {});
  SummarizeReadings(&impl);
  EXPECT_EQ(impl.formats[0].flags,
            (std::vector<FlagSummary>{{"SP-E14", 3, {}, false, {{"a", 1}, {"b", 2}, {"c", 1}}}}));
  // A case of another format, or another ground, does not count.
  impl.cases.back().format = "lightbox";
  impl.cases.back().ground = Ground::kPolicy;
  SummarizeReadings(&impl);
  EXPECT_TRUE(impl.formats[0].flags[0].consistent);
  EXPECT_EQ(impl.formats[0].strict, (StrictCounts{0, 0, 3}));
}

// What an implementation says at its most expensive: text of control characters (six bytes
// each in the JSON), many findings and outputs with long names.
CaseResult FloodedCase() {
  const std::string flood(64 << 10, '\x01');
  CaseResult c;
  c.id = "spool-flood";
  c.format = "spool";
  c.operation = "roundtrip";
  c.level = "MUST";
  c.outcome = Outcome::kFailed;
  c.requirements = {"SP-1-1", "SP-1-2"};
  c.expected = flood;
  c.actual = flood;
  c.message = flood;
  c.policy = flood;
  Evidence& e = c.evidence.emplace();
  e.vector = "vectors/spool/manifest.json";
  e.spec_text = flood;
  e.inputs = {MakeBlob("file", flood)};
  const std::string message = flood.substr(0, 5000);
  for (int i = 0; i < 1000; ++i) {
    e.findings.push_back({flood.substr(0, 300), "error", 1, message, flood.substr(0, 300)});
    e.reference_findings.push_back({flood.substr(0, 300), "error", 1, message});
  }
  e.findings_total = 1000;
  e.reference_findings_total = 1000;
  for (int i = 0; i < 200; ++i) {
    e.outputs.push_back(MakeBlob(flood.substr(0, 1000) + std::to_string(i), flood));
  }
  e.reference_outputs = {MakeBlob("file", std::string(5000, '"'))};
  return c;
}

Report OneImplementation(std::vector<CaseResult> cases) {
  Report r;
  ImplementationReport& impl = r.implementations.emplace_back();
  impl.name = "flood";
  impl.cases = std::move(cases);
  return r;
}

// The JSON bytes the cases take in a report.
std::size_t CasesJsonBytes(const std::vector<CaseResult>& cases) {
  return ToJson(OneImplementation(cases)).size() - ToJson(OneImplementation({})).size();
}

TEST(ReportBounds, CutTextHoldsTheJsonOfATextToItsBound) {
  EXPECT_EQ(CutText("plain", 100), "plain");
  const std::string cut = CutText(std::string(1000, '\x01'), 100);
  std::string quoted;
  json::AppendQuoted(cut, &quoted);
  EXPECT_LE(quoted.size(), 102u);
  EXPECT_TRUE(cut.ends_with("\u2026"));
  // Never inside a character; invalid UTF-8 repaired as the report writes it.
  EXPECT_EQ(CutText(std::string(96, 'x') + "\u00e9\u00e9\u00e9", 100),
            std::string(96, 'x') + "\u2026");
  EXPECT_EQ(CutText("a\xff", 100), "a\uFFFD");
}

TEST(ReportBounds, ACaseTakesAtMostItsBoundWhateverTheImplementationSaid) {
  CaseResult c = FloodedCase();
  BoundCase(&c);
  EXPECT_LE(CasesJsonBytes({c}), kMaxCaseJsonBytes);
  EXPECT_TRUE(c.message.starts_with("report cut: 192 of 200 outputs not kept")) << c.message;
  EXPECT_TRUE(c.actual.ends_with("\u2026"));
  ASSERT_TRUE(c.evidence);
  EXPECT_EQ(c.evidence->findings_total, 1000u);
  EXPECT_LT(c.evidence->findings.size(), 50u);
  EXPECT_EQ(c.evidence->reference_findings_total, 1000u);
  EXPECT_LT(c.evidence->reference_findings.size(), c.evidence->findings.size());
  EXPECT_EQ(c.evidence->outputs.size(), kMaxEvidenceBlobs);
  EXPECT_TRUE(c.evidence->outputs[0].truncated);
  EXPECT_EQ(c.evidence->outputs[0].size, 64u << 10);
  // A case within every bound is kept as it is.
  Report sample = SampleReport();
  for (const CaseResult& kept : sample.implementations[0].cases) {
    CaseResult bounded = kept;
    BoundCase(&bounded);
    EXPECT_EQ(bounded, kept) << kept.id;
  }
}

// The implementation's own findings are what the case is judged on: the reference's, shown beside
// them, are shed first.
TEST(ReportBounds, TheReferencesFindingsAreShedBeforeTheImplementations) {
  CaseResult c;
  c.id = "spool-many-findings";
  c.outcome = Outcome::kFailed;
  Evidence& e = c.evidence.emplace();
  for (std::size_t i = 0; i < kMaxEvidenceFindings; ++i) {
    e.findings.push_back({"SP-1-1", "error", i + 1, std::string(200, 'i'), "/a"});
    e.reference_findings.push_back({"SP-1-1", "error", i + 1, std::string(500, 'r'), "/a"});
  }
  BoundCase(&c);
  EXPECT_LE(CasesJsonBytes({c}), kMaxCaseJsonBytes);
  EXPECT_EQ(e.findings.size(), kMaxEvidenceFindings);
  EXPECT_GT(e.reference_findings.size(), 0u);
  EXPECT_LT(e.reference_findings.size(), kMaxEvidenceFindings);
}

TEST(ReportBounds, AnImplementationTakesAtMostItsBoundBesidesItsCases) {
  Report r = OneImplementation({});
  ImplementationReport& impl = r.implementations[0];
  const std::string flood(64 << 10, '\x02');
  impl.name = impl.version = impl.language = impl.homepage = impl.command = flood;
  impl.stderr_tail = std::string(1 << 20, '\x02') + "the end";
  FormatSummary& f = impl.formats.emplace_back();
  f.format = "spool";
  for (int i = 0; i < 1000; ++i) f.policies[std::to_string(i) + flood] = flood;
  f.missing.assign(1000, flood);
  BoundImplementation(&impl);
  EXPECT_LE(ToJson(r).size() - ToJson(Report()).size(), kMaxImplementationJsonBytes);
  EXPECT_TRUE(impl.stderr_tail.starts_with("\u2026"));
  EXPECT_TRUE(impl.stderr_tail.ends_with("the end"));
  EXPECT_EQ(f.policies.size(), kMaxPolicies);
  EXPECT_EQ(f.missing.back(), "\u2026");
}

// Every report `arcs run` can write is read: two verbose implementations wrote 78.5 MB, which
// `arcs report` and `arcs diff` refused (over 64 MiB).
TEST(ReportBounds, TheReaderReadsAReportOfBoundedCasesPastTheOldLimit) {
  CaseResult bounded = FloodedCase();
  BoundCase(&bounded);
  std::vector<CaseResult> cases(2200, bounded);
  for (std::size_t i = 0; i < cases.size(); ++i) cases[i].id = "spool-flood-" + std::to_string(i);
  const std::string json = ToJson(OneImplementation(std::move(cases)));
  ASSERT_GT(json.size(), std::size_t{64} << 20);
  const std::string path = ::testing::TempDir() + "/bounded_report.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << json;
  }
  Result<Report> read = ReadReportFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->implementations[0].cases.size(), 2200u);
}

}  // namespace
TEST(ReportEvidence, BlobsKeepTextAsTextAndBinaryAsHex) {
  Blob text = MakeBlob("file", "{\"a\":1}\n");
  EXPECT_EQ(text.encoding, "text");
  EXPECT_EQ(text.content, "{\"a\":1}\n");
  EXPECT_EQ(text.size, 8u);
  EXPECT_FALSE(text.truncated);
  Blob binary = MakeBlob("file", std::string_view("a\x00\xff", 3));
  EXPECT_EQ(binary.encoding, "hex");
  EXPECT_EQ(binary.content, "6100ff");
  EXPECT_EQ(binary.size, 3u);
}

TEST(ReportEvidence, LongBlobsAreCutWithTheirSizeKeptAndNoCharacterSplit) {
  // "é" is two bytes: the bound falls inside the last one.
  std::string text = std::string(kMaxEvidenceBytes - 1, 'x') + "\xC3\xA9 and more";
  Blob cut = MakeBlob("file", text);
  EXPECT_EQ(cut.encoding, "text");
  EXPECT_TRUE(cut.truncated);
  EXPECT_EQ(cut.size, text.size());
  EXPECT_EQ(cut.content, std::string(kMaxEvidenceBytes - 1, 'x'));
  // A whole character just before the bound is kept.
  text = std::string(kMaxEvidenceBytes - 2, 'x') + "\xC3\xA9 and more";
  EXPECT_EQ(MakeBlob("file", text).content, std::string(kMaxEvidenceBytes - 2, 'x') + "\xC3\xA9");
  Blob hex = MakeBlob("file", std::string(kMaxEvidenceBytes + 10, '\xff'));
  EXPECT_EQ(hex.encoding, "hex");
  EXPECT_TRUE(hex.truncated);
  EXPECT_EQ(hex.content.size(), 2 * kMaxEvidenceBytes);
}

TEST(ReportEvidence, FromJsonReadsEvidenceAndRefusesItsBreakages) {
  const std::string json = ToJson(testing::SampleReport());
  Result<Report> back = FromJson(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  std::size_t with_evidence = 0;
  for (const ImplementationReport& impl : back->implementations) {
    for (const CaseResult& c : impl.cases) with_evidence += c.evidence.has_value();
  }
  EXPECT_GT(with_evidence, 0u);
  EXPECT_FALSE(back->requirements.empty());
  EXPECT_EQ(ErrorAfterReplacing("\"encoding\": \"hex\"", "\"encoding\": \"base64\""),
            "/implementations/1/cases/0/evidence/inputs/1/encoding: expected \"text\" or \"hex\"");
  EXPECT_EQ(ErrorAfterReplacing("\"evidence\": null", "\"evidence\": 1"),
            "/implementations/0/cases/1/evidence: expected an object or null");
  EXPECT_EQ(ErrorAfterReplacing("\"evidence\": null", "\"proof\": null"),
            "/implementations/0/cases/1/evidence: missing member (null when there is no evidence)");
  EXPECT_EQ(ErrorAfterReplacing("\"seconds\": 0.125", "\"seconds\": -1"),
            "/implementations/0/cases/0/seconds: must not be negative");
  EXPECT_EQ(
      ErrorAfterReplacing("\"requirements\": [\n    {", "\"requirements\": [\n    {\"x\": 1,"),
      "/requirements/0/x: unknown member");
  EXPECT_EQ(
      ErrorAfterReplacing("\"reference_findings_total\": 2", "\"reference_findings_total\": -2"),
      "/implementations/0/cases/0/evidence/reference_findings_total: expected a non-negative "
      "integer, found -2");
}

// Reports written before the evidence kept the case's files, the findings' pointers and the
// reference's own answer lack those members: they read as none.
TEST(ReportEvidence, OlderEvidenceWithoutFilesPointersOrTheReferencesAnswerIsRead) {
  const Report sample = testing::SampleReport();
  std::string text = ToJson(sample);
  const std::string with_them = text;
  for (const char* member : {"pointer", "reference_verdict", "reference_findings_total"}) {
    text =
        std::regex_replace(text, std::regex(",\\s*\"" + std::string(member) + "\": [^,\\n]*"), "");
  }
  text = std::regex_replace(text, std::regex(",\\s*\"files\": \\[[^\\]]*\\]"), "");
  // An array of objects: up to its closing bracket at the members' indentation.
  text = std::regex_replace(
      text, std::regex(",\\s*\"reference_findings\": \\[(\\]|[\\s\\S]*?\\n {12}\\])"), "");
  ASSERT_NE(text, with_them);
  for (const char* member : {"\"pointer\"", "\"files\"", "\"reference_"}) {
    ASSERT_EQ(text.find(std::string(member) + ":"), std::string::npos) << member;
  }
  Result<Report> old = FromJson(text);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  Report expected = sample;
  for (ImplementationReport& impl : expected.implementations) {
    for (CaseResult& c : impl.cases) {
      if (!c.evidence) continue;
      Evidence& e = *c.evidence;
      e.files.clear();
      e.reference_verdict.clear();
      e.reference_findings.clear();
      e.reference_findings_total = 0;
      for (FindingEvidence& f : e.findings) f.pointer.clear();
    }
  }
  EXPECT_TRUE(*old == expected);
}

}  // namespace arcs::report
