#include "reference/mcp_record_replay/replay_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace arcs::mcp_record_replay {
namespace {

// A stub upstream (EC-REC-009): logs the method of every message it gets, sends a notification of
// its own before each answer (which passthrough passes on), answers "fail" with an error,
// "ask" with a request of its own first (answered with the client's answer), and anything else with
// {"echo": method}.
constexpr char kStub[] = R"(
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    msg = json.loads(line)
    log.write(msg.get("method", "?") + "\n"); log.flush()
    if "id" not in msg: continue
    if "method" not in msg:
        log.write("answer " + json.dumps(msg["id"]) + " " + json.dumps(msg["result"]) + "\n"); log.flush()
        continue
    print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message"}), flush=True)
    if msg["method"] == "ask":
        print(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "roots/list"}), flush=True)
        answer = json.loads(sys.stdin.readline())
        log.write("answer " + json.dumps(answer["id"]) + " " + json.dumps(answer["result"]) + "\n"); log.flush()
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"roots": answer["result"]}}), flush=True)
    elif msg["method"] == "fail":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -7, "message": "no"}}), flush=True)
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"echo": msg["method"]}}), flush=True)
)";

constexpr char kRecording[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:01Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{}}}
{"type":"message","seq":3,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"recorded","params":{}}}
{"type":"message","seq":4,"ts":"2025-02-04T10:00:02Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":"from the recording"}}
)";

// Serves `script` (written, then the client's input closed, before the replay starts) from
// `recording` under passthrough to the upstream `command`; what the client was sent.
std::string ServeScript(std::string_view recording, MatchMode mode, const std::string& command,
                        const std::string& script, const ServeOptions& serve,
                        const std::atomic<bool>* stop,
                        const std::function<void(std::string_view)>& log, ServeEnd* end) {
  jsonl::MemorySource source(recording);
  Result<LoadedRecording> loaded = LoadRecording(&source, {});
  EXPECT_TRUE(loaded.ok());
  const MemoryRandomAccess lines(recording);
  ReplayOptions options;
  options.match_mode = mode;
  options.on_unmatched = OnUnmatched::kPassthrough;
  Result<Replayer> replayer = Replayer::Create(*loaded, lines, options);
  EXPECT_TRUE(replayer.ok());
  Result<std::unique_ptr<Upstream>> upstream = Upstream::Start(command);
  EXPECT_TRUE(upstream.ok());
  int in[2], out[2];
  EXPECT_EQ(pipe(in), 0);
  EXPECT_EQ(pipe(out), 0);
  EXPECT_EQ(write(in[1], script.data(), script.size()), static_cast<ssize_t>(script.size()));
  close(in[1]);
  *end = ServeReplay(&*replayer, in[0], out[1], upstream->get(), log, stop, serve).end;
  close(in[0]);
  close(out[1]);
  std::string answers;
  char buffer[4096];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) answers.append(buffer, n);
  close(out[0]);
  return answers;
}

class PassthroughTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/arcs-passthrough-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    std::ofstream(dir_ + "/stub.py") << kStub;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  std::string Serve(const std::string& script, ServeEnd* end) {
    return ServeScript(
        kRecording, MatchMode::kByRequest,
        "/usr/bin/python3 '" + dir_ + "/stub.py' '" + dir_ + "/log'", script, {}, nullptr,
        [this](std::string_view line) { log_.emplace_back(line); }, end);
  }

  std::string UpstreamLog() {
    std::ifstream log(dir_ + "/log");
    std::stringstream text;
    text << log.rdbuf();
    return text.str();
  }

  std::string dir_;
  std::vector<std::string> log_;
};

TEST_F(PassthroughTest, ForwardsOnlyUnmatchedRequestsInASessionOfItsOwn) {
  ServeEnd end = ServeEnd::kFailed;
  const std::string answers = Serve(R"({"jsonrpc":"2.0","id":"a","method":"recorded","params":{}})"
                                    "\n"
                                    R"({"jsonrpc":"2.0","id":"b","method":"new"})"
                                    "\n"
                                    R"({"jsonrpc":"2.0","method":"notifications/x"})"
                                    "\n"
                                    R"({"jsonrpc":"2.0","id":7,"method":"fail"})"
                                    "\n",
                                    &end);
  EXPECT_EQ(end, ServeEnd::kClientClosed);
  // The upstream's notifications reach the client (errata MRR-E42), and so do its answers.
  EXPECT_EQ(answers, R"({"jsonrpc":"2.0","id":"a","result":"from the recording"})"
                     "\n"
                     // before its answers to the handshake and to "b"
                     R"({"jsonrpc": "2.0", "method": "notifications/message"})"
                     "\n"
                     R"({"jsonrpc": "2.0", "method": "notifications/message"})"
                     "\n"
                     R"({"jsonrpc": "2.0", "id": "b", "result": {"echo": "new"}})"
                     "\n"
                     R"({"jsonrpc": "2.0", "method": "notifications/message"})"
                     "\n"
                     R"({"jsonrpc": "2.0", "id": 7, "error": {"code": -7, "message": "no"}})"
                     "\n");
  // The upstream's session starts with the recorded initialize (the client sent none) and the
  // initialized notification; the matched request never reaches it; the client's notification
  // does, once the session has started.
  EXPECT_EQ(UpstreamLog(), "initialize\nnotifications/initialized\nnew\nnotifications/x\nfail\n");
}

