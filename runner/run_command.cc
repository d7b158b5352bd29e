#include "runner/run_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <mutex>
#include <optional>

#include "reference/core/io.h"
#include "runner/judge.h"
#include "runner/report/report.h"
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
  --known-failures FILE       cases expected to fail: one CASE_ID/OPERATION per line, optionally
                              prefixed by IMPLEMENTATION_NAME: ; # starts a comment
  -j N                        run N copies of each implementation in parallel (default 1)
  --timeout SECONDS           per case (default 10)
  --max-consecutive-failures N
                              abandon an implementation after N crashes, timeouts or protocol
                              errors in a row (default 3)
  --report PATH               write the JSON report (render it with `arcs report`)
  --suite DIR                 the ARCS source tree holding vectors/ and conformance/
                              (default: $ARCS_SOURCE_DIR, else the tree arcs was built from)
  --quiet                     no progress bar and no per-implementation summary

Exit status: 0 when every MUST case of every implementation passed or is a listed known
failure (and no listed case passed); 1 otherwise, or when interrupted; 2 on usage or I/O errors.
Cases of operations an implementation does not declare are skipped and do not fail the run; the
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
};

std::optional<double> ParsePositive(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0) || v > 1e6) return std::nullopt;
  return v;
}

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
    } else if (a == "--quiet") {
      out->quiet = true;
    } else if ((a == "-j" || a == "--jobs") && value(&v)) {
      std::optional<double> n = ParsePositive(v);
      if (!n || *n != static_cast<int>(*n) || *n > 256) return "-j wants a count from 1 to 256";
      out->jobs = static_cast<int>(*n);
    } else if (a == "--timeout" && value(&v)) {
      std::optional<double> t = ParsePositive(v);
      if (!t) return "--timeout wants a positive number of seconds";
      out->timeout = *t;
    } else if (a == "--max-consecutive-failures" && value(&v)) {
      std::optional<double> n = ParsePositive(v);
      if (!n || *n != static_cast<int>(*n) || *n > 1e6) {
        return "--max-consecutive-failures wants a positive count";
      }
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
std::string ReferenceCommand() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  std::string self = n > 0 ? std::string(path, static_cast<std::size_t>(n)) : "arcs";
  std::string quoted = "'";
  for (char c : self) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "' serve";
}

std::string Now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

bool Declares(const protocol::ImplementationHello& hello, const std::string& format,
              const std::string& operation) {
  auto f = hello.formats.find(format);
  return f != hello.formats.end() &&
         std::find(f->second.operations.begin(), f->second.operations.end(), operation) !=
             f->second.operations.end();
}

// A progress line on a terminal, redrawn at most ten times a second; nothing elsewhere.
class Progress {
 public:
  Progress(bool enabled, std::size_t total, std::string label)
      : enabled_(enabled), total_(total), label_(std::move(label)) {}
  ~Progress() {
    if (enabled_ && drawn_) std::cerr << "\r\033[K" << std::flush;
  }
  void Advance() {
    ++done_;
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done_ != total_) return;
    last_ = now;
    drawn_ = true;
    constexpr int kWidth = 30;
    int filled = total_ ? static_cast<int>(kWidth * done_ / total_) : kWidth;
    std::cerr << "\r\033[K" << label_ << " [" << std::string(filled, '#')
              << std::string(kWidth - filled, '.') << "] " << done_ << "/" << total_ << std::flush;
  }

 private:
  bool enabled_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::string label_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

report::CaseResult Unanswered(const SuiteCase& c, const supervisor::Outcome& o) {
  report::CaseResult r;
  switch (o.fate) {
    case supervisor::Fate::kNotDeclared:
      r.outcome = report::Outcome::kSkipped;
      r.message =
          "not supported: the implementation does not declare " + c.format + " " + c.operation;
      return r;
    case supervisor::Fate::kCrash:
      r.error_kind = "crash";
      break;
    case supervisor::Fate::kTimeout:
      r.error_kind = "timeout";
      break;
    case supervisor::Fate::kProtocolError:
      r.error_kind = "protocol";
      break;
    case supervisor::Fate::kAbandoned:
      r.error_kind = "abandoned";
      break;
    case supervisor::Fate::kHandshakeFailed:
      r.error_kind = "handshake";
      break;
    case supervisor::Fate::kInterrupted:
      r.error_kind = "interrupted";
      break;
    case supervisor::Fate::kAnswered:
      break;
  }
  r.outcome = report::Outcome::kErrored;
  r.expected = DescribeExpectation(c);
  r.actual = std::string(supervisor::FateName(o.fate)) + ": " + o.detail;
  return r;
}

