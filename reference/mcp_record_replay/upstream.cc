#include "reference/mcp_record_replay/upstream.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "reference/core/spawn.h"
#include "reference/core/strings.h"

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

// A stderr line longer than this is passed on in pieces of about this size.
constexpr std::size_t kMaxLogLine = 4096;

// Passes on the complete lines of *pending (a "\r" before the "\n" dropped), and pieces of an
// over-long one, cut between two UTF-8 sequences where it can be.
void PassLines(std::string* pending, int log) {
  std::size_t start = 0;
  for (std::size_t newline; (newline = pending->find('\n', start)) != std::string::npos;
       start = newline + 1) {
    std::string_view line(pending->data() + start, newline - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    WriteToLog(log, Printable(line) + "\n");
  }
  pending->erase(0, start);
  while (pending->size() > kMaxLogLine) {
    std::size_t cut = kMaxLogLine;
    while (cut > kMaxLogLine - 3 && (static_cast<unsigned char>((*pending)[cut]) & 0xC0) == 0x80) {
      --cut;
    }
    WriteToLog(log, Printable(std::string_view(*pending).substr(0, cut)) + "\n");
    pending->erase(0, cut);
  }
}

// The stderr relay's thread: from the upstream's stderr (non-blocking) to the log, until its end
// of file, or until `stop` is written, after which what the pipe holds is still passed on (a
// bounded amount: a descendant out of the group may write on). Closes `from` and `log`.
void RelayStderr(int from, int stop, int log) {
  constexpr int kReadsAfterStop = 16;
  std::string pending;
  char buffer[kMaxLogLine];
  int reads_after_stop = -1;  // counting once stopped
  for (;;) {
    if (reads_after_stop < 0) {
      pollfd fds[2] = {{from, POLLIN, 0}, {stop, POLLIN, 0}};
      if (poll(fds, 2, -1) < 0 && errno != EINTR) break;
      if (fds[1].revents) reads_after_stop = 0;
    } else if (++reads_after_stop > kReadsAfterStop) {
      break;
    }
    const ssize_t n = read(from, buffer, sizeof buffer);
    if (n > 0) {
      pending.append(buffer, static_cast<std::size_t>(n));
      PassLines(&pending, log);
    } else if (n == 0 || !(errno == EINTR || (errno == EAGAIN && reads_after_stop < 0))) {
      break;  // end of file, an error, or an empty pipe once stopped
    }
  }
  if (!pending.empty()) WriteToLog(log, Printable(pending) + "\n");
  close(from);
  if (log >= 0) close(log);
}

}  // namespace

void WriteToLog(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n > 0) {
      text.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EAGAIN) {
      pollfd p{fd, POLLOUT, 0};
      if (poll(&p, 1, 100) <= 0) return;
    } else if (!(n < 0 && errno == EINTR)) {
      return;
    }
  }
}

Result<std::unique_ptr<Upstream>> Upstream::Start(const std::string& command, int log_fd) {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  int stop = -1;
  auto close_all = [&] {
    for (int* fd : {&in[0], &in[1], &out[0], &out[1], &err[0], &err[1], &stop}) CloseFd(fd);
  };
  if (!HighPipe(in) || !HighPipe(out) || !HighPipe(err)) {
    const int error = errno;
    close_all();
    return SystemError("pipe2", error);
  }
  stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop < 0) {
    const int error = errno;
    close_all();
    return SystemError("eventfd", error);
  }
  const int child_fds[3] = {in[0], out[1], err[1]};
  Result<pid_t> pid = SpawnShell(command, child_fds, SystemError);
  CloseFd(&in[0]);
  CloseFd(&out[1]);
  CloseFd(&err[1]);
  if (!pid.ok()) {
    close_all();
    return pid.status();
  }
  SetNonBlocking(in[1]);
  SetNonBlocking(out[0]);
  SetNonBlocking(err[0]);
  std::unique_ptr<Upstream> upstream(new Upstream(*pid, in[1], out[0]));
  upstream->stop_relay_fd_ = stop;
  // A log that cannot be duplicated (closed) is -1: the lines are read and dropped, so that the
  // upstream never blocks on a full stderr.
  upstream->relay_ = std::thread(RelayStderr, err[0], stop, fcntl(log_fd, F_DUPFD_CLOEXEC, 3));
  return upstream;
}

Upstream::~Upstream() { Terminate(); }

void Upstream::StopRelay() {
  if (!relay_.joinable()) return;
  eventfd_write(stop_relay_fd_, 1);
  relay_.join();
  CloseFd(&stop_relay_fd_);
}

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
  StopRelay();
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
