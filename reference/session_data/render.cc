// RenderMarkdown (session_data.h): a session as a CommonMark transcript that its content cannot
// restructure. Session text is untrusted (errata SD-E26): the punctuation that can open structure
// is backslash-escaped (CommonMark §2.4), so it never opens a heading, list, quote, link, HTML
// element or fence; leading blanks become character references, so they neither vanish nor
// start an indented code block; code blocks the text fences itself stay code blocks, fenced with
// more backticks than any run inside them. Nor does the text link or notify anyone where GitHub
// renders the transcript (AppendUnlinked).
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reference/session_data/session_data.h"

namespace arcs::session_data {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD, what cmark makes of NUL

// The characters that open a block only as the first of a line: headings, list items, quotes,
// setext underlines and thematic breaks.
bool OpensBlock(char c) { return std::string_view("#-+=>").find(c) != std::string_view::npos; }

// Calls line(text) for each line, split at CommonMark's line endings (LF, CRLF, CR).
template <typename F>
void ForEachLine(std::string_view text, F line) {
  while (true) {
    // Two memchr scans (find_first_of would call memchr on the set once for every byte).
    std::size_t end = std::min(text.find('\n'), text.size());
    end = std::min(text.substr(0, end).find('\r'), end);
    line(text.substr(0, end));
    if (end == text.size()) return;
    text.remove_prefix(end + (text.substr(end, 2) == "\r\n" ? 2 : 1));
  }
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  ForEachLine(text, [&](std::string_view l) { lines.push_back(l); });
  return lines;
}

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// The bytes AppendEscapedLine must look at: NUL, the characters that open or close inline
// structure anywhere in a line: code spans, emphasis, links and images (which need '['), raw HTML
// and autolinks, entities, and the pipes and tildes of GitHub's tables and strikethrough, which
// are escaped wherever they stand (§2.4), and those AppendUnlinked looks at. The rest of ASCII
// punctuation is left as written, so that the source stays readable.
constexpr std::array<bool, 256> kSpecial = [] {
  std::array<bool, 256> special{};
  for (char c : std::string_view("\\`*_[]<>&|~@:.")) special[static_cast<unsigned char>(c)] = true;
  special[0] = true;
  return special;
}();

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// After '@' followed by a letter or digit, what keeps GitHub from reading an @mention (which
// notifies the person named) or an e-mail address (which GFM's autolink extension links): both
// are found in the rendered text, after CommonMark's escapes are undone, so neither "\@" nor
// "&#64;" stops them (github/markup#1168, cmark-gfm#181). An empty HTML comment splits the text
// and shows nothing; the text a reader sees, or copies, is the session's exactly.
constexpr std::string_view kUnlink = "<!-- -->";

// Appends line[at], one of '@', ':' or '.', so that it starts no link or mention (GFM's extended
// autolinks, GitHub's @mentions): the ':' of "://" and the '.' of "www." backslash-escaped
// (cmark-gfm matches both in the source, so the escape stops it, and a reader sees the
// character), and kUnlink after an '@' that a letter or digit follows. Anything else as it is.
void AppendUnlinked(std::string_view line, std::size_t at, std::string* out) {
  const char c = line[at];
  const auto lower = [](char x) { return static_cast<char>(x >= 'A' && x <= 'Z' ? x + 32 : x); };
  const bool www = at >= 3 && lower(line[at - 3]) == 'w' && lower(line[at - 2]) == 'w' &&
                   lower(line[at - 1]) == 'w';
  if ((c == ':' && line.substr(at + 1, 2) == "//") || (c == '.' && www)) *out += '\\';
  *out += c;
  if (c == '@' && at + 1 < line.size() && IsAsciiAlnum(line[at + 1])) *out += kUnlink;
}

// One line of text, escaped so that CommonMark reads it as exactly this text. Runs of plain bytes
// are copied whole.
void AppendEscapedLine(std::string_view line, std::string* out) {
  std::size_t i = 0;
  for (; i < line.size() && (line[i] == ' ' || line[i] == '\t'); ++i) {
    *out += line[i] == ' ' ? "&#32;" : "&#9;";
  }
  const std::size_t first = i;
  if (i < line.size() && OpensBlock(line[i])) {
    *out += '\\';
    *out += line[i++];
  } else {
    // An ordered list item opens with digits and '.' or ')'.
    const std::size_t digits = std::min(line.find_first_not_of("0123456789", first), line.size());
    if (digits > first && digits < line.size() && (line[digits] == '.' || line[digits] == ')')) {
      out->append(line.substr(first, digits - first));
      *out += '\\';
      i = digits;
    }
  }
  while (i < line.size()) {
    std::size_t end = i;
    while (end < line.size() && !kSpecial[static_cast<unsigned char>(line[end])]) ++end;
    out->append(line.substr(i, end - i));
    if (end == line.size()) return;
    if (line[end] == '\0') {
      *out += kReplacement;
    } else if (line[end] == '@' || line[end] == ':' || line[end] == '.') {
      AppendUnlinked(line, end, out);
    } else {
      *out += '\\';
      *out += line[end];
    }
    i = end + 1;
  }
}

// Lines as one paragraph, each line kept (a backslash before the line ending is a hard break).
void AppendParagraph(std::span<const std::string_view> lines, std::string_view indent,
                     std::string* out) {
  for (std::size_t k = 0; k < lines.size(); ++k) {
    *out += indent;
    AppendEscapedLine(lines[k], out);
    *out += k + 1 < lines.size() ? "\\\n" : "\n";
  }
}

// A fence the text opens: up to three spaces, then three or more backticks or tildes (§4.5).
struct Fence {
  char mark;
  std::size_t length;
  std::string_view info;
};

std::optional<Fence> OpeningFence(std::string_view line) {
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos || start > 3) return std::nullopt;
  const char mark = line[start];
  if (mark != '`' && mark != '~') return std::nullopt;
  const std::size_t end = std::min(line.find_first_not_of(mark, start), line.size());
  const std::size_t length = end - start;
  if (length < 3) return std::nullopt;
  const std::string_view info = line.substr(end);
  if (mark == '`' && info.find('`') != std::string_view::npos) return std::nullopt;
  return Fence{mark, length, info};
}