report::CaseResult Score(const SuiteCase& c, const supervisor::Outcome& o,
                         const protocol::ImplementationHello& hello) {
  report::CaseResult r;
  if (o.fate == supervisor::Fate::kAnswered) {
    auto declared = hello.formats.find(c.format);
    Judgement j =
        Judge(c, o.answer,
              declared != hello.formats.end() ? declared->second : protocol::FormatSupport{});
    r.outcome = j.outcome;
    r.error_kind = j.error_kind;
    r.expected = j.outcome == report::Outcome::kPassed ? "" : j.expected;
    r.actual = j.outcome == report::Outcome::kPassed ? "" : j.actual;
    r.message = j.message;
    r.rules = j.rules;
    if (r.outcome == report::Outcome::kErrored && r.expected.empty()) {
      r.expected = DescribeExpectation(c);
    }
  } else {
    r = Unanswered(c, o);
  }
  r.id = c.vector->id;
  r.format = c.format;
  r.operation = c.operation;
  r.requirements = c.vector->requirements;
  r.level = c.level;
  r.rerun = o.rerun;
  if (o.rerun) {
    std::string note = "re-run in a fresh process after " + o.first_attempt;
    r.message = r.message.empty() ? note : note + "; " + r.message;
  }
  return r;
}

bool IsFailure(report::Outcome o) {
  return o == report::Outcome::kFailed || o == report::Outcome::kErrored;
}

// Per-format summaries and the certification level (see report::FormatSummary).
void Summarize(const protocol::ImplementationHello& hello, const SuiteFilter& filter,
               report::ImplementationReport* impl) {
  for (const FormatDef& def : Formats()) {
    std::vector<const report::CaseResult*> cases;
    for (const report::CaseResult& c : impl->cases) {
      if (c.format == def.format) cases.push_back(&c);
    }
    if (cases.empty()) continue;
    report::FormatSummary f;
    f.format = def.format;
    if (auto declared = hello.formats.find(f.format); declared != hello.formats.end()) {
      f.policies = declared->second.policies;
    }
    std::uint64_t must = 0, must_passed = 0;
    for (std::string_view op : def.operations) {
      report::OperationSummary s;
      s.operation = op;
      s.supported = Declares(hello, f.format, s.operation);
      std::uint64_t op_must = 0, op_must_passed = 0;
      for (const report::CaseResult* c : cases) {
        if (c->operation != op) continue;
        s.counts.Add(c->outcome);
        s.by_level[c->level].Add(c->outcome);
        f.counts.Add(c->outcome);
        if (c->level == "MUST") {
          ++op_must;
          op_must_passed += c->outcome == report::Outcome::kPassed;
        }
      }
      if (s.counts.total == 0) continue;
      must += op_must;
      must_passed += op_must_passed;
      if (!s.supported) {
        f.missing.push_back(s.operation + ": not supported");
      } else if (op_must_passed < op_must) {
        f.missing.push_back(s.operation + ": " + std::to_string(op_must - op_must_passed) + " of " +
                            std::to_string(op_must) + " MUST cases did not pass");
      }
      f.operations.push_back(std::move(s));
    }
    f.certification = must > 0 && must_passed == must ? "full"
                      : must_passed > 0               ? "partial"
                                                      : "none";
    if (!filter.Empty()) {
      f.missing.push_back("the run was filtered: the level covers only the selected cases");
      if (f.certification == "full") f.certification = "partial";
    }
    impl->formats.push_back(std::move(f));
  }
}

struct ImplementationRun {
  report::ImplementationReport report;
  bool must_failed = false;       // a MUST case failed or errored, not listed
  std::uint64_t stale_known = 0;  // listed known failures that passed
};

ImplementationRun RunImplementation(const std::string& command, bool is_reference,
                                    const Suite& suite, const RunArgs& args,
                                    const KnownFailures& known, const std::atomic<bool>* stop) {
  std::vector<protocol::CaseRequest> requests;
  requests.reserve(suite.cases.size());
  std::vector<std::string> formats;
  for (const SuiteCase& c : suite.cases) {
    requests.push_back({c.request_id, c.format, c.operation, c.input, c.vector->limits});
    if (std::find(formats.begin(), formats.end(), c.format) == formats.end()) {
      formats.push_back(c.format);
    }
  }
  supervisor::Options options;
  options.command = command;
  options.formats = formats;
  options.case_timeout_seconds = args.timeout;
  options.handshake_timeout_seconds = std::max(10.0, args.timeout);
  options.jobs = args.jobs;
  options.max_consecutive_failures = args.max_consecutive_failures;
  options.should_send = [&](const protocol::ImplementationHello& hello,
                            const protocol::CaseRequest& request) {
    return Declares(hello, request.format, request.operation);
  };

  std::vector<supervisor::Outcome> outcomes(requests.size());
  Progress progress(!args.quiet && ::isatty(2) && !std::getenv("CI"), requests.size(),
                    is_reference ? "reference" : command.substr(0, 40));
  supervisor::RunSummary summary = supervisor::Run(
      options, requests,
      [&](const supervisor::Outcome& o) {
        outcomes[o.index] = o;
        progress.Advance();
      },
      stop);

  ImplementationRun run;
  report::ImplementationReport& impl = run.report;
  const protocol::ImplementationInfo& info = summary.hello.implementation;
  impl.name = summary.handshake_ok ? info.name : command;
  impl.version = summary.handshake_ok ? info.version : "unknown";
  impl.language = summary.handshake_ok ? info.language : "unknown";
  impl.homepage = info.homepage;
  impl.command = is_reference ? "arcs serve" : command;
  impl.abandoned = summary.abandoned;
  // Each worker starts one process; any more were restarts after a crash, timeout or protocol
  // error.
  const std::uint64_t workers = static_cast<std::uint64_t>(args.jobs);
  impl.restarts = summary.processes_started > workers ? summary.processes_started - workers : 0;
  impl.stderr_tail = summary.stderr_tail;
  if (!summary.handshake_ok) {
    impl.stderr_tail = "handshake failed: " + summary.handshake_error + "\n" + impl.stderr_tail;
  }
  for (std::size_t i = 0; i < suite.cases.size(); ++i) {
    const SuiteCase& c = suite.cases[i];
    report::CaseResult r = Score(c, outcomes[i], summary.hello);
    if (known.Lists(impl.name, c.request_id)) {
      if (IsFailure(r.outcome)) {
        r.outcome = report::Outcome::kKnownFailure;
      } else if (r.outcome == report::Outcome::kPassed) {
        ++run.stale_known;
        r.message = "listed in " + known.path + " as a known failure, but passed: remove it";
      }
    }
    if (r.level == "MUST" && IsFailure(r.outcome)) run.must_failed = true;
    impl.summary.Add(r.outcome);
    impl.cases.push_back(std::move(r));
  }
  Summarize(summary.hello, args.filter, &impl);
  return run;
}

