#include "runner/fuzz/fuzz_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <utility>

#include "reference/core/io.h"
#include "reference/core/strings.h"
#include "runner/cli.h"
#include "runner/fuzz/fuzz.h"
#include "runner/fuzz/fuzz_render.h"
#include "runner/report/escape.h"
#include "runner/supervisor/supervisor.h"

namespace arcs::fuzz {
namespace {

constexpr char kUsage[] =
    "usage: arcs fuzz --impl 'COMMAND' [--format F] [--operation OP] [--seconds N | --runs N] "
    "[-j N] [--seed S] [--max-input-bytes N] [--corpus DIR] [--max-corpus-bytes N] [--out DIR] "
    "[--summary FILE] [--report FILE]... [--known-failures FILE]...\n";

constexpr char kHelp[] = R"(
Fuzzes an implementation through the runner protocol (runner/PROTOCOL.md), differentially: the
conformance vectors are the seeds; each mutant (byte-level, JSON-aware and line-aware mutations)
goes to the implementation and to the ARCS reference, and every disagreement the spec does not
leave open is a finding, minimized and deduplicated by its signature (operation, kind, both
outcomes, rule ids). Crashes, timeouts, protocol errors and "errored" answers are findings too.
No coverage comes back from another process: a mutant joins the corpus when either side says
something new about it (a new signature). Only the formats and operations the implementation's
hello declares are sent (as `arcs run` skips the others); the seeds left out are counted.

  --impl 'COMMAND'       the implementation, run with /bin/sh -c (required)
  --format F             only this format's vectors as seeds (repeatable)
  --operation OP         only this operation (repeatable)
  --seconds N            stop after N seconds (default 60, unless --runs is given)
  --runs N               stop after N mutants (with a seed: the same run every time, whatever -j)
  -j N                   N copies of the implementation side by side (default 1)
  --seed S               the random seed (default 1)
  --timeout SECONDS      per case (default 10)
  --max-input-bytes N    leave out seeds larger than N bytes, and cut mutants to N (default 1 MiB)
  --corpus DIR           keep the corpus here between runs: its entries join the seeds, and the
                         mutants kept are written back (one JSON file each); only regular files
                         are read, each of at most what an entry of --max-input-bytes takes (its
                         base64 and 64 KiB); the others are left out, named
  --max-corpus-bytes N   the entries read from --corpus and the mutants kept hold at most N bytes
                         of inputs together (default 256 MiB; the corpus also holds at most 10,000
                         entries): entries past it are left out, named and counted
  --out DIR              write each finding as a candidate vector: DIR/<id>/ with its inputs and
                         candidate.json (its expectation left for you to fill in from the spec)
  --summary FILE         write the run as JSON (execs, execs/s, corpus, findings)
  --report FILE          write the run for people, as FILE's extension says: .html or .htm (one
                         page, no script), .md (Markdown), .json (as --summary); repeatable
  --known-failures FILE  findings already known, to leave out: one signature per line, as a
                         finding prints it after "finding: " (and --summary holds it), '*' standing
                         for any text; '#' starts a comment line. A disagreement a line matches is
                         counted under that line, neither reported nor minimized (repeatable)
  --quiet                only findings and the summary line (no progress line)

On a terminal, a progress line on stderr shows the execs, execs/s, findings, known findings
matched, the corpus and the time (or runs) left, redrawn as each round of mutants is recorded.

A verdict disagreement is open (shown, never a finding) only when an errata reading explains it
for that mutant: the reference rejects only by errors that rest on errata readings (`arcs validate`
names them: [RULE, reading FLAG]) or on its own default limits; or the reference accepts and its
validator takes a reading there, or the implementation rejects only by rules the vectors show a
stricter reading rejecting by; or the operation is one a policy decides and the implementation
declares it otherwise than the reference. Every finding prints
the command that finds it again (--runs up to the run that found it). A second answer to a case
is that case's protocol error (runner/PROTOCOL.md §2), shown by the case asked after it, which is
then asked again in a fresh process.

The output paths (--summary, --report, --out, --corpus) are checked before the implementation
starts. SIGINT, SIGTERM or SIGHUP stops the run at any stage, and what was found so far is
reported and written.

Exit status: 0 when there is no finding and at least one answer was compared with the
reference's; 1 when there is a finding, or when nothing was compared (every answer skipped, the
hello declares none of the selected formats and operations, or the run was stopped first): as
`arcs run` fails an implementation that only skips; 2 on usage errors, an output path that cannot
be written, or when the implementation does not start.
)";

