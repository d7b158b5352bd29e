// Replay of a TJ-SPEC-010 recording (§2 F-003): a mock MCP server that answers a live client's
// requests with the recorded responses, as the three match modes, the timing strategies and the
// unmatched behaviours of F-003's tables say, read as conformance/mcp_record_replay/errata.md
// decides (MRR-E33 to MRR-E42). The Replayer decides what to answer to one client message; the
// transport (stdio, the protocol operation) is the caller's. Memory: a few dozen bytes per
// recorded message (offsets, the keys of by-request); responses are read again when served.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/keyed_hash.h"
#include "reference/core/status.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/loader.h"

namespace arcs::mcp_record_replay {

enum class MatchMode : std::uint8_t { kSequential, kByRequest, kFuzzy };
enum class OnUnmatched : std::uint8_t { kError, kWarn, kPassthrough };

// §2 F-003's timing table: instant adds no delay; realistic the recorded latency_ms; scaled:N the
// latency times N, a finite non-negative decimal number (errata MRR-E40).
struct Timing {
  enum class Kind : std::uint8_t { kInstant, kRealistic, kScaled };
  Kind kind = Kind::kInstant;
  double factor = 1.0;  // kScaled
};

// The command-line spellings of §5.2 ("by-request", "scaled:0.5"); kInvalidArgument naming the
// values allowed otherwise.
Result<MatchMode> ParseMatchMode(std::string_view text);
Result<Timing> ParseTiming(std::string_view text);
Result<OnUnmatched> ParseOnUnmatched(std::string_view text);

struct ReplayOptions {
  MatchMode match_mode = MatchMode::kSequential;  // §5.2's defaults
  Timing timing;
  OnUnmatched on_unmatched = OnUnmatched::kError;
};

// A message the mock server sends, after waiting delay_ms (the timing of a matched response).
struct Outgoing {
  std::string line;  // a JSON-RPC message, compact, no line end
  std::uint64_t delay_ms = 0;
  // `line` is the bytes of a server line the recorder could not record as a message (errata
  // MRR-E51), sent as the server sent them: not necessarily JSON, nor UTF-8.
  bool unrecorded = false;
  // A progress notification about a live request still waiting for its response: that request's
  // live id (as JSON), so that a transport with a stream per request (Streamable HTTP) puts it on
  // that request's stream; "" otherwise.
  std::string about{};
};

// What the mock server does with one client message.
struct Reply {
  std::vector<Outgoing> messages;  // to send, in order
  bool matched = false;            // the client's request matched a recorded one
  bool forward = false;            // passthrough: the client's message goes to the upstream, whose
                                   // response is the answer (EC-REC-009)
  bool end = false;  // --on-unmatched error: after `messages`, the replay ends, non-zero
  std::string log;   // a line for the log, "" for none
};

class Replayer {
 public:
  // Indexes `recording` (whose lines `lines` reads) for the options' match mode: pairs requests
  // with responses by id (either side's requests), files the requests by the mode's key and each
  // server-initiated message under the line it follows (MRR-E39); reads every message once.
  static Result<Replayer> Create(const LoadedRecording& recording, const RandomAccessSource& lines,
                                 const ReplayOptions& options);

  // What the server sends before the client says anything: the server-initiated messages recorded
  // before any other line (errata MRR-E39). Call once, first.
  Reply Start();

  // One line the client sent (without its line end).
  Reply Handle(std::string_view client_line);

  // Whether a matched response waits for the client's answer to a server request recorded before
  // it (MRR-E39); ReleaseHeld sends every such response without waiting any longer (when the
  // client has closed its input, or has not answered in time), with a log line naming the
  // requests left unanswered.
  //
  // A progress notification about a recorded client request (its progressToken the request's
  // params._meta.progressToken, recorded between that request and its response) is sent only
  // while the live request matched to it waits for its response, as MCP allows progress only for
  // an active request: one whose recorded place is passed before that request is matched waits
  // for the match, and those whose place is not passed when the response goes out go out just
  // before it. Their recorded place relative to the client's other lines is an accident of
  // timing (a client answering a server request while it sends the call); their place before the
  // response is not.
  bool Holding() const { return !held_.empty(); }
  Reply ReleaseHeld();

  // The first recorded client initialize request (compact), for passthrough to start an upstream
  // session when the client's own was never seen; "" when the recording has none.
  std::string RecordedInitialize() const;

