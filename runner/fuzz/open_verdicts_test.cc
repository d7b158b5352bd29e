#include "runner/fuzz/open_verdicts.h"

#include <gtest/gtest.h>

namespace arcs::fuzz {
namespace {

using conformance::Ground;

// A format with a limit (cited as L-1) and a policy (the reference rejects duplicates), and two
// validate cases: one whose ARCS reading accepts and another reading rejects (citing S-1), one the
// policy decides in roundtrip.
class OpenVerdictsTest : public ::testing::Test {
 protected:
  OpenVerdictsTest() {
    format_.limits = {{"max_depth", 128, "L-1", "depth"}};
    format_.refusal_readings = {{"hash", "X-E4", true, false}};
    format_.policies = {{"duplicates", {"reject", "accept"}, "reject", "x.md §1"}};
    conformance::OperationCase lenient;
    lenient.operation = "validate";
    lenient.requirements = {"S-1"};
    lenient.expect.ground = Ground::kAcceptable;
    lenient.expect.flag = "X-E1";
    lenient.expect.outcomes = {{"loose", "valid"}, {"strict", "invalid"}};
    lenient.expect.arcs_reading = "loose";
    conformance::OperationCase policy;
    policy.operation = "roundtrip";
    policy.expect.ground = Ground::kPolicy;
    policy.expect.policy = "duplicates";
    conformance::VectorCase c;
    c.operations = {lenient, policy};
    manifest_.cases = {c};
  }
  OpenVerdicts For(std::map<std::string, std::string> declared) const {
    return OpenVerdicts(format_, manifest_, declared);
  }
  // findings: rule, severity, reading.
  static protocol::Answer Answer(std::vector<std::vector<std::string>> findings) {
    protocol::Answer a;
    a.verdict = protocol::Verdict::kValid;
    for (auto& f : findings) {
      a.findings.push_back({f[0], f[1], 0, "", "", f.size() > 2 ? f[2] : ""});
      if (f[1] == "error" || f[1].empty()) a.verdict = protocol::Verdict::kInvalid;
    }
    return a;
  }
  std::string Reason(const OpenVerdicts& open, const std::string& operation,
                     bool reference_rejected, const protocol::Answer& implementation,
                     const protocol::Answer& validation) const {
    return open.Reason({operation, reference_rejected, implementation, validation});
  }
  conformance::FormatModule format_;
  conformance::Manifest manifest_;
};

TEST_F(OpenVerdictsTest, AnErrorTheTextSettlesIsAFinding) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  EXPECT_EQ(Reason(open, "validate", true, Answer({}), Answer({{"R-1", "error"}})), "");
  // One settled error is enough, even beside one that rests on a reading.
  EXPECT_EQ(Reason(open, "validate", true, Answer({}),
                   Answer({{"R-1", "error"}, {"R-2", "error", "X-E2"}})),
            "");
}

TEST_F(OpenVerdictsTest, ErrorsThatRestOnReadingsOrLimitsAreOpen) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  EXPECT_NE(Reason(open, "validate", true, Answer({}), Answer({{"R-2", "error", "X-E2"}})), "");
  EXPECT_NE(Reason(open, "validate", true, Answer({}), Answer({{"L-1", "error"}})), "");
  // A warning explains no rejection, and none is needed here.
  EXPECT_NE(
      Reason(open, "validate", true, Answer({}), Answer({{"L-1", "error"}, {"R-1", "warning"}})),
      "");
  // Another operation's refusal may rest on the reading even beside a settled error: a loader
  // refuses less than the validator finds.
  EXPECT_NE(
      Reason(open, "hash", true, Answer({}), Answer({{"R-1", "error"}, {"R-2", "error", "X-E2"}})),
      "");
  // A limit the case itself sets is one the implementation was told.
  EXPECT_EQ(open.Reason({"validate", true, Answer({}), Answer({{"L-1", "error"}}), true}), "");
  // The reference rejecting although its validator finds nothing: no reading explains it.
  EXPECT_EQ(Reason(open, "hash", true, Answer({}), Answer({})), "");
}

TEST_F(OpenVerdictsTest, AnImplementationRejectsOpenlyOnlyWhereAReadingDoes) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  // Rules a stricter reading rejects by, or the reference taking a reading on this very input.
  EXPECT_NE(Reason(open, "validate", false, Answer({{"S-1", "error"}}), Answer({})), "");
  EXPECT_NE(Reason(open, "validate", false, Answer({{"Z-9", "error"}}),
                   Answer({{"R-3", "warning", "X-E1"}})),
            "");
  EXPECT_EQ(
      Reason(open, "validate", false, Answer({{"S-1", "error"}, {"R-1", "error"}}), Answer({})),
      "");
  EXPECT_EQ(Reason(open, "validate", false, Answer({{"", "error"}}), Answer({})), "");
  // An implementation that names no rule has only the reference's readings to go by.
  EXPECT_EQ(Reason(open, "validate", false, Answer({}), Answer({})), "");
}

TEST_F(OpenVerdictsTest, ARefusalOfAnInvalidInputIsOpenWhereTheErrataLeaveIt) {
  const OpenVerdicts open = For({{"duplicates", "reject"}});
  // The reference refuses to hash an input its validator finds invalid by the text: X-E4.
  EXPECT_NE(Reason(open, "hash", true, Answer({}), Answer({{"R-1", "error"}})), "");
  // Only in the direction the entry names, only for its operation, only for an invalid input.
  EXPECT_EQ(Reason(open, "hash", false, Answer({}), Answer({{"R-1", "error"}})), "");
  EXPECT_EQ(Reason(open, "verify", true, Answer({}), Answer({{"R-1", "error"}})), "");
  EXPECT_EQ(Reason(open, "hash", true, Answer({}), Answer({{"R-1", "warning"}})), "");
}

TEST_F(OpenVerdictsTest, APolicyTakenOtherwiseOpensTheOperationsItDecides) {
  EXPECT_EQ(Reason(For({{"duplicates", "reject"}}), "roundtrip", true, Answer({}),
                   Answer({{"R-1", "error"}})),
            "");
  EXPECT_NE(Reason(For({{"duplicates", "accept"}}), "roundtrip", true, Answer({}),
                   Answer({{"R-1", "error"}})),
            "");
  // Not declared is not the reference's choice either; validate is not decided by it.
  EXPECT_NE(Reason(For({}), "roundtrip", false, Answer({}), Answer({})), "");
  EXPECT_EQ(Reason(For({}), "validate", true, Answer({}), Answer({{"R-1", "error"}})), "");
}

}  // namespace
}  // namespace arcs::fuzz
