// One process of an implementation under test, seen from the runner: started through
// /bin/sh -c in a session (so a process group) of its own, with its stdin, stdout and stderr on
// pipes, spoken to one line at a time under a monotonic deadline, and ended by killing its whole
// process group and reaping it. The supervisor (supervisor.h) decides what the events mean; this
// file only makes sure that no event can block the runner: every read and write is non-blocking
// and polled in slices of at most 100 ms (so a stop flag is seen promptly), stdout lines are
// bounded, stderr is drained all the time into a bounded tail (a child blocked on a full stderr
// pipe would look hung), and the end of the process never waits for the pipes to close (a
// grandchild may hold them open for ever).
//
// No child outlives the runner. Kill() ends the whole process group, and every way the runner
// ends that it can catch (its own exit, SIGINT, SIGTERM, SIGHUP: supervisor.h) goes through it.
// The child (the /bin/sh, or the command it execs) also gets SIGKILL from the kernel when the
// thread that started it ends, whatever ends it, even a SIGKILL of the runner (Linux's
// parent-death signal, set in the child before exec; if the runner died before that, the child
// sees its new parent and exits at once). Its own children in the group are not covered by that
// signal: they die with the group on every catchable exit, but outlive a runner killed outright
// (they see end of file on stdin).
//
// What cannot be tracked at all: a descendant that leaves the process group (setsid, setpgid)
// survives the group kill. We never wait for it: its pipes are closed on our side, so it sees end
// of file and EPIPE, and it is reparented to init (or the nearest subreaper) like any daemon.
#ifndef ARCS_RUNNER_SUPERVISOR_SUBPROCESS_H_
#define ARCS_RUNNER_SUPERVISOR_SUBPROCESS_H_

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/status.h"

namespace arcs::supervisor {

using Clock = std::chrono::steady_clock;

// How a Subprocess::Send ended.
enum class SendEnd : std::uint8_t {
  kLine,         // a complete stdout line arrived (Exchange::line)
  kStdoutEnded,  // stdout reached end of file: the process closed it or ended
  kStdinClosed,  // the process closed its stdin (EPIPE) before taking the whole message
  kExited,       // the process itself ended (its stdout may still be held by a descendant)
  kTimeout,      // the deadline passed
  kCpuLimit,     // the process group spent the CPU time allowed (Exchange::cpu_seconds)
  kTooLong,      // the stdout line grew past the limit without a newline
  kStopped,      // the stop flag was set
};

// What Send writes: `size` bytes, given a piece at a time by `next` ("" once all are given), so
// that a message of megabytes (a case's inputs, protocol::CaseLine) is never held whole.
struct Message {
  std::size_t size = 0;
  std::function<std::string_view()> next;
  static Message Of(std::string text);  // one string, freed once written
};

struct Exchange {
  SendEnd end = SendEnd::kTimeout;
  std::string line;              // kLine: the line, without its "\n"
  std::size_t written = 0;       // bytes of the message written so far
  std::size_t message_size = 0;  // bytes of the message
  double cpu_seconds = 0;        // under a CPU time limit: the CPU time counted at the end
};

// The bytes of a stdout received and not yet taken as lines. An unfinished line of megabytes is
// kept in pieces and joined once its newline comes, each piece freed as it is copied: a long line
// is held once, never twice as in the last growth of one doubling string.
class LineBuffer {
 public:
  static constexpr std::size_t kPieceBytes = 4 << 20;
  static constexpr std::size_t kSpareBytes = 64;

  void Append(const char* data, std::size_t size) { tail_.append(data, size); }
  // A complete line, without its "\n", moved to *line; false when none is complete yet.
  bool TakeLine(std::string* line);
  std::size_t size() const { return pieces_bytes_ + tail_.size(); }
  // The first bytes held, at most a piece's worth (for diagnostics).
  std::string_view start() const { return pieces_.empty() ? tail_ : pieces_.front(); }
  void Clear();

 private:
  std::vector<std::string> pieces_;  // the first bytes of an unfinished line
  std::size_t pieces_bytes_ = 0;
  std::string tail_;
  std::size_t scanned_ = 0;  // tail_[0, scanned_) holds no "\n"
};

class Subprocess {
 public:
  // Starts `/bin/sh -c command` in a new session with pipes on fds 0, 1 and 2; nothing else is
  // inherited (every other fd is closed in the child), every signal has its default action there
  // and none is blocked. `max_line_bytes` bounds one stdout line; `stderr_tail_bytes` bounds the
  // stderr kept. The child is SIGKILLed when the calling *thread* ends (the parent-death signal
  // follows the thread that forked), so that thread must outlive the Subprocess. An error names
  // the system call that failed and its errno (e.g. "pipe2: Too many open files (EMFILE)", with
  // what would help): the runner's resources, never the command, are what failed. Ignores
  // SIGPIPE process-wide if it had its default action: a write to a dead child fails with EPIPE.
  static Result<std::unique_ptr<Subprocess>> Start(const std::string& command,
                                                   std::size_t max_line_bytes,
                                                   std::size_t stderr_tail_bytes);
  ~Subprocess();  // Kill()
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  pid_t pid() const { return pid_; }

