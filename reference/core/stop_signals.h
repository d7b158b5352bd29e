// Stopping a long command cleanly on SIGINT (Ctrl-C), SIGTERM (a polite kill) and SIGHUP (a closed
// terminal or SSH session) alike: each sets a flag the command polls, so that it completes what it
// writes (a recording's footer, a report marked incomplete) and ends the processes it started.
// `arcs run`, `arcs fuzz`, `arcs mcp record` and `arcs mcp replay` all stop through this.
#ifndef ARCS_REFERENCE_CORE_STOP_SIGNALS_H_
#define ARCS_REFERENCE_CORE_STOP_SIGNALS_H_

#include <atomic>
#include <string>

namespace arcs {

struct StopSignalOptions {
  // After the first signal, the next takes the default action, so that a command stuck in its
  // clean-up can still be killed by a second Ctrl-C. Off where a second signal is expected and
  // must not cut the clean-up short (a closed terminal may send SIGHUP twice).
  bool second_signal_kills = false;
  // System calls the signal interrupts are restarted; off where a blocked write must return
  // (EINTR) so that the flag is seen.
  bool restart_system_calls = false;
};

// Installs the handlers: each of SIGINT, SIGTERM and SIGHUP stores true in *flag (which must
// outlive the process's use of signals). A signal ignored when this is called stays ignored, as a
// shell leaves it (nohup ignores SIGHUP; a background job, SIGINT). Also ignores SIGPIPE, so that a
// write to a peer that went away fails with EPIPE instead of killing the command.
// Async-signal-safe handlers: lock-free atomics and sigaction only.
void StopOnSignals(std::atomic<bool>* flag, const StopSignalOptions& options = {});

// "SIGTERM" for the last stop signal received; "" when none came.
std::string LastStopSignalName();

// Whether a stop flag is set; a null flag (a caller that cannot be stopped) never is.
inline bool Stopped(const std::atomic<bool>* stop) { return stop && stop->load(); }

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_STOP_SIGNALS_H_
