#include "runner/validate_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "conformance/registry.h"
#include "reference/core/io.h"
#include "reference/core/strings.h"
#include "runner/cli.h"
#include "runner/judge.h"
#include "runner/serve_command.h"
#include "runner/suite.h"
#include "runner/validate_explain.h"
#include "runner/validate_files.h"
#include "runner/validate_hint.h"
#include "runner/validate_output.h"
#include "runner/validate_sarif.h"

namespace arcs::runner {
namespace {

constexpr char kValidateUsage[] =
    R"(usage: arcs validate [--format F] [--json | --sarif] [--strict] [--color[=WHEN]]
                    [--limit NAME=VALUE]... FILE|DIR...
       arcs validate --explain RULE-ID
)";

constexpr char kValidateHelp[] =
    R"(
Checks that each FILE is a conforming recording and prints one line per finding, in the form
editors and CI problem matchers read (gcc's):
  FILE:LINE:COLUMN: SEVERITY: message (at POINTER) [RULE-ID]
SEVERITY is error, warning or note: errors make a file invalid, warnings and notes do not. LINE
and COLUMN count from 1, COLUMN in bytes; a finding about the whole file stands at 1:1, one about
a line with no column at the line's column 1. POINTER is the JSON Pointer of the value inside the
line, when there is one. RULE-ID names a requirement of conformance/<format>/requirements.json:
--explain says what it asks. The run ends with a summary on standard error:
  3 files checked: 1 invalid, 4 errors, 2 warnings
A JSON Lines file that is one pretty-printed JSON document (jq . over a recording) gets one
finding that says so, not one per line.

Where the spec text is silent or ambiguous, ARCS takes a reading of its own and records it in the
format's errata (conformance/<format>/errata.md). A finding that rests only on such a reading is
a warning that names the erratum, [LB-EVENT-17, reading LB-E17]: another careful implementation
may read the text otherwise, so it makes no file invalid. --strict (the ARCS strict profile)
makes such findings errors, as the reference's own answers are.

A DIR is searched at any depth for the files a format claims: by their names (*.spool,
events.jsonl, model_io.json) or, for the formats whose specs name none, by their content; in
sorted order, skipping names that start with '.', following links but walking each folder once;
an entry it cannot read (a dangling link, a link loop, a file without permission) is reported,
never skipped, and so is a companion file that is not a regular file (a FIFO meta.json).
FILE may be - for standard input (give --format then).

  --format F, --format=F  the format; default: from the extension, else from the content; with
                          a DIR, only F's files are checked
  --json                  print the findings as one JSON document
  --sarif                 print them as a SARIF 2.1.0 log (GitHub code scanning and the like)
  --strict                the ARCS strict profile: a finding that rests on an errata reading is
                          an error, not a warning
  --color[=WHEN]          colour the findings as gcc does: auto (the default: when standard output
                          is a terminal, NO_COLOR is unset or empty and TERM is not dumb), always
                          (--color alone; it wins over NO_COLOR) or never
  --limit NAME=VALUE      change a resource limit of the format; names and defaults below
  --explain RULE-ID       print what the requirement asks, its level, its spec and section, and
                          how ARCS covers it
  --                      every argument after it is a FILE or DIR

Exit status: 0 when every file is valid (warnings allowed), 1 when any is invalid, 2 on usage or
I/O errors (a file, folder or entry of a DIR that cannot be read, a DIR holding no file to
check, an unknown --explain id); what cannot be read is reported on standard error and the others
are still checked.
)";

constexpr char kVectorsHelp[] =
    R"(usage: arcs vectors [--format F]... [--suite DIR] [--quiet]

Holds the reference implementation, in process, to every vector of the selected formats (default
all), through the same judges `arcs run` uses: every case must pass, match the reference's own
reading (the ARCS strict profile) and, for validate, report exactly the manifest's rule ids.
Exit 0 when every case does, 1 otherwise, 2 on usage or I/O errors.
)";

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

enum class Form : std::uint8_t { kText, kJson, kSarif };

struct ValidateArgs {
  bool help = false;
  const conformance::FormatModule* format = nullptr;  // --format, else per file
  Form form = Form::kText;
  bool strict = false;  // errata readings' findings stay errors
  ColorWhen color = ColorWhen::kAuto;
  std::optional<std::string> explain;
  std::vector<std::pair<std::string, std::uint64_t>> limits;
  std::vector<std::string> files;
};