enum class Rendering { kHtml, kMarkdown, kJson };

// The rendering a --report file's extension (in any case) names.
std::optional<Rendering> RenderingOf(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".html" || extension == ".htm") return Rendering::kHtml;
  if (extension == ".md") return Rendering::kMarkdown;
  if (extension == ".json") return Rendering::kJson;
  return std::nullopt;
}

std::string Render(Rendering rendering, const FuzzReport& report, std::string_view reproduce) {
  switch (rendering) {
    case Rendering::kHtml:
      return RenderFuzzHtml(report, reproduce);
    case Rendering::kMarkdown:
      return RenderFuzzMarkdown(report, reproduce);
    case Rendering::kJson:
      break;
  }
  return SummaryJson(report);
}

struct Args {
  FuzzOptions options;
  std::vector<std::string> known_files;  // --known-failures FILE, in order
  runner::SuiteFilter filter;
  std::string out;
  std::string summary;
  std::vector<std::pair<std::string, Rendering>> reports;  // --report FILE, in order
  bool quiet = false;
  bool seconds_given = false;
};

std::string ParseArgs(const std::vector<std::string>& raw, Args* out) {
  const std::vector<std::string> args = runner::SplitOptionValues(
      raw, {"--impl", "--format", "--operation", "--seconds", "--runs", "--jobs", "--seed",
            "--timeout", "--out", "--summary", "--report", "--corpus", "--max-input-bytes",
            "--max-corpus-bytes", "--known-failures"});
  out->filter.resource_probes = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* into) { return runner::TakeValue(args, &i, into); };
    std::string v;
    if (a == "--impl" && value(&out->options.command)) {
    } else if (a == "--format" && value(&v)) {
      out->filter.formats.push_back(v);
    } else if (a == "--operation" && value(&v)) {
      out->filter.operations.push_back(v);
    } else if (a == "--out" && value(&out->out)) {
    } else if (a == "--summary" && value(&out->summary)) {
    } else if (a == "--report" && value(&v)) {
      const std::optional<Rendering> rendering = RenderingOf(v);
      if (!rendering) return "--report wants a file ending in .html, .htm, .md or .json: " + v;
      out->reports.emplace_back(v, *rendering);
    } else if (a == "--known-failures" && value(&v)) {
      out->known_files.push_back(v);
    } else if (a == "--corpus" && value(&out->options.corpus_dir)) {
    } else if (a == "--quiet") {
      out->quiet = true;
    } else if (a == "--seconds" && value(&v)) {
      std::optional<double> s = ParseDecimal(v, 0.001, 31'536'000);
      if (!s) return "--seconds wants a decimal number of seconds";
      out->options.seconds = *s;
      out->seconds_given = true;
    } else if (a == "--timeout" && value(&v)) {
      std::optional<double> s = ParseDecimal(v, 0.001, 86400);
      if (!s) return "--timeout wants seconds, a decimal number from 0.001 to 86400";
      out->options.timeout_seconds = *s;
    } else if (a == "--runs" && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, UINT64_MAX);
      if (!n || *n == 0) return "--runs wants a positive count";
      out->options.runs = *n;
    } else if (a == "--max-input-bytes" && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, std::uint64_t{1} << 30);
      if (!n || *n == 0) return "--max-input-bytes wants a count from 1 to 1073741824";
      out->options.max_input_bytes = *n;
    } else if (a == "--max-corpus-bytes" && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, std::uint64_t{1} << 40);
      if (!n || *n == 0) return "--max-corpus-bytes wants a count from 1 to 1099511627776";
      out->options.max_corpus_bytes = *n;
    } else if (a == "--seed" && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, UINT64_MAX);
      if (!n) return "--seed wants a count";
      out->options.seed = *n;
    } else if ((a == "-j" || a == "--jobs") && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, 256);
      if (!n || *n == 0) return "-j wants a count from 1 to 256";
      out->options.jobs = static_cast<int>(*n);
    } else if (a.starts_with("-")) {
      return "unknown option or missing value: " + a;
    } else {
      return "unexpected argument: " + a;
    }
  }
  if (out->options.command.empty()) return "--impl 'COMMAND' is required";
  // --runs alone is a fixed budget: no clock on top of it.
  if (out->options.runs > 0 && !out->seconds_given) out->options.seconds = 0;
  return "";
}

