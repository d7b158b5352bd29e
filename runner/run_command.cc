#include "runner/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>

#include "reference/core/io.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "reference/core/version.h"
#include "runner/cli.h"
#include "runner/judge.h"
#include "runner/report/escape.h"
#include "runner/report/render_common.h"
#include "runner/report/report.h"
#include "runner/run.h"
#include "runner/suite.h"
#include "runner/supervisor/supervisor.h"

namespace arcs::runner {
namespace {

constexpr char kUsage[] =
    "usage: arcs run [--impl 'COMMAND']... [--format F] [--filter GLOB] [-j N] "
    "[--known-failures [NAME=]FILE]... [--report PATH] [options]\n";

constexpr char kRunHelp[] = R"(
Runs implementations over the runner protocol (runner/PROTOCOL.md) against every conformance
vector and scores them. With no --impl, runs the reference (`arcs serve`). With several, runs
them one after the other and reports them side by side: at most 32 implementations and 32,768
cases in all (10 runs of the whole suite), so that every report stays readable by arcs report and
arcs diff; each case holds at most 32 KiB of the implementation's text in the report, cut with a
visible "…". Options take their value as the next argument or after '=' (--impl=COMMAND, -j8).

  --impl 'COMMAND'            an implementation under test, run with /bin/sh -c (repeatable)
  --format F                  only this format (repeatable)
  --operation OP              only this operation, e.g. validate, roundtrip (repeatable)
  --level L                   only cases at this level: MUST, SHOULD or MAY (repeatable)
  --filter GLOB               only cases whose id, or id/operation, matches (repeatable)
  --no-resource-probes        leave out the cases made at run time to probe resource limits
                              (Spool's 72 MiB line, 4,000,000 nested arrays, 1,000,000 entries
                              and 64 MiB of base64, Model IO's 100 MB session, MCP's 120 MB
                              recording: each run alone, after the other cases, whatever -j;
                              the verdict the text requires, else any, within the timeout and
                              without a crash; the report shows peak memory for each). Like
                              any filter, it caps certification at partial
  --known-failures [NAME=]FILE
                              cases expected to fail: one CASE_ID/OPERATION per line (globs
                              allowed: spool-number-*/roundtrip), optionally prefixed by
                              IMPLEMENTATION_NAME: ; # starts a comment. NAME=FILE applies the
                              list to the implementation whose hello says NAME; lists without a
                              name go with the --impl options in order (one list alone applies
                              to every implementation). A list whose entries all name one
                              implementation is refused for another. A listed case that passes,
                              a glob that lists no failure and an entry naming no case fail the
                              run (stale), except that a filtered run cannot tell the last two
  --write-known-failures DIR  after the run, write DIR/NAME.txt for each implementation: its
                              list (DIR/NAME.txt if it exists, else the list given for it)
                              pruned of stale entries, plus this run's new failures. NAME is
                              its hello's name, each byte but A-Z a-z 0-9 . _ - made '_'; a name
                              over 100 bytes is cut there and followed by '-' and 12 hex digits
                              of the whole name's SHA-256. A list that cannot be written fails
                              the run (exit status 2). A run interrupted (or stopped by the
                              runner's own failure) before it ran every case writes no list and
                              says so: the cases not run would be listed as failures
  -j N                        run N copies of each implementation in parallel (default 1)
  --timeout SECONDS           per case, of wall-clock time (default 10; with --timeout-cpu,
                              10 times the CPU limit and at least 60)
  --timeout-cpu SECONDS       per case, of CPU time (user + system) spent by the
                              implementation's processes, read from /proc every 100 ms: a busy
                              machine does not make it run out sooner. A case over either
                              limit is a timeout, and its message says which
  --timeout-handshake SECONDS for the hello of each process started (default 10, or --timeout
                              if longer)
  --max-consecutive-failures N
                              abandon an implementation after N crashes, timeouts or protocol
                              errors in a row (default 3)
  --report PATH               write the JSON report (render it with `arcs report`)
  --trace CASE                run only this case (CASE_ID, or CASE_ID/OPERATION when it has
                              several operations) and print every protocol line exchanged
  --no-pin                    do not hold each worker and its implementation to one CPU (the
                              default makes the request/answer turns much cheaper; turn it off
                              for an implementation that runs threads of its own)
  --suite DIR                 the ARCS source tree holding vectors/ and conformance/
                              (default: $ARCS_SOURCE_DIR, else the tree arcs was built from)
  --color[=WHEN]              auto (the default: colour on a terminal unless NO_COLOR is set
                              or TERM=dumb), always (--color alone) or never
  --quiet                     no progress bar and no per-implementation summary

Exit status: 0 when every MUST case of every implementation passed or is a listed known
failure, no known-failures entry is stale, and every implementation passed at least one case;
1 otherwise (an implementation that only skips has shown nothing; one that cannot start has
shown nothing either), or when interrupted; 2 on usage or I/O errors, or when the runner itself
fails (too many jobs for the open-file or process limit, say: lower -j or raise `ulimit -n`; the
report is then marked incomplete). Cases of operations an implementation does not declare are
skipped and do not fail the run by themselves; the certification level in the report says what
is missing.
)";

// Failures a summary lists before it only counts the rest.
constexpr std::size_t kListedFailures = 20;
constexpr std::size_t kSlowestShown = 5;
// How much of one protocol line --trace prints.
constexpr std::size_t kTraceLineBytes = 2000;
// A known-failures file is named after its implementation: at most this many bytes of the name,
// then, when cut, '-' and this many hex digits of the name's SHA-256.
constexpr std::size_t kFileNameBytes = 100;
constexpr std::size_t kFileNameHashDigits = 12;

struct KnownFailuresArg {
  std::string name;  // "" when given without NAME=
  std::string path;
};

struct RunArgs {
  std::vector<std::string> impls;
  SuiteFilter filter;
  std::vector<KnownFailuresArg> known_failures;
  std::string write_known_failures;
  int jobs = 1;
  std::optional<double> timeout;  // wall clock; default: WallTimeout
  double timeout_cpu = 0;         // 0: none
  double timeout_handshake = 0;   // 0: the default (RunOptions)
  int max_consecutive_failures = 3;
  std::string report_path;
  std::string suite_root;
  std::string trace;
  ColorWhen color = ColorWhen::kAuto;
  bool quiet = false;
  bool pin_workers = true;
};

// NAME=FILE, unless the whole argument names a file (a path may hold '=').
KnownFailuresArg ParseKnownFailuresArg(const std::string& value) {
  const std::size_t eq = value.find('=');
  std::error_code ignored;
  if (eq == std::string::npos || eq == 0 || std::filesystem::exists(value, ignored)) {
    return {"", value};
  }
  return {value.substr(0, eq), value.substr(eq + 1)};
}

// Returns "" or the usage error.
std::string ParseRunArgs(const std::vector<std::string>& raw, RunArgs* out) {
  const std::vector<std::string> args = SplitOptionValues(
      raw, {"--impl", "--format", "--operation", "--level", "--filter", "--known-failures",
            "--write-known-failures", "--report", "--suite", "--jobs", "--timeout", "--timeout-cpu",
            "--timeout-handshake", "--max-consecutive-failures", "--trace"});
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* into) { return TakeValue(args, &i, into); };
    std::string v;
    if (a == "--impl" && value(&v)) {
      out->impls.push_back(v);
    } else if (a == "--format" && value(&v)) {
      out->filter.formats.push_back(v);
    } else if (a == "--operation" && value(&v)) {
      out->filter.operations.push_back(v);
    } else if (a == "--level" && value(&v)) {
      out->filter.levels.push_back(v);
    } else if (a == "--filter" && value(&v)) {
      out->filter.globs.push_back(v);
    } else if (a == "--known-failures" && value(&v)) {
      out->known_failures.push_back(ParseKnownFailuresArg(v));
    } else if (a == "--write-known-failures" && value(&out->write_known_failures)) {
    } else if (a == "--report" && value(&out->report_path)) {
    } else if (a == "--suite" && value(&out->suite_root)) {
    } else if (a == "--trace" && value(&out->trace)) {
    } else if (a == "--color" || a.starts_with("--color=")) {
      const std::string when = a == "--color" ? "always" : a.substr(8);
      if (!ParseColorWhen(when, &out->color)) return "--color wants auto, always or never";
    } else if (a == "--no-resource-probes") {
      out->filter.resource_probes = false;
    } else if (a == "--no-pin") {
      out->pin_workers = false;
    } else if (a == "--quiet") {
      out->quiet = true;
    } else if ((a == "-j" || a == "--jobs") && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, 256);
      if (!n || *n == 0) return "-j wants a count from 1 to 256";
      out->jobs = static_cast<int>(*n);
    } else if (a == "--timeout" && value(&v)) {
      std::optional<double> t = ParseDecimal(v, 0.001, 86400);
      if (!t) return "--timeout wants seconds, a decimal number from 0.001 to 86400";
      out->timeout = *t;
    } else if (a == "--timeout-handshake" && value(&v)) {
      std::optional<double> t = ParseDecimal(v, 0.001, 86400);
      if (!t) return "--timeout-handshake wants seconds, a decimal number from 0.001 to 86400";
      out->timeout_handshake = *t;
    } else if (a == "--timeout-cpu" && value(&v)) {
      std::optional<double> t = ParseDecimal(v, 0.001, 86400);
      if (!t) return "--timeout-cpu wants seconds, a decimal number from 0.001 to 86400";
      out->timeout_cpu = *t;
    } else if (a == "--max-consecutive-failures" && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, 1'000'000);
      if (!n || *n == 0) return "--max-consecutive-failures wants a count from 1 to 1000000";
      out->max_consecutive_failures = static_cast<int>(*n);
    } else if (a.starts_with("-")) {
      return "unknown option or missing value: " + a;
    } else {
      return "unexpected argument: " + a + " (an implementation is given with --impl 'COMMAND')";
    }
  }
  return "";
}

