#include "reference/mcp_record_replay/http_recorder.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "reference/core/jsonl.h"
#include "reference/mcp_record_replay/http_transport.h"
#include "reference/mcp_record_replay/recording.h"

namespace arcs::mcp_record_replay {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kInitialize[] =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})";
constexpr char kInitializeResult[] =
    R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{}}})";
constexpr char kInitialized[] = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
constexpr char kCall[] = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}})";
constexpr char kProgress[] =
    R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})";
constexpr char kCallResult[] = R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})";
constexpr char kSlow[] = R"({"jsonrpc":"2.0","id":10,"method":"slow"})";
constexpr char kSlowResult[] = R"({"jsonrpc":"2.0","id":10,"result":{"slow":true}})";
constexpr char kFast[] = R"({"jsonrpc":"2.0","id":11,"method":"fast"})";
constexpr char kFastResult[] = R"({"jsonrpc":"2.0","id":11,"result":{"fast":true}})";
constexpr char kSession[] = "session-7";
constexpr char kResumable[] = R"({"jsonrpc":"2.0","id":20,"method":"resumable"})";
constexpr char kResumableResult[] = R"({"jsonrpc":"2.0","id":20,"result":{}})";
constexpr char kLog[] = R"({"jsonrpc":"2.0","method":"notifications/message","params":{"n":1}})";
constexpr char kLog2[] = R"({"jsonrpc":"2.0","method":"notifications/message","params":{"n":2}})";
// A stream whose events carry ids, as a server that lets clients resume sends it: a priming event
// (an id, no data), the progress and the result.
const std::string kIdentifiedStream = "id: s7-0\ndata:\n\n" +
                                      http::SseFrame(kProgress, "", "s7-1") +
                                      http::SseFrame(kResumableResult, "", "s7-2");
// A stream of more events than the proxy remembers ids of (65,536), numbered from 0, and what a
// server sends again of it when asked to: the second, the last and the first (last: remembered
// again, it would push the second out).
constexpr int kManyEvents = 65537;
constexpr char kMany[] = R"({"jsonrpc":"2.0","id":30,"method":"many"})";
std::string Numbered(int k) {
  return R"({"jsonrpc":"2.0","method":"n","params":{"k":)" + std::to_string(k) + "}}";
}
std::string NumberedFrame(int k) {
  return http::SseFrame(Numbered(k), "", "m" + std::to_string(k));
}
std::string ManyEvents() {
  std::string stream;
  for (int k = 0; k < kManyEvents; ++k) stream += NumberedFrame(k);
  return stream;
}
// What a server sends a client that resumes after s7-0 as server-everything's event store does:
// every event after it again (the priming one with other data), then new ones; the last without
// an id of its own.
const std::string kResumedStream =
    http::SseFrame(kProgress, "", "s7-1") + http::SseFrame(kResumableResult, "", "s7-2") +
    http::SseFrame("{}", "", "s7-0") + http::SseFrame(kLog, "", "s7-3") + http::SseFrame(kLog2);

// Until `done` or the time is up: no test waits forever on a proxy that lost something.
bool WaitFor(std::unique_lock<std::mutex>& lock, std::condition_variable& cv,
             const std::function<bool()>& done) {
  return cv.wait_for(lock, seconds(10), done);
}