 private:
  Replayer(const LoadedRecording& recording, const RandomAccessSource& lines,
           const ReplayOptions& options)
      : recording_(&recording), lines_(&lines), options_(options) {}
  Status Index();
  void IndexMatching(std::size_t i, const Classified& c);
  std::optional<std::size_t> Sequential(std::string_view method, const json::Value& live_id);
  std::optional<std::size_t> ByRequest(std::string_view method, const json::Value* params);
  std::optional<std::size_t> Fuzzy(std::string_view method, const json::Value* params);
  Reply Request(const Classified& live);
  Reply Notification(std::string_view method);
  Reply Answer(const json::Value& id);
  Reply Unmatched(std::string_view method, const json::Value& live_id);
  void Pass(std::size_t anchor, Reply* reply);
  void Emit(std::size_t j, Reply* reply);
  void Matched(std::size_t request, const json::Value& live_id, Reply* reply);
  void Serve(std::size_t request, const json::Value& live_id, Reply* reply);
  void Send(std::size_t response, const json::Value& live_id, Reply* reply);

  const LoadedRecording* recording_;
  const RandomAccessSource* lines_;
  ReplayOptions options_;
  static constexpr std::size_t kNone = SIZE_MAX;
  // Each request's response and each response's request, either side's (MRR-E28); kNone if none.
  std::vector<std::size_t> partner_;
  // sequential (errata MRR-E35, request-cursor-ids): the client's requests in file order, which of
  // them are served, and the first not served.
  std::vector<std::size_t> requests_;
  std::vector<bool> request_served_;
  std::size_t cursor_ = 0;
  // by-request (MRR-E29 to MRR-E34): each key's answered requests, in file order.
  struct Queue {
    std::vector<std::size_t> items;
    std::size_t head = 0;  // the next to serve
  };
  KeyedStringMap<Queue> queues_;
  // fuzzy (MRR-E36): each method's answered requests in file order, whether served, how many
  // leaves their params have, and which of them holds each leaf (by the leaf's digest). A live
  // request looks only at the candidates that share a leaf with it that not all of them hold: any
  // other is too little similar, most of the time, to reach the 1/2 a match needs (Fuzzy), so no
  // request scans its method's every recorded one for the tool's name they all share.
  struct Candidate {
    std::size_t request;
    std::uint32_t leaves = 0;
    bool served = false;
  };
  struct Method {
    std::vector<Candidate> candidates;
    KeyedStringMap<std::vector<std::uint32_t>> holders;  // leaf digest -> candidates, in order
    std::vector<std::uint32_t>
        shared;  // scratch: leaves shared with the live request, by candidate
    std::uint64_t fewest_leaves = UINT64_MAX;  // of a candidate
  };
  KeyedStringMap<Method> fuzzy_;
  // Server-initiated messages in their recorded place (MRR-E39 in-recorded-place): the client's
  // recorded notifications by method and answers by id, which the live ones pass in turn; the
  // server requests sent and not yet answered; the responses held until they are.
  KeyedStringMap<Queue> notifications_;
  PendingIds answers_;
  PendingIds awaited_;
  std::vector<bool> answered_;  // by message: a server request the client has answered
  // Progress about the client's requests: by message, the request a progress notification is
  // about (kNone for any other); which of them have been sent (once only); which requests have been
  // matched, and the live ids of those still waiting for their response; the progress whose place
  // was passed before its request was matched, by request.
  std::vector<std::size_t> progress_of_;
  std::vector<bool> sent_;
  std::vector<bool> matched_;
  std::vector<bool> with_progress_;  // by message: a client request some progress is about
  std::map<std::size_t, std::string> live_ids_;
  std::map<std::size_t, std::vector<std::size_t>> deferred_;
  struct Held {
    std::size_t request, response;
    std::string live_id;  // the live request's id, as JSON
  };
  std::vector<Held> held_;
};

// A whole replay without a transport: every line of `script` handled in order, as the protocol's
// replay operation plays it; at its end (the client's end of input) held responses go out.
// `answers` holds the messages sent, each with its line end; `ended` says the replay stopped on
// its own (--on-unmatched error) before the script's end.
struct ReplayTranscript {
  std::string answers;
  bool ended = false;
  std::vector<std::string> log;
};
// Where a script's passthrough sends a request: the upstream's response to it (one JSON-RPC
// message line whose id is the request's), or an error when the upstream cannot answer.
class Forwarder {
 public:
  virtual ~Forwarder() = default;
  virtual Result<std::string> Forward(std::string_view request_line) = 0;
};

// `forwarder` answers what passthrough forwards; without one, a forward ends the replay.
Result<ReplayTranscript> ReplayScript(const LoadedRecording& recording,
                                      const RandomAccessSource& lines, std::string_view script,
                                      const ReplayOptions& options, Forwarder* forwarder = nullptr);

// JSON-RPC's leaves of a request's params for the fuzzy matcher (errata MRR-E36): a pointer and an
// RFC 8785 scalar, or an empty object or array; top-level `_meta` left out, absent or null params
// read as {}. Sorted.
std::vector<std::string> ParamLeaves(const json::Value* params);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_H_
