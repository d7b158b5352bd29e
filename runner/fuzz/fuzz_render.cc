// RenderFuzzMarkdown and RenderFuzzHtml (fuzz_render.h). What both say is built once as plain
// text (RunLine, Fields, InputLine, ...) and escaped by each rendering for its own markup.
#include "runner/fuzz/fuzz_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reference/core/strings.h"
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/render_parts.h"
#include "runner/report/report.h"

namespace arcs::fuzz {
namespace {

using report::EscapeMarkdown;
using report::EscapeXml;
using Growth = std::vector<std::pair<double, std::size_t>>;

// Long untrusted text (a detail, a name) is cut so that one answer cannot swamp the report; the
// JSON summary (--summary) keeps all of it.
constexpr std::size_t kMaxTextBytes = 2000;

constexpr std::string_view kOpenMeaning =
    "disagreements with the ARCS reference on an outcome the spec may leave to the implementation "
    "(a policy, or an ambiguous passage): counted, not findings, as neither answer need be wrong";
constexpr std::string_view kNoFindings =
    "No findings: on every mutant the implementation agreed with the ARCS reference, or differed "
    "only where the spec may leave the outcome to the implementation.";
constexpr std::string_view kAboutFindings =
    "Each finding is a disagreement with the ARCS reference that no open passage of the spec "
    "explains (or a crash, timeout, protocol error or errored answer), minimized. Either side may "
    "be wrong: what the reference says is not the expectation, which is for a person to fill in "
    "from the spec text.";
constexpr std::string_view kNoGrowth =
    "The corpus did not grow: no mutant made either side say something new.";

std::string H(std::string_view text) { return EscapeXml(report::Truncate(text, kMaxTextBytes)); }
std::string M(std::string_view text) {
  return EscapeMarkdown(report::Truncate(text, kMaxTextBytes));
}

std::string Decimal(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string Title(const FuzzReport& r) {
  return "ARCS fuzz report: " + (r.implementation.empty() ? "(no name)" : r.implementation);
}

// The run in one sentence, numbers only.
std::string RunLine(const FuzzReport& r) {
  const double rate = r.seconds > 0 ? static_cast<double>(r.execs) / r.seconds : 0;
  std::string line = std::to_string(r.execs) + " execs in " + Decimal(r.seconds, 1) + " s (" +
                     Decimal(rate, 0) + " execs/s); corpus: " + std::to_string(r.seeds) +
                     " seeds → " + std::to_string(r.corpus) + " entries";
  if (r.loaded > 0 || r.unreadable > 0) {
    line += " (corpus folder: " + std::to_string(r.loaded) + " entries read, " +
            std::to_string(r.unreadable) + " unreadable)";
  }
  if (r.undeclared > 0) {
    line +=
        "; seeds the implementation does not declare, left out: " + std::to_string(r.undeclared);
  }
  line += "; compared: " + std::to_string(r.compared) + ", skipped: " + std::to_string(r.skipped);
  line += "; restarts: " + std::to_string(r.restarts) + ".";
  return r.interrupted ? line + " The run was stopped before its budget was spent." : line;
}

// What the findings section says when there is none: clean only when answers were compared.
std::string NoFindings(const FuzzReport& r) {
  if (r.compared > 0) return std::string(kNoFindings);
  return "Nothing compared, so nothing shown: " + NothingCompared(r) + ".";
}

std::string OpenLine(const FuzzReport& r) {
  return "Open disagreements: " + std::to_string(r.open_disagreements) + " (" +
         std::string(kOpenMeaning) + ").";
}

// Under the growth table, when it leaves points out.
std::string ThinnedNote(const FuzzReport& r) {
  const std::size_t shown = ThinGrowth(r.growth).size();
  if (shown == r.growth.size()) return "";
  return std::to_string(shown) + " of the " + std::to_string(r.growth.size()) +
         " times the corpus grew, evenly spaced, the first and the last included.";
}

struct Field {
  std::string label;
  std::string value;
};

// A finding's facts, as (label, value); both may hold untrusted text.
std::vector<Field> Fields(const FuzzReport& r, const Finding& f) {
  const std::string name = r.implementation.empty() ? "the implementation" : r.implementation;
  std::vector<Field> fields = {
      {"kind", f.kind},
      {"format / operation", f.format + " / " + f.operation},
      {"origin", f.origin},
      {"mutations", f.mutations},
      {name + " says", f.implementation_outcome},
      {"the ARCS reference says", f.reference_outcome},
      {"rule ids", f.rules.empty() ? "none" : Join(f.rules)},
  };
  if (!f.detail.empty()) fields.push_back({"detail", f.detail});
  if (!f.args.empty()) fields.push_back({"args", f.args});
  fields.push_back({"found", "at run " + std::to_string(f.found_at)});
  return fields;
}

std::string MinimizedFrom(const Finding& f) {
  return (f.inputs.size() == 1 ? "Input, minimized from " : "Inputs, minimized from ") +
         std::to_string(f.found_bytes) + " bytes";
}

// An input as the reports show it: the first kMaxEvidenceBytes, as text or in hex.
struct InputEvidence {
  std::size_t size = 0;
  bool text = false;
  std::string kept;
};

InputEvidence AsEvidence(std::string_view bytes) {
  // Plain text is what a terminal would show as it is: valid UTF-8 with no control character
  // but LF and tab and no bidirectional control. Anything else is dumped in hex, so that a person
  // sees the very bytes (a CR, a NUL, a broken sequence) the finding may hinge on.
  const bool text = PrintableDocument(bytes) == bytes;
  return {bytes.size(), text,
          text ? report::MakeBlob("", bytes).content
               : std::string(bytes.substr(0, report::kMaxEvidenceBytes))};
}

// "33 bytes, text", "9000 bytes, in hex (not plain text), first 4096 of 9000 bytes".
std::string InputLine(const InputEvidence& s) {
  std::string line =
      std::to_string(s.size) + (s.text ? " bytes, text" : " bytes, in hex (not plain text)");
  if (s.kept.size() < s.size) {
    line += ", first " + std::to_string(s.kept.size()) + " of " + std::to_string(s.size) + " bytes";
  }
  return line;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    lines.push_back(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

// `text` as a code span when it can be one as it is (printable ASCII with nothing a code span,
// an autolink or a mention would take), so that a command copies exactly; escaped otherwise.
std::string MarkdownCode(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && std::string_view("`<>&@").find(c) == std::string_view::npos;
  });
  return plain ? "`" + std::string(text) + "`" : EscapeMarkdown(text);
}

void MarkdownGrowth(const FuzzReport& r, std::string* out) {
  *out += "\n## Corpus growth\n\n";
  if (r.growth.empty()) {
    *out += std::string(kNoGrowth) + "\n";
    return;
  }
  *out += report::MarkdownHeader({"seconds", "corpus"}, 0);
  for (const auto& [seconds, size] : ThinGrowth(r.growth)) {
    *out += report::MarkdownRow({Decimal(seconds, 2), std::to_string(size)});
  }
  if (const std::string note = ThinnedNote(r); !note.empty()) *out += "\n" + note + "\n";
}

// Where the first mutant of an open disagreement came from.
std::string FirstMet(const OpenDisagreement& o) {
  return o.origin + " by " + o.mutations + ", at run " + std::to_string(o.found_at);
}

constexpr std::string_view kOpenHeading = "Open disagreements, by signature";

void MarkdownOpen(const FuzzReport& r, std::string* out) {
  if (r.open.empty()) return;
  *out += "\n## " + std::string(kOpenHeading) + "\n\n" +
          report::MarkdownHeader(
              {"signature", "why the spec may leave it open", "first met", "times"}, 3);
  for (const OpenDisagreement& o : r.open) {
    *out += report::MarkdownRow({report::MarkdownCell(o.signature), report::MarkdownCell(o.reason),
                                 report::MarkdownCell(FirstMet(o)), std::to_string(o.count)});
  }
}

std::string MarkdownInput(const std::string& name, std::string_view bytes) {
  const InputEvidence s = AsEvidence(bytes);
  std::string out = "\ninput **" + M(name) + "**: " + InputLine(s) + "\n\n";
  if (s.kept.empty()) return out;
  if (s.text) {
    out += report::MarkdownHeader({"line", "text"}, 2);
    std::size_t number = 0;
    for (std::string_view line : Lines(s.kept)) {
      out += report::MarkdownRow({std::to_string(++number), EscapeMarkdown(line)});
    }
    return out;
  }
  out += report::MarkdownHeader({"offset", "hex", "text"}, 3);
  for (const report::HexRow& row : report::HexRows(s.kept)) {
    out += report::MarkdownRow(
        {report::HexOffset(row.offset), "`" + row.hex + "`", EscapeMarkdown(row.ascii)});
  }
  return out;
}

void MarkdownFinding(const FuzzReport& r, const Finding& f, std::size_t number,
                     std::string_view reproduce, std::string* out) {
  *out += "\n### " + std::to_string(number) + ". " + M(f.signature) + "\n\n";
  for (const Field& field : Fields(r, f)) {
    *out += "- " + M(field.label) + ": " + M(field.value) + "\n";
  }
  *out += "\n" + MinimizedFrom(f) + ":\n";
  for (const auto& [name, bytes] : f.inputs) *out += MarkdownInput(name, bytes);
  *out += "\nReproduce: " + MarkdownCode(ReproduceCommand(reproduce, f)) + "\n";
}

// Where the growth chart puts a time and a corpus size: the plot spans x kLeft..kRight over the
// run, and y kBottom..kTop over the sizes met, the seeds' included.
class ChartScale {
 public:
  static constexpr int kLeft = 70, kRight = 630, kTop = 10, kBottom = 170;

  explicit ChartScale(const FuzzReport& r)
      : end_(std::max(r.seconds, r.growth.back().first)), low_(r.seeds), high_(r.seeds) {
    for (const auto& [seconds, size] : r.growth) {
      low_ = std::min(low_, size);
      high_ = std::max(high_, size);
    }
  }

  double end() const { return end_; }
  std::size_t low() const { return low_; }
  std::size_t high() const { return high_; }

  int X(double seconds) const {
    return kLeft +
           (end_ > 0 ? static_cast<int>(std::lround(seconds / end_ * (kRight - kLeft))) : 0);
  }
  int Y(std::size_t size) const {
    const double share = high_ > low_ ? static_cast<double>(size - low_) / (high_ - low_) : 0;
    return kBottom - static_cast<int>(std::lround(share * (kBottom - kTop)));
  }

 private:
  double end_;
  std::size_t low_, high_;
};

// The growth as steps, from the seeds at 0 s to the end of the run. Points within a pixel share
// one step and steps too small to see are left out, so a long run makes no longer a path.
std::string StepPath(const FuzzReport& r, const ChartScale& scale) {
  std::vector<std::pair<int, int>> points = {{scale.X(0), scale.Y(r.seeds)}};
  for (const auto& [seconds, size] : r.growth) {
    if (scale.X(seconds) == points.back().first) {
      points.back().second = scale.Y(size);
    } else if (scale.Y(size) != points.back().second) {
      points.emplace_back(scale.X(seconds), scale.Y(size));
    }
  }
  std::string path = "M" + std::to_string(points[0].first) + "," + std::to_string(points[0].second);
  for (std::size_t i = 1; i < points.size(); ++i) {
    path += " H" + std::to_string(points[i].first) + " V" + std::to_string(points[i].second);
  }
  const int end = scale.X(scale.end());
  return end > points.back().first ? path + " H" + std::to_string(end) : path;
}

std::string ChartLabel(int x, int y, std::string_view anchor, const std::string& text) {
  return "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" text-anchor=\"" +
         std::string(anchor) + "\" font-size=\"12\" fill=\"#444\">" + text + "</text>";
}

// The growth as a step chart: inline SVG drawn with presentation attributes only, so that the
// page's CSP needs nothing for it. Numbers only, no untrusted text.
std::string GrowthChart(const FuzzReport& r) {
  using S = ChartScale;
  const ChartScale scale(r);
  const std::string summary = "the corpus from " + std::to_string(r.seeds) + " seeds to " +
                              std::to_string(r.corpus) + " entries in " + Decimal(scale.end(), 1) +
                              " s";
  return "<svg width=\"640\" height=\"200\" viewBox=\"0 0 640 200\" role=\"img\" aria-label=\"" +
         summary + "\"><title>" + summary + "</title><path d=\"M" + std::to_string(S::kLeft) + "," +
         std::to_string(S::kTop) + " V" + std::to_string(S::kBottom) + " H" +
         std::to_string(S::kRight) + "\" fill=\"none\" stroke=\"#999\"/><path d=\"" +
         StepPath(r, scale) + "\" fill=\"none\" stroke=\"#36c\" stroke-width=\"2\"/>" +
         ChartLabel(S::kLeft - 6, S::kTop + 4, "end", std::to_string(scale.high())) +
         ChartLabel(S::kLeft - 6, S::kBottom, "end", std::to_string(scale.low())) +
         ChartLabel(S::kLeft, S::kBottom + 20, "start", "0 s") +
         ChartLabel(S::kRight, S::kBottom + 20, "end", Decimal(scale.end(), 1) + " s") + "</svg>";
}

void HtmlGrowth(const FuzzReport& r, std::string* out) {
  *out += "<h2 id=\"growth\">Corpus growth</h2>\n";
  if (r.growth.empty()) {
    *out += "<p>" + std::string(kNoGrowth) + "</p>\n";
    return;
  }
  std::string table =
      "<table id=\"growth-table\"><thead><tr><th>seconds</th><th>corpus</th></tr></thead>"
      "<tbody>\n";
  for (const auto& [seconds, size] : ThinGrowth(r.growth)) {
    table += "<tr><td class=\"n\">" + Decimal(seconds, 2) + "</td><td class=\"n\">" +
             std::to_string(size) + "</td></tr>\n";
  }
  *out += "<div class=\"scroll\">" + GrowthChart(r) + "</div>\n<div class=\"scroll\">" + table +
          "</tbody></table></div>\n";
  if (const std::string note = ThinnedNote(r); !note.empty()) {
    *out += "<p class=\"dim\">" + note + "</p>\n";
  }
}

void HtmlOpen(const FuzzReport& r, std::string* out) {
  if (r.open.empty()) return;
  std::string table =
      "<table id=\"open-table\"><thead><tr><th>signature</th><th>why the spec may leave it open"
      "</th><th>first met</th><th>times</th></tr></thead><tbody>\n";
  for (const OpenDisagreement& o : r.open) {
    table += "<tr><td class=\"text\">" + H(o.signature) + "</td><td class=\"text\">" + H(o.reason) +
             "</td><td class=\"text\">" + H(FirstMet(o)) + "</td><td class=\"n\">" +
             std::to_string(o.count) + "</td></tr>\n";
  }
  *out += "<h2 id=\"open\">" + std::string(kOpenHeading) + "</h2>\n<div class=\"scroll\">" + table +
          "</tbody></table></div>\n";
}

std::string HtmlInput(const std::string& name, std::string_view bytes) {
  const InputEvidence s = AsEvidence(bytes);
  std::string out =
      "<div class=\"blob-h\">input <b>" + H(name) + "</b>: " + InputLine(s) + "</div>\n";
  if (s.kept.empty()) return out;
  if (s.text) return out + "<pre>" + EscapeXml(s.kept) + "</pre>\n";
  return out + "<pre class=\"hex\">" + EscapeXml(report::HexDump(s.kept)) + "</pre>\n";
}

void HtmlFinding(const FuzzReport& r, const Finding& f, std::size_t number,
                 std::string_view reproduce, std::string* out) {
  const std::string n = std::to_string(number);
  *out += "<details class=\"case\" id=\"finding-" + n + "\" open=\"\"><summary>" + n + ". <code>" +
          H(f.signature) + "</code></summary>\n<dl class=\"ea\">";
  for (const Field& field : Fields(r, f)) {
    *out += "<dt>" + H(field.label) + "</dt><dd>" + H(field.value) + "</dd>";
  }
  *out += "</dl>\n<h4>" + MinimizedFrom(f) + "</h4>\n";
  for (const auto& [name, bytes] : f.inputs) *out += HtmlInput(name, bytes);
  *out += "<h4>Reproduce</h4>\n<pre>" + EscapeXml(ReproduceCommand(reproduce, f)) +
          "</pre>\n</details>\n";
}

}  // namespace

std::string NothingCompared(const FuzzReport& report) {
  if (report.seeds == 0 && report.undeclared > 0) {
    return "the hello of the implementation declares none of the selected formats and operations "
           "(" +
           std::to_string(report.undeclared) + " seeds left out)";
  }
  if (report.execs > 0 && report.skipped == report.execs) {
    return "the implementation skipped all " + std::to_string(report.execs) + " cases";
  }
  if (report.interrupted) return "the run was stopped before any answer came";
  return "no answer of the implementation could be compared with the reference's (" +
         std::to_string(report.execs) + " cases tried)";
}

Growth ThinGrowth(const Growth& growth) {
  if (growth.size() <= kMaxGrowthRows) return growth;
  // Row k of kMaxGrowthRows is point k * (n - 1) / (kMaxGrowthRows - 1): 0 first, n - 1 last,
  // and no point twice, as the step is more than one.
  Growth rows;
  const std::size_t last = growth.size() - 1;
  for (std::size_t k = 0; k < kMaxGrowthRows; ++k) {
    rows.push_back(growth[k * last / (kMaxGrowthRows - 1)]);
  }
  return rows;
}

std::string RenderFuzzMarkdown(const FuzzReport& r, std::string_view reproduce) {
  std::string out = "# " + M(Title(r)) + "\n\n";
  if (!r.error.empty()) out += "**The run stopped before it began:** " + M(r.error) + "\n\n";
  out += RunLine(r) + "\n\n" + OpenLine(r) + "\n";
  MarkdownGrowth(r, &out);
  MarkdownOpen(r, &out);
  out += "\n## Findings (" + std::to_string(r.findings.size()) + ")\n\n";
  out += (r.findings.empty() ? M(NoFindings(r)) : std::string(kAboutFindings)) + "\n";
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    MarkdownFinding(r, r.findings[i], i + 1, reproduce, &out);
  }
  return out;
}

std::string RenderFuzzHtml(const FuzzReport& r, std::string_view reproduce) {
  const std::string_view style = report::ReportPageStyle();
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
      report::ContentSecurityPolicy(style) +
      "\">\n<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      H(Title(r)) + "</title>\n<style>" + std::string(style) + "</style>\n</head>\n<body>\n<h1>" +
      H(Title(r)) + "</h1>\n";
  if (!r.error.empty()) {
    out += "<p class=\"warn\">The run stopped before it began: " + H(r.error) + "</p>\n";
  }
  out += "<p>" + RunLine(r) + "</p>\n<p>" + OpenLine(r) +
         "</p>\n<nav><a href=\"#growth\">Corpus growth</a> " +
         (r.open.empty() ? "" : "<a href=\"#open\">Open disagreements</a> ") +
         "<a href=\"#findings\">Findings</a></nav>\n";
  HtmlGrowth(r, &out);
  HtmlOpen(r, &out);
  out += "<h2 id=\"findings\">Findings (" + std::to_string(r.findings.size()) + ")</h2>\n<p>" +
         (r.findings.empty() ? H(NoFindings(r)) : std::string(kAboutFindings)) + "</p>\n";
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    HtmlFinding(r, r.findings[i], i + 1, reproduce, &out);
  }
  return out + "</body>\n</html>\n";
}

}  // namespace arcs::fuzz
