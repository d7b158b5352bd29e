// Unit tests of the validator's mechanics. What the validator must say about each kind of file is
// data: vectors/spool/manifest.json, run by `arcs vectors` (the spool_vectors test).
#include "conformance/spool/checker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "conformance/spool/module.h"

namespace arcs::conformance::spool {
namespace {

constexpr std::string_view kSession =
    R"({"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z"})";

Diagnostics Check(std::string_view bytes, arcs::spool::Limits limits = {}) {
  jsonl::MemorySource source(bytes);
  Diagnostics diagnostics;
  Validate(&source, limits, &diagnostics);
  return diagnostics;
}

TEST(SpoolChecker, FindingsAreSortedAndLocated) {
  std::string file = std::string(kSession) + "\n" +
                     R"({"id":"00000000-0000-0000-0000-000000000001","ts":5,"type":"prompt"})" +
                     "\n\n" + R"({"id":"X","ts":1,"type":"response","content":"c"})" + "\n";
  Diagnostics d = Check(file);
  ASSERT_EQ(d.findings().size(), 4u);
  EXPECT_EQ(d.findings()[0].location.line, 2u);
  EXPECT_EQ(d.findings()[0].rule_id, "SP-6.2-1");
  EXPECT_EQ(d.findings()[1].location.line, 3u);
  EXPECT_EQ(d.findings()[1].rule_id, "SP-3.6-1");
  EXPECT_EQ(d.findings()[2].location.pointer, "/id");  // same line: ordered by pointer
  EXPECT_EQ(d.findings()[2].rule_id, "SP-5.1-2");
  EXPECT_EQ(d.findings()[3].location.pointer, "/ts");
  EXPECT_EQ(d.findings()[3].rule_id, "SP-4.2-1");
  EXPECT_EQ(d.findings()[3].severity, Severity::kWarning);
  EXPECT_EQ(d.error_count(), 3u);
}

// A value of the wrong type is named with its article: "an object", "an array".
TEST(SpoolChecker, TypeErrorsSayWhatTheValueIs) {
  const Diagnostics d = Check(
      std::string(kSession) + "\n" + R"({"id":{},"ts":1,"type":"response","content":[]})" + "\n" +
      R"({"id":"00000000-0000-0000-0000-000000000002","ts":2,"type":"response","content":{}})" +
      "\n");
  std::vector<std::string> messages;
  for (const auto& f : d.findings()) messages.push_back(f.message);
  EXPECT_EQ(messages, (std::vector<std::string>{"/content is an array, expected a string",
                                                "an object is not a lowercase hyphenated UUID",
                                                "/content is an object, expected a string"}));
}

TEST(SpoolChecker, JsonErrorColumnsCountTheBom) {
  Diagnostics d = Check("\xEF\xBB\xBF{\"id\":x}\n");
  bool found = false;
  for (const Finding& f : d.findings()) {
    if (f.rule_id == "SP-3.4-1") {
      EXPECT_EQ(f.location.column, 1u);
    }
    if (f.rule_id == "SP-3.6-1") {
      EXPECT_EQ(f.location.column, 10u);  // 3 BOM bytes + 1-based offset 6 of 'x'
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(SpoolChecker, ManyBadLinesStayBounded) {
  std::string file = std::string(kSession) + "\n";
  for (int i = 0; i < 20000; ++i) file += "not json\n";
  Diagnostics d = Check(file);
  EXPECT_EQ(d.error_count(), 20000u);
  EXPECT_EQ(d.findings().size(), Diagnostics::kDefaultMaxFindings);
  EXPECT_EQ(d.dropped_count(), 20000u - Diagnostics::kDefaultMaxFindings);
}

TEST(SpoolChecker, EntryLimitStopsChecking) {
  std::string file = std::string(kSession) + "\n";
  for (int i = 1; i <= 5; ++i) {
    file += R"({"id":"00000000-0000-0000-0000-00000000000)" + std::to_string(i) +
            R"(","ts":1,"type":"prompt","content":"x"})" + "\n";
  }
  arcs::spool::Limits limits;
  limits.max_entries = 3;
  Diagnostics d = Check(file, limits);
  ASSERT_EQ(d.findings().size(), 1u);
  EXPECT_EQ(d.findings()[0].rule_id, "SP-10.1-3");
  EXPECT_EQ(d.findings()[0].location.line, 4u);
}

// errata SP-E11, known limitation: a reference is judged when its target is first known. If the
// target's id is duplicated later, the finding against the first entry stays; if the duplicate
// comes first, the reference draws no finding.
TEST(SpoolChecker, ReferenceToAnIdDuplicatedLaterKeepsItsFinding) {
  const std::string prompt =
      R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","content":"x"})";
  const std::string call =
      R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"tool_call","tool":"t","input":{}})";
  const std::string result =
      R"({"id":"00000000-0000-0000-0000-000000000002","ts":1,"type":"tool_result","call_id":"00000000-0000-0000-0000-000000000001","output":"o"})";
  auto rules = [](const Diagnostics& d) {
    std::vector<std::pair<std::uint64_t, std::string>> out;
    for (const Finding& f : d.findings()) out.emplace_back(f.location.line, f.rule_id);
    return out;
  };
  using Rules = std::vector<std::pair<std::uint64_t, std::string>>;
  // The result refers to the prompt (not a tool_call) before the duplicate appears.
  EXPECT_EQ(
      rules(Check(std::string(kSession) + "\n" + prompt + "\n" + result + "\n" + call + "\n")),
      (Rules{{3, "SP-6.5-3"}, {4, "SP-5.1-5"}}));
  // The duplicate comes first: the reference is ambiguous and draws no finding.
  EXPECT_EQ(
      rules(Check(std::string(kSession) + "\n" + prompt + "\n" + call + "\n" + result + "\n")),
      (Rules{{3, "SP-5.1-5"}}));
  // A forward reference is resolved at the end, when the duplicate is known.
  EXPECT_EQ(
      rules(Check(std::string(kSession) + "\n" + result + "\n" + prompt + "\n" + call + "\n")),
      (Rules{{4, "SP-5.1-5"}}));
}