// This binary, which serves as the reference (`arcs serve`).
std::string SelfPath() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : "arcs";
}

std::string Now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// Everything a summary needs besides the report: what the run found stale, where the report went.
struct SummaryContext {
  const Paint& paint;
  std::string report_path;  // "" when none is written
  double seconds = 0;
};

// "partial 39% of MUST cases", in the level's colour.
std::string CertificationText(const Paint& paint, const report::FormatSummary& format) {
  std::string text = Printable(report::internal::CertificationText(format));
  if (format.certification == "partial") text += " of MUST cases";
  if (format.certification == "full") return paint.Green(text);
  if (format.certification == "partial") return paint.Yellow(text);
  return paint.Red(text);
}

// For the line of a case accepted where it should have been rejected, the rules the file breaks:
// the errors the vector expects (validate), else the requirements it cites; three at most.
std::string BrokenRules(const report::CaseResult& c) {
  const std::vector<std::string>& rules = c.evidence && !c.evidence->expected_errors.empty()
                                              ? c.evidence->expected_errors
                                              : c.requirements;
  if (rules.empty()) return "";
  const std::size_t shown = std::min<std::size_t>(rules.size(), 3);
  std::string out =
      ": " + Printable(Join({rules.begin(), rules.begin() + static_cast<std::ptrdiff_t>(shown)}));
  if (rules.size() > shown) out += " and " + std::to_string(rules.size() - shown) + " more";
  return out;
}

