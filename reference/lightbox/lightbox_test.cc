// The chain's mechanics. What a verifier must say about each kind of file is data: the Lightbox
// vectors; the canonical form is held to CPython by reference/core's oracle test.
#include "reference/lightbox/lightbox.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace arcs::lightbox {
namespace {

// The spec's example event, as the upstream recorder writes it (Python's default json.dumps:
// ASCII escapes, spaces), with an astral character. Its hash is CPython's
// hashlib.sha256(json.dumps(event, sort_keys=True, separators=(",", ":"),
// ensure_ascii=False).encode()).hexdigest().
constexpr std::string_view kUpstreamLine =
    R"({"schema_version": "1", "session_id": "session_92c1", "invocation_id": "inv_00042", )"
    R"("tool": "send_email", "input": {"to": "user@example.com", "subject": "Hello \u00e9\ud83d\ude00"}, )"
    R"("output": {"success": true, "message_id": "msg_123"}, "status": "complete", )"
    R"("timestamp_start": "2025-01-15T10:23:01.123+00:00", "timestamp_end": "2025-01-15T10:23:01.456+00:00", )"
    R"("prev_hash": null})";
constexpr std::string_view kUpstreamHash =
    "e9cf142fb3d9686cb0cacff9b9c382d145d169bddfa3a51256a55e0773587a3d";

std::string Event(int n) {
  return R"({"session_id":"s","invocation_id":"inv_)" + std::to_string(10000 + n).substr(0) +
         R"(","tool":"t","input":{"n":)" + std::to_string(n) +
         R"(},"output":{},"status":"complete","timestamp_start":"2025-01-15T10:23:01.123+00:00",)"
         R"("timestamp_end":"2025-01-15T10:23:01.456+00:00"})";
}

std::string Chain(int events) {
  std::string input;
  for (int i = 0; i < events; ++i) input += Event(i) + "\n";
  jsonl::MemorySource source(input);
  std::string out;
  EXPECT_TRUE(WriteChain(&source, {}, &out).ok());
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

ChainVerdict Verified(const std::string& text) {
  jsonl::MemorySource source(text);
  Result<ChainVerdict> verdict = Verify(&source, {});
  EXPECT_TRUE(verdict.ok());
  return verdict.ok() ? *verdict : ChainVerdict{};
}

TEST(LightboxHash, IsCPythonsHashOfTheReserializedEvent) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(kUpstreamLine));
  Result<std::string> hash = EventHash(doc.root());
  ASSERT_TRUE(hash.ok());
  EXPECT_EQ(*hash, kUpstreamHash);
  // The stored hash is not part of what it hashes.
  std::string with_hash(kUpstreamLine);
  with_hash.insert(with_hash.size() - 1, R"(, "hash": "x")");
  ASSERT_TRUE(doc.Parse(with_hash));
  EXPECT_EQ(*EventHash(doc.root()), kUpstreamHash);
}

