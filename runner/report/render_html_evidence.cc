// The evidence of a failure on the HTML page (render_html_internal.h): inputs as text or hex,
// the vector's expectation, the findings against the vector's rule ids, and the outputs against
// the reference's as a line diff. Every piece of it is untrusted text, escaped.
#include <algorithm>
#include <set>

#include "runner/report/escape.h"
#include "runner/report/line_diff.h"
#include "runner/report/render_common.h"
#include "runner/report/render_html_internal.h"
#include "runner/report/render_parts.h"

namespace arcs::report::html {
namespace {

std::string Join(const std::set<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out.empty() ? "none" : out;
}

bool IsAsciiPunctuation(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

// How many times `c` repeats from `at`.
std::size_t RunOf(std::string_view text, std::size_t at, char c) {
  std::size_t end = at;
  while (end < text.size() && text[end] == c) ++end;
  return end - at;
}

// Where the code span opened by `run` backticks before `from` closes: the next run of exactly as
// many backticks; npos when none does (the backticks are then text, as CommonMark has it).
std::size_t CodeSpanEnd(std::string_view text, std::size_t from, std::size_t run) {
  for (std::size_t at = text.find('`', from); at != std::string_view::npos;) {
    const std::size_t length = RunOf(text, at, '`');
    if (length == run) return at;
    at = text.find('`', at + length);
  }
  return std::string_view::npos;
}

// Where emphasis opened by `delimiter` ("*" or "**") before `from` closes: the next delimiter
// with no space before it (and, for "*", not part of "**"); npos when none.
std::size_t EmphasisEnd(std::string_view text, std::size_t from, std::string_view delimiter) {
  for (std::size_t at = text.find(delimiter, from); at != std::string_view::npos;
       at = text.find(delimiter, at + delimiter.size())) {
    if (at == from || text[at - 1] == ' ') continue;
    if (delimiter.size() == 1 && RunOf(text, at, '*') != 1) {
      at += RunOf(text, at, '*') - 1;
      continue;
    }
    return at;
  }
  return std::string_view::npos;
}

// Splits a table row's text at the pipes a backslash does not escape (as GitHub's tables do, in
// code spans too); the text before the first pipe and after the last is not a cell.
std::vector<std::string_view> Cells(std::string_view row) {
  std::vector<std::string_view> cells;
  std::size_t start = std::string_view::npos;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\') {
      ++i;
    } else if (row[i] == '|') {
      if (start != std::string_view::npos) cells.push_back(row.substr(start, i - start));
      start = i + 1;
    }
  }
  return cells;
}

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// "---", ":--:": a cell of a table's delimiter row.
bool IsDelimiterCell(std::string_view cell) {
  cell = TrimSpaces(cell);
  if (!cell.empty() && cell.front() == ':') cell.remove_prefix(1);
  if (!cell.empty() && cell.back() == ':') cell.remove_suffix(1);
  return !cell.empty() && cell.find_first_not_of('-') == std::string_view::npos;
}

// A quote that is a table: its rows as one line, "| a | b | | c | d |" (the manifests join the
// rows of a quoted table with an empty cell between them), as an HTML table.
std::string QuoteTable(std::string_view quote) {
  std::vector<std::vector<std::string_view>> rows(1);
  for (std::string_view cell : Cells(quote)) {
    if (TrimSpaces(cell).empty()) {
      if (!rows.back().empty()) rows.emplace_back();
      continue;
    }
    rows.back().push_back(TrimSpaces(cell));
  }
  std::string table = "<table class=\"quote-table\"><tbody>";
  for (const std::vector<std::string_view>& row : rows) {
    if (row.empty() || std::all_of(row.begin(), row.end(), IsDelimiterCell)) continue;
    table += "<tr>";
    for (std::string_view cell : row) table += "<td>" + MarkdownInline(cell) + "</td>";
    table += "</tr>";
  }
  return Scrolling(table + "</tbody></table>", "quote");
}

// One quote's text: a table, a heading (as strong text) or inline Markdown.
std::string QuoteBody(std::string_view quote) {
  const std::string_view trimmed = TrimSpaces(quote);
  if (trimmed.size() > 1 && trimmed.front() == '|' && trimmed.back() == '|') {
    return QuoteTable(trimmed);
  }
  if (trimmed.starts_with('#')) {
    std::string_view heading = trimmed.substr(RunOf(trimmed, 0, '#'));
    return "<strong>" + MarkdownInline(TrimSpaces(heading)) + "</strong>";
  }
  return MarkdownInline(quote);
}

// A part of a spec text: `where` (e.g. "§6.1 (optional fields)") and the quote, or, for a part
// that is not a quote (an errata list), the text alone.
struct SpecPart {
  std::string_view where;
  std::string_view text;
  bool quoted = false;
};

// Whether `text` starts a part as the manifests write them: `where: "` (the place holds no
// quote mark), or "errata ".
bool StartsPart(std::string_view text) {
  if (text.starts_with("errata ")) return true;
  const std::size_t colon = text.find(": \"");
  return colon != std::string_view::npos && colon > 0 &&
         text.substr(0, colon).find('"') == std::string_view::npos;
}

// The vectors' spec texts are parts joined with "; " (conformance/vectors.cc), each `where:
// "quote"` or "errata IDS". A quote holding quote marks or "; " itself ends only where another
// part starts; a text cut short (the report's bound) ends its last quote where it ends.
std::vector<SpecPart> SpecParts(std::string_view text) {
  std::vector<SpecPart> parts;
  while (!text.empty()) {
    SpecPart part;
    std::size_t end = 0;
    if (StartsPart(text) && !text.starts_with("errata ")) {
      const std::size_t open = text.find(": \"") + 3;
      part.where = text.substr(0, open - 3);
      part.quoted = true;
      std::size_t close = open;
      for (close = text.find('"', open); close != std::string_view::npos;
           close = text.find('"', close + 1)) {
        if (close + 1 == text.size()) break;
        if (text.substr(close + 1).starts_with("; ") && StartsPart(text.substr(close + 3))) break;
      }
      if (close == std::string_view::npos) close = text.size();
      part.text = text.substr(open, close - open);
      end = std::min(text.size(), close + 1);
    } else {
      end = text.find("; ");
      while (end != std::string_view::npos && !StartsPart(text.substr(end + 2))) {
        end = text.find("; ", end + 2);
      }
      if (end == std::string_view::npos) end = text.size();
      part.text = text.substr(0, end);
    }
    parts.push_back(part);
    text.remove_prefix(end);
    if (text.starts_with("; ")) text.remove_prefix(2);
  }
  return parts;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The bytes Blob::content holds in hex. A pair that is not hex (a hand-edited report) ends them.
std::string Unhex(std::string_view hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    const int high = HexValue(hex[i]), low = HexValue(hex[i + 1]);
    if (high < 0 || low < 0) break;
    bytes += static_cast<char>(high * 16 + low);
  }
  return bytes;
}

// How many bytes of the original the blob's content holds.
std::size_t KeptBytes(const Blob& b) {
  return b.encoding == "hex" ? b.content.size() / 2 : b.content.size();
}

// "input <b>file</b>: 33 bytes, text"; `what` is markup (escaped by the caller).
std::string BlobHeading(const Blob& b, std::string_view what) {
  std::string out = "<div class=\"blob-h\">" + std::string(what) + " <b>" + E(b.name) +
                    "</b>: " + std::to_string(b.size) + " bytes, " +
                    (b.encoding == "hex" ? "binary, shown in hex" : "text");
  if (b.truncated) {
    out += ", <b>first " + std::to_string(KeptBytes(b)) + " of " + std::to_string(b.size) +
           " bytes</b>";
  }
  return out + "</div>\n";
}

std::string BlobBody(const Blob& b) {
  if (b.encoding == "hex") return "<pre class=\"hex\">" + E(HexDump(Unhex(b.content))) + "</pre>\n";
  return "<pre>" + E(b.content) + "</pre>\n";
}

std::string RenderDiff(const Blob& reference, const Blob& output, std::string_view implementation) {
  std::string out = "<div class=\"blob-h\">output <b>" + E(output.name) +
                    "</b>: <span class=\"del\">− the ARCS reference writes</span>, <span "
                    "class=\"ins\">+ " +
                    E(implementation) + " wrote</span>";
  const bool cut = reference.truncated || output.truncated;
  if (cut) out += " (compared over the bytes kept)";
  out += "</div>\n";
  if (reference.content == output.content) {
    return out + "<p>The same as the ARCS reference writes.</p>\n" + BlobBody(output);
  }
  out += "<pre class=\"diff\">";
  for (const DiffLine& line : DiffLines(reference.content, output.content)) {
    std::string_view text = line.text;
    const bool ends = text.ends_with('\n');
    if (ends) text.remove_suffix(1);
    switch (line.kind) {
      case DiffLine::Kind::kSame:
        out += "  " + E(text) + "\n";
        continue;
      case DiffLine::Kind::kRemoved:
        out += "<span class=\"del\">- ";
        break;
      case DiffLine::Kind::kAdded:
        out += "<span class=\"ins\">+ ";
        break;
    }
    // A cut blob's last line lost its end to the cut, not to the writer.
    out += E(text) + (ends || cut ? "" : "\n\\ no line break at the end") + "</span>\n";
  }
  return out + "</pre>\n";
}

const Blob* Named(const std::vector<Blob>& blobs, const std::string& name) {
  for (const Blob& b : blobs) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

// The implementation's outputs beside the reference's: a line diff when both are text, each
// shown alone otherwise. The reference's are never called the expectation: the vector decides.
void RenderOutputs(const Evidence& e, std::string_view implementation, std::string* out) {
  if (e.outputs.empty() && e.reference_outputs.empty()) return;
  *out += "<h5>Outputs</h5>\n";
  for (const Blob& output : e.outputs) {
    const Blob* reference = Named(e.reference_outputs, output.name);
    if (reference && reference->encoding == "text" && output.encoding == "text") {
      *out += RenderDiff(*reference, output, implementation);
      continue;
    }
    *out += BlobHeading(output, E(implementation) + " wrote") + BlobBody(output);
    if (reference) {
      *out += BlobHeading(*reference, "the ARCS reference writes") + BlobBody(*reference);
    }
  }
  for (const Blob& reference : e.reference_outputs) {
    if (Named(e.outputs, reference.name)) continue;
    *out += BlobHeading(reference, "the ARCS reference writes (" + E(implementation) +
                                       " wrote no such output)") +
            BlobBody(reference);
  }
}

// Findings as a table: rule, severity, line, pointer, message; "" when there are none.
std::string FindingsTable(const std::vector<FindingEvidence>& findings) {
  if (findings.empty()) return "";
  std::string table =
      "<table class=\"findings\"><thead><tr><th>rule</th><th>severity</th><th>line</th>"
      "<th>pointer</th><th>message</th></tr></thead><tbody>\n";
  for (const FindingEvidence& f : findings) {
    table += "<tr><td>" + E(f.rule) + "</td><td>" + E(f.severity) + "</td><td class=\"n\">" +
             (f.line ? std::to_string(f.line) : "") + "</td><td><code>" + ET(f.pointer) +
             "</code></td><td class=\"text\">" + ET(f.message) + "</td></tr>\n";
  }
  return Scrolling(table + "</tbody></table>");
}

// " (the first 2 of 60)" when the report kept only some of the findings.
std::string OfTotal(std::size_t kept, std::uint64_t total) {
  if (total <= kept) return "";
  return " (the first " + std::to_string(kept) + " of " + std::to_string(total) + ")";
}

// One side of the comparison: who answered, the verdict and the findings.
std::string AnswerColumn(std::string_view who, std::string_view verdict,
                         const std::vector<FindingEvidence>& findings, std::uint64_t total) {
  std::string out = "<div class=\"side\"><h6>" + std::string(who) + "</h6><p>verdict: <b>" +
                    (verdict.empty() ? std::string("none given") : E(verdict)) + "</b>; " +
                    std::to_string(total) + " finding" + (total == 1 ? "" : "s") +
                    OfTotal(findings.size(), total) + "</p>\n";
  return out + FindingsTable(findings) + "</div>\n";
}

// The reference's own answer beside the implementation's, for a validate case: the reference's
// findings say where and why the file breaks the rules the vector names (or that it breaks
// none). Labelled as the reference's: the vector's rule ids are the expectation.
std::string SideBySide(const Evidence& e, std::string_view implementation, bool answered) {
  std::string out = "<div class=\"sides\">\n";
  out += AnswerColumn(
      "the ARCS reference (for comparison; the vector decides)", e.reference_verdict,
      e.reference_findings,
      std::max<std::uint64_t>(e.reference_findings_total, e.reference_findings.size()));
  if (answered) {
    out += AnswerColumn(E(implementation), e.verdict, e.findings,
                        std::max<std::uint64_t>(e.findings_total, e.findings.size()));
  }
  return out + "</div>\n";
}

// The verdict and findings against the vector's rule ids: both id sets, and what each lacks; and,
// for a validate case, the reference's findings beside the implementation's.
void RenderFindings(const CaseResult& c, const Evidence& e, std::string_view implementation,
                    std::string* out) {
  const bool reference = !e.reference_verdict.empty();
  if (e.verdict.empty() && e.findings.empty() && e.expected_errors.empty() &&
      e.expected_warnings.empty() && !reference) {
    return;
  }
  const std::set<std::string> errors(e.expected_errors.begin(), e.expected_errors.end()),
      warnings(e.expected_warnings.begin(), e.expected_warnings.end());
  std::set<std::string> expected = errors, reported, missing, extra;
  expected.insert(warnings.begin(), warnings.end());
  for (const FindingEvidence& f : e.findings) reported.insert(f.rule);
  for (const std::string& id : expected) {
    if (!reported.contains(id)) missing.insert(id);
  }
  for (const std::string& id : reported) {
    if (!expected.contains(id)) extra.insert(id);
  }
  if (e.verdict.empty() && e.findings.empty()) {
    // Not answered: nothing to compare with the vector's rule ids.
    *out += "<p>The vector expects errors: " + E(Join(errors)) +
            "; warnings: " + E(Join(warnings)) + ".</p>\n";
    if (reference) *out += SideBySide(e, implementation, false);
    return;
  }
  *out += "<h5>Verdict and findings</h5>\n<p>verdict: <b>" +
          (e.verdict.empty() ? std::string("none given") : E(e.verdict)) + "</b>";
  if (!c.rules.empty()) {
    *out += "; rule ids <b>" + E(c.rules) + "</b> with the vector&#39;s (informative)";
  }
  *out += "</p>\n<dl class=\"ea ids\"><dt>the vector expects</dt><dd>errors: " + E(Join(errors)) +
          "; warnings: " + E(Join(warnings)) + "</dd><dt>reported</dt><dd>" + E(Join(reported)) +
          OfTotal(e.findings.size(), e.findings_total) +
          "</dd><dt>expected, not reported</dt><dd>" + E(Join(missing)) +
          "</dd><dt>reported, not expected</dt><dd>" + E(Join(extra)) + "</dd></dl>\n";
  if (reference) {
    *out += SideBySide(e, implementation, true);
  } else {
    *out += FindingsTable(e.findings);
  }
}

// Whether a path from a report is one of the suite's vector files, safe as a relative link:
// under vectors/, of letters, digits and . _ - + / only, with no empty, "." or ".." segment (so
// no scheme, no query, no way out of the checkout).
bool IsVectorFile(std::string_view path) {
  if (!path.starts_with("vectors/")) return false;
  for (char c : path) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-' || c == '+' || c == '/';
    if (!plain) return false;
  }
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = end + 1;
  }
  return true;
}

