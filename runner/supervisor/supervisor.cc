#include "runner/supervisor/supervisor.h"

#include <malloc.h>
#include <sched.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "runner/supervisor/subprocess.h"

namespace arcs::supervisor {
namespace {

// After stdout ends, how long the child gets to finish dying so the detail can say how it died.
// Exiting follows closing stdout within microseconds; this only bounds a child that closes stdout
// and lives on.
constexpr auto kExitGrace = std::chrono::seconds(1);
// How much of an offending line a detail quotes.
constexpr std::size_t kQuotedBytes = 200;

Clock::duration ToDuration(double seconds) {
  if (!(seconds > 0)) return Clock::duration::zero();
  // Beyond a day is "for ever" here; clamping keeps the time_point arithmetic from overflowing.
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::min(seconds, 86400.0)));
}

void Trace(const Options& options, char direction, std::string_view line) {
  if (options.trace) options.trace(direction, line);
}

// A case's request as Send writes it: a piece at a time (a probe's request is tens of megabytes,
// and so may its answer be: never both at once), or whole when traced.
Message CaseMessage(const protocol::CaseRequest& given, const Options& options) {
  protocol::CaseRequest made;
  if (!given.inputs && options.make_inputs) {
    made = given;
    made.inputs = options.make_inputs(given);
  }
  const protocol::CaseRequest& request = made.inputs ? made : given;
  if (options.trace) {
    std::string line = protocol::EncodeCase(request);
    Trace(options, '>', line);
    return Message::Of(line + "\n");
  }
  auto line = std::make_shared<protocol::CaseLine>(request);
  return {line->size(), [line] { return line->Next(); }};
}

// One try at getting an answer (or a hello) out of a process.
struct Attempt : AnswerReading {
  std::uint64_t peak_rss_bytes = 0;
  std::size_t request_bytes = 0;
};

std::string Describe(const Attempt& attempt) {
  return std::string(FateName(attempt.fate)) + ": " + attempt.detail;
}

// State shared by the workers of one Run.
class Shared {
 public:
  Shared(const Options& options, const std::vector<protocol::CaseRequest>& requests,
         const std::function<void(const CaseRun&)>& on_outcome, const std::atomic<bool>* stop)
      : options(options), requests(requests), stop(stop), on_outcome_(on_outcome) {}

  const Options& options;
  const std::vector<protocol::CaseRequest>& requests;
  const std::atomic<bool>* stop;
  std::vector<bool> send;  // per request: whether options.should_send accepted it

  bool Stopped() const { return stop && stop->load(std::memory_order_relaxed); }

