#include "runner/run.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <vector>

#include "conformance/registry.h"
#include "reference/core/stop_signals.h"
#include "reference/core/strings.h"
#include "runner/judge.h"
#include "runner/report/escape.h"
#include "runner/report/render_common.h"
#include "runner/supervisor/subprocess.h"
#include "runner/supervisor/supervisor.h"

namespace arcs::runner {
namespace {

// A progress line on a terminal, redrawn at most ten times a second; nothing elsewhere:
// "NAME [#####.....] 120/2971  3 failing  ETA 0:42".
class Progress {
 public:
  Progress(bool enabled, std::size_t total, std::string label)
      : enabled_(enabled),
        total_(total),
        label_(std::move(label)),
        started_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (enabled_ && drawn_) std::cerr << "\r\033[K" << std::flush;
  }
  // The implementation's own name, once its hello has given it (escaped: it is untrusted).
  void Rename(std::string_view name) { label_ = Printable(report::Truncate(name, 40)); }
  void Advance(bool failing) {
    ++done_;
    failing_ += failing;
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && done_ != total_) return;
    last_ = now;
    drawn_ = true;
    constexpr int kWidth = 30;
    int filled = total_ ? static_cast<int>(kWidth * done_ / total_) : kWidth;
    std::cerr << "\r\033[K" << label_ << " [" << std::string(filled, '#')
              << std::string(kWidth - filled, '.') << "] " << done_ << "/" << total_;
    if (failing_) std::cerr << "  " << failing_ << " failing";
    std::cerr << "  ETA " << Eta(now) << std::flush;
  }

 private:
  // The time left at the pace so far, as M:SS.
  std::string Eta(std::chrono::steady_clock::time_point now) const {
    const double spent = std::chrono::duration<double>(now - started_).count();
    const double left = done_ ? spent * static_cast<double>(total_ - done_) / done_ : 0;
    const long seconds = static_cast<long>(left + 0.5);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld", seconds / 60, seconds % 60);
    return buffer;
  }

  bool enabled_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::size_t failing_ = 0;
  std::string label_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_;
};

report::CaseResult Unanswered(const SuiteCase& c, const supervisor::CaseRun& o) {
  report::CaseResult r;
  switch (o.fate) {
    case supervisor::Fate::kNotDeclared:
      r.outcome = report::Outcome::kSkipped;
      r.message = "not supported: the implementation does not declare " +
                  std::string(c.format->name) + " " + c.operation;
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
    case supervisor::Fate::kRunner:
      r.error_kind = "runner";  // the runner's own failure, not the implementation's
      break;
    case supervisor::Fate::kAnswered:
      break;
  }
  r.outcome = report::Outcome::kErrored;
  r.expected = DescribeExpectation(c);
  r.actual = std::string(supervisor::FateName(o.fate)) + ": " + o.detail;
  return r;
}

// Most timeouts of a resource probe are an adapter that parses its one huge request line as a
// whole, in a JSON parser that cannot keep up (PROTOCOL.md §3, resource: the line sizes).
std::string ProbeTimeoutHint(std::size_t request_bytes) {
  return "this probe's request is one line of " + report::internal::ByteSize(request_bytes) +
         ": decode it as it is read (a streaming JSON decoder, or the base64 taken out before "
         "parsing), or leave the probes out with --no-resource-probes (runner/PROTOCOL.md §3)";
}

std::vector<report::Blob> Blobs(const std::map<std::string, std::string>& named) {
  std::vector<report::Blob> blobs;
  for (const auto& [name, bytes] : named) blobs.push_back(report::MakeBlob(name, bytes));
  return blobs;
}

// The case's own input files as repository paths: VectorCase::inputs holds them below the suite's
// root, in its manifest's folder (vector_path's); none for a generated case.
std::vector<std::string> CaseFiles(const SuiteCase& c) {
  const std::string folder = "/" + c.vector_path.substr(0, c.vector_path.rfind('/') + 1);
  std::vector<std::string> files;
  for (const auto& [name, path] : c.vector->inputs) {
    const std::size_t at = path.find(folder);
    if (at != std::string::npos) files.push_back(path.substr(at + 1));
  }
  return files;
}

