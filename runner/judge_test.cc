#include "runner/judge.h"

#include <gtest/gtest.h>

#include <memory>

#include "conformance/registry.h"
#include "reference/core/json.h"

namespace arcs::runner {
namespace {

constexpr char kSession[] =
    R"({"id":"00000000-0000-4000-8000-000000000000","ts":0,"type":"session","version":"1.0",)"
    R"("agent":"test","recorded_at":"2025-01-01T00:00:00Z"})";
constexpr char kPrompt[] =
    R"({"id":"00000000-0000-4000-8000-000000000001","ts":10,"type":"prompt","content":"hi",)"
    R"("x_n":1.0})";

class JudgeTest : public ::testing::Test {
 protected:
  SuiteCase Case(const std::string& operation, std::string input) {
    SuiteCase c;
    c.format = conformance::FindFormat("spool");
    c.vector = &vector_;
    c.expectation = &expectation_;
    expectation_.operation = operation;
    c.operation = operation;
    c.level = "MUST";
    c.request_id = vector_.id + "/" + operation;
    c.inputs = std::make_shared<const std::map<std::string, std::string>>(
        std::map<std::string, std::string>{{"file", std::move(input)}});
    return c;
  }
  protocol::Answer Ok(protocol::Verdict verdict, std::optional<std::string> output = {}) {
    protocol::Answer a;
    a.id = "x";
    a.verdict = verdict;
    if (output) a.outputs["file"] = std::move(*output);
    return a;
  }
  void Require(std::string outcome) {
    expectation_.expect = {};
    expectation_.expect.outcome = std::move(outcome);
  }
  void Policy(std::string policy, std::map<std::string, std::string> outcomes) {
    expectation_.expect = {};
    expectation_.expect.ground = conformance::Ground::kPolicy;
    expectation_.expect.policy = std::move(policy);
    expectation_.expect.outcomes = std::move(outcomes);
  }
  void SetUp() override {
    vector_.id = "spool-test";
    vector_.limits = conformance::FindFormat("spool")->DefaultLimits();
  }
  conformance::VectorCase vector_;
  conformance::OperationCase expectation_;
  protocol::FormatSupport declared_;
};

TEST_F(JudgeTest, ARequiredOutcomeIsCompared) {
  Require("invalid");
  SuiteCase c = Case("validate", "");
  report::CaseResult right = Judge(c, Ok(protocol::Verdict::kInvalid), declared_);
  EXPECT_EQ(right.outcome, report::Outcome::kPassed);
  EXPECT_EQ(right.ground, report::Ground::kRequired);
  EXPECT_EQ(right.strict, report::Strict::kPassed);
  report::CaseResult wrong = Judge(c, Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(wrong.outcome, report::Outcome::kFailed);
  EXPECT_EQ(wrong.expected, "invalid");
  EXPECT_EQ(wrong.actual, "valid");
  EXPECT_EQ(wrong.strict, report::Strict::kFailed);
  EXPECT_EQ(wrong.mismatch, "accepted");
  EXPECT_EQ(right.mismatch, "");
  Require("valid");
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).mismatch, "rejected");
}

TEST_F(JudgeTest, AnyReadingOfAnAmbiguityPassesAndIsRecorded) {
  expectation_.expect.ground = conformance::Ground::kAcceptable;
  expectation_.expect.flag = "SP-E14";
  expectation_.expect.outcomes = {{"iso-8601", "valid"}, {"rfc-3339", "invalid"}};
  expectation_.expect.arcs_reading = "rfc-3339";
  SuiteCase c = Case("validate", "");
  report::CaseResult lenient = Judge(c, Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(lenient.outcome, report::Outcome::kPassed);
  EXPECT_EQ(lenient.ground, report::Ground::kAcceptable);
  EXPECT_EQ(lenient.flag, "SP-E14");
  EXPECT_EQ(lenient.readings, std::vector<std::string>{"iso-8601"});
  EXPECT_EQ(lenient.strict, report::Strict::kFailed);  // not the reference's own reading
  report::CaseResult strict = Judge(c, Ok(protocol::Verdict::kInvalid), declared_);
  EXPECT_EQ(strict.outcome, report::Outcome::kPassed);
  EXPECT_EQ(strict.readings, std::vector<std::string>{"rfc-3339"});
  EXPECT_EQ(strict.strict, report::Strict::kPassed);
}

// SessionData's readings split by the statement policy (vectors/README.md): only the readings of
// the declared choice count, and they are reported without it.
TEST_F(JudgeTest, ReadingsSplitByAPolicyFollowTheDeclaredChoice) {
  expectation_.expect.ground = conformance::Ground::kAcceptable;
  expectation_.expect.flag = "SD-E10";
  expectation_.expect.policy = "statement";
  expectation_.expect.outcomes = {{"folding-rules", "valid"},
                                  {"folding-both", "invalid"},
                                  {"exact-rules", "invalid"},
                                  {"exact-both", "invalid"}};
  expectation_.expect.arcs_reading = "folding-both";
  SuiteCase c = Case("validate", "");
  c.format = conformance::FindFormat("session-data");  // the format whose policy is statement
  report::CaseResult undeclared = Judge(c, Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(undeclared.outcome, report::Outcome::kFailed);
  EXPECT_NE(undeclared.message.find("declares no choice for policy statement"), std::string::npos);
  EXPECT_EQ(undeclared.mismatch, "declaration");
  declared_.policies["statement"] = "rules";
  report::CaseResult rules = Judge(c, Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(rules.outcome, report::Outcome::kPassed);
  EXPECT_EQ(rules.readings, std::vector<std::string>{"folding"});
  EXPECT_EQ(rules.policy, "statement=rules");
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).readings,
            std::vector<std::string>{"exact"});
  declared_.policies["statement"] = "both";
  report::CaseResult both = Judge(c, Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(both.outcome, report::Outcome::kFailed);  // no reading of `both` finds it valid
  EXPECT_EQ(both.mismatch, "accepted");
  declared_.policies["statement"] = "schema";  // no reading under this choice: not this case's
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).outcome, report::Outcome::kFailed);
}

TEST_F(JudgeTest, AnAcceptableReadingNeverExcusesLostData) {
  expectation_.expect.ground = conformance::Ground::kAcceptable;
  expectation_.expect.flag = "SP-E8";
  expectation_.expect.outcomes = {{"keep", "accept"}, {"refuse", "reject"}};
  expectation_.expect.arcs_reading = "keep";
  std::string input = std::string(kSession) + "\n" + kPrompt + "\n";
  report::CaseResult j =
      Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, std::string(kSession) + "\n"),
            declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kFailed);
  EXPECT_NE(j.message.find("missing"), std::string::npos);
}

