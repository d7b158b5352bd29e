#include "reference/mcp_record_replay/http_replay_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "reference/core/json.h"
#include "reference/mcp_record_replay/loader.h"

namespace arcs::mcp_record_replay {
namespace {

// initialize; the client's initialized notification, after which the server asked for roots; a
// tool call during which it asked for sampling, answered before the call's response.
constexpr char kRecording[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"s"}}}}
{"type":"message","seq":3,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
{"type":"message","seq":4,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":"r","method":"roots/list"}}
{"type":"message","seq":5,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}}
{"type":"message","seq":6,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":"s","method":"sampling/createMessage"}}
{"type":"message","seq":7,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":"s","result":{}}}
{"type":"message","seq":8,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":"called"}}
)";

// A call whose progress the recording has after the client's answer to a roots request sent before
// the call (the client sent the call, then answered).
constexpr char kProgressAfterAnAnswer[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
{"type":"message","seq":3,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":"r","method":"roots/list"}}
{"type":"message","seq":4,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":2}}}}
{"type":"message","seq":5,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":"r","result":{"roots":[]}}}
{"type":"message","seq":6,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}}}
{"type":"message","seq":7,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"result":"called"}}
)";

// A call held for the client's answers to two server requests, with progress between the answers.
constexpr char kProgressWhileHeld[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":"p"}}}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":"a","method":"roots/list"}}
{"type":"message","seq":3,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":"b","method":"sampling/createMessage"}}
{"type":"message","seq":4,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":"a","result":{}}}
{"type":"message","seq":5,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}}
{"type":"message","seq":6,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":"b","result":{}}}
{"type":"message","seq":7,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":"called"}}
)";

class HttpReplayTest : public ::testing::Test {
 protected:
  void Start(OnUnmatched unmatched = OnUnmatched::kWarn, Upstream* upstream = nullptr,
             std::string_view recording = kRecording) {
    lines_.emplace(recording);
    jsonl::MemorySource source(recording);
    Result<LoadedRecording> loaded = LoadRecording(&source, {});
    ASSERT_TRUE(loaded.ok());
    loaded_ = std::move(*loaded);
    ReplayOptions options;
    options.match_mode = MatchMode::kByRequest;
    options.on_unmatched = unmatched;
    Result<Replayer> replayer = Replayer::Create(loaded_, *lines_, options);
    ASSERT_TRUE(replayer.ok());
    replayer_.emplace(std::move(*replayer));
    std::promise<std::uint16_t> port;
    served_ = std::async(std::launch::async, [this, &port, upstream] {
      return ServeReplayHttp(&*replayer_, {"127.0.0.1", 0}, upstream, log_, &stop_, {},
                             [&port](std::uint16_t p) { port.set_value(p); });
    });
    port_ = port.get_future().get();
  }
  void TearDown() override {
    stop_ = true;
    if (served_.valid()) served_.get();
  }

  // A POST of one message: the events of its answer, or its status when it has no stream; the
  // answer's content type and session id go to *headers when given.
  std::vector<std::string> Post(const std::string& body,
                                std::pair<std::string, std::string>* headers = nullptr) {
    httplib::Client client("127.0.0.1", port_);
    httplib::Result r = client.Post("/mcp", body, "application/json");
    EXPECT_TRUE(r);
    if (!r) return {};
    if (headers) {
      *headers = {r->get_header_value("Content-Type"), r->get_header_value("Mcp-Session-Id")};
    }
    if (r->status != 200) return {"status " + std::to_string(r->status)};
    http::SseReader reader;
    std::vector<http::SseEvent> events;
    EXPECT_TRUE(reader.Feed(r->body, &events).ok());
    std::vector<std::string> out;
    for (const http::SseEvent& e : events) out.push_back(e.data);
    return out;
  }

  // A POST of one request whose answer's events are handed to `each` as they come, in the order
  // the stream carries them; all of them once the stream has ended.
  std::vector<std::string> PostStreaming(const std::string& body,
                                         const std::function<void(const std::string&)>& each) {
    httplib::Client client("127.0.0.1", port_);
    httplib::Request request;
    request.method = "POST";
    request.path = "/mcp";
    request.body = body;
    request.headers = {{"Content-Type", "application/json"}, {"Accept", "text/event-stream"}};
    http::SseReader reader;
    std::vector<std::string> out;
    request.content_receiver = [&](const char* data, std::size_t size, std::uint64_t,
                                   std::uint64_t) {
      std::vector<http::SseEvent> events;
      EXPECT_TRUE(reader.Feed(std::string_view(data, size), &events).ok());
      for (const http::SseEvent& e : events) {
        out.push_back(e.data);
        each(e.data);
      }
      return true;
    };
    EXPECT_TRUE(client.send(request));
    return out;
  }

  std::optional<MemoryRandomAccess> lines_;
  LoadedRecording loaded_;
  std::optional<Replayer> replayer_;
  std::atomic<bool> stop_{false};
  std::function<void(std::string_view)> log_ = [](std::string_view) {};
  std::future<Served> served_;
  std::uint16_t port_ = 0;
};

TEST_F(HttpReplayTest, ARequestIsAnsweredOnItsStreamWithASession) {
  Start();
  std::pair<std::string, std::string> headers;
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{}})", &headers),
            std::vector<std::string>{
                R"({"jsonrpc":"2.0","id":"a","result":{"serverInfo":{"name":"s"}}})"});
  EXPECT_EQ(headers.first, "text/event-stream");
  EXPECT_EQ(headers.second.size(), 32u);
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"),
            std::vector<std::string>{"status 202"});
  EXPECT_EQ(Post("[1,2]"), std::vector<std::string>{"status 400"});
}

