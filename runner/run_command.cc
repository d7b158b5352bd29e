#include "runner/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <optional>

#include "reference/core/io.h"
#include "reference/core/strings.h"
#include "runner/report/escape.h"
#include "runner/report/report.h"
#include "runner/run.h"
#include "runner/suite.h"
#include "runner/supervisor/supervisor.h"
#include "runner/version.h"

namespace arcs::runner {
namespace {

constexpr char kHelp[] = R"(usage: arcs run [--impl 'COMMAND']... [options]

Runs implementations over the runner protocol (runner/PROTOCOL.md) against every conformance
vector and scores them. With no --impl, runs the reference (`arcs serve`). With several, runs
them one after the other and reports them side by side.

  --impl 'COMMAND'            an implementation under test, run with /bin/sh -c (repeatable)
  --format F                  only this format (repeatable)
  --operation OP              only this operation, e.g. validate, roundtrip (repeatable)
  --level L                   only cases at this level: MUST, SHOULD or MAY (repeatable)
  --filter GLOB               only cases whose id, or id/operation, matches (repeatable)
  --no-resource-probes        leave out the cases made at run time to probe resource limits
                              (a 72 MiB line, 4,000,000 nested arrays, 1,000,000 entries,
                              64 MiB of base64: any verdict passes, within the timeout and
                              without a crash; the report shows peak memory for each). Like
                              any filter, it caps certification at partial
  --known-failures FILE       cases expected to fail: one CASE_ID/OPERATION per line, optionally
                              prefixed by IMPLEMENTATION_NAME: ; # starts a comment
  -j N                        run N copies of each implementation in parallel (default 1)
  --timeout SECONDS           per case (default 10)
  --max-consecutive-failures N
                              abandon an implementation after N crashes, timeouts or protocol
                              errors in a row (default 3)
  --report PATH               write the JSON report (render it with `arcs report`)
  --no-pin                    do not hold each worker and its implementation to one CPU (the
                              default makes the request/answer turns much cheaper; turn it off
                              for an implementation that runs threads of its own)
  --suite DIR                 the ARCS source tree holding vectors/ and conformance/
                              (default: $ARCS_SOURCE_DIR, else the tree arcs was built from)
  --quiet                     no progress bar and no per-implementation summary

Exit status: 0 when every MUST case of every implementation passed or is a listed known
failure, no listed case passed, and every implementation passed at least one case; 1 otherwise
(an implementation that only skips has shown nothing), or when interrupted; 2 on usage or I/O
errors, or when the runner itself fails (too many jobs for the open-file or process limit, say:
lower -j or raise `ulimit -n`; the report is then marked incomplete). Cases of operations an
implementation does not declare are skipped and do not fail the run by themselves; the
certification level in the report says what is missing.
)";

struct RunArgs {
  std::vector<std::string> impls;
  SuiteFilter filter;
  std::string known_failures;
  int jobs = 1;
  double timeout = 10;
  int max_consecutive_failures = 3;
  std::string report_path;
  std::string suite_root;
  bool quiet = false;
  bool pin_workers = true;
};

// Returns "" or the usage error.
std::string ParseArgs(const std::vector<std::string>& args, RunArgs* out) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* into) {
      if (i + 1 >= args.size()) return false;
      *into = args[++i];
      return true;
    };
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
    } else if (a == "--known-failures" && value(&out->known_failures)) {
    } else if (a == "--report" && value(&out->report_path)) {
    } else if (a == "--suite" && value(&out->suite_root)) {
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
    } else if (a == "--max-consecutive-failures" && value(&v)) {
      std::optional<std::uint64_t> n = ParseCount(v, 1'000'000);
      if (!n || *n == 0) return "--max-consecutive-failures wants a count from 1 to 1000000";
      out->max_consecutive_failures = static_cast<int>(*n);
    } else if (a.starts_with("-")) {
      return "unknown option or missing value: " + a;
    } else {
      return "unexpected argument: " + a;
    }
  }
  return "";
}

// The command that runs this very binary as the reference server.
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