// An answer's verdict ("" unless it is one) and its first kMaxEvidenceFindings findings, with how
// many it reported.
void KeepVerdictAndFindings(const protocol::Answer& answer, std::string* verdict,
                            std::vector<report::FindingEvidence>* findings, std::uint64_t* total) {
  if (answer.status == protocol::AnswerStatus::kOk) {
    *verdict = std::string(protocol::VerdictName(answer.verdict));
  }
  *total = answer.findings.size();
  for (const protocol::ReportedFinding& f : answer.findings) {
    if (findings->size() == report::kMaxEvidenceFindings) break;
    findings->push_back({f.rule, f.severity, f.line, f.message, f.pointer});
  }
}

// What a person needs to see why the case did not pass: its input, the vector's expectation and
// what came back, with the reference's outputs beside the implementation's to diff them, and, for
// validate, the reference's own findings beside the implementation's.
report::Evidence Gather(const SuiteCase& c, const supervisor::CaseRun& o,
                        const conformance::CaseInput& input,
                        const conformance::LazyReferenceAnswer& reference) {
  report::Evidence e;
  e.vector = c.vector_path;
  e.files = CaseFiles(c);
  e.spec_text = c.expectation->spec_text;
  // A case never sent has nothing to show but where it comes from: an implementation that cannot
  // start would otherwise fill its report with every input.
  const supervisor::Fate f = o.fate;
  if (f == supervisor::Fate::kAbandoned || f == supervisor::Fate::kHandshakeFailed ||
      f == supervisor::Fate::kInterrupted || f == supervisor::Fate::kRunner) {
    return e;
  }
  if (const protocol::Inputs* inputs = input.All()) e.inputs = Blobs(*inputs);
  e.expected_properties = c.expectation->expected_properties;
  e.expected_errors = c.expectation->rules.errors;
  e.expected_warnings = c.expectation->rules.warnings;
  // Where and why the file breaks the rules the vector names, as the reference sees it (a probe's
  // input is tens of MB: its findings would say little and cost a second run).
  if (c.operation == "validate" && !c.resource_probe()) {
    KeepVerdictAndFindings(reference.Get(), &e.reference_verdict, &e.reference_findings,
                           &e.reference_findings_total);
  }
  if (o.fate != supervisor::Fate::kAnswered) return e;
  const protocol::Answer& answer = o.answer;
  KeepVerdictAndFindings(answer, &e.verdict, &e.findings, &e.findings_total);
  e.outputs = Blobs(answer.outputs);
  // The reference's outputs only help beside an implementation's; a probe's are tens of MB.
  if (!answer.outputs.empty() && !c.resource_probe()) {
    e.reference_outputs = Blobs(reference.Get().outputs);
  }
  return e;
}

report::CaseResult Score(const SuiteCase& c, const supervisor::CaseRun& o,
                         const protocol::ImplementationHello& hello) {
  const auto found = hello.formats.find(std::string(c.format->name));
  const protocol::FormatSupport declared =
      found != hello.formats.end() ? found->second : protocol::FormatSupport{};
  const conformance::CaseInput input = c.Input();
  const conformance::LazyReferenceAnswer reference(c.format->FindOperation(c.operation)->reference,
                                                   input);
  report::CaseResult r;
  if (o.fate == supervisor::Fate::kAnswered) {
    r = Judge(c, o.answer, declared, &reference);
    if (r.outcome == report::Outcome::kPassed) {
      r.expected.clear();
      r.actual.clear();
    }
    if (!o.answer.cut.empty()) {  // the report says what the runner did not keep
      const std::string note = "answer cut: " + Join(o.answer.cut, "; ");
      r.message = r.message.empty() ? note : r.message + "; " + note;
    }
    if (r.outcome == report::Outcome::kErrored && r.expected.empty()) {
      r.expected = DescribeExpectation(c);
    }
  } else {
    r = Unanswered(c, o);
    if (o.fate == supervisor::Fate::kTimeout && c.resource_probe()) {
      r.message = ProbeTimeoutHint(o.request_bytes);
    }
    r.ground = c.expectation->expect.ground;
    r.flag = c.expectation->expect.flag;
    r.policy = DeclaredPolicy(c, declared);
  }
  r.id = c.vector->id;
  r.format = c.format->name;
  r.operation = c.operation;
  r.requirements = c.expectation->requirements;
  r.level = c.level;
  r.rerun = o.rerun;
  r.peak_rss_bytes = o.peak_rss_bytes;
  r.seconds = o.seconds;
  if (IsFailure(r.outcome)) r.evidence = Gather(c, o, input, reference);
  if (o.rerun) {
    std::string note = "re-run in a fresh process after " + o.first_attempt;
    r.message = r.message.empty() ? note : note + "; " + r.message;
  }
  report::BoundCase(&r);  // what the run holds of a case, as its report does
  return r;
}

