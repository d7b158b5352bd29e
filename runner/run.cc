#include "runner/run.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

#include "conformance/registry.h"
#include "reference/core/strings.h"
#include "runner/judge.h"
#include "runner/supervisor/supervisor.h"

namespace arcs::runner {
namespace {

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

std::vector<report::Blob> Blobs(const std::map<std::string, std::string>& named) {
  std::vector<report::Blob> blobs;
  for (const auto& [name, bytes] : named) blobs.push_back(report::MakeBlob(name, bytes));
  return blobs;
}

// What a person needs to see why the case did not pass: its input, the vector's expectation and
// what came back, with the reference's outputs beside the implementation's to diff them.
report::Evidence Gather(const SuiteCase& c, const supervisor::Outcome& o) {
  report::Evidence e;
  e.vector = c.vector_path;
  e.spec_text = c.expectation->spec_text;
  e.inputs = Blobs(*c.inputs);
  e.expected_properties = c.expectation->expected_properties;
  e.expected_errors = c.expectation->rules.errors;
  e.expected_warnings = c.expectation->rules.warnings;
  if (o.fate != supervisor::Fate::kAnswered) return e;
  const protocol::Answer& answer = o.answer;
  if (answer.status == protocol::AnswerStatus::kOk) {
    e.verdict = std::string(protocol::VerdictName(answer.verdict));
  }
  e.findings_total = answer.findings.size();
  for (const protocol::ReportedFinding& f : answer.findings) {
    if (e.findings.size() == report::kMaxEvidenceFindings) break;
    e.findings.push_back({f.rule, f.severity, f.line, f.message});
  }
  e.outputs = Blobs(answer.outputs);
  // The reference's outputs only help beside an implementation's; a probe's are tens of MB.
  if (!answer.outputs.empty() && !c.resource_probe()) {
    e.reference_outputs = Blobs(c.format->FindOperation(c.operation)->reference(c.Input()).outputs);
  }
  return e;
}

report::CaseResult Score(const SuiteCase& c, const supervisor::Outcome& o,
                         const protocol::ImplementationHello& hello) {
  report::CaseResult r;
  if (o.fate == supervisor::Fate::kAnswered) {
    auto declared = hello.formats.find(std::string(c.format->name));
    Judgement j =
        Judge(c, o.answer,
              declared != hello.formats.end() ? declared->second : protocol::FormatSupport{});
    r.outcome = j.outcome;
    r.error_kind = j.error_kind;
    r.expected = j.outcome == report::Outcome::kPassed ? "" : j.expected;
    r.actual = j.outcome == report::Outcome::kPassed ? "" : j.actual;
    r.message = j.message;
    if (!o.answer.cut.empty()) {  // the report says what the runner did not keep
      const std::string note = "answer cut: " + Join(o.answer.cut, "; ");
      r.message = r.message.empty() ? note : r.message + "; " + note;
    }
    r.rules = j.rules;
    r.mismatch = j.mismatch;
    r.ground = j.ground;
    r.flag = j.flag;
    r.policy = j.policy;
    r.readings = j.readings;
    r.strict = j.strict;
    if (r.outcome == report::Outcome::kErrored && r.expected.empty()) {
      r.expected = DescribeExpectation(c);
    }
  } else {
    r = Unanswered(c, o);
    r.ground = ReportGround(c.expectation->expect.ground);
    r.flag = c.expectation->expect.flag;
  }
  r.id = c.vector->id;
  r.format = c.format->name;
  r.operation = c.operation;
  r.requirements = c.expectation->requirements;
  r.level = c.level;
  r.rerun = o.rerun;
  r.peak_rss_bytes = o.peak_rss_bytes;
  r.seconds = o.seconds;
  if (IsFailure(r.outcome)) r.evidence = Gather(c, o);
  if (o.rerun) {
    std::string note = "re-run in a fresh process after " + o.first_attempt;
    r.message = r.message.empty() ? note : note + "; " + r.message;
  }
  return r;
}

void Summarize(const protocol::ImplementationHello& hello, bool filtered,
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
      s.supported = Declares(hello, f.format, s.operation);
      std::uint64_t op_must = 0, op_must_passed = 0;
      for (const report::CaseResult* c : cases) {
        if (c->operation != op.name) continue;
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
    if (f.certification != "full" && f.missing.empty()) {
      f.missing.push_back("no MUST case was run");
    }
    if (filtered) {
      f.missing.push_back("the run was filtered: the level covers only the selected cases");
      if (f.certification == "full") f.certification = "partial";
    }
    impl->formats.push_back(std::move(f));
  }
}

}  // namespace

bool IsFailure(report::Outcome o) {
  return o == report::Outcome::kFailed || o == report::Outcome::kErrored;
}

ImplementationRun RunImplementation(const std::string& command, bool is_reference,
                                    const Suite& suite, const RunOptions& args,
                                    const KnownFailures& known, const std::atomic<bool>* stop) {
  std::vector<protocol::CaseRequest> requests;
  requests.reserve(suite.cases.size());
  std::vector<std::string> formats;
  for (const SuiteCase& c : suite.cases) {
    const std::string format(c.format->name);
    requests.push_back(c.Request());
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
      formats.push_back(format);
    }
  }
  supervisor::Options options;
  options.command = command;
  options.formats = formats;
  options.case_timeout_seconds = args.timeout_seconds;
  options.handshake_timeout_seconds = std::max(10.0, args.timeout_seconds);
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
  options.should_send = [&](const protocol::ImplementationHello& hello,
                            const protocol::CaseRequest& request) {
    return Declares(hello, request.format, request.operation);
  };

  std::vector<supervisor::Outcome> outcomes(requests.size());
  Progress progress(args.progress, requests.size(),
                    is_reference ? "reference" : command.substr(0, 40));
  supervisor::RunSummary summary = supervisor::Run(
      options, requests,
      [&](const supervisor::Outcome& o) {
        outcomes[o.index] = o;
        progress.Advance();
      },
      stop);

  ImplementationRun run;
  run.runner_error = summary.runner_error;
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
  // Judging a round trip reads both files again: spread it over the workers' threads, as the
  // cases were.
  std::vector<report::CaseResult> scored(suite.cases.size());
  {
    const std::size_t threads =
        std::min<std::size_t>(static_cast<std::size_t>(std::max(1, args.jobs)), scored.size());
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (std::size_t i = t; i < scored.size(); i += threads) {
          scored[i] = Score(suite.cases[i], outcomes[i], summary.hello);
        }
      });
    }
    for (std::size_t i = 0; i < scored.size(); i += std::max<std::size_t>(threads, 1)) {
      scored[i] = Score(suite.cases[i], outcomes[i], summary.hello);
    }
    for (std::thread& thread : pool) thread.join();
  }
  for (std::size_t i = 0; i < suite.cases.size(); ++i) {
    const SuiteCase& c = suite.cases[i];
    report::CaseResult r = std::move(scored[i]);
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
  Summarize(summary.hello, args.filtered, &impl);
  report::SummarizeReadings(&impl);
  return run;
}

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

std::string ReferenceCommand(const std::string& arcs_path) {
  std::string quoted = "'";
  for (char c : arcs_path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "' serve";
}

}  // namespace arcs::runner
