#include "reference/mcp_record_replay/replay_server.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

#include "reference/core/jsonl.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

bool Stopped(const std::atomic<bool>* stop) { return stop && stop->load(); }

// Waits until fd is ready for `events`, the deadline passes or `stop` is set; true when ready.
bool WaitFor(int fd, short events, Clock::time_point deadline, const std::atomic<bool>* stop) {
  for (;;) {
    const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || Stopped(stop)) return false;
    pollfd p{fd, events, 0};
    if (::poll(&p, 1, static_cast<int>(std::min(left, kSlice).count())) > 0) return true;
  }
}

// The client's input, read only once poll says it holds something (or has ended), so that the
// stop flag is seen however long the client stays silent. A stop is a read error, never an end of
// input: an unfinished line must not be taken for a last message.
class ClientSource : public jsonl::ByteSource {
 public:
  ClientSource(int fd, const std::atomic<bool>* stop) : fd_(fd), source_(fd), stop_(stop) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    while (stop_ && !WaitFor(fd_, POLLIN, Clock::now() + kSlice, stop_)) {
      if (Stopped(stop_)) return Status(StatusCode::kIoError, "stopped");
    }
    return source_.Read(buf, size);
  }

 private:
  int fd_;
  jsonl::FdSource source_;
  const std::atomic<bool>* stop_;
};

// How a timing delay ended.
enum class Waited : std::uint8_t { kElapsed, kStopped, kClientGone, kInputClosed };

// Sleeps `delay`, looking at the stop flag and at the client's two ends every kSlice at most. With
// no event asked for, poll reports only an error or a hang-up: on out_fd, nobody reads the
// answers any more; on in_fd, the client will send nothing more (a pipe's writer closed it; a file
// never reports one).
Waited Delay(int in_fd, int out_fd, milliseconds delay, const std::atomic<bool>* stop) {
  const Clock::time_point end = Clock::now() + delay;
  for (;;) {
    if (Stopped(stop)) return Waited::kStopped;
    const auto left = std::chrono::ceil<milliseconds>(end - Clock::now());
    if (left.count() <= 0) return Waited::kElapsed;
    pollfd fds[2] = {{in_fd, 0, 0}, {out_fd, 0, 0}};
    if (::poll(fds, 2, static_cast<int>(std::min(left, kSlice).count())) <= 0) continue;
    if (fds[1].revents) return Waited::kClientGone;
    if (fds[0].revents) return Waited::kInputClosed;
  }
}

// The replay of one client, a message at a time.
class Serving {
 public:
  Serving(Replayer* replayer, int in_fd, int out_fd, Forwarder* forwarder,
          const std::function<void(std::string_view)>& log, const std::atomic<bool>* stop)
      : replayer_(replayer),
        in_fd_(in_fd),
        out_fd_(out_fd),
        forwarder_(forwarder),
        log_(log),
        stop_(stop) {}

  Served Run() {
    ClientSource client(in_fd_, stop_);
    jsonl::LineReader reader(&client, {});
    jsonl::Line line;
    for (;;) {
      Result<bool> more = reader.Next(&line);
      if (Stopped(stop_)) return {ServeEnd::kStopped, ""};
      if (!more.ok()) return {ServeEnd::kFailed, "reading the client: " + more.status().message()};
      if (!*more) return {ServeEnd::kClientClosed, ""};
      if (line.too_long) {
        log_("line " + std::to_string(line.number) + " from the client is too long: ignored");
        continue;
      }
      if (std::optional<Served> end = Answer(line.text)) return *end;
    }
  }

 private:
  // Answers one client line; the end of the replay, if it ends there.
  std::optional<Served> Answer(std::string_view line) {
    Reply reply = replayer_->Handle(line);
    if (!reply.log.empty()) log_(reply.log);
    if (reply.forward) {
      if (!forwarder_) return Served{ServeEnd::kFailed, "passthrough without an upstream"};
      Result<std::string> answer = forwarder_->Forward(line);
      if (Stopped(stop_)) return Served{ServeEnd::kStopped, ""};
      if (!answer.ok()) {
        return Served{ServeEnd::kFailed, "the upstream: " + answer.status().message()};
      }
      reply.message = std::move(*answer);
    }
    switch (Pause(reply.delay_ms)) {
      case Waited::kStopped:
        return Served{ServeEnd::kStopped, ""};
      case Waited::kClientGone:
        return Served{ServeEnd::kClientClosed, ""};
      case Waited::kElapsed:
      case Waited::kInputClosed:
        break;
    }
    if (reply.message && !WriteLine(out_fd_, std::move(*reply.message), stop_)) {
      return Served{Stopped(stop_) ? ServeEnd::kStopped : ServeEnd::kClientClosed, ""};
    }
    if (reply.end) return Served{ServeEnd::kUnmatched, ""};
    return std::nullopt;
  }