// "3 failed, 10 skipped": how the cases that did not pass ended, skipped apart from failed.
std::string NotPassed(const report::Counts& counts) {
  std::vector<std::string> parts;
  for (const auto& [n, what] : {std::pair{counts.failed, "failed"},
                                {counts.errored, "errored"},
                                {counts.skipped, "skipped"},
                                {counts.known_failures, "known failures"}}) {
    if (n > 0) parts.push_back(std::to_string(n) + " " + what);
  }
  return Join(parts);
}

void Summarize(const protocol::ImplementationHello& hello, bool cases_left_out,
               report::ImplementationReport* impl) {
  for (const conformance::FormatModule* def : conformance::Formats()) {
    std::vector<const report::CaseResult*> cases;
    for (const report::CaseResult& c : impl->cases) {
      if (c.format == def->name) cases.push_back(&c);
    }
    if (cases.empty()) continue;
    report::FormatSummary f;
    f.format = def->name;
    if (auto declared = hello.formats.find(f.format); declared != hello.formats.end()) {
      f.policies = declared->second.policies;
    }
    std::uint64_t must = 0, must_passed = 0;
    for (const conformance::OperationSpec& op : def->operations) {
      report::OperationSummary s;
      s.operation = op.name;
      s.supported = protocol::Declares(hello, f.format, s.operation);
      report::Counts op_must_counts;
      for (const report::CaseResult* c : cases) {
        if (c->operation != op.name) continue;
        s.counts.Add(c->outcome);
        s.by_level[c->level].Add(c->outcome);
        f.counts.Add(c->outcome);
        if (c->level == "MUST") op_must_counts.Add(c->outcome);
      }
      const std::uint64_t op_must = op_must_counts.total, op_must_passed = op_must_counts.passed;
      if (s.counts.total == 0) continue;
      must += op_must;
      must_passed += op_must_passed;
      if (!s.supported) {
        f.missing.push_back(s.operation + ": not supported");
      } else if (op_must_passed < op_must) {
        f.missing.push_back(s.operation + ": " + std::to_string(op_must - op_must_passed) + " of " +
                            std::to_string(op_must) + " MUST cases did not pass (" +
                            NotPassed(op_must_counts) + ")");
      }
      f.operations.push_back(std::move(s));
    }
    f.certification = must > 0 && must_passed == must ? "full"
                      : must_passed > 0               ? "partial"
                                                      : "none";
    if (f.certification != "full" && f.missing.empty()) {
      f.missing.push_back("no MUST case was run");
    }
    if (cases_left_out) {
      f.missing.push_back("the run was filtered: the level covers only the selected cases");
      if (f.certification == "full") f.certification = "partial";
    }
    impl->formats.push_back(std::move(f));
  }
}

// Calls each(line_number, line) for every line of `text`, the last one without its newline.
template <typename Fn>
void ForEachLine(std::string_view text, Fn each) {
  std::size_t number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    each(++number, text.substr(start, end - start));
    start = end + 1;
  }
}

bool IsGlob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

