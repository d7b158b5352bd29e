#include "reference/mcp_record_replay/upstream.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "reference/core/spawn.h"

namespace arcs::mcp_record_replay {
namespace {

void CloseFd(int* fd) {
  if (*fd >= 0) {
    close(*fd);  // Linux releases the fd even when close reports EINTR: never retry.
    *fd = -1;
  }
}

Status SystemError(const char* call, int error) {
  return Status(StatusCode::kIoError,
                "starting the upstream: " + SystemCallError(call, error).message());
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
  const int child_fds[3] = {in[0], out[1], -1};  // stderr: ours
  Result<pid_t> pid = SpawnShell(command, child_fds, SystemError);
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
