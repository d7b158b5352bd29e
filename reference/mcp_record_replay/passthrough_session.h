// Passthrough's own session with a real upstream (EC-REC-009; errata MRR-E42), whatever transport
// the replay serves its client on: started by the first forwarded request with an initialize
// handshake (the client's own initialize when it has seen one, else the recorded one, then
// notifications/initialized), it carries the unmatched requests and the client's notifications
// one way, and the upstream's responses, notifications and requests the other (its requests under
// ids of ours, `arcs-upstream-N`, which the client's answers are mapped back from). A forwarded
// request the upstream leaves unanswered for `timeout` gets an error response; so does every
// request waiting when the upstream ends, and every one forwarded after.
//
// Not thread-safe: the stdio server uses it from its one thread, the HTTP server under its lock.
// The upstream's stdout is the caller's to poll (out_fd); Pump reads what is there.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_PASSTHROUGH_SESSION_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_PASSTHROUGH_SESSION_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/upstream.h"

namespace arcs::mcp_record_replay {

class PassthroughSession {
 public:
  using Clock = std::chrono::steady_clock;
  using Lines = std::vector<std::string>;  // messages for the client, compact, no line end

  PassthroughSession(Upstream* upstream, std::string recorded_initialize,
                     const std::function<void(std::string_view)>& log,
                     const std::atomic<bool>* stop, std::chrono::milliseconds timeout)
      : upstream_(upstream),
        recorded_initialize_(std::move(recorded_initialize)),
        log_(log),
        stop_(stop),
        timeout_(timeout) {}

  // The upstream's stdout while it is open, -1 once it has ended.
  int out_fd() const { return state_ == State::kClosed ? -1 : upstream_->stdout_fd(); }
  // Whether a forwarded request waits for the upstream's answer, and until when at most.
  bool Waiting() const { return !pending_.empty(); }
  std::optional<Clock::time_point> NextDeadline() const;

  // The client's own initialize, which the handshake prefers to the recorded one.
  void SawClientInitialize(std::string_view line);
  // A request the replayer did not match; the upstream's answer reaches the client later (or at
  // once, in *to_client, when the upstream has ended).
  Status Forward(const Classified& request, std::string_view line, Lines* to_client);
  // A client notification (once the session has started) goes to the upstream; an answer to one
  // of the upstream's requests goes back under the upstream's id. True when the line was one of
  // those.
  Result<bool> FromClient(const Classified& message, const json::Value& root,
                          std::string_view line);
  // Reads what the upstream wrote; its messages for the client go to *to_client.
  Status Pump(Lines* to_client);
  // Forwarded requests left unanswered past their time get an error response.
  void Expire(Lines* to_client);

 private:
  enum class State : std::uint8_t { kIdle, kInitializing, kReady, kClosed };
  struct Forwarded {
    std::string id;  // the client's, as JSON
    Clock::time_point deadline;
  };

  Status Handshake();
  Status Send(std::string_view line);
  Status FromUpstream(const std::string& line, Lines* to_client);
  Status Write(std::string_view text);
  Status Close(std::string why, Lines* to_client);

  Upstream* upstream_;
  std::string recorded_initialize_;
  const std::function<void(std::string_view)>& log_;
  const std::atomic<bool>* stop_;
  std::chrono::milliseconds timeout_;
  State state_ = State::kIdle;
  bool own_handshake_ = true;  // the session began with an initialize of ours, not the client's
  std::string closed_why_;
  std::string client_initialize_;
  Lines queued_;                                     // for the upstream, once its handshake is over
  std::vector<Forwarded> pending_;                   // forwarded, unanswered
  std::map<std::string, std::string> upstream_ids_;  // our id -> the upstream's, as JSON
  std::uint64_t next_id_ = 1;
  std::string read_;  // bytes read from the upstream after its last whole line
};

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_PASSTHROUGH_SESSION_H_
