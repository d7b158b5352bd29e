#include "runner/validate_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "conformance/registry.h"
#include "reference/core/strings.h"
#include "runner/judge.h"
#include "runner/report/escape.h"
#include "runner/serve_command.h"
#include "runner/suite.h"
#include "runner/validate_output.h"

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

// A file name or a message quoting one, as the terminal may show it.
std::string Shown(std::string_view text) { return report::EscapeTerminal(text); }

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
    std::cerr << "arcs validate: " << Shown(path) << ": " << Shown(bytes.status().message())
              << "\n";
    return nullptr;
  }
  if (const conformance::FormatModule* f = conformance::SniffFormat(*bytes)) {
    if (!args.as_json && path != "-" && !f->extensions.empty()) {
      std::cerr << "note: " << Shown(path) << ": read as " << f->title
                << " by its content; its name "
                << "does not end in "
                << Join(std::vector<std::string>(f->extensions.begin(), f->extensions.end()),
                        " or ")
                << (f->extension_rule.empty() ? "" : " (" + std::string(f->extension_rule) + ")")
                << "\n";
    }
    return f;
  }
  std::cerr << "arcs validate: " << Shown(path)
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
    std::cerr << "arcs validate: " << Shown(path) << ": is a directory\n";
    return -1;
  }
  if (fd < 0) std::cerr << "arcs validate: " << Shown(path) << ": " << std::strerror(errno) << "\n";
  return fd;
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// A folder stands for the file inside it that its format reads (a Lightbox session folder:
// events.jsonl). `format` is null, the format told by --format, or the one whose folder file the
// folder holds; the path is left as it is when there is none (then it is "a directory").
std::string FileOf(const std::string& path, const ValidateArgs& args,
                   const conformance::FormatModule** format) {
  if (!IsDirectory(path)) return path;
  for (const conformance::FormatModule* f : conformance::Formats()) {
    if (f->folder_file.empty() || (args.format && args.format != f)) continue;
    const std::string inside = path + "/" + std::string(f->folder_file);
    struct stat st {};
    if (::stat(inside.c_str(), &st) == 0) {
      *format = f;
      return inside;
    }
  }
  return path;
}

// The companions found beside `file`, opened (their descriptors in *fds, their sources owned by
// *open). A missing one is left out; one that is there but cannot be read is an I/O error
// (reported on stderr; false), never silently left out.
bool OpenCompanions(const conformance::FormatModule& format, const std::string& file,
                    conformance::CompanionSources* sources,
                    std::vector<std::unique_ptr<jsonl::FdSource>>* open, std::vector<int>* fds) {
  if (file == "-") return true;
  const std::size_t slash = file.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : file.substr(0, slash);
  for (const conformance::Companion& c : format.companions) {
    const std::string companion = folder + "/" + std::string(c.file_name);
    struct stat st {};
    if (::stat(companion.c_str(), &st) != 0 && errno == ENOENT) continue;
    const int fd = ::open(companion.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))) {
      std::cerr << "arcs validate: " << Shown(companion) << ": "
                << (fd < 0 ? std::strerror(errno) : "is a directory") << "\n";
      if (fd >= 0) ::close(fd);
      return false;
    }
    fds->push_back(fd);
    open->push_back(std::make_unique<jsonl::FdSource>(fd));
    sources->emplace(std::string(c.input), open->back().get());
  }
  return true;
}

// Validates one file (or folder), reading it once from one descriptor (a pipe cannot be read
// twice): the bytes read to sniff its format are handed back before the rest. Nothing on usage or
// I/O errors (reported on stderr).
std::optional<FileReport> ValidateOne(const ValidateArgs& args, const std::string& path) {
  const conformance::FormatModule* folder_format = nullptr;
  const std::string file_path = FileOf(path, args, &folder_format);
  const int fd = OpenInput(file_path);
  if (fd < 0) return std::nullopt;
  jsonl::FdSource file(fd);
  std::string head;
  const conformance::FormatModule* format =
      folder_format ? folder_format : FormatOf(args, file_path, [&]() -> Result<std::string> {
        Result<std::string> bytes = jsonl::ReadHead(&file, kSniffBytes);
        if (bytes.ok()) head = *bytes;
        return bytes;
      });
  conformance::LimitValues limits;
  if (format) {
    limits = format->DefaultLimits();
    for (const auto& [name, value] : args.limits) {
      if (Status s = format->SetLimit(name, value, &limits); !s.ok()) {
        std::cerr << "arcs validate: " << Shown(path) << ": " << Shown(s.message()) << "\n";
        format = nullptr;
        break;
      }
    }
  }
  std::optional<FileReport> report;
  if (format) {
    report.emplace();
    report->name = path;
    report->format = format;
    jsonl::PrefixedSource source(std::move(head), &file);
    conformance::CompanionSources companions;
    std::vector<std::unique_ptr<jsonl::FdSource>> open;
    std::vector<int> fds;
    if (OpenCompanions(*format, file_path, &companions, &open, &fds)) {
      format->validate(&source, companions, limits, &report->diagnostics);
    } else {
      report.reset();
    }
    for (int companion : fds) ::close(companion);
  }
  if (fd != 0) ::close(fd);
  return report;
}

// Standard output, written as each file is done (a run over many files never holds them all).
// The first failed write (a full disk, /dev/full) is kept, so the command can fail instead of
// reporting what nobody received.
class Output {
 public:
  void Write(std::string_view bytes) {
    while (!bytes.empty() && error_ == 0) {
      const ssize_t n = ::write(1, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error_ = errno;
      if (n > 0) bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  int error() const { return error_; }

 private:
  int error_ = 0;
};

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
    std::cerr << "arcs validate: " << Shown(error) << " (see arcs validate --help)\n";
    return 2;
  }
  Output output;
  bool usage_or_io_error = false;
  bool any_invalid = false;
  std::size_t written = 0;
  if (parsed.as_json) output.Write("{\"files\":[");
  for (const std::string& path : parsed.files) {
    std::optional<FileReport> report = ValidateOne(parsed, path);
    if (!report) {
      usage_or_io_error = true;
      continue;
    }
    any_invalid |= report->diagnostics.has_errors();
    std::string out = parsed.as_json && written++ > 0 ? "," : "";
    const ValidatedFile file{report->name, report->format->name, report->diagnostics};
    parsed.as_json ? AppendValidateJson(file, &out) : AppendValidateText(file, &out);
    output.Write(out);
  }
  if (parsed.as_json) output.Write("]}\n");
  if (output.error() != 0) {
    std::cerr << "arcs validate: cannot write the output: " << std::strerror(output.error())
              << "\n";
    return 2;
  }
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