void PrintSummary(const report::ImplementationReport& impl, std::uint64_t stale) {
  const report::Counts& s = impl.summary;
  // The implementation chose its name, version, language and messages: escaped, like all
  // untrusted text on a terminal.
  auto escaped = [](std::string_view text) { return report::EscapeTerminal(text); };
  std::cout << escaped(impl.name) << " " << escaped(impl.version) << " (" << escaped(impl.language)
            << "): " << s.total << " cases: " << s.passed << " passed, " << s.failed << " failed, "
            << s.errored << " errored, " << s.skipped << " skipped, " << s.known_failures
            << " known failures\n";
  for (const report::FormatSummary& f : impl.formats) {
    std::cout << "  " << f.format << ": " << f.certification;
    for (const report::OperationSummary& op : f.operations) {
      std::cout << "  " << op.operation << " " << op.counts.passed << "/" << op.counts.total;
    }
    std::cout << "\n";
    for (const std::string& m : f.missing) std::cout << "    - " << escaped(m) << "\n";
  }
  if (impl.abandoned) std::cout << "  abandoned after consecutive crashes or timeouts\n";
  if (stale) {
    std::cout << "  " << stale << " listed known failure(s) passed: remove them from the list\n";
  }
  std::size_t shown = 0;
  for (const report::CaseResult& c : impl.cases) {
    bool stale_case = c.outcome == report::Outcome::kPassed && !c.message.empty() &&
                      c.message.find("known failure") != std::string::npos;
    if (!(c.level == "MUST" && IsFailure(c.outcome)) && !stale_case) continue;
    if (++shown > 20) {
      std::cout << "  ... (see the report for the rest)\n";
      break;
    }
    std::cout << "  " << report::OutcomeName(c.outcome) << " " << escaped(c.id) << "/"
              << c.operation;
    if (!c.error_kind.empty()) std::cout << " [" << c.error_kind << "]";
    if (!c.expected.empty()) {
      std::cout << ": expected " << escaped(c.expected) << ", got " << escaped(c.actual);
    }
    if (!c.message.empty()) std::cout << " (" << escaped(c.message) << ")";
    std::cout << "\n";
  }
}

}  // namespace

int RunCommand(const std::vector<std::string>& args) {
  if (std::find_if(args.begin(), args.end(),
                   [](const std::string& a) { return a == "--help" || a == "-h"; }) != args.end()) {
    std::cout << kHelp;
    return 0;
  }
  RunArgs run_args;
  if (std::string error = ParseArgs(args, &run_args); !error.empty()) {
    std::cerr << "arcs run: " << error << "\n\n" << kHelp;
    return 2;
  }
  if (run_args.suite_root.empty()) run_args.suite_root = DefaultSuiteRoot();
  Result<Suite> suite = LoadSuite(run_args.suite_root, run_args.filter);
  if (!suite.ok()) {
    std::cerr << "arcs run: " << suite.status().message() << "\n";
    return 2;
  }
  if (suite->cases.empty()) {
    std::cerr << "arcs run: no case matches the filters\n";
    return 2;
  }
  KnownFailures known;
  if (!run_args.known_failures.empty()) {
    Result<std::string> text = ReadFile(run_args.known_failures);
    if (!text.ok()) {
      std::cerr << "arcs run: " << text.status().message() << "\n";
      return 2;
    }
    Result<KnownFailures> parsed = ParseKnownFailures(run_args.known_failures, *text);
    if (!parsed.ok()) {
      std::cerr << "arcs run: " << parsed.status().message() << "\n";
      return 2;
    }
    known = std::move(*parsed);
  }

  static std::atomic<bool> stop{false};
  supervisor::InstallInterruptHandler(&stop);
  auto started = std::chrono::steady_clock::now();
  report::Report report;
  report.run.arcs_version = std::string(kArcsVersion);
  report.run.started_at = Now();
  report.run.jobs = run_args.jobs;
  report.run.timeout_seconds = run_args.timeout;
  report.run.filters = run_args.filter.Describe();
  report.run.known_failures = run_args.known_failures;
  report.requirements = suite->requirements;

  // A report that cannot be written should say so before the run, not after it.
  if (!run_args.report_path.empty()) {
    if (Status s = CheckWritable(run_args.report_path); !s.ok()) {
      std::cerr << "arcs run: --report " << s.message() << "\n";
      return 2;
    }
  }
  bool reference = run_args.impls.empty();
  std::vector<std::string> commands =
      reference ? std::vector<std::string>{ReferenceCommand(SelfPath())} : run_args.impls;
  RunOptions options;
  options.jobs = run_args.jobs;
  options.timeout_seconds = run_args.timeout;
  options.max_consecutive_failures = run_args.max_consecutive_failures;
  options.filtered = !run_args.filter.Empty();
  options.pin_workers = run_args.pin_workers;
  options.progress = !run_args.quiet && ::isatty(2) && !std::getenv("CI");
  bool failed = false;
  std::string runner_failure;
  for (const std::string& command : commands) {
    if (stop.load()) break;
    ImplementationRun run = RunImplementation(command, reference, *suite, options, known, &stop);
    // An implementation that passed nothing (every case skipped, say) has shown nothing.
    failed = failed || run.must_failed || run.stale_known > 0 || run.report.summary.passed == 0;
    if (!run_args.quiet) PrintSummary(run.report, run.stale_known);
    runner_failure = run.runner_error;
    report.implementations.push_back(std::move(run.report));
    // The next implementation would meet the same limits.
    if (!runner_failure.empty()) break;
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
    if (!run_args.quiet) std::cout << "report: " << run_args.report_path << "\n";
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
  return failed ? 1 : 0;
}

}  // namespace arcs::runner
