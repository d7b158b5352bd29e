#include "reference/mcp_record_replay/recorder.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "reference/mcp_record_replay/upstream.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// No wait is longer than this, so the stop flag and the upstream's death are seen promptly.
constexpr milliseconds kSlice{100};
constexpr std::size_t kChunk = 64 << 10;  // one read
// Bytes read from one side and not yet taken by the other: past this, that side is not read.
constexpr std::size_t kMaxQueued = 1 << 20;

void IgnoreSigpipe() {
  // Process-wide by nature; only replaces the default action, never a handler set on purpose.
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      sigaction(SIGPIPE, &ignore, nullptr);
    }
  });
}

// O_NONBLOCK on the client's descriptors for the session. It belongs to the open file
// description, which a terminal shares with the shell: the flags all go back as they were.
class NonBlockingScope {
 public:
  explicit NonBlockingScope(std::initializer_list<int> fds) {
    // Saved before any is changed: two of them may share one description.
    for (int fd : fds) saved_.push_back({fd, fcntl(fd, F_GETFL)});
    for (const auto& [fd, flags] : saved_) {
      if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    }
  }
  ~NonBlockingScope() {
    for (const auto& [fd, flags] : saved_) {
      if (flags >= 0) fcntl(fd, F_SETFL, flags);
    }
  }
  NonBlockingScope(const NonBlockingScope&) = delete;
  NonBlockingScope& operator=(const NonBlockingScope&) = delete;

 private:
  std::vector<std::pair<int, int>> saved_;
};

// One direction of the proxy: bytes read from `in` wait in `queue` until `out` takes them, and
// are cut into lines on the way.
struct Flow {
  bool client = false;  // c2s
  int in = -1;
  int out = -1;
  std::string queue;
  std::size_t sent = 0;  // of queue
  std::string line;      // the current line so far; past the limit, its first kUnrecordedKeptBytes
  std::uint64_t line_bytes = 0;  // its length, also past the limit
  bool ended = false;            // `in` reached its end
  bool out_gone = false;         // `out` failed: what comes in is no longer forwarded

  std::size_t waiting() const { return queue.size() - sent; }
  std::string_view name() const { return client ? "c2s" : "s2c"; }
};

enum class End : std::uint8_t { kNone, kClient, kUpstream, kStop };

// The stdio flows; the recording is `recording`'s, which this thread alone feeds.
class Session {
 public:
  Session(const RecorderOptions& options, const std::atomic<bool>* stop,
          RecordingSession* recording)
      : options_(options), stop_(stop), recording_(recording), buffer_(new char[kChunk]) {}

  Result<int> Run(Upstream* upstream) {
    upstream_ = upstream;
    c2s_.client = true;
    c2s_.in = options_.client_in;
    c2s_.out = upstream->stdin_fd();
    s2c_.in = upstream->stdout_fd();
    s2c_.out = options_.client_out;
    NonBlockingScope scope({options_.client_in, options_.client_out});
    next_exit_check_ = Clock::now();
    for (;;) {
      const Clock::time_point now = Clock::now();
      recording_->FlushIfDue(now);
      if (stop_ && stop_->load(std::memory_order_relaxed)) end_ = End::kStop;
      if (end_ == End::kStop) break;
      Advance(now);
      if (Done(now)) break;
      PollOnce(now);
    }
    return Finish();
  }

 private:
  // What has ended, and what that starts.
  void Advance(Clock::time_point now) {
    if (s2c_.out_gone && !c2s_.ended) {
      c2s_.ended = true;  // the client stopped reading: it has gone, like an end of file
      Unfinished(&c2s_, now);
    }
    if (c2s_.ended && (c2s_.waiting() == 0 || c2s_.out_gone) && upstream_->stdin_fd() >= 0) {
      // Everything the client sent has been handed on: end of file for the upstream too.
      upstream_->CloseStdin();
      c2s_.out = -1;
      EndBy(End::kClient, now);
    }
    if (now >= next_exit_check_) {
      next_exit_check_ = now + kSlice;
      if (!upstream_exited_ && upstream_->Exited()) {
        upstream_exited_ = true;
        EndBy(End::kUpstream, now);
      }
    }
    // Once it has exited, what it wrote is in the pipe: read it to the end (a descendant may hold
    // the pipe open, so no end of file may come; an empty pipe is the end).
    if (upstream_exited_ && !s2c_.ended && s2c_.waiting() < kMaxQueued) Read(&s2c_, now, true);
    if (s2c_.ended) EndBy(End::kUpstream, now);
  }