TEST_F(PassthroughTest, TheUpstreamsRequestsReachTheClientAndItsAnswersGoBack) {
  int in[2], out[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(pipe(out), 0);
  const std::string first = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"live":1}})"
                            "\n"
                            R"({"jsonrpc":"2.0","id":1,"method":"ask"})"
                            "\n";
  ASSERT_EQ(write(in[1], first.data(), first.size()), static_cast<ssize_t>(first.size()));
  std::string answers;
  std::thread client([&] {
    // Reads until the upstream's request has come, answers it, then closes its input.
    char buffer[4096];
    while (answers.find("roots/list") == std::string::npos) {
      const ssize_t n = read(out[0], buffer, sizeof buffer);
      if (n <= 0) break;
      answers.append(buffer, static_cast<std::size_t>(n));
    }
    const std::size_t at = answers.find("\"id\":\"arcs-upstream-");
    const std::string id = answers.substr(at + 5, answers.find('"', at + 6) - at - 4);
    const std::string reply = R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":["r"]})" + "\n";
    EXPECT_EQ(write(in[1], reply.data(), reply.size()), static_cast<ssize_t>(reply.size()));
    close(in[1]);
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) answers.append(buffer, n);
  });
  jsonl::MemorySource source(kRecording);
  Result<LoadedRecording> loaded = LoadRecording(&source, {});
  ASSERT_TRUE(loaded.ok());
  const MemoryRandomAccess lines(kRecording);
  ReplayOptions options;
  options.on_unmatched = OnUnmatched::kPassthrough;
  options.match_mode = MatchMode::kByRequest;
  Result<Replayer> replayer = Replayer::Create(*loaded, lines, options);
  ASSERT_TRUE(replayer.ok());
  Result<std::unique_ptr<Upstream>> upstream =
      Upstream::Start("/usr/bin/python3 '" + dir_ + "/stub.py' '" + dir_ + "/log'");
  ASSERT_TRUE(upstream.ok());
  const Served served =
      ServeReplay(&*replayer, in[0], out[1], upstream->get(), [](std::string_view) {});
  close(out[1]);
  client.join();
  close(in[0]);
  close(out[0]);
  EXPECT_EQ(served.end, ServeEnd::kClientClosed);
  // The client's own initialize (unmatched: the recorded one has other params) starts the session
  // as it is; the upstream's request reaches the client under an id of ours, and the answer goes
  // back under 99.
  EXPECT_EQ(UpstreamLog(), "initialize\nask\nanswer 99 [\"r\"]\n");
  EXPECT_NE(answers.find(R"({"jsonrpc":"2.0","id":"arcs-upstream-1","method":"roots/list"})"),
            std::string::npos)
      << answers;
  EXPECT_NE(answers.find(R"({"jsonrpc": "2.0", "id": 1, "result": {"roots": ["r"]}})"),
            std::string::npos)
      << answers;
}

// A recording whose one response took 2^40 ms, replayed with --timing realistic.
constexpr char kSlowRecording[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"slow"}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:02Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}},"latency_ms":1099511627776}
)";

TEST(ServeReplayTest, ADelayEndsWhenTheClientStopsReading) {
  jsonl::MemorySource source(kSlowRecording);
  Result<LoadedRecording> loaded = LoadRecording(&source, {});
  ASSERT_TRUE(loaded.ok());
  const MemoryRandomAccess lines(kSlowRecording);
  ReplayOptions options;
  options.timing = *ParseTiming("realistic");
  Result<Replayer> replayer = Replayer::Create(*loaded, lines, options);
  ASSERT_TRUE(replayer.ok());
  int in[2], out[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(pipe(out), 0);
  const std::string request = R"({"jsonrpc":"2.0","id":1,"method":"slow"})"
                              "\n";
  ASSERT_EQ(write(in[1], request.data(), request.size()), static_cast<ssize_t>(request.size()));
  close(out[0]);  // the client reads no more, and still holds its input open
  std::vector<std::string> log;
  const std::atomic<bool> stop{false};
  const Served served = ServeReplay(
      &*replayer, in[0], out[1], nullptr, [&](std::string_view l) { log.emplace_back(l); }, &stop);
  EXPECT_EQ(served.end, ServeEnd::kClientClosed);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0],
            "the recorded delay of 1099511627776 ms is cut to 60000 ms, the longest a "
            "replay waits");
  for (int fd : {in[0], in[1], out[1]}) close(fd);
}

// One unmatched request forwarded to an upstream that reads it and never answers.
class SilentUpstreamTest : public ::testing::Test {
 protected:
  Served Serve(const ServeOptions& serve, const std::atomic<bool>* stop, std::string* answers) {
    Served served;
    *answers = ServeScript(
        kSlowRecording, MatchMode::kSequential, "cat > /dev/null",
        R"({"jsonrpc":"2.0","id":5,"method":"other"})"
        "\n",
        serve, stop, [](std::string_view) {}, &served.end);
    return served;
  }
};

TEST_F(SilentUpstreamTest, AForwardTheUpstreamNeverAnswersGetsAnErrorInTime) {
  ServeOptions serve;
  serve.forward_timeout = std::chrono::milliseconds(200);
  std::string answers;
  EXPECT_EQ(Serve(serve, nullptr, &answers).end, ServeEnd::kClientClosed);
  EXPECT_EQ(answers,
            R"({"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"passthrough: no answer )"
            R"(from the upstream within 200 ms"}})"
            "\n");
}

TEST_F(SilentUpstreamTest, TheStopFlagEndsAWaitForTheUpstream) {
  // A timeout no test waits for: only the flag ends the wait.
  ServeOptions serve;
  serve.forward_timeout = std::chrono::minutes(10);
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  std::string answers;
  EXPECT_EQ(Serve(serve, &stop, &answers).end, ServeEnd::kStopped);
  stopper.join();
  EXPECT_EQ(answers, "");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