// Returns "" or the usage error. An option that takes a value takes it after '=' or as the next
// argument.
std::string ParseValidateArgs(const std::vector<std::string>& args, ValidateArgs* out) {
  bool files_only = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (files_only || a == "-" || !a.starts_with("-")) {
      out->files.push_back(a);
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const std::optional<std::string> attached =
        eq == std::string::npos ? std::nullopt : std::optional<std::string>(a.substr(eq + 1));
    const auto value = [&]() -> std::optional<std::string> {
      if (attached) return attached;
      if (i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    if (a == "--") {
      files_only = true;
    } else if (a == "--help" || a == "-h") {
      out->help = true;
      return "";
    } else if (name == "--json" || name == "--sarif") {
      if (attached) return name + " takes no value";
      const Form form = name == "--json" ? Form::kJson : Form::kSarif;
      if (out->form != Form::kText && out->form != form) return "give --json or --sarif, not both";
      out->form = form;
    } else if (name == "--strict") {
      if (attached) return "--strict takes no value";
      out->strict = true;
    } else if (name == "--color") {
      const std::string when = attached.value_or("always");
      if (!ParseColorWhen(when, &out->color)) {
        return "--color wants auto, always or never, got '" + when + "'";
      }
    } else if (name == "--format") {
      const std::optional<std::string> format = value();
      if (!format) return "--format wants a format (" + FormatNames() + ")";
      out->format = conformance::FindFormat(*format);
      if (!out->format) {
        return "unsupported format '" + *format + "' (supported: " + FormatNames() + ")";
      }
    } else if (name == "--limit") {
      const std::string spec = value().value_or("");
      const std::size_t limit_eq = spec.find('=');
      const std::optional<std::uint64_t> count =
          limit_eq == std::string::npos
              ? std::nullopt
              : ParseCount(std::string_view(spec).substr(limit_eq + 1), INT64_MAX);
      if (!count) {
        return "--limit wants NAME=VALUE with a count from 0 to 2^63-1, got '" + spec + "'";
      }
      out->limits.emplace_back(spec.substr(0, limit_eq), *count);
    } else if (name == "--explain") {
      out->explain = value();
      if (!out->explain) return "--explain wants a rule id";
    } else {
      return "unknown option " + a;
    }
  }
  if (out->explain) return out->files.empty() ? "" : "--explain takes a rule id and no FILE";
  if (out->files.empty()) return "no FILE given";
  return "";
}

int UsageError(const std::string& error) {
  std::cerr << "arcs validate: " << Printable(error) << "\n"
            << kValidateUsage << "Try 'arcs validate --help' for every option and limit.\n";
  return 2;
}

int Explain(const std::string& id) {
  const std::optional<CatalogueRule> rule = FindCatalogueRule(id);
  if (!rule) {
    std::cerr << "arcs validate: " << UnknownRuleText(id) << "\n";
    return 2;
  }
  std::cout << ExplainText(*rule) << std::flush;
  return std::cout ? 0 : 2;
}

// The format of one file: --format, else its extension, else its first 64 KiB (`head`, read
// only when needed; with the text output, a note on standard error says when the content told it).
Result<const conformance::FormatModule*> FormatOf(
    const ValidateArgs& args, const std::string& path,
    const std::function<Result<std::string>()>& head) {
  if (args.format) return args.format;
  Result<conformance::Detection> told = conformance::DetectFormat(path, head);
  if (!told.ok()) return Status(told.status().code(), path + ": " + told.status().message());
  if (const conformance::FormatModule* f = told->format) {
    if (told->by_content && args.form == Form::kText && path != "-" && !f->extensions.empty()) {
      std::cerr << "note: " << Printable(path) << ": read as " << f->title
                << " by its content; its name "
                << "does not end in "
                << Join(std::vector<std::string>(f->extensions.begin(), f->extensions.end()),
                        " or ")
                << (f->extension_rule.empty() ? "" : " (" + std::string(f->extension_rule) + ")")
                << "\n";
    }
    return f;
  }
  return Status(StatusCode::kInvalidArgument,
                path + ": cannot tell the format from the name or the content; use --format (" +
                    FormatNames() + ")");
}

// Opens `path` ("-": standard input) for reading: a descriptor, or what stands in the way (a
// directory too: an I/O error, never a content finding).
Result<int> OpenInput(const std::string& path) {
  if (path == "-") return 0;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status(StatusCode::kIoError, path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status(StatusCode::kIoError, path + ": is a directory");
  }
  return fd;
}

// The companions found beside `file`, opened (their descriptors in *fds, which the caller closes,
// their sources owned by *open). A missing one is left out; one that is there but cannot be read
// is an I/O error, never silently left out, and so is one that is not a regular file: nobody
// named it, and a FIFO there would block the run for good.
Status OpenCompanions(const conformance::FormatModule& format, const std::string& file,
                      conformance::CompanionSources* sources,
                      std::vector<std::unique_ptr<jsonl::FdSource>>* open, std::vector<int>* fds) {
  if (file == "-") return Status::Ok();
  const std::size_t slash = file.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : file.substr(0, slash);
  for (const conformance::Companion& c : format.companions) {
    const std::string companion = folder + "/" + std::string(c.file_name);
    struct stat st {};
    if (::stat(companion.c_str(), &st) != 0 && errno == ENOENT) continue;
    Result<int> fd = OpenToRead(companion);
    if (!fd.ok()) return fd.status();
    fds->push_back(*fd);
    open->push_back(std::make_unique<jsonl::FdSource>(*fd));
    sources->emplace(std::string(c.input), open->back().get());
  }
  return Status::Ok();
}

// Runs the format's validator over `source`. A format read line by line is the one that bounds a
// line (max_line_bytes): there a pretty-printed JSON document, kept up to that bound as it is
// read, gets one finding that says so instead of one per line (runner/validate_hint.h).
void RunValidator(const conformance::FormatModule& format, const std::string& path,
                  jsonl::ByteSource* source, const conformance::CompanionSources& companions,
                  const conformance::LimitValues& limits, Diagnostics* diagnostics) {
  const auto line_limit = limits.find(conformance::kMaxLineBytesLimit);
  if (line_limit == limits.end()) {
    format.Validate(source, companions, limits, diagnostics);
    return;
  }
  PrettyJsonWatch watch(source, line_limit->second);
  format.Validate(&watch, companions, limits, diagnostics);
  const std::optional<std::string_view> text = watch.Kept();
  if (!text) return;
  const auto depth = limits.find(conformance::kMaxJsonDepthLimit);
  const std::uint32_t max_depth =
      depth == limits.end()
          ? json::ParseOptions().max_depth
          : static_cast<std::uint32_t>(std::min<std::uint64_t>(depth->second, UINT32_MAX));
  if (std::optional<Finding> hint =
          PrettyJsonHint(*text, format.title, path, *diagnostics, max_depth)) {
    *diagnostics = Diagnostics();
    diagnostics->Add(std::move(*hint));
  }
}

struct FileReport {
  const conformance::FormatModule* format = nullptr;
  Diagnostics diagnostics;
};

// Validates one file, reading it once from one descriptor (a pipe cannot be read twice): the bytes
// read to sniff its format are handed back before the rest. `claimed`: the format a folder walk
// found it by, else null; such a file was a regular one when listed, and is refused if it has
// become a FIFO since (a pipe is read only when named).
Result<FileReport> ValidateOne(const ValidateArgs& args, const std::string& path,
                               const conformance::FormatModule* claimed) {
  const Result<int> fd = claimed ? OpenToRead(path) : OpenInput(path);
  if (!fd.ok()) return fd.status();
  jsonl::FdSource file(*fd);
  std::string head;
  Result<const conformance::FormatModule*> format =
      claimed ? claimed : FormatOf(args, path, [&]() -> Result<std::string> {
        Result<std::string> bytes = jsonl::ReadHead(&file, conformance::kSniffBytes);
        if (bytes.ok()) head = *bytes;
        return bytes;
      });
  Status status = format.ok() ? Status::Ok() : format.status();
  FileReport report;
  if (!args.strict) report.diagnostics.ReadingsAsWarnings();
  conformance::LimitValues limits;
  if (status.ok()) {
    report.format = *format;
    limits = report.format->DefaultLimits();
    for (const auto& [name, value] : args.limits) {
      status = report.format->SetLimit(name, value, &limits);
      if (!status.ok()) {
        status = Status(status.code(), path + ": " + status.message());
        break;
      }
    }
  }
  std::vector<int> fds;
  if (status.ok()) {
    jsonl::PrefixedSource source(std::move(head), &file);
    conformance::CompanionSources companions;
    std::vector<std::unique_ptr<jsonl::FdSource>> open;
    status = OpenCompanions(*report.format, path, &companions, &open, &fds);
    if (status.ok()) {
      RunValidator(*report.format, path, &source, companions, limits, &report.diagnostics);
    }
  }
  for (int companion : fds) ::close(companion);
  if (*fd != 0) ::close(*fd);
  if (!status.ok()) return status;
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

// The files a walk checks, for `only` or for every format: "named .spool, events.jsonl,
// model_io.json, or told by their content as session-data or mcp-record-replay".
std::string ClaimedFiles(const conformance::FormatModule* only) {
  std::vector<std::string> names;
  std::vector<std::string> by_content;
  for (const conformance::FormatModule* f : conformance::Formats()) {
    if (only && f != only) continue;
    names.insert(names.end(), f->extensions.begin(), f->extensions.end());
    if (f->extensions.empty()) by_content.emplace_back(f->name);
  }
  std::string text = names.empty() ? "" : "named " + Join(names, ", ");
  if (!by_content.empty()) {
    text += std::string(names.empty() ? "" : ", or ") + "told by their content as " +
            Join(by_content, " or ");
  }
  return text;
}

// One run of `arcs validate` over its arguments: each file checked and its findings written as
// soon as it is done, in the form asked for; failures on standard error; the tally.
class ValidateRun {
 public:
  explicit ValidateRun(const ValidateArgs& args)
      : args_(args), color_(args.form == Form::kText && UseColor(args.color, STDOUT_FILENO)) {
    if (args_.form == Form::kJson) output_.Write("{\"files\":[");
    if (args_.form == Form::kSarif) output_.Write(SarifLog::Begin());
  }

  void Argument(const std::string& path) {
    struct stat st {};
    if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      Check(path, nullptr);
      return;
    }
    const std::uint64_t found = WalkFolder(
        path, args_.format, [&](const FoundFile& file) { Check(file.path, file.format); },
        [&](const std::string& where, const std::string& message) { Fail(where, message); });
    if (found == 0) {
      Fail(path, path + ": no file to check below it (none " + ClaimedFiles(args_.format) + ")");
    }
  }

  // The exit status.
  int Finish() {
    std::string out;
    if (args_.form == Form::kJson) {
      out += "],\"summary\":";
      AppendTallyJson(tally_, &out);
      out += "}\n";
    }
    if (args_.form == Form::kSarif) sarif_.AppendEnd(&out);
    output_.Write(out);
    if (args_.form == Form::kText) std::cerr << TallyText(tally_) << "\n";
    if (output_.error() != 0) {
      std::cerr << "arcs validate: cannot write the output: " << std::strerror(output_.error())
                << "\n";
      return 2;
    }
    if (tally_.unchecked > 0) return 2;
    return tally_.invalid > 0 ? 1 : 0;
  }

 private:
  void Check(const std::string& path, const conformance::FormatModule* claimed) {
    Result<FileReport> report = ValidateOne(args_, path, claimed);
    if (!report.ok()) {
      Fail(path, report.status().message());
      return;
    }
    tally_.Add(report->diagnostics);
    const ValidatedFile file{path, report->format->name, report->diagnostics};
    std::string out;
    switch (args_.form) {
      case Form::kText:
        AppendValidateText(file, &out, color_);
        break;
      case Form::kJson:
        if (tally_.checked > 1) out += ",";
        AppendValidateJson(file, &out);
        break;
      case Form::kSarif:
        sarif_.AppendResults(file, &out);
        break;
    }
    output_.Write(out);
  }

  // `path` could not be checked, for the reason `message` gives.
  void Fail(const std::string& path, const std::string& message) {
    ++tally_.unchecked;
    std::cerr << "arcs validate: " << Printable(message) << "\n";
    if (args_.form == Form::kSarif) sarif_.AddFailure(path, message);
  }

  const ValidateArgs& args_;
  const bool color_;
  Output output_;
  ValidateTally tally_;
  SarifLog sarif_;
};

}  // namespace

int ValidateCommand(const std::vector<std::string>& args) {
  ValidateArgs parsed;
  if (std::string error = ParseValidateArgs(args, &parsed); !error.empty()) {
    return UsageError(error);
  }
  if (parsed.help) {
    std::cout << kValidateUsage << kValidateHelp;
    PrintLimits(std::cout);
    return 0;
  }
  if (parsed.explain) return Explain(*parsed.explain);
  ValidateRun run(parsed);
  for (const std::string& path : parsed.files) run.Argument(path);
  return run.Finish();
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
      std::cerr << "arcs vectors: unknown argument " << Printable(a)
                << " (see arcs vectors --help)\n";
      return 2;
    }
  }
  Result<Suite> suite = LoadSuite(root, filter);
  if (!suite.ok()) {
    std::cerr << "arcs vectors: " << Printable(suite.status().message()) << "\n";
    return 2;
  }
  const protocol::ImplementationHello hello = ReferenceHello();
  std::map<std::string, std::pair<std::size_t, std::size_t>> tally;  // format -> passed, failed
  for (const SuiteCase& c : suite->cases) {
    const protocol::CaseRequest request = c.Request();
    const protocol::Answer answer = ReferenceAnswer(request);
    report::CaseResult j = Judge(c, answer, hello.formats.at(request.format));
    std::vector<std::string> problems;
    if (std::string grounds = ReadingGroundProblem(c, answer, hello.formats.at(request.format));
        !grounds.empty()) {
      problems.push_back(grounds);
    }
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
