// RenderMarkdown (render.h).
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/render_common.h"
#include "runner/report/render_parts.h"

namespace arcs::report {
namespace {

using internal::CountColumns;

std::vector<std::string> CountHeader(std::vector<std::string> leading) {
  for (const auto& [name, value] : CountColumns(Counts{})) leading.emplace_back(name);
  return leading;
}

std::vector<std::string> CountCells(std::vector<std::string> leading, const Counts& counts) {
  for (const auto& [name, value] : CountColumns(counts)) leading.push_back(std::to_string(value));
  return leading;
}

// Per format, how the implementation read each ambiguous passage its cases depend on.
void RenderReadings(const ImplementationReport& impl, std::string* out) {
  std::string rows;
  for (const FormatSummary& f : impl.formats) {
    for (const FlagSummary& flag : f.flags) {
      const std::string consistent(internal::ConsistencyText(flag));
      rows += MarkdownRow({MarkdownCell(f.format), MarkdownCell(flag.flag),
                           std::to_string(flag.cases), MarkdownCell(internal::ReadingsTaken(flag)),
                           flag.consistent ? consistent : "**" + MarkdownCell(consistent) + "**"});
    }
  }
  *out += "\n### Readings of ambiguous passages\n\n";
  if (rows.empty()) {
    *out += "No case depends on an ambiguous passage.\n";
    return;
  }
  *out += MarkdownHeader({"format", "flag", "cases", "readings taken", "consistent"}, 5) + rows;
}

// The resource-limit cases with the implementation's peak memory; nothing when there are none.
void RenderResources(const ImplementationReport& impl, std::string* out) {
  std::string rows;
  for (const CaseResult& c : impl.cases) {
    if (c.ground != Ground::kResource) continue;
    rows += MarkdownRow(
        {MarkdownCell(c.id), MarkdownCell(c.format), MarkdownCell(c.operation),
         MarkdownCell(internal::OutcomeText(c)),
         c.peak_rss_bytes == 0 ? "not measured" : internal::ByteSize(c.peak_rss_bytes)});
  }
  if (rows.empty()) return;
  *out += "\n### Resource limits\n\n" +
          MarkdownHeader({"case", "format", "operation", "outcome", "peak memory"}, 5) + rows;
}

// A failure's evidence in one line, where it is cheap: its first input's size and first line (or
// first bytes, in hex), and the vector it comes from. The HTML page shows all of it.
std::string EvidenceLine(const CaseResult& c) {
  if (!c.evidence) return "";
  constexpr std::size_t kFirstLineBytes = 80;
  const Evidence& e = *c.evidence;
  std::string line;
  if (!e.inputs.empty()) {
    const Blob& input = e.inputs.front();
    line = input.name + " (" + std::to_string(input.size) + " bytes): ";
    line += input.encoding == "hex"
                ? "hex " + input.content.substr(0, 2 * 16)
                : Truncate(std::string_view(input.content).substr(0, input.content.find('\n')),
                           kFirstLineBytes);
    if (e.inputs.size() > 1) line += "; " + std::to_string(e.inputs.size() - 1) + " more input(s)";
  }
  if (!e.vector.empty()) line += (line.empty() ? "vector " : "; vector ") + e.vector;
  return line;
}

void RenderImplementation(const ImplementationReport& impl, std::string* out) {
  *out += "\n## " + EscapeMarkdown(impl.name) + " " + EscapeMarkdown(impl.version) + "\n\n";
  *out += "- language: " + MarkdownCell(impl.language) + "\n";
  *out += "- homepage: " + MarkdownCell(impl.homepage) + "\n";
  *out += "- command: " + MarkdownCell(impl.command) + "\n";
  *out += "- restarts: " + std::to_string(impl.restarts) + "\n";
  if (impl.abandoned) {
    *out += "\n**Abandoned** " + std::string(internal::kAbandonedNote) + "\n";
  }

  *out += "\n### Certification\n\n" + std::string(internal::kCertificationRule) + "\n\n" +
          MarkdownHeader({"format", "certification", "how", "missing"}, 4);
  for (const FormatSummary& f : impl.formats) {
    std::string missing;
    for (const std::string& gap : f.missing) {
      missing += (missing.empty() ? "" : "<br>") + EscapeMarkdown(Truncate(gap, kMaxCellBytes));
    }
    *out += MarkdownRow(
        {MarkdownCell(f.format), "**" + MarkdownCell(internal::CertificationText(f)) + "**",
         MarkdownCell(internal::CertificationMeaning(f)), missing.empty() ? "—" : missing});
  }

  *out += "\n";
  for (const FormatSummary& f : impl.formats) {
    *out += "- " + MarkdownCell(f.format) + ": " + internal::StrictLine(f.strict) + "\n";
  }

  *out += "\n### Operations\n\n" +
          MarkdownHeader(CountHeader({"format", "operation", "supported", "level"}), 4);
  for (const FormatSummary& f : impl.formats) {
    for (const OperationSummary& op : f.operations) {
      const std::string supported = op.supported ? "yes" : "no";
      for (const std::string& level : internal::OrderedLevels(op.by_level)) {
        *out += MarkdownRow(CountCells(
            {MarkdownCell(f.format), MarkdownCell(op.operation), supported, MarkdownCell(level)},
            op.by_level.at(level)));
      }
      *out += MarkdownRow(CountCells(
          {MarkdownCell(f.format), MarkdownCell(op.operation), supported, "all"}, op.counts));
    }
  }

  RenderReadings(impl, out);
  RenderResources(impl, out);

  std::string failing;
  std::size_t count = 0;
  for (const CaseResult& c : impl.cases) {
    if (c.outcome == Outcome::kPassed) continue;
    ++count;
    failing += MarkdownRow({MarkdownCell(c.id), MarkdownCell(c.format), MarkdownCell(c.operation),
                            MarkdownCell(c.level), MarkdownCell(internal::GroundText(c)),
                            MarkdownCell(internal::OutcomeText(c)), MarkdownCell(c.expected),
                            MarkdownCell(c.actual), MarkdownCell(c.message),
                            MarkdownCell(EvidenceLine(c))});
  }
  *out += "\n### Cases that did not pass (" + std::to_string(count) + ")\n\n";
  if (count == 0) {
    *out += "Every case passed.\n";
  } else {
    *out += MarkdownHeader({"case", "format", "operation", "level", "ground", "outcome", "expected",
                            "actual", "detail", "evidence"},
                           10) +
            failing;
  }
}

}  // namespace

std::string RenderMarkdown(const Report& report) {
  std::string out = "# ARCS conformance report\n\n";
  if (!report.complete) {
    out += "**Incomplete:** " + std::string(internal::kIncompleteNote) + "\n\n";
  }
  out += internal::RunDescription(report.run, EscapeMarkdown);
  out += "\n\n## Summary\n\n" + MarkdownHeader(CountHeader({"implementation", "version"}), 2);
  for (const ImplementationReport& impl : report.implementations) {
    out += MarkdownRow(
        CountCells({MarkdownCell(impl.name), MarkdownCell(impl.version)}, impl.summary));
  }
  for (const ImplementationReport& impl : report.implementations) {
    RenderImplementation(impl, &out);
  }
  return out;
}

}  // namespace arcs::report
