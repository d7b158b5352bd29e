#include "reference/mcp_record_replay/recorder.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"
#include "reference/mcp_record_replay/recording.h"

namespace arcs::mcp_record_replay {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The upstream: a tiny MCP-ish server that logs every byte it receives (to argv[1]; its pid to
// argv[1].pid) and answers what the client's params ask for: `reply` (lines it writes, a newline
// after each), `write_hex` (bytes as they are), `flood` (that many notifications of 50,000 bytes,
// from a thread that counts them in argv[1].progress, while the main thread goes on reading),
// `exit` (its status).
constexpr char kUpstreamPy[] = R"PY(
import json, os, sys, threading
log = open(sys.argv[1], 'ab', buffering=0)
with open(sys.argv[1] + '.pid', 'w') as p:
    p.write(str(os.getpid()))
out = sys.stdout.buffer
lock = threading.Lock()
def send(data):
    with lock:
        out.write(data)
        out.flush()
def flood(count):
    line = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"' + b'x' * 49929 + b'"}}\n'
    for i in range(count):
        send(line)
        with open(sys.argv[1] + '.progress', 'w') as p:
            p.write(str(i + 1))
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    log.write(line)
    try:
        params = json.loads(line).get('params') or {}
    except Exception:
        continue
    for raw in params.get('reply', []):
        send(raw.encode() + b'\n')
    if 'write_hex' in params:
        send(bytes.fromhex(params['write_hex']))
    if 'flood' in params:
        threading.Thread(target=flood, args=(params['flood'],)).start()
    if 'exit' in params:
        sys.stdout.flush()
        sys.exit(params['exit'])
)PY";

std::string ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = write(fd, bytes.data(), bytes.size());
    ASSERT_GT(n, 0);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// A JSON string literal of `text`.
std::string Quote(std::string_view text) {
  std::string out;
  json::AppendQuoted(text, &out);
  return out;
}

// A request whose params make the upstream write `replies`.
std::string Request(std::string_view id, std::vector<std::string> replies,
                    std::string_view extra = "") {
  std::string params = "{\"reply\":[";
  for (std::size_t i = 0; i < replies.size(); ++i) params += (i ? "," : "") + Quote(replies[i]);
  params += "]" + std::string(extra) + "}";
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"test","params":)" + params +
         "}\n";
}

std::string Response(std::string_view id, std::string_view result = "{}") {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":)" + std::string(result) +
         "}";
}

// Gone, or a zombie nobody reaps (the container's init may not).
bool Dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const std::size_t paren = text.rfind(')');
  return paren != std::string::npos && text.compare(paren + 2, 1, "Z") == 0;
}

