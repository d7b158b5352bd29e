// Verifying a TJ-SPEC-010 recording against a live MCP server (`arcs mcp verify`), as peers' users
// do before trusting a recording (mcp-recorder's verify, agent-vcr's diff --fail-on-breaking):
// the recording's client side is sent again, and each live response is compared with the
// recorded one, so that a server's changes show as changes: tools added, removed or changed,
// results changed, results that became errors, requests no longer answered.
//
// The session: the recorded initialize request first, as recorded (its id included), then the
// client's other requests and notifications in file order (not the arcs/unrecorded lines, which
// stand for bytes the recorder could not record as a message: errata MRR-E51), each request's
// response awaited (up to a timeout) before the next is sent. While a response is awaited, the
// server's notifications are passed over and its own requests (sampling/createMessage, roots/list,
// elicitation/create) are answered with the client's recorded answer to a recorded server request
// of the same method (the first not yet used), else with the JSON-RPC error -32601. The server is
// reached through a LineTransport, so that another transport (HTTP) can take the place of stdio.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_VERIFY_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_VERIFY_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/loader.h"
#include "reference/mcp_record_replay/upstream.h"

namespace arcs::mcp_record_replay {

// How a wait for the server's next message ended.
enum class ReceiveEnd : std::uint8_t {
  kLine,      // a line came
  kTimedOut,  // none before the deadline
  kClosed,    // the server ended its side (it exited)
  kStopped,   // the stop flag was set
  kFailed,    // the transport failed
};

struct Received {
  ReceiveEnd end = ReceiveEnd::kLine;
  std::string line;  // kLine: the message, without its line end
  std::string why;   // kClosed, kFailed: what happened, for the report
};

// One JSON-RPC message per line each way, to a live server.
class LineTransport {
 public:
  virtual ~LineTransport() = default;
  // Sends one message (no line end). An error says the server no longer takes input.
  virtual Status Send(std::string_view line, std::chrono::steady_clock::time_point deadline) = 0;
  virtual Received Receive(std::chrono::steady_clock::time_point deadline) = 0;
};

// The MCP stdio transport to a server it starts (upstream.h: /bin/sh -c COMMAND, its stderr
// relayed to log_fd). Every wait looks at `stop` (may be null) at least every kSlice. Writes to a
// server that has exited fail with EPIPE only where SIGPIPE is ignored (the verb's StopOnSignals
// ignores it). When destroyed, closes the server's input (MCP's stdio shutdown) and gives it
// Upstream::kDefaultGrace to exit, unless stopped, then ends its process group (upstream.h); used
// by the thread that started it.
class StdioTransport : public LineTransport {
 public:
  ~StdioTransport() override;
  static Result<std::unique_ptr<StdioTransport>> Start(const std::string& command,
                                                       const std::atomic<bool>* stop,
                                                       int log_fd = 2);
  Status Send(std::string_view line, std::chrono::steady_clock::time_point deadline) override;
  Received Receive(std::chrono::steady_clock::time_point deadline) override;

 private:
  StdioTransport(std::unique_ptr<Upstream> upstream, const std::atomic<bool>* stop)
      : upstream_(std::move(upstream)), stop_(stop) {}
  bool WaitFor(int fd, short events, std::chrono::steady_clock::time_point deadline) const;
  std::string HowItEnded();

  std::unique_ptr<Upstream> upstream_;
  const std::atomic<bool>* stop_;
  std::string pending_;  // bytes read after the last whole line
};

enum class ChangeKind : std::uint8_t {
  kToolAdded,          // tools/list: a tool the recording does not list
  kToolRemoved,        // breaking
  kToolChanged,        // breaking when its inputSchema changed; else description or annotations
  kResultChanged,      // the result is other data than the recorded one
  kResultBecameError,  // breaking
  kErrorBecameResult,
  kErrorChanged,
  kNoResponse,    // breaking: none within the timeout
  kServerExited,  // breaking: the server ended before it answered
};
std::string_view ChangeKindName(ChangeKind kind);  // "tool_removed", ...

struct Change {
  ChangeKind kind = ChangeKind::kResultChanged;
  bool breaking = false;
  std::string method;
  std::uint64_t seq = 0;  // of the recorded request
  std::string tool;       // tools/list's tool, or a tools/call's name; "" else
  // kToolChanged: which of inputSchema, description, annotations differ; kResultChanged: the JSON
  // Pointers in the result where the live one departs from the recorded one (the first few).
  std::vector<std::string> fields;
  std::string detail;  // one line: the live error, how the server ended
};

struct VerifyOptions {
  std::chrono::milliseconds timeout{30'000};  // for each response
  // JSON Pointers into results whose differences are no change (a timestamp): each covers its
  // value and everything below it, and a token "*" stands for any one token (/content/*/text).
  std::vector<std::string> ignore_paths;
};

struct VerifyReport {
  std::vector<Change> changes;  // in the order of the requests
  std::uint64_t requests_sent = 0;
  std::uint64_t notifications_sent = 0;
  std::uint64_t compared = 0;                  // live responses compared with a recorded one
  std::uint64_t not_sent = 0;                  // requests left when the session ended early
  std::uint64_t server_requests_answered = 0;  // from the recording
  std::uint64_t server_requests_refused = 0;   // -32601: the recording has no answer
  bool stopped = false;                        // the stop flag ended it
  bool breaking() const;
};

// Runs the session above against `server`. The live response to a request is compared with the
// recorded response a by-request replay would serve it (request_key.h; requests paired with
// responses by id, errata MRR-E28): the next of the responses recorded for requests with its key.
// A request without such a response is sent and not awaited. The session ends early when the
// server ends, and when initialize is not answered with a result (no session to go on with).
// An error: the recording cannot be read again (I/O), or holds no initialize request
// (kInvalidArgument).
Result<VerifyReport> Verify(const LoadedRecording& recording, const RandomAccessSource& lines,
                            LineTransport* server, const VerifyOptions& options,
                            const std::atomic<bool>* stop = nullptr);

// For people: the breaking changes, then the others, one line each, then a count.
std::vector<std::string> VerifyText(const VerifyReport& report);
// For programs: {"breaking": bool, "complete": bool, "changes": [{"kind", "breaking", "method",
// "seq", "tool" (null when none), "fields", "detail"}], "requests_sent", "compared", "not_sent",
// "server_requests": {"answered", "refused"}}.
std::string VerifyJson(const VerifyReport& report);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_VERIFY_H_