// The suite's cases through the supervisor: the vectors' cases in one supervisor::Run, then the
// resource probes' cases one at a time, each in a Run of its own (RunProbe). A probe's input is
// tens of megabytes: made all at once and held for the whole run, they would cost gigabytes. Each
// probe's run starts a process of its own; the summaries add up to one run's, and the probes stop
// where the supervisor would stop a run: interrupted, the runner halted, the implementation
// abandoned.
class SupervisorRuns {
 public:
  // Called once per case of the suite (by its index), as the supervisor's on_outcome is.
  using OnOutcome =
      std::function<void(std::size_t index, const SuiteCase& c, const supervisor::CaseRun& o)>;
  SupervisorRuns(const Suite& suite, const supervisor::Options& options,
                 const std::atomic<bool>* stop, OnOutcome on_outcome)
      : suite_(suite), options_(options), stop_(stop), on_outcome_(std::move(on_outcome)) {}

  supervisor::RunSummary Run() {
    std::vector<protocol::CaseRequest> requests;
    std::vector<const SuiteCase*> cases;
    std::vector<std::size_t> at;
    std::vector<std::size_t> probes;
    for (std::size_t i = 0; i < suite_.cases.size(); ++i) {
      const SuiteCase& c = suite_.cases[i];
      if (c.probe) {
        probes.push_back(i);
        continue;
      }
      requests.push_back(c.Request());
      cases.push_back(&c);
      at.push_back(i);
    }
    supervisor::RunSummary summary = RunCases(options_, requests, cases, at);
    RunProbes(probes, &summary);
    return summary;
  }

  // How many processes the runs start when none needs a restart: one a worker.
  std::uint64_t workers() const { return workers_; }

 private:
  supervisor::RunSummary RunCases(const supervisor::Options& options,
                                  const std::vector<protocol::CaseRequest>& requests,
                                  const std::vector<const SuiteCase*>& cases,
                                  const std::vector<std::size_t>& at) {
    workers_ += std::clamp<std::size_t>(requests.size(), 1, Jobs());
    return supervisor::Run(
        options, requests,
        [&](const supervisor::CaseRun& o) {
          Count(*cases[o.index], o);
          on_outcome_(at[o.index], *cases[o.index], o);
        },
        stop_);
  }

  void RunProbes(const std::vector<std::size_t>& probes, supervisor::RunSummary* summary) {
    for (std::size_t index : probes) {
      const SuiteCase& c = suite_.cases[index];
      supervisor::CaseRun o;
      o.fate = NotRun(summary, &o.detail);
      if (o.fate == supervisor::Fate::kAnswered &&
          !protocol::Declares(summary->hello, c.format->name, c.operation)) {
        o.fate = supervisor::Fate::kNotDeclared;
        o.detail = "not sent: the implementation does not declare " + std::string(c.format->name) +
                   " " + c.operation;
      }
      if (o.fate != supervisor::Fate::kAnswered) {
        on_outcome_(index, c, o);
      } else {
        RunProbe(index, summary);
      }
    }
  }

  // One operation of a probe, alone whatever the jobs: its answer may be about as large as its
  // input (a 100 MB canonical form, 120 MB of replayed answers), and two at once would hold two.
  // Its inputs are made as the request is written and dropped once it is, and made again only if
  // the judgement reads them: never held while the answer comes in.
  void RunProbe(std::size_t index, supervisor::RunSummary* summary) {
    SuiteCase c = suite_.cases[index];
    const conformance::MadeInputs made(c.probe->generate);
    c.made = &made;
    supervisor::Options options = options_;
    options.make_inputs = [&c](const protocol::CaseRequest&) {
      return std::make_shared<const protocol::Inputs>(c.probe->generate());
    };
    supervisor::RunSummary part = RunCases(options, {c.Request()}, {&c}, {index});
    summary->processes_started += part.processes_started;
    summary->abandoned = summary->abandoned || part.abandoned;
    summary->interrupted = summary->interrupted || part.interrupted;
    if (summary->runner_error.empty()) summary->runner_error = part.runner_error;
    if (!part.stderr_tail.empty()) {
      summary->stderr_tail +=
          "--- the processes of resource probe " + c.request_id + " ---\n" + part.stderr_tail;
      supervisor::KeepTail(&summary->stderr_tail, options_.stderr_tail_bytes);
    }
  }

