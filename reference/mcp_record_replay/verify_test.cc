#include "reference/mcp_record_replay/verify.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "reference/core/json_fields.h"
#include "reference/core/jsonl.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/testing/recording_text.h"

namespace arcs::mcp_record_replay {
namespace {

namespace fs = std::filesystem;
using testing::ErrorResponse;
using testing::Notification;
using testing::RecordingText;
using testing::Request;
using testing::Response;

// The live server: answers each request from a table (argv[1], JSON: method -> answers in turn,
// the last one repeated), logging every line it reads to argv[2], and creating argv[2] + ".ready"
// once it has started (on a loaded machine, starting Python and answering initialize once took
// more than a 300 ms timeout). An answer is {"result": R} or {"error": E}; {"silent": true} never
// answers; {"exit": N} exits; {"ask": M} first sends a notification and the request M (id
// "srv-1") to the client, reads the client's answer and returns it as its result
// {"answered": ANSWER}.
constexpr char kServerPy[] = R"PY(
import json, sys
table = json.load(open(sys.argv[1]))
log = open(sys.argv[2], 'a')
open(sys.argv[2] + '.ready', 'w').close()
def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
while True:
    line = sys.stdin.readline()
    if not line:
        break
    log.write(line)
    log.flush()
    msg = json.loads(line)
    if 'method' not in msg or 'id' not in msg:
        continue
    answers = table.get(msg['method'], [{"error": {"code": -32601, "message": "none"}}])
    a = answers.pop(0) if len(answers) > 1 else answers[0]
    if a.get('silent'):
        continue
    if 'exit' in a:
        sys.exit(a['exit'])
    if 'ask' in a:
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info"}})
        send({"jsonrpc": "2.0", "id": "srv-1", "method": a['ask'], "params": {}})
        reply = json.loads(sys.stdin.readline())
        send({"jsonrpc": "2.0", "id": msg['id'], "result": {"answered": reply}})
        continue
    out = {"jsonrpc": "2.0", "id": msg['id']}
    out.update(a)
    send(out)
)PY";

constexpr char kTools[] =
    R"({"tools":[{"name":"echo","description":"Echoes","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}},{"name":"add","description":"Adds","inputSchema":{"type":"object"}}]})";
constexpr char kEchoResult[] = R"({"content":[{"type":"text","text":"hi"}]})";
constexpr char kAddResult[] = R"({"content":[{"type":"text","text":"3"}]})";

// The recorded session: initialize, notifications/initialized, tools/list, two tool calls.
struct Recorded {
  RecordingText rec;
  std::uint64_t list_seq = 0, echo_seq = 0, add_seq = 0;
  Recorded() {
    rec.Add("c2s", Request("0", "initialize", R"({"protocolVersion":"2025-06-18"})"));
    rec.Add("s2c", Response("0", R"({"serverInfo":{"name":"s","version":"1"}})"), 5);
    rec.Add("c2s", Notification("notifications/initialized"));
    list_seq = rec.Add("c2s", Request("1", "tools/list"));
    rec.Add("s2c", Response("1", kTools), 3);
    echo_seq = rec.Add("c2s", Request("2", "tools/call", R"({"name":"echo","arguments":{}})"));
    rec.Add("s2c", Response("2", kEchoResult), 4);
    add_seq = rec.Add("c2s", Request("3", "tools/call", R"({"name":"add","arguments":{}})"));
    rec.Add("s2c", Response("3", kAddResult), 4);
  }
};

// `text` with the first `from` replaced by `to`.
std::string Replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The table of a server that answers as recorded.
std::string SameTable() {
  return std::string(R"({"initialize":[{"result":{"serverInfo":{"name":"s","version":"1"}}}],)") +
         R"("tools/list":[{"result":)" + kTools + "}]," + R"("tools/call":[{"result":)" +
         kEchoResult + R"(},{"result":)" + kAddResult + "}]}";
}

class VerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A server that exits makes our next write fail with EPIPE, as under the verb.
    std::signal(SIGPIPE, SIG_IGN);
    dir_ = fs::temp_directory_path() /
           ("arcs-verify-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    Write("server.py", kServerPy);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  std::string Log() {
    std::ifstream in(dir_ / "log");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  Result<VerifyReport> Run(const std::string& recording, const std::string& table,
                           std::chrono::milliseconds timeout = std::chrono::seconds(10),
                           std::vector<std::string> ignore_paths = {}) {
    Write("table.json", table);
    jsonl::MemorySource source(recording);
    Result<LoadedRecording> loaded = LoadRecording(&source, {});
    if (!loaded.ok()) return loaded.status();
    const std::string command = "exec python3 " + (dir_ / "server.py").string() + " " +
                                (dir_ / "table.json").string() + " " + (dir_ / "log").string();
    Result<std::unique_ptr<StdioTransport>> server = StdioTransport::Start(command, nullptr);
    if (!server.ok()) return server.status();
    // A timeout of a few hundred milliseconds is for the server's answers, not its start-up.
    for (int waited_ms = 0; !fs::exists(dir_ / "log.ready") && waited_ms < 60'000;
         waited_ms += 10) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    VerifyOptions options;
    options.timeout = timeout;
    options.ignore_paths = std::move(ignore_paths);
    return Verify(*loaded, MemoryRandomAccess(recording), server->get(), options);
  }

  fs::path dir_;
};

TEST_F(VerifyTest, TheSameAnswersAreNoChange) {
  const Recorded recorded;
  Result<VerifyReport> report = Run(recorded.rec.text(), SameTable());
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->changes.empty());
  EXPECT_FALSE(report->breaking());
  EXPECT_EQ(report->requests_sent, 4u);
  EXPECT_EQ(report->notifications_sent, 1u);
  EXPECT_EQ(report->compared, 4u);
  EXPECT_EQ(report->not_sent, 0u);
  // initialize first, as recorded (its id 0), then the rest in file order.
  const std::string log = Log();
  EXPECT_TRUE(log.starts_with(R"({"jsonrpc":"2.0","id":0,"method":"initialize")")) << log;
  EXPECT_LT(log.find("notifications/initialized"), log.find("tools/list"));
}

TEST_F(VerifyTest, UnrecordedLinesAreNotSent) {
  RecordingText rec;
  rec.Add("c2s", Request("0", "initialize"));
  rec.Add("s2c", Response("0"));
  rec.Add("c2s",
          Notification("arcs/unrecorded", R"({"reason":"not-json","bytes":3,"base64":"eHl6"})"));
  rec.Add("c2s", Notification("notifications/initialized"));
  rec.Add("c2s", Request("1", "ping"));  // answered once the server has read what came before
  rec.Add("s2c", Response("1"));
  Result<VerifyReport> report =
      Run(rec.text(), R"({"initialize":[{"result":{}}],"ping":[{"result":{}}]})");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->notifications_sent, 1u);
  EXPECT_EQ(Log().find("arcs/unrecorded"), std::string::npos);
  EXPECT_NE(Log().find("notifications/initialized"), std::string::npos);
}

TEST_F(VerifyTest, ToolsAddedRemovedAndChanged) {
  const Recorded recorded;
  // add is gone; echo's description changed; its inputSchema too in the second run; extra is new.
  const std::string tools =
      R"({"tools":[{"name":"echo","description":"Says back","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}},{"name":"extra","inputSchema":{"type":"object"}}]})";
  const std::string table = Replaced(SameTable(), kTools, tools);
  Result<VerifyReport> report = Run(recorded.rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 3u);
  const Change& removed = report->changes[0];
  EXPECT_EQ(removed.kind, ChangeKind::kToolRemoved);
  EXPECT_EQ(removed.tool, "add");
  EXPECT_TRUE(removed.breaking);
  EXPECT_EQ(removed.method, "tools/list");
  EXPECT_EQ(removed.seq, recorded.list_seq);
  const Change& changed = report->changes[1];
  EXPECT_EQ(changed.kind, ChangeKind::kToolChanged);
  EXPECT_EQ(changed.tool, "echo");
  EXPECT_EQ(changed.fields, std::vector<std::string>{"description"});
  EXPECT_FALSE(changed.breaking);  // a description is no break
  EXPECT_EQ(report->changes[2].kind, ChangeKind::kToolAdded);
  EXPECT_EQ(report->changes[2].tool, "extra");
  EXPECT_FALSE(report->changes[2].breaking);
  EXPECT_TRUE(report->breaking());

  // The same schema written in another member order is the same data; another type is a break.
  report =
      Run(recorded.rec.text(),
          Replaced(SameTable(), R"({"type":"object","properties":{"message":{"type":"string"}}})",
                   R"({"properties":{"message":{"type":"string"}},"type":"object"})"));
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->changes.empty());
  report = Run(recorded.rec.text(),
               Replaced(SameTable(), R"({"type":"string"})", R"({"type":"number"})"));
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kToolChanged);
  EXPECT_EQ(report->changes[0].fields, std::vector<std::string>{"inputSchema"});
  EXPECT_TRUE(report->changes[0].breaking);
}