// "line:rule" for errors and "line:rule!" for warnings, as recording_test.cc writes them.
std::vector<std::string> Findings(const std::string& text) {
  std::vector<std::string> out;
  jsonl::MemorySource source(text);
  const Status s = CheckRecording(&source, {}, [&](RecordingFinding f) {
    const std::string id =
        f.rule_id.empty() ? f.schema_location + "#" + f.schema_keyword : f.rule_id;
    out.push_back(std::to_string(f.line) + ":" + id + (f.warning ? "!" : "") + " " + f.message);
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

struct Line {
  std::string text;
  json::Document doc;
  const json::Value& root() const { return doc.root(); }
  std::string Get(std::string_view name) const {
    const json::Value* v = root().Find(name);
    return v ? std::string(v->is_string() ? v->text() : json::ToString(*v)) : "";
  }
  bool Has(std::string_view name) const { return root().Find(name) != nullptr; }
};

std::vector<Line> Lines(const std::string& text) {
  std::vector<Line> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    Line line;
    line.text = text.substr(at, end - at);
    EXPECT_TRUE(line.doc.Parse(line.text)) << line.text;
    lines.push_back(std::move(line));
    at = end + 1;
  }
  return lines;
}

class RecorderTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "arcs_recorder_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    std::ofstream(dir_ + "/upstream.py") << kUpstreamPy;
    options_.upstream_command =
        "/usr/bin/python3 '" + dir_ + "/upstream.py' '" + UpstreamLog() + "'";
    options_.output_path = dir_ + "/rec.jsonl";
    options_.thoughtjack_version = "arcs 0.2.0";
    options_.flush_interval = milliseconds(50);
  }
  void TearDown() override {
    if (thread_.joinable()) (void)Finish();
    fs::remove_all(dir_);
  }

  std::string UpstreamLog() const { return dir_ + "/received"; }
  std::string Recording() const { return ReadFileText(options_.output_path); }
  // The recording's line count once it reaches `count`, or what it has after a minute: the
  // recorder's writer thread writes what it is handed soon, but when is up to the scheduler.
  std::size_t LinesOnceAtLeast(std::size_t count) const {
    const auto end = Clock::now() + std::chrono::seconds(60);
    std::size_t lines = Lines(Recording()).size();
    while (lines < count && Clock::now() < end) {
      std::this_thread::sleep_for(milliseconds(10));
      lines = Lines(Recording()).size();
    }
    return lines;
  }

  // Runs the proxy on a thread, the test being its client.
  void Start() {
    ASSERT_EQ(pipe2(to_proxy_, O_CLOEXEC), 0);
    ASSERT_EQ(pipe2(from_proxy_, O_CLOEXEC), 0);
    log_fd_ = open((dir_ + "/log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    RecorderOptions options = options_;
    options.client_in = to_proxy_[0];
    options.client_out = from_proxy_[1];
    options.log_fd = log_fd_;
    thread_ = std::thread([this, options] { result_ = RunRecorder(options, &stop_); });
  }

  void Send(std::string_view bytes) {
    sent_ += bytes;
    WriteAll(to_proxy_[1], bytes);
  }

  // The next line the client gets (10 s at most), without its newline.
  std::string ReceiveLine() {
    const auto end = Clock::now() + std::chrono::seconds(10);
    for (;;) {
      if (const std::size_t nl = pending_.find('\n'); nl != std::string::npos) {
        std::string line = pending_.substr(0, nl);
        pending_.erase(0, nl + 1);
        return line;
      }
      if (Clock::now() >= end) return "(timeout)";
      ReceiveSome(100);
    }
  }

  // Ends the session from the client's side (end of file) and returns the proxy's result.
  Result<int> Finish(bool close_client = true) {
    if (close_client) CloseFd(&to_proxy_[1]);
    thread_.join();
    CloseFd(&from_proxy_[1]);
    while (ReceiveSome(10000)) {
    }
    CloseFd(&to_proxy_[0]);
    CloseFd(&to_proxy_[1]);
    CloseFd(&from_proxy_[0]);
    CloseFd(&log_fd_);
    return *result_;
  }

  // Reads what the proxy wrote to the client; false at end of file.
  bool ReceiveSome(int timeout_ms) {
    if (from_proxy_[0] < 0) return false;
    pollfd p{from_proxy_[0], POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) return true;
    char buffer[65536];
    const ssize_t n = read(from_proxy_[0], buffer, sizeof buffer);
    if (n <= 0) return false;
    received_.append(buffer, static_cast<std::size_t>(n));
    pending_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  static void CloseFd(int* fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }

  std::string dir_;
  RecorderOptions options_;
  int to_proxy_[2] = {-1, -1};
  int from_proxy_[2] = {-1, -1};
  int log_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::optional<Result<int>> result_;
  std::string sent_;      // every byte the client wrote
  std::string received_;  // every byte the client got
  std::string pending_;   // received, not yet taken by ReceiveLine
};

// The message lines of a recording.
std::vector<const Line*> Messages(const std::vector<Line>& lines) {
  std::vector<const Line*> out;
  for (const Line& l : lines) {
    if (l.Get("type") == "message") out.push_back(&l);
  }
  return out;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out.push_back(kDigits[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 15]);
  }
  return out;
}

// Standard base64 decoded by OpenSSL, not by reference/core/base64.h (which encoded it).
std::optional<std::string> DecodeBase64(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  // EVP_DecodeBlock counts the padding's zero bytes too.
  const std::size_t padding = text.ends_with("==") ? 2 : text.ends_with("=") ? 1 : 0;
  out.resize(static_cast<std::size_t>(n) - padding);
  return out;
}

// What an arcs/unrecorded message line says (errata MRR-E51).
struct UnrecordedLine {
  std::string reason;  // "(...)" when the line is not of that exact form
  std::uint64_t bytes = 0;
  std::string decoded;
  bool truncated = false;
  bool operator==(const UnrecordedLine&) const = default;
};

std::ostream& operator<<(std::ostream& os, const UnrecordedLine& u) {
  return os << u.reason << " " << u.bytes << " " << Quoted(u.decoded, 60)
            << (u.truncated ? " truncated" : "");
}

// A line recorded whole.
UnrecordedLine Whole(std::string reason, std::string_view line) {
  return {std::move(reason), line.size(), std::string(line), false};
}

UnrecordedLine Unrecorded(const Line& line) {
  const json::Value* msg = line.root().Find("msg");
  const json::Value* params = msg ? msg->Find("params") : nullptr;
  if (!msg || msg->members().size() != 3 || !msg->Find("jsonrpc") ||
      msg->Find("jsonrpc")->text() != "2.0" || !msg->Find("method") ||
      msg->Find("method")->text() != "arcs/unrecorded" || !params) {
    return {"(not arcs/unrecorded) " + line.text, 0, "", false};
  }
  const json::Value* reason = params->Find("reason");
  const json::Value* bytes = params->Find("bytes");
  const json::Value* base64 = params->Find("base64");
  const json::Value* truncated = params->Find("truncated");
  const std::size_t members = 3 + (truncated != nullptr);
  if (!reason || !reason->is_string() || !bytes || !bytes->is_number() || !base64 ||
      !base64->is_string() || (truncated && !truncated->is_bool()) ||
      params->members().size() != members) {
    return {"(params) " + line.text, 0, "", false};
  }
  const std::optional<std::string> decoded = DecodeBase64(base64->text());
  if (!decoded) return {"(not base64) " + line.text, 0, "", false};
  return {std::string(reason->text()), std::stoull(std::string(bytes->text())), *decoded,
          truncated && truncated->as_bool()};
}

TEST_F(RecorderTest, ForwardsEveryByteAndRecordsAValidSession) {
  options_.name = "filesystem-test-001";
  options_.tags = {"regression", "filesystem"};
  Start();
  // Odd spellings and non-ASCII text: forwarded and recorded byte for byte.
  const std::string odd_response =
      R"({"jsonrpc":"2.0","id":1,"result":{"x":"\u00e9","y":"é𝄞","n":1.0e0}})";
  Send(R"({"jsonrpc":"2.0","id":1.0,"method":"initialize","params":{"reply":[)" +
       Quote(odd_response) + "],\"x\":\"\\u00e9\"}}\n");
  EXPECT_EQ(ReceiveLine(), odd_response);
  // Whitespace around the object and a CRLF ending: forwarded as sent, recorded trimmed.
  Send("  {\"jsonrpc\": \"2.0\",\r\"method\": \"notifications/initialized\"}\t\r\n");
  // Not messages: forwarded, and recorded as arcs/unrecorded; the blank line is nothing.
  Send("this is not JSON\n\n[1,2]\n");
  Send(Request("\"a\"", {Response("\"a\"", "{\"tools\":[]}"),
                         R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"}));
  EXPECT_EQ(ReceiveLine(), Response("\"a\"", "{\"tools\":[]}"));
  EXPECT_EQ(ReceiveLine(), R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
  const Result<int> result = Finish();
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(*result, 0);

  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
  EXPECT_EQ(received_, odd_response + "\n" + Response("\"a\"", "{\"tools\":[]}") + "\n" +
                           R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})" +
                           "\n");

  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  ASSERT_EQ(lines.size(), 10u);
  // The header: F-002's members in its order.
  EXPECT_EQ(lines[0].text.rfind(R"({"type":"header","version":"1.0","name":"filesystem-test-001",)"
                                R"("tags":["regression","filesystem"],"recorded_at":")",
                                0),
            0u)
      << lines[0].text;
  EXPECT_TRUE(IsRfc3339DateTime(lines[0].Get("recorded_at")));
  EXPECT_EQ(lines[0].Get("upstream"), options_.upstream_command);
  EXPECT_EQ(lines[0].Get("thoughtjack_version"), "arcs 0.2.0");
  const std::vector<const Line*> m = Messages(lines);
  ASSERT_EQ(m.size(), 8u);
  const char* dirs[] = {"c2s", "s2c", "c2s", "c2s", "c2s", "c2s", "s2c", "s2c"};
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i]->text.rfind(R"({"type":"message","seq":)", 0), 0u);
    EXPECT_EQ(m[i]->Get("seq"), std::to_string(i + 1));  // from 1, by 1 (errata MRR-E18, E19)
    EXPECT_EQ(m[i]->Get("dir"), dirs[i]);
    const std::string ts = m[i]->Get("ts");
    EXPECT_TRUE(IsRfc3339DateTime(ts) && ts.size() == 24 && ts.back() == 'Z') << ts;
  }
  // msg is the line's bytes, never re-encoded; latency_ms on responses only.
  EXPECT_NE(m[0]->text.find(R"("msg":{"jsonrpc":"2.0","id":1.0,"method":"initialize")"),
            std::string::npos);
  EXPECT_NE(m[1]->text.find("\"msg\":" + odd_response + ",\"latency_ms\":"), std::string::npos);
  EXPECT_NE(m[2]->text.find(R"("msg":{"jsonrpc": "2.0", "method": "notifications/initialized"}})"),
            std::string::npos)
      << m[2]->text;
  EXPECT_EQ(Unrecorded(*m[3]), Whole("not-json", "this is not JSON"));
  EXPECT_EQ(Unrecorded(*m[4]), Whole("not-an-object", "[1,2]"));
  EXPECT_TRUE(m[6]->Has("latency_ms"));  // the answer to "a"
  for (int i : {0, 2, 3, 4, 5, 7}) EXPECT_FALSE(m[i]->Has("latency_ms")) << i;
  // The footer.
  ASSERT_EQ(lines.back().Get("type"), "footer");
  EXPECT_EQ(lines.back().Get("total_messages"), "8");
  EXPECT_EQ(lines.back().Get("client_messages"), "5");
  EXPECT_EQ(lines.back().Get("server_messages"), "3");
  EXPECT_TRUE(lines.back().Has("duration_ms"));
  // The lines that are not messages were said so too.
  const std::string log = ReadFileText(dir_ + "/log");
  EXPECT_NE(log.find("c2s: a line of 16 bytes forwarded as it was, recorded as arcs/unrecorded "
                     "(not-json): not JSON"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("a JSON array, not an object"), std::string::npos) << log;
}

TEST_F(RecorderTest, PairsConcurrentRequestsAnsweredOutOfOrder) {
  Start();
  // "a" waits; 2 is answered first, then "a"; two requests with id 7 are answered in turn. Each
  // wait starts once the recording holds the request that waits (after the header), so that it
  // has been read and timed however late the proxy's thread ran: the latencies below cannot
  // depend on the load.
  Send(Request("\"a\"", {}));
  ASSERT_GE(LinesOnceAtLeast(2), 2u);
  std::this_thread::sleep_for(milliseconds(300));
  Send(Request("2", {Response("2"), Response("\"a\"")}));
  EXPECT_EQ(ReceiveLine(), Response("2"));
  EXPECT_EQ(ReceiveLine(), Response("\"a\""));
  Send(Request("7", {}));
  ASSERT_GE(LinesOnceAtLeast(6), 6u);
  std::this_thread::sleep_for(milliseconds(300));
  Send(Request("7", {Response("7.0", R"({"first":true})"), Response("7")}));
  EXPECT_EQ(ReceiveLine(), Response("7.0", R"({"first":true})"));
  EXPECT_EQ(ReceiveLine(), Response("7"));
  // A server request (roots/list) answered by the client: paired the other way round.
  Send(Request("3", {R"({"jsonrpc":"2.0","id":"s1","method":"roots/list"})"}));
  EXPECT_EQ(ReceiveLine(), R"({"jsonrpc":"2.0","id":"s1","method":"roots/list"})");
  std::this_thread::sleep_for(milliseconds(50));
  Send(Response("\"s1\"", R"({"roots":[]})") + "\n");
  // An error response is a response too.
  Send(Request("4", {R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}})"}));
  EXPECT_EQ(ReceiveLine(), R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}})");
  ASSERT_TRUE(Finish().ok());

  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});  // no orphan: each one paired
  const std::vector<Line> lines = Lines(recording);
  std::vector<std::string> summary;  // dir, id, latency present
  std::vector<long> latencies;
  for (const Line* m : Messages(lines)) {
    const json::Value* id = m->root().Find("msg")->Find("id");
    const bool response = !m->root().Find("msg")->Find("method");
    summary.push_back(m->Get("dir") + " " + (id ? std::string(id->text()) : "-") +
                      (response ? " response" : "") + (m->Has("latency_ms") ? " latency" : ""));
    if (m->Has("latency_ms")) latencies.push_back(std::stol(m->Get("latency_ms")));
  }
  EXPECT_EQ(summary,
            (std::vector<std::string>{
                "c2s a", "c2s 2", "s2c 2 response latency", "s2c a response latency", "c2s 7",
                "c2s 7", "s2c 7.0 response latency", "s2c 7 response latency", "c2s 3", "s2c s1",
                "c2s s1 response latency", "c2s 4", "s2c 4 response latency"}));
  ASSERT_EQ(latencies.size(), 6u);
  // "a" was answered at least 300 ms after it was read, after 2; the first 7 answers the first
  // request (FIFO).
  EXPECT_GE(latencies[1], 250);
  EXPECT_LT(latencies[0], latencies[1]);
  EXPECT_GE(latencies[2], 250);
  EXPECT_LT(latencies[3], latencies[2]);
}

