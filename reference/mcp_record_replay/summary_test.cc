#include "reference/mcp_record_replay/summary.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "reference/core/json_fields.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/testing/recording_text.h"

namespace arcs::mcp_record_replay {
namespace {

constexpr char kHeader[] =
    R"({"type":"header","version":"1.0","name":"demo","tags":["a","b"],"recorded_at":"2026-11-28T10:00:00Z","upstream":"node server.js","thoughtjack_version":"arcs 0.2.0","redaction":{"env":["API_KEY"]}})";

using testing::ErrorResponse;
using testing::Notification;
using testing::RecordingText;
using testing::Request;
using testing::Response;

// A session with everything a summary counts; what it must find is worked out by hand below.
struct Session {
  RecordingText rec{kHeader};
  std::uint64_t unanswered_seq = 0;
  std::uint64_t error_seq = 0;

  Session() {
    rec.Add("c2s", Request("1", "initialize"));
    rec.Add("s2c", Response("1"), 10);
    rec.Add("c2s", Notification("notifications/initialized"));
    // Two echo calls in flight at once, answered out of order: paired by id, not by position.
    rec.Add("c2s", Request("2", "tools/call", R"({"name":"echo"})"));
    rec.Add("c2s", Request("3", "tools/call", R"({"name":"echo"})"));
    rec.Add("s2c", Response("3", R"({"content":[],"isError":true})"), 30);
    rec.Add("s2c", Response("2", R"({"content":[],"isError":false})"), 20);
    rec.Add("c2s", Request("4", "tools/call", R"({"name":"add"})"));
    error_seq =
        rec.Add("s2c", ErrorResponse("4", R"({"code":-32602,"message":"Unknown tool"})"), 40);
    rec.Add("s2c", Notification("notifications/message"));
    rec.Add("s2c", Request("\"s1\"", "sampling/createMessage"));
    rec.Add("c2s", Response("\"s1\""), 5);
    unanswered_seq = rec.Add("c2s", Request("5", "tools/call", R"({"name":"echo"})"));
    rec.Add("s2c", Notification("arcs/unrecorded", R"({"reason":"not_json"})"));
    rec.Add("s2c", Notification("arcs/unrecorded", R"({"reason":"not_json"})"));
    rec.Add("c2s", Notification("arcs/unrecorded", R"({"reason":"invalid_utf8"})"));
    rec.Add("c2s", Request("6", "tools/call", R"({"name":"echo"})"));
    rec.Add("s2c", Response("6"), 100);
    // 20 reads whose latencies are 1..20 in a shuffled order (7 is prime to 20): nearest rank,
    // p50 is the 10th smallest (10), p95 the 19th (19), max 20.
    for (int i = 0; i < 20; ++i) {
      rec.Add("c2s", Request(std::to_string(100 + i), "resources/read"));
      rec.Add("s2c", Response(std::to_string(100 + i)), (i * 7) % 20 + 1);
    }
    rec.Footer(5000, 29, 29);
  }
};

RecordingSummary SummaryOf(const std::string& text) {
  jsonl::MemorySource source(text);
  Result<LoadedRecording> loaded = LoadRecording(&source, {});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok()) return {};
  Result<RecordingSummary> s = Summarize(*loaded, MemoryRandomAccess(text), text.size());
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : RecordingSummary{};
}

const MethodSummary* FindMethod(const RecordingSummary& s, std::string_view method, Direction dir) {
  for (const MethodSummary& m : s.methods) {
    if (m.method == method && m.dir == dir) return &m;
  }
  return nullptr;
}

std::vector<std::string> Tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

constexpr auto kC2s = Direction::kClientToServer;
constexpr auto kS2c = Direction::kServerToClient;
constexpr auto kRequest = static_cast<std::size_t>(MessageKind::kRequest);
constexpr auto kNotification = static_cast<std::size_t>(MessageKind::kNotification);
constexpr auto kResponse = static_cast<std::size_t>(MessageKind::kResponse);
constexpr auto kError = static_cast<std::size_t>(MessageKind::kError);

TEST(SummaryTest, HeaderAndFooter) {
  const RecordingSummary s = SummaryOf(Session().rec.text());
  EXPECT_EQ(s.header.name, "demo");
  EXPECT_EQ(s.header.upstream, "node server.js");
  EXPECT_EQ(s.header.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.redaction, R"({"env":["API_KEY"]})");
  EXPECT_TRUE(s.has_footer);
  ASSERT_TRUE(s.footer);
  EXPECT_EQ(s.footer->total_messages, 58u);
  EXPECT_EQ(s.footer->duration_ms, 5000u);
  EXPECT_EQ(s.footer->client_messages, 29u);
  EXPECT_EQ(s.footer->server_messages, 29u);
}

TEST(SummaryTest, CountsByDirectionAndKind) {
  const RecordingSummary s = SummaryOf(Session().rec.text());
  EXPECT_EQ(s.total_messages, 58u);
  const auto& c2s = s.counts[static_cast<std::size_t>(kC2s)];
  const auto& s2c = s.counts[static_cast<std::size_t>(kS2c)];
  EXPECT_EQ(c2s[kRequest], 26u);  // initialize, 5 tools/call, 20 resources/read
  EXPECT_EQ(c2s[kNotification], 2u);
  EXPECT_EQ(c2s[kResponse], 1u);  // the sampling answer
  EXPECT_EQ(c2s[kError], 0u);
  EXPECT_EQ(s2c[kRequest], 1u);
  EXPECT_EQ(s2c[kNotification], 3u);
  EXPECT_EQ(s2c[kResponse], 24u);
  EXPECT_EQ(s2c[kError], 1u);
}

TEST(SummaryTest, MethodsWithLatencyPercentiles) {
  const RecordingSummary s = SummaryOf(Session().rec.text());
  // Each method once per direction; arcs/unrecorded is no method of the session.
  EXPECT_EQ(s.methods.size(), 6u);
  EXPECT_FALSE(FindMethod(s, "arcs/unrecorded", kS2c));
  const MethodSummary* calls = FindMethod(s, "tools/call", kC2s);
  ASSERT_TRUE(calls);
  EXPECT_EQ(calls->requests, 5u);
  EXPECT_EQ(calls->errors, 1u);
  ASSERT_TRUE(calls->latency);
  EXPECT_EQ(calls->latency->count, 4u);  // 20 30 40 100: the fifth call is unanswered
  EXPECT_EQ(calls->latency->p50, 30u);   // rank ceil(0.5 * 4) = 2
  EXPECT_EQ(calls->latency->p95, 100u);  // rank ceil(0.95 * 4) = 4
  EXPECT_EQ(calls->latency->max, 100u);
  const MethodSummary* reads = FindMethod(s, "resources/read", kC2s);
  ASSERT_TRUE(reads && reads->latency);
  EXPECT_EQ(reads->latency->p50, 10u);
  EXPECT_EQ(reads->latency->p95, 19u);
  EXPECT_EQ(reads->latency->max, 20u);
  const MethodSummary* sampling = FindMethod(s, "sampling/createMessage", kS2c);
  ASSERT_TRUE(sampling && sampling->latency);
  EXPECT_EQ(sampling->latency->max, 5u);  // the client's answer carries it
  const MethodSummary* initialized = FindMethod(s, "notifications/initialized", kC2s);
  ASSERT_TRUE(initialized);
  EXPECT_EQ(initialized->notifications, 1u);
  EXPECT_FALSE(initialized->latency);
}

TEST(SummaryTest, ToolsUnansweredErrorsAndUnrecorded) {
  const Session session;
  const RecordingSummary s = SummaryOf(session.rec.text());
  ASSERT_EQ(s.tools.size(), 2u);
  EXPECT_EQ(s.tools[0].name, "add");
  EXPECT_EQ(s.tools[0].calls, 1u);
  EXPECT_EQ(s.tools[0].failed, 1u);  // a JSON-RPC error
  EXPECT_EQ(s.tools[1].name, "echo");
  EXPECT_EQ(s.tools[1].calls, 4u);
  EXPECT_EQ(s.tools[1].failed, 1u);  // isError true; isError false is no failure
  ASSERT_EQ(s.unanswered.size(), 1u);
  EXPECT_EQ(s.unanswered[0].seq, session.unanswered_seq);
  EXPECT_EQ(s.unanswered[0].method, "tools/call");
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].seq, session.error_seq);
  EXPECT_EQ(s.errors[0].method, "tools/call");
  EXPECT_EQ(s.errors[0].code, "-32602");
  EXPECT_EQ(s.errors[0].message, "Unknown tool");
  ASSERT_EQ(s.unrecorded.size(), 2u);
  EXPECT_EQ(s.unrecorded[0], (std::pair<std::string, std::uint64_t>{"invalid_utf8", 1}));
  EXPECT_EQ(s.unrecorded[1], (std::pair<std::string, std::uint64_t>{"not_json", 2}));
}