std::string MismatchText(const report::CaseResult& c) {
  const std::string_view mismatch = c.mismatch;
  if (mismatch == "accepted") return " [accepted, should reject" + BrokenRules(c) + "]";
  if (mismatch == "rejected") return " [rejected, should accept]";
  if (mismatch == "output") return " [right verdict, wrong output]";
  if (mismatch == "declaration") return " [policy not declared or not allowed]";
  return "";
}

std::string CaseLine(const report::CaseResult& c) {
  std::string line = "    " + c.level + " " + Printable(c.id) + "/" + c.operation;
  if (!c.error_kind.empty()) line += " [" + c.error_kind + "]";
  if (!c.expected.empty()) {
    line += ": expected " + Printable(c.expected) + ", got " + Printable(c.actual);
  }
  line += MismatchText(c);
  if (!c.message.empty()) line += " (" + Printable(c.message) + ")";
  return line + "\n";
}

// Errored cases that were never run: the reason is the run's, not the case's, so one line says it.
bool NotRun(const report::CaseResult& c) {
  return c.error_kind == "abandoned" || c.error_kind == "handshake" ||
         c.error_kind == "interrupted" || c.error_kind == "runner";
}

void PrintFailures(const report::ImplementationReport& impl, const SummaryContext& context) {
  const Paint& paint = context.paint;
  std::vector<const report::CaseResult*> failed, errored, not_run, stale, rerun;
  for (const report::CaseResult& c : impl.cases) {
    if (c.outcome == report::Outcome::kFailed) failed.push_back(&c);
    if (c.outcome == report::Outcome::kErrored) (NotRun(c) ? not_run : errored).push_back(&c);
    if (c.outcome == report::Outcome::kPassed &&
        c.message.find("known failure, but passed") != std::string::npos) {
      stale.push_back(&c);
    }
    if (c.outcome == report::Outcome::kPassed && c.rerun) rerun.push_back(&c);
  }
  // MUST first: they decide certification.
  std::stable_sort(failed.begin(), failed.end(), [](const auto* a, const auto* b) {
    return (a->level == "MUST") > (b->level == "MUST");
  });
  if (!failed.empty()) {
    std::cout << "  " << paint.Red("failed (" + std::to_string(failed.size()) + ")") << ":\n";
    for (std::size_t i = 0; i < failed.size() && i < kListedFailures; ++i) {
      std::cout << CaseLine(*failed[i]);
    }
    if (failed.size() > kListedFailures) {
      std::cout << "    ... and " << failed.size() - kListedFailures << " more: "
                << (context.report_path.empty()
                        ? "write them all with --report FILE"
                        : "every one, with its evidence, in " + Printable(context.report_path))
                << "\n";
    }
  }
  if (!errored.empty()) {  // never cut: each is a crash, a timeout or a protocol error to fix
    std::cout << "  " << paint.Yellow("errored (" + std::to_string(errored.size()) + ")") << ":\n";
    for (const report::CaseResult* c : errored) std::cout << CaseLine(*c);
  }
  if (!not_run.empty()) {
    std::cout << "  " << paint.Yellow("not run (" + std::to_string(not_run.size()) + ")") << ": "
              << Printable(not_run.front()->actual) << "\n";  // it starts with the fate's name
  }
  if (!rerun.empty()) {  // never cut: each passed only on its second chance
    std::cout << "  "
              << paint.Yellow("passed only when re-run (" + std::to_string(rerun.size()) + ")")
              << ": the first attempt failed; a process poisoned by earlier cases, or a crash or "
                 "timeout that comes and goes\n";
    for (const report::CaseResult* c : rerun) std::cout << CaseLine(*c);
  }
  if (!stale.empty()) {
    std::cout << "  " << paint.Magenta("listed but passed (" + std::to_string(stale.size()) + ")")
              << ": remove them from the known-failures list\n";
    for (const report::CaseResult* c : stale) {
      std::cout << "    " << Printable(c->id) << "/" << c->operation << " ("
                << Printable(c->message) << ")\n";
    }
  }
}

