// The line-aware mutation families, for JSON Lines: what a writer that crashed, a tool that
// converted line ends, or an editor that added a BOM does to a file.
#ifndef ARCS_RUNNER_FUZZ_MUTATE_LINES_H_
#define ARCS_RUNNER_FUZZ_MUTATE_LINES_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runner/fuzz/mutate_family.h"

namespace arcs::fuzz {

// A text split at each '\n': the lines without it (a '\r' before it stays in its line), and
// whether the last line ended with one. "" has no line; "\n" one empty line.
struct Lines {
  std::vector<std::string_view> items;  // views into the text split
  bool final_newline = false;
};
Lines SplitLines(std::string_view text);
std::string JoinLines(const Lines& lines);

// line:drop, line:repeat (a line twice in a row), line:swap (two lines), line:truncate (a line cut
// mid-way, its '\n' kept), line:truncate-last (the file ends mid-way through its last line),
// line:crlf (one line's LF), line:crlf-all (every LF), line:blank (an empty line inserted),
// line:whitespace (a line of whitespace inserted, JSON's and not), line:no-final-newline,
// line:bom (a UTF-8 byte order mark first).
std::span<const Family> LineFamilies();

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_MUTATE_LINES_H_
