#include "runner/supervisor/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <utility>

#include "reference/core/spawn.h"
#include "runner/supervisor/proc_group.h"

namespace arcs::supervisor {
namespace {

// No wait is longer than this, so the stop flag and a child's death are seen promptly.
constexpr auto kSlice = std::chrono::milliseconds(100);
// Under a CPU time limit, the first reading of the group's CPU time is taken this long into the
// exchange, and the next ones every kSlice: most answers come sooner and cost no reading at all.
constexpr auto kFirstCpuReading = std::chrono::milliseconds(50);
// One read; also the most a single read adds to the stdout buffer.
constexpr std::size_t kChunk = 64 << 10;
// Reads of stderr per wake-up: enough to keep up with a flood, few enough that a flood cannot
// keep us from looking at the clock.
constexpr int kStderrReadsPerWake = 8;

void CloseFd(int* fd) {
  if (*fd >= 0) {
    close(*fd);  // Linux releases the fd even when close reports EINTR: never retry.
    *fd = -1;
  }
}

void SetNonBlocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int PollTimeoutMs(Clock::time_point now, Clock::time_point until) {
  if (until <= now) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(until - now).count();
  return static_cast<int>(std::min<decltype(ms)>(ms, kSlice.count()));
}

bool StopRequested(const std::atomic<bool>* stop) {
  return stop && stop->load(std::memory_order_relaxed);
}

}  // namespace

void KeepTail(std::string* text, std::size_t max_bytes) {
  if (text->size() <= max_bytes) return;
  std::size_t cut = text->size() - max_bytes;
  // Do not start in the middle of a UTF-8 sequence (at most three continuation bytes).
  for (int i = 0;
       i < 3 && cut < text->size() && (static_cast<unsigned char>((*text)[cut]) & 0xC0) == 0x80;
       ++i) {
    ++cut;
  }
  text->erase(0, cut);
}

std::string SignalName(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  if (!abbrev) return "signal " + std::to_string(signal);
  return std::string("SIG") + abbrev;
}

std::string DescribeWaitStatus(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::string out = "killed by signal " + std::to_string(sig) + " (" + SignalName(sig) + ")";
    if (WCOREDUMP(status)) out += ", core dumped";
    return out;
  }
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    std::string out = "exited with status " + std::to_string(code);
    // /bin/sh -c reports a command killed by signal N as status 128+N.
    if (code > 128 && sigabbrev_np(code - 128)) {
      out += " (128+" + std::to_string(code - 128) + ": a shell's report of " +
             SignalName(code - 128) + ")";
    }
    return out;
  }
  return "ended with wait status " + std::to_string(status);
}

std::string QuoteBytes(std::string_view bytes, std::size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  std::size_t n = std::min(bytes.size(), max_bytes);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c >= 0x20 && c < 0x7F) {
          out += static_cast<char>(c);
        } else {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
  }
  out += '"';
  if (bytes.size() > n) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

std::string Seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g s", seconds);
  return buffer;
}

namespace {

// "pipe2: Too many open files (EMFILE)", and what would help when a limit of the machine is what
// failed (many jobs start many processes, each with three pipes).
Status StartError(const char* call, int error) {
  std::string message = SystemCallError(call, error).message();
  if (error == EMFILE || error == ENFILE) {
    message += "; fewer jobs (-j) or a higher open-file limit (ulimit -n) would help";
  } else if (error == EAGAIN) {
    message += "; fewer jobs (-j) or a higher process limit (ulimit -u) would help";
  } else if (error == ENOMEM) {
    message += "; fewer jobs (-j) or more free memory would help";
  }
  return Status(StatusCode::kIoError, message);
}

// A write to a child that died must come back as EPIPE, not kill whoever started it: the runner,
// arcs fuzz, a test. Process-wide by nature; replaces only the default action, never a handler
// someone installed on purpose. Looked at on every start (two system calls), not once: a caller
// may have put the default back since.
void IgnoreSigpipe() {
  struct sigaction current;
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, nullptr);
  }
}

}  // namespace

Result<std::unique_ptr<Subprocess>> Subprocess::Start(const std::string& command,
                                                      std::size_t max_line_bytes,
                                                      std::size_t stderr_tail_bytes) {
  IgnoreSigpipe();
  // O_CLOEXEC from birth: another worker forking at the same moment must not pass these on.
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  auto close_all = [&] {
    for (int* fd : {&in[0], &in[1], &out[0], &out[1], &err[0], &err[1]}) CloseFd(fd);
  };
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    int e = errno;
    close_all();
    return StartError("pipe2", e);
  }
  const int child_fds[3] = {in[0], out[1], err[1]};
  Result<pid_t> pid = SpawnShell(command, child_fds, StartError);
  if (!pid.ok()) {
    close_all();
    return pid.status();
  }
  CloseFd(&in[0]);
  CloseFd(&out[1]);
  CloseFd(&err[1]);
  SetNonBlocking(in[1]);
  SetNonBlocking(out[0]);
  SetNonBlocking(err[0]);
  return std::unique_ptr<Subprocess>(
      new Subprocess(*pid, in[1], out[0], err[0], max_line_bytes, stderr_tail_bytes));
}