TEST(SpoolChecker, FindingLevelsComeFromTheCatalogue) {
  // §4.2 "Entries SHOULD be ordered by their ts" and §5.1's lowercase MUST, per the catalogue,
  // which the module's Validate consults (the checker states no level).
  std::string file = std::string(kSession) + "\n" +
                     R"({"id":"00000000-0000-0000-0000-00000000000A","ts":5,"type":"x_a"})" + "\n" +
                     R"({"id":"00000000-0000-0000-0000-000000000002","ts":1,"type":"x_b"})" + "\n";
  jsonl::MemorySource source(file);
  Diagnostics d;
  Module().Validate(&source, {}, Module().DefaultLimits(), &d);
  ASSERT_EQ(d.findings().size(), 2u);
  EXPECT_EQ(d.findings()[0].rule_id, "SP-5.1-2");
  EXPECT_EQ(d.findings()[0].level, Level::kMust);
  EXPECT_EQ(d.findings()[1].rule_id, "SP-4.2-1");
  EXPECT_EQ(d.findings()[1].level, Level::kShould);
}

// The reading a finding names, "" for none, and its severity, for the finding of `rule` at `line`.
std::vector<std::pair<Severity, std::string>> Tags(const Diagnostics& d, std::string_view rule,
                                                   std::uint64_t line) {
  std::vector<std::pair<Severity, std::string>> out;
  for (const Finding& f : d.findings()) {
    if (f.rule_id == rule && f.location.line == line) out.emplace_back(f.severity, f.reading);
  }
  return out;
}

using Tagged = std::vector<std::pair<Severity, std::string>>;

// errata SP-E8: a reader may keep the first or the last value of a repeated name. Unless both give
// an error the text settles, the entry's errors name SP-E8.
TEST(SpoolChecker, ErrorsOneValueOfARepeatedNameGivesNameSpE8) {
  const std::string session_ts =
      R"({"id":"00000000-0000-0000-0000-000000000000","ts":100,"ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z"})";
  Diagnostics d = Check(session_ts + "\n");
  EXPECT_EQ(Tags(d, "SP-6.1-3", 1), (Tagged{{Severity::kError, "SP-E8"}}));
  EXPECT_EQ(Tags(d, "SP-10.1-7", 1), (Tagged{{Severity::kError, "SP-E8"}}));
  // The last "type" is an unprefixed unknown type: invalid whichever value counts.
  const std::string prompt =
      R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","type":"","z":1})";
  d = Check(std::string(kSession) + "\n" + prompt + "\n");
  EXPECT_EQ(Tags(d, "SP-7.4-1", 2), (Tagged{{Severity::kError, ""}}));
  // Both values give an error (each occurrence is checked): they stay untagged.
  const std::string both =
      R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","content":1,"content":2})";
  d = Check(std::string(kSession) + "\n" + both + "\n");
  EXPECT_EQ(Tags(d, "SP-6.2-1", 2), (Tagged{{Severity::kError, ""}, {Severity::kError, ""}}));
  // Only the last gives one: a reader that keeps the first finds nothing wrong.
  const std::string last =
      R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","content":"c","content":2})";
  d = Check(std::string(kSession) + "\n" + last + "\n");
  EXPECT_EQ(Tags(d, "SP-6.2-1", 2), (Tagged{{Severity::kError, "SP-E8"}}));
}

// Where ARCS's reading accepts what another reading makes an invalid entry, a note names the
// entry (it never changes validity).
TEST(SpoolChecker, LenientReadingsLeaveNotes) {
  const std::string result =
      R"({"id":"00000000-0000-0000-0000-000000000002","ts":2,"type":"tool_result","call_id":"00000000-0000-0000-0000-000000000001","output":{"rows":[]},"_redacted":"x"})";
  const std::string end =
      R"({"id":"00000000-0000-0000-0000-000000000003","ts":3,"type":"subagent_end","start_id":"00000000-0000-0000-0000-000000000001","status":"done"})";
  const std::string lower =
      R"({"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01t00:00:00z"})";
  Diagnostics d = Check(lower + "\n" + result + "\n" + end + "\n");
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(Tags(d, "SP-6.1-2", 1), (Tagged{{Severity::kNote, "SP-E14"}}));
  EXPECT_EQ(Tags(d, "SP-9.2-2", 2), (Tagged{{Severity::kNote, "SP-E19"}}));
  EXPECT_EQ(Tags(d, "SP-6.10.2-2", 2), (Tagged{{Severity::kNote, "SP-E26"}}));
  EXPECT_EQ(Tags(d, "SP-6.8.2-5", 3),
            (Tagged{{Severity::kWarning, ""}, {Severity::kNote, "SP-E18"}}));
  // A binary object, a listed value, an upper-case date-time: no note.
  d = Check(std::string(kSession) + "\n");
  EXPECT_TRUE(d.findings().empty());
}

}  // namespace
}  // namespace arcs::conformance::spool
