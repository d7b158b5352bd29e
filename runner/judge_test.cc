#include "runner/judge.h"

#include <gtest/gtest.h>

#include "reference/core/json.h"

namespace arcs::runner {
namespace {

constexpr char kSession[] =
    R"({"id":"00000000-0000-4000-8000-000000000000","ts":0,"type":"session","version":"1.0",)"
    R"("agent":"test","recorded_at":"2025-01-01T00:00:00Z"})";
constexpr char kPrompt[] =
    R"({"id":"00000000-0000-4000-8000-000000000001","ts":10,"type":"prompt","content":"hi",)"
    R"("x_n":1.0})";

bool Same(const char* a, const char* b) {
  json::Document x, y;
  EXPECT_TRUE(x.Parse(a)) << a;
  EXPECT_TRUE(y.Parse(b)) << b;
  return SameData(x.root(), y.root());
}

TEST(SameData, ComparesDataNotSpelling) {
  EXPECT_TRUE(Same(R"({"a":1,"b":[true,null]})", R"({"b":[true,null],"a":1.0})"));
  EXPECT_TRUE(Same(R"({"s":"\u00e9"})", "{\"s\":\"\xC3\xA9\"}"));
  EXPECT_TRUE(Same(R"({"a":1,"a":2})", R"({"a":1,"a":2})"));
  EXPECT_FALSE(Same(R"({"a":1,"a":2})", R"({"a":2})"));  // a lost duplicate is lost data
  EXPECT_FALSE(Same(R"({"a":1,"a":2})", R"({"a":2,"a":1})"));
  EXPECT_FALSE(Same(R"([1,2])", R"([2,1])"));
  EXPECT_FALSE(Same(R"({"a":1})", R"({"a":"1"})"));
  EXPECT_FALSE(Same(R"({"a":9007199254740993})", R"({"a":9007199254740992})"));
  EXPECT_FALSE(Same(R"({"a":true})", R"({"a":false})"));
  EXPECT_FALSE(Same(R"({"a":{}})", R"({"a":{},"b":{}})"));
}

class JudgeTest : public ::testing::Test {
 protected:
  SuiteCase Case(const std::string& operation, std::string input) {
    SuiteCase c;
    c.vector = &vector_;
    c.format = "spool";
    c.operation = operation;
    c.level = "MUST";
    c.request_id = vector_.id + "/" + operation;
    c.input = std::move(input);
    return c;
  }
  protocol::Answer Ok(protocol::Verdict verdict, std::optional<std::string> output = {}) {
    protocol::Answer a;
    a.id = "x";
    a.verdict = verdict;
    a.output = std::move(output);
    return a;
  }
  void SetUp() override { vector_.id = "spool-test"; }
  conformance::VectorCase vector_;
  protocol::FormatSupport declared_;
};

TEST_F(JudgeTest, ValidateComparesTheVerdict) {
  vector_.expect_valid = false;
  vector_.expected_errors = {"SP-3.4-1"};
  SuiteCase c = Case("validate", "");
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).outcome, report::Outcome::kPassed);
  Judgement wrong = Judge(c, Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(wrong.outcome, report::Outcome::kFailed);
  EXPECT_EQ(wrong.expected, "invalid (errors: SP-3.4-1)");
  EXPECT_EQ(wrong.actual, "valid");
}

TEST_F(JudgeTest, ValidateRulesAreInformative) {
  vector_.expect_valid = false;
  vector_.expected_errors = {"SP-3.4-1"};
  protocol::Answer a = Ok(protocol::Verdict::kInvalid);
  a.findings_given = true;
  a.findings = {{"SP-9.9-9", "error", 1, "", ""}};
  Judgement j = Judge(Case("validate", ""), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kPassed);
  EXPECT_EQ(j.rules, "differ");
  a.findings[0].rule = "SP-3.4-1";
  EXPECT_EQ(Judge(Case("validate", ""), a, declared_).rules, "agree");
}

TEST_F(JudgeTest, SkippedAndErroredAnswers) {
  protocol::Answer a;
  a.status = protocol::AnswerStatus::kSkipped;
  a.reason = "no limits";
  Judgement j = Judge(Case("validate", ""), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kSkipped);
  EXPECT_EQ(j.message, "no limits");
  a.status = protocol::AnswerStatus::kErrored;
  j = Judge(Case("validate", ""), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kErrored);
  EXPECT_EQ(j.error_kind, "implementation");
}

TEST_F(JudgeTest, RoundtripAcceptsTheSameEntriesInAnySpelling) {
  vector_.read_result = "accept";
  std::string input = "\xEF\xBB\xBF" + std::string(kSession) + "\r\n\n" + kPrompt + "\r\n";
  // Members reordered and 1.0 written as 1: the same data.
  std::string output = std::string(kSession) + "\n" +
                       R"({"x_n":1,"id":"00000000-0000-4000-8000-000000000001","ts":10,)"
                       R"("type":"prompt","content":"hi"})"
                       "\n";
  EXPECT_EQ(
      Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, output), declared_).outcome,
      report::Outcome::kPassed);
}

