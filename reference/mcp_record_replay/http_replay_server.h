// The replay mock server on MCP's Streamable HTTP transport (§2 F-003 "Supports stdio and HTTP
// transports"; `arcs mcp replay --http ADDR`): every path of ADDR is the MCP endpoint. A POSTed
// request is answered with an event stream (text/event-stream) carrying what the Replayer sends
// while handling it (the server's recorded messages that follow it: errata MRR-E39) and then its
// response, which may come later when it waits for the client's answer to a server request; a
// POSTed notification or answer gets 202 Accepted, and what the replay sends then (a roots request
// recorded after notifications/initialized, a response it released) goes to the stream of the
// request it answers or, if none, to the GET stream, held until the client opens one; progress
// about a request still waiting for its response goes to that request's stream. The
// initialize response carries an Mcp-Session-Id. Under passthrough the upstream (a stdio server:
// passthrough_session.h) answers what the recording does not: its response goes to the stream of
// the request it answers, its notifications and requests to the GET stream.
//
// Requests are served concurrently (EC-REC-003/004); the Replayer is used under one lock. The
// stop flag (the verb's SIGINT, SIGTERM and SIGHUP handlers) ends the server within kSlice, and so
// does --on-unmatched error once its error response has been written.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_REPLAY_SERVER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_REPLAY_SERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>

#include "reference/mcp_record_replay/http_transport.h"
#include "reference/mcp_record_replay/replay.h"
#include "reference/mcp_record_replay/replay_server.h"
#include "reference/mcp_record_replay/upstream.h"

namespace arcs::mcp_record_replay {

// Serves until `stop` becomes true (kStopped) or --on-unmatched error ends the replay
// (kUnmatched); kFailed when the address cannot be listened on. `upstream` (null without
// passthrough) is a started server whose pipes are ours while this runs. `listening` is called once
// with the port listened on (the system's choice for port 0), before the first request is taken.
Served ServeReplayHttp(Replayer* replayer, const http::ListenAddress& address, Upstream* upstream,
                       const std::function<void(std::string_view)>& log,
                       const std::atomic<bool>* stop, const ServeOptions& options,
                       const std::function<void(std::uint16_t)>& listening);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_HTTP_REPLAY_SERVER_H_