void PrintSlowest(const report::ImplementationReport& impl) {
  std::vector<const report::CaseResult*> cases;
  for (const report::CaseResult& c : impl.cases) {
    if (c.seconds > 0) cases.push_back(&c);
  }
  const std::size_t shown = std::min(kSlowestShown, cases.size());
  std::partial_sort(cases.begin(), cases.begin() + static_cast<std::ptrdiff_t>(shown), cases.end(),
                    [](const auto* a, const auto* b) { return a->seconds > b->seconds; });
  if (shown == 0) return;
  std::cout << "  slowest:";
  for (std::size_t i = 0; i < shown; ++i) {
    std::cout << (i ? ", " : " ") << Printable(cases[i]->id) << "/" << cases[i]->operation << " "
              << Seconds(cases[i]->seconds);
  }
  std::cout << "\n";
}

// Whether the implementation alone lets the run exit 0 (RunCommand adds the run's own reasons).
// One that passed nothing (every case skipped, say) has shown nothing.
bool Green(const ImplementationRun& run) {
  return !run.must_failed && run.stale_known == 0 && run.unused_entries.empty() &&
         run.report.summary.passed > 0;
}

// " (2 only when re-run)", or "" when every case that passed did so at its first attempt.
std::string PassedOnReRun(const report::ImplementationReport& impl) {
  const auto n = std::count_if(impl.cases.begin(), impl.cases.end(), [](const auto& c) {
    return c.outcome == report::Outcome::kPassed && c.rerun;
  });
  return n == 0 ? "" : " (" + std::to_string(n) + " only when re-run)";
}

