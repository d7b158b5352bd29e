// Redaction at record time (errata MRR-E52): secrets the user names are kept out of a recording,
// as mcp-recorder's and agent-vcr's users expect of a recorder, instead of the jq recipe of §1.4
// after the fact. Only what is written to the recording (and the recorder's own log lines) is
// redacted; the bytes the proxy forwards are never changed.
//
// Two kinds of rule: the value of an environment variable (`--redact-env NAME`), replaced by
// "[REDACTED:NAME]", and an RE2 pattern (`--redact REGEX`), each match replaced by "[REDACTED]".
// RE2 matches in time linear in the text and never recurses, so no pattern can stall the proxy.
// In a message they apply to the decoded content of its string values (so "\u0073ecret" is found
// as "secret"), except the values of the top-level members jsonrpc, id and method, which replay
// pairs and matches by; member names are never changed either. A message with a changed string is
// written again as compact JSON; any other keeps its bytes.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_REDACTION_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_REDACTION_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace re2 {
class RE2;
}

namespace arcs::mcp_record_replay {

struct RedactionRules {
  std::vector<std::pair<std::string, std::string>> env;  // NAME and its value, which is not empty
  std::vector<std::string> patterns;                     // RE2 syntax, UTF-8
};

struct RedactedMessage {
  std::optional<std::string> msg;  // the message written again, when a string value changed
  // A member name, or the value of jsonrpc, id or method, holds what a rule matches: left as it is.
  bool secret_left = false;
};

class Redactor {
 public:
  // kInvalidArgument: an empty value, a pattern RE2 refuses (its complaint quoted), or one that
  // matches the empty string (it would insert "[REDACTED]" between every two characters).
  static Result<Redactor> Create(const RedactionRules& rules);
  Redactor(Redactor&&) noexcept;
  Redactor& operator=(Redactor&&) noexcept;
  ~Redactor();

  bool empty() const { return rules_.env.empty() && rules_.patterns.empty(); }

  // `text` with each value replaced, then each pattern's matches; nullopt when nothing matched.
  // Longer values first, so that a value holding another is replaced whole.
  std::optional<std::string> Redact(std::string_view text) const;

  // The message `msg` (an object) with its string values redacted, as described above.
  RedactedMessage RedactMessage(const json::Value& msg) const;

  // {"env":[NAME,...],"patterns":[REGEX,...]}: what the header states, never a value.
  std::string Statement() const;

 private:
  Redactor() = default;
  bool Holds(std::string_view text) const;
  // Writes `value` with its strings redacted; whether one changed.
  bool WriteRedacted(const json::Value& value, std::string* out, bool* secret_left) const;

  RedactionRules rules_;                                        // as given, for Statement()
  std::vector<std::pair<std::string, std::string>> by_length_;  // marker, value; longest first
  std::vector<std::unique_ptr<re2::RE2>> patterns_;
};

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_REDACTION_H_