// The MCP server: initialize answered as JSON with a session id, a notification with 202, the
// tool call with an event stream (a progress notification, then, once released, the result),
// "slow" once released and "fast" at once as JSON, GET with 405 (no stream offered) unless the
// client asks to resume ("Last-Event-ID: hold": a stream that stays open and silent), DELETE with
// 200. It keeps the headers of every request.
class Upstream {
 public:
  Upstream() {
    server_.Post("/mcp",
                 [this](const httplib::Request& req, httplib::Response& res) { Post(req, res); });
    server_.Get("/mcp", [this](const httplib::Request& req, httplib::Response& res) {
      Keep(req);
      if (req.get_header_value("Last-Event-ID") == "s7-0") {
        res.set_content(kResumedStream, http::kEventStream);
        return;
      }
      if (req.get_header_value("Last-Event-ID") == "many") {
        res.set_content(NumberedFrame(1) + NumberedFrame(kManyEvents - 1) + NumberedFrame(0),
                        http::kEventStream);
        return;
      }
      if (req.get_header_value("Last-Event-ID") != "hold") {
        res.status = 405;
        res.set_header("Allow", "POST, DELETE");
        return;
      }
      res.set_chunked_content_provider(http::kEventStream, [](std::size_t, httplib::DataSink&) {
        std::this_thread::sleep_for(milliseconds(20));  // silent until the stream is cut
        return true;
      });
    });
    server_.Delete("/mcp", [this](const httplib::Request& req, httplib::Response&) { Keep(req); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(milliseconds(1));
  }
  ~Upstream() {
    Release();
    server_.stop();
    thread_.join();
  }

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  bool WaitForRequests(std::size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    return WaitFor(lock, changed_, [&] { return requests_.size() >= count; });
  }
  bool released_late() {
    std::lock_guard<std::mutex> lock(mutex_);
    return released_late_;
  }
  std::vector<httplib::Headers> requests() {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

 private:
  void Keep(const httplib::Request& req) {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(req.headers);
    changed_.notify_all();
  }
  // Waits for Release; a wait that timed out is remembered (released_late).
  void WaitForRelease() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!WaitFor(lock, changed_, [&] { return released_; })) released_late_ = true;
  }

  void Post(const httplib::Request& req, httplib::Response& res) {
    Keep(req);
    if (req.body == kInitialize) {
      res.set_header(http::kSessionHeader, kSession);
      res.set_content(kInitializeResult, http::kJson);
    } else if (req.body == kCall) {
      res.set_chunked_content_provider(
          http::kEventStream, [this, step = 0](std::size_t, httplib::DataSink& sink) mutable {
            const std::string event = http::SseFrame(step == 0 ? kProgress : kCallResult);
            if (step++ == 1) WaitForRelease();
            sink.write(event.data(), event.size());
            if (step == 2) sink.done();
            return true;
          });
    } else if (req.body == kSlow) {
      WaitForRelease();
      res.set_content(kSlowResult, http::kJson);
    } else if (req.body == kFast) {
      res.set_content(kFastResult, http::kJson);
    } else if (req.body == kMany) {
      res.set_content(ManyEvents(), http::kEventStream);
    } else if (req.body == kResumable) {
      res.set_content(kIdentifiedStream, http::kEventStream);
    } else {
      res.status = 202;  // a notification
    }
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool released_ = false;
  bool released_late_ = false;
  std::vector<httplib::Headers> requests_;
};

// A header's value, "" when absent (the names are compared ignoring case).
std::string Header(const httplib::Headers& headers, const std::string& name) {
  const auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

struct Answer {
  int status = 0;
  httplib::Headers headers;
  std::string body;
  bool ok = false;
};

std::string ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A recorded line as "dir msg latency?": msg as the line holds it (its bytes), "+latency" when
// the line has latency_ms; the header and footer as their type.
std::vector<std::string> Summary(const std::string& recording) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < recording.size()) {
    const std::size_t end = recording.find('\n', at);
    const std::string line = recording.substr(at, end - at);
    at = end + 1;
    const std::size_t msg = line.find(R"("msg":)");
    if (msg == std::string::npos) {
      out.push_back(line.find(R"("type":"header")") != std::string::npos ? "header" : "footer");
      continue;
    }
    const std::size_t latency = line.find(R"(,"latency_ms":)");
    const std::size_t msg_end = latency == std::string::npos ? line.size() - 1 : latency;
    out.push_back(line.substr(line.find(R"("dir":")") + 7, 3) + " " +
                  line.substr(msg + 6, msg_end - msg - 6) +
                  (latency == std::string::npos ? "" : " +latency"));
  }
  return out;
}

std::vector<std::string> Findings(const std::string& recording) {
  std::vector<std::string> findings;
  jsonl::MemorySource source(recording);
  const Status s = CheckRecording(&source, {}, [&](RecordingFinding f) {
    findings.push_back(std::to_string(f.line) + ": " + f.message);
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return findings;
}

class HttpRecorderTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "arcs_http_recorder_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    options_.output_path = dir_ + "/rec.jsonl";
    options_.thoughtjack_version = "arcs 0.2.0";
    options_.upstream_url = upstream_.url();
    options_.listen = "127.0.0.1:0";
    options_.log_fd = ::open((dir_ + "/log").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  }
  void TearDown() override {
    if (proxy_.joinable()) (void)Stop();
    ::close(options_.log_fd);
    fs::remove_all(dir_);
  }

  // Starts the proxy; returns once it listens.
  void Start() {
    std::promise<std::string> listening;
    options_.on_listening = [&](const std::string& url) { listening.set_value(url); };
    proxy_ = std::thread([this] { result_ = RunHttpRecorder(options_, &stop_); });
    std::future<std::string> url = listening.get_future();
    ASSERT_EQ(url.wait_for(seconds(10)), std::future_status::ready);
    url_ = url.get();
    const Result<http::HttpUrl> parsed = http::ParseHttpUrl(url_);
    ASSERT_TRUE(parsed.ok()) << url_;
    port_ = parsed->port;
  }
  Result<int> Stop() {
    stop_ = true;
    proxy_.join();
    return std::move(result_);
  }

  // One request to the proxy on a connection of its own; `on_bytes` sees the body as it comes.
  Answer Send(const std::string& method, const std::string& body, httplib::Headers headers = {},
              const std::function<void(std::string_view)>& on_bytes = nullptr) {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(seconds(20));
    httplib::Request request;
    request.method = method;
    request.path = "/mcp";
    request.headers = std::move(headers);
    request.headers.emplace("Accept", "application/json, text/event-stream");
    if (!body.empty()) {
      request.headers.emplace("Content-Type", http::kJson);
      request.body = body;
    }
    Answer answer;
    request.content_receiver = [&](const char* data, std::size_t size, std::uint64_t,
                                   std::uint64_t) {
      answer.body.append(data, size);
      if (on_bytes) on_bytes(std::string_view(data, size));
      return true;
    };
    httplib::Response response;
    httplib::Error error;
    answer.ok = client.send(request, response, error);
    answer.status = response.status;
    answer.headers = response.headers;
    return answer;
  }

  std::string Recording() const { return ReadFileText(options_.output_path); }

  std::string dir_;
  Upstream upstream_;
  HttpRecorderOptions options_;
  std::atomic<bool> stop_{false};
  std::thread proxy_;
  Result<int> result_ = Status(StatusCode::kInternal, "not run");
  std::string url_;
  int port_ = 0;
};

TEST_F(HttpRecorderTest, ForwardsAndRecordsJsonEventStreamsAndNotifications) {
  Start();
  EXPECT_EQ(url_, "http://127.0.0.1:" + std::to_string(port_) + "/mcp");
  EXPECT_NE(ReadFileText(dir_ + "/log").find("arcs mcp record: listening on " + url_ + "\n"),
            std::string::npos);

  const Answer init = Send("POST", kInitialize);
  ASSERT_TRUE(init.ok);
  EXPECT_EQ(init.status, 200);
  EXPECT_EQ(init.body, kInitializeResult);
  EXPECT_EQ(Header(init.headers, http::kSessionHeader), std::string(kSession));
  EXPECT_EQ(Header(init.headers, "Content-Type"), http::kJson);

  const httplib::Headers session = {{http::kSessionHeader, kSession},
                                    {http::kProtocolVersionHeader, "2025-06-18"},
                                    {"Authorization", "Bearer t"}};
  const Answer initialized = Send("POST", kInitialized, session);
  EXPECT_EQ(initialized.status, 202);
  EXPECT_EQ(initialized.body, "");

  // The result is sent only once the client has the progress event: relayed as it came.
  bool had_progress_first = false;
  const Answer call = Send("POST", kCall, session, [&](std::string_view) {
    if (!had_progress_first) {
      had_progress_first = true;
      upstream_.Release();
    }
  });
  EXPECT_TRUE(had_progress_first);
  EXPECT_FALSE(upstream_.released_late());
  EXPECT_EQ(call.status, 200);
  EXPECT_EQ(call.body, http::SseFrame(kProgress) + http::SseFrame(kCallResult));
  EXPECT_EQ(Header(call.headers, "Content-Type"), http::kEventStream);

  const Answer get = Send("GET", "", session);
  EXPECT_EQ(get.status, 405);
  EXPECT_EQ(Header(get.headers, "Allow"), std::string("POST, DELETE"));
  EXPECT_EQ(Send("DELETE", "", session).status, 200);

  // The client's headers that matter reached the upstream.
  const std::vector<httplib::Headers> seen = upstream_.requests();
  ASSERT_EQ(seen.size(), 5u);
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_EQ(Header(seen[i], http::kSessionHeader), std::string(kSession));
    EXPECT_EQ(Header(seen[i], http::kProtocolVersionHeader), std::string("2025-06-18"));
    EXPECT_EQ(Header(seen[i], "Authorization"), std::string("Bearer t"));
  }
  EXPECT_EQ(Header(seen[2], "Accept"), std::string("application/json, text/event-stream"));

  const Result<int> result = Stop();
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(*result, 0);
  const std::string recording = Recording();
  EXPECT_EQ(Summary(recording), (std::vector<std::string>{
                                    "header",
                                    std::string("c2s ") + kInitialize,
                                    std::string("s2c ") + kInitializeResult + " +latency",
                                    std::string("c2s ") + kInitialized,
                                    std::string("c2s ") + kCall,
                                    std::string("s2c ") + kProgress,
                                    std::string("s2c ") + kCallResult + " +latency",
                                    "footer",
                                }));
  EXPECT_NE(recording.find(R"("upstream":")" + upstream_.url() + "\""), std::string::npos);
  EXPECT_NE(recording.find(R"({"type":"footer","total_messages":6,)" /* the duration follows */),
            std::string::npos);
  EXPECT_NE(recording.find(R"("client_messages":3,"server_messages":3})"), std::string::npos);
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
}

// EC-REC-003/004: a request the upstream is slow to answer holds up no other; the recording holds
// the messages in the order the proxy had them.
TEST_F(HttpRecorderTest, ServesConcurrentRequestsConcurrently) {
  Start();
  std::thread slow([&] { EXPECT_EQ(Send("POST", kSlow).body, kSlowResult); });
  ASSERT_TRUE(upstream_.WaitForRequests(1));
  EXPECT_EQ(Send("POST", kFast).body, kFastResult);  // while the slow one waits
  upstream_.Release();
  slow.join();
  EXPECT_FALSE(upstream_.released_late());
  ASSERT_TRUE(Stop().ok());
  const std::string recording = Recording();
  EXPECT_EQ(Summary(recording), (std::vector<std::string>{
                                    "header",
                                    std::string("c2s ") + kSlow,
                                    std::string("c2s ") + kFast,
                                    std::string("s2c ") + kFastResult + " +latency",
                                    std::string("s2c ") + kSlowResult + " +latency",
                                    "footer",
                                }));
  EXPECT_EQ(Findings(recording), std::vector<std::string>{});
}

// A stream that stays open (the client's GET, quiet for as long as the session lasts) does not
// hold the end up: the streams are cut, and the footer written.
TEST_F(HttpRecorderTest, StopEndsPromptlyWithAStreamOpen) {
  Start();
  std::thread get([&] { Send("GET", "", {{"Last-Event-ID", "hold"}}); });
  ASSERT_TRUE(upstream_.WaitForRequests(1));
  std::this_thread::sleep_for(milliseconds(100));  // the stream is relayed by now
  const auto start = std::chrono::steady_clock::now();
  const Result<int> result = Stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(3));
  get.join();
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(Summary(Recording()), (std::vector<std::string>{"header", "footer"}));
}

