// A readable summary of a TJ-SPEC-010 recording (`arcs mcp show`), what peers' users read before
// replaying one: its header and footer, its messages by direction and kind, each method with its
// count and latency, the tools called and how many calls failed, the requests never answered, the
// JSON-RPC errors, and the lines the recorder could not record (`arcs/unrecorded` messages). Made
// from a loaded recording (loader.h), each message line read again once, in file order: memory
// grows with the number of messages (a latency and a few ids each), never with their size.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_SUMMARY_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_SUMMARY_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/status.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/loader.h"

namespace arcs::mcp_record_replay {

// Nearest-rank percentiles (the value at rank ceil(p/100 * count) of the sorted latencies), so
// that each is a latency the recording holds.
struct LatencySummary {
  std::uint64_t count = 0;
  std::uint64_t p50 = 0;
  std::uint64_t p95 = 0;
  std::uint64_t max = 0;
};

// The messages of one method sent in one direction (a server's sampling/createMessage is s2c).
struct MethodSummary {
  std::string method;
  Direction dir = Direction::kClientToServer;
  std::uint64_t requests = 0;
  std::uint64_t notifications = 0;
  std::uint64_t errors = 0;  // requests answered with a JSON-RPC error
  // Of the answers that carry latency_ms; none when no answer does.
  std::optional<LatencySummary> latency;
};

struct ToolSummary {
  std::string name;  // a tools/call request's params.name
  std::uint64_t calls = 0;
  std::uint64_t failed = 0;  // answered with a JSON-RPC error, or a result whose isError is true
};

struct UnansweredRequest {
  std::uint64_t seq = 0;
  Direction dir = Direction::kClientToServer;
  std::string method;
};

struct ErrorResponse {
  std::uint64_t seq = 0;
  Direction dir = Direction::kClientToServer;  // of the error response
  std::optional<std::string> method;           // of the request it answers, when one does
  std::string code;                            // error.code as JSON text; "null" when absent
  std::string message;                         // error.message, its first 1000 bytes; "" if none
};

// The footer's counts, when the footer line is read (see Summarize).
struct FooterSummary {
  std::uint64_t total_messages = 0;
  std::uint64_t duration_ms = 0;
  std::uint64_t client_messages = 0;
  std::uint64_t server_messages = 0;
};

struct RecordingSummary {
  RecordingHeader header;
  std::optional<std::string> redaction;  // the header's `redaction` member, as compact JSON
  bool has_footer = false;
  std::optional<FooterSummary> footer;
  // Messages by direction (Direction's value) and kind (MessageKind's value).
  std::array<std::array<std::uint64_t, 5>, 2> counts{};
  std::uint64_t total_messages = 0;
  std::vector<MethodSummary> methods;         // by direction (c2s first), then method
  std::vector<ToolSummary> tools;             // by name
  std::vector<UnansweredRequest> unanswered;  // in file order
  std::vector<ErrorResponse> errors;          // in file order
  // Messages of method arcs/unrecorded by params.reason ("" when it has none), by reason. They
  // stand for lines the recorder could not record, so they are counted here and in `counts`, and
  // are no method of the session.
  std::vector<std::pair<std::string, std::uint64_t>> unrecorded;
};

// Summarizes `recording`, whose lines `lines` reads again; `size` is the source's size in bytes.
// Requests are paired with their answers as the replayer pairs them (errata MRR-E28, PendingIds),
// each direction's requests with the other direction's responses. The header line is read again
// for its `redaction` member; the footer's counts are read from the first footer line after the
// last message (a footer before a message, which the loader accepts, is present without counts).
// An I/O error of the source (the file changed) is returned as it is.
Result<RecordingSummary> Summarize(const LoadedRecording& recording,
                                   const RandomAccessSource& lines, std::uint64_t size);

// For people: aligned sections, one line each; the unanswered requests and the errors listed up to
// `max_listed` each, with how many more there are. Lines are not yet Printable: the caller
// escapes them (they quote the recording).
std::vector<std::string> SummaryText(const RecordingSummary& summary, std::size_t max_listed = 20);

// For programs: one JSON object whose members are stable (listed in summary.cc), every list whole.
std::string SummaryJson(const RecordingSummary& summary);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_SUMMARY_H_
