#include "runner/fuzz/fuzz.h"

#include <gtest/gtest.h>

#include <deque>

namespace arcs::fuzz {
namespace {

// A resource probe's case has no inputs until `arcs run` makes them, so it is never a seed, even
// one whose outcome the text settles (ResourceProbe::required_outcomes: ground "required", not
// "resource").
TEST(Fuzz, NoResourceProbeIsASeedWhateverItsGround) {
  runner::SuiteFilter filter;
  filter.formats = {"spool"};
  ASSERT_TRUE(filter.resource_probes);
  Result<runner::Suite> suite = runner::LoadSuite(runner::DefaultSuiteRoot(), filter);
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  std::deque<conformance::OperationCase> settled;
  std::size_t probes = 0;
  for (runner::SuiteCase& c : suite->cases) {
    if (!c.probe) continue;
    ++probes;
    ASSERT_EQ(c.inputs, nullptr);
    settled.push_back(*c.expectation);
    settled.back().expect.ground = conformance::Ground::kRequired;
    c.expectation = &settled.back();
  }
  ASSERT_GT(probes, 0u);

  FuzzOptions options;
  options.command = "exit 0";  // says no hello: the run stops once the seeds are chosen
  options.runs = 1;
  options.seconds = 0;
  const FuzzReport report = Fuzz(options, *suite, nullptr);
  EXPECT_EQ(report.seeds + report.too_large, suite->cases.size() - probes);
  EXPECT_NE(report.error.find("did not start"), std::string::npos) << report.error;
}

TEST(FuzzKnownFailures, AnEntryMatchesItsSignatureWithStarsAsAnyText) {
  const std::string signature = "validate verdict: invalid / valid [SP-4.3-1]";
  EXPECT_TRUE(KnownSignatureMatches(signature, signature));
  EXPECT_TRUE(KnownSignatureMatches("validate verdict: *", signature));
  EXPECT_TRUE(KnownSignatureMatches("*[SP-4.3-1]", signature));
  EXPECT_TRUE(KnownSignatureMatches("validate * / valid *", signature));
  EXPECT_TRUE(KnownSignatureMatches("**", signature));
  EXPECT_TRUE(KnownSignatureMatches("*", ""));
  // Brackets and question marks are themselves: a signature's rule list is no character class.
  EXPECT_FALSE(KnownSignatureMatches("validate verdict: invalid / valid [SP-4.3-2]", signature));
  EXPECT_FALSE(KnownSignatureMatches("validate verdict: invalid / valid [S]", signature));
  EXPECT_FALSE(KnownSignatureMatches("validate verdict: ?nvalid / valid [SP-4.3-1]", signature));
  EXPECT_FALSE(KnownSignatureMatches("validate verdict", signature));  // the whole of it
  EXPECT_FALSE(KnownSignatureMatches("*valid [SP-4.3-1] ", signature));
  EXPECT_FALSE(KnownSignatureMatches("", signature));
}

}  // namespace
}  // namespace arcs::fuzz