TEST_F(RecorderTest, AnUpstreamThatExitsEndsTheSessionWithItsStatus) {
  Start();
  Send(Request("1", {Response("1")}, ",\"exit\":3"));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  const Result<int> result = Finish(/*close_client=*/false);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, 3);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.back().Get("type"), "footer");
  EXPECT_EQ(lines.back().Get("total_messages"), "2");
  EXPECT_NE(ReadFileText(dir_ + "/log").find("the upstream ended: exited with status 3"),
            std::string::npos);
}

TEST_F(RecorderTest, TheStopFlagEndsTheSessionWithAFooter) {
  Start();
  Send(Request("1", {Response("1")}));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  stop_ = true;
  const Result<int> result = Finish(/*close_client=*/false);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, 0);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  EXPECT_EQ(Lines(recording).back().Get("type"), "footer");
}

TEST_F(RecorderTest, AClientThatStopsReadingHasGone) {
  Start();
  CloseFd(&from_proxy_[0]);
  Send(Request("1", {Response("1")}));  // the answer meets a closed pipe: EPIPE
  const Result<int> result = Finish(/*close_client=*/false);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(*result, 0);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  EXPECT_EQ(Lines(recording).back().Get("total_messages"), "2");
  EXPECT_NE(ReadFileText(dir_ + "/log").find("s2c: the client stopped reading"), std::string::npos);
}