TEST(SummaryTest, NoFooterNoRedaction) {
  RecordingText rec;
  rec.Add("c2s", Request("1", "ping"));
  const RecordingSummary s = SummaryOf(rec.text());
  EXPECT_FALSE(s.has_footer);
  EXPECT_FALSE(s.footer);
  EXPECT_FALSE(s.redaction);
  EXPECT_FALSE(s.header.name);
  EXPECT_EQ(s.unanswered.size(), 1u);
  const std::string text = Join(SummaryText(s), "\n");
  EXPECT_NE(text.find("footer: none"), std::string::npos);
  json::Document doc;
  ASSERT_TRUE(json::ParseData(SummaryJson(s), &doc).ok());
  EXPECT_TRUE(doc.root().Find("header")->Find("name")->is_null());
  EXPECT_TRUE(doc.root().Find("header")->Find("redaction")->is_null());
  EXPECT_EQ(doc.root().Find("footer")->Find("present")->kind(), json::Kind::kFalse);
  EXPECT_TRUE(doc.root().Find("footer")->Find("total_messages")->is_null());
}

TEST(SummaryTest, TextIsAlignedAndSaysWhatTheSummaryHolds) {
  const Session session;
  const std::vector<std::string> lines = SummaryText(SummaryOf(session.rec.text()));
  const auto method_rows = [&] {
    std::vector<std::string> rows;
    bool in = false;
    for (const std::string& line : lines) {
      if (!line.starts_with("  "))
        in = line.starts_with("methods");
      else if (in)
        rows.push_back(line);
    }
    return rows;
  }();
  ASSERT_EQ(method_rows.size(), 7u);  // the column names and six methods
  for (const std::string& row : method_rows) EXPECT_EQ(row.size(), method_rows[0].size()) << row;
  bool calls = false, error = false, unanswered = false, footer = false;
  for (const std::string& line : lines) {
    const std::vector<std::string> t = Tokens(line);
    if (!t.empty() && t[0] == "tools/call") {
      calls = true;
      EXPECT_EQ(t,
                (std::vector<std::string>{"tools/call", "c2s", "5", "0", "1", "30", "100", "100"}));
    }
    if (t.size() > 1 && t[0] == "seq" && t[1] == std::to_string(session.error_seq)) {
      error = true;
      EXPECT_EQ(t, (std::vector<std::string>{"seq", std::to_string(session.error_seq), "s2c",
                                             "tools/call", "-32602", "Unknown", "tool"}));
    }
    if (t.size() > 1 && t[0] == "seq" && t[1] == std::to_string(session.unanswered_seq)) {
      unanswered = true;
    }
    if (line == "footer: 58 messages (29 client, 29 server), 5000 ms") footer = true;
  }
  EXPECT_TRUE(calls && error && unanswered && footer);
}

