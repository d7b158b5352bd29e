// What the MCP Streamable HTTP transport (MCP 2025-06-18 and later, "Transports") needs on both
// sides of `arcs mcp record --upstream-http` and `arcs mcp replay --http`, whatever HTTP library
// carries the bytes: the text/event-stream format (WHATWG HTML, "Server-sent events": one event is
// `field: value` lines ended by a blank line, each `data` line one line of the payload), a reader
// of it that takes bytes as they arrive, and the addresses the command lines name.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_TRANSPORT_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_TRANSPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/status.h"

namespace arcs::mcp_record_replay::http {

inline constexpr char kSessionHeader[] = "Mcp-Session-Id";
inline constexpr char kProtocolVersionHeader[] = "MCP-Protocol-Version";
inline constexpr char kEventStream[] = "text/event-stream";
inline constexpr char kJson[] = "application/json";
// The most of one HTTP body held whole (a POSTed message, an application/json answer): a body is
// one JSON-RPC message, and the stdio side caps a line the same (passthrough_session.h).
inline constexpr std::size_t kMaxBodyBytes = std::size_t{64} << 20;

struct SseEvent {
  std::string event;    // "" when the stream named none (a "message" event)
  std::string data;     // the data lines joined by "\n"
  std::string id;       // the last event id the stream set, "" for none
  bool own_id = false;  // whether the event's own lines set it (else it is an earlier event's)
};

// One event as a stream writes it: `event:` when `event` is not empty, `id:` when `id` is not
// empty, a `data:` line per line of `data` (split at "\n"; a JSON-RPC message written compact has
// one), and the blank line that ends it.
std::string SseFrame(std::string_view data, std::string_view event = "", std::string_view id = "");

// Reads an event stream as its bytes arrive, in pieces of any size: events come out whole, once
// their blank line has come. Lines end in "\r\n", "\n" or "\r"; a line starting with ':' is a
// comment; an unknown field is ignored; a BOM at the start is skipped. An event whose lines grow
// past max_event_bytes is an error (kLimitExceeded), and so is every Feed after it.
class SseReader {
 public:
  explicit SseReader(std::size_t max_event_bytes = kMaxBodyBytes)
      : max_event_bytes_(max_event_bytes) {}
  Status Feed(std::string_view bytes, std::vector<SseEvent>* events);

 private:
  Status Take(std::string_view bytes, std::vector<SseEvent>* events);
  void Line(std::string_view line, std::vector<SseEvent>* events);

  std::size_t max_event_bytes_;
  std::string head_;  // the first bytes, until they are known not to be a BOM
  std::string line_;  // the unfinished line
  SseEvent pending_;  // the event its lines have built so far
  bool has_data_ = false;
  bool started_ = false;         // past a possible BOM
  bool after_cr_ = false;        // the last byte was a "\r" ending a line
  std::string last_id_;          // the stream's last event id
  std::size_t event_bytes_ = 0;  // bytes of the lines of the pending event
  bool failed_ = false;
};

// An address to listen on (`--http ADDR`): "PORT", ":PORT", "HOST:PORT" or "[IPv6]:PORT"; the
// host is 127.0.0.1 when none is given (a mock server and a recording proxy serve the local
// machine unless told otherwise). Port 0 asks the system for a free one.
struct ListenAddress {
  std::string host;
  std::uint16_t port = 0;
};
Result<ListenAddress> ParseListenAddress(std::string_view text);

// An upstream URL (`--upstream-http URL`): http:// or https://, a host, an optional port (80 or
// 443 by default) and a path ("/" when none is given), which keeps its query.
struct HttpUrl {
  bool tls = false;
  std::string host;
  std::uint16_t port = 0;
  std::string path;
};
Result<HttpUrl> ParseHttpUrl(std::string_view text);

// A host as a URL writes it: an IPv6 address in brackets.
std::string UrlHost(std::string_view host);
// "http://HOST:PORT" or "https://HOST:PORT", the origin an HTTP client connects to.
std::string Origin(const HttpUrl& url);

}  // namespace arcs::mcp_record_replay::http

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_TRANSPORT_H_