TEST(LightboxWrite, WritesAChainThatVerifies) {
  const std::string chain = Chain(5);
  const std::vector<std::string> lines = Lines(chain);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_NE(lines[0].find(R"("prev_hash":null,"schema_version":"1")"), std::string::npos);
  EXPECT_NE(lines[1].find(R"("prev_hash":")"), std::string::npos);
  const ChainVerdict verdict = Verified(chain + "\n");  // a blank line is not an event
  EXPECT_TRUE(verdict.intact()) << verdict.reason;
  EXPECT_EQ(verdict.events, 5u);
}

TEST(LightboxWrite, RefusesFloatsAndOtherSchemaVersions) {
  std::string out;
  jsonl::MemorySource floats(R"({"input":{"x":1.5}})");
  EXPECT_EQ(WriteChain(&floats, {}, &out).code(), StatusCode::kInvalidArgument);
  jsonl::MemorySource version(R"({"schema_version":"2"})");
  EXPECT_EQ(WriteChain(&version, {}, &out).code(), StatusCode::kUnsupported);
}

TEST(LightboxVerify, NamesTheFirstBrokenEventAndWhy) {
  std::vector<std::string> lines = Lines(Chain(5));
  struct Case {
    std::string name;
    std::vector<std::string> lines;
    Break expected;
    std::uint64_t index;
  };
  std::vector<std::string> edited = lines;
  edited[2].replace(edited[2].find(R"("n":2)"), 5, R"("n":7)");
  std::vector<std::string> deleted = lines;
  deleted.erase(deleted.begin() + 2);
  std::vector<std::string> reordered = lines;
  std::swap(reordered[2], reordered[3]);
  std::vector<std::string> inserted = lines;
  inserted.insert(inserted.begin() + 2, lines[1]);  // event 1 again: event 3 then links to 1
  std::vector<std::string> truncated_start(lines.begin() + 1, lines.end());
  const std::vector<Case> cases = {
      {"edited", edited, Break::kContentChanged, 2},
      {"deleted", deleted, Break::kDeleted, 2},
      {"reordered", reordered, Break::kReordered, 2},
      {"inserted", inserted, Break::kInserted, 2},
      {"starts mid-chain", truncated_start, Break::kStartsMidChain, 0},
      {"not JSON", {lines[0], "{", lines[1]}, Break::kUnreadable, 1},
  };
  for (const Case& c : cases) {
    const ChainVerdict verdict = Verified(Join(c.lines));
    EXPECT_EQ(BreakName(verdict.first_break), BreakName(c.expected))
        << c.name << ": " << verdict.reason;
    EXPECT_EQ(verdict.first_broken, c.index) << c.name << ": " << verdict.reason;
    EXPECT_EQ(verdict.events, c.lines.size()) << c.name;
  }
}

// The validator takes each event's hash from the checker rather than compute it twice:
// SettledHash is the event's own hash, also past a break, and nothing for a line with no event.
// Events queued together are hashed side by side, one queued alone by itself: both give
// EventHash's hash, and the same verdict.
TEST(LightboxChainChecker, SettledHashIsEachEventsHashInQueuesOfAnySize) {
  std::vector<std::string> lines = Lines(Chain(40));
  lines[21].replace(lines[21].find(R"("n":21)"), 6, R"("n":71)");
  std::vector<json::Document> events(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) ASSERT_TRUE(events[i].Parse(lines[i]));
  for (const std::size_t queue : {std::size_t{1}, std::size_t{3}, std::size_t{16}, lines.size()}) {
    ChainChecker checker;
    for (std::size_t start = 0; start < lines.size(); start += queue) {
      const std::size_t end = std::min(start + queue, lines.size());
      for (std::size_t i = start; i < end; ++i) checker.Queue(&events[i].root(), "");
      EXPECT_EQ(checker.queued(), end - start);
      checker.Settle();
      EXPECT_EQ(checker.queued(), 0u);
      for (std::size_t i = start; i < end; ++i) {
        const std::optional<Result<std::string_view>> settled = checker.SettledHash(i - start);
        ASSERT_TRUE(settled.has_value() && settled->ok()) << "queue " << queue << ", event " << i;
        const Result<std::string> hash = EventHash(events[i].root());
        ASSERT_TRUE(hash.ok());
        EXPECT_EQ(**settled, *hash) << "queue " << queue << ", event " << i;
        // The stored hash WriteChain wrote, except in the edited event.
        EXPECT_EQ(**settled == events[i].root().FindLast("hash")->text(), i != 21)
            << "queue " << queue << ", event " << i;
      }
      EXPECT_FALSE(checker.SettledHash(end - start).has_value());
    }
    const ChainVerdict verdict = checker.Finish();
    EXPECT_EQ(BreakName(verdict.first_break), BreakName(Break::kContentChanged)) << queue;
    EXPECT_EQ(verdict.first_broken, 21u) << queue;
    EXPECT_EQ(verdict.events, lines.size()) << queue;
  }
  ChainChecker unread;
  unread.Add(nullptr, "not JSON");
  EXPECT_FALSE(unread.SettledHash(0).has_value());
  unread.Queue(nullptr, "not JSON");
  EXPECT_FALSE(unread.SettledHash(0).has_value());  // nothing settled since it was queued
}

TEST(LightboxVerify, AnEmptyFileIsAnIntactChainOfNoEvents) {
  const ChainVerdict verdict = Verified("");
  EXPECT_TRUE(verdict.intact());
  EXPECT_EQ(verdict.events, 0u);
}

// Parallel verification must say exactly what the one-thread Verify says: the same verdict, or
// the same Status. Breaks fall at, near and far from the worker batches' edges (4096 events), and
// the chain goes on past them (a parallel verifier hashes those events too).
// The verdict of a ChainChecker given one event at a time (as `arcs validate` gives them), which
// hashes each event alone: the oracle of Verify's batches, whose events are hashed side by side.
ChainVerdict CheckedEventByEvent(const std::string& text) {
  jsonl::MemorySource source(text);
  ChainChecker chain;
  EXPECT_TRUE(ForEachEvent(&source, {},
                           [&](std::uint64_t, const json::Value* event, std::string_view problem) {
                             chain.Add(event, problem);
                           })
                  .ok());
  return chain.Finish();
}

TEST(LightboxVerify, InBatchesOnAnyThreadsGivesTheEventByEventVerdict) {
  const std::vector<std::string> lines = Lines(Chain(9000));
  std::vector<std::vector<std::string>> files = {lines, {}, {lines[0]}};
  for (const std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096},
                               std::size_t{4097}, std::size_t{8999}}) {
    std::vector<std::string> edited = lines;
    edited[at].replace(edited[at].find(R"("tool":"t")"), 10, R"("tool":"u")");
    files.push_back(edited);
    std::vector<std::string> unreadable = lines;
    unreadable[at] = "{";
    files.push_back(unreadable);
    if (at > 0) {
      std::vector<std::string> deleted = lines;
      deleted.erase(deleted.begin() + static_cast<std::ptrdiff_t>(at));
      files.push_back(deleted);
      std::vector<std::string> reordered = lines;
      std::swap(reordered[at - 1], reordered[at]);
      files.push_back(reordered);
    }
  }
  std::vector<std::string> blank_lines = lines;
  for (std::size_t i = 0; i < blank_lines.size(); i += 3) blank_lines[i] += "\n";
  files.push_back(blank_lines);
  for (const std::vector<std::string>& file : files) {
    const std::string text = Join(file);
    const ChainVerdict one = CheckedEventByEvent(text);
    for (const unsigned threads : {1u, 2u, 3u}) {
      jsonl::MemorySource source(text);
      Result<ChainVerdict> many = Verify(&source, {}, threads);
      ASSERT_TRUE(many.ok()) << many.status().message();
      EXPECT_EQ(many->events, one.events) << threads;
      EXPECT_EQ(BreakName(many->first_break), BreakName(one.first_break)) << one.reason;
      EXPECT_EQ(many->first_broken, one.first_broken) << one.reason;
      EXPECT_EQ(many->reason, one.reason) << threads;
    }
  }
}

