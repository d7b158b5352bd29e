// The record proxy of TJ-SPEC-010 (F-001, `record --upstream CMD -o FILE`): a transparent proxy on
// the MCP stdio transport between a client and an upstream server it spawns, writing what passes
// as a recording (F-002) that CheckRecording finds valid.
//
// Transparent means byte for byte: what one side writes reaches the other unchanged, whether or
// not it is a message, and in the order it was written; the proxy never writes anything of its
// own. Each complete line (up to "\n") that is exactly one JSON object is also recorded, in the
// order the proxy saw it, its `msg` the line's own bytes (never re-encoded: 1.0 stays 1.0,
// "\u00e9" stays escaped) without the JSON whitespace around it (a "\r" before the "\n"
// included); a "\r" between tokens, which an NDJSON line may not hold, becomes a space.
//
// Nothing forwarded is lost from the recording (errata MRR-E51): a line that is not a message, or
// that the recording could not hold as the format's two statements read it, is recorded in its
// place as an ordinary message line (seq, ts, the dir of the side that sent it) whose msg is the
// notification
//   {"jsonrpc":"2.0","method":"arcs/unrecorded","params":{"reason":R,"bytes":N,"base64":B}}
// N the line's length without its "\n", B the RFC 4648 base64 of its bytes as received, and R:
//  - "not-json": not one JSON text; "not-an-object": JSON, not an object (an array, a batch, a
//    number); "not-utf8": ill-formed UTF-8, or a \u escape of a lone surrogate; "number-range": a
//    number beyond the doubles; "too-deep": nesting deeper than Limits::max_json_depth allows msg;
//  - "too-long": the line, or the message line recording it, longer than Limits::max_line_bytes
//    (a longer line is forwarded as it streams, never buffered whole: its first 64 KiB are kept);
//  - "unterminated": the rest of a stream at its end: the peer's reader never took it as a
//    message (stdio messages are "delimited by newlines"), so the recording does not either.
// When the recorded line would be over max_line_bytes with all of B (always for "too-long"), B
// holds the first 65,536 bytes (fewer when the limit leaves no room for them) and params gets
// "truncated":true. The footer counts these lines with the messages; each also gets a warning on
// log_fd. Blank lines are skipped silently: they carry no message.
//
// Redaction (RecorderOptions::redaction, redaction.h, errata MRR-E52): the recording and the log
// lines leave out what the rules match; the header states the rules in a member "redaction" (the
// names and patterns, never a value), and its name, tags and upstream are redacted too. The bytes
// of an arcs/unrecorded line are redacted as bytes before they are encoded.
//
// The recording: the header first (flushed at once), then one message line per recorded message,
// seq from 1 by 1 (the spec's example; errata MRR-E18 allows any start, MRR-E19 asks seq to
// increase), ts the wall clock when the line was complete (RFC 3339, UTC, milliseconds), and
// latency_ms on a response (result or error) that answers a request of the other side: the time
// on the monotonic clock from when the proxy had the request's whole line (and handed it on) to
// when it had the response's, requests paired by id as errata MRR-E28 pairs them (the earliest
// waiting request with an equal id, 1 and 1.0 being one id; a null id pairs with nothing). Server
// requests (sampling, roots/list) and the client's answers are paired the same way. Nothing else
// carries latency_ms (errata MRR-E22).
//
// The end, with a footer each time:
//  - the client's end of file (or the client no longer reading): once all it sent is handed on,
//    the upstream's stdin is closed, and the upstream has shutdown_grace to finish its output
//    (forwarded and recorded) and exit;
//  - the upstream's end (its exit, or end of file on its stdout): what it wrote is forwarded and
//    recorded, for up to shutdown_grace if the client is slow to take it;
//  - `stop`: at once.
// Then the upstream is ended (upstream.h: SIGTERM, then SIGKILL after shutdown_grace). A crash,
// even kill -9, leaves every written line whole: lines are flushed whole every flush_interval
// after the first unflushed one or every flush_messages messages, to a thread that writes and
// fsyncs them, so that forwarding never waits for the disk (NFR-001); the header and the footer
// are synced before the proxy goes on.
//
// Memory: the longest line (up to max_line_bytes) per direction, 1 MiB of bytes waiting to be
// written per direction, 1 MiB of recording between flushes and 1 MiB the writer has not written
// yet (past that the proxy waits for the disk), and an entry per unanswered request
// (up to 65,536 per side; later ones get no latency). When a side stops reading, the proxy stops
// reading what is meant for it (backpressure), and never blocks: every descriptor is non-blocking
// and a single poll() loop serves both directions and the clock.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_RECORDER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_RECORDER_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/session_recording.h"

namespace arcs::mcp_record_replay {

// The recording's options (session_recording.h; log_fd also gets the upstream's stderr lines,
// upstream.h), and the stdio proxy's own.
struct RecorderOptions : RecordingOptions {
  std::string upstream_command;  // run as /bin/sh -c; written to the header's `upstream`
  // The client's side. Made non-blocking for the session (their flags are restored at the end).
  int client_in = 0;
  int client_out = 1;
  // How long the end may take (see above): for the upstream to finish once its stdin is closed,
  // for the client to take the upstream's last output, and between SIGTERM and SIGKILL.
  std::chrono::milliseconds shutdown_grace{2000};
};

// Runs one session, returning when it ends. Returns the exit status for the command: 0 when the
// client ended the session (end of file, or it stopped reading) or `stop` was set; the upstream's
// own status when it ended first (its exit code, or 128 + the signal that killed it). A Status
// for what stops a recording: a usage error (kInvalidArgument: an empty command or path, a
// header field that is not UTF-8, a redaction rule Redactor::Create refuses), the output that
// cannot be created, the upstream that cannot be started, or a write to the recording that failed
// (kIoError; the proxy then goes on forwarding until the session ends, so the client is not cut
// off, and reports the failure at the end).
//
// `stop` (may be null) is polled at least every 100 ms; the verb sets it from its SIGINT, SIGTERM
// and SIGHUP handlers. SIGPIPE is set to be ignored (process-wide, once, when it had its default
// action): a peer that went away must come back as EPIPE. The upstream dies with the calling
// thread (upstream.h), which is the thread this runs on.
Result<int> RunRecorder(const RecorderOptions& options, const std::atomic<bool>* stop);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_RECORDER_H_
