#include "runner/validate_output.h"

#include "reference/core/base64.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"
#include "runner/cli.h"
#include "runner/report/escape.h"

namespace arcs::runner {
namespace {

// gcc's default colours (GCC_COLORS): the locus bold, errors bold red, warnings bold magenta,
// notes bold cyan.
std::string InSeverityColor(const Paint& paint, Severity severity, std::string_view text) {
  switch (severity) {
    case Severity::kError:
      return paint.Red(text);
    case Severity::kWarning:
      return paint.Magenta(text);
    case Severity::kNote:
      return paint.Cyan(text);
  }
  return paint.Bold(text);
}

void AppendFindingJson(const Finding& f, std::string* out) {
  *out += "{\"rule\":";
  json::AppendQuoted(f.rule_id, out);
  *out += ",\"level\":\"" + std::string(LevelName(f.level)) + "\",\"severity\":\"" +
          std::string(SeverityName(f.severity)) +
          "\",\"line\":" + std::to_string(ShownLine(f.location)) +
          ",\"column\":" + std::to_string(ShownColumn(f.location));
  if (f.location.line == 0) *out += ",\"whole_file\":true";
  *out += ",\"pointer\":";
  json::AppendQuoted(report::ValidUtf8(f.location.pointer), out);
  *out += ",\"message\":";
  json::AppendQuoted(report::ValidUtf8(f.message), out);
  if (!f.reading.empty()) json::AppendMember("reading", f.reading, out);
  *out += "}";
}

// "1 file", "2 files".
std::string Counted(std::uint64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace

std::uint64_t ShownLine(const Location& location) { return location.line == 0 ? 1 : location.line; }

std::uint64_t ShownColumn(const Location& location) {
  return location.line == 0 || location.column == 0 ? 1 : location.column;
}

bool Shown(const ValidatedFile& file, const Finding& finding) {
  return !file.errors_only || finding.severity == Severity::kError;
}

void AppendValidateText(const ValidatedFile& file, std::string* out, bool color) {
  const Paint paint(color);
  const Diagnostics& d = file.diagnostics;
  const std::string name = Printable(file.name);
  for (const Finding& f : d.findings()) {
    if (!Shown(file, f)) continue;
    *out += paint.Bold(name + ":" + std::to_string(ShownLine(f.location)) + ":" +
                       std::to_string(ShownColumn(f.location)) + ":") +
            " " + InSeverityColor(paint, f.severity, std::string(SeverityName(f.severity)) + ":") +
            " " + Printable(f.message);
    if (!f.location.pointer.empty()) {
      *out += " (at " + Printable(f.location.pointer) + ")";
    }
    *out += " [" + InSeverityColor(paint, f.severity, Printable(f.rule_id)) +
            (f.reading.empty() ? "" : ", reading " + f.reading) + "]\n";
  }
  if (d.dropped_count() > 0) {
    *out += paint.Bold(name + ":") + " " + paint.Cyan("note:") + " " +
            std::to_string(d.dropped_count()) + " more findings not shown\n";
  }
}

void AppendValidateJson(const ValidatedFile& file, std::string* out) {
  const Diagnostics& d = file.diagnostics;
  const std::string name = report::ValidUtf8(file.name);
  *out += "{";
  json::AppendMember("file", name, out);
  if (name != file.name) json::AppendMember("file_base64", base64::Encode(file.name), out);
  json::AppendMember("format", file.format, out);
  *out += ",\"valid\":" + std::string(d.has_errors() ? "false" : "true") +
          ",\"errors\":" + std::to_string(d.error_count()) +
          ",\"warnings\":" + std::to_string(d.warning_count()) +
          ",\"dropped\":" + std::to_string(d.dropped_count()) +
          ",\"ignored\":" + std::to_string(d.ignored_count()) + ",\"findings\":[";
  bool first = true;
  for (const Finding& f : d.findings()) {
    if (!Shown(file, f)) continue;
    if (!first) *out += ",";
    first = false;
    AppendFindingJson(f, out);
  }
  *out += "]}";
}

void ValidateTally::Add(const Diagnostics& diagnostics) {
  ++checked;
  if (diagnostics.has_errors()) ++invalid;
  errors += diagnostics.error_count();
  warnings += diagnostics.warning_count();
  ignored += diagnostics.ignored_count();
}

std::string TallyText(const ValidateTally& tally) {
  std::string text = Counted(tally.checked, "file") + " checked: " + std::to_string(tally.invalid) +
                     " invalid, " + Counted(tally.errors, "error") + ", " +
                     Counted(tally.warnings, "warning");
  if (tally.ignored > 0) text += " (" + std::to_string(tally.ignored) + " ignored)";
  if (tally.unchecked > 0) text += "; " + std::to_string(tally.unchecked) + " could not be checked";
  return text;
}

void AppendTallyJson(const ValidateTally& tally, std::string* out) {
  *out += "{\"checked\":" + std::to_string(tally.checked) +
          ",\"invalid\":" + std::to_string(tally.invalid) +
          ",\"errors\":" + std::to_string(tally.errors) +
          ",\"warnings\":" + std::to_string(tally.warnings) +
          ",\"ignored\":" + std::to_string(tally.ignored) +
          ",\"unchecked\":" + std::to_string(tally.unchecked) + "}";
}

}  // namespace arcs::runner