  // Writes `message` (a complete line, "\n" included) to stdin, then waits for one complete
  // stdout line; both before `deadline`. Reads stdout while writing, so a child that talks before
  // it listens cannot deadlock us: a line that arrives before the message is fully written ends
  // the exchange like any line (the caller sees written < message_size). stop may be null.
  // With cpu_limit_seconds > 0, the exchange also ends (kCpuLimit) once the process group has
  // spent that much CPU time, user + system, in it (GroupCpuTime, proc_group.h: its first reading
  // is taken 50 ms into the exchange, so what the group spends before it is not counted, and
  // the next every 100 ms, so the end comes up to 100 ms late). The message is taken and dropped
  // once written: a case's megabytes are not held while its answer's come in.
  Exchange Send(Message message, Clock::time_point deadline, const std::atomic<bool>* stop,
                double cpu_limit_seconds = 0);
  Exchange Send(std::string message, Clock::time_point deadline, const std::atomic<bool>* stop,
                double cpu_limit_seconds = 0) {
    return Send(Message::Of(std::move(message)), deadline, stop, cpu_limit_seconds);
  }

  // Receives each complete stdout line (without its "\n") written after the last one Send took.
  using LineSink = std::function<void(std::string_view line)>;

  // How the process ended, waiting up to `grace` for it to end: "exited with status 0",
  // "killed by signal 11 (SIGSEGV)"; "" when it is still running. Once it has ended, what it
  // wrote on stderr is read too. Does not reap it (the process group id stays reserved until
  // Kill, so killing the group can never hit a stranger). Stdout is drained meanwhile; with
  // on_line, every complete line it holds, up to the end of `grace`, is passed on, and those it
  // held when the process ended too (a line longer than max_line_bytes ends that: it and what
  // follows are dropped, so memory stays bounded).
  std::string WaitForExit(Clock::duration grace, const std::atomic<bool>* stop,
                          const LineSink& on_line = nullptr);

  // The polite end: writes `message` (the protocol's shutdown line), closes stdin, waits up to
  // `grace` for the process to exit (passing on its stdout lines as WaitForExit does), then
  // Kill()s whatever is left of the group.
  void Shutdown(std::string_view message, Clock::duration grace, const std::atomic<bool>* stop,
                const LineSink& on_line = nullptr);

  // Kills the whole process group (SIGKILL), reaps the child and closes every pipe. Never waits
  // for the pipes to reach end of file. Idempotent.
  void Kill();

  // Peak resident memory of the process group (Linux /proc): ResetPeakMemory starts a new peak
  // for every process in it (clear_refs "5"), PeakMemoryBytes adds up each process's peak
  // (VmHWM) since. A process that left the group, or ended, is not counted.
  void ResetPeakMemory() const;
  std::uint64_t PeakMemoryBytes() const;

  // The stdout line received so far without a newline (for diagnostics): its size, and its first
  // bytes (at least as many as a diagnostic quotes).
  std::size_t partial_line_size() const { return stdout_.size(); }
  std::string_view partial_line_start() const { return stdout_.start(); }
  // The last non-empty line written on stderr so far, without its "\n" (possibly unfinished).
  std::string LastStderrLine() const;
  // The last stderr_tail_bytes bytes written on stderr so far, and the total number written.
  std::string stderr_tail() const;
  std::uint64_t stderr_total() const { return stderr_total_; }

 private:
  Subprocess(pid_t pid, int in, int out, int err, std::size_t max_line_bytes,
             std::size_t stderr_tail_bytes);

  // Non-blocking reads of whatever is available. Return false at end of file (fd closed).
  void ReadStdout(bool discard);
  void ReadStderr();
  // Hands on_line the complete lines of stdout_; drops a line that is too long.
  void PassLines(const LineSink& on_line);
  // Reads what stdout holds now, passing on its lines, until the pipe is empty or `end`.
  void DrainStdout(const LineSink& on_line, Clock::time_point end);
  // Whether the child has ended, without reaping it; fills exit_description_.
  bool Exited();
  void CloseStdin();

  pid_t pid_;
  int stdin_fd_;
  int stdout_fd_;
  int stderr_fd_;
  std::size_t max_line_bytes_;
  std::size_t stderr_tail_bytes_;
  LineBuffer stdout_;
  bool stdout_discarded_ = false;  // a line grew too long while lines were passed on
  std::string stderr_tail_;
  std::uint64_t stderr_total_ = 0;
  std::string exit_description_;  // set once the child has ended
};

// "exited with status 0", "killed by signal 11 (SIGSEGV)", "exited with status 139 (128+11: a
// shell's report of SIGSEGV)" for a waitpid() status.
std::string DescribeWaitStatus(int status);
// "SIGSEGV" for 11; "signal 77" for a number without a name.
std::string SignalName(int signal);
// The first `max_bytes` bytes of untrusted bytes as a double-quoted ASCII string: printable
// ASCII as is, " and \ escaped, \n \r \t, every other byte as \xNN, and "..." plus the total size
// when cut. Diagnostics quote what an implementation sent with this.
std::string QuoteBytes(std::string_view bytes, std::size_t max_bytes = 200);
// Drops the front of *text so that at most max_bytes remain, starting at a UTF-8 boundary when
// the text is UTF-8 (a cut never leaves stray continuation bytes at the front).
void KeepTail(std::string* text, std::size_t max_bytes);
// "10 s", "0.5 s".
std::string Seconds(double seconds);

}  // namespace arcs::supervisor

#endif  // ARCS_RUNNER_SUPERVISOR_SUBPROCESS_H_