// The run's implementation, filters and seed: with a finding's --runs (ReproduceCommand), the
// command that finds it again.
std::string Reproduce(const Args& args) {
  std::string command = "arcs fuzz --impl '" + args.options.command + "'";
  for (const std::string& f : args.filter.formats) command += " --format " + f;
  for (const std::string& o : args.filter.operations) command += " --operation " + o;
  return command + " --seed " + std::to_string(args.options.seed);
}

void PrintFinding(const Finding& f, std::string_view reproduce) {
  std::cout << "finding: " << Printable(f.signature) << "\n  " << f.format << " " << f.operation
            << " from " << Printable(f.origin) << " by " << Printable(f.mutations) << "\n  "
            << "the implementation: " << Printable(f.implementation_outcome)
            << "; the reference: " << Printable(f.reference_outcome);
  if (!f.detail.empty()) std::cout << " (" << Printable(report::Truncate(f.detail, 300)) << ")";
  std::cout << "\n";
  for (const auto& [name, bytes] : f.inputs) {
    std::cout << "  input " << Printable(name) << " (" << bytes.size() << " bytes, minimized from "
              << f.found_bytes << "): " << Printable(report::Truncate(bytes, 300)) << "\n";
  }
  std::cout << "  again: " << Printable(ReproduceCommand(reproduce, f)) << "\n";
}

// The signatures of the --known-failures files: each line but blank ones and '#' comments, its
// surrounding spaces trimmed.
Result<std::vector<std::string>> ReadKnownSignatures(const std::vector<std::string>& files) {
  std::vector<std::string> signatures;
  for (const std::string& file : files) {
    Result<std::string> text = ReadFile(file);
    if (!text.ok())
      return Status(text.status().code(),
                    "--known-failures " + file + ": " + text.status().message());
    for (std::string_view line : LinesWithEnds(*text)) {
      line = TrimBlanks(line);
      if (!line.empty() && line.front() != '#') signatures.emplace_back(line);
    }
  }
  return signatures;
}

// A progress line on stderr, redrawn at most 4 times a second and cleared at the end; nothing when
// stderr is no terminal.
class ProgressLine {
 public:
  ProgressLine(bool on, const FuzzOptions& options) : on_(on), options_(options) {}
  ~ProgressLine() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
  }
  void Draw(const FuzzProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (!on_ || (drawn_ && now - last_ < std::chrono::milliseconds(250))) return;
    last_ = now;
    drawn_ = true;
    char line[160];
    std::snprintf(line, sizeof line,
                  "arcs fuzz: %llu execs (%.0f/s), %zu findings, %llu known, corpus %zu, %s",
                  static_cast<unsigned long long>(p.execs), p.seconds > 0 ? p.execs / p.seconds : 0,
                  p.findings, static_cast<unsigned long long>(p.known), p.corpus, Left(p).c_str());
    std::cerr << "\r\033[K" << line << std::flush;
  }

 private:
  std::string Left(const FuzzProgress& p) const {
    if (options_.seconds > 0) {
      return std::to_string(static_cast<long>(std::max(0.0, options_.seconds - p.seconds) + 0.5)) +
             " s left";
    }
    return std::to_string(options_.runs > p.execs ? options_.runs - p.execs : 0) + " runs left";
  }
  bool on_;
  const FuzzOptions& options_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

