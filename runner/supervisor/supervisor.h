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
#include <vector>

#include "runner/protocol/protocol.h"

namespace arcs::supervisor {

struct Options {
  std::string command;                    // run as /bin/sh -c COMMAND
  std::vector<std::string> formats;       // sent in the runner's hello
  double case_timeout_seconds = 10;       // per case, from request written to answer read
  double handshake_timeout_seconds = 10;  // from start to the implementation's hello
  double shutdown_grace_seconds = 2;      // after "shutdown", before the group is killed
  std::size_t max_line_bytes = 256u << 20;     // a longer stdout line is a protocol error
  std::size_t stderr_tail_bytes = 64u << 10;   // the last bytes of stderr kept for the report
  int jobs = 1;                                // workers, each with its own process
  int max_consecutive_failures = 3;            // crashes/timeouts in a row before abandoning
};

// What became of one request.
enum class Fate : std::uint8_t {
  kAnswered,       // a well-formed answer with the right id (status ok, skipped or errored)
  kCrash,          // the process exited or died while the case was pending
  kTimeout,        // no answer in time
  kProtocolError,  // a line that is not a valid answer, an answer with another id, a flood
  kAbandoned,      // not run: the implementation was abandoned
  kHandshakeFailed,  // not run: no process of this implementation completed the handshake
  kInterrupted,    // not run: the run was stopped
};
std::string_view FateName(Fate fate);  // "answered", "crash", "timeout", "protocol", ...

struct Outcome {
  std::size_t index = 0;  // the request's index in the vector given to Run
  Fate fate = Fate::kAnswered;
  protocol::Answer answer;  // when kAnswered
  std::string detail;       // otherwise: what happened, e.g. "killed by signal 11 (SIGSEGV)",
                            // "no answer within 10 s", "line 1: expected a JSON object: ..."
  bool rerun = false;       // this is the result of the once-only re-run in a fresh process
                            // (the first attempt's fate is in first_attempt)
  std::string first_attempt;  // "crash: ..." etc. when rerun
};

struct RunSummary {
  bool handshake_ok = false;
  protocol::ImplementationHello hello;  // from the first successful handshake
  std::string handshake_error;          // when !handshake_ok
  bool abandoned = false;
  bool interrupted = false;
  std::uint64_t processes_started = 0;
  std::string stderr_tail;  // the last stderr_tail_bytes written by any of its processes
};

// Runs every request (their ids must be unique) over `options.jobs` workers and calls
// on_outcome exactly once per request, from worker threads but never concurrently (the calls are
// serialized), in completion order. Returns when every request has an outcome. Requests whose
// format or operation the hello does not declare are still sent: filtering is the caller's job.
//
// Guarantees: never blocks longer than the timeouts allow; leaves no child process (the group of
// every process it started is killed and every child it forked is reaped) and no open pipe
// behind; memory is bounded by max_line_bytes per worker plus the stderr tails.
//
// *stop (may be null) is polled at least every 100 ms: when it becomes true, pending requests are
// abandoned as kInterrupted, running processes are killed, and Run returns promptly.
RunSummary Run(const Options& options, const std::vector<protocol::CaseRequest>& requests,
               const std::function<void(const Outcome&)>& on_outcome,
               const std::atomic<bool>* stop);

// Installs SIGINT/SIGTERM handlers that set *flag (once; a second Ctrl-C restores the default
// action so the user can still kill a stuck program) and ignores SIGPIPE.
void InstallInterruptHandler(std::atomic<bool>* flag);

}  // namespace arcs::supervisor

#endif  // ARCS_RUNNER_SUPERVISOR_SUPERVISOR_H_
