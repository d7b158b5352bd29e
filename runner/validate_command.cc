#include "runner/validate_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <iostream>

#include "conformance/spool/checker.h"
#include "conformance/vectors.h"
#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/spool/spool.h"

namespace arcs::runner {
namespace {

constexpr char kValidateHelp[] =
    R"(usage: arcs validate [--format spool] [--json] [--limit NAME=VALUE]... FILE...

Checks that each FILE is a conforming recording and prints one line per finding:
  FILE:LINE: RULE-ID LEVEL message
RULE-ID names the requirement in conformance/<format>/requirements.json; LEVEL is the
requirement's level (MUST, SHOULD, MAY). Warnings (SHOULD findings) leave a file valid.
FILE may be - for standard input.

  --format F          the format (spool); default: from the extension, else from the content
  --json              print the findings as one JSON document (schema: see vectors/README.md)
  --limit NAME=VALUE  change a resource limit; names and defaults:
)";

constexpr char kVectorsHelp[] =
    R"(usage: arcs vectors [--manifest PATH] [--report PATH.json] [--markdown PATH.md] [--quiet]

Runs the reference implementation over a vector manifest (default vectors/spool/manifest.json)
and checks every expectation: the validator's verdict and rule ids, the reader's outcome and a
lossless round trip. Exit 0 when every case passes, 1 otherwise, 2 on usage or I/O errors.
)";

struct FileReport {
  std::string name;
  Diagnostics diagnostics;
  std::string io_error;
};

bool LooksLikeSpool(const std::string& path) {
  int fd = path == "-" ? -1 : ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  char buffer[65536];
  ssize_t n = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  if (n <= 0) return false;
  std::string_view head(buffer, static_cast<std::size_t>(n));
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  // §3.3: "MAY check that the first line is valid JSON containing "type":"session"".
  std::string_view first = head.substr(0, head.find('\n'));
  json::Document doc;
  if (!doc.Parse(first)) return false;
  const json::Value* type = doc.root().Find("type");
  return type && type->is_string() && type->text() == "session";
}

void AppendFindingJson(const Finding& f, std::string* out) {
  *out += "{\"rule\":";
  json::AppendQuoted(f.rule_id, out);
  *out += ",\"level\":\"" + std::string(LevelName(f.level)) + "\",\"severity\":\"" +
          std::string(SeverityName(f.severity)) + "\",\"line\":" + std::to_string(f.location.line) +
          ",\"column\":" + std::to_string(f.location.column) + ",\"pointer\":";
  json::AppendQuoted(f.location.pointer, out);
  *out += ",\"message\":";
  json::AppendQuoted(f.message, out);
  *out += "}";
}

}  // namespace

int ValidateCommand(const std::vector<std::string>& args) {
  std::string format;
  bool as_json = false;
  arcs::spool::Limits limits;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kValidateHelp;
      for (const auto& [name, value] : arcs::spool::ListLimits(limits)) {
        std::cout << "                        " << name << "=" << value << "\n";
      }
      return 0;
    } else if (a == "--json") {
      as_json = true;
    } else if (a == "--format" && i + 1 < args.size()) {
      format = args[++i];
    } else if (a == "--limit" && i + 1 < args.size()) {
      std::string spec = args[++i];
      std::size_t eq = spec.find('=');
      char* end = nullptr;
      std::string number = eq == std::string::npos ? "" : spec.substr(eq + 1);
      unsigned long long value = std::strtoull(number.c_str(), &end, 10);
      if (number.empty() || *end != '\0' || number[0] == '-') {
        std::cerr << "arcs validate: --limit wants NAME=VALUE with a count, got '" << spec << "'\n";
        return 2;
      }
      Status s = arcs::spool::SetLimit(spec.substr(0, eq), value, &limits);
      if (!s.ok()) {
        std::cerr << "arcs validate: " << s.message() << " (see arcs validate --help)\n";
        return 2;
      }
    } else if (a.starts_with("--")) {
      std::cerr << "arcs validate: unknown option " << a << " (see arcs validate --help)\n";
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::cerr << "arcs validate: no FILE given (see arcs validate --help)\n";
    return 2;
  }
  if (!format.empty() && format != "spool") {
    std::cerr << "arcs validate: unsupported format '" << format << "' (supported: spool)\n";
    return 2;
  }

  std::vector<FileReport> reports;
  bool usage_or_io_error = false;
  for (const std::string& path : files) {
    FileReport report{path, Diagnostics(), ""};
    bool named_spool = path.size() > 6 && path.ends_with(".spool");
    if (format.empty() && !named_spool && path != "-" && !LooksLikeSpool(path)) {
      std::cerr << "arcs validate: " << path
                << ": cannot tell the format (not named .spool, no session entry on line 1); "
                   "use --format\n";
      usage_or_io_error = true;
      continue;
    }
    if (!named_spool && path != "-" && !as_json) {
      std::cerr << "note: " << path << ": Spool files MUST be named *.spool (SP-3.1-1)\n";
    }
    int fd = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY);
    if (fd < 0) {
      report.io_error = std::strerror(errno);
      std::cerr << "arcs validate: " << path << ": " << report.io_error << "\n";
      usage_or_io_error = true;
      continue;
    }
    jsonl::FdSource source(fd);
    conformance::spool::Validate(&source, limits, &report.diagnostics);
    if (fd != 0) ::close(fd);
    reports.push_back(std::move(report));
  }

  bool any_invalid = false;
  std::string out;
  if (as_json) out += "{\"files\":[";
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const FileReport& report = reports[r];
    const Diagnostics& d = report.diagnostics;
    any_invalid |= d.has_errors();
    if (as_json) {
      if (r) out += ",";
      out += "{\"file\":";
      json::AppendQuoted(report.name, &out);
      out += ",\"format\":\"spool\",\"valid\":" + std::string(d.has_errors() ? "false" : "true") +
             ",\"errors\":" + std::to_string(d.error_count()) +
             ",\"warnings\":" + std::to_string(d.warning_count()) +
             ",\"dropped\":" + std::to_string(d.dropped_count()) + ",\"findings\":[";
      for (std::size_t i = 0; i < d.findings().size(); ++i) {
        if (i) out += ",";
        AppendFindingJson(d.findings()[i], &out);
      }
      out += "]}";
      continue;
    }
    for (const Finding& f : d.findings()) {
      out += report.name + ":" + std::to_string(f.location.line) + ": " + f.rule_id + " " +
             std::string(LevelName(f.level)) + " " + f.message;
      if (!f.location.pointer.empty()) out += " (at " + f.location.pointer + ")";
      out += "\n";
    }
    if (d.dropped_count() > 0) {
      out += report.name + ":0: ... " + std::to_string(d.dropped_count()) +
             " more findings not shown\n";
    }
  }
  if (as_json) out += "]}\n";
  std::cout << out;
  if (usage_or_io_error) return 2;
  return any_invalid ? 1 : 0;
}

