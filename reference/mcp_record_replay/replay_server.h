// The replay mock server on the MCP stdio transport (§2 F-003; `arcs mcp replay`): reads the
// client's messages one line at a time, answers each as the Replayer decides, waits what the
// timing asks, and forwards unmatched requests to an upstream under passthrough (EC-REC-009).
//
// Every wait (for the client's next line, a timing delay, the upstream's answer, a client slow to
// take an answer) watches a stop flag, which the verb sets from its SIGINT, SIGTERM and SIGHUP
// handlers, at least every kSlice: a stopped replay returns at once, and the caller ends the
// upstream's process group (upstream.h) as at any other end.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
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
// started it (upstream.h). A Forward waiting on the upstream gives up when `stop` (may be null)
// becomes true.
class UpstreamForwarder : public Forwarder {
 public:
  static Result<std::unique_ptr<UpstreamForwarder>> Start(
      const std::string& command, std::function<void(std::string_view)> log,
      const std::atomic<bool>* stop = nullptr,
      std::chrono::milliseconds timeout = std::chrono::seconds(30));
  Result<std::string> Forward(std::string_view request_line) override;

 private:
  UpstreamForwarder(std::unique_ptr<Upstream> upstream, std::function<void(std::string_view)> log,
                    const std::atomic<bool>* stop, std::chrono::milliseconds timeout)
      : upstream_(std::move(upstream)), log_(std::move(log)), stop_(stop), timeout_(timeout) {}
  Status Write(std::string_view bytes, std::chrono::steady_clock::time_point deadline);
  Result<std::string> ReadLine(std::chrono::steady_clock::time_point deadline);
  Status Wait(int fd, short events, std::chrono::steady_clock::time_point deadline,
              std::string_view timeout_message) const;

  std::unique_ptr<Upstream> upstream_;
  std::function<void(std::string_view)> log_;
  const std::atomic<bool>* stop_;
  std::chrono::milliseconds timeout_;
  std::string pending_;  // bytes read from the server after the last whole line
};

// How a served replay ended.
enum class ServeEnd : std::uint8_t {
  kClientClosed,  // the client closed its side: a clean end
  kUnmatched,     // --on-unmatched error ended it after its error response
  kFailed,        // the client's side or the upstream failed (the Status says how)
  kStopped,       // the stop flag (a signal) ended it
};

struct Served {
  ServeEnd end = ServeEnd::kClientClosed;
  std::string why;  // kFailed: what failed
};

// No wait is longer than this between two looks at the stop flag.
inline constexpr std::chrono::milliseconds kSlice{100};

// The longest a timing delay lasts: a recorded latency_ms has no upper bound (the appendix's
// schema: an integer, minimum 0), and a recording may hold 2^40 ms. A minute keeps every delay a
// real session plausibly shows (it is the MCP TypeScript SDK's default request timeout, so a
// client that timed out waiting still times out) while a replay of any recording stays bounded.
// Refusing such a recording instead would refuse one the schema accepts, which F-003's "Validates
// recording on load (fails fast on corrupt file)" does not allow, and under every timing.
inline constexpr std::chrono::milliseconds kMaxDelay{60'000};

// Writes a whole message and its line end; false when the reader is gone (EPIPE), the write
// fails, or `stop` (may be null) is true when a signal interrupts a write the reader is not
// taking.
bool WriteLine(int fd, std::string line, const std::atomic<bool>* stop = nullptr);

// Serves until the client closes in_fd, the replay ends or `stop` (may be null) becomes true.
// `forwarder` may be null when the options do not pass through. `log` gets one line per event
// worth telling the user. A timing delay is at most kMaxDelay (a longer one is cut, with a log
// line), and ends early: on `stop` (nothing more is sent), when the client no longer reads (an
// error or hang-up on out_fd: the end), and when the client has closed its input (a hang-up on
// in_fd: MCP's stdio shutdown), after which the answers still owed go out without delay.
Served ServeReplay(Replayer* replayer, int in_fd, int out_fd, Forwarder* forwarder,
                   const std::function<void(std::string_view)>& log,
                   const std::atomic<bool>* stop = nullptr);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