void PrintSummary(const ImplementationRun& run, const SummaryContext& context) {
  const report::ImplementationReport& impl = run.report;
  const Paint& paint = context.paint;
  const report::Counts& s = impl.summary;
  std::cout << paint.Bold(Printable(impl.name)) << " " << Printable(impl.version) << " ("
            << Printable(impl.language) << "): " << s.total
            << (s.total == 1 ? " case in " : " cases in ") << Seconds(context.seconds) << ": "
            << paint.Green(std::to_string(s.passed) + " passed") << PassedOnReRun(impl) << ", "
            << (s.failed ? paint.Red(std::to_string(s.failed) + " failed") : "0 failed") << ", "
            << (s.errored ? paint.Yellow(std::to_string(s.errored) + " errored") : "0 errored")
            << ", " << s.skipped << " skipped, " << s.known_failures << " known failures\n";
  for (const report::FormatSummary& f : impl.formats) {
    std::cout << "  " << f.format << ": " << CertificationText(paint, f);
    for (const report::OperationSummary& op : f.operations) {
      std::cout << "  " << op.operation << " " << op.counts.passed << "/" << op.counts.total;
    }
    std::cout << "\n    " << report::internal::CertificationMeaning(f) << "\n";
    for (const std::string& m : f.missing) std::cout << "    - " << Printable(m) << "\n";
  }
  if (impl.abandoned) std::cout << "  abandoned after consecutive crashes or timeouts\n";
  PrintFailures(impl, context);
  if (!run.unused_entries.empty()) {
    std::cout << "  "
              << paint.Magenta("stale known-failures entries (" +
                               std::to_string(run.unused_entries.size()) + ")")
              << ": remove them\n";
    for (const std::string& e : run.unused_entries) std::cout << "    " << Printable(e) << "\n";
  }
  PrintSlowest(impl);
  if (Green(run)) {
    std::vector<std::string> levels;
    for (const report::FormatSummary& f : impl.formats) {
      levels.push_back(f.format + " " + report::internal::CertificationText(f));
    }
    std::cout << "  " << paint.Green("green")
              << ": every MUST case passed or is a listed known failure; certification: "
              << Printable(Join(levels)) << "\n";
  }
}

// The lists given, read and parsed; a list given as NAME=FILE has every entry bound to NAME.
struct LoadedLists {
  std::vector<KnownFailures> positional;  // in --impl order
  std::vector<KnownFailures> named;
};

Result<KnownFailures> LoadList(const KnownFailuresArg& arg) {
  Result<std::string> text = ReadFile(arg.path);
  if (!text.ok()) return text.status();
  Result<KnownFailures> list = ParseKnownFailures(arg.path, *text);
  if (!list.ok() || arg.name.empty()) return list;
  for (KnownFailureEntry& e : list->entries) {
    if (!e.implementation.empty() && e.implementation != arg.name) {
      return Status(StatusCode::kInvalidArgument, arg.path + ":" + std::to_string(e.line) +
                                                      ": an entry for " + e.implementation +
                                                      " in the list given for " + arg.name);
    }
    e.implementation = arg.name;
  }
  return list;
}

Result<LoadedLists> LoadLists(const RunArgs& args, std::size_t implementations) {
  LoadedLists lists;
  for (const KnownFailuresArg& arg : args.known_failures) {
    Result<KnownFailures> list = LoadList(arg);
    if (!list.ok()) return list.status();
    (arg.name.empty() ? lists.positional : lists.named).push_back(std::move(*list));
  }
  if (lists.positional.size() > 1 && lists.positional.size() != implementations) {
    return Status(StatusCode::kInvalidArgument,
                  std::to_string(lists.positional.size()) +
                      " known-failures lists without a name for " +
                      std::to_string(implementations) +
                      " implementations: give one per --impl, in order, or name each "
                      "(--known-failures NAME=FILE)");
  }
  return lists;
}

