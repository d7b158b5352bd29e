#include "runner/validate_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>

#include "conformance/registry.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"
#include "runner/judge.h"
#include "runner/serve_command.h"
#include "runner/suite.h"

namespace arcs::runner {
namespace {

constexpr char kValidateHelp[] =
    R"(usage: arcs validate [--format F] [--json] [--limit NAME=VALUE]... FILE...

Checks that each FILE is a conforming recording and prints one line per finding:
  FILE:LINE: RULE-ID LEVEL message
RULE-ID names the requirement in conformance/<format>/requirements.json; LEVEL is the
requirement's level (MUST, SHOULD, MAY). Warnings (SHOULD findings) leave a file valid.
FILE may be - for standard input (give --format then).

  --format F          the format; default: from the extension, else from the content
  --json              print the findings as one JSON document
  --limit NAME=VALUE  change a resource limit of the format; names and defaults below

Exit status: 0 when every file is valid (warnings allowed), 1 when any is invalid, 2 on usage or
I/O errors.
)";

constexpr char kVectorsHelp[] =
    R"(usage: arcs vectors [--format F]... [--suite DIR] [--quiet]

Holds the reference implementation, in process, to every vector of the selected formats (default
all), through the same judges `arcs run` uses: every case must pass, match the reference's own
reading (the ARCS strict profile) and, for validate, report exactly the manifest's rule ids.
Exit 0 when every case does, 1 otherwise, 2 on usage or I/O errors.
)";

struct FileReport {
  std::string name;
  const conformance::FormatModule* format = nullptr;
  Diagnostics diagnostics;
};

std::string FormatNames() {
  std::vector<std::string> names;
  for (const conformance::FormatModule* f : conformance::Formats()) names.emplace_back(f->name);
  return Join(names);
}

void PrintLimits(std::ostream& out) {
  for (const conformance::FormatModule* f : conformance::Formats()) {
    out << "\n" << f->title << " limits (--format " << f->name << "):\n";
    for (const conformance::LimitSpec& l : f->limits) {
      out << "  " << l.name << "=" << l.default_value << "  " << l.what << " (" << l.rule_id
          << ")\n";
    }
  }
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

namespace {

struct ValidateArgs {
  const conformance::FormatModule* format = nullptr;  // --format, else per file
  bool as_json = false;
  std::vector<std::pair<std::string, std::uint64_t>> limits;
  std::vector<std::string> files;
};

// Returns "" or the usage error.
std::string ParseValidateArgs(const std::vector<std::string>& args, ValidateArgs* out) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      out->as_json = true;
    } else if (a == "--format" && i + 1 < args.size()) {
      out->format = conformance::FindFormat(args[++i]);
      if (!out->format) {
        return "unsupported format '" + args[i] + "' (supported: " + FormatNames() + ")";
      }
    } else if (a == "--limit" && i + 1 < args.size()) {
      const std::string& spec = args[++i];
      const std::size_t eq = spec.find('=');
      const std::optional<std::uint64_t> value =
          eq == std::string::npos ? std::nullopt
                                  : ParseCount(std::string_view(spec).substr(eq + 1), INT64_MAX);
      if (!value) {
        return "--limit wants NAME=VALUE with a count from 0 to 2^63-1, got '" + spec + "'";
      }
      out->limits.emplace_back(spec.substr(0, eq), *value);
    } else if (a.starts_with("--") || (a.starts_with("-") && a != "-")) {
      return "unknown option " + a;
    } else {
      out->files.push_back(a);
    }
  }
  if (out->files.empty()) return "no FILE given";
  return "";
}

constexpr std::size_t kSniffBytes = 64 * 1024;

// The format of one file: --format, else its extension, else its first 64 KiB (`head`, read
// only when needed). Null with a message on stderr when it cannot tell.
const conformance::FormatModule* FormatOf(const ValidateArgs& args, const std::string& path,
                                          const std::function<Result<std::string>()>& head) {
  if (args.format) return args.format;
  if (const conformance::FormatModule* f = conformance::FormatForPath(path)) return f;
  Result<std::string> bytes = head();
  if (!bytes.ok()) {
    std::cerr << "arcs validate: " << path << ": " << bytes.status().message() << "\n";
    return nullptr;
  }
  if (const conformance::FormatModule* f = conformance::SniffFormat(*bytes)) {
    if (!args.as_json && path != "-") {
      std::cerr << "note: " << path << ": read as " << f->title << " by its content; its name "
                << "does not end in "
                << Join(std::vector<std::string>(f->extensions.begin(), f->extensions.end()),
                        " or ")
                << (f->extension_rule.empty() ? "" : " (" + std::string(f->extension_rule) + ")")
                << "\n";
    }
    return f;
  }
  std::cerr << "arcs validate: " << path
            << ": cannot tell the format from the name or the content; use --format ("
            << FormatNames() << ")\n";
  return nullptr;
}

// Opens `path` ("-": standard input) for reading; -1 with a message on stderr when it cannot,
// or when it is a directory (an I/O error, never a content finding).
int OpenInput(const std::string& path) {
  if (path == "-") return 0;
  int fd = ::open(path.c_str(), O_RDONLY);
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    std::cerr << "arcs validate: " << path << ": is a directory\n";
    return -1;
  }
  if (fd < 0) std::cerr << "arcs validate: " << path << ": " << std::strerror(errno) << "\n";
  return fd;
}

