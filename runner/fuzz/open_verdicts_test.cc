#include "runner/fuzz/open_verdicts.h"

#include <gtest/gtest.h>

namespace arcs::fuzz {
namespace {

using conformance::Ground;

conformance::OperationCase Case(Ground ground, std::vector<std::string> requirements,
                                std::vector<std::string> reported, std::string policy = "") {
  conformance::OperationCase op;
  op.operation = "validate";
  op.requirements = std::move(requirements);
  op.rules.given = true;
  op.rules.errors = std::move(reported);
  op.expect.ground = ground;
  op.expect.policy = std::move(policy);
  return op;
}

// A format with one policy (the reference rejects duplicates) and validate cases: a required one
// reporting R-1, an acceptable one citing A-1 and reporting A-2, a policy case citing P-1 and
// reporting P-2; and a roundtrip case citing L-1.
class OpenVerdictsTest : public ::testing::Test {
 protected:
  OpenVerdictsTest() {
    format_.policies = {{"duplicates", {"reject", "accept"}, "reject", "x.md §1"}};
    conformance::VectorCase c;
    c.operations = {Case(Ground::kRequired, {"R-0"}, {"R-1"}),
                    Case(Ground::kAcceptable, {"A-1"}, {"A-2"}),
                    Case(Ground::kPolicy, {"P-1"}, {"P-2"}, "duplicates")};
    // A roundtrip case cites loosely: its requirements open nothing.
    conformance::OperationCase roundtrip = Case(Ground::kAcceptable, {"L-1"}, {});
    roundtrip.operation = "roundtrip";
    roundtrip.rules.given = false;
    c.operations.push_back(roundtrip);
    manifest_.cases = {c};
  }
  OpenVerdicts For(std::map<std::string, std::string> declared) const {
    return OpenVerdicts(format_, manifest_, declared);
  }
  static protocol::Answer Rejecting(std::vector<std::pair<std::string, std::string>> findings) {
    protocol::Answer a;
    a.verdict = protocol::Verdict::kInvalid;
    for (auto& [rule, severity] : findings) a.findings.push_back({rule, severity, 0, "", ""});
    return a;
  }
  conformance::FormatModule format_;
  conformance::Manifest manifest_;
};

TEST_F(OpenVerdictsTest, ARuleOnlyRequiredCasesReportIsAFinding) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  EXPECT_EQ(open.Reason(Rejecting({{"R-1", "error"}}), true, false), "");
  EXPECT_EQ(open.Reason(Rejecting({{"R-1", "error"}}), false, true), "");
  // One rule outside the open ones is enough, even beside an open one.
  EXPECT_EQ(open.Reason(Rejecting({{"A-2", "error"}, {"R-1", ""}}), true, false), "");
}

TEST_F(OpenVerdictsTest, RulesOfAcceptableCasesAreOpen) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  EXPECT_NE(open.Reason(Rejecting({{"A-2", "error"}}), true, false), "");
  // Warnings and notes do not explain a rejection.
  EXPECT_NE(open.Reason(Rejecting({{"A-2", "error"}, {"R-1", "warning"}}), true, false), "");
}

TEST_F(OpenVerdictsTest, TheReferenceIsHeldToTheRulesItReportsAnImplementationToThoseCited) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  EXPECT_EQ(open.Reason(Rejecting({{"A-1", "error"}}), true, false), "");
  EXPECT_NE(open.Reason(Rejecting({{"A-1", "error"}}), false, false), "");
  EXPECT_EQ(open.Reason(Rejecting({{"L-1", "error"}}), false, false), "");
}

TEST_F(OpenVerdictsTest, PolicyRulesAreOpenOnlyWhenThePolicyIsTakenOtherwise) {
  EXPECT_EQ(For({{"duplicates", "reject"}}).Reason(Rejecting({{"P-2", "error"}}), true, false), "");
  EXPECT_NE(For({{"duplicates", "accept"}}).Reason(Rejecting({{"P-2", "error"}}), true, false), "");
  // A policy not declared is not the reference's choice either.
  EXPECT_NE(For({}).Reason(Rejecting({{"P-1", "error"}}), false, false), "");
}

TEST_F(OpenVerdictsTest, NoRuleNamedFallsBackOnTheOriginAndThePolicies) {
  const OpenVerdicts same = For({{"duplicates", "reject"}});
  EXPECT_EQ(same.Reason(Rejecting({}), false, false), "");
  EXPECT_NE(same.Reason(Rejecting({}), false, true), "");
  EXPECT_NE(For({{"duplicates", "accept"}}).Reason(Rejecting({}), false, false), "");
}

TEST(ErrorRules, ErrorsAndFindingsWithoutSeverity) {
  protocol::Answer a;
  a.findings = {{"E", "error", 0, "", ""},
                {"U", "", 0, "", ""},
                {"W", "warning", 0, "", ""},
                {"N", "note", 0, "", ""},
                {"E", "error", 3, "", ""}};
  EXPECT_EQ(ErrorRules(a), (std::set<std::string>{"E", "U"}));
}

}  // namespace
}  // namespace arcs::fuzz
