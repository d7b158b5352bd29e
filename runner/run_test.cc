#include "runner/run.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>

#include "reference/core/io.h"
#include "runner/report/render_common.h"

namespace arcs::runner {
namespace {

bool Lists(const KnownFailures& known, const std::string& implementation,
           const std::string& request_id) {
  return known.Find(implementation, request_id) >= 0;
}

TEST(KnownFailures, ParsesEntriesCommentsAndImplementationPrefixes) {
  Result<KnownFailures> known = ParseKnownFailures("kf.txt",
                                                   "# toy adapter\n"
                                                   "\n"
                                                   "spool-11.4.3-x/roundtrip   # loses the line\n"
                                                   "toy-node: spool-dup/roundtrip\r\n"
                                                   "  spool-a/validate");
  ASSERT_TRUE(known.ok()) << known.status().ToString();
  EXPECT_TRUE(Lists(*known, "anyone", "spool-11.4.3-x/roundtrip"));
  EXPECT_TRUE(Lists(*known, "anyone", "spool-a/validate"));
  EXPECT_TRUE(Lists(*known, "toy-node", "spool-dup/roundtrip"));
  EXPECT_FALSE(Lists(*known, "toy-python", "spool-dup/roundtrip"));
  EXPECT_FALSE(Lists(*known, "anyone", "spool-11.4.3-x/validate"));
}

TEST(KnownFailures, RejectsMalformedLinesWithTheirNumber) {
  for (const char* text : {"spool-a\n", "spool-a/\n", "/validate\n", "a b/validate\n"}) {
    Result<KnownFailures> known = ParseKnownFailures("kf.txt", std::string("# c\n") + text);
    ASSERT_FALSE(known.ok()) << text;
    EXPECT_NE(known.status().message().find("kf.txt:2:"), std::string::npos);
  }
}

TEST(KnownFailures, EntriesMayBeGlobsAndAListMayNameItsImplementation) {
  Result<KnownFailures> known = ParseKnownFailures("kf.txt",
                                                   "toy: spool-number-*/roundtrip\n"
                                                   "toy: spool-1?.[12]-x/*\n");
  ASSERT_TRUE(known.ok()) << known.status().ToString();
  EXPECT_TRUE(Lists(*known, "toy", "spool-number-2-53/roundtrip"));
  EXPECT_FALSE(Lists(*known, "toy", "spool-number-2-53/validate"));
  EXPECT_TRUE(Lists(*known, "toy", "spool-11.2-x/validate"));
  EXPECT_FALSE(Lists(*known, "other", "spool-11.2-x/validate"));
  EXPECT_EQ(known->NamedImplementation(), "toy");
  EXPECT_EQ(known->entries[1].line, 2u);
  Result<KnownFailures> mixed = ParseKnownFailures("kf.txt", "toy: a/validate\nb/validate\n");
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->NamedImplementation(), "");
}

report::CaseResult CaseWith(std::string id, report::Outcome outcome) {
  report::CaseResult c;
  c.id = std::move(id);
  c.operation = "validate";
  c.outcome = outcome;
  return c;
}

TEST(KnownFailures, WritingPrunesWhatListsNoFailureAndAddsNewFailures) {
  report::ImplementationReport impl;
  impl.name = "toy";
  impl.version = "1";
  impl.cases = {CaseWith("a", report::Outcome::kFailed), CaseWith("b", report::Outcome::kPassed),
                CaseWith("c", report::Outcome::kKnownFailure),
                CaseWith("d", report::Outcome::kErrored)};
  const std::string old =
      "# my notes\n"
      "toy: b/validate  # fixed since\n"
      "toy: c/validate  # still broken\n"
      "other: b/validate\n"
      "toy: z*/validate\n";
  Result<std::string> written = WriteKnownFailures("kf.txt", old, impl, /*filtered=*/false);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written,
            "# my notes\n"
            "toy: c/validate  # still broken\n"
            "other: b/validate\n"
            "toy: a/validate\n"
            "toy: d/validate\n");
  // A filtered run keeps what it could not see.
  written = WriteKnownFailures("kf.txt", old, impl, /*filtered=*/true);
  ASSERT_TRUE(written.ok());
  EXPECT_NE(written->find("toy: z*/validate"), std::string::npos);
  EXPECT_EQ(written->find("toy: b/validate"), std::string::npos);
  // A new list starts with what it is.
  written = WriteKnownFailures("kf.txt", "", impl, false);
  ASSERT_TRUE(written.ok());
  EXPECT_TRUE(written->starts_with("# Known failures of toy 1"));
  EXPECT_TRUE(written->ends_with("\ntoy: a/validate\ntoy: c/validate\ntoy: d/validate\n"));
}