// A case's file: a link relative to the page (right for a page saved at the checkout's root, as
// `arcs report --out my.html` run there writes it), and its path as text whatever the link does.
std::string FileLink(std::string_view path) {
  if (!IsVectorFile(path)) return "<code class=\"file\">" + ET(path) + "</code>";
  return "<a class=\"file\" href=\"" + E(path) + "\"><code>" + E(path) + "</code></a>";
}

void RenderRequirements(const Page& page, const Row& row, std::string* out) {
  if (row.requirements.empty()) return;
  *out += "<h4>Requirements</h4>\n<ul class=\"requirements\">\n";
  for (const std::string& id : row.requirements) {
    auto it = page.requirement_of.find({row.format, id});
    if (it == page.requirement_of.end()) {
      *out += "<li>" + E(id) + " (not in the report&#39;s requirements)</li>\n";
      continue;
    }
    const RequirementInfo& r = page.report.requirements[it->second];
    *out += "<li><a href=\"#" + RequirementAnchor(it->second) + "\">" + E(r.id) + "</a> §" +
            E(r.section) + " " + E(r.level) + ": " +
            MarkdownInline(Truncate(r.text, kMaxTextBytes)) + "</li>\n";
  }
  *out += "</ul>\n";
}

}  // namespace

std::string MarkdownInline(std::string_view text) {
  std::string out, plain;
  auto flush = [&] {
    out += E(plain);
    plain.clear();
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && IsAsciiPunctuation(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c == '`') {
      const std::size_t run = RunOf(text, i, '`');
      const std::size_t end = CodeSpanEnd(text, i + run, run);
      if (end == std::string_view::npos) {
        plain.append(run, '`');
        i += run;
        continue;
      }
      std::string_view code = text.substr(i + run, end - i - run);
      // One space each side is padding (so that a span can start or end with a backtick).
      if (code.size() > 2 && code.front() == ' ' && code.back() == ' ') {
        code = code.substr(1, code.size() - 2);
      }
      flush();
      out += "<code>" + E(code) + "</code>";
      i = end + run;
      continue;
    }
    if (c == '*') {
      const std::string_view delimiter = RunOf(text, i, '*') >= 2 ? "**" : "*";
      const std::size_t from = i + delimiter.size();
      const std::size_t end = from < text.size() && text[from] != ' '
                                  ? EmphasisEnd(text, from, delimiter)
                                  : std::string_view::npos;
      if (end == std::string_view::npos) {
        plain += delimiter;
        i = from;
        continue;
      }
      const std::string_view tag = delimiter.size() == 2 ? "strong" : "em";
      flush();
      out += "<" + std::string(tag) + ">" + MarkdownInline(text.substr(from, end - from)) + "</" +
             std::string(tag) + ">";
      i = end + delimiter.size();
      continue;
    }
    plain += c;
    ++i;
  }
  flush();
  return out;
}