Subprocess::Subprocess(pid_t pid, int in, int out, int err, std::size_t max_line_bytes,
                       std::size_t stderr_tail_bytes)
    : pid_(pid),
      stdin_fd_(in),
      stdout_fd_(out),
      stderr_fd_(err),
      max_line_bytes_(max_line_bytes),
      stderr_tail_bytes_(stderr_tail_bytes) {}

Subprocess::~Subprocess() { Kill(); }

void Subprocess::CloseStdin() { CloseFd(&stdin_fd_); }

void Subprocess::ReadStdout(bool discard) {
  if (stdout_fd_ < 0) return;
  char chunk[kChunk];
  std::size_t want = kChunk;
  if (!discard) {
    // The caller has checked that the buffer holds no complete line and is within the limit, so
    // there is room for at least one byte; never read past limit + 1.
    std::size_t room = max_line_bytes_ + 1 - std::min(stdout_.size(), max_line_bytes_);
    want = std::min(want, room);
  }
  ssize_t n = read(stdout_fd_, chunk, want);
  if (n > 0) {
    if (!discard) stdout_.Append(chunk, static_cast<std::size_t>(n));
  } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
    CloseFd(&stdout_fd_);
  }
}

void Subprocess::ReadStderr() {
  char chunk[kChunk];
  for (int i = 0; i < kStderrReadsPerWake && stderr_fd_ >= 0; ++i) {
    ssize_t n = read(stderr_fd_, chunk, sizeof chunk);
    if (n > 0) {
      stderr_total_ += static_cast<std::uint64_t>(n);
      stderr_tail_.append(chunk, static_cast<std::size_t>(n));
      // Trim in batches: amortized linear however the bytes arrive.
      if (stderr_tail_.size() > 2 * stderr_tail_bytes_ + kChunk) {
        KeepTail(&stderr_tail_, stderr_tail_bytes_);
      }
      continue;
    }
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) CloseFd(&stderr_fd_);
    break;
  }
}

bool LineBuffer::TakeLine(std::string* line) {
  const char* data = tail_.data();
  const void* newline = scanned_ < tail_.size()
                            ? std::memchr(data + scanned_, '\n', tail_.size() - scanned_)
                            : nullptr;
  if (!newline) {
    scanned_ = tail_.size();
    if (tail_.size() >= kPieceBytes) {
      pieces_bytes_ += tail_.size();
      pieces_.push_back(std::move(tail_));
      tail_ = std::string();
      scanned_ = 0;
    }
    return false;
  }
  const std::size_t end = static_cast<std::size_t>(static_cast<const char*>(newline) - data);
  if (pieces_.empty() && end + 1 == tail_.size()) {
    // The usual case: the line is all there is. Hand over the buffer rather than copy it.
    tail_.pop_back();
    line->swap(tail_);
    tail_.clear();
  } else {
    line->clear();
    // With spare room: a line is parsed in place next, which pads it (json::Document::ParseTaking),
    // and a string with no room to spare would grow by copying all of it.
    line->reserve(pieces_bytes_ + end + kSpareBytes);
    for (std::string& piece : pieces_) {
      *line += piece;
      std::string().swap(piece);
    }
    line->append(data, end);
    tail_.erase(0, end + 1);
    pieces_.clear();
    pieces_bytes_ = 0;
  }
  scanned_ = 0;
  return true;
}

void LineBuffer::Clear() {
  pieces_.clear();
  pieces_bytes_ = 0;
  std::string().swap(tail_);
  scanned_ = 0;
}

bool Subprocess::Exited() {
  if (!exit_description_.empty()) return true;
  if (pid_ <= 0) return true;
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  // WNOWAIT: look, do not reap. While the child is an unreaped zombie its pid, and so the
  // process group id, cannot be reused, which makes the killpg in Kill() safe.
  if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
      info.si_pid != pid_) {
    return false;
  }
  int status = 0;
  if (info.si_code == CLD_EXITED) {
    status = (info.si_status & 0xff) << 8;
  } else {
    status = info.si_status & 0x7f;
    if (info.si_code == CLD_DUMPED) status |= 0x80;
  }
  exit_description_ = DescribeWaitStatus(status);
  return true;
}