  bool NextIndex(std::size_t* index) {
    std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= requests.size()) return false;
    *index = i;
    return true;
  }

  void Emit(const CaseRun& outcome) {
    std::lock_guard lock(outcome_mu_);
    if (outcome.fate == Fate::kInterrupted) interrupted_ = true;
    on_outcome_(outcome);
  }

  // The abandonment counter (see supervisor.h): consecutive cases whose final attempt failed.
  void CaseAnswered() {
    std::lock_guard lock(mu_);
    consecutive_failures_ = 0;
  }
  void CaseFailed(const std::string& id, const std::string& what) {
    std::lock_guard lock(mu_);
    ++consecutive_failures_;
    if (!abandoned_ && consecutive_failures_ >= std::max(1, options.max_consecutive_failures)) {
      abandoned_ = true;
      abandon_detail_ = "not run: the implementation was abandoned after " +
                        std::to_string(consecutive_failures_) +
                        " consecutive failed cases (the last, " + QuoteBytes(id, kQuotedBytes) +
                        ": " + what + ")";
    }
  }
  bool Abandoned(std::string* detail) {
    std::lock_guard lock(mu_);
    if (abandoned_ && detail) *detail = abandon_detail_;
    return abandoned_;
  }

  // The runner's own failure (see Run): the first one stops cases from being begun.
  void RunnerFailed(const std::string& detail) {
    std::lock_guard lock(mu_);
    if (runner_error_.empty()) runner_error_ = detail;
  }
  bool RunnerHalted(std::string* detail) {
    std::lock_guard lock(mu_);
    if (!runner_error_.empty() && detail) *detail = "not run: " + runner_error_;
    return !runner_error_.empty();
  }

  // Starts a process; *number is its 1-based rank among the processes of this run.
  Result<std::unique_ptr<Subprocess>> Start(std::uint64_t* number) {
    Result<std::unique_ptr<Subprocess>> process =
        Subprocess::Start(options.command, options.max_line_bytes, options.stderr_tail_bytes);
    if (process.ok()) *number = processes_started_.fetch_add(1) + 1;
    return process;
  }

  // Kills the process (politely first if `shutdown`, passing on_line what it writes on stdout
  // meanwhile) and keeps the end of its stderr.
  void Retire(std::unique_ptr<Subprocess> process, std::uint64_t number, bool shutdown,
              const Subprocess::LineSink& on_line = nullptr) {
    if (!process) return;
    if (shutdown) {
      Trace(options, '>', protocol::EncodeShutdown());
      process->Shutdown(protocol::EncodeShutdown() + "\n",
                        ToDuration(options.shutdown_grace_seconds), stop, on_line);
    }
    process->Kill();
    if (process->stderr_total() == 0) return;
    std::string tail = process->stderr_tail();
    std::string header = "--- process " + std::to_string(number);
    if (tail.size() < process->stderr_total()) {
      header += ": the last " + std::to_string(tail.size()) + " of " +
                std::to_string(process->stderr_total()) + " bytes";
    }
    header += " ---\n";
    if (!tail.empty() && tail.back() != '\n') tail += '\n';
    std::lock_guard lock(mu_);
    stderr_tail_ += header;
    stderr_tail_ += tail;
    KeepTail(&stderr_tail_, options.stderr_tail_bytes);
  }

  void Finish(RunSummary* summary) {
    std::lock_guard lock(mu_);
    summary->abandoned = abandoned_;
    summary->interrupted = interrupted_;
    summary->runner_error = runner_error_;
    summary->processes_started = processes_started_.load();
    summary->stderr_tail = std::move(stderr_tail_);
  }

 private:
  const std::function<void(const CaseRun&)>& on_outcome_;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::uint64_t> processes_started_{0};
  std::mutex outcome_mu_;     // serializes on_outcome
  bool interrupted_ = false;  // guarded by outcome_mu_
  std::mutex mu_;             // guards what follows
  int consecutive_failures_ = 0;
  bool abandoned_ = false;
  std::string abandon_detail_;
  std::string runner_error_;
  std::string stderr_tail_;
};

// "; stderr ends with: "..."" when the process said something there: usually the reason it died.
std::string StderrHint(const Subprocess& process) {
  std::string last = process.LastStderrLine();
  if (last.empty()) return "";
  return "; stderr ends with: " + QuoteBytes(last, kQuotedBytes);
}

std::string PartialHint(const Subprocess& process) {
  if (process.partial_line_size() == 0) return "";
  return "; " + std::to_string(process.partial_line_size()) +
         " bytes of an unfinished line: " + QuoteBytes(process.partial_line_start(), kQuotedBytes);
}