// Workers fill their batches again once checked; a batch that held a line of megabytes gives its
// memory back first. The lines after one must still read as they are.
TEST(LightboxVerify, InParallelReadsLongLinesAmongShortOnes) {
  std::string input;
  for (int i = 0; i < 12000; ++i) {
    std::string event = Event(i);
    if (i % 2500 == 7) {
      event.insert(event.find(R"("output":{})") + 10,
                   R"("text":")" + std::string(3 << 20, 'x') + '"');
    }
    input += event + "\n";
  }
  jsonl::MemorySource source(input);
  std::string chain;
  ASSERT_TRUE(WriteChain(&source, {}, &chain).ok());
  const std::vector<std::string> lines = Lines(chain);
  for (const std::size_t changed : {std::size_t{0}, std::size_t{7}, std::size_t{11000}}) {
    std::vector<std::string> edited = lines;
    if (changed > 0) {
      edited[changed].replace(edited[changed].find(R"("tool":"t")"), 10, R"("tool":"u")");
    }
    const std::string text = Join(edited);
    const ChainVerdict one = Verified(text);
    EXPECT_EQ(one.intact(), changed == 0);
    if (changed > 0) {
      EXPECT_EQ(one.first_broken, changed);
    }
    for (const unsigned threads : {2u, 3u}) {
      jsonl::MemorySource many_source(text);
      Result<ChainVerdict> many = Verify(&many_source, {}, threads);
      ASSERT_TRUE(many.ok()) << many.status().message();
      EXPECT_EQ(many->events, 12000u);
      EXPECT_EQ(many->first_broken, one.first_broken) << threads;
      EXPECT_EQ(many->reason, one.reason) << threads;
    }
  }
}

TEST(LightboxVerify, InParallelStopsAtTheLimitsTheOneThreadVerifyStopsAt) {
  const std::string text = Chain(5000);
  Limits limits;
  limits.max_events = 4500;
  jsonl::MemorySource one_source(text);
  const Result<ChainVerdict> one = Verify(&one_source, limits);
  jsonl::MemorySource many_source(text);
  const Result<ChainVerdict> many = Verify(&many_source, limits, 2);
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(many.status().code(), one.status().code());
  EXPECT_EQ(many.status().message(), one.status().message());
}

}  // namespace
}  // namespace arcs::lightbox
