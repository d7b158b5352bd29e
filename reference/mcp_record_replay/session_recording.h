// The recording side of `arcs mcp record`, whatever transport carries the messages: a
// RecordingSession turns each message the proxy saw into a recording line (TJ-SPEC-010 F-002) —
// seq, ts, dir, the message's own bytes (or arcs/unrecorded, errata MRR-E51), latency_ms paired
// by id, redaction (MRR-E52) — between the header and the footer, and hands the lines to a writer
// thread so that forwarding never waits for the disk (NFR-001). recorder.h (stdio) and
// http_recorder.h (Streamable HTTP) describe the rules in full; both feed one of these.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_SESSION_RECORDING_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_SESSION_RECORDING_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/recording.h"
#include "reference/mcp_record_replay/redaction.h"

namespace arcs::mcp_record_replay {

// What every recording proxy is told about its recording, whatever it records from.
struct RecordingOptions {
  std::string output_path;  // created or truncated
  std::optional<std::string> name;
  std::vector<std::string> tags;
  std::chrono::milliseconds flush_interval{1000};  // NFR-001: "every 1s or 100 messages"
  std::size_t flush_messages = 100;
  std::string thoughtjack_version;  // the header's thoughtjack_version: "arcs 0.2.0"
  // Warnings (messages not recorded, the upstream's end) are written here, one line each, made
  // Printable.
  int log_fd = 2;
  Limits limits;  // max_line_bytes, max_json_depth: what the recording may hold (CheckRecording's)
  // What the recording leaves out (redaction.h); the forwarded bytes are never changed.
  RedactionRules redaction;
};

// Why bytes are recorded as arcs/unrecorded: `reason` is its params.reason (errata MRR-E51),
// `why` says it on the log.
struct Refusal {
  std::string_view reason;  // empty when the bytes are recorded as their message
  std::string why;
};

// Of bytes that cannot be recorded whole in arcs/unrecorded, the most recorded (errata MRR-E51):
// a proxy needs to keep no more of them.
inline constexpr std::size_t kUnrecordedKeptBytes = 64 << 10;

// One recording, from header to footer. Every method may be called from any thread: a mutex
// serializes them, so the recording holds the messages in the order their calls took it (the
// order the proxy saw them), seq and ts increasing together.
class RecordingSession {
 public:
  using Clock = std::chrono::steady_clock;

  // Checks the options (kInvalidArgument: an empty path, a header text that is not UTF-8, a
  // redaction rule Redactor::Create refuses), creates the file (kIoError) and writes the header,
  // synced: a session that dies at its first byte leaves a valid file. `upstream` is the header's
  // upstream (the command, or the URL), redacted like the other header texts; `unit` is what the
  // log calls the bytes of one message ("line" on stdio).
  static Result<std::unique_ptr<RecordingSession>> Start(const RecordingOptions& options,
                                                         std::string_view upstream,
                                                         std::string_view unit);
  ~RecordingSession();
  RecordingSession(const RecordingSession&) = delete;
  RecordingSession& operator=(const RecordingSession&) = delete;

  // Records one complete message as its sender wrote it (a line without its "\n", a POST body, an
  // SSE event's data), `client` for c2s, seen at `now`: as its msg when it is one JSON object the
  // recording can hold, else as arcs/unrecorded. Blank text holds no message: nothing is recorded.
  void Message(bool client, std::string_view text, Clock::time_point now);

  // Records what is no message as arcs/unrecorded: `bytes` of its `size` bytes (the first bytes of
  // a longer one, which are all that is kept), with a warning on the log.
  void Unrecorded(bool client, std::string_view bytes, std::uint64_t size, Refusal refusal,
                  Clock::time_point now);

  // The buffered lines reach the writer flush_interval after the first of them at the latest: a
  // proxy calls FlushIfDue by then (next_due) when no message comes.
  void FlushIfDue(Clock::time_point now);
  Clock::time_point next_due() const;

  // Writes the footer and waits until the whole recording is written and synced. The status of
  // the recording: a write that failed (kIoError) stopped it there.
  Status Finish();

  // A line on the log: a warning (a flood of them is cut short), or a note that always shows.
  void Warn(const std::string& message);
  void Note(const std::string& message);

 private:
  class Impl;
  explicit RecordingSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// `text` without the JSON whitespace (space, tab, CR, LF) at either end.
std::string_view TrimJsonSpace(std::string_view text);

// "2026-11-26T10:00:00.123Z" for a point on the wall clock (RFC 3339, UTC, milliseconds).
std::string FormatTimestamp(std::chrono::system_clock::time_point when);

// strerror's text, with the errno name: "No space left on device (ENOSPC)".
std::string ErrnoText(int error);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_SESSION_RECORDING_H_
