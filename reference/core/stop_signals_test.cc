#include "reference/core/stop_signals.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

namespace arcs {
namespace {

// Runs `body` in a child process (handlers are process-wide) and returns its wait status.
int InChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(StopSignals, EachStopSignalSetsTheFlagAndIsNamed) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const int status = InChild([sig] {
      static std::atomic<bool> stop{false};
      StopOnSignals(&stop);
      if (!LastStopSignalName().empty()) return 10;
      raise(sig);
      raise(sig);  // a second one changes nothing: the clean-up must not be cut short
      if (!stop.load()) return 11;
      const std::string expected = "SIG" + std::string(sigabbrev_np(sig));
      return LastStopSignalName() == expected ? 0 : 12;
    });
    ASSERT_TRUE(WIFEXITED(status)) << sig;
    EXPECT_EQ(WEXITSTATUS(status), 0) << sig;
  }
}

TEST(StopSignals, WhenAskedTheSecondSignalKills) {
  const int status = InChild([] {
    static std::atomic<bool> stop{false};
    StopOnSignals(&stop, {.second_signal_kills = true});
    raise(SIGTERM);
    if (!stop.load()) return 11;
    raise(SIGTERM);
    return 12;  // not reached
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

// nohup ignores SIGHUP; a background job of a shell without job control ignores SIGINT.
TEST(StopSignals, ASignalIgnoredAtTheStartStaysIgnored) {
  const int status = InChild([] {
    signal(SIGHUP, SIG_IGN);
    static std::atomic<bool> stop{false};
    StopOnSignals(&stop);
    raise(SIGHUP);
    if (stop.load()) return 11;
    struct sigaction pipe {};
    sigaction(SIGPIPE, nullptr, &pipe);
    return pipe.sa_handler == SIG_IGN ? 0 : 12;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace arcs
