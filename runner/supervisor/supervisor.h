// Runs an implementation under test over the runner protocol (runner/PROTOCOL.md) and survives
// whatever it does: crashes, hangs, early exits, garbage, wrong ids, floods, children that keep
// the pipes open. Each worker owns one process at a time, started through /bin/sh -c in its own
// process group; every failure ends that process (the whole group is killed and reaped), is
// classified, and the run goes on in a fresh process. Nothing here judges answers: that is the
// caller's business (runner/judge.h).
#ifndef ARCS_RUNNER_SUPERVISOR_SUPERVISOR_H_
#define ARCS_RUNNER_SUPERVISOR_SUPERVISOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/protocol.h"
#include "reference/core/stop_signals.h"
#include "runner/supervisor/subprocess.h"

namespace arcs::supervisor {

struct Options {
  std::string command;                        // run as /bin/sh -c COMMAND
  std::vector<std::string> formats;           // sent in the runner's hello
  double case_timeout_seconds = 10;           // per attempt at a case, from the first byte of the
                                              // request written to the answer read (wall clock)
  double handshake_timeout_seconds = 10;      // from start to the implementation's hello
  double shutdown_grace_seconds = 2;          // after "shutdown", before the group is killed
  std::size_t max_line_bytes = 256u << 20;    // a longer stdout line is a protocol error
  std::size_t stderr_tail_bytes = 64u << 10;  // the last bytes of stderr kept for the report
  int jobs = 1;                               // workers, each with its own process
  // Per attempt at a case too, a limit on the CPU time (user + system) the process group spends
  // over the same span, read from /proc (Subprocess::Send; the approximations are GroupCpuTime's,
  // proc_group.h); 0: none. Unlike the wall clock, it does not run out sooner on a busy machine.
  // Both limits apply: an attempt over either is kTimeout, and its detail says which. The
  // handshake has the wall-clock limit only.
  double case_cpu_timeout_seconds = 0;
  // Each worker thread, and so every process it starts, is held to one CPU (worker k to the k-th
  // allowed CPU, round robin). The runner and its implementation take turns (one request, one
  // answer), and on a virtual machine handing the turn to another, idle CPU costs more than the
  // work of a small case: pinned, the pair runs 3-4 times faster. The price is that an
  // implementation with threads of its own shares one CPU per worker; turn it off for those.
  bool pin_workers = true;
  // Abandonment: the count of consecutive *cases* whose final attempt (after the re-run) failed
  // with kCrash, kTimeout or kProtocolError (a second answer included), across all workers, in
  // the order their outcomes are decided. An answered case (whatever its status) resets it to 0;
  // kRunner, kInterrupted and the other cases not run leave it alone. When it reaches this number
  // the implementation is abandoned: every case not yet begun is kAbandoned, a case whose first
  // attempt has just failed is not re-run, and cases already running finish. So an
  // implementation that fails everything costs at most 2 x max_consecutive_failures attempts
  // (plus up to two per extra worker, for the cases they had begun), whatever the number of
  // cases; and one input that breaks it, met twice in a row (validate, then roundtrip), does not
  // abandon it. Values below 1 count as 1.
  int max_consecutive_failures = 3;
  // Which requests to send, asked once per request, from the calling thread, right after the
  // first handshake and before any case is sent. A request it refuses is not sent and gets
  // Fate::kNotDeclared (whatever else happens in the run), without counting as a success or a
  // failure. Null: everything is sent.
  std::function<bool(const protocol::ImplementationHello&, const protocol::CaseRequest&)>
      should_send;
  // Which requests to measure the implementation's peak memory for (CaseRun::peak_rss_bytes):
  // its process group's peak resident memory is reset just before the request is written and
  // read when the answer arrives. Reading /proc costs a scan per case, so only resource probes
  // ask for it. Null: none.
  std::function<bool(const protocol::CaseRequest&)> measure_memory;
  // Which requests a failed first attempt is made again for, in a fresh process (see Run). The
  // re-run is there for a process poisoned by earlier cases; one sent alone to a process started
  // for it (a resource probe) would only be given the same chance twice. Null: every request.
  std::function<bool(const protocol::CaseRequest&)> rerun_after_failure;
  // Called once with the first process's hello, right after its handshake and before any case is
  // sent (the runner judges answers as they come). Null: not called.
  std::function<void(const protocol::ImplementationHello&)> on_hello;
  // Called with every protocol line written ('>') or read ('<', a whole line without its newline;
  // never a partial one), from the thread that wrote or read it (`arcs run --trace`, which runs
  // one worker). Null: not called.
  std::function<void(char direction, std::string_view line)> trace;
  // The inputs of a request given without them, made each time its message is written and dropped
  // once it is (a resource probe's: tens of megabytes, never held while the answer comes in).
  // Called from the worker that writes. Null: such a request is sent with no inputs.
  std::function<std::shared_ptr<const protocol::Inputs>(const protocol::CaseRequest&)> make_inputs;
};

// What became of one request.
enum class Fate : std::uint8_t {
  kAnswered,         // a well-formed answer with the right id (status ok, skipped or errored)
  kCrash,            // the process exited, died, or closed stdin or stdout while the case was
                     // pending (or while its fresh process was shaking hands)
  kTimeout,          // no answer in time, wall clock or CPU time (or no hello in time from its
                     // fresh process)
  kProtocolError,    // a line that is not a valid answer, an answer with another id, a flood,
                     // an answer before the request was taken (or a bad hello from its fresh
                     // process); or a second answer to this case, before the process's next
                     // answer or after "shutdown" (see Run)
  kAbandoned,        // not run: the implementation was abandoned
  kHandshakeFailed,  // not run: the first process's handshake failed (see Run)
  kInterrupted,      // not run: the run was stopped
  kNotDeclared,      // not sent: Options::should_send refused it (the hello does not declare it)
  kRunner,           // not run: the runner could not start a process for it (its own resources
                     // ran out: RunSummary::runner_error), or had stopped for that reason
};
// "answered", "crash", "timeout", "protocol", "abandoned", "handshake", "interrupted",
// "not declared", "runner".
std::string_view FateName(Fate fate);

// What became of one case sent to an implementation: its fate and answer, and how it ran (the
// report's judgement of it is report::Outcome, made from this by the runner).
struct CaseRun {
  std::size_t index = 0;  // the request's index in the vector given to Run
  Fate fate = Fate::kAnswered;
  protocol::Answer answer;    // when kAnswered
  std::string detail;         // otherwise: what happened, e.g. "killed by signal 11 (SIGSEGV)
                              // before its answer", "no answer within 10 s of wall-clock time",
                              // "not a valid answer: not a JSON object; the line: \"[1]\""
                              // (untrusted text: it quotes what the implementation said)
  bool rerun = false;         // this is the result of the once-only re-run in a fresh process
                              // (the first attempt's fate is in first_attempt)
  std::string first_attempt;  // "crash: ..." etc. when rerun
  std::uint64_t peak_rss_bytes = 0;  // when measured (Options::measure_memory) and answered
  std::size_t request_bytes = 0;     // the request line's size, "\n" included; 0 if not sent
  double seconds = 0;  // from sending the case to its fate, both attempts when re-run; 0 if not run
};

struct RunSummary {
  bool handshake_ok = false;
  protocol::ImplementationHello hello;  // from the first successful handshake
  std::string handshake_error;          // when !handshake_ok
  bool abandoned = false;
  bool interrupted = false;
  // The runner's own failure that stopped the run early (a system call short of a resource when
  // starting a process: "the runner could not start a process: pipe2: Too many open files
  // (EMFILE); ..."); empty when none. The run is then incomplete, as when interrupted.
  std::string runner_error;
  std::uint64_t processes_started = 0;
  // The last stderr_tail_bytes written by its processes, each process's part (kept when it ends)
  // after a line "--- process N ---" ("--- process N: the last K of T bytes ---" when cut).
  std::string stderr_tail;
};

// Runs every request (their ids must be unique) over `options.jobs` workers and calls
// on_outcome exactly once per request, from worker threads but never concurrently (the calls are
// serialized), in the order the outcomes are decided. Returns when every request has an outcome.
// Every request is sent unless options.should_send refuses it (filtering by the hello is the
// caller's decision). With no requests, Run only shakes hands (and shuts the process down).
//
// The first process is started and shakes hands before any worker starts; if that handshake
// fails, nothing is run (every request is kHandshakeFailed, handshake_error says why) and no
// second process is tried. Later processes (restarts, extra workers) shake hands when they are
// first needed; a failure there is a failed attempt at the case that needed the process, with a
// detail starting "in the handshake of a fresh process: ".
//
// Per case: the request goes to the worker's process; a crash, timeout or protocol error kills
// that process (its whole group) and the case is re-run once in a fresh one (rerun = true, the
// first attempt in first_attempt, the fate the re-run's). The next case then starts yet another
// process. Re-runs are skipped once the run is stopped, abandoned or halted by the runner, and for
// the requests Options::rerun_after_failure refuses.
//
// Second answers: an answered case's outcome is held until its process shows that it did not
// answer it twice, that is until the process answers its next case, or has been shut down (what
// it writes on stdout until it exits, within the shutdown grace, is read for a second answer;
// one line of at most max_line_bytes at a time). A second answer makes the case kProtocolError
// (not re-run: its answer did come, and only another case after it could show whether a fresh
// process answers twice again), and kills the process. The case that was pending when the second
// answer came is not at fault: it is sent again in a fresh process, which is not a failed attempt
// of its own. When its process fails in any other way, or the run is stopped, a held case is
// released as answered.
//
// The runner's own failures: when a process cannot be started (pipe, fork or exec failing, mostly
// for lack of descriptors, processes or memory: too many jobs for the machine's limits), the case
// that needed it is kRunner with the system call and errno in its detail, runner_error says the
// same, no case that has not begun is run any more (they are kRunner too), and cases running
// finish. None of them counts towards abandonment. If it is the first process that cannot start,
// handshake_ok is false and every request is kRunner.
//
// Guarantees: never blocks longer than the timeouts allow; leaves no child process (the group of
// every process it started is killed and every child it forked is reaped) and no open pipe
// behind; memory is bounded by max_line_bytes per worker plus the stderr tails. Each process is
// started, owned and reaped by one worker thread, which ends only after it: so the kernel's
// parent-death signal (subprocess.h) kills a process only when the runner itself dies, and then
// even when it is SIGKILLed. A descendant that leaves its process group (setsid) escapes the
// kill; Run never waits for it or its pipes.
//
// *stop (may be null) is polled at least every 100 ms: when it becomes true, pending requests are
// abandoned as kInterrupted (the one in flight too), running processes are killed without the
// shutdown grace, and Run returns promptly.
RunSummary Run(const Options& options, const std::vector<protocol::CaseRequest>& requests,
               const std::function<void(const CaseRun&)>& on_outcome,
               const std::atomic<bool>* stop);

// Makes every block of a megabyte or more a mapping of its own, given back to the system when
// freed. glibc raises its threshold for that after the first such block is freed, and the pieces
// of a long answer then stay in the heap after use: a process that reads answers of tens of
// megabytes would hold them twice (measured: MCP's long-session replay probe, 443 -> 292 MB of
// runner peak). Called once by the commands that run implementations (arcs run, arcs fuzz).
void ReturnLargeBlocksWhenFreed();

// How a process's answers are read. Public because `arcs fuzz` (runner/fuzz/session.h), which
// asks one case at a time through a Subprocess of its own, must read answers exactly as Run does:
// the same line is the same answer or the same protocol error in both.

// What a line read in reply to a case is.
struct AnswerReading {
  Fate fate = Fate::kAnswered;   // kAnswered or kProtocolError
  protocol::Answer answer = {};  // when kAnswered
  std::string detail = {};       // otherwise: what is wrong (untrusted text: it quotes the line)
  // The line answered the held case again ("answered twice: ..."): the protocol error is that
  // case's, and the request it came in reply to is still unanswered.
  bool second_answer = false;
};

// Reads the line `ex` brought (ex.end is kLine) in reply to `request`. `held` is the id of the
// case the same process answered last, null when none: a line with that id, unless it is
// `request`'s own, is a second answer to it. Not a valid answer, an answer for another case, and
// an answer before the request was all written are protocol errors. `ex` is taken: its line is
// decoded in place.
AnswerReading ClassifyAnswer(const protocol::CaseRequest& request, Exchange ex,
                             const std::string* held);

// A sink for what a process writes after "shutdown" (Subprocess::Shutdown) that looks for a second
// answer to the case `id`, the last it answered: the first valid answer with that id sets *detail
// (empty until then, and outliving the sink) to that case's protocol error ("answered twice: a
// second answer came after the shutdown request; the second answer: ...").
Subprocess::LineSink SecondAnswerSink(std::string id, std::string* detail);

// How `arcs run` and `arcs fuzz` stop (reference/core/stop_signals.h): SIGINT, SIGTERM and SIGHUP
// set the flag Run polls, so the report is still written and no process group is left running;
// the first signal restores the default actions, so a second Ctrl-C kills a stuck program the
// usual way.
inline constexpr StopSignalOptions kRunnerStopSignals{.second_signal_kills = true,
                                                      .restart_system_calls = true};

}  // namespace arcs::supervisor

#endif  // ARCS_RUNNER_SUPERVISOR_SUPERVISOR_H_
