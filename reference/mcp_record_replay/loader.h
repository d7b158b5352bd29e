// Loading a TJ-SPEC-010 recording for replay and convert: what "Validates recording on load (fails
// fast on corrupt file)" refuses and what it loads (errata MRR-E11, the ARCS reading parse-only).
// A loaded recording is an index of its message lines (file offsets, direction, kind, latency),
// never their content: a line is read again when it is served, so memory grows with the number of
// messages by a few dozen bytes each, whatever their size (EC-REC-007).
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_LOADER_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_LOADER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/status.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/recording.h"

namespace arcs::mcp_record_replay {

// Bytes read again by offset: a file (pread) or bytes in memory.
class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;
  virtual Result<std::string> ReadAt(std::uint64_t offset, std::uint64_t length) const = 0;
};

class MemoryRandomAccess : public RandomAccessSource {
 public:
  explicit MemoryRandomAccess(std::string_view bytes) : bytes_(bytes) {}
  Result<std::string> ReadAt(std::uint64_t offset, std::uint64_t length) const override;

 private:
  std::string_view bytes_;
};

class FileRandomAccess : public RandomAccessSource {
 public:
  explicit FileRandomAccess(int fd) : fd_(fd) {}
  Result<std::string> ReadAt(std::uint64_t offset, std::uint64_t length) const override;

 private:
  int fd_;
};

// The loader's choices the texts leave to it (errata MRR-E6, MRR-E8): the policies `bom` and
// `blank_lines`; the reference declares ignore for both.
struct LoadOptions {
  Limits limits;
  bool ignore_bom = true;
  bool ignore_blank_lines = true;
};

enum class Direction : std::uint8_t { kClientToServer, kServerToClient };

// A message line, indexed.
struct RecordedMessage {
  std::uint64_t seq = 0;
  Direction dir = Direction::kClientToServer;
  MessageKind kind = MessageKind::kOther;  // of its msg (errata MRR-E26)
  std::optional<std::uint64_t> latency_ms;
  std::uint64_t offset = 0;  // of the line's first byte in the source
  std::uint64_t length = 0;  // without its line ending
};

struct RecordingHeader {
  std::string version;
  std::optional<std::string> name;
  std::vector<std::string> tags;
  std::string recorded_at;
  std::string upstream;
  std::string thoughtjack_version;
};

struct LoadedRecording {
  RecordingHeader header;
  std::vector<RecordedMessage> messages;  // in file order
  bool has_footer = false;
  // What the load passed over and says so (EC-REC-002's warning, EC-REC-011's info message, a
  // second header): one line each, for the log.
  std::vector<std::string> notes;
};

// Loads a recording read from `source` (the same bytes `lines` reads again by offset). Refused
// with kParseError (a line that is not JSON, other than a truncated final line; a first line that
// is not a header; a line the Serde types cannot decode; a BOM or blank line a policy refuses) or
// kUnsupported (a version other than "1.0", EC-REC-008), the message naming the line and what is
// wrong. An I/O error of the source is returned as it is.
Result<LoadedRecording> LoadRecording(jsonl::ByteSource* source, const LoadOptions& options);

// The line of `message` parsed again into *line; its msg is line->root().Find("msg").
Status ReadMessageLine(const RandomAccessSource& lines, const RecordedMessage& message,
                       json::Document* line);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_LOADER_H_
