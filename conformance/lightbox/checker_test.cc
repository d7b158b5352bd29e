// Unit tests of the validator's mechanics. What the validator must say about each kind of session
// is data: vectors/lightbox/manifest.json, run by `arcs vectors`.
#include "conformance/lightbox/checker.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/sha256.h"
#include "reference/lightbox/lightbox.h"

namespace arcs::conformance::lightbox {
namespace {

std::string Event(std::string_view id, std::string_view status, std::string_view extra = "") {
  const bool pending = status == "pending";
  return R"({"schema_version":"1","session_id":"session_1","invocation_id":")" + std::string(id) +
         R"(","tool":"t","input":{"q":1},"output":)" + (pending ? "null" : R"({"ok":true})") +
         R"(,"status":")" + std::string(status) +
         R"(","timestamp_start":"2025-01-15T10:23:01.123+00:00","timestamp_end":)" +
         (pending ? "null" : R"("2025-01-15T10:23:01.456Z")") + std::string(extra) + "}";
}

// The events chained by the reference writer.
std::string Chained(const std::vector<std::string>& events) {
  std::string input;
  for (const std::string& e : events) input += e + "\n";
  jsonl::MemorySource source(input);
  std::string out;
  EXPECT_TRUE(arcs::lightbox::WriteChain(&source, {}, &out).ok());
  return out;
}

Diagnostics Check(const std::string& events, const std::string* meta = nullptr) {
  jsonl::MemorySource source(events);
  std::unique_ptr<jsonl::MemorySource> meta_source;
  if (meta) meta_source = std::make_unique<jsonl::MemorySource>(*meta);
  Diagnostics d;
  Validate(&source, meta_source.get(), {}, &d);
  return d;
}

std::set<std::string> ErrorRules(const Diagnostics& d) {
  std::set<std::string> rules;
  for (const Finding& f : d.findings()) {
    if (f.severity == Severity::kError) rules.insert(f.rule_id);
  }
  return rules;
}

TEST(LightboxChecker, AChainedSessionWithAnAsyncPairARetryAndARedactionIsValid) {
  const std::string events = Chained({
      Event("inv_00001", "complete", R"(,"parent_invocation":"inv_00003")"),
      Event("inv_00002", "pending"),
      R"({"schema_version":"1","session_id":"session_1","invocation_id":"inv_00002","tool":"t",)"
      R"("input":{},"output":{"ok":1},"status":"error","error":{"type":"Timeout"},)"
      R"("timestamp_start":"2025-01-15T10:23:01.123+00:00","timestamp_end":"2025-01-15T10:23:02.000+00:00"})",
      Event("inv_00003", "complete",
            R"(,"retry_of":"inv_00001","content_hashes":{"input.q":")" + std::string(64, 'a') +
                R"("},"chunk_count":3,"total_bytes":12345678901234567890)"),
  });
  // inv_00003's input.q is not redacted: the one error, for the redaction marker rule.
  EXPECT_EQ(ErrorRules(Check(events)), (std::set<std::string>{"LB-REDACT-2"}));
  const std::string meta =
      R"({"session_id":"session_1","schema_version":"1","lightbox_version":"0.1.0",)"
      R"("created_at":"2025-01-15T10:00:00.000+00:00"})";
  EXPECT_EQ(ErrorRules(Check(events, &meta)), (std::set<std::string>{"LB-REDACT-2"}));
}

TEST(LightboxChecker, CrossEventRules) {
  struct Case {
    std::vector<std::string> events;
    std::set<std::string> rules;
    bool chained = true;  // the writer refuses floats: those events go unchained
  };
  const std::vector<Case> cases = {
      {{Event("inv_00001", "complete"), Event("inv_00001", "complete")}, {"LB-EVENT-14"}},
      {{Event("inv_00001", "pending"),
        Event("inv_00001", "complete")},  // a resolution with input {"q":1}, not {}
       {"LB-ASYNC-3"}},
      {{Event("inv_00001", "complete", R"(,"retry_of":"inv_00002")"),
        Event("inv_00002", "complete")},
       {"LB-RETRY-2"}},
      {{Event("inv_00001", "complete", R"(,"parent_invocation":"inv_00001")")}, {"LB-OPT-10"}},
      {{Event("inv_00001", "complete", R"(,"retry_of":"inv_00001")")}, {"LB-RETRY-1"}},
      {{Event("inv_1", "complete")}, {"LB-EVENT-13"}},
      {{Event("inv_00001", "done")}, {"LB-EVENT-12"}},
      {{Event("inv_00001", "complete", R"(,"error":{})")}, {"LB-OPT-11"}},
      {{Event("inv_00001", "complete", R"(,"chunk_count":-1)")}, {"LB-OPT-12"}},
      {{Event("inv_00001", "complete",
              R"(,"total_bytes":1.5,"prev_hash":null,"hash":")" + std::string(64, '0') + "\"")},
       {"LB-CANON-5"},  // a float is LB-CANON-5's, not the integer row's (LB-OPT-6)
       false},
  };
  for (const Case& c : cases) {
    const std::string events = c.chained ? Chained(c.events) : c.events[0] + "\n";
    EXPECT_EQ(ErrorRules(Check(events)), c.rules) << c.events[0];
  }
}