Message Message::Of(std::string text) {
  const std::size_t size = text.size();
  return {size, [text = std::move(text), given = false]() mutable -> std::string_view {
            if (given) return {};
            given = true;
            return text;
          }};
}

Exchange Subprocess::Send(Message message, Clock::time_point deadline,
                          const std::atomic<bool>* stop, double cpu_limit_seconds) {
  Exchange ex;
  ex.message_size = message.size;
  std::string_view piece;  // what is left of the piece being written
  const Clock::time_point begun = Clock::now();
  Clock::time_point next_exit_check = begun + kSlice;
  std::optional<GroupCpuTime> cpu;
  Clock::time_point next_cpu_check =
      cpu_limit_seconds > 0 ? begun + kFirstCpuReading : Clock::time_point::max();
  for (;;) {
    while (ex.written < ex.message_size && stdin_fd_ >= 0) {
      if (piece.empty()) piece = message.next();
      if (piece.empty()) break;  // a message shorter than its size: the rest never comes
      ssize_t n = write(stdin_fd_, piece.data(), piece.size());
      if (n > 0) {
        ex.written += static_cast<std::size_t>(n);
        piece.remove_prefix(static_cast<std::size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && errno == EAGAIN) {
        break;
      } else {
        CloseStdin();  // EPIPE: nobody reads our end any more (SIGPIPE is ignored)
      }
    }
    if (ex.written == ex.message_size && message.next) message.next = nullptr;
    if (stdout_.TakeLine(&ex.line)) {
      ex.end = SendEnd::kLine;
      return ex;
    }
    if (stdout_.size() > max_line_bytes_) {
      ex.end = SendEnd::kTooLong;
      return ex;
    }
    if (stdout_fd_ < 0) {
      ex.end = SendEnd::kStdoutEnded;
      return ex;
    }
    if (ex.written < ex.message_size && stdin_fd_ < 0) {
      ex.end = SendEnd::kStdinClosed;
      return ex;
    }
    if (StopRequested(stop)) {
      ex.end = SendEnd::kStopped;
      return ex;
    }
    Clock::time_point now = Clock::now();
    if (now >= deadline) {
      ex.end = SendEnd::kTimeout;
      return ex;
    }
    if (now >= next_cpu_check) {
      next_cpu_check = now + kSlice;
      if (!cpu) {
        cpu.emplace(pid_);
      } else if (ex.cpu_seconds = cpu->Seconds(); ex.cpu_seconds >= cpu_limit_seconds) {
        ex.end = SendEnd::kCpuLimit;
        return ex;
      }
    }
    // A descendant may hold stdout open after the child died, so end of file alone cannot tell
    // us; look at the child itself every slice.
    if (now >= next_exit_check) {
      next_exit_check = now + kSlice;
      if (Exited()) {
        // Whatever it wrote before dying is in the pipe already.
        for (int i = 0; i < 64 && stdout_fd_ >= 0; ++i) {
          std::size_t before = stdout_.size();
          ReadStdout(false);
          if (stdout_.TakeLine(&ex.line)) {
            ex.end = SendEnd::kLine;
            return ex;
          }
          if (stdout_.size() > max_line_bytes_ || stdout_.size() == before) break;
        }
        ex.end = SendEnd::kExited;
        return ex;
      }
    }
    pollfd fds[3];
    nfds_t count = 0;
    int in_at = -1, out_at = -1, err_at = -1;
    if (stdin_fd_ >= 0 && ex.written < ex.message_size) {
      in_at = static_cast<int>(count);
      fds[count++] = {stdin_fd_, POLLOUT, 0};
    }
    if (stdout_fd_ >= 0) {
      out_at = static_cast<int>(count);
      fds[count++] = {stdout_fd_, POLLIN, 0};
    }
    if (stderr_fd_ >= 0) {
      err_at = static_cast<int>(count);
      fds[count++] = {stderr_fd_, POLLIN, 0};
    }
    int rc =
        poll(fds, count, PollTimeoutMs(now, std::min({deadline, next_exit_check, next_cpu_check})));
    if (rc <= 0) continue;  // timeout, or EINTR: the checks above decide
    if (err_at >= 0 && fds[err_at].revents) ReadStderr();
    if (out_at >= 0 && fds[out_at].revents) ReadStdout(false);
    // POLLERR/POLLHUP on stdin: the next write reports EPIPE at the top of the loop.
    (void)in_at;
  }
}

void Subprocess::PassLines(const LineSink& on_line) {
  std::string line;
  while (!stdout_discarded_ && stdout_.TakeLine(&line)) on_line(line);
  if (stdout_.size() > max_line_bytes_) {
    // Too long to be a message: drop it and all that follows, to keep memory bounded.
    stdout_discarded_ = true;
    stdout_.Clear();
  }
}

void Subprocess::DrainStdout(const LineSink& on_line, Clock::time_point end) {
  // Bounded by the clock: a descendant may hold stdout open and write for ever.
  while (stdout_fd_ >= 0 && !stdout_discarded_ && Clock::now() < end) {
    std::size_t before = stdout_.size();
    ReadStdout(false);
    if (stdout_.size() == before) break;  // nothing more in the pipe, or end of file
    PassLines(on_line);
  }
}

std::string Subprocess::WaitForExit(Clock::duration grace, const std::atomic<bool>* stop,
                                    const LineSink& on_line) {
  Clock::time_point end = Clock::now() + grace;
  if (on_line) PassLines(on_line);  // lines read earlier, behind the last one taken
  for (;;) {
    if (Exited()) {
      // What it wrote before it ended is in the pipes by now; end of file may have been seen
      // before it, and its last words on stderr are often the reason it died.
      if (on_line) DrainStdout(on_line, end);
      ReadStderr();
      return exit_description_;
    }
    Clock::time_point now = Clock::now();
    if (now >= end || StopRequested(stop)) return "";
    // Keep draining, so a child blocked writing can go on to exit.
    pollfd fds[2];
    nfds_t count = 0;
    if (stdout_fd_ >= 0) fds[count++] = {stdout_fd_, POLLIN, 0};
    if (stderr_fd_ >= 0) fds[count++] = {stderr_fd_, POLLIN, 0};
    int timeout = std::min(PollTimeoutMs(now, end), 5);
    if (poll(count ? fds : nullptr, count, timeout) <= 0) continue;
    for (nfds_t i = 0; i < count; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd != stdout_fd_) {
        ReadStderr();
      } else if (on_line && !stdout_discarded_) {
        ReadStdout(false);
        PassLines(on_line);
      } else {
        ReadStdout(true);
      }
    }
  }
}