// The entries that apply to the i-th implementation: its own list (or the one list given for
// all), then every named list (each entry bound to its name).
KnownFailures ListsFor(const LoadedLists& lists, std::size_t i) {
  KnownFailures known;
  if (!lists.positional.empty()) {
    known = lists.positional[lists.positional.size() == 1 ? 0 : i];
  }
  for (const KnownFailures& named : lists.named) {
    known.entries.insert(known.entries.end(), named.entries.begin(), named.entries.end());
  }
  return known;
}

// Why the list given for the i-th of `implementations` is not for it (its entries all name
// another), or "". One list given for several implementations applies to all, and is not checked.
std::string WrongList(const LoadedLists& lists, std::size_t i, std::size_t implementations,
                      const std::string& name) {
  if (lists.positional.empty() || (lists.positional.size() == 1 && implementations > 1)) return "";
  const KnownFailures& own = lists.positional[lists.positional.size() == 1 ? 0 : i];
  const std::string named = own.NamedImplementation();
  if (named.empty() || named == name) return "";
  return own.path + " lists the failures of " + named + ", but was given for " + name +
         " (its hello's name): give it with the right --impl, or as --known-failures " + named +
         "=" + own.path;
}

// The list given for the i-th implementation, named NAME: NAME=FILE, else the i-th list without
// a name (the only one, when one was given), else none.
const KnownFailuresArg* GivenList(const std::vector<KnownFailuresArg>& given, std::size_t i,
                                  const std::string& name) {
  std::vector<const KnownFailuresArg*> positional;
  for (const KnownFailuresArg& k : given) {
    if (!k.name.empty() && k.name == name) return &k;
    if (k.name.empty()) positional.push_back(&k);
  }
  if (positional.size() == 1) return positional.front();
  return i < positional.size() ? positional[i] : nullptr;
}

// The implementation's name as a file name: every byte but [A-Za-z0-9._-] as '_', no leading
// '.', and a name longer than kFileNameBytes cut there and told apart by a hash of the whole name
// (a file name has 255 bytes at most, and WriteFile adds a temporary suffix).
std::string SafeFileName(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.';
    out += safe ? c : '_';
  }
  if (out.empty() || out.front() == '.') out.insert(out.begin(), '_');
  if (out.size() > kFileNameBytes) {
    out.resize(kFileNameBytes);
    out += "-" + ToHex(Sha256::Of(name)).substr(0, kFileNameHashDigits);
  }
  return out;
}

// --write-known-failures: DIR/NAME.txt, pruned and completed from this run.
Status WriteList(const std::string& dir, const ImplementationRun& run,
                 const KnownFailuresArg* given, bool filtered) {
  const std::string path =
      (std::filesystem::path(dir) / (SafeFileName(run.report.name) + ".txt")).string();
  std::error_code ignored;
  if (std::error_code made; !std::filesystem::create_directories(dir, made) && made) {
    return Status(StatusCode::kIoError, dir + ": " + made.message());
  }
  std::string old;
  if (std::filesystem::exists(path, ignored)) {
    Result<std::string> text = ReadFile(path);
    if (!text.ok()) return text.status();
    old = std::move(*text);
  } else if (given) {
    Result<std::string> text = ReadFile(given->path);
    if (!text.ok()) return text.status();
    old = std::move(*text);
  }
  Result<std::string> written = WriteKnownFailures(path, old, run.report, filtered);
  if (!written.ok()) return written.status();
  if (Status s = WriteFile(path, *written); !s.ok()) return s;
  std::cout << "known failures: " << Printable(path) << "\n";
  return Status::Ok();
}