// A cycle is reported once, on the line of its first event in the file, however many events it
// has and whatever order the checker's tables hold them in.
TEST(LightboxChecker, AParentCycleIsCitedOnItsFirstLine) {
  for (int length = 2; length <= 40; ++length) {
    std::vector<std::string> events;
    for (int i = 1; i <= length; ++i) {
      const int parent = i == length ? 1 : i + 1;
      char id[16], parent_id[16];
      std::snprintf(id, sizeof id, "inv_%05d", i);
      std::snprintf(parent_id, sizeof parent_id, "inv_%05d", parent);
      events.push_back(
          Event(id, "complete", R"(,"parent_invocation":")" + std::string(parent_id) + "\""));
    }
    const Diagnostics d = Check(Chained(events));
    std::vector<std::uint64_t> lines;
    for (const Finding& f : d.findings()) {
      if (f.message.find("closes a cycle") != std::string::npos) lines.push_back(f.location.line);
    }
    EXPECT_EQ(lines, std::vector<std::uint64_t>{1}) << length << " events";
  }
}

// Ids in the recorder's order are held in a vector, any other in a keyed table; an id is found
// wherever it went: one far ahead (table) is still a duplicate once the vector has reached it,
// and inv_000001 (six digits) is not inv_00001.
TEST(LightboxChecker, EveryIdIsFoundWhereverItIsHeld) {
  std::vector<std::string> events = {Event("inv_05000", "complete"),
                                     Event("inv_000001", "complete")};
  char id[16];
  for (int i = 1; i <= 4200; ++i) {
    std::snprintf(id, sizeof id, "inv_%05d", i);
    if (i != 5000) events.push_back(Event(id, "complete"));
  }
  events.push_back(Event("inv_05000", "complete"));
  events.push_back(Event("inv_000001", "complete"));
  const Diagnostics d = Check(Chained(events));
  std::vector<std::uint64_t> duplicates;
  for (const Finding& f : d.findings()) {
    if (f.message.find("was used by an earlier call") != std::string::npos) {
      duplicates.push_back(f.location.line);
    }
  }
  EXPECT_EQ(duplicates, (std::vector<std::uint64_t>{events.size() - 1, events.size()}));
}

TEST(LightboxChecker, AnUnknownParentIsAWarning) {
  const Diagnostics d =
      Check(Chained({Event("inv_00001", "complete", R"(,"parent_invocation":"inv_00009")")}));
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(d.findings().size(), 1u);
  EXPECT_EQ(d.findings()[0].rule_id, "LB-OPT-9");
}

TEST(LightboxChecker, ABrokenChainIsCitedOnTheLineOfItsFirstBrokenEvent) {
  std::string events = Chained({Event("inv_00001", "complete"), Event("inv_00002", "complete"),
                                Event("inv_00003", "complete")});
  events.insert(0, "\n");  // a blank line: an error of its own, and no event
  const std::size_t second = events.find('\n', 1) + 1;  // line 3: event 1
  events.replace(events.find(R"("q":1)", second), 5, R"("q":2)");
  const Diagnostics d = Check(events);
  bool found = false;
  for (const Finding& f : d.findings()) {
    if (f.rule_id != "LB-HASH-2") continue;
    found = true;
    EXPECT_EQ(f.location.line, 3u);
    EXPECT_NE(f.message.find("event 1"), std::string::npos) << f.message;
  }
  EXPECT_TRUE(found);
}

