// The ARCS runner protocol (runner/PROTOCOL.md): the messages the runner and an implementation
// under test exchange, one JSON object per line, and their strict encoding and decoding.
// Both sides use this file: the runner (`arcs run`) and the reference's own server (`arcs serve`).
// Decoding never trusts the other side: every malformed message is a Status naming what is wrong.
#ifndef ARCS_PROTOCOL_PROTOCOL_H_
#define ARCS_PROTOCOL_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/status.h"

namespace arcs::protocol {

// The protocol version this build speaks. A change that an existing adapter could misread
// increments it; new operations, formats and optional members do not (they are data).
inline constexpr int kVersion = 2;

// The longest message line either side accepts, without its newline. A case carries its inputs
// in base64, and the runner's resource probes send files of tens of megabytes; a longer line is a
// protocol error, and is never held in memory.
inline constexpr std::size_t kMaxLineBytes = std::size_t{256} << 20;

// Bounds on what the other side can make the runner hold, whatever the line's length. A message
// with more JSON values than kMaxMessageValues is malformed. Of an answer, the runner keeps the
// first kMaxFindings findings (all are checked), and cuts a finding's rule id to kMaxRuleBytes,
// its pointer and message and the answer's reason or message to kMaxTextBytes; Answer::cut says
// what was cut, and the report shows it.
inline constexpr std::uint64_t kMaxMessageValues = std::uint64_t{1} << 20;
inline constexpr std::size_t kMaxFindings = 1000;
inline constexpr std::size_t kMaxRuleBytes = 256;
inline constexpr std::size_t kMaxTextBytes = 4096;

// runner -> implementation, first line: {"type":"hello","protocol":2,"formats":["spool"]}
struct RunnerHello {
  int protocol = kVersion;
  std::vector<std::string> formats;  // the formats this run will send cases for
};

struct ImplementationInfo {
  std::string name;      // required, non-empty
  std::string version;   // required (may be "unknown")
  std::string language;  // required (e.g. "Python", "C++")
  std::string homepage;  // optional URL
};

struct FormatSupport {
  std::vector<std::string> operations;          // e.g. {"validate", "roundtrip"}
  std::map<std::string, std::string> policies;  // e.g. {"invalid_line": "skip"}
};

// implementation -> runner, the answer to the hello:
// {"type":"hello","protocol":2,"implementation":{...},"formats":{"spool":{...}}}
struct ImplementationHello {
  int protocol = kVersion;
  ImplementationInfo implementation;
  std::map<std::string, FormatSupport> formats;
};

// Whether `hello` declares `operation` of `format`. The runner sends an implementation no case it
// does not declare (`arcs run` and `arcs fuzz` alike).
bool Declares(const ImplementationHello& hello, std::string_view format,
              std::string_view operation);

// runner -> implementation: one case.
// {"type":"case","id":"...","format":"spool","operation":"validate",
//  "inputs":{"file":"<base64>"},"args":{"limits":{"max_line_bytes":4096}}}
using Inputs = std::map<std::string, std::string>;  // input name -> raw bytes

struct CaseRequest {
  std::string id;  // opaque to the implementation; echoed in the answer
  std::string format;
  std::string operation;
  // Base64 on the wire; null: none. Shared, never copied: the requests of a case's operations
  // and the suite that made them hold the same bytes.
  std::shared_ptr<const Inputs> inputs;
  // The case's args object as compact JSON text, "" when there is none. The protocol carries it
  // without looking inside: what it holds is the format's business (limits, options).
  std::string args;
};

enum class AnswerStatus : std::uint8_t { kOk, kSkipped, kErrored };
std::string_view AnswerStatusName(AnswerStatus status);  // "ok", "skipped", "errored"

enum class Verdict : std::uint8_t { kValid, kInvalid };
std::string_view VerdictName(Verdict verdict);  // "valid", "invalid"

// A finding as an implementation reports it. Only `rule` is required.
struct ReportedFinding {
  std::string rule;
  std::string severity;    // "error" | "warning" | "note" | "" (not given)
  std::uint64_t line = 0;  // 0: not given
  std::string pointer;     // "" : not given
  std::string message;
  // The reference's own answers only (never read from or sent on the wire): the errata entry
  // whose reading alone makes the finding one (Finding::reading).
  std::string reading = {};
};

// implementation -> runner: the answer to one case.
//  ok:      {"type":"result","id":"...","status":"ok","verdict":"valid"|"invalid",
//            "findings":[...], "outputs":{"file":"<base64>"}}
//  skipped: {"type":"result","id":"...","status":"skipped","reason":"..."}
//  errored: {"type":"result","id":"...","status":"errored","message":"..."}
struct Answer {
  std::string id;
  AnswerStatus status = AnswerStatus::kOk;
  Verdict verdict = Verdict::kValid;           // meaningful when status is kOk
  std::vector<ReportedFinding> findings;       // optional
  bool findings_given = false;                 // whether "findings" was present
  std::map<std::string, std::string> outputs;  // output name -> raw bytes (base64 on the wire)
  std::string reason;                          // skipped: why; errored: the message
  std::vector<std::string> cut;                // what decoding cut or dropped (see kMaxFindings)
};

// runner -> implementation, last line: {"type":"shutdown"}. The implementation exits (status 0)
// without answering.

std::string EncodeRunnerHello(const RunnerHello& hello);
std::string EncodeImplementationHello(const ImplementationHello& hello);
std::string EncodeCase(const CaseRequest& request);

// A case request's line, EncodeCase's bytes and its "\n", made a piece at a time: a request that
// carries megabytes of inputs is written to a pipe without ever being held whole. The request
// must outlive it.
class CaseLine {
 public:
  explicit CaseLine(const CaseRequest& request);
  std::size_t size() const { return size_; }  // every piece's bytes together
  // The next piece (at most kPieceBytes of an input's base64), "" once all are given.
  std::string_view Next();

  static constexpr std::size_t kPieceBytes = 64 * 1024;

 private:
  // The line is text of its own and inputs' bytes, in turn: text_[0], bytes_[0], text_[1], ...
  std::shared_ptr<const Inputs> inputs_;  // what bytes_ views
  std::vector<std::string> text_;
  std::vector<std::string_view> bytes_;
  std::size_t size_ = 0;
  std::size_t part_ = 0;    // text_[part_ / 2] when even, bytes_[part_ / 2] when odd
  std::size_t offset_ = 0;  // into bytes_[part_ / 2]
  std::string piece_;       // the base64 of the last piece given
};
std::string EncodeAnswer(const Answer& answer);
std::string EncodeShutdown();
// Every Encode* returns one line of compact JSON without the trailing "\n", with room for it:
// appending the "\n" never copies a case's megabytes.

// The type of a message line ("hello", "case", "result", "shutdown"), or a parse error.
Result<std::string> MessageType(std::string_view line);
Result<RunnerHello> DecodeRunnerHello(std::string_view line);
Result<ImplementationHello> DecodeImplementationHello(std::string_view line);
Result<CaseRequest> DecodeCase(std::string_view line);
Result<Answer> DecodeAnswer(std::string_view line);
// The same for a line the decoder may keep: parsed in place, so that an answer carrying
// megabytes of outputs is held once as text while its bytes are decoded, not twice.
Result<Answer> DecodeAnswerTaking(std::string line);

}  // namespace arcs::protocol

#endif  // ARCS_PROTOCOL_PROTOCOL_H_