  // Why the probes' cases not yet begun are not to be run (its fate, *detail what the supervisor
  // would say), or kAnswered when they are.
  supervisor::Fate NotRun(supervisor::RunSummary* summary, std::string* detail) const {
    if (!summary->handshake_ok) {
      *detail = "not run: no handshake (" + summary->handshake_error + ")";
      return supervisor::Fate::kHandshakeFailed;
    }
    if (Stopped(stop_)) {
      *detail = "not run: the run was stopped";
      return supervisor::Fate::kInterrupted;
    }
    if (!summary->runner_error.empty()) {
      *detail = "not run: " + summary->runner_error;
      return supervisor::Fate::kRunner;
    }
    if (summary->abandoned || failed_in_a_row_ >= std::max(1, options_.max_consecutive_failures)) {
      summary->abandoned = true;
      *detail = "not run: the implementation was abandoned after " +
                std::to_string(failed_in_a_row_) + " consecutive failed cases (the last, " +
                last_failure_ + ")";
      return supervisor::Fate::kAbandoned;
    }
    return supervisor::Fate::kAnswered;
  }

  // Consecutive failed cases, over every run of the supervisor, as it counts them in one (a
  // fresh process that does not shake hands counts too).
  void Count(const SuiteCase& c, const supervisor::CaseRun& o) {
    switch (o.fate) {
      case supervisor::Fate::kAnswered:
        failed_in_a_row_ = 0;
        break;
      case supervisor::Fate::kCrash:
      case supervisor::Fate::kTimeout:
      case supervisor::Fate::kProtocolError:
      case supervisor::Fate::kHandshakeFailed:
        ++failed_in_a_row_;
        last_failure_ = c.request_id + ": " + std::string(supervisor::FateName(o.fate)) + ": " +
                        Excerpt(o.detail, 200);
        break;
      default:
        break;
    }
  }

  std::size_t Jobs() const { return static_cast<std::size_t>(std::max(1, options_.jobs)); }

  const Suite& suite_;
  const supervisor::Options& options_;
  const std::atomic<bool>* stop_;
  OnOutcome on_outcome_;
  std::uint64_t workers_ = 0;
  int failed_in_a_row_ = 0;
  std::string last_failure_;
};

}  // namespace

double WallTimeout(std::optional<double> wall, double cpu_seconds) {
  if (wall) return *wall;
  if (cpu_seconds > 0) return std::clamp(10 * cpu_seconds, 60.0, 86400.0);
  return 10;
}

bool IsFailure(report::Outcome o) {
  return o == report::Outcome::kFailed || o == report::Outcome::kErrored;
}

