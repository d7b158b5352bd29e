#include "reference/core/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace arcs {
namespace {

// What a child that failed between fork and exec sends its parent, through a close-on-exec pipe
// that exec closes (so end of file means success). `call` points to a string literal, which fork
// leaves at the same address in both processes.
struct ChildFailure {
  const char* call;
  int error;
};

[[noreturn]] void ChildFailed(int report_fd, const char* call) {
  ChildFailure failure{call, errno};
  ssize_t n = write(report_fd, &failure, sizeof failure);  // atomic: less than PIPE_BUF
  (void)n;  // nothing more can be done about a failed report: the parent sees status 127
  _exit(127);
}

// Every descriptor from 3 up closes at exec (the report pipe must stay open until then).
bool CloseOthersOnExec() {
  if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return true;
  // Kernels before 5.11: one by one, up to the limit on descriptors.
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  const int max = static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
  for (int fd = 3; fd < max; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
  return true;
}

// The child, between fork and exec. The starter may have other threads, so only async-signal-safe
// calls (system calls), and nothing allocated: argv is built before the fork.
[[noreturn]] void ExecChild(const int fds[3], pid_t parent, char* const argv[], int report_fd) {
  // The signal survives the exec of /bin/sh, and of the command it execs, as long as neither is
  // set-user-ID.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) ChildFailed(report_fd, "prctl");
  // The starter may have died before the prctl: then the signal never comes, and nobody waits.
  if (getppid() != parent) _exit(127);
  // A new session: the child leads its own process group (pgid == pid), which killpg ends as a
  // whole, and has no controlling terminal, so the user's Ctrl-C reaches only the starter, which
  // then stops its children itself.
  if (setsid() < 0) ChildFailed(report_fd, "setsid");
  // Every signal gets its default action (an ignored one would stay ignored across exec: the
  // starters ignore SIGPIPE), then none is blocked (the parent blocked them all around the fork).
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &default_action, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // dup2 clears O_CLOEXEC on the copies, so exactly 0, 1 and 2 survive the exec.
  for (int i = 0; i < 3; ++i) {
    if (fds[i] >= 0 && dup2(fds[i], i) < 0) ChildFailed(report_fd, "dup2");
  }
  // Our own stderr, passed on: the starter may have opened it close-on-exec.
  if (fds[2] < 0 && fcntl(2, F_GETFD) >= 0) fcntl(2, F_SETFD, 0);
  // Anything else the starter has open without O_CLOEXEC (libraries, a test framework) stays
  // out of the child too.
  if (!CloseOthersOnExec()) ChildFailed(report_fd, "close_range");
  execve("/bin/sh", argv, environ);
  ChildFailed(report_fd, "execve /bin/sh");
}

void CloseFd(int* fd) {
  if (*fd >= 0) {
    close(*fd);  // Linux releases the fd even when close reports EINTR: never retry.
    *fd = -1;
  }
}

}  // namespace

Status SystemCallError(const char* call, int error) {
  std::string message = std::string(call) + ": " + std::strerror(error);
  if (const char* name = strerrorname_np(error)) message += std::string(" (") + name + ")";
  return Status(StatusCode::kIoError, message);
}

Result<pid_t> SpawnShell(const std::string& command, const int fds[3], SystemCallErrorFn describe) {
  int report[2] = {-1, -1};
  if (pipe2(report, O_CLOEXEC) != 0) return describe("pipe2", errno);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  const pid_t parent = getpid();
  // No signal handler may run in the child before it has reset them all.
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  const pid_t pid = fork();
  if (pid == 0) ExecChild(fds, parent, argv, report[1]);
  const int fork_error = errno;
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  CloseFd(&report[1]);
  ChildFailure failure{nullptr, 0};
  ssize_t n = 0;
  // End of file comes once every copy of the write end is closed: ours, the child's at its exec,
  // and those of children other threads forked meanwhile, at theirs (they exec at once too).
  if (pid > 0) {
    do {
      n = read(report[0], &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
  }
  CloseFd(&report[0]);
  if (pid < 0) return describe("fork", fork_error);
  if (n != static_cast<ssize_t>(sizeof failure)) return pid;  // end of file: exec'd
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  return describe(failure.call, failure.error);
}

}  // namespace arcs