TEST_F(JudgeTest, AReadingThatFindsAnEntryInvalidMayDropItUnderASkipPolicy) {
  // SP-E13: ts 1.0 is an integer to ARCS; to a by-literal reader the entry is invalid, and under
  // invalid_entry=skip it goes.
  std::string prompt = R"({"id":"00000000-0000-4000-8000-000000000001","ts":1.0,)"
                       R"("type":"prompt","content":"hi"})";
  std::string input = std::string(kSession) + "\n" + prompt + "\n";
  std::string dropped = std::string(kSession) + "\n";
  declared_.policies["invalid_entry"] = "skip";
  Require("accept");
  EXPECT_EQ(
      Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, dropped), declared_).outcome,
      report::Outcome::kFailed);
  expectation_.expect.ground = conformance::Ground::kAcceptable;
  expectation_.expect.flag = "SP-E13";
  expectation_.expect.outcomes = {{"by-value", "accept"}, {"integer-literal-reject", "reject"}};
  expectation_.expect.arcs_reading = "by-value";
  EXPECT_EQ(
      Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, dropped), declared_).outcome,
      report::Outcome::kPassed);
  declared_.policies["invalid_entry"] = "keep";
  EXPECT_EQ(
      Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, dropped), declared_).outcome,
      report::Outcome::kFailed);
}

TEST_F(JudgeTest, ValidateRulesAreInformative) {
  Require("invalid");
  expectation_.rules = {true, {"SP-3.4-1"}, {}};
  protocol::Answer a = Ok(protocol::Verdict::kInvalid);
  a.findings_given = true;
  a.findings = {{"SP-9.9-9", "error", 1, "", ""}};
  report::CaseResult j = Judge(Case("validate", ""), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kPassed);
  EXPECT_EQ(j.rules, "differ");
  a.findings[0].rule = "SP-3.4-1";
  EXPECT_EQ(Judge(Case("validate", ""), a, declared_).rules, "agree");
}

