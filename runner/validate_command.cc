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
#include <set>

#include "conformance/registry.h"
#include "reference/core/io.h"
#include "reference/core/strings.h"
#include "runner/cli.h"
#include "runner/judge.h"
#include "runner/serve_command.h"
#include "runner/suite.h"
#include "runner/validate_columns.h"
#include "runner/validate_config.h"
#include "runner/validate_explain.h"
#include "runner/validate_files.h"
#include "runner/validate_hint.h"
#include "runner/validate_output.h"
#include "runner/validate_sarif.h"

namespace arcs::runner {
namespace {

constexpr char kValidateUsage[] =
    R"(usage: arcs validate [--format F] [--json | --sarif] [--strict] [--color[=WHEN]]
                    [--select RULE]... [--ignore RULE]... [--config FILE | --no-config]
                    [--max-warnings N] [--quiet] [--limit NAME=VALUE]... FILE|DIR...
       arcs validate --explain RULE-ID
)";

constexpr char kValidateHelp[] =
    R"(
Checks that each FILE is a conforming recording and prints one line per finding, in the form
editors and CI problem matchers read (gcc's):
  FILE:LINE:COLUMN: SEVERITY: message (at POINTER) [RULE-ID]
SEVERITY is error, warning or note: errors make a file invalid, warnings and notes do not. LINE
and COLUMN count from 1, COLUMN in bytes from the line's first byte (line 1's byte order mark
included). POINTER is the JSON Pointer of the value inside the line (or the document), when there
is one, and COLUMN is where it leads: a member at its name, an array element at its value; a
member that is missing at the object that lacks it. A finding about the whole file stands at 1:1,
one about a line with no known place in it at the line's column 1 (so are a pipe's pointer
findings: the file is read a second time to find columns, and a pipe cannot be). --json and
--sarif give the same LINE and COLUMN (--json marks a whole-file finding "whole_file": true).
RULE-ID names a requirement of conformance/<format>/requirements.json (arcs rules lists them):
--explain says what it asks. The run ends with a summary on standard error:
  3 files checked: 1 invalid, 4 errors, 2 warnings (5 ignored)
A JSON Lines file that is one pretty-printed JSON document (jq . over a recording) gets one
finding that says so, not one per line.

Where the spec text is silent or ambiguous, ARCS takes a reading of its own and records it in the
format's errata (conformance/<format>/errata.md). A finding that rests only on such a reading is
a warning that names the erratum, [LB-EVENT-17, reading LB-E17]: another careful implementation
may read the text otherwise, so it makes no file invalid. --strict (the ARCS strict profile)
makes such findings errors, as the reference's own answers are.

Which rules count: --select RULE keeps only the findings whose rule id starts with RULE (SP-4,
MRR-, or a whole id), --ignore RULE drops those that do; both may be repeated, and an ignored
finding neither makes a file invalid nor counts as a warning. A RULE that starts no rule id of
any format gets a warning on standard error. The same choices, and more, in a config file,
.arcs.toml, read from each file's folder upward to the filesystem root (the nearest wins whole;
standard input's is the working folder's):
  select = ["SP-", "LB-"]          # only these (default: every rule)
  ignore = ["SP-3.5-1"]
  max-warnings = 10                # more warnings in the files it governs: exit 1
  [per-file-ignores]
  "legacy/*.spool" = ["SP-6"]      # a glob with '/': the path below the config's folder
  "*.jsonl" = ["LB-EVENT-17"]      # a glob without '/': the file's name