TEST_F(RecorderTest, AnUnfinishedLastLineIsForwardedAndRecordedAsUnrecorded) {
  Start();
  Send(Request("1", {Response("1")}, ",\"write_hex\":\"7b226964223a\""));  // `{"id":` at the end
  EXPECT_EQ(ReceiveLine(), Response("1"));
  const std::string unfinished = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
  Send(unfinished);  // no newline: a whole object, but no message to the reader
  const Result<int> result = Finish();
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
  EXPECT_EQ(received_, Response("1") + "\n{\"id\":");
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  const std::vector<const Line*> m = Messages(lines);
  ASSERT_EQ(m.size(), 4u);
  // The client's rest ends first: its end of file closes the upstream's input, then it exits.
  EXPECT_EQ(m[2]->Get("dir"), "c2s");
  EXPECT_EQ(Unrecorded(*m[2]), Whole("unterminated", unfinished));
  EXPECT_EQ(m[3]->Get("dir"), "s2c");
  EXPECT_EQ(Unrecorded(*m[3]), Whole("unterminated", "{\"id\":"));
  EXPECT_EQ(lines.back().Get("total_messages"), "4");
  const std::string log = ReadFileText(dir_ + "/log");
  EXPECT_NE(log.find("c2s: a line of " + std::to_string(unfinished.size()) +
                     " bytes forwarded as it was, recorded as arcs/unrecorded (unterminated): the "
                     "stream ended inside it"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("s2c: a line of 6 bytes forwarded"), std::string::npos) << log;
}

TEST_F(RecorderTest, LinesTheRecordingCannotHoldAreForwardedAndRecordedAsUnrecorded) {
  options_.limits.max_line_bytes = 4096;
  Start();
  const std::string big =
      R"({"jsonrpc":"2.0","method":"big","params":{"data":")" + std::string(10000, 'x') + "\"}}";
  // Within the line limit, but not once it is wrapped in a message line.
  const std::string almost =
      R"({"jsonrpc":"2.0","method":"big","params":{"data":")" + std::string(4000, 'y') + "\"}}";
  const std::string deep = "{\"a\":" + std::string(200, '[') + std::string(200, ']') + "}";
  Send(big + "\n");
  Send(almost + "\n");
  Send("{\"n\":1e400}\n");          // beyond the doubles: serde_json refuses it
  Send("{\"bad\":\"\xff\"}\n");     // not UTF-8
  Send("{\"bad\":\"\\ud800\"}\n");  // a lone surrogate: no character, so no UTF-8
  Send(deep + "\n");                // deeper than max_json_depth (128) allows msg
  Send(Request("1", {Response("1")}));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  ASSERT_TRUE(Finish().ok());
  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  for (const Line& line : lines) EXPECT_LE(line.text.size(), 4096u);
  const std::vector<const Line*> m = Messages(lines);
  ASSERT_EQ(m.size(), 8u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(m[i]->Get("dir"), "c2s");
  // The long ones: as many of their first bytes as a 4096-byte line holds, and their length.
  for (const auto& [i, line] : {std::pair<int, const std::string*>{0, &big}, {1, &almost}}) {
    const UnrecordedLine u = Unrecorded(*m[i]);
    EXPECT_EQ(u.reason, "too-long");
    EXPECT_EQ(u.bytes, line->size());
    EXPECT_TRUE(u.truncated);
    EXPECT_GT(u.decoded.size(), 2000u);
    EXPECT_EQ(u.decoded, line->substr(0, u.decoded.size()));
  }
  EXPECT_EQ(Unrecorded(*m[2]), Whole("number-range", "{\"n\":1e400}"));
  EXPECT_EQ(Unrecorded(*m[3]), Whole("not-utf8", "{\"bad\":\"\xff\"}"));
  EXPECT_EQ(Unrecorded(*m[4]), Whole("not-utf8", "{\"bad\":\"\\ud800\"}"));
  EXPECT_EQ(Unrecorded(*m[5]), Whole("too-deep", deep));
  const std::string log = ReadFileText(dir_ + "/log");
  EXPECT_NE(log.find("recorded as arcs/unrecorded (too-long): over max_line_bytes (4096)"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("its recorded line would be over max_line_bytes"), std::string::npos);
  EXPECT_NE(log.find("beyond the doubles"), std::string::npos);
  EXPECT_NE(log.find("not JSON"), std::string::npos);
}

TEST_F(RecorderTest, ALongLineIsStreamedAndItsFirst64KiBRecorded) {
  options_.limits.max_line_bytes = 200000;
  Start();
  std::string long_line(300000, 'z');
  for (std::size_t i = 0; i < long_line.size(); i += 1000) {
    long_line[i] = static_cast<char>('a' + i / 1000 % 26);
  }
  Send(long_line + "\n");
  Send(Request("1", {Response("1")}));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  ASSERT_TRUE(Finish().ok());
  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  const std::vector<const Line*> m = Messages(lines);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(Unrecorded(*m[0]),
            (UnrecordedLine{"too-long", 300000, long_line.substr(0, 65536), true}));
}

TEST_F(RecorderTest, ServerLinesThatAreNotMessagesReachTheClientAndTheRecording) {
  Start();
  // Not UTF-8 inside a string, and where the JSON grammar fails first.
  const std::vector<std::string> odd = {"not json", "{\"x\":\"\xc3\x28\"}", "\xff\xfe",
                                        R"([{"jsonrpc":"2.0","method":"a"}])", "42"};
  const std::string rest = R"({"jsonrpc":"2.0","method":"cut)";
  std::string bytes;
  for (const std::string& line : odd) bytes += line + "\n";
  bytes += rest;  // then the upstream exits: the rest of its stream, unterminated
  Send(Request("1", {Response("1")}, ",\"write_hex\":\"" + Hex(bytes) + "\",\"exit\":0"));
  const Result<int> result = Finish(/*close_client=*/false);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(*result, 0);
  EXPECT_EQ(received_, Response("1") + "\n" + bytes);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  const std::vector<const Line*> m = Messages(lines);
  ASSERT_EQ(m.size(), 8u);
  const std::vector<UnrecordedLine> expected = {
      Whole("not-json", odd[0]),      Whole("not-utf8", odd[1]),      Whole("not-utf8", odd[2]),
      Whole("not-an-object", odd[3]), Whole("not-an-object", odd[4]), Whole("unterminated", rest)};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(m[i + 2]->Get("dir"), "s2c");
    EXPECT_EQ(m[i + 2]->Get("seq"), std::to_string(i + 3));
    EXPECT_EQ(Unrecorded(*m[i + 2]), expected[i]) << i;
  }
}