TEST_F(HttpRecorderTest, AnUpstreamThatCannotBeReachedIsA502) {
  options_.upstream_url = "http://127.0.0.1:1/mcp";  // nothing listens on port 1
  Start();
  const Answer answer = Send("POST", kInitialize);
  EXPECT_EQ(answer.status, 502);
  EXPECT_NE(answer.body.find("the upstream answered nothing"), std::string::npos);
  ASSERT_TRUE(Stop().ok());
  // The client's message passed the proxy, so it is recorded; nothing came back.
  EXPECT_EQ(Summary(Recording()),
            (std::vector<std::string>{"header", std::string("c2s ") + kInitialize, "footer"}));
  EXPECT_NE(ReadFileText(dir_ + "/log").find("answered nothing"), std::string::npos);
}

TEST_F(HttpRecorderTest, UsageErrorsAreStatuses) {
  HttpRecorderOptions o = options_;
  o.upstream_url = "ftp://example.com/";
  EXPECT_EQ(RunHttpRecorder(o, &stop_).status().code(), StatusCode::kInvalidArgument);
  o = options_;
  o.listen = "";
  EXPECT_EQ(RunHttpRecorder(o, &stop_).status().code(), StatusCode::kInvalidArgument);
  o = options_;
  o.listen = "127.0.0.1:not-a-port";
  EXPECT_EQ(RunHttpRecorder(o, &stop_).status().code(), StatusCode::kInvalidArgument);
  // The upstream's port, which it holds with SO_REUSEPORT: a proxy sharing it would get some of
  // its connections.
  o = options_;
  o.listen = "127.0.0.1:" + std::to_string(upstream_.port());
  const Result<int> taken = RunHttpRecorder(o, &stop_);
  EXPECT_EQ(taken.status().code(), StatusCode::kIoError);
  EXPECT_NE(taken.status().message().find("cannot listen on 127.0.0.1:"), std::string::npos);
  o = options_;
  o.output_path = dir_ + "/no/such/dir/rec.jsonl";
  EXPECT_EQ(RunHttpRecorder(o, &stop_).status().code(), StatusCode::kIoError);
  EXPECT_FALSE(fs::exists(options_.output_path));
}