--select replaces the config's select, --ignore adds to its ignore, --max-warnings replaces its
max-warnings (and bounds the whole run's warnings). An unknown key, a value of the wrong type or
a TOML error is an error, FILE:LINE: what is wrong, and the files it governs are not checked.

A DIR is searched at any depth for the files a format claims: by their names (*.spool,
events.jsonl, model_io.json) or, for the formats whose specs name none, by their content; with
--format F, F's files by their names and by their content (a renamed events.jsonl); in sorted
order, skipping names that start with '.', following links but walking each folder once;
an entry it cannot read (a dangling link, a link loop, a file without permission) is reported,
never skipped, and so is a companion file that is not a regular file (a FIFO meta.json).
FILE may be - for standard input (give --format then).

  --format F, --format=F  the format; default: from the extension, else from the content; with
                          a DIR, only F's files are checked, found by name and by content
  --json                  print the findings as one JSON document
  --sarif                 print them as a SARIF 2.1.0 log (GitHub code scanning and the like)
  --strict                the ARCS strict profile: a finding that rests on an errata reading is
                          an error, not a warning
  --color[=WHEN]          colour the findings as gcc does: auto (the default: when standard output
                          is a terminal, NO_COLOR is unset or empty and TERM is not dumb), always
                          (--color alone; it wins over NO_COLOR) or never
  --limit NAME=VALUE      change a resource limit of the format; names and defaults below
  --select RULE           only findings of rules whose id starts with RULE (repeatable)
  --ignore RULE           no findings of rules whose id starts with RULE (repeatable)
  --config FILE           read this config file for every file, instead of each one's nearest
                          .arcs.toml
  --no-config             read no config file
  --max-warnings N        exit 1 when the run has more than N warnings (as eslint)
  --quiet                 print errors only (the summary still counts the warnings and notes)
  --explain RULE-ID       print what the requirement asks, its level, its spec and section, and
                          how ARCS covers it
  --                      every argument after it is a FILE or DIR

SARIF rules carry helpUri: the file URI of the spec's Markdown beside the suite
(../shared/specs/), at the heading that states the rule when it has one of its own.

Exit status: 0 when every file is valid (warnings allowed), 1 when any is invalid or there are
more warnings than --max-warnings (or a config file's max-warnings) allows, 2 on usage or I/O
errors (a file, folder or entry of a DIR that cannot be read, a DIR holding no file to check, a
config file that cannot be read or is malformed, an unknown --explain id); what cannot be read is
reported on standard error and the others are still checked.
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
  std::optional<std::vector<std::string>> select;  // --select: replaces a config file's
  std::vector<std::string> ignore;                 // --ignore: adds to a config file's
  std::optional<std::string> config;               // --config FILE
  bool no_config = false;                          // --no-config
  std::optional<std::uint64_t> max_warnings;       // --max-warnings: the whole run's bound
  bool quiet = false;                              // --quiet: errors only
};

// Whether a finding of a rule is kept; null keeps every one.
using RuleFilter = std::function<bool(std::string_view rule_id)>;

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
    } else if (name == "--select" || name == "--ignore") {
      const std::optional<std::string> rule = value();
      if (!rule || rule->empty()) return name + " wants a rule id or a prefix of one (SP-4, MRR-)";
      if (name == "--select") {
        if (!out->select) out->select.emplace();
        out->select->push_back(*rule);
      } else {
        out->ignore.push_back(*rule);
      }
    } else if (name == "--config") {
      out->config = value();
      if (!out->config || out->config->empty()) return "--config wants a FILE";
    } else if (name == "--no-config" || name == "--quiet") {
      if (attached) return name + " takes no value";
      (name == "--quiet" ? out->quiet : out->no_config) = true;
    } else if (name == "--max-warnings") {
      const std::string count = value().value_or("");
      out->max_warnings = ParseCount(count, INT64_MAX);
      if (!out->max_warnings) {
        return "--max-warnings wants a count from 0 to 2^63-1, got '" + count + "'";
      }
    } else {
      return "unknown option " + a;
    }
  }
  if (out->explain) return out->files.empty() ? "" : "--explain takes a rule id and no FILE";
  if (out->files.empty()) return "no FILE given";
  if (out->config && out->no_config) return "give --config or --no-config, not both";
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
// `keep`: the rules the user keeps (--select, --ignore, config files), or null for every rule.
void RunValidator(const conformance::FormatModule& format, const std::string& path,
                  jsonl::ByteSource* source, const conformance::CompanionSources& companions,
                  const conformance::LimitValues& limits, const RuleFilter& keep,
                  Diagnostics* diagnostics) {
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
    Diagnostics one;
    if (keep) one.KeepOnly(keep);  // the hint cites a rule, which may be one the user ignores
    one.Add(std::move(*hint));
    *diagnostics = std::move(one);
  }
}