bool ClosesFence(std::string_view line, const Fence& fence) {
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos || start > 3 || line[start] != fence.mark) return false;
  const std::size_t end = std::min(line.find_first_not_of(fence.mark, start), line.size());
  return end - start >= fence.length && IsBlank(line.substr(end));
}

std::size_t LongestBacktickRun(std::span<const std::string_view> lines) {
  std::size_t longest = 0;
  for (std::string_view line : lines) {
    for (std::size_t i = 0; (i = line.find('`', i)) != std::string_view::npos;) {
      const std::size_t end = std::min(line.find_first_not_of('`', i), line.size());
      longest = std::max(longest, end - i);
      i = end;
    }
  }
  return longest;
}

// A language word kept in the info string; anything else would need escaping and is dropped.
std::string_view SafeInfo(std::string_view info) {
  const std::size_t start = info.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  info = info.substr(start, info.find_first_of(" \t", start) - start);
  const bool safe = std::all_of(info.begin(), info.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '+' || c == '_' || c == '.' || c == '#';
  });
  return safe ? info : std::string_view();
}

void AppendCodeBlock(std::span<const std::string_view> lines, std::string_view info,
                     std::string_view indent, std::string* out) {
  const std::string fence(std::max<std::size_t>(3, LongestBacktickRun(lines) + 1), '`');
  *out += std::string(indent) + fence + std::string(SafeInfo(info)) + "\n";
  for (std::string_view line : lines) {
    *out += indent;
    for (std::size_t nul; (nul = line.find('\0')) != std::string_view::npos;) {
      out->append(line.substr(0, nul)).append(kReplacement);
      line.remove_prefix(nul + 1);
    }
    out->append(line);
    *out += '\n';
  }
  *out += std::string(indent) + fence + "\n";
}

// A content part's text (SD-RENDER-2): paragraphs of escaped text, and the code blocks the text
// fences, kept as code blocks (an unclosed one runs to the end of the part, as in CommonMark).
void AppendText(std::string_view text, std::string_view indent, std::string* out) {
  const std::vector<std::string_view> lines = Lines(text);
  std::size_t k = 0;
  while (k < lines.size()) {
    if (IsBlank(lines[k])) {
      ++k;
      continue;
    }
    const std::size_t start = k;
    if (std::optional<Fence> fence = OpeningFence(lines[k])) {
      while (++k < lines.size() && !ClosesFence(lines[k], *fence)) {
      }
      AppendCodeBlock(std::span(lines).subspan(start + 1, k - start - 1), fence->info, indent, out);
      k = std::min(k + 1, lines.size());
    } else {
      while (k < lines.size() && !IsBlank(lines[k]) && !OpeningFence(lines[k])) ++k;
      AppendParagraph(std::span(lines).subspan(start, k - start), indent, out);
    }
    *out += '\n';
  }
}

// A value inline: escaped, its lines kept as hard breaks, and a blank one as a character
// reference so that the paragraph holds.
void AppendInline(std::string_view value, std::string_view indent, std::string* out) {
  bool first = true;
  ForEachLine(value, [&](std::string_view line) {
    if (!first) *out += "\\\n" + std::string(indent);
    first = false;
    if (line.empty()) *out += "&#32;";
    AppendEscapedLine(line, out);
  });
}

// A value on one labelled line.
void AppendLabelled(std::string_view label, std::string_view value, std::string_view indent,
                    std::string* out) {
  *out += label;
  AppendInline(value, indent, out);
  *out += '\n';
}