TEST_F(JudgeTest, AnInvalidVerdictNamesARuleTheFileBreaks) {
  Require("invalid");
  expectation_.rules = {true, {"SP-3.4-1", "SP-4.3-1"}, {}};
  const std::string bom_only = "\xEF\xBB\xBF";
  protocol::Answer a = Ok(protocol::Verdict::kInvalid);
  a.findings_given = true;
  // SP-5.1-1 (ids are UUIDs) is a rule of the catalogue this file does not break.
  a.findings = {{"SP-5.1-1", "error", 1, "", ""}};
  report::CaseResult j = Judge(Case("validate", bom_only), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kFailed);
  EXPECT_EQ(j.mismatch, "output");
  // One rule it breaks is enough, whichever the reference names first; a warning proves nothing.
  a.findings.push_back({"SP-3.4-1", "", 1, "", ""});
  EXPECT_EQ(Judge(Case("validate", bom_only), a, declared_).outcome, report::Outcome::kPassed);
  a.findings = {{"SP-5.1-1", "error", 1, "", ""}, {"SP-3.4-1", "warning", 1, "", ""}};
  EXPECT_EQ(Judge(Case("validate", bom_only), a, declared_).outcome, report::Outcome::kFailed);
  // Ids of an implementation's own are informative; so is naming none.
  a.findings = {{"my-bom-check", "error", 1, "", ""}};
  EXPECT_EQ(Judge(Case("validate", bom_only), a, declared_).outcome, report::Outcome::kPassed);
  a.findings = {};
  EXPECT_EQ(Judge(Case("validate", bom_only), a, declared_).outcome, report::Outcome::kPassed);
}

TEST_F(JudgeTest, SkippedAndErroredAnswers) {
  protocol::Answer a;
  a.status = protocol::AnswerStatus::kSkipped;
  a.reason = "no limits";
  report::CaseResult j = Judge(Case("validate", ""), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kSkipped);
  EXPECT_EQ(j.message, "no limits");
  a.status = protocol::AnswerStatus::kErrored;
  j = Judge(Case("validate", ""), a, declared_);
  EXPECT_EQ(j.outcome, report::Outcome::kErrored);
  EXPECT_EQ(j.error_kind, "implementation");
}

TEST_F(JudgeTest, RoundtripAcceptsTheSameEntriesInAnySpelling) {
  Require("accept");
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

TEST_F(JudgeTest, RoundtripLeavesWritersTheirShouldsAndReadersTheirMays) {
  Require("accept");
  auto passes = [&](const std::string& input, const std::string& output) {
    return Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, output), declared_)
               .outcome == report::Outcome::kPassed;
  };
  std::string input = std::string(kSession) + "\n" + kPrompt + "\n";
  // §3.5: LF is a writer's SHOULD; a final line without an ending is valid.
  EXPECT_TRUE(passes(input, std::string(kSession) + "\r\n" + kPrompt + "\r\n"));
  EXPECT_TRUE(passes(input, std::string(kSession) + "\n" + kPrompt));
  // §11.4.4: a reader MAY use only the first or last entry with a given id.
  std::string twice = input + R"({"id":"00000000-0000-4000-8000-000000000001","ts":11,)"
                              R"("type":"prompt","content":"again"})"
                              "\n";
  EXPECT_TRUE(passes(twice, input));
  EXPECT_TRUE(passes(twice, twice));
  EXPECT_FALSE(passes(twice, std::string(kSession) + "\n"));  // one of them must stay
  // RFC 8259 §4: a repeated name may be read as its first or last member.
  std::string repeated = std::string(kSession) + "\n" +
                         R"({"id":"00000000-0000-4000-8000-000000000001","ts":1,"type":"x_a",)"
                         R"("x_v":1,"x_v":2})"
                         "\n";
  EXPECT_TRUE(passes(repeated, repeated));
  EXPECT_TRUE(passes(repeated, std::string(kSession) + "\n" +
                                   R"({"id":"00000000-0000-4000-8000-000000000001","ts":1,)"
                                   R"("type":"x_a","x_v":2})"
                                   "\n"));
  EXPECT_FALSE(passes(repeated, std::string(kSession) + "\n" +
                                    R"({"id":"00000000-0000-4000-8000-000000000001","ts":1,)"
                                    R"("type":"x_a","x_v":3})"
                                    "\n"));
}