TEST_F(VerifyTest, AChangedResultIsListedNotBreaking) {
  const Recorded recorded;
  const std::string table = Replaced(SameTable(), R"("text":"hi")", R"("text":"hello")");
  Result<VerifyReport> report = Run(recorded.rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kResultChanged);
  EXPECT_EQ(report->changes[0].tool, "echo");
  EXPECT_EQ(report->changes[0].seq, recorded.echo_seq);
  EXPECT_EQ(report->changes[0].fields, std::vector<std::string>{"/content/0/text"});
  EXPECT_FALSE(report->breaking());
}

TEST_F(VerifyTest, WhereResultsDepartAndWhatIsIgnored) {
  const Recorded recorded;
  // The text changed, a member added, a content item added; the same data in another order is
  // no departure.
  const std::string table =
      Replaced(SameTable(), kEchoResult,
               R"({"content":[{"text":"hello","type":"text"},{"type":"text","text":"more"}],)"
               R"("isError":false})");
  Result<VerifyReport> report = Run(recorded.rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].fields,
            (std::vector<std::string>{"/content/0/text", "/content/1", "/isError"}));
  // Each ignored path covers what is below it; "*" is any one token.
  for (const std::vector<std::string>& ignored :
       {std::vector<std::string>{"/content", "/isError"},
        std::vector<std::string>{"/content/*/text", "/content/1", "/isError"}}) {
    report = Run(recorded.rec.text(), table, std::chrono::seconds(10), ignored);
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->changes.empty()) << Join(ignored);
  }
  report =
      Run(recorded.rec.text(), table, std::chrono::seconds(10), {"/content/*/type", "/isError"});
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].fields, (std::vector<std::string>{"/content/0/text", "/content/1"}));
}

TEST_F(VerifyTest, AnErrorInsteadOfAResultIsBreaking) {
  const Recorded recorded;
  const std::string table = Replaced(SameTable(), std::string(R"({"result":)") + kAddResult + "}",
                                     R"({"error":{"code":-32602,"message":"Unknown tool: add"}})");
  Result<VerifyReport> report = Run(recorded.rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 1u);
  const Change& c = report->changes[0];
  EXPECT_EQ(c.kind, ChangeKind::kResultBecameError);
  EXPECT_TRUE(c.breaking);
  EXPECT_EQ(c.tool, "add");
  EXPECT_EQ(c.seq, recorded.add_seq);
  EXPECT_NE(c.detail.find("Unknown tool: add"), std::string::npos);
}

TEST_F(VerifyTest, ErrorsChangedOrBecameResults) {
  RecordingText rec;
  rec.Add("c2s", Request("0", "initialize"));
  rec.Add("s2c", Response("0"));
  rec.Add("c2s", Request("1", "prompts/get", R"({"name":"a"})"));
  rec.Add("s2c", ErrorResponse("1", R"({"code":-32602,"message":"no a"})"));
  rec.Add("c2s", Request("2", "prompts/get", R"({"name":"b"})"));
  rec.Add("s2c", ErrorResponse("2", R"({"code":-32602,"message":"no b"})"));
  const std::string table =
      R"({"initialize":[{"result":{}}],"prompts/get":[{"error":{"code":-32603,"message":"no a"}},{"result":{"messages":[]}}]})";
  Result<VerifyReport> report = Run(rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 2u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kErrorChanged);
  EXPECT_EQ(report->changes[1].kind, ChangeKind::kErrorBecameResult);
  EXPECT_FALSE(report->breaking());
}

TEST_F(VerifyTest, NoResponseWithinTheTimeoutIsBreakingAndTheSessionGoesOn) {
  const Recorded recorded;
  const std::string table =
      Replaced(SameTable(), std::string(R"({"result":)") + kEchoResult + "}", R"({"silent":true})");
  const auto start = std::chrono::steady_clock::now();
  Result<VerifyReport> report = Run(recorded.rec.text(), table, std::chrono::seconds(1));
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kNoResponse);
  EXPECT_EQ(report->changes[0].seq, recorded.echo_seq);
  EXPECT_TRUE(report->breaking());
  EXPECT_EQ(report->compared, 3u);  // add's answer still compared, and the same
}

TEST_F(VerifyTest, AServerThatNeverAnswersInitialize) {
  const Recorded recorded;
  Result<VerifyReport> report = Run(recorded.rec.text(), R"({"initialize":[{"silent":true}]})",
                                    std::chrono::milliseconds(200));
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kNoResponse);
  EXPECT_EQ(report->changes[0].method, "initialize");
  EXPECT_EQ(report->not_sent, 3u);  // no session to go on with
}