TEST_F(RecorderTest, RedactsTheRecordingNeverTheForwardedBytes) {
  const std::string secret = "s3cr3t-Value";
  options_.redaction = {{{"ARCS_TEST_TOKEN", secret}}, {"sk-[a-z0-9]{8,}"}};
  options_.name = "with " + secret;
  options_.upstream_command += " --token=" + secret;  // an argument the upstream ignores
  Start();
  // The secret in params, once escaped ("\u0073" is "s"), an API key, and a server reply that
  // holds both; then a line that is not JSON, holding the secret too.
  const std::string reply =
      R"({"jsonrpc":"2.0","id":7,"result":{"echo":"key )" + secret + R"(","k":"sk-abcdef123"}})";
  const std::string request = R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{)"
                              R"("reply":[)" +
                              Quote(reply) + R"(],"write_hex":")" +
                              Hex("not json " + secret + "\n") + R"(","a":"\u0073)" +
                              secret.substr(1) + R"(","n":1.50,"api":"sk-0123456789"}})";
  Send(request + "\n");
  EXPECT_EQ(ReceiveLine(), reply);
  EXPECT_EQ(ReceiveLine(), "not json " + secret);
  // A message without a secret keeps its bytes.
  const std::string plain = R"({"jsonrpc":"2.0", "method":"notifications/initialized"})";
  Send(plain + "\n");
  ASSERT_TRUE(Finish().ok());
  // Forwarded as they were, secrets included.
  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
  EXPECT_NE(received_.find(secret), std::string::npos);

  const std::string recording = Recording();
  EXPECT_EQ(recording.find(secret), std::string::npos) << recording;
  EXPECT_EQ(recording.find("sk-abcdef123"), std::string::npos);
  EXPECT_EQ(recording.find("sk-0123456789"), std::string::npos);
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  // The header states the rules, never the value; its own texts are redacted.
  EXPECT_NE(lines[0].text.find(R"("redaction":{"env":["ARCS_TEST_TOKEN"],)"
                               R"("patterns":["sk-[a-z0-9]{8,}"]})"),
            std::string::npos)
      << lines[0].text;
  EXPECT_EQ(lines[0].Get("name"), "with [REDACTED:ARCS_TEST_TOKEN]");
  EXPECT_NE(lines[0].Get("upstream").find("--token=[REDACTED:ARCS_TEST_TOKEN]"), std::string::npos);
  const std::vector<const Line*> m = Messages(lines);
  ASSERT_EQ(m.size(), 4u);
  // The request: id and method as they were, the strings redacted, the message written again.
  const json::Value& asked = *m[0]->root().Find("msg");
  EXPECT_EQ(json::ToString(*asked.Find("id")), "7");
  EXPECT_EQ(asked.Find("method")->text(), "tools/call");
  EXPECT_EQ(asked.Find("params")->Find("a")->text(), "[REDACTED:ARCS_TEST_TOKEN]");
  EXPECT_EQ(asked.Find("params")->Find("api")->text(), "[REDACTED]");
  EXPECT_EQ(json::ToString(*asked.Find("params")->Find("n")), "1.50");
  const json::Value& answered = *m[1]->root().Find("msg");
  EXPECT_EQ(json::ToString(*answered.Find("result")),
            R"({"echo":"key [REDACTED:ARCS_TEST_TOKEN]","k":"[REDACTED]"})");
  EXPECT_TRUE(m[1]->Has("latency_ms"));  // still paired with its request
  // The line that is not JSON: its bytes redacted before they are encoded.
  EXPECT_EQ(Unrecorded(*m[2]), (UnrecordedLine{"not-json", 9 + secret.size(),
                                               "not json [REDACTED:ARCS_TEST_TOKEN]", false}));
  EXPECT_NE(m[3]->text.find("\"msg\":" + plain + "}"), std::string::npos) << m[3]->text;
  // Nor does the log hold the secret.
  const std::string log = ReadFileText(dir_ + "/log");
  EXPECT_NE(log.find("not json [REDACTED:ARCS_TEST_TOKEN]"), std::string::npos) << log;
  EXPECT_EQ(log.find(secret), std::string::npos) << log;
}