// How often each --known-failures line matched, when there are any: a line that matched nothing
// in this run may still be met in a longer one, so it is named, not failed.
void PrintKnown(const std::vector<std::string>& signatures,
                const std::vector<std::uint64_t>& hits) {
  if (signatures.empty()) return;
  std::uint64_t total = 0;
  std::size_t met = 0;
  for (std::uint64_t n : hits) {
    total += n;
    met += n > 0;
  }
  std::cout << "known failures: " << total << " disagreements matched " << met << " of "
            << signatures.size() << " listed signatures\n";
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (hits[i] == 0) std::cout << "  not met in this run: " << Printable(signatures[i]) << "\n";
  }
}

// Whether a folder can be written in, or made and written in: it is, or its nearest existing
// ancestor is, a writable directory.
Status CheckWritableFolder(const std::string& dir) {
  std::filesystem::path path(dir);
  for (;;) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        return Status(StatusCode::kIoError, path.string() + ": not a directory");
      }
      if (::access(path.c_str(), W_OK | X_OK) == 0) return Status::Ok();
      return Status(StatusCode::kIoError, path.string() + ": " + std::strerror(errno));
    }
    const int error = errno;
    std::filesystem::path parent = path.parent_path();
    if (parent.empty()) parent = ".";
    if (error != ENOENT || parent == path) {
      return Status(StatusCode::kIoError, path.string() + ": " + std::strerror(error));
    }
    path = std::move(parent);
  }
}

// Every output path, before the run: a long run's findings are not lost to a typo at its end.
std::string CheckOutputs(const Args& args) {
  std::vector<std::pair<std::string, std::string>> files;
  if (!args.summary.empty()) files.emplace_back("--summary", args.summary);
  for (const auto& [path, rendering] : args.reports) files.emplace_back("--report", path);
  for (const auto& [option, path] : files) {
    if (Status s = CheckWritable(path); !s.ok()) return option + " " + path + ": " + s.message();
  }
  for (const auto& [option, dir] : {std::pair<std::string, std::string>{"--out", args.out},
                                    {"--corpus", args.options.corpus_dir}}) {
    if (dir.empty()) continue;
    if (Status s = CheckWritableFolder(dir); !s.ok())
      return option + " " + dir + ": " + s.message();
  }
  return "";
}

}  // namespace

