// The shared pieces of the renderings (render_parts.h).
#include "runner/report/render_parts.h"

#include "runner/report/escape.h"

namespace arcs::report {
namespace {

constexpr std::size_t kHexRowBytes = 16;

// `value` as `digits` lowercase hex digits.
std::string HexDigits(std::size_t value, int digits) {
  std::string text(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0 && value; --i, value >>= 4) {
    text[static_cast<std::size_t>(i)] = "0123456789abcdef"[value & 15];
  }
  return text;
}

}  // namespace

std::string MarkdownCell(std::string_view text) {
  if (text.empty()) return "—";
  return EscapeMarkdown(Truncate(text, kMaxCellBytes));
}

std::string MarkdownRow(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row += " " + cell + " |";
  return row + "\n";
}

std::string MarkdownHeader(const std::vector<std::string>& names, std::size_t numeric_from) {
  std::string out = MarkdownRow(names) + "|";
  for (std::size_t i = 0; i < names.size(); ++i) out += i >= numeric_from ? "--:|" : "---|";
  return out + "\n";
}

std::vector<HexRow> HexRows(std::string_view bytes) {
  std::vector<HexRow> rows;
  for (std::size_t offset = 0; offset < bytes.size(); offset += kHexRowBytes) {
    HexRow& row = rows.emplace_back();
    row.offset = offset;
    for (std::size_t i = offset; i < offset + kHexRowBytes && i < bytes.size(); ++i) {
      if (i > offset) row.hex += i % 8 == 0 ? "  " : " ";
      const auto byte = static_cast<unsigned char>(bytes[i]);
      row.hex += HexDigits(byte, 2);
      row.ascii += byte >= 0x20 && byte < 0x7f ? static_cast<char>(byte) : '.';
    }
  }
  return rows;
}

std::string HexOffset(std::size_t offset) { return HexDigits(offset, 8); }

std::string HexDump(std::string_view bytes) {
  // A full row's hex: 16 pairs, 15 spaces between them and one more after the eighth.
  constexpr std::size_t kHexWidth = 3 * kHexRowBytes;
  std::string out;
  for (const HexRow& row : HexRows(bytes)) {
    out += HexOffset(row.offset) + "  " + row.hex + std::string(kHexWidth - row.hex.size(), ' ') +
           "  |" + row.ascii + "|\n";
  }
  return out;
}

}  // namespace arcs::report
