// The replay mock server on the MCP stdio transport (§2 F-003; `arcs mcp replay`): reads the
// client's messages one line at a time, answers each as the Replayer decides, waits what the
// timing asks, and forwards unmatched requests to an upstream under passthrough (EC-REC-009).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_

#include <functional>
#include <string>
#include <string_view>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/replay.h"

namespace arcs::mcp_record_replay {

// Where passthrough sends a request: the upstream's response to it (one JSON-RPC message line
// whose id is the request's), or an error when the upstream cannot answer.
class Forwarder {
 public:
  virtual ~Forwarder() = default;
  virtual Result<std::string> Forward(std::string_view request_line) = 0;
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

// Serves until the client closes in_fd or the replay ends. `forwarder` may be null when the
// options do not pass through. `log` gets one line per event worth telling the user.
Served ServeReplay(Replayer* replayer, int in_fd, int out_fd, Forwarder* forwarder,
                   const std::function<void(std::string_view)>& log);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
