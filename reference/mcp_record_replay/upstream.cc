#include "reference/mcp_record_replay/upstream.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace arcs::mcp_record_replay {
namespace {

void CloseFd(int* fd) {
  if (*fd >= 0) {
    close(*fd);  // Linux releases the fd even when close reports EINTR: never retry.
    *fd = -1;
  }
}

Status SystemError(const char* call, int error) {
  std::string message = std::string(call) + ": " + std::strerror(error);
  if (const char* name = strerrorname_np(error)) message += std::string(" (") + name + ")";
  return Status(StatusCode::kIoError, "starting the upstream: " + message);
}

// What a child that failed between fork and exec tells its parent, through a close-on-exec pipe
// (end of file: the exec happened). `call` is a string literal, at the same address in both.
struct ChildFailure {
  const char* call;
  int error;
};

[[noreturn]] void ChildFailed(int report_fd, const char* call) {
  ChildFailure failure{call, errno};
  ssize_t n = write(report_fd, &failure, sizeof failure);  // atomic: less than PIPE_BUF
  (void)n;  // nothing more can be done: the parent sees status 127
  _exit(127);
}

// Between fork and exec: system calls only (the caller may have threads), nothing allocated.
[[noreturn]] void ExecChild(int in, int out, pid_t parent, char* const argv[], int report_fd) {
  // The signal survives the exec of /bin/sh and of the command it execs (unless set-user-ID).
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) ChildFailed(report_fd, "prctl");
  if (getppid() != parent) _exit(127);  // the parent died before the prctl: nobody waits for us
  if (setsid() < 0) ChildFailed(report_fd, "setsid");
  // Ignored signals stay ignored across exec (the proxy ignores SIGPIPE), and the mask is
  // inherited (the parent blocked everything around the fork).
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &default_action, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // in and out are above 2 (Start makes sure), so these dup2s overwrite nothing we still need;
  // dup2 clears close-on-exec on the copies.
  if (dup2(in, 0) < 0 || dup2(out, 1) < 0) ChildFailed(report_fd, "dup2");
  // stderr is ours, passed on as it is; the caller may have opened it close-on-exec.
  if (fcntl(2, F_GETFD) >= 0) fcntl(2, F_SETFD, 0);
  if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
    rlimit limit{};  // kernels before 5.11: one by one
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) ChildFailed(report_fd, "getrlimit");
    const int max = static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
    for (int fd = 3; fd < max; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  execve("/bin/sh", argv, environ);
  ChildFailed(report_fd, "execve /bin/sh");
}

// Forks the child and waits until it has exec'd, or failed to.
Result<pid_t> ForkExec(const std::string& command, int in, int out) {
  int report[2] = {-1, -1};
  if (pipe2(report, O_CLOEXEC) != 0) return SystemError("pipe2", errno);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  const pid_t parent = getpid();
  sigset_t all, saved;  // no handler of ours may run in the child before it resets them
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  const pid_t pid = fork();
  if (pid == 0) ExecChild(in, out, parent, argv, report[1]);
  const int fork_error = errno;
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  CloseFd(&report[1]);
  ChildFailure failure{nullptr, 0};
  ssize_t n = 0;
  if (pid > 0) {
    do {
      n = read(report[0], &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
  }
  CloseFd(&report[0]);
  if (pid < 0) return SystemError("fork", fork_error);
  if (n != static_cast<ssize_t>(sizeof failure)) return pid;  // end of file: exec'd
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  return SystemError(failure.call, failure.error);
}

// A close-on-exec pipe whose ends are both above 2: the child's dup2 onto 0 and 1 must not
// overwrite the other end (when the caller runs with 0, 1 or 2 closed, pipe2 returns them).
bool HighPipe(int fds[2]) {
  if (pipe2(fds, O_CLOEXEC) != 0) return false;
  for (int i = 0; i < 2; ++i) {
    if (fds[i] > 2) continue;
    const int high = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
    if (high < 0) return false;
    close(fds[i]);
    fds[i] = high;
  }
  return true;
}

void SetNonBlocking(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

}  // namespace

Result<std::unique_ptr<Upstream>> Upstream::Start(const std::string& command) {
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  auto close_all = [&] {
    for (int* fd : {&in[0], &in[1], &out[0], &out[1]}) CloseFd(fd);
  };
  if (!HighPipe(in) || !HighPipe(out)) {
    const int error = errno;
    close_all();
    return SystemError("pipe2", error);
  }
  Result<pid_t> pid = ForkExec(command, in[0], out[1]);
  CloseFd(&in[0]);
  CloseFd(&out[1]);
  if (!pid.ok()) {
    close_all();
    return pid.status();
  }
  SetNonBlocking(in[1]);
  SetNonBlocking(out[0]);
  return std::unique_ptr<Upstream>(new Upstream(*pid, in[1], out[0]));
}

Upstream::~Upstream() { Terminate(); }

void Upstream::CloseStdin() { CloseFd(&stdin_fd_); }
void Upstream::CloseStdout() { CloseFd(&stdout_fd_); }

bool Upstream::Exited() {
  if (wait_status_) return true;
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  // WNOWAIT: look, do not reap (the header says why).
  if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
      info.si_pid != pid_) {
    return false;
  }
  if (info.si_code == CLD_EXITED) {
    wait_status_ = (info.si_status & 0xff) << 8;
  } else {
    wait_status_ = (info.si_status & 0x7f) | (info.si_code == CLD_DUMPED ? 0x80 : 0);
  }
  return true;
}

bool Upstream::WaitForExit(std::chrono::milliseconds timeout) {
  // Polled in short steps: a pidfd would wake us at once, but this is called only at the end of a
  // session, where a few milliseconds do not matter.
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (!Exited()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

int Upstream::Terminate(std::chrono::milliseconds grace) {
  if (!reaped_) {
    // A process that ended on its own may leave descendants in its group: they go at once.
    if (!Exited()) {
      killpg(pid_, SIGTERM);
      WaitForExit(grace);
    }
    killpg(pid_, SIGKILL);
    int status = 0;
    pid_t r;
    do {
      r = waitpid(pid_, &status, 0);
    } while (r < 0 && errno == EINTR);
    if (r == pid_ && !wait_status_) wait_status_ = status;
    reaped_ = true;
  }
  CloseStdin();
  CloseStdout();
  return wait_status_.value_or(0);
}

std::string DescribeWaitStatus(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    const char* abbrev = sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) +
           (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
  }
  return "exited with status " + std::to_string(WEXITSTATUS(wait_status));
}

int ShellExitCode(int wait_status) {
  return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : WEXITSTATUS(wait_status);
}

}  // namespace arcs::mcp_record_replay
