#include "reference/core/stop_signals.h"

#include <signal.h>

#include <cerrno>
#include <cstring>

namespace arcs {
namespace {

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<std::atomic<bool>*> stop_flag{nullptr};
std::atomic<int> last_signal{0};
std::atomic<bool> second_signal_kills{false};
static_assert(std::atomic<std::atomic<bool>*>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void OnStopSignal(int sig) {
  const int saved_errno = errno;
  last_signal.store(sig);
  if (std::atomic<bool>* flag = stop_flag.load()) flag->store(true);
  if (second_signal_kills.load()) {
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (int stop : kStopSignals) sigaction(stop, &fallback, nullptr);
  }
  errno = saved_errno;
}

}  // namespace

void StopOnSignals(std::atomic<bool>* flag, const StopSignalOptions& options) {
  stop_flag.store(flag);
  second_signal_kills.store(options.second_signal_kills);
  for (int sig : kStopSignals) {
    struct sigaction current {};
    if (sigaction(sig, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = options.restart_system_calls ? SA_RESTART : 0;
    sigaction(sig, &action, nullptr);
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

std::string LastStopSignalName() {
  const int sig = last_signal.load();
  if (sig == 0) return "";
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

}  // namespace arcs
