#include "runner/fuzz/mutate_lines.h"

#include <array>
#include <cstddef>
#include <utility>

#include "reference/core/strings.h"

namespace arcs::fuzz {
namespace {

bool Terminated(const Lines& lines, std::size_t index) {
  return index + 1 < lines.items.size() || lines.final_newline;
}

std::optional<std::string> DropLine(const Target& target, Random& random) {
  Lines lines = SplitLines(target.bytes);
  const std::size_t count = lines.items.size();
  if (count == 0) return std::nullopt;
  const std::size_t index = random.Below(count);
  lines.items.erase(lines.items.begin() + static_cast<std::ptrdiff_t>(index));
  // Dropping an unterminated last line leaves the line before it as it was, '\n' included.
  if (index == count - 1 && !lines.items.empty()) lines.final_newline = true;
  return JoinLines(lines);
}

std::optional<std::string> RepeatLine(const Target& target, Random& random) {
  Lines lines = SplitLines(target.bytes);
  if (lines.items.empty()) return std::nullopt;
  const std::size_t index = random.Below(lines.items.size());
  const std::string_view repeated = lines.items[index];
  lines.items.insert(lines.items.begin() + static_cast<std::ptrdiff_t>(index), repeated);
  return JoinLines(lines);
}

std::optional<std::string> SwapLines(const Target& target, Random& random) {
  Lines lines = SplitLines(target.bytes);
  const std::size_t count = lines.items.size();
  if (count < 2) return std::nullopt;
  const std::size_t first = random.Below(count);
  std::size_t second = random.Below(count - 1);
  if (second >= first) ++second;
  std::swap(lines.items[first], lines.items[second]);
  return JoinLines(lines);
}

std::optional<std::string> TruncateLine(const Target& target, Random& random) {
  Lines lines = SplitLines(target.bytes);
  std::vector<std::size_t> long_enough;
  for (std::size_t i = 0; i < lines.items.size(); ++i) {
    if (lines.items[i].size() >= 2) long_enough.push_back(i);
  }
  if (long_enough.empty()) return std::nullopt;
  std::string_view& line = lines.items[PickOne(std::span<const std::size_t>(long_enough), random)];
  line = line.substr(0, 1 + random.Below(line.size() - 1));
  return JoinLines(lines);
}

std::optional<std::string> TruncateLastLine(const Target& target, Random& random) {
  Lines lines = SplitLines(target.bytes);
  if (lines.items.empty() || lines.items.back().size() < 2) return std::nullopt;
  std::string_view& last = lines.items.back();
  last = last.substr(0, 1 + random.Below(last.size() - 1));
  lines.final_newline = false;
  return JoinLines(lines);
}

std::optional<std::string> OneCrlf(const Target& target, Random& random) {
  const Lines lines = SplitLines(target.bytes);
  std::vector<std::size_t> bare;  // lines ending in LF alone
  for (std::size_t i = 0; i < lines.items.size(); ++i) {
    if (Terminated(lines, i) && !lines.items[i].ends_with('\r')) bare.push_back(i);
  }
  if (bare.empty()) return std::nullopt;
  const std::string_view line = lines.items[PickOne(std::span<const std::size_t>(bare), random)];
  std::string bytes(target.bytes);
  bytes.insert(static_cast<std::size_t>(line.data() - target.bytes.data()) + line.size(), "\r");
  return bytes;
}

std::optional<std::string> AllCrlf(const Target& target, Random&) {
  const Lines lines = SplitLines(target.bytes);
  std::string bytes;
  bytes.reserve(target.bytes.size() + lines.items.size());
  bool changed = false;
  for (std::size_t i = 0; i < lines.items.size(); ++i) {
    bytes += lines.items[i];
    if (!Terminated(lines, i)) break;
    if (!lines.items[i].ends_with('\r')) {
      bytes += '\r';
      changed = true;
    }
    bytes += '\n';
  }
  if (!changed) return std::nullopt;
  return bytes;
}

// A line inserted before a line, or after the last one if it ended with '\n' (after an
// unterminated last line it would only add a final '\n').
std::optional<std::string> InsertLine(const Target& target, std::string_view inserted,
                                      Random& random) {
  Lines lines = SplitLines(target.bytes);
  const std::size_t places = lines.items.size() + (lines.final_newline ? 1 : 0);
  if (places == 0) return std::nullopt;
  lines.items.insert(lines.items.begin() + static_cast<std::ptrdiff_t>(random.Below(places)),
                     inserted);
  if (lines.items.size() == 1) lines.final_newline = true;
  return JoinLines(lines);
}

std::optional<std::string> InsertBlankLine(const Target& target, Random& random) {
  return InsertLine(target, "", random);
}

std::optional<std::string> InsertWhitespaceLine(const Target& target, Random& random) {
  // JSON's whitespace, then what other definitions add (C's isspace, Unicode's NBSP), which a
  // reader that trims lines with its language's own notion may skip.
  static constexpr std::array<std::string_view, 8> kWhitespace = {" ",   "\t", "  \t ", "\r",
                                                                  " \r", "\v", "\f",    "\xC2\xA0"};
  return InsertLine(target, PickOne(std::span<const std::string_view>(kWhitespace), random),
                    random);
}

std::optional<std::string> RemoveFinalNewline(const Target& target, Random&) {
  if (!target.bytes.ends_with('\n')) return std::nullopt;
  return std::string(target.bytes.substr(0, target.bytes.size() - 1));
}

std::optional<std::string> AddBom(const Target& target, Random&) {
  return std::string(kUtf8Bom) + std::string(target.bytes);
}

constexpr std::array<Family, 11> kLineFamilies = {{
    {"line:drop", DropLine},
    {"line:repeat", RepeatLine},
    {"line:swap", SwapLines},
    {"line:truncate", TruncateLine},
    {"line:truncate-last", TruncateLastLine},
    {"line:crlf", OneCrlf},
    {"line:crlf-all", AllCrlf},
    {"line:blank", InsertBlankLine},
    {"line:whitespace", InsertWhitespaceLine},
    {"line:no-final-newline", RemoveFinalNewline},
    {"line:bom", AddBom},
}};

}  // namespace

Lines SplitLines(std::string_view text) {
  Lines lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.items.push_back(text.substr(start));
      return lines;
    }
    lines.items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  lines.final_newline = !text.empty();
  return lines;
}

std::string JoinLines(const Lines& lines) {
  std::size_t size = lines.items.size();
  for (std::string_view line : lines.items) size += line.size();
  std::string text;
  text.reserve(size);
  for (std::size_t i = 0; i < lines.items.size(); ++i) {
    if (i > 0) text += '\n';
    text += lines.items[i];
  }
  if (lines.final_newline && !lines.items.empty()) text += '\n';
  return text;
}

std::span<const Family> LineFamilies() { return kLineFamilies; }

}  // namespace arcs::fuzz
