// The judge of a replay answer (runner/PROTOCOL.md, operation `replay` of mcp-record-replay):
// what an implementation's mock server wrote to its client, held to a vector's expect_replay
// (vectors/README.md). The messages are compared as JSON data, in order: numbers by exact value,
// member order and string escapes free, a repeated name read as its last (errata MRR-E24). An
// expected `{"$unmatched": ID}` stands for any JSON-RPC error response to ID (errata MRR-E41: the
// code and message are not judged). Where the readings of a flag answer differently, the answer
// passes when it is what one of them expects, and the judge says which.
#ifndef ARCS_CONFORMANCE_MCP_RECORD_REPLAY_REPLAY_JUDGE_H_
#define ARCS_CONFORMANCE_MCP_RECORD_REPLAY_REPLAY_JUDGE_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"

namespace arcs::conformance::mcp_record_replay {

// How a replay ended: the client's script ran out ("script-end"), or the replayer stopped on its
// own with a non-zero status ("exit-non-zero").
inline constexpr std::string_view kScriptEnd = "script-end";
inline constexpr std::string_view kExitNonZero = "exit-non-zero";

struct ReplayJudgement {
  std::string problem;  // "" when the answer is what the expectation (or a reading) says
  std::vector<std::string> readings;  // the readings it agrees with, for a flagged expectation
};

// answers: the messages the server sent, one JSON text per line; end: how the replay ended.
// expect_replay: the vector's object (already checked by ReadReplayExpectation).
ReplayJudgement JudgeReplay(std::string_view answers, std::string_view end,
                            const json::Value& expect_replay);

// "" when `expect_replay` is well formed: {"answers": [...], "end": ...}, or {"flag": ...,
// "readings": {name: {"answers", "end"} | null, ...}, "arcs": name}; else what is wrong.
std::string CheckReplayExpectation(const json::Value& expect_replay);

}  // namespace arcs::conformance::mcp_record_replay

#endif  // ARCS_CONFORMANCE_MCP_RECORD_REPLAY_REPLAY_JUDGE_H_