TEST_F(RecorderTest, AnInvalidRedactionPatternIsAUsageError) {
  options_.redaction.patterns = {"("};
  const Result<int> r = RunRecorder(options_, nullptr);
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("missing )"), std::string::npos) << r.status().message();
  EXPECT_FALSE(fs::exists(options_.output_path));  // refused before anything started
}

TEST_F(RecorderTest, FlushesEveryNMessages) {
  options_.flush_interval = std::chrono::hours(1);
  options_.flush_messages = 3;
  Start();
  // The header is on disk at once.
  Send(Request("1", {Response("1")}));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  EXPECT_EQ(Lines(Recording()).size(), 1u);
  // A message is recorded before it is forwarded: the third one was handed to the writer when
  // the client got the fourth. The writer is a thread of its own, so the file shows it soon after,
  // not at once (the interval is an hour: nothing else would flush it).
  Send(Request("2", {Response("2")}));
  EXPECT_EQ(ReceiveLine(), Response("2"));
  EXPECT_EQ(LinesOnceAtLeast(4), 4u);
  ASSERT_TRUE(Finish().ok());
  EXPECT_EQ(Lines(Recording()).size(), 6u);
}

TEST_F(RecorderTest, FlushesAfterTheInterval) {
  options_.flush_interval = milliseconds(100);
  options_.flush_messages = 1000;
  Start();
  Send(Request("1", {Response("1")}));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  EXPECT_EQ(LinesOnceAtLeast(3), 3u);
  ASSERT_TRUE(Finish().ok());
}