// Text inside a raw HTML line: escaped as HTML, on one line, so the block ends where ours does,
// and with no @mention (GFM links nothing inside raw HTML, but GitHub finds mentions there too).
void AppendHtmlText(std::string_view text, std::string* out) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&':
        *out += "&amp;";
        break;
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '"':
        *out += "&quot;";
        break;
      case '\n':
        *out += "&#10;";
        break;
      case '\r':
        *out += "&#13;";
        break;
      case '\0':
        *out += kReplacement;
        break;
      case '@':
        *out += c;
        if (i + 1 < text.size() && IsAsciiAlnum(text[i + 1])) *out += kUnlink;
        break;
      default:
        *out += c;
    }
  }
}

void AppendPathHints(const std::vector<std::string_view>& hints, std::string* out) {
  if (hints.empty()) return;
  *out += "Paths:\n\n";
  for (std::string_view hint : hints) AppendLabelled("- ", hint, "  ", out);
  *out += '\n';
}

void AppendJsonBlock(std::string_view label, const json::Value& value, std::string* out) {
  const std::string text = json::ToString(value);
  *out += std::string(label) + "\n\n";
  const std::string_view lines[] = {text};
  AppendCodeBlock(lines, "json", "", out);
  *out += '\n';
}

// A tool use (SD-RENDER-3, SD-RENDER-5, Tool Fields): type and name, summary, then the provider's
// formattedMarkdown as it is, or input and output.
void AppendTool(const ToolInfo& tool, std::string* out) {
  *out += "**Tool:** ";
  AppendInline(tool.type, "", out);
  AppendLabelled(" \xC2\xB7 ", tool.name, "", out);  // U+00B7 MIDDLE DOT
  *out += '\n';
  if (tool.summary) {
    *out += "<summary>";
    AppendHtmlText(*tool.summary, out);
    *out += "</summary>\n\n";
  }
  if (tool.formatted_markdown) {
    *out += "<formatted-markdown>\n\n";
    *out += *tool.formatted_markdown;
    *out += "\n\n</formatted-markdown>\n\n";
    return;
  }
  if (tool.input) AppendJsonBlock("Input:", *tool.input, out);
  if (tool.output) AppendJsonBlock("Output:", *tool.output, out);
}

void AppendMessage(const Message& m, std::string* out) {
  const bool known_role = m.role == "user" || m.role == "agent";
  *out += m.role == "user" ? "### User\n\n" : known_role ? "### Agent\n\n" : "### Message\n\n";
  if (!known_role) AppendLabelled("Role: ", m.role, "", out);
  if (!m.model.empty()) AppendLabelled("Model: ", m.model, "", out);
  if (!m.timestamp.empty()) AppendLabelled("Time: ", m.timestamp, "", out);
  if (!known_role || !m.model.empty() || !m.timestamp.empty()) *out += '\n';
  for (const ContentPart& part : m.content) {
    if (part.type == "thinking") {
      *out += "<details>\n<summary>Thinking</summary>\n\n";
      AppendText(part.text, "", out);
      *out += "</details>\n\n";
    } else {
      AppendText(part.text, "", out);
    }
  }
  if (m.tool) AppendTool(*m.tool, out);
  AppendPathHints(m.path_hints, out);
}

// About the transcript's size, so that it is allocated once rather than grown by doubling (each
// doubling copies all written so far): the text it holds, a little for escapes, and the frame of
// each message. Tool input and output are not counted: they are usually a small part.
std::size_t EstimatedSize(const Session& session) {
  std::size_t size = 1024;
  for (const Exchange& x : session.exchanges) {
    for (const Message& m : x.messages) {
      size += 128 + m.model.size() + m.timestamp.size();
      for (const ContentPart& part : m.content) size += part.text.size() + part.text.size() / 16;
      if (m.tool && m.tool->formatted_markdown) size += m.tool->formatted_markdown->size();
    }
  }
  return size;
}

}  // namespace

void RenderMarkdown(const Session& session, std::string* out) {
  out->reserve(out->size() + EstimatedSize(session));
  *out += "# Session transcript\n\n";
  AppendLabelled("Session: ", session.session_id, "", out);
  AppendLabelled("Provider: ", session.provider.name, "", out);
  AppendLabelled("Created: ", session.created_at, "", out);
  AppendLabelled("Workspace: ", session.workspace_root, "", out);
  *out += '\n';
  std::size_t n = 0;
  for (const Exchange& x : session.exchanges) {
    *out += "## Exchange " + std::to_string(++n) + "\n\n";
    if (!x.exchange_id.empty()) AppendLabelled("Exchange id: ", x.exchange_id, "", out);
    *out += '\n';
    for (const Message& m : x.messages) AppendMessage(m, out);
  }
}

std::optional<std::string> RenderFile(std::string text, const Limits& limits) {
  const Reading reading = Reading::Read(std::move(text), limits, Reading::Purpose::kRender);
  if (!reading.is_object()) return std::nullopt;
  std::string markdown;
  RenderMarkdown(reading.session(), &markdown);
  return markdown;
}

}  // namespace arcs::session_data
