#include "reference/mcp_record_replay/http_line_transport.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;

// A Streamable HTTP server of the test's: initialize answered in JSON with a session id; "stream"
// answered with an event stream (a notification, then the response); "refuse" with HTTP 500; a
// notification with 202. It keeps what it got, with the session header it came with.
class Server {
 public:
  Server() {
    server_.Post("/mcp", [this](const httplib::Request& q, httplib::Response& r) {
      {
        std::lock_guard lock(mu_);
        got_.push_back(q.get_header_value("Mcp-Session-Id") + " " + q.body);
      }
      if (q.body.find("\"initialize\"") != std::string::npos) {
        r.set_header("Mcp-Session-Id", "s-1");
        r.set_content(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}})",
                      "application/json");
      } else if (q.body.find("\"stream\"") != std::string::npos) {
        r.set_content(http::SseFrame(R"({"jsonrpc":"2.0","method":"notifications/progress"})") +
                          http::SseFrame(R"({"jsonrpc":"2.0","id":2,"result":{}})"),
                      "text/event-stream");
      } else if (q.body.find("\"refuse\"") != std::string::npos) {
        r.status = 500;
        r.set_content("no", "text/plain");
      } else {
        r.status = 202;
      }
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Server() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
  std::vector<std::string> got() {
    std::lock_guard lock(mu_);
    return got_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::vector<std::string> got_;
};

std::string Next(LineTransport* t) {
  const Received r = t->Receive(Clock::now() + std::chrono::seconds(30));
  return r.end == ReceiveEnd::kLine ? r.line : "(ended: " + r.why + ")";
}

TEST(HttpLineTransportTest, MessagesGoOutAndComeBackAsLines) {
  Server server;
  Result<std::unique_ptr<HttpLineTransport>> t = HttpLineTransport::Connect(server.url(), nullptr);
  ASSERT_TRUE(t.ok());
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  ASSERT_TRUE((*t)->Send(R"({"jsonrpc":"2.0","id":1,"method":"initialize"})", deadline).ok());
  EXPECT_EQ(Next(t->get()),
            R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}})");
  ASSERT_TRUE(
      (*t)->Send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", deadline).ok());
  ASSERT_TRUE((*t)->Send(R"({"jsonrpc":"2.0","id":2,"method":"stream"})", deadline).ok());
  EXPECT_EQ(Next(t->get()), R"({"jsonrpc":"2.0","method":"notifications/progress"})");
  EXPECT_EQ(Next(t->get()), R"({"jsonrpc":"2.0","id":2,"result":{}})");
  ASSERT_TRUE((*t)->Send(R"({"jsonrpc":"2.0","id":3,"method":"refuse"})", deadline).ok());
  EXPECT_EQ(Next(t->get()),
            R"({"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"HTTP 500: no"}})");
  const std::vector<std::string> got = server.got();
  ASSERT_EQ(got.size(), 4u);
  // The session id from initialize on; the notification before the request that followed it.
  EXPECT_EQ(got[0], R"( {"jsonrpc":"2.0","id":1,"method":"initialize"})");
  EXPECT_EQ(got[1], R"(s-1 {"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(got[2], R"(s-1 {"jsonrpc":"2.0","id":2,"method":"stream"})");
}

TEST(HttpLineTransportTest, AServerThatCannotBeReachedFailsTheTransport) {
  // A port that was free, bound and closed again without listening: nothing answers there.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size), 0);
  close(fd);
  const int port = ntohs(address.sin_port);
  Result<std::unique_ptr<HttpLineTransport>> t =
      HttpLineTransport::Connect("http://127.0.0.1:" + std::to_string(port) + "/", nullptr);
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE((*t)->Send(R"({"jsonrpc":"2.0","id":1,"method":"initialize"})",
                         Clock::now() + std::chrono::seconds(30))
                  .ok());
  const Received r = (*t)->Receive(Clock::now() + std::chrono::seconds(30));
  EXPECT_EQ(r.end, ReceiveEnd::kFailed);
  EXPECT_NE(r.why.find("cannot reach"), std::string::npos) << r.why;
  EXPECT_FALSE(HttpLineTransport::Connect("ftp://x/", nullptr).ok());
}

}  // namespace
}  // namespace arcs::mcp_record_replay