void Subprocess::Shutdown(std::string_view message, Clock::duration grace,
                          const std::atomic<bool>* stop, const LineSink& on_line) {
  if (pid_ <= 0) return;
  if (stdin_fd_ >= 0) {
    // One attempt: the line is tiny, and if the pipe is full the child is not listening anyway;
    // end of file, which follows, asks for the same thing.
    ssize_t n;
    do {
      n = write(stdin_fd_, message.data(), message.size());
    } while (n < 0 && errno == EINTR);
    CloseStdin();
  }
  WaitForExit(grace, stop, on_line);
  Kill();
}

void Subprocess::ResetPeakMemory() const {
  ForEachInGroup(pid_, [](const ProcStat& process) {
    std::ofstream("/proc/" + std::to_string(process.pid) + "/clear_refs") << "5";
  });
}

std::uint64_t Subprocess::PeakMemoryBytes() const {
  std::uint64_t total = 0;
  ForEachInGroup(pid_, [&](const ProcStat& process) {
    std::ifstream status("/proc/" + std::to_string(process.pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      unsigned long long kib = 0;
      if (std::sscanf(line.c_str(), "VmHWM: %llu kB", &kib) == 1) {
        total += kib * 1024;
        break;
      }
    }
  });
  return total;
}

void Subprocess::Kill() {
  if (pid_ > 0) {
    // The whole group: the shell, the implementation, and whatever they started and kept in it.
    killpg(pid_, SIGKILL);
    int status = 0;
    pid_t rc;
    do {
      rc = waitpid(pid_, &status, 0);
    } while (rc < 0 && errno == EINTR);
    if (rc == pid_ && exit_description_.empty()) exit_description_ = DescribeWaitStatus(status);
    pid_ = -1;
  }
  CloseStdin();
  // What the group wrote on stderr before it died is still in the pipe: keep it for the report.
  // Bounded, because a descendant outside the group may still be writing.
  if (stderr_fd_ >= 0) ReadStderr();
  CloseFd(&stdout_fd_);
  CloseFd(&stderr_fd_);
  KeepTail(&stderr_tail_, stderr_tail_bytes_);
}

std::string Subprocess::stderr_tail() const {
  std::string tail = stderr_tail_;
  KeepTail(&tail, stderr_tail_bytes_);
  return tail;
}

std::string Subprocess::LastStderrLine() const {
  std::string_view tail = stderr_tail_;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) {
    tail.remove_suffix(1);
  }
  std::size_t newline = tail.rfind('\n');
  if (newline != std::string_view::npos) tail.remove_prefix(newline + 1);
  return std::string(tail);
}

}  // namespace arcs::supervisor
