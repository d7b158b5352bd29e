#include "reference/mcp_record_replay/http_transport.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arcs::mcp_record_replay::http {
namespace {

std::vector<SseEvent> ReadInPieces(std::string_view stream, std::size_t piece) {
  SseReader reader;
  std::vector<SseEvent> events;
  for (std::size_t at = 0; at < stream.size(); at += piece) {
    EXPECT_TRUE(reader.Feed(stream.substr(at, piece), &events).ok());
  }
  return events;
}

TEST(SseTest, AFrameIsDataLinesAndABlankLine) {
  EXPECT_EQ(SseFrame(R"({"a":1})"), "data: {\"a\":1}\n\n");
  EXPECT_EQ(SseFrame("x\ny", "message", "7"), "event: message\nid: 7\ndata: x\ndata: y\n\n");
}

// The stream of the WHATWG examples' kind: comments, a field without a space, CRLF and CR line
// ends, a multi-line payload, an id that later events keep, an event without data (no event).
TEST(SseTest, EventsComeOutWholeWhateverTheReadsAre) {
  const std::string stream =
      "\xEF\xBB\xBF: a comment\r\n"
      "event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\"}\r\n\r\n"
      "data:first\rdata: second\r\r"
      "event: ping\n\n"
      "data: last\n\n"
      "data: unfinished";
  for (std::size_t piece : {std::size_t{1}, std::size_t{2}, std::size_t{7}, stream.size()}) {
    const std::vector<SseEvent> events = ReadInPieces(stream, piece);
    ASSERT_EQ(events.size(), 3u) << piece;
    EXPECT_EQ(events[0].event, "message");
    EXPECT_EQ(events[0].data, R"({"jsonrpc":"2.0"})");
    EXPECT_EQ(events[0].id, "1");
    EXPECT_TRUE(events[0].own_id);
    EXPECT_EQ(events[1].data, "first\nsecond");
    EXPECT_EQ(events[1].event, "");
    EXPECT_EQ(events[1].id, "1");
    EXPECT_FALSE(events[1].own_id);
    EXPECT_EQ(events[2].data, "last");
  }
}

// An id set by lines that dispatch no event (no data) is the next event's, but not its own: the
// recorder tells an event the upstream sent again by the ids events carry themselves.
TEST(SseTest, AnEventKnowsWhetherItsIdIsItsOwn) {
  const std::vector<SseEvent> events =
      ReadInPieces("id: 5\n\ndata: a\n\nid: 6\ndata: b\n\nid\ndata: c\n\n", 3);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].id, "5");
  EXPECT_FALSE(events[0].own_id);
  EXPECT_EQ(events[1].id, "6");
  EXPECT_TRUE(events[1].own_id);
  EXPECT_EQ(events[2].id, "");  // an empty id resets the stream's
  EXPECT_TRUE(events[2].own_id);
}

TEST(SseTest, AnEventPastTheLimitIsAnError) {
  SseReader reader(16);
  std::vector<SseEvent> events;
  EXPECT_TRUE(reader.Feed("data: short\n\n", &events).ok());
  EXPECT_EQ(reader.Feed("data: " + std::string(20, 'x'), &events).code(),
            StatusCode::kLimitExceeded);
  EXPECT_FALSE(reader.Feed("\n\n", &events).ok());
  EXPECT_EQ(events.size(), 1u);
}

TEST(AddressTest, ListenAddresses) {
  EXPECT_EQ(ParseListenAddress("8080")->host, "127.0.0.1");
  EXPECT_EQ(ParseListenAddress(":8080")->port, 8080);
  EXPECT_EQ(ParseListenAddress("0.0.0.0:0")->host, "0.0.0.0");
  EXPECT_EQ(ParseListenAddress("[::1]:9")->host, "::1");
  for (const char* bad : {"", ":", "host:", ":65536", ":-1", "a b:1", "[::1]x:1", "1.2.3.4:8x"}) {
    EXPECT_FALSE(ParseListenAddress(bad).ok()) << bad;
  }
}

TEST(AddressTest, UpstreamUrls) {
  Result<HttpUrl> url = ParseHttpUrl("http://127.0.0.1:3001/mcp?x=1");
  ASSERT_TRUE(url.ok());
  EXPECT_FALSE(url->tls);
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, 3001);
  EXPECT_EQ(url->path, "/mcp?x=1");
  EXPECT_EQ(ParseHttpUrl("https://example.org")->port, 443);
  EXPECT_EQ(ParseHttpUrl("https://example.org")->path, "/");
  EXPECT_EQ(ParseHttpUrl("http://[::1]:8/")->host, "::1");
  for (const char* bad : {"ftp://h/", "http://", "http://:80/", "http://h:0/", "http://h:x/",
                          "http://user:pw@h/", "h:80"}) {
    EXPECT_FALSE(ParseHttpUrl(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace arcs::mcp_record_replay::http
