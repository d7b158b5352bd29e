// An upstream MCP server on the stdio transport (TJ-SPEC-010 F-001 "Supports stdio upstream (spawn
// subprocess)"): `/bin/sh -c COMMAND` with pipes on its stdin and stdout, and a third on its
// stderr whose lines a thread of ours relays to the caller's log (our stderr by default) through
// Printable: a server's log reaches the user line for line as it would without a proxy, but its
// terminal controls, bidi overrides and invalid UTF-8 arrive escaped, never raw. Used by the record
// proxy and by the replayer's passthrough (EC-REC-009).
//
// The child leads a session (so a process group) of its own: Terminate() ends the whole group,
// the shell and what it started, and the user's Ctrl-C reaches the proxy only, which ends the
// upstream itself once it has recorded its last words. The child gets SIGKILL from the kernel
// when the thread that started it ends, however it ends (Linux's parent-death signal, set before
// exec), so that thread must outlive the Upstream; descendants in its group are not covered by
// that signal, and see end of file on their stdin instead. No descriptor of ours but the three
// pipes reaches the child.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_UPSTREAM_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_UPSTREAM_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "reference/core/status.h"

namespace arcs::mcp_record_replay {

class Upstream {
 public:
  // Starts the command. Our ends of the pipes are non-blocking and close-on-exec (the caller polls
  // them). Its stderr lines go to log_fd (duplicated here: the descriptor log_fd is at the start).
  // An error names the system call that failed and its errno; a command that does not exist is
  // not an error here: the shell reports it on stderr and exits with status 127.
  static Result<std::unique_ptr<Upstream>> Start(const std::string& command, int log_fd = 2);
  ~Upstream();  // Terminate(kDefaultGrace) unless it was called
  Upstream(const Upstream&) = delete;
  Upstream& operator=(const Upstream&) = delete;

  static constexpr std::chrono::milliseconds kDefaultGrace{2000};

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_fd_; }    // we write; -1 once closed
  int stdout_fd() const { return stdout_fd_; }  // we read; -1 once closed
  // Closing stdin is how a stdio server is asked to end (end of file on its input).
  void CloseStdin();
  void CloseStdout();

  // Whether the process (the shell, or the command it exec'd) has ended. It is not reaped until
  // Terminate(), so its process group id stays reserved and the group kill there can never reach
  // a stranger.
  bool Exited();
  // Waits up to `timeout` for the process to end on its own; returns Exited().
  bool WaitForExit(std::chrono::milliseconds timeout);

  // Ends the process group: SIGTERM, up to `grace` for the process to exit, then SIGKILL for
  // whatever is left of the group (a descendant that ignored SIGTERM), reaps the process and
  // closes the pipes. The stderr relay then passes on what the pipe holds and ends (a descendant
  // that left the group cannot keep it going). Returns its wait status (as waitpid gives it). A
  // process that had already exited keeps its own status. Idempotent: later calls return the same
  // status.
  int Terminate(std::chrono::milliseconds grace = kDefaultGrace);

  // The wait status once the process has ended (Exited() or Terminate()).
  std::optional<int> wait_status() const { return wait_status_; }

 private:
  Upstream(pid_t pid, int in, int out) : pid_(pid), stdin_fd_(in), stdout_fd_(out) {}
  void StopRelay();

  pid_t pid_;
  int stdin_fd_;
  int stdout_fd_;
  int stop_relay_fd_ = -1;  // an eventfd: written when the relay is to finish
  std::thread relay_;
  bool reaped_ = false;
  std::optional<int> wait_status_;
};

// Writes all of `text` to a log descriptor, which may be non-blocking (it can share a terminal's
// open file description with a client's stdout the proxy made non-blocking): waits up to 100 ms
// each time it is full, and gives up on an error. A log line is worth no more than that.
void WriteToLog(int fd, std::string_view text);

// "exited with status 0", "killed by signal 15 (SIGTERM)".
std::string DescribeWaitStatus(int wait_status);
// The status a shell reports for a command: its exit code, or 128 + the signal that killed it.
int ShellExitCode(int wait_status);

}  // namespace arcs::mcp_record_replay

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_UPSTREAM_H_
