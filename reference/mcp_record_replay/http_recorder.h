// The record proxy of TJ-SPEC-010 on the MCP Streamable HTTP transport (F-001 "Supports HTTP
// upstream", F-003, §5 `record --upstream-http URL --http ADDR`; errata MRR-E53): an HTTP server
// on ADDR that forwards every request to the upstream's endpoint and writes the JSON-RPC messages
// that pass as a recording, exactly as the stdio proxy (recorder.h) records its lines.
//
// Forwarding. Every path the proxy serves is the one endpoint: a POST, GET or DELETE on any path
// goes to the upstream URL's path (and query), with the client's Accept, Content-Type,
// Mcp-Session-Id, MCP-Protocol-Version, Authorization and Last-Event-ID headers and its body. The
// upstream's status comes back with its Content-Type, Mcp-Session-Id, WWW-Authenticate and Allow
// headers and its body; a text/event-stream body is relayed as its bytes arrive (chunked, its
// Content-Type exactly "text/event-stream"), never held whole, so a server request or a progress
// notification reaches the client while the call goes on. The connections to the upstream are
// kept open between requests (for a second at most when idle). An upstream that cannot be
// reached gets the client a 502 (with a warning on the log). The Streamable HTTP transport (MCP
// 2025-03-26 and later) is served, and the legacy HTTP+SSE transport of 2024-11-05: a GET stream's
// `endpoint` event (where the client is to POST) is relayed, not recorded, and a request for that
// path is forwarded to it upstream.
//
// Recording. Each JSON-RPC message is recorded as the stdio proxy records a line (c2s or s2c, seq,
// ts, latency_ms on a response paired by id, arcs/unrecorded for what is not one JSON object the
// recording can hold, redaction): every POST body the client sends (c2s, when the proxy has it
// whole, before it is forwarded), every body of the upstream's whose Content-Type is
// application/json (s2c, when the proxy has it whole) and the data of every event of an event
// stream (s2c, as each event completes). Bodies of other types (a plain-text error page) and
// empty ones (a 202) carry no message: they are forwarded, not recorded. Nor is an event the
// upstream sends again: one whose own id and data came before in the same MCP session, as when a
// client resumes a stream with Last-Event-ID (MCP makes event ids unique across a session's
// streams; without an Mcp-Session-Id every event is recorded); the log counts them, and notes
// each request that resumes. The last 65,536 ids are remembered. Requests are served
// concurrently, each on a thread of its own; the recording holds the messages in the order the
// proxy saw them whole (EC-REC-003/004). An event stream whose event grows past max_line_bytes
// cannot be read as events any more: the rest of it is recorded as one arcs/unrecorded
// ("too-long", its first 64 KiB) when it ends.
//
// The end: `stop` (SIGINT, SIGTERM or SIGHUP in the verb) stops the server, cuts the streams still
// open (the upstream's and the clients'), and writes the footer.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_RECORDER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_RECORDER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/session_recording.h"

namespace arcs::mcp_record_replay {

struct HttpRecorderOptions : RecordingOptions {
  std::string upstream_url;  // http:// or https:// (http_transport.h); the header's `upstream`
  std::string listen;        // the address to serve, as ParseListenAddress reads it
  // How long an upstream stream may stay silent before the proxy gives it up: an event stream may
  // carry nothing for minutes while a tool runs.
  std::chrono::seconds upstream_read_timeout{3600};
  // Called once, when the proxy listens, with the URL its clients use (the port the system chose
  // for port 0, the upstream URL's path); the log gets the same as a note.
  std::function<void(const std::string& url)> on_listening;
};

// Serves until `stop` is set (polled every 100 ms), then returns 0, or the Status of what stopped
// the recording: kInvalidArgument for options that cannot be used (no URL or address, an address
// or URL ParseListenAddress or ParseHttpUrl refuses, a header text that is not UTF-8, a redaction
// rule), kIoError for the output that cannot be created, an address that cannot be listened on,
// or a write to the recording that failed (the proxy then goes on forwarding until `stop`).
Result<int> RunHttpRecorder(const HttpRecorderOptions& options, const std::atomic<bool>* stop);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_RECORDER_H_
