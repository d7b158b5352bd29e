#include "reference/mcp_record_replay/replay_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

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

}  // namespace
}  // namespace arcs::mcp_record_replay
