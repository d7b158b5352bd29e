// Spool 1.0 (spool.md): the reference reader and writer.
//
// The reader is what spool.md asks of a *reader*: it tolerates a leading BOM, CRLF and mixed
// endings, blank lines, whitespace around a line's object, unknown entry types and fields,
// duplicate ids and out-of-order timestamps, and keeps every entry exactly (member order, number
// text) so that writing it back loses nothing (§7, §11.2, §11.3). It rejects what §11.4 says a
// reader must reject (an empty file, a file not starting with a session entry) and, by the policy
// chosen for §11.4.3, a line that is not a JSON object. Whether a *file* conforms is the
// validator's question: see conformance/spool/checker.h.
#ifndef ARCS_REFERENCE_SPOOL_SPOOL_H_
#define ARCS_REFERENCE_SPOOL_SPOOL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/status.h"

namespace arcs::spool {

// §10.1: "Implementations parsing Spool files from untrusted sources MUST ... Set maximum limits".
// The defaults are generous for real recordings and small enough to keep a hostile file harmless.
struct Limits {
  std::uint64_t max_file_bytes = 16ull << 30;
  std::uint64_t max_line_bytes = 64ull << 20;
  std::uint64_t max_entries = 100'000'000;
  std::uint64_t max_json_depth = 128;
  std::uint64_t max_subagent_depth = 10;  // §6.8.3: "e.g., 10 levels"
  std::uint64_t max_base64_bytes = 256ull << 20;  // decoded size of one binary "data" value
};

// Sets the limit called `name` (the field names above). For command lines and vector manifests.
Status SetLimit(std::string_view name, std::uint64_t value, Limits* limits);
std::vector<std::pair<std::string_view, std::uint64_t>> ListLimits(const Limits& limits);

jsonl::LineOptions LineOptionsFor(const Limits& limits);
json::ParseOptions ParseOptionsFor(const Limits& limits);

// §11.4.3 leaves the choice to implementations: reject the file or skip the line with a warning.
enum class InvalidLinePolicy : std::uint8_t { kReject, kSkip };

struct ReadOptions {
  Limits limits;
  // The reference rejects: skipping would drop a user's line on a round trip, silently changing
  // what they gave us. kSkip exists so the other behaviour can be exercised and compared.
  InvalidLinePolicy invalid_line = InvalidLinePolicy::kReject;
};

struct Entry {
  std::uint64_t line = 0;
  json::Document document;
  const json::Value& value() const { return document.root(); }
  std::string_view type() const;  // the "type" member if it is a string, else ""
};

struct File {
  std::vector<Entry> entries;
};

// Reads a whole file into memory (the writer needs it all). Returns the reason for rejecting the
// file as kParseError or kLimitExceeded, with the line number in the message; notes what it
// tolerated (skipped lines, BOM, duplicates are not its business) in *notes when given.
Result<File> Read(jsonl::ByteSource* source, const ReadOptions& options,
                  Diagnostics* notes = nullptr);

// Writes what §3 asks of writers: UTF-8 without a BOM, one compact JSON object per line, "\n"
// after every line. Members keep their order and values their exact text.
void Write(const File& file, std::string* out);

}  // namespace arcs::spool

#endif  // ARCS_REFERENCE_SPOOL_SPOOL_H_