void PrintSummary(const report::ImplementationReport& impl, std::uint64_t stale) {
  const report::Counts& s = impl.summary;
  std::cout << impl.name << " " << impl.version << " (" << impl.language << "): " << s.total
            << " cases: " << s.passed << " passed, " << s.failed << " failed, " << s.errored
            << " errored, " << s.skipped << " skipped, " << s.known_failures << " known failures\n";
  for (const report::FormatSummary& f : impl.formats) {
    std::cout << "  " << f.format << ": " << f.certification;
    for (const report::OperationSummary& op : f.operations) {
      std::cout << "  " << op.operation << " " << op.counts.passed << "/" << op.counts.total;
    }
    std::cout << "\n";
    for (const std::string& m : f.missing) std::cout << "    - " << m << "\n";
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
    std::cout << "  " << report::OutcomeName(c.outcome) << " " << c.id << "/" << c.operation;
    if (!c.error_kind.empty()) std::cout << " [" << c.error_kind << "]";
    if (!c.expected.empty()) std::cout << ": expected " << c.expected << ", got " << c.actual;
    if (!c.message.empty()) std::cout << " (" << c.message << ")";
    std::cout << "\n";
  }
}

}  // namespace

bool KnownFailures::Lists(const std::string& implementation, const std::string& request_id) const {
  for (const std::string& key : {std::string(), implementation}) {
    auto it = entries.find(key);
    if (it != entries.end() && it->second.contains(request_id)) return true;
  }
  return false;
}

Result<KnownFailures> ParseKnownFailures(const std::string& path, std::string_view text) {
  KnownFailures known;
  known.path = path;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    auto trim = [](std::string_view s) {
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
        s.remove_suffix(1);
      }
      return s;
    };
    line = trim(line);
    if (line.empty()) continue;
    std::string implementation;
    if (std::size_t colon = line.find(':'); colon != std::string_view::npos) {
      implementation = std::string(trim(line.substr(0, colon)));
      line = trim(line.substr(colon + 1));
    }
    std::size_t slash = line.rfind('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == line.size() ||
        line.find_first_of(" \t") != std::string_view::npos) {
      return Status(StatusCode::kParseError, path + ":" + std::to_string(line_number) +
                                                 ": expected CASE_ID/OPERATION, optionally "
                                                 "prefixed by IMPLEMENTATION_NAME:");
    }
    known.entries[implementation].insert(std::string(line));
  }
  return known;
}

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

  bool reference = run_args.impls.empty();
  std::vector<std::string> commands =
      reference ? std::vector<std::string>{ReferenceCommand()} : run_args.impls;
  bool failed = false;
  for (const std::string& command : commands) {
    if (stop.load()) break;
    ImplementationRun run = RunImplementation(command, reference, *suite, run_args, known, &stop);
    failed = failed || run.must_failed || run.stale_known > 0;
    if (!run_args.quiet) PrintSummary(run.report, run.stale_known);
    report.implementations.push_back(std::move(run.report));
  }
  report.complete = !stop.load() && report.implementations.size() == commands.size();
  report.run.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (!run_args.report_path.empty()) {
    if (Status s = WriteFile(run_args.report_path, report::ToJson(report)); !s.ok()) {
      std::cerr << "arcs run: " << s.message() << "\n";
      return 2;
    }
    if (!run_args.quiet) std::cout << "report: " << run_args.report_path << "\n";
  }
  if (!report.complete) {
    std::cerr << "arcs run: interrupted; the report is marked incomplete\n";
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace arcs::runner
