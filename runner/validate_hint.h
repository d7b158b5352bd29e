// A JSON Lines file that is one pretty-printed JSON document (someone ran `jq .` over a recording)
// breaks its format's line rule on nearly every line: a thousand findings that all say "not JSON".
// `arcs validate` says instead, once, what happened and how to undo it. A file is taken for such a
// document when its first line is a lone "{" or "[" (what jq, Python's json.tool, JSON.stringify
// and Go's MarshalIndent all write first) and the whole file parses as one JSON value.
#ifndef ARCS_RUNNER_VALIDATE_HINT_H_
#define ARCS_RUNNER_VALIDATE_HINT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"

namespace arcs::runner {

// Passes a source's bytes through, keeping them while they may be a pretty-printed document: from
// a first line that is a lone "{" or "[" (JSON whitespace and a BOM aside), and at most
// `max_bytes` (beyond that the file is not held, and gets no hint). Any other file costs nothing
// but the first line's first bytes.
class PrettyJsonWatch : public jsonl::ByteSource {
 public:
  PrettyJsonWatch(jsonl::ByteSource* source, std::uint64_t max_bytes)
      : source_(source), max_bytes_(max_bytes) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override;
  std::optional<std::uint64_t> SizeHint() const override { return source_->SizeHint(); }

  // The whole file, when it was read to its end and kept.
  std::optional<std::string_view> Kept() const;

 private:
  enum class State : std::uint8_t { kFirstLine, kKeeping, kOff };
  void Keep(std::string_view bytes);
  ByteSource* source_;
  std::uint64_t max_bytes_;
  State state_ = State::kFirstLine;
  bool ended_ = false;
  std::string kept_;
};

// What to tell about a file of a JSON Lines format (`format_title`, "Spool 1.0") named `file_name`
// whose bytes `text` are, with `diagnostics` its findings: when the text is one JSON value over
// several lines (at most `max_depth` deep), one finding at 1:1 citing the rule the findings cite
// on the most lines (the rule a line that is not JSON breaks) that says so and how to fix it.
// Nothing otherwise: the findings stand.
std::optional<Finding> PrettyJsonHint(std::string_view text, std::string_view format_title,
                                      std::string_view file_name, const Diagnostics& diagnostics,
                                      std::uint32_t max_depth);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_HINT_H_
