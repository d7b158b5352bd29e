#include "reference/mcp_record_replay/replay_server.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "reference/core/jsonl.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

// Waits until fd is ready for `events` or the deadline passes; false on the deadline.
bool WaitFor(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 100)));
    if (n > 0) return true;
  }
}

}  // namespace

bool WriteLine(int fd, std::string line) {
  line += '\n';
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

Result<std::unique_ptr<UpstreamForwarder>> UpstreamForwarder::Start(
    const std::string& command, std::function<void(std::string_view)> log,
    std::chrono::milliseconds timeout) {
  Result<std::unique_ptr<Upstream>> upstream = Upstream::Start(command);
  if (!upstream.ok()) return upstream.status();
  return std::unique_ptr<UpstreamForwarder>(
      new UpstreamForwarder(std::move(*upstream), std::move(log), timeout));
}

Status UpstreamForwarder::Write(std::string_view bytes,
                                std::chrono::steady_clock::time_point deadline) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(upstream_->stdin_fd(), bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return Status(StatusCode::kIoError, std::string("writing to it: ") + std::strerror(errno));
    } else if (!WaitFor(upstream_->stdin_fd(), POLLOUT, deadline)) {
      return Status(StatusCode::kIoError, "it takes no input");
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
    } else if (!WaitFor(upstream_->stdout_fd(), POLLIN, deadline)) {
      return Status(StatusCode::kIoError,
                    "no response within " + std::to_string(timeout_.count()) + " ms");
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
                   const std::function<void(std::string_view)>& log) {
  jsonl::FdSource client(in_fd);
  jsonl::LineReader reader(&client, {});
  jsonl::Line line;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return {ServeEnd::kFailed, "reading the client: " + more.status().message()};
    if (!*more) return {ServeEnd::kClientClosed, ""};
    if (line.too_long) {
      log("line " + std::to_string(line.number) + " from the client is too long: ignored");
      continue;
    }
    Reply reply = replayer->Handle(line.text);
    if (!reply.log.empty()) log(reply.log);
    if (reply.forward) {
      if (!forwarder) return {ServeEnd::kFailed, "passthrough without an upstream"};
      Result<std::string> answer = forwarder->Forward(line.text);
      if (!answer.ok()) return {ServeEnd::kFailed, "the upstream: " + answer.status().message()};
      reply.message = std::move(*answer);
    }
    if (reply.delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(reply.delay_ms));
    if (reply.message && !WriteLine(out_fd, std::move(*reply.message))) {
      return {ServeEnd::kClientClosed, ""};
    }
    if (reply.end) return {ServeEnd::kUnmatched, ""};
  }
}

}  // namespace arcs::mcp_record_replay