// A client that resumes a stream (Last-Event-ID) gets every event the upstream sends, but the
// recording holds each message once: events whose ids and data the session has seen are not
// recorded again; an id seen with other data, an event of another session, or of none, and an
// event without an id of its own are.
TEST_F(HttpRecorderTest, RecordsAnEventSentAgainOnAResumedStreamOnce) {
  Start();
  const httplib::Headers session = {{http::kSessionHeader, kSession}};
  const Answer call = Send("POST", kResumable, session);
  EXPECT_EQ(call.body, kIdentifiedStream);
  httplib::Headers resume = session;
  resume.emplace("Last-Event-ID", "s7-0");
  const Answer resumed = Send("GET", "", resume);
  EXPECT_EQ(resumed.status, 200);
  EXPECT_EQ(resumed.body, kResumedStream);  // relayed whole
  const Answer other =
      Send("GET", "", {{http::kSessionHeader, "other"}, {"Last-Event-ID", "s7-0"}});
  EXPECT_EQ(other.body, kResumedStream);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(Send("GET", "", {{"Last-Event-ID", "s7-0"}}).body, kResumedStream);  // no session
  }
  const Result<int> result = Stop();
  ASSERT_TRUE(result.ok()) << result.status().message();

  const std::vector<std::string> first_session = {
      std::string("c2s ") + kResumable,
      std::string("s2c ") + kProgress,
      std::string("s2c ") + kResumableResult + " +latency",
      "s2c {}",
      std::string("s2c ") + kLog,
      std::string("s2c ") + kLog2};
  std::vector<std::string> expected = {"header"};
  expected.insert(expected.end(), first_session.begin(), first_session.end());
  for (int stream = 0; stream < 3; ++stream) {  // the other session's, and two without one
    for (const char* message : {kProgress, kResumableResult, "{}", kLog, kLog2}) {
      expected.push_back(std::string("s2c ") + message);
    }
  }
  expected.push_back("footer");
  EXPECT_EQ(Summary(Recording()), expected);
  const std::string log = ReadFileText(dir_ + "/log");
  EXPECT_NE(log.find("GET /mcp resumes a stream after event \"s7-0\" (Last-Event-ID)"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("the upstream sent 2 event(s) again"), std::string::npos) << log;
  EXPECT_EQ(log.find("the upstream sent 5 event(s) again"), std::string::npos) << log;
}

