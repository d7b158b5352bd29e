#include "reference/mcp_record_replay/replay_server.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "reference/core/jsonl.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

// Writes a whole message line; false when the client is gone (EPIPE) or the write fails.
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

}  // namespace

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
