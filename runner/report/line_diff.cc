#include "runner/report/line_diff.h"

#include <algorithm>
#include <cstdint>

#include "reference/core/strings.h"

namespace arcs::report {
namespace {

using Lines = std::vector<std::string_view>;

void Append(DiffLine::Kind kind, const Lines& lines, std::size_t from, std::size_t to,
            std::vector<DiffLine>* out) {
  for (std::size_t i = from; i < to; ++i) out->push_back({kind, lines[i]});
}

// The middle a[0, n) against b[0, m): aligned by their longest common subsequence, or all of a
// removed then all of b added when the table would be too large.
void DiffMiddle(const Lines& a, std::size_t a0, std::size_t n, const Lines& b, std::size_t b0,
                std::size_t m, std::vector<DiffLine>* out) {
  if (n == 0 || m == 0 || n * m > kMaxDiffCells) {
    Append(DiffLine::Kind::kRemoved, a, a0, a0 + n, out);
    Append(DiffLine::Kind::kAdded, b, b0, b0 + m, out);
    return;
  }
  // lcs[i * (m + 1) + j]: the common subsequence of a[i..n) and b[j..m). Lines number at most a
  // few thousand (the blobs are cut at 4 KiB), so 32 bits are plenty.
  std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
  auto at = [m](std::size_t i, std::size_t j) { return i * (m + 1) + j; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[at(i, j)] = a[a0 + i] == b[b0 + j] ? lcs[at(i + 1, j + 1)] + 1
                                             : std::max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    }
  }
  std::size_t i = 0, j = 0;
  std::vector<DiffLine> added;  // held back so that a run of changes lists removals first
  auto flush = [&] {
    out->insert(out->end(), added.begin(), added.end());
    added.clear();
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[a0 + i] == b[b0 + j]) {
      flush();
      out->push_back({DiffLine::Kind::kSame, a[a0 + i]});
      ++i, ++j;
    } else if (j == m || (i < n && lcs[at(i + 1, j)] >= lcs[at(i, j + 1)])) {
      out->push_back({DiffLine::Kind::kRemoved, a[a0 + i++]});
    } else {
      added.push_back({DiffLine::Kind::kAdded, b[b0 + j++]});
    }
  }
  flush();
}

}  // namespace

std::vector<DiffLine> DiffLines(std::string_view before, std::string_view after) {
  const Lines a = LinesWithEnds(before), b = LinesWithEnds(after);
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<DiffLine> out;
  Append(DiffLine::Kind::kSame, a, 0, prefix, &out);
  DiffMiddle(a, prefix, a.size() - prefix - suffix, b, prefix, b.size() - prefix - suffix, &out);
  Append(DiffLine::Kind::kSame, a, a.size() - suffix, a.size(), &out);
  return out;
}

}  // namespace arcs::report
