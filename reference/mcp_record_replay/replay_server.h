// The replay mock server on the MCP stdio transport (§2 F-003; `arcs mcp replay`): reads the
// client's messages one line at a time, answers each as the Replayer decides, waits what the
// timing asks, and forwards unmatched requests to an upstream under passthrough (EC-REC-009).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/replay.h"
#include "reference/mcp_record_replay/upstream.h"

namespace arcs::mcp_record_replay {

// Where passthrough sends a request: the upstream's response to it (one JSON-RPC message line
// whose id is the request's), or an error when the upstream cannot answer.
class Forwarder {
 public:
  virtual ~Forwarder() = default;
  virtual Result<std::string> Forward(std::string_view request_line) = 0;
};

// Passthrough to a real server it starts (`--upstream CMD`, run through /bin/sh -c): a request
// is written to the server and the server's messages are read until the response with the
// request's id; whatever else it sends meanwhile (notifications, its own requests) is dropped
// with a log line, since the client only gets responses from a replay (errata MRR-E39). Only the
// unmatched requests reach it (errata MRR-E42: not scored). Must be used by the thread that
// started it (upstream.h).
class UpstreamForwarder : public Forwarder {
 public:
  static Result<std::unique_ptr<UpstreamForwarder>> Start(
      const std::string& command, std::function<void(std::string_view)> log,
      std::chrono::milliseconds timeout = std::chrono::seconds(30));
  Result<std::string> Forward(std::string_view request_line) override;

 private:
  UpstreamForwarder(std::unique_ptr<Upstream> upstream, std::function<void(std::string_view)> log,
                    std::chrono::milliseconds timeout)
      : upstream_(std::move(upstream)), log_(std::move(log)), timeout_(timeout) {}
  Status Write(std::string_view bytes, std::chrono::steady_clock::time_point deadline);
  Result<std::string> ReadLine(std::chrono::steady_clock::time_point deadline);

  std::unique_ptr<Upstream> upstream_;
  std::function<void(std::string_view)> log_;
  std::chrono::milliseconds timeout_;
  std::string pending_;  // bytes read from the server after the last whole line
};

// How a served replay ended.
enum class ServeEnd : std::uint8_t {
  kClientClosed,  // the client closed its side: a clean end
  kUnmatched,     // --on-unmatched error ended it after its error response
  kFailed,        // the client's side or the upstream failed (the Status says how)
};

struct Served {
  ServeEnd end = ServeEnd::kClientClosed;
  std::string why;  // kFailed: what failed
};

// Writes a whole message and its line end; false when the reader is gone (EPIPE) or the write
// fails.
bool WriteLine(int fd, std::string line);

// Serves until the client closes in_fd or the replay ends. `forwarder` may be null when the
// options do not pass through. `log` gets one line per event worth telling the user.
Served ServeReplay(Replayer* replayer, int in_fd, int out_fd, Forwarder* forwarder,
                   const std::function<void(std::string_view)>& log);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