int FuzzCommand(const std::vector<std::string>& raw) {
  supervisor::ReturnLargeBlocksWhenFreed();
  for (const std::string& a : raw) {
    if (a == "--help" || a == "-h") {
      std::cout << kUsage << kHelp;
      return 0;
    }
  }
  Args args;
  if (std::string error = ParseArgs(raw, &args); !error.empty()) {
    std::cerr << "arcs fuzz: " << Printable(error) << "\n"
              << kUsage << "Run 'arcs fuzz --help' for more.\n";
    return 2;
  }
  if (std::string error = CheckOutputs(args); !error.empty()) {
    std::cerr << "arcs fuzz: " << Printable(error) << "\n";
    return 2;
  }
  // From here on a signal stops the run at whatever stage, and what was found is written.
  static std::atomic<bool> stop{false};
  StopOnSignals(&stop, supervisor::kRunnerStopSignals);
  Result<runner::Suite> suite = runner::LoadSuite(runner::DefaultSuiteRoot(), args.filter);
  if (!suite.ok()) {
    std::cerr << "arcs fuzz: " << Printable(suite.status().message()) << "\n";
    return 2;
  }
  Result<std::vector<std::string>> known = ReadKnownSignatures(args.known_files);
  if (!known.ok()) {
    std::cerr << "arcs fuzz: " << Printable(known.status().message()) << "\n";
    return 2;
  }
  args.options.known_signatures = std::move(*known);
  FuzzReport report;
  {
    ProgressLine progress(!args.quiet && ::isatty(2) == 1, args.options);
    args.options.on_progress = [&progress](const FuzzProgress& p) { progress.Draw(p); };
    report = Fuzz(args.options, *suite, &stop);
  }
  if (!report.error.empty()) {
    std::cerr << "arcs fuzz: " << Printable(report.error) << "\n";
    return 2;
  }
  if (report.interrupted) std::cerr << "arcs fuzz: stopped; what was found so far follows\n";
  for (const std::string& note : report.corpus_notes) {
    std::cerr << "arcs fuzz: --corpus: left out " << Printable(note) << "\n";
  }
  if (report.corpus_left_out > report.corpus_notes.size()) {
    std::cerr << "arcs fuzz: --corpus: and " << report.corpus_left_out - report.corpus_notes.size()
              << " more entries left out\n";
  }
  for (const Finding& f : report.findings) PrintFinding(f, Reproduce(args));
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.0f", report.seconds > 0 ? report.execs / report.seconds : 0);
  std::cout << Printable(report.implementation) << ": " << report.execs << " execs in "
            << static_cast<long>(report.seconds + 0.5) << " s (" << rate << "/s), corpus "
            << report.seeds << " -> " << report.corpus << ", " << report.open_disagreements
            << " open disagreements, " << report.findings.size() << " findings, " << report.restarts
            << " restarts\n";
  PrintKnown(args.options.known_signatures, report.known_hits);
  if (report.findings_unkept > 0) {
    std::cout << "and " << report.findings_unkept
              << " more disagreements past the first 1,000 signatures, counted only\n";
  }
  if (report.workers < static_cast<std::size_t>(args.options.jobs)) {
    std::cout << "only " << report.workers << " of " << args.options.jobs
              << " copies of the implementation started: the others' share went to them\n";
  }
  if (report.undeclared > 0) {
    std::cout << report.undeclared
              << " seeds left out: the implementation does not declare their format and "
                 "operation\n";
  }
  if (!args.options.corpus_dir.empty()) {
    std::cout << "corpus " << Printable(args.options.corpus_dir) << ": " << report.loaded
              << " entries read, " << report.corpus - report.seeds << " written, "
              << report.unreadable << " unreadable, " << report.past_cap
              << " past --max-corpus-bytes\n";
  }
  if (!args.summary.empty()) {
    if (Status s = WriteFile(args.summary, SummaryJson(report)); !s.ok()) {
      std::cerr << "arcs fuzz: " << Printable(s.message()) << "\n";
      return 2;
    }
  }
  for (const auto& [path, rendering] : args.reports) {
    if (Status s = WriteFile(path, Render(rendering, report, Reproduce(args))); !s.ok()) {
      std::cerr << "arcs fuzz: " << Printable(s.message()) << "\n";
      return 2;
    }
  }
  if (!args.out.empty() && !report.findings.empty()) {
    if (Status s = WriteCandidates(report, args.out, Reproduce(args)); !s.ok()) {
      std::cerr << "arcs fuzz: " << Printable(s.message()) << "\n";
      return 2;
    }
    std::cout << "candidate vectors: " << Printable(args.out) << "\n";
  }
  if (report.compared == 0) {
    std::cerr << "arcs fuzz: nothing compared: " << NothingCompared(report) << "\n";
    return 1;
  }
  return report.findings.empty() ? 0 : 1;
}

}  // namespace arcs::fuzz
