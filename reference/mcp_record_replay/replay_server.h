// The replay mock server on the MCP stdio transport (§2 F-003; `arcs mcp replay`): reads the
// client's messages one line at a time, answers each as the Replayer decides, sends the server's
// own recorded messages in their place (errata MRR-E39), waits what the timing asks, and under
// passthrough (EC-REC-009) holds a session of its own with a real upstream: the upstream gets an
// initialize handshake (the client's own initialize, or else the recorded one) before the first
// request forwarded to it, then the unmatched requests and the client's notifications; its
// responses, notifications and requests reach the client (its requests under ids of ours, which
// the client's answers are mapped back from), as they come (errata MRR-E42).
//
// Every wait (for the client's next line, a timing delay, the upstream's answer, a client slow to
// take an answer) watches a stop flag, which the verb sets from its SIGINT, SIGTERM and SIGHUP
// handlers, at least every kSlice: a stopped replay returns at once, and the caller ends the
// upstream's process group (upstream.h) as at any other end. No wait for a peer is unbounded:
// a response held for the client's answer to a server request goes out after answer_timeout, and
// a forwarded request the upstream leaves unanswered for forward_timeout gets an error response.
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

// How a served replay ended.
enum class ServeEnd : std::uint8_t {
  kClientClosed,  // the client closed its side: a clean end
  kUnmatched,     // --on-unmatched error ended it after its error response
  kFailed,        // the client's side or the upstream failed (`why` says how)
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

struct ServeOptions {
  // How long a response waits for the client's answer to a server request recorded before it
  // (errata MRR-E39): the MCP TypeScript SDK's default request timeout, as kMaxDelay.
  std::chrono::milliseconds answer_timeout = kMaxDelay;
  // How long passthrough waits for the upstream's answer to a forwarded request (its handshake
  // included) before the client gets an error response.
  std::chrono::milliseconds forward_timeout{30'000};
};

// Serves until the client closes in_fd (after which the responses still held go out, and the
// upstream has forward_timeout to answer what was forwarded), the replay ends or `stop` (may be
// null) becomes true. `upstream` (may be null when the options do not pass through) is a started
// server whose pipes are ours while this runs. `log` gets one line per event worth telling the
// user. A timing delay is at most kMaxDelay (a longer one is cut, with a log line), and ends
// early: on `stop` (nothing more is sent), when the client no longer reads (an error or hang-up
// on out_fd: the end), and when the client has closed its input (a hang-up on in_fd: MCP's stdio
// shutdown), after which the answers still owed go out without delay.
Served ServeReplay(Replayer* replayer, int in_fd, int out_fd, Upstream* upstream,
                   const std::function<void(std::string_view)>& log,
                   const std::atomic<bool>* stop = nullptr, const ServeOptions& options = {});

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_SERVER_H_
