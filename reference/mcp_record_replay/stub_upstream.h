// A stub MCP server for passthrough cases (EC-REC-009): it answers each request from a table, so
// that a vector can say what a replayer's upstream answers without naming a real server. The
// table is JSON lines, `{"method": M, "result": R}` or `{"method": M, "error": E}`; the answers of
// a method are given in turn, each once, with the request's id; a request the table has no
// answer left for gets the error -32601 "stub: no answer". Notifications and anything that is not
// a request get nothing, and the stub sends nothing of its own. `arcs mcp stub TABLE` serves it on
// stdio; the replay operation's reference uses it in process (StubForwarder).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_STUB_UPSTREAM_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_STUB_UPSTREAM_H_

#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "reference/core/keyed_hash.h"
#include "reference/core/status.h"
#include "reference/mcp_record_replay/replay.h"

namespace arcs::mcp_record_replay {

class StubUpstream {
 public:
  // kParseError naming the line for a table that is not as above.
  static Result<StubUpstream> Parse(std::string_view table);

  // The answer to one line a client sent (compact JSON, no line end), or none.
  std::optional<std::string> Answer(std::string_view line);

 private:
  // By method: the answers in turn, each `"result":R` or `"error":E` as compact JSON.
  KeyedStringMap<std::deque<std::string>> answers_;
};

// Passthrough to a StubUpstream in process.
class StubForwarder : public Forwarder {
 public:
  explicit StubForwarder(StubUpstream stub) : stub_(std::move(stub)) {}
  Result<std::string> Forward(std::string_view request_line) override;

 private:
  StubUpstream stub_;
};

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_STUB_UPSTREAM_H_