ImplementationRun RunImplementation(const std::string& command, bool is_reference,
                                    const Suite& suite, const RunOptions& args,
                                    const KnownFailures& known, const std::atomic<bool>* stop) {
  std::vector<std::string> formats;
  for (const SuiteCase& c : suite.cases) {
    const std::string format(c.format->name);
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
      formats.push_back(format);
    }
  }
  supervisor::Options options;
  options.command = command;
  options.formats = formats;
  options.case_timeout_seconds = args.timeout_seconds;
  options.case_cpu_timeout_seconds = args.cpu_timeout_seconds;
  // 10 s at least by default: an implementation on a virtual machine (a JVM, say) starts slowly.
  options.handshake_timeout_seconds = args.handshake_timeout_seconds > 0
                                          ? args.handshake_timeout_seconds
                                          : std::max(10.0, args.timeout_seconds);
  options.jobs = args.jobs;
  options.max_consecutive_failures = args.max_consecutive_failures;
  options.pin_workers = args.pin_workers;
  std::set<std::string> probes;
  for (const SuiteCase& c : suite.cases) {
    if (c.resource_probe()) probes.insert(c.request_id);
  }
  options.measure_memory = [&](const protocol::CaseRequest& request) {
    return probes.contains(request.id);
  };
  options.rerun_after_failure = [&](const protocol::CaseRequest& request) {
    return !probes.contains(request.id);
  };
  options.should_send = [&](const protocol::ImplementationHello& hello,
                            const protocol::CaseRequest& request) {
    return protocol::Declares(hello, request.format, request.operation);
  };

  // Each answer is judged as it comes (the first handshake gives the hello before any case), so
  // the progress line counts failures and no answer's outputs are held past their judgement.
  std::vector<report::CaseResult> scored(suite.cases.size());
  protocol::ImplementationHello hello;
  Progress progress(args.progress, suite.cases.size(),
                    is_reference ? "reference" : Printable(report::Truncate(command, 40)));
  options.on_hello = [&](const protocol::ImplementationHello& h) {
    hello = h;
    progress.Rename(h.implementation.name);
  };
  options.trace = args.trace;
  SupervisorRuns runs(suite, options, stop,
                      [&](std::size_t index, const SuiteCase& c, const supervisor::CaseRun& o) {
                        scored[index] = Score(c, o, hello);
                        progress.Advance(IsFailure(scored[index].outcome) &&
                                         known.Find(hello.implementation.name, c.request_id) < 0);
                      });
  const supervisor::RunSummary summary = runs.Run();

  ImplementationRun run;
  run.hello = summary.hello;
  run.runner_error = summary.runner_error;
  run.handshake_error = summary.handshake_ok ? "" : summary.handshake_error;
  report::ImplementationReport& impl = run.report;
  const protocol::ImplementationInfo& info = summary.hello.implementation;
  impl.name = summary.handshake_ok ? info.name : command;
  impl.version = summary.handshake_ok ? info.version : "unknown";
  impl.language = summary.handshake_ok ? info.language : "unknown";
  impl.homepage = info.homepage;
  impl.command = is_reference ? "arcs serve" : command;
  impl.abandoned = summary.abandoned;
  // Each worker of each supervisor run starts one process; any more were restarts after a crash,
  // timeout or protocol error.
  const std::uint64_t workers = runs.workers();
  impl.restarts = summary.processes_started > workers ? summary.processes_started - workers : 0;
  impl.stderr_tail = summary.stderr_tail;
  if (!summary.handshake_ok) {
    impl.stderr_tail = "handshake failed: " + summary.handshake_error + "\n" + impl.stderr_tail;
  }
  std::vector<bool> listed_failure(known.entries.size(), false);
  std::vector<bool> matched(known.entries.size(), false);
  for (std::size_t i = 0; i < suite.cases.size(); ++i) {
    const SuiteCase& c = suite.cases[i];
    report::CaseResult r = std::move(scored[i]);
    if (const int at = known.Find(impl.name, c.request_id); at >= 0) {
      const KnownFailureEntry& entry = known.entries[static_cast<std::size_t>(at)];
      matched[static_cast<std::size_t>(at)] = true;
      if (IsFailure(r.outcome)) {
        r.outcome = report::Outcome::kKnownFailure;
        listed_failure[static_cast<std::size_t>(at)] = true;
      } else if (r.outcome == report::Outcome::kPassed && !IsGlob(entry.pattern)) {
        ++run.stale_known;
        r.message = "listed in " + entry.path + ":" + std::to_string(entry.line) +
                    " as a known failure, but passed: remove it";
      }
    }
    if (r.level == "MUST" && IsFailure(r.outcome)) run.must_failed = true;
    report::BoundCase(&r);  // the note above quotes the list's path
    impl.summary.Add(r.outcome);
    impl.cases.push_back(std::move(r));
  }
  // A glob that lists no failure, or an entry that names no case, is stale too; a filtered run
  // cannot tell.
  for (std::size_t i = 0; i < known.entries.size() && !args.filtered; ++i) {
    const KnownFailureEntry& e = known.entries[i];
    const bool mine = e.implementation.empty() || e.implementation == impl.name;
    if (mine && !listed_failure[i] && (IsGlob(e.pattern) || !matched[i])) {
      run.unused_entries.push_back(e.path + ":" + std::to_string(e.line) + ": " + e.pattern +
                                   (matched[i] ? " lists no failure" : " names no case"));
    }
  }
  Summarize(summary.hello, args.cases_left_out, &impl);
  report::SummarizeReadings(&impl);
  report::BoundImplementation(&impl);
  return run;
}

bool KnownFailureEntry::Matches(const std::string& implementation_name,
                                const std::string& request_id) const {
  return (implementation.empty() || implementation == implementation_name) &&
         fnmatch(pattern.c_str(), request_id.c_str(), 0) == 0;
}

