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

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/status.h"
#include "reference/core/text_formats.h"

namespace arcs::spool {

// §10.1: "Implementations parsing Spool files from untrusted sources MUST ... Set maximum limits".
// The defaults are generous for real recordings and small enough to keep a hostile file harmless.
struct Limits {
  std::uint64_t max_file_bytes = 16ull << 30;
  std::uint64_t max_line_bytes = 64ull << 20;
  std::uint64_t max_entries = 100'000'000;
  std::uint64_t max_json_depth = 128;
  std::uint64_t max_subagent_depth = 10;          // §6.8.3: "e.g., 10 levels"
  std::uint64_t max_base64_bytes = 256ull << 20;  // decoded size of one binary "data" value
};

jsonl::LineOptions LineOptionsFor(const Limits& limits);
json::ParseOptions ParseOptionsFor(const Limits& limits);

// §11.4.3 leaves the choice to implementations: reject the file or skip the line with a warning.
enum class InvalidLinePolicy : std::uint8_t { kReject, kSkip };

struct ReadOptions {
  Limits limits;
  // The reference rejects (its declared invalid_line policy, conformance/spool/module.cc):
  // skipping would drop a user's line on a round trip, silently changing what they gave us.
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

// §6.8.3 nesting: a subagent_start that names a parent_subagent_id.
struct SubagentLink {
  Uuid child;
  Uuid parent;
  std::uint32_t line;
};
struct DepthViolation {
  std::size_t link;     // index into the links
  std::uint64_t depth;  // the depth that went over the limit; 0 for a cycle
};
// Depth along parent chains (a start without a parent has depth 1), judged once every start is
// known, since a parent may come later in the file. A chain over `limit` is reported once, at its
// first start over the limit; a cycle is unbounded depth, reported once, at its first line.
// is_start(id) tells whether exactly one entry has that id and it is a subagent_start.
template <typename IsStart>
std::vector<DepthViolation> FindDepthViolations(const std::vector<SubagentLink>& links,
                                                IsStart is_start, std::uint64_t limit);

// Reads a whole file into memory (the writer needs it all). Returns the reason for rejecting the
// file as kParseError or kLimitExceeded, with the line number in the message; notes what it
// tolerated (skipped lines, BOM, duplicates are not its business) in *notes when given. A note
// names the requirement that allowed it; its level is the catalogue's business (the reader does
// not know it), so it is left at the default.
Result<File> Read(jsonl::ByteSource* source, const ReadOptions& options,
                  Diagnostics* notes = nullptr);

// Read, then Write, an entry at a time: the same bytes, or the same Status, without holding the
// entries (a roundtrip of a million small ones, held as documents, peaked at 933 MiB, and at 378
// MiB so). Nothing is returned for a file the reader rejects, however late in it the reason comes.
Result<std::string> Rewrite(jsonl::ByteSource* source, const ReadOptions& options);

// Writes what §3 asks of writers: UTF-8 without a BOM, one compact JSON object per line, "\n"
// after every line. Members keep their order and values their exact text.
void Write(const File& file, std::string* out);

template <typename IsStart>
std::vector<DepthViolation> FindDepthViolations(const std::vector<SubagentLink>& links,
                                                IsStart is_start, std::uint64_t limit) {
  std::vector<DepthViolation> out;
  std::unordered_map<Uuid, std::size_t, UuidHash> by_child;
  for (std::size_t i = 0; i < links.size(); ++i) by_child.emplace(links[i].child, i);
  for (std::size_t i = 0; i < links.size(); ++i) {
    std::uint64_t depth = 1;
    std::uint32_t first_line = links[i].line;
    bool cycle = false;
    for (std::size_t at = i; depth <= limit + 1;) {
      if (!is_start(links[at].parent)) break;
      ++depth;
      auto next = by_child.find(links[at].parent);
      if (next == by_child.end()) break;
      if (next->second == i) {
        cycle = true;
        break;
      }
      at = next->second;
      first_line = std::min(first_line, links[at].line);
    }
    if (cycle ? first_line == links[i].line : depth == limit + 1) {
      out.push_back({i, cycle ? 0 : depth});
    }
  }
  return out;
}

}  // namespace arcs::spool

#endif  // ARCS_REFERENCE_SPOOL_SPOOL_H_
