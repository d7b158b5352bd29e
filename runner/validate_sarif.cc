#include "runner/validate_sarif.h"

#include "conformance/registry.h"
#include "reference/core/json.h"
#include "reference/core/version.h"
#include "runner/report/escape.h"
#include "runner/validate_explain.h"

namespace arcs::runner {
namespace {

// The schema the OASIS standard (errata 01) publishes; GitHub reads logs that name it.
constexpr std::string_view kSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
// A rule's shortDescription is its title in code-scanning UIs: a line, not a paragraph.
constexpr std::size_t kShortDescriptionBytes = 200;

std::string_view SarifLevel(Level level) {
  switch (level) {
    case Level::kMust:
      return "error";
    case Level::kShould:
      return "warning";
    case Level::kMay:
      return "note";
  }
  return "error";
}

// {"text":...}, the SARIF message object.
void AppendMessage(std::string_view name, std::string_view text, std::string* out) {
  std::string message = "{";
  json::AppendMember("text", report::ValidUtf8(text), &message);
  message += "}";
  json::AppendRawMember(name, message, out);
}

// A location in `path` (standard input has none to give), at `where` when given. SARIF lines and
// columns are 1-based, as ours are; the region is where the text output shows the finding
// (ShownLine, ShownColumn: a finding about the whole file at 1:1), so that the outputs agree.
std::string LocationJson(std::string_view path, const Location* where) {
  std::string artifact = "{";
  if (path == "-") {
    AppendMessage("description", "standard input", &artifact);
  } else {
    json::AppendMember("uri", ArtifactUri(path), &artifact);
  }
  artifact += "}";
  std::string physical = "{";
  json::AppendRawMember("artifactLocation", artifact, &physical);
  if (where) {
    std::string region = "{";
    json::AppendRawMember("startLine", std::to_string(ShownLine(*where)), &region);
    json::AppendRawMember("startColumn", std::to_string(ShownColumn(*where)), &region);
    region += "}";
    json::AppendRawMember("region", region, &physical);
  }
  physical += "}";
  std::string location = "{";
  json::AppendRawMember("physicalLocation", physical, &location);
  return location + "}";
}

// The rule's reportingDescriptor: its catalogue entry, when the catalogue has it, and where the
// spec states it (RuleHelpUri) when the spec is at hand.
void AppendRule(std::string_view id, std::string_view format, const std::string& specs_dir,
                std::string* out) {
  *out += "{";
  json::AppendMember("id", id, out);
  const conformance::FormatModule* f = conformance::FindFormat(format);
  const conformance::Requirement* r = f ? f->BuiltInCatalogue().Find(id) : nullptr;
  if (r) {
    if (const std::string uri = RuleHelpUri({f, r}, specs_dir); !uri.empty()) {
      json::AppendMember("helpUri", uri, out);
    }
    AppendMessage("shortDescription", report::Truncate(r->text, kShortDescriptionBytes), out);
    AppendMessage("fullDescription", r->text, out);
    AppendMessage("help", ExplainText({f, r}), out);
    std::string configuration = "{";
    json::AppendMember("level", SarifLevel(r->level), &configuration);
    json::AppendRawMember("defaultConfiguration", configuration + "}", out);
    std::string properties = "{";
    json::AppendMember("format", f->name, &properties);
    json::AppendMember("spec", f->spec, &properties);
    json::AppendMember("section", r->section, &properties);
    json::AppendMember("level", r->keyword_level, &properties);
    json::AppendMember("coverage", r->coverage, &properties);
    json::AppendRawMember("properties", properties + "}", out);
  }
  *out += "}";
}

}  // namespace

std::string ArtifactUri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = path.starts_with('/') ? "file://" : "";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
                            (byte >= '0' && byte <= '9') || c == '-' || c == '.' || c == '_' ||
                            c == '~' || c == '/';
    if (unreserved) {
      uri += c;
    } else {
      uri += '%';
      uri += kHex[byte >> 4];
      uri += kHex[byte & 0xF];
    }
  }
  return uri;
}

std::string SarifLog::Begin() {
  std::string out = "{";
  json::AppendMember("$schema", kSchema, &out);
  json::AppendMember("version", "2.1.0", &out);
  return out + ",\"runs\":[{\"results\":[";
}

std::size_t SarifLog::RuleIndex(std::string_view id, std::string_view format) {
  auto it = rule_index_.find(id);
  if (it != rule_index_.end()) return it->second;
  rules_.push_back({std::string(id), std::string(format)});
  return rule_index_.emplace(std::string(id), rules_.size() - 1).first->second;
}

void SarifLog::AppendResults(const ValidatedFile& file, std::string* out) {
  for (const Finding& f : file.diagnostics.findings()) {
    if (!Shown(file, f)) continue;
    if (results_++ > 0) *out += ",";
    *out += "{";
    json::AppendMember("ruleId", f.rule_id, out);
    json::AppendRawMember("ruleIndex", std::to_string(RuleIndex(f.rule_id, file.format)), out);
    json::AppendMember("level", SeverityName(f.severity), out);
    AppendMessage(
        "message",
        f.location.pointer.empty() ? f.message : f.message + " (at " + f.location.pointer + ")",
        out);
    json::AppendRawMember("locations", "[" + LocationJson(file.name, &f.location) + "]", out);
    if (!f.reading.empty()) {  // an errata reading, not the text: a warning unless --strict
      std::string properties = "{";
      json::AppendMember("reading", f.reading, &properties);
      json::AppendRawMember("properties", properties + "}", out);
    }
    *out += "}";
  }
  if (file.diagnostics.dropped_count() > 0) {
    AddNotification(file.name, "note",
                    std::to_string(file.diagnostics.dropped_count()) + " more findings not shown");
  }
}

void SarifLog::AddNotification(std::string_view path, std::string_view level,
                               std::string_view message) {
  if (!notifications_.empty()) notifications_ += ",";
  notifications_ += "{";
  AppendMessage("message", message, &notifications_);
  json::AppendMember("level", level, &notifications_);
  json::AppendRawMember("locations", "[" + LocationJson(path, nullptr) + "]", &notifications_);
  notifications_ += "}";
}

void SarifLog::AddFailure(std::string_view path, std::string_view message) {
  failed_ = true;
  AddNotification(path, "error", message);
}

void SarifLog::AppendEnd(std::string* out) const {
  std::string rules = "[";
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    if (i) rules += ",";
    AppendRule(rules_[i].id, rules_[i].format, specs_dir_, &rules);
  }
  std::string driver = "{";
  json::AppendMember("name", "arcs", &driver);
  json::AppendMember("version", kArcsVersion, &driver);
  json::AppendRawMember("rules", rules + "]", &driver);
  std::string invocation = "{";
  json::AppendRawMember("executionSuccessful", failed_ ? "false" : "true", &invocation);
  if (!notifications_.empty()) {
    json::AppendRawMember("toolExecutionNotifications", "[" + notifications_ + "]", &invocation);
  }
  *out += "]";
  json::AppendRawMember("tool", "{\"driver\":" + driver + "}}", out);
  json::AppendRawMember("invocations", "[" + invocation + "}]", out);
  *out += "}]}\n";
}

}  // namespace arcs::runner