std::string KnownFailures::NamedImplementation() const {
  if (entries.empty()) return "";
  for (const KnownFailureEntry& e : entries) {
    if (e.implementation != entries.front().implementation) return "";
  }
  return entries.front().implementation;
}

int KnownFailures::Find(const std::string& implementation, const std::string& request_id) const {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].Matches(implementation, request_id)) return static_cast<int>(i);
  }
  return -1;
}

Result<KnownFailures> ParseKnownFailures(const std::string& path, std::string_view text) {
  KnownFailures known;
  known.path = path;
  Status status;
  ForEachLine(text, [&](std::size_t number, std::string_view line) {
    if (!status.ok()) return;
    if (std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    line = TrimBlanks(line);
    if (line.empty()) return;
    KnownFailureEntry entry;
    entry.path = path;
    entry.line = number;
    if (std::size_t colon = line.find(':'); colon != std::string_view::npos) {
      entry.implementation = std::string(TrimBlanks(line.substr(0, colon)));
      line = TrimBlanks(line.substr(colon + 1));
    }
    std::size_t slash = line.rfind('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == line.size() ||
        line.find_first_of(" \t") != std::string_view::npos) {
      status = Status(StatusCode::kParseError,
                      path + ":" + std::to_string(number) +
                          ": expected CASE_ID/OPERATION (globs allowed), optionally prefixed by "
                          "IMPLEMENTATION_NAME:");
      return;
    }
    entry.pattern = std::string(line);
    known.entries.push_back(std::move(entry));
  });
  if (!status.ok()) return status;
  return known;
}

Result<std::string> WriteKnownFailures(const std::string& path, std::string_view old_text,
                                       const report::ImplementationReport& impl, bool filtered) {
  // A case the run did not get to would be listed as a failure, and a list written from an
  // interrupted run would hide it when it fails no more.
  for (const report::CaseResult& c : impl.cases) {
    if (c.error_kind == "interrupted" || c.error_kind == "runner") {
      return Status(StatusCode::kInvalidArgument,
                    path + ": not written: the run stopped before it ran every case (" + c.id +
                        "/" + c.operation + " " + c.error_kind + ")");
    }
  }
  Result<KnownFailures> old = ParseKnownFailures(path, old_text);
  if (!old.ok()) return old.status();
  std::vector<bool> lists_failure(old->entries.size(), false);
  std::vector<bool> names_case(old->entries.size(), false);
  std::vector<std::string> added;
  for (const report::CaseResult& c : impl.cases) {
    const std::string request_id = c.id + "/" + c.operation;
    for (std::size_t i = 0; i < old->entries.size(); ++i) {
      if (old->entries[i].Matches(impl.name, request_id)) names_case[i] = true;
    }
    if (!IsFailure(c.outcome) && c.outcome != report::Outcome::kKnownFailure) continue;
    if (const int at = old->Find(impl.name, request_id); at >= 0) {
      lists_failure[static_cast<std::size_t>(at)] = true;
    } else {
      added.push_back(impl.name + ": " + request_id);
    }
  }
  std::string out;
  if (old_text.empty()) {
    out = "# Known failures of " + impl.name + " " + impl.version +
          ", written by `arcs run --write-known-failures`.\n"
          "# One CASE_ID/OPERATION per line (globs allowed), prefixed by the implementation's "
          "name.\n";
  }
  std::size_t next = 0;  // the next entry, in line order
  ForEachLine(old_text, [&](std::size_t number, std::string_view line) {
    if (next < old->entries.size() && old->entries[next].line == number) {
      const std::size_t i = next++;
      const KnownFailureEntry& e = old->entries[i];
      const bool mine = e.implementation.empty() || e.implementation == impl.name;
      if (mine && !lists_failure[i] && !(filtered && !names_case[i])) return;  // pruned
    }
    out += std::string(line) + "\n";
  });
  while (out.ends_with("\n\n")) out.pop_back();
  for (const std::string& line : added) out += line + "\n";
  return out;
}

std::string ReferenceCommand(const std::string& arcs_path) {
  std::string quoted = "'";
  for (char c : arcs_path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "' serve";
}

}  // namespace arcs::runner
