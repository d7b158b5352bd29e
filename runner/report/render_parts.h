// Pieces of a rendering that every report of ARCS builds with, the conformance report's
// (render.h) and the fuzz report's (runner/fuzz/fuzz_render.h) alike: Markdown table rows and
// cells, and hex dumps of bytes that are not text. One definition each, so the reports look alike
// and escape alike.
#ifndef ARCS_RUNNER_REPORT_RENDER_PARTS_H_
#define ARCS_RUNNER_REPORT_RENDER_PARTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace arcs::report {

// Untrusted text for one table cell (EscapeMarkdown), cut to kMaxCellBytes so that one long
// answer cannot swamp the table; "—" when empty, so that the cell is visibly empty.
inline constexpr std::size_t kMaxCellBytes = 500;
std::string MarkdownCell(std::string_view text);

// "| a | b |\n": the cells as they are (already escaped).
std::string MarkdownRow(const std::vector<std::string>& cells);

// The header row and the separator; the columns from `numeric_from` on (counts) are right-aligned.
std::string MarkdownHeader(const std::vector<std::string>& names, std::size_t numeric_from);

// One row of a hex dump as `hexdump -C` shows bytes: the offset, up to 16 bytes as two lowercase
// hex digits each (separated by a space, two after the eighth), and those bytes as ASCII with '.'
// for each one that is not printable.
struct HexRow {
  std::size_t offset = 0;
  std::string hex;
  std::string ascii;
};
std::vector<HexRow> HexRows(std::string_view bytes);

// The offset as eight lowercase hex digits, as a hex dump shows it.
std::string HexOffset(std::size_t offset);

// The rows laid out as `hexdump -C` does, one a line: "00000000  3c 73 ...  |<s...|".
std::string HexDump(std::string_view bytes);

}  // namespace arcs::report

#endif  // ARCS_RUNNER_REPORT_RENDER_PARTS_H_