  // The timing's delay, cut to kMaxDelay; none once the client has closed its input.
  Waited Pause(std::uint64_t delay_ms) {
    if (delay_ms == 0 || input_closed_) return Waited::kElapsed;
    milliseconds delay = kMaxDelay;
    if (delay_ms > static_cast<std::uint64_t>(kMaxDelay.count())) {
      log_("the recorded delay of " + std::to_string(delay_ms) + " ms is cut to " +
           std::to_string(kMaxDelay.count()) + " ms, the longest a replay waits");
    } else {
      delay = milliseconds(delay_ms);
    }
    const Waited waited = Delay(in_fd_, out_fd_, delay, stop_);
    if (waited == Waited::kInputClosed) {
      input_closed_ = true;
      log_("the client closed its input: the answers it is owed go out without delay");
    }
    return waited;
  }

  Replayer* replayer_;
  int in_fd_;
  int out_fd_;
  Forwarder* forwarder_;
  const std::function<void(std::string_view)>& log_;
  const std::atomic<bool>* stop_;
  bool input_closed_ = false;
};

}  // namespace

bool WriteLine(int fd, std::string line, const std::atomic<bool>* stop) {
  line += '\n';
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR && !Stopped(stop)) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

Result<std::unique_ptr<UpstreamForwarder>> UpstreamForwarder::Start(
    const std::string& command, std::function<void(std::string_view)> log,
    const std::atomic<bool>* stop, std::chrono::milliseconds timeout) {
  Result<std::unique_ptr<Upstream>> upstream = Upstream::Start(command);
  if (!upstream.ok()) return upstream.status();
  return std::unique_ptr<UpstreamForwarder>(
      new UpstreamForwarder(std::move(*upstream), std::move(log), stop, timeout));
}

Status UpstreamForwarder::Wait(int fd, short events, Clock::time_point deadline,
                               std::string_view timeout_message) const {
  if (WaitFor(fd, events, deadline, stop_)) return Status::Ok();
  return Status(StatusCode::kIoError,
                Stopped(stop_) ? std::string("stopped") : std::string(timeout_message));
}

Status UpstreamForwarder::Write(std::string_view bytes,
                                std::chrono::steady_clock::time_point deadline) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(upstream_->stdin_fd(), bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return Status(StatusCode::kIoError, std::string("writing to it: ") + std::strerror(errno));
    } else if (Status s = Wait(upstream_->stdin_fd(), POLLOUT, deadline, "it takes no input");
               !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

Result<std::string> UpstreamForwarder::ReadLine(std::chrono::steady_clock::time_point deadline) {
  char buffer[65536];
  for (;;) {
    if (const std::size_t end = pending_.find('\n'); end != std::string::npos) {
      std::string line = pending_.substr(0, end);
      pending_.erase(0, end + 1);
      return line;
    }
    if (pending_.size() > (std::size_t{64} << 20)) {
      return Status(StatusCode::kLimitExceeded, "it sent a line over 64 MiB");
    }
    const ssize_t n = ::read(upstream_->stdout_fd(), buffer, sizeof buffer);
    if (n > 0) {
      pending_.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      return Status(StatusCode::kIoError, "it closed its output");
    } else if (errno != EAGAIN && errno != EINTR) {
      return Status(StatusCode::kIoError, std::string("reading it: ") + std::strerror(errno));
    } else if (Status s = Wait(upstream_->stdout_fd(), POLLIN, deadline,
                               "no response within " + std::to_string(timeout_.count()) + " ms");
               !s.ok()) {
      return s;
    }
  }
}

Result<std::string> UpstreamForwarder::Forward(std::string_view request_line) {
  json::Document request;
  if (!request.Parse(request_line) || !request.root().Find("id")) {
    return Status(StatusCode::kInvalidArgument, "only a request is forwarded");
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  if (Status s = Write(std::string(request_line) + "\n", deadline); !s.ok()) return s;
  json::Document answer;
  for (;;) {
    Result<std::string> line = ReadLine(deadline);
    if (!line.ok()) return line.status();
    if (answer.Parse(*line) && answer.root().is_object()) {
      const Classified c = Classify(answer.root());
      const bool response = c.kind == MessageKind::kResponse || c.kind == MessageKind::kError;
      if (response && json::SameData(*c.id, *request.root().Find("id"))) return *line;
    }
    log_("passthrough: the upstream's " + Quoted(*line, 80) + " is not the response: dropped");
  }
}

Served ServeReplay(Replayer* replayer, int in_fd, int out_fd, Forwarder* forwarder,
                   const std::function<void(std::string_view)>& log,
                   const std::atomic<bool>* stop) {
  return Serving(replayer, in_fd, out_fd, forwarder, log, stop).Run();
}

}  // namespace arcs::mcp_record_replay
