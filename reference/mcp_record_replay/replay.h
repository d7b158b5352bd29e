// Replay of a TJ-SPEC-010 recording (§2 F-003): a mock MCP server that answers a live client's
// requests with the recorded responses, as the three match modes, the timing strategies and the
// unmatched behaviours of F-003's tables say, read as conformance/mcp_record_replay/errata.md
// decides (MRR-E33 to MRR-E42). The Replayer decides what to answer to one client message; the
// transport (stdio, the protocol operation) is the caller's. Memory: a few dozen bytes per
// recorded message (offsets, the keys of by-request); responses are read again when served.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/keyed_hash.h"
#include "reference/core/status.h"
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

// What the mock server does with one client message.
struct Reply {
  std::optional<std::string> message;  // a JSON-RPC message to send, compact, no line end
  std::uint64_t delay_ms = 0;          // to wait before sending it
  bool matched = false;                // `message` is a recorded response
  bool forward = false;  // passthrough: the client's message goes to the upstream, whose
                         // response is the answer (EC-REC-009)
  bool end = false;      // --on-unmatched error: after `message`, the replay ends, non-zero
  std::string log;       // a line for the log, "" for none
};

class Replayer {
 public:
  // Indexes `recording` (whose lines `lines` reads) for the options' match mode: pairs requests
  // with responses by id, and keys the requests by-request; reads every recorded request once.
  static Result<Replayer> Create(const LoadedRecording& recording, const RandomAccessSource& lines,
                                 const ReplayOptions& options);

  // One line the client sent (without its line end).
  Reply Handle(std::string_view client_line);

 private:
  Replayer(const LoadedRecording& recording, const RandomAccessSource& lines,
           const ReplayOptions& options)
      : recording_(&recording), lines_(&lines), options_(options) {}
  Status Index();
  std::optional<std::size_t> Sequential();
  std::optional<std::size_t> ByRequest(std::string_view method, const json::Value* params);
  std::optional<std::size_t> Fuzzy(std::string_view method, const json::Value* params);
  Reply Serve(std::size_t response, const json::Value& live_id);
  Reply Unmatched(std::string_view method, const json::Value& live_id);

  const LoadedRecording* recording_;
  const RandomAccessSource* lines_;
  ReplayOptions options_;
  static constexpr std::size_t kNone = SIZE_MAX;
  // sequential (errata MRR-E35, response-cursor): the s2c responses in file order.
  std::vector<std::size_t> responses_;
  std::size_t cursor_ = 0;
  // by-request (MRR-E29 to MRR-E34): each key's responses, in the file order of their requests.
  struct Queue {
    std::vector<std::size_t> responses;
    std::size_t head = 0;  // the next to serve
  };
  KeyedStringMap<Queue> queues_;
  // fuzzy (MRR-E36): each method's answered requests in file order (their responses), whether
  // served, how many leaves their params have, and which of them holds each leaf (by the leaf's
  // digest). A live request looks only at the candidates that share a leaf with it: any other is 0
  // similar, never the 1/2 a match needs, so no request scans its method's every recorded one.
  struct Candidate {
    std::size_t response;
    std::uint32_t leaves = 0;
    bool served = false;
  };
  struct Method {
    std::vector<Candidate> candidates;
    KeyedStringMap<std::vector<std::uint32_t>> holders;  // leaf digest -> candidates, in order
    std::vector<std::uint32_t>
        shared;  // scratch: leaves shared with the live request, by candidate
  };
  KeyedStringMap<Method> fuzzy_;
};

// A whole replay without a transport: every line of `script` handled in order, as the protocol's
// replay operation plays it. `answers` holds the messages sent, each with its line end;
// `ended` says the replay stopped on its own (--on-unmatched error) before the script's end.
struct ReplayTranscript {
  std::string answers;
  bool ended = false;
  std::vector<std::string> log;
};
// `forwarder` answers what passthrough forwards; without one, a forward ends the replay.
class Forwarder;
Result<ReplayTranscript> ReplayScript(const LoadedRecording& recording,
                                      const RandomAccessSource& lines, std::string_view script,
                                      const ReplayOptions& options, Forwarder* forwarder = nullptr);

// JSON-RPC's leaves of a request's params for the fuzzy matcher (errata MRR-E36): a pointer and an
// RFC 8785 scalar, or an empty object or array; top-level `_meta` left out, absent or null params
// read as {}. Sorted.
std::vector<std::string> ParamLeaves(const json::Value* params);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REPLAY_H_