// How `format` reads its file, with `limits` in force, for placing findings (validate_columns.h).
std::optional<FileShape> ShapeOf(const conformance::LimitValues& limits) {
  FileShape shape;
  if (const auto line = limits.find(conformance::kMaxLineBytesLimit); line != limits.end()) {
    shape.max_line_bytes = line->second;
    return shape;
  }
  if (const auto file = limits.find("max_file_bytes"); file != limits.end()) {
    shape.max_file_bytes = file->second;
    return shape;
  }
  return std::nullopt;
}

// Gives the findings of the file `fd` was validated from the columns their pointers lead to,
// when the file can be read again from its start (a regular file; a pipe cannot).
void PlaceColumns(int fd, const conformance::LimitValues& limits, Diagnostics* diagnostics) {
  struct stat st {};
  const std::optional<FileShape> shape = ShapeOf(limits);
  if (!shape || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ::lseek(fd, 0, SEEK_SET) != 0) {
    return;
  }
  jsonl::FdSource again(fd);
  // A read that fails now (the file shrank, a disk error) leaves the findings where the checker
  // put them: their line is still right, and the validation itself read the file whole.
  (void)PlaceFindings(&again, *shape, diagnostics);
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
                               const conformance::FormatModule* claimed, const RuleFilter& keep) {
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
  if (keep) report.diagnostics.KeepOnly(keep);
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
      RunValidator(*report.format, path, &source, companions, limits, keep, &report.diagnostics);
      PlaceColumns(*fd, limits, &report.diagnostics);
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
    // With --format F, F's files are also told by their content (a renamed events.jsonl).
    if ((f->extensions.empty() || only) && f->sniff) by_content.emplace_back(f->name);
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
  // `config`: the file --config named, read already; null for the nearest one of each file.
  ValidateRun(const ValidateArgs& args, const LintConfig* config)
      : args_(args),
        config_(config),
        color_(args.form == Form::kText && UseColor(args.color, STDOUT_FILENO)),
        sarif_(DefaultSpecsDir()) {
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
    const bool too_many_warnings = TooManyWarnings();
    if (output_.error() != 0) {
      std::cerr << "arcs validate: cannot write the output: " << std::strerror(output_.error())
                << "\n";
      return 2;
    }
    if (tally_.unchecked > 0) return 2;
    return tally_.invalid > 0 || too_many_warnings ? 1 : 0;
  }

 private:
  // The config file that governs `path` (--config's, else the nearest .arcs.toml), null for none;
  // its warnings are printed the first time it is used.
  Result<const LintConfig*> ConfigFor(const std::string& path) {
    if (args_.no_config) return nullptr;
    Result<const LintConfig*> config = config_ ? config_ : finder_.For(path);
    if (config.ok() && *config && announced_.insert(*config).second) {
      for (const std::string& warning : (*config)->warnings) {
        std::cerr << "arcs validate: " << Printable(warning) << "\n";
      }
    }
    return config;
  }

  // What `path` is checked for: the command line's --select (else the config's select) and every
  // ignore of the command line, the config and its per-file-ignores. Null keeps every rule.
  static RuleFilter FilterFor(const ValidateArgs& args, const LintConfig* config,
                              const std::string& path) {
    std::optional<std::vector<std::string>> select = args.select;
    std::vector<std::string> ignore = args.ignore;
    if (config) {
      if (!select) select = config->select;
      ignore.insert(ignore.end(), config->ignore.begin(), config->ignore.end());
      const std::vector<std::string> per_file = config->IgnoresFor(AbsolutePath(path));
      ignore.insert(ignore.end(), per_file.begin(), per_file.end());
    }
    if (!select && ignore.empty()) return nullptr;
    return [select = std::move(select), ignore = std::move(ignore)](std::string_view rule) {
      return (!select || MatchesAny(rule, *select)) && !MatchesAny(rule, ignore);
    };
  }

  static std::string Warnings(std::uint64_t n) {
    return std::to_string(n) + (n == 1 ? " warning" : " warnings");
  }

  // Whether the warnings pass a bound: --max-warnings over the whole run, else each config file's
  // max-warnings over the files it governs; says so on standard error.
  bool TooManyWarnings() const {
    if (args_.max_warnings) {
      if (tally_.warnings <= *args_.max_warnings) return false;
      std::cerr << "arcs validate: " << Warnings(tally_.warnings) << ", more than --max-warnings "
                << *args_.max_warnings << " allows\n";
      return true;
    }
    bool too_many = false;
    for (const auto& [path, counted] : warnings_by_config_) {
      const auto& [config, warnings] = counted;
      if (!config->max_warnings || warnings <= *config->max_warnings) continue;
      std::cerr << "arcs validate: " << Warnings(warnings) << " in the files "
                << Printable(config->path)
                << " governs, more than its max-warnings = " << *config->max_warnings
                << " allows\n";
      too_many = true;
    }
    return too_many;
  }

  void Check(const std::string& path, const conformance::FormatModule* claimed) {
    const Result<const LintConfig*> config = ConfigFor(path);
    if (!config.ok()) {
      // Which findings count is the config's to say: a file it governs cannot be judged without
      // it. Its error is told once; every file it governs is counted as not checked.
      const bool first = broken_configs_.insert(config.status().message()).second;
      Fail(path, config.status().message(), first);
      return;
    }
    Result<FileReport> report = ValidateOne(args_, path, claimed, FilterFor(args_, *config, path));
    if (!report.ok()) {
      Fail(path, report.status().message());
      return;
    }
    tally_.Add(report->diagnostics);
    if (*config) {
      auto& counted = warnings_by_config_[(*config)->path];
      counted.first = *config;
      counted.second += report->diagnostics.warning_count();
    }
    const ValidatedFile file{path, report->format->name, report->diagnostics, args_.quiet};
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

  // `path` could not be checked, for the reason `message` gives (printed unless `say` is false:
  // said already).
  void Fail(const std::string& path, const std::string& message, bool say = true) {
    ++tally_.unchecked;
    if (say) std::cerr << "arcs validate: " << Printable(message) << "\n";
    if (args_.form == Form::kSarif) sarif_.AddFailure(path, message);
  }

  const ValidateArgs& args_;
  const LintConfig* config_;
  const bool color_;
  Output output_;
  ValidateTally tally_;
  SarifLog sarif_;
  ConfigFinder finder_;
  std::set<const LintConfig*> announced_;
  std::set<std::string> broken_configs_;
  // By the config file's path (its messages in a stable order): the config and the warnings of
  // the files it governs.
  std::map<std::string, std::pair<const LintConfig*, std::uint64_t>> warnings_by_config_;
};

// Says on standard error which of the command line's rule prefixes name no rule: a typo would
// otherwise select or ignore nothing, silently.
void WarnUnknownPrefixes(const ValidateArgs& args) {
  const auto warn = [](std::string_view option, const std::string& prefix) {
    if (NamesSomeRule(prefix)) return;
    std::cerr << "arcs validate: warning: " << option << " '" << Printable(prefix)
              << "' matches no rule of any format (arcs rules lists them)\n";
  };
  for (const std::string& p : args.select.value_or(std::vector<std::string>())) {
    warn("--select", p);
  }
  for (const std::string& p : args.ignore) warn("--ignore", p);
}

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
  WarnUnknownPrefixes(parsed);
  std::optional<LintConfig> config;
  if (parsed.config) {
    Result<LintConfig> read = ReadLintConfig(*parsed.config);
    if (!read.ok()) {
      std::cerr << "arcs validate: " << Printable(read.status().message()) << "\n";
      return 2;
    }
    config = std::move(*read);
  }
  ValidateRun run(parsed, config ? &*config : nullptr);
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
