#include "reference/mcp_record_replay/http_server.h"

#include <sys/socket.h>

#include <chrono>

namespace arcs::mcp_record_replay::http {

HttpServer::HttpServer(std::size_t threads) {
  server_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server_.set_tcp_nodelay(true);
  // An idle kept-alive connection holds a thread in a wait that Stop() cannot cut: a second at
  // most (the library's default is 5), and a client opens another when it has more to say.
  server_.set_keep_alive_timeout(1);
  // A body past it is refused (413) before it is held: the library's default has no bound.
  server_.set_payload_max_length(kMaxBodyBytes);
  server_.set_socket_options([](int sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

HttpServer::~HttpServer() { Stop(); }

Result<std::uint16_t> HttpServer::Bind(const ListenAddress& address) {
  const int port = address.port == 0
                       ? server_.bind_to_any_port(address.host)
                       : (server_.bind_to_port(address.host, address.port) ? address.port : -1);
  if (port <= 0) {
    return Status(StatusCode::kIoError, "cannot listen on " + UrlHost(address.host) + ":" +
                                            std::to_string(address.port) +
                                            " (the port in use, or not an address of this host)");
  }
  return static_cast<std::uint16_t>(port);
}

void HttpServer::Start() {
  thread_ = std::thread([this] {
    server_.listen_after_bind();
    ended_ = true;
  });
}

void HttpServer::Stop() {
  if (!thread_.joinable()) return;
  while (!ended_) {
    server_.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  thread_.join();
}

}  // namespace arcs::mcp_record_replay::http