// The fate of an exchange that did not produce a line. `waiting_for` is "answer" or "hello".
Attempt Failure(Subprocess& process, const Exchange& ex, double timeout_seconds,
                std::string_view waiting_for, const Shared& shared) {
  Attempt a;
  switch (ex.end) {
    case SendEnd::kLine:
      break;  // not a failure of this kind; the callers decode lines
    case SendEnd::kStdoutEnded:
    case SendEnd::kStdinClosed:
    case SendEnd::kExited: {
      a.fate = Fate::kCrash;
      std::string how = process.WaitForExit(kExitGrace, shared.stop);
      if (how.empty()) {
        how = ex.end == SendEnd::kStdinClosed ? "closed its stdin" : "closed its stdout";
      }
      a.detail = how + " before its " + std::string(waiting_for) + PartialHint(process) +
                 StderrHint(process);
      break;
    }
    case SendEnd::kTimeout:
    case SendEnd::kCpuLimit:
      a.fate = Fate::kTimeout;
      a.detail = "no " + std::string(waiting_for) + " within ";
      if (ex.end == SendEnd::kTimeout) {
        a.detail += Seconds(timeout_seconds) + " of wall-clock time";
      } else {
        a.detail += Seconds(shared.options.case_cpu_timeout_seconds) +
                    " of CPU time (its processes used " + Seconds(ex.cpu_seconds) +
                    ", user + system)";
      }
      if (ex.written < ex.message_size) {
        a.detail += " (it took only " + std::to_string(ex.written) + " of the " +
                    std::to_string(ex.message_size) + " bytes sent)";
      }
      a.detail += PartialHint(process);
      break;
    case SendEnd::kTooLong:
      a.fate = Fate::kProtocolError;
      a.detail = "a stdout line longer than " + std::to_string(shared.options.max_line_bytes) +
                 " bytes (flooding): " + QuoteBytes(process.partial_line_start(), kQuotedBytes);
      break;
    case SendEnd::kStopped:
      a.fate = Fate::kInterrupted;
      a.detail = "stopped while waiting for its " + std::string(waiting_for);
      break;
  }
  return a;
}

// Starts a process and shakes hands. On success *process holds it, *number its rank, and *hello
// (if given) what it said; otherwise the process is retired and the attempt says why.
Attempt StartAndHandshake(Shared& shared, std::unique_ptr<Subprocess>* process,
                          std::uint64_t* number, protocol::ImplementationHello* hello) {
  const Options& options = shared.options;
  Result<std::unique_ptr<Subprocess>> started = shared.Start(number);
  if (!started.ok()) {
    Attempt a;
    a.fate = Fate::kRunner;
    a.detail = "the runner could not start a process: " + started.status().message();
    return a;
  }
  std::unique_ptr<Subprocess> p = std::move(started).value();
  protocol::RunnerHello ours;
  ours.formats = options.formats;
  const std::string hello_line = protocol::EncodeRunnerHello(ours);
  Trace(options, '>', hello_line);
  Exchange ex = p->Send(hello_line + "\n",
                        Clock::now() + ToDuration(options.handshake_timeout_seconds), shared.stop);
  if (ex.end == SendEnd::kLine) Trace(options, '<', ex.line);
  Attempt a;
  if (ex.end != SendEnd::kLine) {
    a = Failure(*p, ex, options.handshake_timeout_seconds, "hello", shared);
  } else if (Result<protocol::ImplementationHello> theirs =
                 protocol::DecodeImplementationHello(ex.line);
             !theirs.ok()) {
    a.fate = Fate::kProtocolError;
    a.detail = "not a valid hello: " + theirs.status().message() +
               "; the line: " + QuoteBytes(ex.line, kQuotedBytes);
  } else {
    if (hello) *hello = std::move(theirs).value();
    *process = std::move(p);
    return a;
  }
  shared.Retire(std::move(p), *number, /*shutdown=*/false);
  return a;
}