  void EndBy(End end, Clock::time_point now) {
    if (end_ == End::kNone) end_ = end;
    if (!deadline_) deadline_ = now + options_.shutdown_grace;
  }

  // The session is over once the upstream's output has all reached the client (or the client has
  // gone), or the grace is over.
  bool Done(Clock::time_point now) const {
    if (end_ == End::kNone) return false;
    if (deadline_ && now >= *deadline_) return true;
    return s2c_.ended && (s2c_.waiting() == 0 || s2c_.out_gone);
  }

  void PollOnce(Clock::time_point now) {
    pollfd fds[4];
    Flow* flows[4];
    bool reading[4];
    nfds_t count = 0;
    auto add = [&](Flow* f, bool read) {
      fds[count] = {read ? f->in : f->out, static_cast<short>(read ? POLLIN : POLLOUT), 0};
      flows[count] = f;
      reading[count++] = read;
    };
    for (Flow* f : {&c2s_, &s2c_}) {
      if (!f->ended && f->waiting() < kMaxQueued) add(f, true);  // else: backpressure
      if (f->waiting() > 0 && !f->out_gone && f->out >= 0) add(f, false);
    }
    Clock::time_point until = std::min({now + kSlice, recording_->next_due(), next_exit_check_});
    if (deadline_) until = std::min(until, *deadline_);
    const auto wait = std::chrono::ceil<milliseconds>(std::max(until - now, Clock::duration{}));
    if (poll(fds, count, static_cast<int>(wait.count())) <= 0) return;  // timeout or EINTR
    for (nfds_t i = 0; i < count; ++i) {
      if (!fds[i].revents) continue;
      if (reading[i]) {
        Read(flows[i], Clock::now(), false);
      } else {
        Write(flows[i]);
      }
    }
  }