TEST_F(RecorderTest, AClientThatDoesNotReadHoldsBackTheUpstreamNotTheOtherDirection) {
  Start();
  constexpr int kFlood = 200;  // 10 MB of notifications
  Send(Request("1", {}, ",\"flood\":" + std::to_string(kFlood)));
  // The client reads nothing for a while: the proxy stops reading the upstream...
  std::this_thread::sleep_for(milliseconds(500));
  const int written = std::atoi(ReadFileText(UpstreamLog() + ".progress").c_str());
  // At most what the pipes and the proxy's 1 MiB queue hold: about 25 of them.
  EXPECT_LT(written, 100) << "the proxy kept reading the upstream into its memory";
  // ...and still forwards what the client sends.
  const std::string ping = R"({"jsonrpc":"2.0","method":"notifications/ping"})"
                           "\n";
  Send(ping);
  const auto end = Clock::now() + std::chrono::seconds(10);
  while (ReadFileText(UpstreamLog()) != sent_ && Clock::now() < end) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
  // Then it reads, and gets everything.
  for (int i = 0; i < kFlood; ++i) ASSERT_EQ(ReceiveLine().size(), 50000u) << i;
  ASSERT_TRUE(Finish().ok());
  const std::vector<Line> lines = Lines(Recording());
  EXPECT_EQ(lines.back().Get("total_messages"), std::to_string(kFlood + 2));
}