TEST_F(JudgeTest, RoundtripFailures) {
  vector_.read_result = "accept";
  std::string input = std::string(kSession) + "\n" + kPrompt + "\n";
  struct Bad {
    std::string output;
    const char* problem;
  } cases[] = {
      {std::string(kSession) + "\n", "the entry on input line 2 is missing"},
      {"\xEF\xBB\xBF" + input, "BOM"},
      {std::string(kSession) + "\r\n" + kPrompt + "\r\n", "CR"},
      {std::string(kSession) + "\n" + kPrompt, "no \\n"},
      {input + kPrompt + "\n", "output line 3 is not an entry of the input"},
      {std::string(kSession) + "\n" +
           R"({"id":"00000000-0000-4000-8000-000000000001"})"
           "\n",
       "output line 2 differs from the entry on input line 2"},
      {std::string(kSession) + "\nnot json\n", "output line 2 is not a JSON object"},
  };
  for (const Bad& b : cases) {
    Judgement j =
        Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, b.output), declared_);
    EXPECT_EQ(j.outcome, report::Outcome::kFailed) << b.output;
    EXPECT_NE(j.message.find(b.problem), std::string::npos) << j.message;
  }
  Judgement no_output = Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(no_output.actual, "no output");
  EXPECT_EQ(Judge(Case("roundtrip", input), Ok(protocol::Verdict::kInvalid), declared_).actual,
            "reject");
}

TEST_F(JudgeTest, ImplementationDefinedCasesFollowTheDeclaredPolicy) {
  vector_.read_result = "implementation-defined";
  vector_.read_policy = "invalid_line";
  vector_.read_outcomes = {{"reject", "reject"}, {"skip", "accept"}};
  std::string input = std::string(kSession) + "\nnot json\n" + kPrompt + "\n";
  std::string skipped = std::string(kSession) + "\n" + kPrompt + "\n";
  SuiteCase c = Case("roundtrip", input);

  Judgement undeclared = Judge(c, Ok(protocol::Verdict::kInvalid), declared_);
  EXPECT_EQ(undeclared.outcome, report::Outcome::kFailed);
  EXPECT_NE(undeclared.message.find("declares no choice for policy invalid_line"),
            std::string::npos);

  declared_.policies["invalid_line"] = "reject";
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).outcome, report::Outcome::kPassed);
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kValid, skipped), declared_).expected,
            "reject (invalid_line=reject)");

  declared_.policies["invalid_line"] = "skip";
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kValid, skipped), declared_).outcome,
            report::Outcome::kPassed);
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).outcome, report::Outcome::kFailed);

  declared_.policies["invalid_line"] = "ignore";
  EXPECT_NE(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).message.find("not one"),
            std::string::npos);
}

TEST_F(JudgeTest, SkippingInvalidEntriesMayDropOnlyThem) {
  vector_.read_result = "implementation-defined";
  vector_.read_policy = "invalid_entry";
  vector_.read_outcomes = {{"keep", "accept"}, {"reject", "reject"}, {"skip", "accept"}};
  // The prompt lacks its required content (an entry rule).
  std::string bad_prompt =
      R"({"id":"00000000-0000-4000-8000-000000000001","ts":10,"type":"prompt"})";
  std::string input = std::string(kSession) + "\n" + bad_prompt + "\n";
  SuiteCase c = Case("roundtrip", input);
  declared_.policies["invalid_entry"] = "skip";
  EXPECT_EQ(
      Judge(c, Ok(protocol::Verdict::kValid, std::string(kSession) + "\n"), declared_).outcome,
      report::Outcome::kPassed);
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kValid, input), declared_).outcome,
            report::Outcome::kPassed);
  declared_.policies["invalid_entry"] = "keep";
  EXPECT_EQ(
      Judge(c, Ok(protocol::Verdict::kValid, std::string(kSession) + "\n"), declared_).outcome,
      report::Outcome::kFailed);
}

}  // namespace
}  // namespace arcs::runner