int VectorsCommand(const std::vector<std::string>& args) {
  std::string manifest_path = "vectors/spool/manifest.json";
  std::string json_path, markdown_path;
  bool quiet = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kVectorsHelp;
      return 0;
    } else if (a == "--manifest" && i + 1 < args.size()) {
      manifest_path = args[++i];
    } else if (a == "--report" && i + 1 < args.size()) {
      json_path = args[++i];
    } else if (a == "--markdown" && i + 1 < args.size()) {
      markdown_path = args[++i];
    } else if (a == "--quiet") {
      quiet = true;
    } else {
      std::cerr << "arcs vectors: unknown argument " << a << " (see arcs vectors --help)\n";
      return 2;
    }
  }
  Result<conformance::Manifest> manifest = conformance::LoadManifest(manifest_path);
  if (!manifest.ok()) {
    std::cerr << "arcs vectors: " << manifest.status().message() << "\n";
    return 2;
  }
  std::size_t passed = 0, failed = 0;
  std::string report =
      "{\"implementation\":\"arcs-reference\",\"format\":\"" + manifest->format + "\",\"cases\":[";
  std::string markdown =
      "# Spool vectors: reference implementation\n\n| case | outcome | detail |\n|---|---|---|\n";
  for (std::size_t i = 0; i < manifest->cases.size(); ++i) {
    const conformance::VectorCase& c = manifest->cases[i];
    conformance::CaseResult result = conformance::RunSpoolCase(c);
    (result.passed() ? passed : failed)++;
    std::string detail;
    for (const std::string& p : result.problems) detail += (detail.empty() ? "" : "; ") + p;
    if (!result.passed() && !quiet) std::cout << "FAIL " << c.id << ": " << detail << "\n";
    if (i) report += ",";
    report += "{\"id\":";
    json::AppendQuoted(c.id, &report);
    report +=
        ",\"outcome\":\"" + std::string(result.passed() ? "passed" : "failed") + "\",\"detail\":";
    json::AppendQuoted(detail, &report);
    report += "}";
    markdown += "| `" + c.id + "` | " + (result.passed() ? "passed" : "**failed**") + " | " +
                detail + " |\n";
  }
  report += "],\"summary\":{\"passed\":" + std::to_string(passed) +
            ",\"failed\":" + std::to_string(failed) +
            ",\"total\":" + std::to_string(passed + failed) + "}}\n";
  markdown = "**" + std::to_string(passed) + " passed, " + std::to_string(failed) +
             " failed** of " + std::to_string(passed + failed) + " cases.\n\n" + markdown;
  for (const auto& [path, bytes] :
       {std::pair{json_path, report}, std::pair{markdown_path, markdown}}) {
    if (path.empty()) continue;
    Status s = WriteFile(path, bytes);
    if (!s.ok()) {
      std::cerr << "arcs vectors: " << s.message() << "\n";
      return 2;
    }
  }
  std::cout << "spool vectors: " << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace arcs::runner
