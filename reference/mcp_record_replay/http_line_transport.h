// A live MCP server over the Streamable HTTP transport, one JSON-RPC message at a time
// (`arcs mcp verify --upstream-http URL`): the LineTransport of verify.h on HTTP. Each message is
// POSTed from a thread of its own (a response the server holds until the client answers one of
// its requests must not hold the next POST); what comes back, an application/json body or the
// events of a text/event-stream, arrives as lines in the order they come. The Mcp-Session-Id the
// server gives goes with every later request, and so does MCP-Protocol-Version once an initialize
// result names it. Once the session has an id, a GET stream is opened for the server's messages
// that relate to no request (a server that answers 405 has none). An HTTP error answering a
// request becomes a JSON-RPC error response to it (-32000, "HTTP <status>: <body>"), so that the
// request is answered; a server that cannot be reached fails the transport.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_LINE_TRANSPORT_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_LINE_TRANSPORT_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/http_transport.h"
#include "reference/mcp_record_replay/verify.h"

namespace httplib {
class Client;
}

namespace arcs::mcp_record_replay {

class HttpLineTransport : public LineTransport {
 public:
  // `url` as ParseHttpUrl reads it (https:// included); `stop` (may be null) is looked at by every
  // wait at least every kSlice.
  static Result<std::unique_ptr<HttpLineTransport>> Connect(std::string_view url,
                                                            const std::atomic<bool>* stop);
  ~HttpLineTransport() override;  // ends the session (DELETE) and every exchange still open
  HttpLineTransport(const HttpLineTransport&) = delete;
  HttpLineTransport& operator=(const HttpLineTransport&) = delete;

  Status Send(std::string_view line, std::chrono::steady_clock::time_point deadline) override;
  Received Receive(std::chrono::steady_clock::time_point deadline) override;

 private:
  HttpLineTransport(http::HttpUrl url, const std::atomic<bool>* stop)
      : url_(std::move(url)), stop_(stop) {}
  void Post(std::string body, std::chrono::steady_clock::time_point deadline);
  bool Open(httplib::Client* client);
  void Close(httplib::Client* client);
  void OpenGetStream();
  void Arrived(std::string line);
  void Failed(std::string why);
  void LearnFrom(std::string_view line);

  http::HttpUrl url_;
  const std::atomic<bool>* stop_;
  std::mutex mu_;
  std::condition_variable arrived_;
  std::deque<std::string> lines_;  // what the server sent, not yet received
  std::string failure_;            // set when the server could not be reached
  std::string session_id_;
  std::string protocol_version_;
  std::atomic<bool> closing_{false};
  std::set<httplib::Client*> active_;  // the exchanges' clients, which closing stops
  std::vector<std::thread> exchanges_;
};

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_LINE_TRANSPORT_H_