// The ids remembered are bounded: of a session's 65,537 events, the first is forgotten (and so
// recorded again when sent again), the others are not.
TEST_F(HttpRecorderTest, RemembersTheLatestEventIdsOnly) {
  Start();
  const httplib::Headers session = {{http::kSessionHeader, kSession}};
  EXPECT_EQ(Send("POST", kMany, session).status, 200);
  httplib::Headers resume = session;
  resume.emplace("Last-Event-ID", "many");
  EXPECT_EQ(Send("GET", "", resume).status, 200);
  const Result<int> result = Stop();
  ASSERT_TRUE(result.ok()) << result.status().message();
  const std::vector<std::string> lines = Summary(Recording());
  ASSERT_EQ(lines.size(), 1 + 1 + kManyEvents + 1 + 1u);  // header, request, events, m0, footer
  EXPECT_EQ(lines[2], "s2c " + Numbered(0));
  EXPECT_EQ(lines[lines.size() - 3], "s2c " + Numbered(kManyEvents - 1));
  EXPECT_EQ(lines[lines.size() - 2], "s2c " + Numbered(0));
  EXPECT_NE(ReadFileText(dir_ + "/log").find("the upstream sent 2 event(s) again"),
            std::string::npos);
}

}  // namespace
}  // namespace arcs::mcp_record_replay
