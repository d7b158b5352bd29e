// An httplib server on a `--http` address, as the record proxy and the replay run theirs: bound
// with SO_REUSEADDR alone (a restart may take a port its predecessor left in TIME_WAIT; the
// library's default, SO_REUSEPORT, would let a second process listen on a port in use and take
// some of its connections, where it must be told the port is taken), Nagle off (one JSON-RPC
// message is one small write), served from a thread of its own, and stopped reliably and soon: a
// stop() that comes before the library has begun to listen is lost, so Stop() asks until it has
// ended, and an idle kept-alive connection is closed after a second. A request body over
// kMaxBodyBytes is refused (413).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_SERVER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_SERVER_H_

#include <httplib.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/http_transport.h"

namespace arcs::mcp_record_replay::http {

class HttpServer {
 public:
  // `threads`: each open event stream holds one, so room for the concurrent requests and streams.
  explicit HttpServer(std::size_t threads);
  ~HttpServer();  // Stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  httplib::Server& server() { return server_; }
  // The port bound (the system's choice for port 0); kIoError when the address cannot be bound
  // (the port in use, or not an address of this host).
  Result<std::uint16_t> Bind(const ListenAddress& address);
  // Serves in a thread of its own until Stop().
  void Start();
  // Whether the server stopped serving without being asked to.
  bool Ended() const { return ended_.load(); }
  // Stops serving and waits for the thread; handlers still running end first.
  void Stop();

 private:
  httplib::Server server_;
  std::thread thread_;
  std::atomic<bool> ended_{false};
};

}  // namespace arcs::mcp_record_replay::http

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_SERVER_H_