TEST_F(RecorderTest, AKilledProxyLeavesEveryFlushedLineWhole) {
  options_.flush_messages = 1;
  int to_proxy[2], from_proxy[2];
  ASSERT_EQ(pipe2(to_proxy, O_CLOEXEC), 0);
  ASSERT_EQ(pipe2(from_proxy, O_CLOEXEC), 0);
  RecorderOptions options = options_;
  options.client_in = to_proxy[0];
  options.client_out = from_proxy[1];
  options.log_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  // The proxy in a process of its own (forked while this test has no other thread).
  const pid_t proxy = fork();
  ASSERT_GE(proxy, 0);
  if (proxy == 0) {
    const Result<int> r = RunRecorder(options, nullptr);
    _exit(r.ok() ? *r : 100);
  }
  close(to_proxy[0]);
  close(from_proxy[1]);
  close(options.log_fd);
  std::string pid_reply;
  std::string received;
  auto receive_line = [&] {
    const auto end = Clock::now() + std::chrono::seconds(10);
    while (received.find('\n') == std::string::npos && Clock::now() < end) {
      pollfd p{from_proxy[0], POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buffer[4096];
      const ssize_t n = read(from_proxy[0], buffer, sizeof buffer);
      if (n <= 0) break;
      received.append(buffer, static_cast<std::size_t>(n));
    }
    const std::size_t nl = received.find('\n');
    std::string line = received.substr(0, nl);
    received.erase(0, nl == std::string::npos ? received.size() : nl + 1);
    return line;
  };
  for (int i = 1; i <= 20; ++i) {
    const std::string id = std::to_string(i);
    WriteAll(to_proxy[1],
             Request(id, {Response(id, "{\"big\":\"" + std::string(5000, 'z') + "\"}")}));
    ASSERT_EQ(receive_line().substr(0, 25), Response(id).substr(0, 25));
  }
  // The writer thread syncs on its own time: once the 40 answered messages are on disk, one more
  // in flight, and kill -9.
  const auto synced_by = Clock::now() + std::chrono::seconds(10);
  while (Messages(Lines(Recording())).size() < 40u && Clock::now() < synced_by) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  WriteAll(to_proxy[1], Request("21", {Response("21")}));
  ASSERT_EQ(kill(proxy, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(proxy, &status, 0), proxy);
  EXPECT_TRUE(WIFSIGNALED(status));
  close(to_proxy[1]);
  close(from_proxy[0]);

  const std::string recording = Recording();
  ASSERT_FALSE(recording.empty());
  EXPECT_EQ(recording.back(), '\n');
  // Every line whole and valid; the 40 answered messages all there; no footer.
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  const std::vector<Line> lines = Lines(recording);
  EXPECT_GE(Messages(lines).size(), 40u);
  EXPECT_NE(lines.back().Get("type"), "footer");
  // The upstream died with it.
  const pid_t upstream = std::atoi(ReadFileText(UpstreamLog() + ".pid").c_str());
  ASSERT_GT(upstream, 0);
  const auto end = Clock::now() + std::chrono::seconds(10);
  while (!Dead(upstream) && Clock::now() < end) std::this_thread::sleep_for(milliseconds(5));
  EXPECT_TRUE(Dead(upstream));
}

TEST_F(RecorderTest, UsageAndOutputErrorsAreStatuses) {
  RecorderOptions o = options_;
  o.upstream_command = "";
  EXPECT_EQ(RunRecorder(o, nullptr).status().code(), StatusCode::kInvalidArgument);
  o = options_;
  o.tags = {"ok", "bad\xff"};
  EXPECT_EQ(RunRecorder(o, nullptr).status().code(), StatusCode::kInvalidArgument);
  o = options_;
  o.output_path = dir_ + "/no/such/dir/rec.jsonl";
  const Result<int> r = RunRecorder(o, nullptr);
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("cannot create"), std::string::npos);
}

TEST_F(RecorderTest, AFailedRecordingDoesNotCutTheClientOff) {
  options_.output_path = "/dev/full";  // every write: ENOSPC
  Start();
  Send(Request("1", {Response("1")}));
  EXPECT_EQ(ReceiveLine(), Response("1"));
  const Result<int> result = Finish();
  EXPECT_EQ(result.status().code(), StatusCode::kIoError);
  EXPECT_NE(result.status().message().find("writing /dev/full: No space left on device"),
            std::string::npos)
      << result.status().message();
  EXPECT_NE(ReadFileText(dir_ + "/log").find("the session goes on unrecorded"), std::string::npos);
  EXPECT_EQ(ReadFileText(UpstreamLog()), sent_);
}

TEST_F(RecorderTest, AnUpstreamThatCannotRunEndsWithStatus127) {
  options_.upstream_command = "/nonexistent/arcs-mcp-server 2>/dev/null";
  Start();
  const Result<int> result = Finish(/*close_client=*/false);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, 127);
  const std::string recording = Recording();
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
  EXPECT_EQ(Lines(recording).back().Get("total_messages"), "0");
}

TEST(FormatTimestampTest, IsRfc3339InUtcWithMilliseconds) {
  using namespace std::chrono;
  const sys_days d = year(2026) / November / 26;
  EXPECT_EQ(FormatTimestamp(d + hours(10) + milliseconds(123)), "2026-11-26T10:00:00.123Z");
  EXPECT_EQ(FormatTimestamp(d + microseconds(999999)), "2026-11-26T00:00:00.999Z");
  EXPECT_EQ(FormatTimestamp(system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