// A stored hash that another reading's canonical form gives (here LB-E23's, ASCII escapes) is
// found wherever its event is: the validator hashes events in queues, and compares stored hashes
// once a queue is settled, from a copy of the line, or (a long line, hashed alone) from its parse.
TEST(LightboxChecker, AHashUnderAnotherReadingIsNamedWhereverItsEventIs) {
  struct Case {
    std::size_t events;
    std::size_t edited;
    std::size_t padding;  // bytes of input added to the edited event
  };
  for (const Case& c :
       {Case{3, 0, 0}, Case{6000, 4500, 0}, Case{6000, 5999, 0}, Case{5, 2, 100 * 1024}}) {
    std::vector<std::string> events;
    for (std::size_t i = 0; i < c.events; ++i) {
      char id[32];
      std::snprintf(id, sizeof id, "inv_%05zu", i + 1);
      const std::string pad = i == c.edited ? std::string(c.padding, 'p') : "";
      events.push_back(Event(id, "complete", R"(,"note":"caf\u00e9)" + pad + R"(")"));
    }
    std::vector<std::string> lines;
    {
      std::istringstream in(Chained(events));
      for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    ASSERT_EQ(lines.size(), c.events);
    // The edited event's hash as an ASCII-only writer computes it: its canonical form with é
    // escaped, the only character beyond ASCII it holds.
    json::Document parsed;
    ASSERT_TRUE(parsed.Parse(lines[c.edited]));
    Result<std::string> canonical = arcs::lightbox::CanonicalBytes(parsed.root());
    ASSERT_TRUE(canonical.ok());
    const std::size_t e = canonical->find("\xC3\xA9");
    ASSERT_NE(e, std::string::npos);
    canonical->replace(e, 2, "\\u00e9");
    const std::string ascii_hash = ToHex(Sha256::Of(*canonical));
    std::string& edited = lines[c.edited];
    edited.replace(edited.rfind(R"("hash":")") + 8, 64, ascii_hash);
    std::string file;
    for (const std::string& line : lines) file += line + "\n";
    const Diagnostics d = Check(file);
    std::vector<std::string> breaks;
    for (const Finding& f : d.findings()) {
      if (f.rule_id == "LB-HASH-2") {
        breaks.push_back(std::to_string(f.location.line) + " " + f.reading);
      }
    }
    EXPECT_EQ(breaks, std::vector<std::string>{std::to_string(c.edited + 1) + " LB-E23"})
        << c.events << " events, edited " << c.edited;
  }
}

TEST(LightboxChecker, MetaJsonMustAgree) {
  const std::string events = Chained({Event("inv_00001", "complete")});
  const std::string meta =
      R"({"session_id":"session_2","schema_version":"1","lightbox_version":"0.1.0",)"
      R"("created_at":"2025-01-15T10:00:00+00:00"})";
  EXPECT_EQ(ErrorRules(Check(events, &meta)), (std::set<std::string>{"LB-META-5", "LB-META-6"}));
}

// The readings a note marks where the reference accepts leniently (errata LB-E16, LB-E26, LB-E42,
// LB-E43): never an error, and only where another reading rejects.
std::set<std::string> NoteReadings(const Diagnostics& d) {
  std::set<std::string> readings;
  for (const Finding& f : d.findings()) {
    if (f.severity == Severity::kNote && !f.reading.empty()) readings.insert(f.reading);
  }
  return readings;
}

TEST(LightboxChecker, NotesMarkLenientReadings) {
  const std::string meta =
      R"({"session_id":"session_1","schema_version":"1","lightbox_version":"0.1.0",)"
      R"("created_at":"2025-01-15T10:00:00.000+00:00"})";
  EXPECT_TRUE(NoteReadings(Check(Chained({Event("inv_00001", "complete")}), &meta)).empty());
  // An integer beyond 2^53 (LB-E26); 2^53 itself is exact in a double.
  EXPECT_EQ(NoteReadings(Check(
                Chained({Event("inv_00001", "complete", R"(,"total_bytes":9007199254740993)")}))),
            (std::set<std::string>{"LB-E26"}));
  EXPECT_TRUE(NoteReadings(Check(Chained({Event("inv_00001", "complete",
                                                R"(,"x":[-9007199254740992,9007199254740992])")})))
                  .empty());
  // Lower-case designators (LB-E16): valid, yet not as ISO 8601 writes them.
  std::string lower = Event("inv_00001", "complete");
  lower.replace(lower.find("2025-01-15T10:23:01.456Z"), 24, "2025-01-15t10:23:01.456z");
  const Diagnostics d = Check(Chained({lower}));
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(NoteReadings(d), (std::set<std::string>{"LB-E16"}));
  // A meta.json that is no JSON object (LB-E42), or nested beyond the limit (LB-LAYOUT-5).
  const std::string events = Chained({Event("inv_00001", "complete")});
  const std::string array = "[" + meta + "]";
  EXPECT_EQ(NoteReadings(Check(events, &array)), (std::set<std::string>{"LB-E42"}));
  const std::string deep = R"({"x":)" + std::string(200, '[') + std::string(200, ']') + "}";
  const Diagnostics over = Check(events, &deep);
  EXPECT_EQ(ErrorRules(over), (std::set<std::string>{"LB-LAYOUT-5"}));
  EXPECT_EQ(NoteReadings(over), (std::set<std::string>{"LB-E42"}));
  // An event that breaks a field row (LB-E43); events without prev_hash and hash alone, as a
  // writer is given them, do not.
  EXPECT_EQ(NoteReadings(Check(Chained({Event("inv_00001", "done")}))),
            (std::set<std::string>{"LB-E43"}));
  EXPECT_TRUE(NoteReadings(Check(Event("inv_00001", "complete") + "\n")).empty());
}

}  // namespace
}  // namespace arcs::conformance::lightbox