// An interrupted run has not run every case: what it did not run would be listed as failures.
TEST(KnownFailures, AnInterruptedRunWritesNoList) {
  for (const char* kind : {"interrupted", "runner"}) {
    report::ImplementationReport impl;
    impl.name = "toy";
    impl.cases = {CaseWith("a", report::Outcome::kFailed),
                  CaseWith("b", report::Outcome::kErrored)};
    impl.cases[1].error_kind = kind;
    Result<std::string> written = WriteKnownFailures("kf.txt", "", impl, /*filtered=*/false);
    ASSERT_FALSE(written.ok()) << kind;
    EXPECT_NE(written.status().message().find("b/validate"), std::string::npos)
        << written.status().ToString();
  }
}

// A resource probe's input is tens of megabytes: the suite holds none of them, and `arcs run`
// makes them for the cases it sends (one probe at a time), so that it never holds them all.
TEST(ResourceProbes, TheSuiteHoldsNoProbeInput) {
  SuiteFilter filter;
  filter.formats = {"spool"};
  Result<Suite> suite = LoadSuite(DefaultSuiteRoot(), filter);
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  std::size_t probes = 0;
  for (const SuiteCase& c : suite->cases) {
    const bool probe = c.vector->id.starts_with("spool-resource-");
    probes += probe;
    EXPECT_EQ(c.inputs == nullptr, probe) << c.request_id;
  }
  EXPECT_GT(probes, 0u);
}

// Each probe case is sent with its whole input (made for it), one at a time, and judged.
TEST(ResourceProbes, EachCaseIsSentWithItsInput) {
  SuiteFilter filter;
  filter.globs = {"spool-resource-deep-nesting", "spool-resource-long-line"};
  Result<Suite> suite = LoadSuite(DefaultSuiteRoot(), filter);
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  ASSERT_EQ(suite->cases.size(), 4u);  // validate and roundtrip of each
  RunOptions options;
  options.jobs = 2;
  options.timeout_seconds = 120;  // a loaded machine: the fake decodes 72 MiB
  options.pin_workers = false;
  const std::atomic<bool> stop = false;
  const ImplementationRun run =
      RunImplementation("/usr/bin/python3 " + DefaultSuiteRoot() +
                            "/runner/testing/flood_fake.py --min-input 1000000",
                        false, *suite, options, {}, &stop);
  ASSERT_EQ(run.report.cases.size(), 4u);
  for (const report::CaseResult& c : run.report.cases) {
    EXPECT_EQ(c.outcome, report::Outcome::kPassed)
        << c.id << "/" << c.operation << ": " << c.actual << " " << c.message;
  }
  EXPECT_EQ(run.report.restarts, 0u);
}

// A probe is sent alone to a process started for it: a timeout is not given a second chance there
// (nothing earlier could have poisoned the process), and its message says how big the line was
// and what an adapter does about it.
TEST(ResourceProbes, ATimeoutIsReportedOnceWithTheLineSize) {
  SuiteFilter filter;
  filter.globs = {"spool-resource-deep-nesting/validate"};
  Result<Suite> suite = LoadSuite(DefaultSuiteRoot(), filter);
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  ASSERT_EQ(suite->cases.size(), 1u);
  RunOptions options;
  options.timeout_seconds = 2;
  options.pin_workers = false;
  const std::atomic<bool> stop = false;
  const ImplementationRun run = RunImplementation(
      "/usr/bin/python3 " + DefaultSuiteRoot() + "/runner/testing/flood_fake.py --stall-probes 1",
      false, *suite, options, {}, &stop);
  ASSERT_EQ(run.report.cases.size(), 1u);
  const report::CaseResult& c = run.report.cases[0];
  EXPECT_EQ(c.outcome, report::Outcome::kErrored);
  EXPECT_EQ(c.error_kind, "timeout");
  EXPECT_FALSE(c.rerun);
  EXPECT_EQ(run.report.restarts, 0u);
  // 4,000,000 "[" and as many "]", in base64, in the JSON of the request.
  EXPECT_TRUE(c.message.starts_with("this probe's request is one line of 10.")) << c.message;
  EXPECT_NE(c.message.find(" MiB: decode it as it is read"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("--no-resource-probes"), std::string::npos) << c.message;
}

// PROTOCOL.md gives each probe's request line size, so that an adapter's author knows what is
// coming: a row "| `ID` | SIZE |" per probe, SIZE as the runner prints sizes.
TEST(ResourceProbes, ProtocolDocStatesEachRequestLine) {
  SuiteFilter filter;
  filter.globs = {"*-resource-*"};
  Result<Suite> suite = LoadSuite(DefaultSuiteRoot(), filter);
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  Result<std::string> doc = ReadFile(DefaultSuiteRoot() + "/runner/PROTOCOL.md");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  std::set<std::string> seen;
  for (const SuiteCase& c : suite->cases) {
    if (!c.probe || !seen.insert(c.vector->id).second) continue;
    const std::string row =
        "| `" + c.vector->id + "` | " + report::internal::ByteSize(c.RequestLineBytes()) + " |";
    EXPECT_NE(doc->find(row), std::string::npos) << "PROTOCOL.md lacks the row " << row;
  }
  EXPECT_EQ(seen.size(), 7u);
}

}  // namespace
}  // namespace arcs::runner