// Validates one file, reading it once from one descriptor (a pipe cannot be read twice): the
// bytes read to sniff its format are handed back before the rest. False on usage or I/O errors.
bool ValidateOne(const ValidateArgs& args, const std::string& path,
                 std::vector<FileReport>* reports) {
  const int fd = OpenInput(path);
  if (fd < 0) return false;
  jsonl::FdSource file(fd);
  std::string head;
  const conformance::FormatModule* format = FormatOf(args, path, [&]() -> Result<std::string> {
    Result<std::string> bytes = jsonl::ReadHead(&file, kSniffBytes);
    if (bytes.ok()) head = *bytes;
    return bytes;
  });
  conformance::LimitValues limits;
  if (format) {
    limits = format->DefaultLimits();
    for (const auto& [name, value] : args.limits) {
      if (Status s = format->SetLimit(name, value, &limits); !s.ok()) {
        std::cerr << "arcs validate: " << path << ": " << s.message() << "\n";
        format = nullptr;
        break;
      }
    }
  }
  if (format) {
    FileReport& report = reports->emplace_back();
    report.name = path;
    report.format = format;
    jsonl::PrefixedSource source(std::move(head), &file);
    format->validate(&source, limits, &report.diagnostics);
  }
  if (fd != 0) ::close(fd);
  return format != nullptr;
}

void AppendText(const FileReport& report, std::string* out) {
  const Diagnostics& d = report.diagnostics;
  for (const Finding& f : d.findings()) {
    *out += report.name + ":" + std::to_string(f.location.line) + ": " + f.rule_id + " " +
            std::string(LevelName(f.level)) + " " + f.message;
    if (!f.location.pointer.empty()) *out += " (at " + f.location.pointer + ")";
    *out += "\n";
  }
  if (d.dropped_count() > 0) {
    *out +=
        report.name + ":0: ... " + std::to_string(d.dropped_count()) + " more findings not shown\n";
  }
}

void AppendJson(const FileReport& report, std::string* out) {
  const Diagnostics& d = report.diagnostics;
  *out += "{\"file\":";
  json::AppendQuoted(report.name, out);
  *out += ",\"format\":\"" + std::string(report.format->name) +
          "\",\"valid\":" + std::string(d.has_errors() ? "false" : "true") +
          ",\"errors\":" + std::to_string(d.error_count()) +
          ",\"warnings\":" + std::to_string(d.warning_count()) +
          ",\"dropped\":" + std::to_string(d.dropped_count()) + ",\"findings\":[";
  for (std::size_t i = 0; i < d.findings().size(); ++i) {
    if (i) *out += ",";
    AppendFindingJson(d.findings()[i], out);
  }
  *out += "]}";
}

}  // namespace

int ValidateCommand(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--help") != args.end() ||
      std::find(args.begin(), args.end(), "-h") != args.end()) {
    std::cout << kValidateHelp;
    PrintLimits(std::cout);
    return 0;
  }
  ValidateArgs parsed;
  if (std::string error = ParseValidateArgs(args, &parsed); !error.empty()) {
    std::cerr << "arcs validate: " << error << " (see arcs validate --help)\n";
    return 2;
  }
  std::vector<FileReport> reports;
  bool usage_or_io_error = false;
  for (const std::string& path : parsed.files) {
    if (!ValidateOne(parsed, path, &reports)) usage_or_io_error = true;
  }
  bool any_invalid = false;
  std::string out = parsed.as_json ? "{\"files\":[" : "";
  for (std::size_t r = 0; r < reports.size(); ++r) {
    any_invalid |= reports[r].diagnostics.has_errors();
    if (!parsed.as_json) {
      AppendText(reports[r], &out);
      continue;
    }
    if (r) out += ",";
    AppendJson(reports[r], &out);
  }
  if (parsed.as_json) out += "]}\n";
  std::cout << out;
  if (usage_or_io_error) return 2;
  return any_invalid ? 1 : 0;
}

int VectorsCommand(const std::vector<std::string>& args) {
  SuiteFilter filter;
  filter.resource_probes = false;  // they probe a process; `arcs run` plays them
  std::string root = DefaultSuiteRoot();
  bool quiet = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kVectorsHelp;
      return 0;
    } else if (a == "--format" && i + 1 < args.size()) {
      filter.formats.push_back(args[++i]);
    } else if (a == "--suite" && i + 1 < args.size()) {
      root = args[++i];
    } else if (a == "--quiet") {
      quiet = true;
    } else {
      std::cerr << "arcs vectors: unknown argument " << a << " (see arcs vectors --help)\n";
      return 2;
    }
  }
  Result<Suite> suite = LoadSuite(root, filter);
  if (!suite.ok()) {
    std::cerr << "arcs vectors: " << suite.status().message() << "\n";
    return 2;
  }
  const protocol::ImplementationHello hello = ReferenceHello();
  std::map<std::string, std::pair<std::size_t, std::size_t>> tally;  // format -> passed, failed
  for (const SuiteCase& c : suite->cases) {
    const protocol::CaseRequest request = c.Request();
    Judgement j = Judge(c, ReferenceAnswer(request), hello.formats.at(request.format));
    std::vector<std::string> problems;
    if (j.outcome != report::Outcome::kPassed) {
      problems.push_back("expected " + j.expected + ", got " + j.actual +
                         (j.message.empty() ? "" : " (" + j.message + ")"));
    }
    if (j.strict != report::Strict::kPassed) problems.push_back("not the reference's own reading");
    if (j.rules == "differ") problems.push_back("rule ids differ from the manifest's");
    auto& [passed, failed] = tally[request.format];
    (problems.empty() ? passed : failed)++;
    if (!problems.empty() && !quiet) {
      std::cout << "FAIL " << c.request_id << ": " << Join(problems, "; ") << "\n";
    }
  }
  std::size_t failures = 0;
  for (const auto& [format, counts] : tally) {
    std::cout << format << " vectors: " << counts.first << " passed, " << counts.second
              << " failed\n";
    failures += counts.second;
  }
  return failures ? 1 : 0;
}

}  // namespace arcs::runner
