// Untrusted text made safe for each place a report puts it. Every string in a report may come
// from an implementation under test (its name, messages, stderr) and may hold anything: invalid
// UTF-8, control characters, markup. Every renderer goes through these functions and nothing
// else, so there is one answer to "what does a hostile byte become".
#ifndef ARCS_RUNNER_REPORT_ESCAPE_H_
#define ARCS_RUNNER_REPORT_ESCAPE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace arcs::report {

// The text with every ill-formed UTF-8 sequence replaced by U+FFFD, one replacement per maximal
// subpart (Unicode §3.9, the practice of the WHATWG decoder): overlong forms, surrogates, code
// points past U+10FFFF, truncated sequences and stray continuation bytes included. Valid text is
// returned unchanged.
std::string ValidUtf8(std::string_view text);

// For HTML, SVG and XML, in element content and in quoted attribute values alike: valid UTF-8,
// characters XML 1.0 forbids (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) and
// bidirectional controls (U+202A..U+202E, U+2066..U+2069: they make text display as something
// it is not) replaced by U+FFFD so the reader sees that something was there, and & < > " ' as
// character references.
std::string EscapeXml(std::string_view text);

// For one cell of a GitHub-flavoured Markdown table (or any inline position): valid UTF-8,
// controls, bidirectional controls and U+2028/U+2029 replaced by U+FFFD, line breaks as <br>, the
// characters that start markup (\ ` * _ [ ] | ~) backslash-escaped and & < > as character
// references, so the text can neither end the cell, open a code span, a link or an HTML tag, nor
// inject a line. Nothing becomes a link or a notification either: the ':' of "://" and the '.' of
// "www." are backslash-escaped (no "https://" or "www." autolink) and every '@' is followed by
// U+2060 WORD JOINER, invisible, so that no e-mail autolink or @mention (both want a letter or
// digit right after the '@') forms. The rendered text reads the same; the JSON report keeps the
// exact bytes.
std::string EscapeMarkdown(std::string_view text);

// At most max_bytes bytes of valid UTF-8 text, cut at a character boundary, with "…" appended
// when something was cut. Keeps rendered reports readable when an implementation answers with a
// megabyte of message.
std::string Truncate(std::string_view text, std::size_t max_bytes);

// A file-name-safe form of a name: ASCII letters and digits lowercased, every other run of bytes
// one '-', no leading or trailing '-'; "x" when nothing is left. At most kMaxSlugBytes: a longer
// one is cut and ends with '-' and 8 hex digits of the name's SHA-256, so that a 300-character
// implementation name still makes a file name, and two long names stay apart.
inline constexpr std::size_t kMaxSlugBytes = 64;
std::string Slug(std::string_view name);

}  // namespace arcs::report

#endif  // ARCS_RUNNER_REPORT_ESCAPE_H_