  // One read of what `f->in` holds, forwarded at once as far as the other side takes it.
  // after_exit: the upstream has exited, so an empty pipe means nothing more is coming.
  void Read(Flow* f, Clock::time_point now, bool after_exit) {
    const ssize_t n = read(f->in, buffer_.get(), kChunk);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (after_exit && errno == EAGAIN) EndOfInput(f, now);
      return;
    }
    if (n <= 0) {
      EndOfInput(f, now);
      return;
    }
    const std::string_view bytes(buffer_.get(), static_cast<std::size_t>(n));
    if (!f->out_gone && f->out >= 0) f->queue.append(bytes);
    Lines(f, bytes, now);
    Write(f);
  }

  void EndOfInput(Flow* f, Clock::time_point now) {
    f->ended = true;
    Unfinished(f, now);
  }

  // The unterminated rest of a stream: forwarded, never a message to its reader (stdio messages
  // are "delimited by newlines"), so recorded as arcs/unrecorded; blank, it is nothing.
  void Unfinished(Flow* f, Clock::time_point now) {
    if (f->line_bytes > 0 && !TrimJsonSpace(f->line).empty()) {
      recording_->Unrecorded(
          f->client, f->line, f->line_bytes,
          {"unterminated", "the stream ended inside it (a line without its newline)"}, now);
    }
    f->line.clear();
    f->line_bytes = 0;
  }

  void Write(Flow* f) {
    while (f->waiting() > 0 && !f->out_gone && f->out >= 0) {
      const ssize_t n = write(f->out, f->queue.data() + f->sent, f->waiting());
      if (n > 0) {
        f->sent += static_cast<std::size_t>(n);
      } else if (n < 0 && errno == EAGAIN) {
        break;
      } else if (!(n < 0 && errno == EINTR)) {
        // EPIPE: nobody reads that side any more (SIGPIPE is ignored).
        f->out_gone = true;
        recording_->Warn(std::string(f->name()) + ": " +
                         (f->client ? "the upstream" : "the client") + " stopped reading (" +
                         ErrnoText(n < 0 ? errno : EIO) + ")");
      }
    }
    if (f->out_gone || f->sent == f->queue.size()) {
      f->queue.clear();
      f->sent = 0;
    } else if (f->sent >= kMaxQueued / 2) {
      f->queue.erase(0, f->sent);
      f->sent = 0;
    }
  }

  // Cuts `bytes` into lines; each complete one within the limit may be a message. A longer one
  // is streamed, never held whole: only its first kUnrecordedKeptBytes are kept, for
  // arcs/unrecorded.
  void Lines(Flow* f, std::string_view bytes, Clock::time_point now) {
    const std::uint64_t limit = options_.limits.max_line_bytes;
    while (!bytes.empty()) {
      const std::size_t newline = bytes.find('\n');
      const std::string_view piece = bytes.substr(0, newline);
      f->line_bytes += piece.size();
      if (f->line_bytes <= limit) {
        f->line.append(piece);
      } else {
        if (f->line.size() > kUnrecordedKeptBytes)
          f->line = f->line.substr(0, kUnrecordedKeptBytes);  // frees the rest
        f->line.append(piece.substr(0, kUnrecordedKeptBytes - f->line.size()));
      }
      if (newline == std::string_view::npos) return;
      if (f->line_bytes <= limit) {
        recording_->Message(f->client, f->line, now);
      } else {
        recording_->Unrecorded(f->client, f->line, f->line_bytes,
                               {"too-long", "over max_line_bytes (" + std::to_string(limit) + ")"},
                               now);
      }
      f->line.clear();
      if (f->line.capacity() > kMaxQueued) std::string().swap(f->line);
      f->line_bytes = 0;
      bytes.remove_prefix(newline + 1);
    }
  }
  Result<int> Finish() {
    for (Flow* f : {&c2s_, &s2c_}) {
      Write(f);  // what the other side takes now; nothing waits on it any more
      if (!f->ended) Unfinished(f, Clock::now());
    }
    // The footer before the upstream's end, which may take the whole grace: a client that kills
    // us meanwhile must not cost the recording its footer.
    const Status recorded = recording_->Finish();
    upstream_->CloseStdin();
    const int status = upstream_->Terminate(options_.shutdown_grace);
    if (end_ == End::kUpstream)
      recording_->Note("the upstream ended: " + DescribeWaitStatus(status));
    if (!recorded.ok()) return recorded;
    return end_ == End::kUpstream ? ShellExitCode(status) : 0;
  }

  const RecorderOptions& options_;
  const std::atomic<bool>* stop_;
  RecordingSession* recording_;
  Upstream* upstream_ = nullptr;
  std::unique_ptr<char[]> buffer_;
  Flow c2s_, s2c_;
  Clock::time_point next_exit_check_;
  std::optional<Clock::time_point> deadline_;
  bool upstream_exited_ = false;
  End end_ = End::kNone;
};

}  // namespace

Result<int> RunRecorder(const RecorderOptions& options, const std::atomic<bool>* stop) {
  if (options.upstream_command.empty()) {
    return Status(StatusCode::kInvalidArgument, "the upstream command is empty");
  }
  Result<std::unique_ptr<RecordingSession>> recording =
      RecordingSession::Start(options, options.upstream_command, "line");
  if (!recording.ok()) return recording.status();
  IgnoreSigpipe();
  Session session(options, stop, recording->get());
  Result<std::unique_ptr<Upstream>> upstream =
      Upstream::Start(options.upstream_command, options.log_fd);
  if (!upstream.ok()) return upstream.status();
  return session.Run(upstream->get());
}

}  // namespace arcs::mcp_record_replay