// What follows a notification goes to the GET stream; a response held for the client's answer
// reaches its own request's stream once the answer is POSTed.
TEST_F(HttpReplayTest, ServerMessagesGoWhereTheyBelong) {
  Start();
  Post(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{}})");
  std::promise<std::string> roots;
  std::thread get([&] {
    httplib::Client client("127.0.0.1", port_);
    http::SseReader reader;
    std::vector<http::SseEvent> events;
    bool given = false;
    client.Get("/mcp", {{"Accept", "text/event-stream"}}, [&](const char* data, std::size_t size) {
      EXPECT_TRUE(reader.Feed(std::string_view(data, size), &events).ok());
      if (!events.empty() && !given) {
        roots.set_value(events.front().data);
        given = true;
      }
      return !given;
    });
    if (!given) roots.set_value("(none)");
  });
  Post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(roots.get_future().get(), R"({"jsonrpc":"2.0","id":"r","method":"roots/list"})");
  get.join();
  std::future<std::vector<std::string>> call = std::async(std::launch::async, [this] {
    return Post(R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}})");
  });
  // The call's stream holds the sampling request and waits: its response needs the answer.
  EXPECT_EQ(call.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","id":"s","result":{"live":1}})"),
            std::vector<std::string>{"status 202"});
  EXPECT_EQ(call.get(), (std::vector<std::string>{
                            R"({"jsonrpc":"2.0","id":"s","method":"sampling/createMessage"})",
                            R"({"jsonrpc":"2.0","id":"c","result":"called"})"}));
}

// The call is POSTed before the answer that passes its progress's recorded place: the progress goes
// out on the call's stream before its response all the same, never after it on the GET stream.
TEST_F(HttpReplayTest, ACallsProgressPrecedesItsResponseOnItsStream) {
  Start(OnUnmatched::kWarn, nullptr, kProgressAfterAnAnswer);
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"),
            std::vector<std::string>{R"({"jsonrpc":"2.0","id":1,"result":{}})"});
  EXPECT_EQ(
      Post(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t",)"
           R"("_meta":{"progressToken":2}}})"),
      (std::vector<std::string>{
          R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}})",
          R"({"jsonrpc":"2.0","id":2,"result":"called"})"}));
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","id":"r","result":{"roots":[]}})"),
            std::vector<std::string>{"status 202"});
}

// Progress an answer passes while its call is held goes to the call's stream, not the GET stream.
// The answers are POSTed once the call's stream has carried both server requests.
TEST_F(HttpReplayTest, ProgressPassedByAnAnswerGoesToItsCallsStream) {
  Start(OnUnmatched::kWarn, nullptr, kProgressWhileHeld);
  std::promise<void> asked;
  std::future<std::vector<std::string>> call = std::async(std::launch::async, [&] {
    return PostStreaming(R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t",)"
                         R"("_meta":{"progressToken":"p"}}})",
                         [&](const std::string& event) {
                           if (event.find("sampling/createMessage") != std::string::npos) {
                             asked.set_value();
                           }
                         });
  });
  ASSERT_EQ(asked.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","id":"a","result":{}})"),
            std::vector<std::string>{"status 202"});
  EXPECT_EQ(Post(R"({"jsonrpc":"2.0","id":"b","result":{}})"),
            std::vector<std::string>{"status 202"});
  EXPECT_EQ(
      call.get(),
      (std::vector<std::string>{
          R"({"jsonrpc":"2.0","id":"a","method":"roots/list"})",
          R"({"jsonrpc":"2.0","id":"b","method":"sampling/createMessage"})",
          R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}})",
          R"({"jsonrpc":"2.0","id":"c","result":"called"})"}));
}

TEST_F(HttpReplayTest, AnUnmatchedErrorEndsTheReplayOnceWritten) {
  Start(OnUnmatched::kError);
  EXPECT_EQ(
      Post(R"({"jsonrpc":"2.0","id":9,"method":"unknown"})"),
      std::vector<std::string>{
          R"({"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"No matching response"}})"});
  EXPECT_EQ(served_.get().end, ServeEnd::kUnmatched);
}

// Passthrough to an upstream that has already gone: the unmatched request is answered with an
// error, never left with its stream open.
TEST_F(HttpReplayTest, AForwardTheUpstreamCannotTakeIsAnsweredWithAnError) {
  std::signal(SIGPIPE, SIG_IGN);  // as the verb has it: a write to the gone upstream is EPIPE
  Result<std::unique_ptr<Upstream>> upstream = Upstream::Start("exec true");
  ASSERT_TRUE(upstream.ok());
  ASSERT_TRUE((*upstream)->WaitForExit(std::chrono::seconds(30)));
  Start(OnUnmatched::kPassthrough, upstream->get());
  const std::vector<std::string> events = Post(R"({"jsonrpc":"2.0","id":9,"method":"unknown"})");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].find(R"("id":9,"error":{"code":-32000,"message":"passthrough: )"),
            std::string::npos)
      << events[0];
}

}  // namespace
}  // namespace arcs::mcp_record_replay