TEST(SummaryTest, TextListsAtMostMaxListed) {
  RecordingText rec(kHeader);
  for (int i = 0; i < 5; ++i) rec.Add("c2s", Request(std::to_string(i), "ping"));
  const std::string text = Join(SummaryText(SummaryOf(rec.text()), 2), "\n");
  EXPECT_NE(text.find("unanswered requests: 5"), std::string::npos);
  EXPECT_NE(text.find("and 3 more"), std::string::npos);
}

TEST(SummaryTest, JsonHasTheFields) {
  const Session session;
  json::Document doc;
  const Status parsed = json::ParseData(SummaryJson(SummaryOf(session.rec.text())), &doc);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  const json::Value& root = doc.root();
  EXPECT_EQ(root.Find("header")->Find("redaction")->Find("env")->items()[0].text(), "API_KEY");
  EXPECT_EQ(root.Find("footer")->Find("duration_ms")->text(), "5000");
  EXPECT_EQ(root.Find("messages")->Find("total")->text(), "58");
  EXPECT_EQ(root.Find("messages")->Find("s2c")->Find("error")->text(), "1");
  bool calls = false;
  for (const json::Value& m : root.Find("methods")->items()) {
    if (m.Find("method")->text() != "tools/call") continue;
    calls = true;
    EXPECT_EQ(m.Find("dir")->text(), "c2s");
    EXPECT_EQ(m.Find("latency_ms")->Find("p50")->text(), "30");
    EXPECT_EQ(m.Find("latency_ms")->Find("p95")->text(), "100");
  }
  EXPECT_TRUE(calls);
  EXPECT_EQ(root.Find("tools")->items()[1].Find("failed")->text(), "1");
  EXPECT_EQ(root.Find("unanswered")->items()[0].Find("seq")->text(),
            std::to_string(session.unanswered_seq));
  const json::Value& error = root.Find("errors")->items()[0];
  EXPECT_EQ(error.Find("code")->text(), "-32602");
  EXPECT_EQ(error.Find("message")->text(), "Unknown tool");
  EXPECT_EQ(root.Find("unrecorded")->items()[1].Find("count")->text(), "2");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