TEST_F(VerifyTest, AServerThatExitsIsBreakingAndEndsTheSession) {
  const Recorded recorded;
  const std::string table =
      Replaced(SameTable(), std::string(R"({"result":)") + kEchoResult + "}", R"({"exit":4})");
  Result<VerifyReport> report = Run(recorded.rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kServerExited);
  EXPECT_EQ(report->changes[0].detail, "it exited with status 4");
  EXPECT_EQ(report->not_sent, 1u);
  // Before initialize is answered, an end is a server that could not start: an error.
  report = Run(recorded.rec.text(), R"({"initialize":[{"exit":127}]})");
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("exited with status 127"), std::string::npos);
}

TEST_F(VerifyTest, ServerRequestsAreAnsweredFromTheRecording) {
  RecordingText rec;
  rec.Add("c2s", Request("0", "initialize"));
  rec.Add("s2c", Response("0"));
  rec.Add("c2s", Request("1", "tools/call", R"({"name":"sample"})"));
  rec.Add("s2c", Notification("notifications/message"));
  rec.Add("s2c", Request("7", "sampling/createMessage"));
  const std::string sampled = R"({"role":"assistant","content":{"type":"text","text":"ok"}})";
  rec.Add("c2s", Response("7", sampled), 9);
  // What the server answers once it has the client's answer: the live id, the recorded result.
  rec.Add("s2c",
          Response("1", std::string(R"({"answered":{"jsonrpc":"2.0","id":"srv-1","result":)") +
                            sampled + "}}"));
  rec.Add("c2s", Request("2", "tools/call", R"({"name":"roots"})"));
  rec.Add("s2c", Response("2", R"({"answered":{}})"));
  const std::string table =
      R"({"initialize":[{"result":{}}],"tools/call":[{"ask":"sampling/createMessage"},{"ask":"roots/list"}]})";
  Result<VerifyReport> report = Run(rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->server_requests_answered, 1u);
  EXPECT_EQ(report->server_requests_refused, 1u);
  // The sampling call is answered as recorded; roots/list had no recorded answer: -32601, which
  // the server hands back, so that result changed.
  ASSERT_EQ(report->changes.size(), 1u);
  EXPECT_EQ(report->changes[0].kind, ChangeKind::kResultChanged);
  EXPECT_EQ(report->changes[0].tool, "roots");
  // The client's recorded answer is never sent as a client message of its own.
  EXPECT_EQ(report->requests_sent, 3u);
  EXPECT_EQ(Log().find(sampled), std::string::npos);
}

TEST_F(VerifyTest, ARecordingWithoutInitializeCannotBeVerified) {
  RecordingText rec;
  rec.Add("c2s", Request("1", "tools/list"));
  Result<VerifyReport> report = Run(rec.text(), "{}");
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(VerifyTest, JsonAndText) {
  const Recorded recorded;
  const std::string table = Replaced(
      SameTable(), R"({"name":"add","description":"Adds","inputSchema":{"type":"object"}})",
      R"({"name":"sub","inputSchema":{"type":"object"}})");
  Result<VerifyReport> report = Run(recorded.rec.text(), table);
  ASSERT_TRUE(report.ok()) << report.status().message();
  json::Document doc;
  const Status parsed = json::ParseData(VerifyJson(*report), &doc);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(doc.root().Find("breaking")->kind(), json::Kind::kTrue);
  EXPECT_EQ(doc.root().Find("complete")->kind(), json::Kind::kTrue);
  const auto changes = doc.root().Find("changes")->items();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].Find("kind")->text(), "tool_removed");
  EXPECT_EQ(changes[0].Find("tool")->text(), "add");
  EXPECT_EQ(changes[0].Find("seq")->text(), std::to_string(recorded.list_seq));
  EXPECT_EQ(changes[0].Find("breaking")->kind(), json::Kind::kTrue);
  EXPECT_EQ(changes[1].Find("kind")->text(), "tool_added");
  EXPECT_EQ(changes[1].Find("breaking")->kind(), json::Kind::kFalse);
  const std::vector<std::string> text = VerifyText(*report);
  ASSERT_EQ(text.size(), 5u);
  EXPECT_EQ(text[0], "breaking changes: 1");
  EXPECT_EQ(text[1],
            "  tool removed: tools/list add (seq " + std::to_string(recorded.list_seq) + ")");
  EXPECT_EQ(text[2], "other changes: 1");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