std::string SpecText(std::string_view text) {
  const std::string cut = Truncate(text, kMaxTextBytes);
  std::string out;
  for (const SpecPart& part : SpecParts(cut)) {
    out += "<div class=\"quote\">";
    if (part.quoted) {
      out += "<cite>" + E(part.where) + "</cite> " + QuoteBody(part.text);
    } else {
      out += QuoteBody(part.text);
    }
    out += "</div>";
  }
  return out;
}

void RenderCaseEvidence(const Page& page, const Row& row, const Evidence* evidence,
                        std::string* out) {
  *out += "<p>" + E(row.format) + " · " + E(row.operation) + " · " + E(row.level) + " · " +
          std::string(GroundName(row.ground)) + (row.flag.empty() ? "" : " " + E(row.flag));
  if (evidence) {
    *out += " · case <code>" + E(row.id) + "</code> of <code class=\"vector\">" +
            E(evidence->vector) + "</code>";
  }
  *out += "</p>\n";
  if (evidence && !evidence->files.empty()) {
    *out += "<p class=\"files\">The case&#39;s files (from the ARCS checkout&#39;s root):";
    for (const std::string& file : evidence->files) *out += " " + FileLink(file);
    *out += "</p>\n";
  }
  RenderRequirements(page, row, out);
  if (!evidence) return;
  if (!evidence->spec_text.empty()) {
    *out += "<h4>What the spec says</h4>\n<blockquote class=\"spec\">" +
            SpecText(evidence->spec_text) + "</blockquote>\n";
  }
  if (!evidence->inputs.empty()) *out += "<h4>Input</h4>\n";
  for (const Blob& input : evidence->inputs) *out += BlobHeading(input, "input") + BlobBody(input);
  if (!evidence->expected_properties.empty()) {
    *out +=
        "<h4>The vector also expects</h4>\n<pre>" + ET(evidence->expected_properties) + "</pre>\n";
  }
}

void RenderAnswerEvidence(const CaseResult& c, std::string_view implementation, std::string* out) {
  if (!c.evidence) return;
  RenderFindings(c, *c.evidence, implementation, out);
  RenderOutputs(*c.evidence, implementation, out);
}

}  // namespace arcs::report::html