// The CPUs this process may run on, before any worker is pinned (a thread inherits the CPU set of
// the thread that creates it, so it must be read first).
std::vector<int> AllowedCpus() {
  cpu_set_t set;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

// Holds the calling thread to one of `cpus` (round robin by worker) for its lifetime, and restores
// the thread's previous CPU set afterwards. Processes the thread starts inherit the CPU.
class CpuPin {
 public:
  CpuPin(const std::vector<int>& cpus, std::size_t worker) {
    if (cpus.size() < 2 || sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[worker % cpus.size()], &one);
    pinned_ = sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~CpuPin() {
    if (pinned_) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  CpuPin(const CpuPin&) = delete;
  CpuPin& operator=(const CpuPin&) = delete;

 private:
  cpu_set_t saved_;
  bool pinned_ = false;
};

// Runs cases in its own process, one at a time. It starts, owns and reaps every process it uses,
// all on the thread that runs Loop, so that thread outlives each of them: the parent-death signal
// (subprocess.h) follows the thread that forked.
class Worker {
 public:
  Worker(Shared& shared, std::unique_ptr<Subprocess> process, std::uint64_t number)
      : shared_(shared), process_(std::move(process)), number_(number) {}

  void Loop() {
    std::size_t index;
    while (shared_.NextIndex(&index)) RunCase(index);
    End();
  }

 private:
  void RunCase(std::size_t index) {
    const protocol::CaseRequest& request = shared_.requests[index];
    CaseRun out;
    out.index = index;
    if (NotRun(request, &out)) {
      shared_.Emit(out);
      return;
    }
    const Clock::time_point started = Clock::now();
    Attempt attempt = TryOwn(request);
    if (attempt.fate != Fate::kAnswered && attempt.fate != Fate::kInterrupted &&
        attempt.fate != Fate::kRunner && ReRunAllowed(request)) {
      // Once, in a fresh process: a case that fails again breaks the implementation by itself;
      // one that passes had met a process poisoned by earlier cases.
      out.rerun = true;
      out.first_attempt = Describe(attempt);
      attempt = TryOwn(request);
    }
    out.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    out.fate = attempt.fate;
    out.detail = std::move(attempt.detail);
    out.request_bytes = attempt.request_bytes;
    if (out.fate == Fate::kAnswered) {
      out.answer = std::move(attempt.answer);
      out.peak_rss_bytes = attempt.peak_rss_bytes;
      held_ = std::move(out);  // until the process shows it did not answer twice
      return;
    }
    if (out.fate == Fate::kRunner) {
      shared_.RunnerFailed(out.detail);
    } else if (out.fate != Fate::kInterrupted) {
      shared_.CaseFailed(request.id, std::string(FateName(out.fate)) + ": " + out.detail);
    }
    shared_.Emit(out);
  }

  bool ReRunAllowed(const protocol::CaseRequest& request) const {
    const Options& options = shared_.options;
    return !shared_.Stopped() && !shared_.Abandoned(nullptr) && !shared_.RunnerHalted(nullptr) &&
           (!options.rerun_after_failure || options.rerun_after_failure(request));
  }

  // Fills *out for a case that is not to be run, and says so.
  bool NotRun(const protocol::CaseRequest& request, CaseRun* out) {
    if (!shared_.send[out->index]) {
      out->fate = Fate::kNotDeclared;
      out->detail = "not sent: the implementation does not declare " + request.format + " " +
                    request.operation;
    } else if (shared_.Stopped()) {
      out->fate = Fate::kInterrupted;
      out->detail = "not run: the run was stopped";
    } else if (shared_.RunnerHalted(&out->detail)) {
      out->fate = Fate::kRunner;
    } else if (shared_.Abandoned(&out->detail)) {
      out->fate = Fate::kAbandoned;
    } else {
      return false;
    }
    return true;
  }

  // An attempt whose result is the case's own. One that met the held case's second answer is
  // not, and is made again, in a fresh process: nothing is held there, so once is enough.
  Attempt TryOwn(const protocol::CaseRequest& request) {
    Attempt a = TryOnce(request);
    if (a.second_answer) return TryOnce(request);
    return a;  // moved: `cond ? TryOnce() : a` would copy an answer of megabytes
  }

  // One attempt at `request`, in the current process or a fresh one. A failed attempt leaves no
  // process behind: the next one starts afresh.
  Attempt TryOnce(const protocol::CaseRequest& request) {
    if (!process_) {
      Attempt handshake = StartAndHandshake(shared_, &process_, &number_, nullptr);
      if (!process_) {
        if (handshake.fate != Fate::kRunner) {
          handshake.detail = "in the handshake of a fresh process: " + handshake.detail;
        }
        return handshake;
      }
    }
    const Options& options = shared_.options;
    const bool measure = options.measure_memory && options.measure_memory(request);
    if (measure) process_->ResetPeakMemory();
    Exchange ex = process_->Send(CaseMessage(request, options),
                                 Clock::now() + ToDuration(options.case_timeout_seconds),
                                 shared_.stop, options.case_cpu_timeout_seconds);
    if (ex.end == SendEnd::kLine) Trace(options, '<', ex.line);
    const std::string* held = held_ ? &shared_.requests[held_->index].id : nullptr;
    Attempt a = ex.end == SendEnd::kLine
                    ? Attempt{ClassifyAnswer(request, std::move(ex), held)}
                    : Failure(*process_, ex, options.case_timeout_seconds, "answer", shared_);
    if (measure && a.fate == Fate::kAnswered) a.peak_rss_bytes = process_->PeakMemoryBytes();
    a.request_bytes = ex.message_size;
    // The process has moved on from the held case: by answering it again, or otherwise.
    if (a.second_answer) {
      FailHeld(a.detail);
    } else {
      ReleaseHeld();
    }
    if (a.fate != Fate::kAnswered) {
      shared_.Retire(std::move(process_), number_, /*shutdown=*/false);
    }
    return a;
  }

  // No case is left for this worker: shuts its process down, reading what it still writes for a
  // second answer to the held case (unless the run was stopped: then nothing is waited for).
  void End() {
    const bool polite = !shared_.Stopped();
    std::string second;  // the held case's protocol error, when it is answered again
    Subprocess::LineSink on_line;
    if (held_ && polite) on_line = SecondAnswerSink(shared_.requests[held_->index].id, &second);
    shared_.Retire(std::move(process_), number_, polite, on_line);
    if (!second.empty()) {
      FailHeld(second);
    } else {
      ReleaseHeld();
    }
  }

  void ReleaseHeld() {
    if (!held_) return;
    shared_.CaseAnswered();
    shared_.Emit(*held_);
    held_.reset();
  }

  void FailHeld(std::string detail) {
    CaseRun& out = *held_;
    out.fate = Fate::kProtocolError;
    out.detail = std::move(detail);
    out.answer = {};
    out.peak_rss_bytes = 0;
    shared_.CaseFailed(shared_.requests[out.index].id, "protocol: " + out.detail);
    shared_.Emit(out);
    held_.reset();
  }

  Shared& shared_;
  std::unique_ptr<Subprocess> process_;
  std::uint64_t number_;
  // The last case process_ answered, until it shows it did not answer it twice (see Run).
  std::optional<CaseRun> held_;
};

// The first process did not shake hands: every request gets the reason, and the run ends.
void NothingRun(const Attempt& handshake, Shared* shared, RunSummary* summary) {
  summary->handshake_error = Describe(handshake);
  CaseRun out;
  if (handshake.fate == Fate::kInterrupted) {
    out.fate = Fate::kInterrupted;
    out.detail = "not run: the run was stopped";
  } else if (handshake.fate == Fate::kRunner) {
    shared->RunnerFailed(handshake.detail);
    out.fate = Fate::kRunner;
    out.detail = "not run: " + handshake.detail;
  } else {
    out.fate = Fate::kHandshakeFailed;
    out.detail = "not run: no handshake (" + summary->handshake_error + ")";
  }
  for (std::size_t i = 0; i < shared->requests.size(); ++i) {
    out.index = i;
    shared->Emit(out);
  }
  shared->Finish(summary);
  if (handshake.fate == Fate::kInterrupted) summary->interrupted = true;
}

}  // namespace

AnswerReading ClassifyAnswer(const protocol::CaseRequest& request, Exchange ex,
                             const std::string* held) {
  AnswerReading a;
  // The decoder keeps the line (parsed in place); what a detail quotes of it is taken first.
  const std::string quoted = QuoteBytes(ex.line, kQuotedBytes);
  Result<protocol::Answer> answer = protocol::DecodeAnswerTaking(std::move(ex.line));
  if (!answer.ok()) {
    a.fate = Fate::kProtocolError;
    a.detail = "not a valid answer: " + answer.status().message() + "; the line: " + quoted;
  } else if (held && *held != request.id && answer->id == *held) {
    a.fate = Fate::kProtocolError;
    a.second_answer = true;
    a.detail = "answered twice: a second answer came while case " +
               QuoteBytes(request.id, kQuotedBytes) + " was pending; the second answer: " + quoted;
  } else if (answer->id != request.id) {
    a.fate = Fate::kProtocolError;
    a.detail = "an answer for case " + QuoteBytes(answer->id, kQuotedBytes) + " instead of " +
               QuoteBytes(request.id, kQuotedBytes);
  } else if (ex.written < ex.message_size) {
    // It cannot have read the request it claims to answer.
    a.fate = Fate::kProtocolError;
    a.detail = "an answer before the request was taken (" + std::to_string(ex.written) + " of " +
               std::to_string(ex.message_size) + " bytes)";
  } else {
    a.answer = std::move(answer).value();
  }
  return a;
}

Subprocess::LineSink SecondAnswerSink(std::string id, std::string* detail) {
  return [id = std::move(id), detail](std::string_view line) {
    if (!detail->empty()) return;
    const Result<protocol::Answer> answer = protocol::DecodeAnswer(line);
    if (answer.ok() && answer->id == id) {
      *detail =
          "answered twice: a second answer came after the shutdown request; the second "
          "answer: " +
          QuoteBytes(line, kQuotedBytes);
    }
  };
}

std::string_view FateName(Fate fate) {
  switch (fate) {
    case Fate::kAnswered:
      return "answered";
    case Fate::kCrash:
      return "crash";
    case Fate::kTimeout:
      return "timeout";
    case Fate::kProtocolError:
      return "protocol";
    case Fate::kAbandoned:
      return "abandoned";
    case Fate::kHandshakeFailed:
      return "handshake";
    case Fate::kInterrupted:
      return "interrupted";
    case Fate::kNotDeclared:
      return "not declared";
    case Fate::kRunner:
      return "runner";
  }
  return "unknown";
}

void ReturnLargeBlocksWhenFreed() { mallopt(M_MMAP_THRESHOLD, 1 << 20); }

RunSummary Run(const Options& options, const std::vector<protocol::CaseRequest>& requests,
               const std::function<void(const CaseRun&)>& on_outcome,
               const std::atomic<bool>* stop) {
  Shared shared(options, requests, on_outcome, stop);
  RunSummary summary;

  // The first handshake decides for the whole run, and happens once, before any worker starts:
  // an implementation that cannot shake hands costs one process and one timeout, not one per
  // worker.
  const std::vector<int> cpus = options.pin_workers ? AllowedCpus() : std::vector<int>();
  CpuPin pin(cpus, 0);  // the calling thread is worker 0
  std::unique_ptr<Subprocess> first;
  std::uint64_t first_number = 0;
  Attempt handshake = StartAndHandshake(shared, &first, &first_number, &summary.hello);
  if (!first) {
    NothingRun(handshake, &shared, &summary);
    return summary;
  }
  summary.handshake_ok = true;
  if (options.on_hello) options.on_hello(summary.hello);
  shared.send.assign(requests.size(), true);
  if (options.should_send) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      shared.send[i] = options.should_send(summary.hello, requests[i]);
    }
  }

  std::size_t jobs = static_cast<std::size_t>(std::max(1, options.jobs));
  jobs = std::max<std::size_t>(1, std::min(jobs, requests.size()));
  std::vector<std::thread> threads;
  for (std::size_t j = 1; j < jobs; ++j) {
    threads.emplace_back([&shared, &cpus, j] {
      CpuPin pin(cpus, j);
      Worker(shared, nullptr, 0).Loop();
    });
  }
  Worker(shared, std::move(first), first_number).Loop();
  for (std::thread& thread : threads) thread.join();
  shared.Finish(&summary);
  return summary;
}

}  // namespace arcs::supervisor
