#include "runner/validate_output.h"

#include "reference/core/base64.h"
#include "reference/core/json.h"
#include "runner/report/escape.h"

namespace arcs::runner {
namespace {

void AppendFindingJson(const Finding& f, std::string* out) {
  *out += "{\"rule\":";
  json::AppendQuoted(f.rule_id, out);
  *out += ",\"level\":\"" + std::string(LevelName(f.level)) + "\",\"severity\":\"" +
          std::string(SeverityName(f.severity)) + "\",\"line\":" + std::to_string(f.location.line) +
          ",\"column\":" + std::to_string(f.location.column) + ",\"pointer\":";
  json::AppendQuoted(report::ValidUtf8(f.location.pointer), out);
  *out += ",\"message\":";
  json::AppendQuoted(report::ValidUtf8(f.message), out);
  *out += "}";
}

}  // namespace

void AppendValidateText(const ValidatedFile& file, std::string* out) {
  const Diagnostics& d = file.diagnostics;
  const std::string name = report::EscapeTerminal(file.name);
  for (const Finding& f : d.findings()) {
    *out += name + ":" + std::to_string(f.location.line) + ": " + f.rule_id + " " +
            std::string(LevelName(f.level)) + " " + report::EscapeTerminal(f.message);
    if (!f.location.pointer.empty()) {
      *out += " (at " + report::EscapeTerminal(f.location.pointer) + ")";
    }
    *out += "\n";
  }
  if (d.dropped_count() > 0) {
    *out += name + ":0: ... " + std::to_string(d.dropped_count()) + " more findings not shown\n";
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
          ",\"dropped\":" + std::to_string(d.dropped_count()) + ",\"findings\":[";
  for (std::size_t i = 0; i < d.findings().size(); ++i) {
    if (i) *out += ",";
    AppendFindingJson(d.findings()[i], out);
  }
  *out += "]}";
}

}  // namespace arcs::runner