TEST_F(JudgeTest, RoundtripFailures) {
  Require("accept");
  std::string input = std::string(kSession) + "\n" + kPrompt + "\n";
  struct Bad {
    std::string output;
    const char* problem;
  } cases[] = {
      {std::string(kSession) + "\n", "the entry on input line 2 is missing"},
      {"\xEF\xBB\xBF" + input, "BOM"},
      {input + kPrompt + "\n", "output line 3 is not an entry of the input"},
      {std::string(kSession) + "\n" +
           R"({"id":"00000000-0000-4000-8000-000000000001"})"
           "\n",
       "output line 2 differs from the entry on input line 2"},
      {std::string(kSession) + "\nnot json\n", "output line 2 is not a JSON object"},
  };
  for (const Bad& b : cases) {
    report::CaseResult j =
        Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid, b.output), declared_);
    EXPECT_EQ(j.outcome, report::Outcome::kFailed) << b.output;
    EXPECT_EQ(j.mismatch, "output");
    EXPECT_NE(j.message.find(b.problem), std::string::npos) << j.message;
  }
  report::CaseResult no_output =
      Judge(Case("roundtrip", input), Ok(protocol::Verdict::kValid), declared_);
  EXPECT_EQ(no_output.message, "no output \"file\"");
  EXPECT_EQ(Judge(Case("roundtrip", input), Ok(protocol::Verdict::kInvalid), declared_).actual,
            "reject");
}

TEST_F(JudgeTest, ImplementationDefinedCasesFollowTheDeclaredPolicy) {
  Policy("invalid_line", {{"reject", "reject"}, {"skip", "accept"}});
  std::string input = std::string(kSession) + "\nnot json\n" + kPrompt + "\n";
  std::string skipped = std::string(kSession) + "\n" + kPrompt + "\n";
  SuiteCase c = Case("roundtrip", input);

  report::CaseResult undeclared = Judge(c, Ok(protocol::Verdict::kInvalid), declared_);
  EXPECT_EQ(undeclared.outcome, report::Outcome::kFailed);
  EXPECT_NE(undeclared.message.find("declares no choice for policy invalid_line"),
            std::string::npos);

  declared_.policies["invalid_line"] = "reject";
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).outcome, report::Outcome::kPassed);
  EXPECT_EQ(Judge(c, Ok(protocol::Verdict::kInvalid), declared_).policy, "invalid_line=reject");
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
  Policy("invalid_entry", {{"keep", "accept"}, {"reject", "reject"}, {"skip", "accept"}});
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

// Model IO's canonical form is compared as the reference writes it, piece by piece: the same
// bytes pass; a changed byte, a byte short, a byte more or no output at all fail. The expected
// form is written here by hand (RFC 8785: members in UTF-16 order), not taken from the reference.
TEST_F(JudgeTest, AModelIoCanonicalFormMustBeTheReferencesByteForByte) {
  constexpr char kPromptHash[] =
      "sha256:481d04be4cdbb88b5984fbcbfbe428ec5ab1043cc25e5b3a3d562d2e8e5623ba";
  constexpr char kResponseHash[] =
      "sha256:71eccef905e8224cb74fcb0f8d007ab950df395637b812ca625cbe0969e23bd4";
  const std::string session =
      std::string(R"({"model_io_schema_version":"1.0.0","mode":"record","model_id":"m",)") +
      R"("interactions":[{"response_content":"response 0","i":0,"response_hash":")" +
      kResponseHash + R"(","prompt_hash":")" + kPromptHash + R"("}],"adapter_id":"a"})";
  const std::string canonical =
      std::string(R"({"adapter_id":"a","interactions":[{"i":0,"prompt_hash":")") + kPromptHash +
      R"(","response_content":"response 0","response_hash":")" + kResponseHash +
      R"("}],"mode":"record","model_id":"m","model_io_schema_version":"1.0.0"})";
  SuiteCase c = Case("canonicalize", session);
  c.format = conformance::FindFormat("model-io");
  vector_.limits = c.format->DefaultLimits();
  Require("canonicalized");
  auto judged = [&](std::optional<std::string> output) {
    protocol::Answer a = Ok(protocol::Verdict::kValid);
    if (output) a.outputs["canonical"] = std::move(*output);
    return Judge(c, a, declared_);
  };
  EXPECT_EQ(judged(canonical).outcome, report::Outcome::kPassed) << judged(canonical).message;
  std::string changed = canonical;
  changed[changed.size() / 2] ^= 1;
  for (const std::string& wrong :
       {changed, canonical.substr(0, canonical.size() - 1), canonical + " "}) {
    const report::CaseResult r = judged(wrong);
    EXPECT_EQ(r.outcome, report::Outcome::kFailed) << wrong;
    EXPECT_EQ(r.message, "the canonical differs from the reference's (" +
                             std::to_string(canonical.size()) + " bytes)");
  }
  EXPECT_EQ(judged(std::nullopt).message, "no output \"canonical\"");
}

}  // namespace
}  // namespace arcs::runner
