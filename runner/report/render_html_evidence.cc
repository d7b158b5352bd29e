// The evidence of a failure on the HTML page (render_html_internal.h): inputs as text or hex,
// the vector's expectation, the findings against the vector's rule ids, and the outputs against
// the reference's as a line diff. Every piece of it is untrusted text, escaped.
#include <set>

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

// The verdict and findings against the vector's rule ids: both id sets, and what each lacks.
void RenderFindings(const CaseResult& c, const Evidence& e, std::string* out) {
  if (e.verdict.empty() && e.findings.empty() && e.expected_errors.empty() &&
      e.expected_warnings.empty()) {
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
    return;
  }
  *out += "<h5>Verdict and findings</h5>\n<p>verdict: <b>" +
          (e.verdict.empty() ? std::string("none given") : E(e.verdict)) + "</b>";
  if (!c.rules.empty()) {
    *out += "; rule ids <b>" + E(c.rules) + "</b> with the vector&#39;s (informative)";
  }
  std::string of_findings;
  if (e.findings_total > e.findings.size()) {
    of_findings = " (from the first " + std::to_string(e.findings.size()) + " of " +
                  std::to_string(e.findings_total) + " findings)";
  }
  *out += "</p>\n<dl class=\"ea ids\"><dt>the vector expects</dt><dd>errors: " + E(Join(errors)) +
          "; warnings: " + E(Join(warnings)) + "</dd><dt>reported</dt><dd>" + E(Join(reported)) +
          of_findings + "</dd><dt>expected, not reported</dt><dd>" + E(Join(missing)) +
          "</dd><dt>reported, not expected</dt><dd>" + E(Join(extra)) + "</dd></dl>\n";
  if (e.findings.empty()) return;
  std::string table =
      "<table class=\"findings\"><thead><tr><th>rule</th><th>severity</th><th>line</th>"
      "<th>message</th></tr></thead><tbody>\n";
  for (const FindingEvidence& f : e.findings) {
    table += "<tr><td>" + E(f.rule) + "</td><td>" + E(f.severity) + "</td><td class=\"n\">" +
             (f.line ? std::to_string(f.line) : "") + "</td><td class=\"text\">" + ET(f.message) +
             "</td></tr>\n";
  }
  *out += Scrolling(table + "</tbody></table>");
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
            E(r.section) + " " + E(r.level) + ": " + ET(r.text) + "</li>\n";
  }
  *out += "</ul>\n";
}

}  // namespace

void RenderCaseEvidence(const Page& page, const Row& row, const Evidence* evidence,
                        std::string* out) {
  *out += "<p>" + E(row.format) + " · " + E(row.operation) + " · " + E(row.level) + " · " +
          std::string(GroundName(row.ground)) + (row.flag.empty() ? "" : " " + E(row.flag));
  if (evidence) *out += " · vector <code class=\"vector\">" + E(evidence->vector) + "</code>";
  *out += "</p>\n";
  RenderRequirements(page, row, out);
  if (!evidence) return;
  if (!evidence->spec_text.empty()) {
    *out += "<h4>What the spec says</h4>\n<blockquote class=\"spec\">" + ET(evidence->spec_text) +
            "</blockquote>\n";
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
  RenderFindings(c, *c.evidence, out);
  RenderOutputs(*c.evidence, implementation, out);
}

}  // namespace arcs::report::html