// --trace: the one request the argument names.
Status SelectTraced(const std::string& trace, Suite* suite) {
  std::vector<SuiteCase> picked;
  for (SuiteCase& c : suite->cases) {
    if (c.vector->id == trace || c.request_id == trace) picked.push_back(std::move(c));
  }
  if (picked.empty()) {
    return Status(StatusCode::kInvalidArgument, "--trace " + trace +
                                                    ": no such case (among the cases the "
                                                    "other filters select)");
  }
  if (picked.size() > 1) {
    std::string ids;
    for (const SuiteCase& c : picked) ids += " " + c.request_id;
    return Status(StatusCode::kInvalidArgument,
                  "--trace " + trace + ": the case has several operations; name one:" + ids);
  }
  suite->cases = std::move(picked);
  return Status::Ok();
}

void TraceLine(char direction, std::string_view line) {
  std::string shown = Printable(report::Truncate(line, kTraceLineBytes));
  if (line.size() > kTraceLineBytes) {
    shown += " ... (" + std::to_string(line.size()) + " bytes in all)";
  }
  std::cout << (direction == '>' ? "runner > " : "impl   < ") << shown << "\n" << std::flush;
}

int UsageError(const std::string& error) {
  std::cerr << "arcs run: " << Printable(error) << "\n"
            << kUsage << "Run 'arcs run --help' for every option.\n";
  return 2;
}

}  // namespace

