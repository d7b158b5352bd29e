// A line diff for people reading a report: what an implementation wrote beside what the ARCS
// reference writes for the same case (HTML evidence). The texts are evidence blobs, at most a few
// KiB, and the work is bounded all the same: past kMaxDiffCells the changed middle is shown as
// removed, then added, instead of aligned.
#ifndef ARCS_RUNNER_REPORT_LINE_DIFF_H_
#define ARCS_RUNNER_REPORT_LINE_DIFF_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace arcs::report {

struct DiffLine {
  enum class Kind : std::uint8_t { kSame, kRemoved, kAdded };
  Kind kind = Kind::kSame;
  // The line with its '\n', if it had one: "a" and "a\n" are different lines, so a missing final
  // line break shows as a change.
  std::string_view text;

  bool operator==(const DiffLine&) const = default;
};

// The longest-common-subsequence table is at most this many cells (lines before × lines after,
// after the common first and last lines are set aside).
inline constexpr std::size_t kMaxDiffCells = std::size_t{1} << 20;

// The lines of `before` and `after` in order, each kept, removed (only in `before`) or added
// (only in `after`); a run of changes lists its removed lines before its added ones. The views
// point into the arguments.
std::vector<DiffLine> DiffLines(std::string_view before, std::string_view after);

}  // namespace arcs::report

#endif  // ARCS_RUNNER_REPORT_LINE_DIFF_H_
