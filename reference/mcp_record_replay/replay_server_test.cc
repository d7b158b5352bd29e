#include "reference/mcp_record_replay/replay_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace arcs::mcp_record_replay {
namespace {

// A stub upstream (EC-REC-009): logs the method of every message it gets, sends a notification of
// its own before each answer (which passthrough must drop), answers "fail" with an error and
// anything else with {"echo": method}.
constexpr char kStub[] = R"(
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    msg = json.loads(line)
    log.write(msg.get("method", "?") + "\n"); log.flush()
    if "id" not in msg: continue
    print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message"}), flush=True)
    if msg["method"] == "fail":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -7, "message": "no"}}), flush=True)
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"echo": msg["method"]}}), flush=True)
)";

constexpr char kRecording[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"recorded","params":{}}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:02Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":"from the recording"}}
)";

class PassthroughTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/arcs-passthrough-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    std::ofstream(dir_ + "/stub.py") << kStub;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // Serves `script` (its lines written before the replay starts) and returns what was answered.
  std::string Serve(const std::string& script, ServeEnd* end) {
    jsonl::MemorySource source(kRecording);
    Result<LoadedRecording> loaded = LoadRecording(&source, {});
    EXPECT_TRUE(loaded.ok());
    const MemoryRandomAccess lines(kRecording);
    ReplayOptions options;
    options.match_mode = MatchMode::kByRequest;
    options.on_unmatched = OnUnmatched::kPassthrough;
    Result<Replayer> replayer = Replayer::Create(*loaded, lines, options);
    EXPECT_TRUE(replayer.ok());
    Result<std::unique_ptr<UpstreamForwarder>> forwarder =
        UpstreamForwarder::Start("/usr/bin/python3 '" + dir_ + "/stub.py' '" + dir_ + "/log'",
                                 [this](std::string_view line) { log_.emplace_back(line); });
    EXPECT_TRUE(forwarder.ok());
    int in[2], out[2];
    EXPECT_EQ(pipe(in), 0);
    EXPECT_EQ(pipe(out), 0);
    EXPECT_EQ(write(in[1], script.data(), script.size()), static_cast<ssize_t>(script.size()));
    close(in[1]);
    *end = ServeReplay(&*replayer, in[0], out[1], forwarder->get(), [](std::string_view) {}).end;
    close(in[0]);
    close(out[1]);
    std::string answers;
    char buffer[4096];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) answers.append(buffer, n);
    close(out[0]);
    return answers;
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

TEST_F(PassthroughTest, ForwardsOnlyUnmatchedRequestsAndReturnsTheUpstreamsAnswer) {
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
  EXPECT_EQ(answers, R"({"jsonrpc":"2.0","id":"a","result":"from the recording"})"
                     "\n"
                     R"({"jsonrpc": "2.0", "id": "b", "result": {"echo": "new"}})"
                     "\n"
                     R"({"jsonrpc": "2.0", "id": 7, "error": {"code": -7, "message": "no"}})"
                     "\n");
  // The matched request and the notification never reach the upstream (errata MRR-E42).
  EXPECT_EQ(UpstreamLog(), "new\nfail\n");
  ASSERT_EQ(log_.size(), 2u);  // the upstream's own notifications, dropped
  EXPECT_NE(log_[0].find("is not the response: dropped"), std::string::npos) << log_[0];
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

TEST(UpstreamForwarderTest, TheStopFlagEndsAWaitForTheUpstream) {
  const std::atomic<bool> stop{true};
  // An upstream that never answers, and a timeout no test waits for: only the flag ends the wait.
  Result<std::unique_ptr<UpstreamForwarder>> forwarder = UpstreamForwarder::Start(
      "cat > /dev/null", [](std::string_view) {}, &stop, std::chrono::minutes(10));
  ASSERT_TRUE(forwarder.ok());
  Result<std::string> answer = (*forwarder)->Forward(R"({"jsonrpc":"2.0","id":1,"method":"m"})");
  EXPECT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().message(), "stopped");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