int RunCommand(const std::vector<std::string>& args) {
  supervisor::ReturnLargeBlocksWhenFreed();
  if (std::find_if(args.begin(), args.end(),
                   [](const std::string& a) { return a == "--help" || a == "-h"; }) != args.end()) {
    std::cout << kUsage << kRunHelp;
    return 0;
  }
  RunArgs run_args;
  if (std::string error = ParseRunArgs(args, &run_args); !error.empty()) return UsageError(error);
  if (run_args.suite_root.empty()) run_args.suite_root = DefaultSuiteRoot();
  Result<Suite> suite = LoadSuite(run_args.suite_root, run_args.filter);
  if (!suite.ok()) {
    std::cerr << "arcs run: " << Printable(suite.status().message()) << "\n";
    return 2;
  }
  if (!run_args.trace.empty()) {
    if (Status s = SelectTraced(run_args.trace, &*suite); !s.ok()) {
      std::cerr << "arcs run: " << Printable(s.message()) << "\n";
      return 2;
    }
    run_args.jobs = 1;
  }
  if (suite->cases.empty()) {
    std::cerr << "arcs run: no case matches the filters\n";
    return 2;
  }
  const bool reference = run_args.impls.empty();
  std::vector<std::string> commands =
      reference ? std::vector<std::string>{ReferenceCommand(SelfPath())} : run_args.impls;
  if (commands.size() > report::kMaxReportImplementations ||
      commands.size() * suite->cases.size() > report::kMaxReportCases) {
    std::cerr << "arcs run: one report holds at most " << report::kMaxReportImplementations
              << " implementations and " << report::kMaxReportCases << " cases in all; "
              << commands.size() << " x " << suite->cases.size()
              << " is more: run them in several reports (arcs diff compares them)\n";
    return 2;
  }
  Result<LoadedLists> lists = LoadLists(run_args, commands.size());
  if (!lists.ok()) {
    std::cerr << "arcs run: " << Printable(lists.status().message()) << "\n";
    return 2;
  }

  static std::atomic<bool> stop{false};
  StopOnSignals(&stop, supervisor::kRunnerStopSignals);
  auto started = std::chrono::steady_clock::now();
  report::Report report;
  report.run.arcs_version = std::string(kArcsVersion);
  report.run.started_at = Now();
  report.run.jobs = run_args.jobs;
  report.run.timeout_seconds = WallTimeout(run_args.timeout, run_args.timeout_cpu);
  report.run.cpu_timeout_seconds = run_args.timeout_cpu;
  report.run.filters = run_args.filter.Describe();
  if (!run_args.trace.empty()) report.run.filters.push_back("--trace " + run_args.trace);
  std::vector<std::string> list_paths;
  for (const KnownFailuresArg& k : run_args.known_failures) list_paths.push_back(k.path);
  report.run.known_failures = Join(list_paths, ", ");
  report.requirements = suite->requirements;

  // A report that cannot be written should say so before the run, not after it.
  if (!run_args.report_path.empty()) {
    if (Status s = CheckWritable(run_args.report_path); !s.ok()) {
      std::cerr << "arcs run: --report " << s.message() << "\n";
      return 2;
    }
  }
  const bool filtered = !run_args.filter.Empty() || !run_args.trace.empty();
  RunOptions options;
  options.jobs = run_args.jobs;
  options.timeout_seconds = WallTimeout(run_args.timeout, run_args.timeout_cpu);
  options.cpu_timeout_seconds = run_args.timeout_cpu;
  options.handshake_timeout_seconds = run_args.timeout_handshake;
  options.max_consecutive_failures = run_args.max_consecutive_failures;
  options.filtered = filtered;
  options.cases_left_out = run_args.filter.LeavesOutCases() || !run_args.trace.empty();
  options.pin_workers = run_args.pin_workers;
  options.progress = !run_args.quiet && run_args.trace.empty() && ::isatty(2) && !std::getenv("CI");
  if (!run_args.trace.empty()) options.trace = TraceLine;
  const Paint paint(UseColor(run_args.color, 1));
  bool failed = false;
  bool usage_failed = false;
  std::string runner_failure;
  for (std::size_t i = 0; i < commands.size() && !stop.load(); ++i) {
    const auto impl_started = std::chrono::steady_clock::now();
    ImplementationRun run =
        RunImplementation(commands[i], reference, *suite, options, ListsFor(*lists, i), &stop);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - impl_started).count();
    failed = failed || !Green(run);
    if (!run.handshake_error.empty() && !stop.load()) {
      std::cerr << "arcs run: " << paint.Red("error") << ": the implementation "
                << Printable(commands[i]) << " did not start: " << Printable(run.handshake_error)
                << "\n";
    } else if (!run_args.quiet) {
      PrintSummary(run, {paint, run_args.report_path, seconds});
    }
    if (!run_args.trace.empty() && !run.report.cases.empty()) {
      const report::CaseResult& c = run.report.cases.front();
      std::cout << "result: " << report::OutcomeName(c.outcome) << "\n" << CaseLine(c);
    }
    if (std::string wrong = WrongList(*lists, i, commands.size(), run.report.name);
        !wrong.empty() && run.handshake_error.empty()) {
      std::cerr << "arcs run: " << Printable(wrong) << "\n";
      usage_failed = true;
    }
    if (!run_args.write_known_failures.empty() && run.handshake_error.empty()) {
      const KnownFailuresArg* given = GivenList(run_args.known_failures, i, run.report.name);
      if (Status s = WriteList(run_args.write_known_failures, run, given, filtered); !s.ok()) {
        std::cerr << "arcs run: --write-known-failures: " << s.message() << "\n";
        usage_failed = true;
      }
    }
    runner_failure = run.runner_error;
    report.implementations.push_back(std::move(run.report));
    // The next implementation would meet the same limits.
    if (!runner_failure.empty()) break;
  }
  for (const KnownFailures& named : lists->named) {
    const std::string& name = named.entries.empty() ? "" : named.entries.front().implementation;
    const bool found =
        name.empty() || std::any_of(report.implementations.begin(), report.implementations.end(),
                                    [&](const auto& impl) { return impl.name == name; });
    if (!found) {
      std::cerr << "arcs run: --known-failures " << Printable(name) << "=" << Printable(named.path)
                << ": no implementation of this run is named " << Printable(name) << "\n";
      usage_failed = true;
    }
  }
  report.complete =
      !stop.load() && runner_failure.empty() && report.implementations.size() == commands.size();
  report.run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (!run_args.report_path.empty()) {
    if (Status s = WriteFile(run_args.report_path, report::ToJson(report)); !s.ok()) {
      std::cerr << "arcs run: " << s.message() << "\n";
      return 2;
    }
    if (!run_args.quiet) std::cout << "report: " << Printable(run_args.report_path) << "\n";
  }
  if (!runner_failure.empty()) {
    std::cerr << "arcs run: " << runner_failure
              << "; the run stopped early and the report is marked incomplete\n";
    return 2;
  }
  if (!report.complete) {
    std::cerr << "arcs run: interrupted; the report is marked incomplete\n";
    return 1;
  }
  if (usage_failed) return 2;
  return failed ? 1 : 0;
}

}  // namespace arcs::runner
