#include "reference/mcp_record_replay/replay_server.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/stop_signals.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/passthrough_session.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

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
  Serving(Replayer* replayer, int in_fd, int out_fd, Upstream* upstream,
          const std::function<void(std::string_view)>& log, const std::atomic<bool>* stop,
          const ServeOptions& options)
      : replayer_(replayer),
        in_fd_(in_fd),
        out_fd_(out_fd),
        log_(log),
        stop_(stop),
        options_(options) {
    if (upstream) {
      session_.emplace(upstream, replayer->RecordedInitialize(), log, stop,
                       options.forward_timeout);
    }
  }

  Served Run() {
    if (std::optional<Served> end = Send(replayer_->Start())) return *end;
    ClientSource client(this);
    jsonl::LineReader reader(&client, {});
    jsonl::Line line;
    for (;;) {
      Result<bool> more = reader.Next(&line);
      if (end_) return *end_;
      if (Stopped(stop_)) return {ServeEnd::kStopped, ""};
      if (!more.ok()) return {ServeEnd::kFailed, "reading the client: " + more.status().message()};
      if (!*more) return Finish();
      if (line.too_long) {
        log_("line " + std::to_string(line.number) + " from the client is too long: ignored");
        continue;
      }
      if (std::optional<Served> end = Answer(line.text)) return *end;
    }
  }

 private:
  // The client's input, read only once poll says it holds something (or has ended); meanwhile the
  // upstream's messages are passed on and the deadlines kept. A stop is a read error, never an
  // end of input: an unfinished line must not be taken for a last message.
  class ClientSource : public jsonl::ByteSource {
   public:
    explicit ClientSource(Serving* serving) : serving_(serving), source_(serving->in_fd_) {}
    Result<std::size_t> Read(char* buf, std::size_t size) override {
      for (;;) {
        const int ready = serving_->Wait(true);
        if (ready < 0) return Status(StatusCode::kIoError, "stopped");
        if (ready > 0) return source_.Read(buf, size);
      }
    }

   private:
    Serving* serving_;
    jsonl::FdSource source_;
  };

  // Waits up to kSlice for the client (when `client`) or the upstream, passing on what the upstream
  // says and keeping the deadlines: 1 when the client has something, -1 when the replay ends
  // (end_, or the stop flag), 0 otherwise.
  int Wait(bool client) {
    if (Stopped(stop_) || end_) return -1;
    pollfd fds[2] = {{client ? in_fd_ : -1, POLLIN, 0},
                     {session_ ? session_->out_fd() : -1, POLLIN, 0}};
    milliseconds wait = kSlice;
    for (std::optional<Clock::time_point> at : {HeldDeadline(), Deadline()}) {
      if (at) {
        wait =
            std::clamp(std::chrono::ceil<milliseconds>(*at - Clock::now()), milliseconds(0), wait);
      }
    }
    const int n = ::poll(fds, 2, static_cast<int>(wait.count()));
    std::vector<std::string> to_client;
    if (n > 0 && fds[1].revents) Fail(session_->Pump(&to_client));
    if (session_) session_->Expire(&to_client);
    for (std::string& line : to_client) {
      if (!end_ && !WriteLine(out_fd_, std::move(line), stop_)) End(ServeEnd::kClientClosed);
    }
    if (HeldDeadline() && *HeldDeadline() <= Clock::now()) {
      Reply released = replayer_->ReleaseHeld();
      released.log = "no answer from the client within " +
                     std::to_string(options_.answer_timeout.count()) + " ms: " + released.log;
      if (std::optional<Served> end = Send(std::move(released))) End(end->end, end->why);
    }
    if (Stopped(stop_) || end_) return -1;
    return n > 0 && fds[0].revents ? 1 : 0;
  }

  std::optional<Clock::time_point> HeldDeadline() const {
    if (!replayer_->Holding()) return std::nullopt;
    return held_since_ + options_.answer_timeout;
  }
  std::optional<Clock::time_point> Deadline() const {
    return session_ ? session_->NextDeadline() : std::nullopt;
  }

  void End(ServeEnd end, std::string why = "") {
    if (!end_) end_ = Served{end, std::move(why)};
  }
  void Fail(const Status& status) {
    if (!status.ok())
      End(Stopped(stop_) ? ServeEnd::kStopped : ServeEnd::kFailed, status.message());
  }

  // The client has closed its input: the responses still held go out, and the upstream has its
  // time to answer what was forwarded.
  Served Finish() {
    if (replayer_->Holding()) {
      if (std::optional<Served> end = Send(replayer_->ReleaseHeld())) return *end;
    }
    while (session_ && session_->Waiting() && Wait(false) >= 0) {
    }
    if (end_) return *end_;
    if (Stopped(stop_)) return {ServeEnd::kStopped, ""};
    return {ServeEnd::kClientClosed, ""};
  }

  // Answers one client line; the end of the replay, if it ends there.
  std::optional<Served> Answer(std::string_view line) {
    json::Document doc;
    std::optional<Classified> message;
    if (doc.Parse(line) && doc.root().is_object()) message = Classify(doc.root());
    if (session_ && message) {
      if (message->kind == MessageKind::kRequest && message->method == "initialize") {
        session_->SawClientInitialize(line);
      }
      Result<bool> taken = session_->FromClient(*message, doc.root(), line);
      if (!taken.ok()) return Served{ServeEnd::kFailed, taken.status().message()};
      if (*taken && message->kind != MessageKind::kNotification) return std::nullopt;
    }
    const bool was_holding = replayer_->Holding();
    Reply reply = replayer_->Handle(line);
    if (!was_holding && replayer_->Holding()) held_since_ = Clock::now();
    if (reply.forward) {
      if (!session_) return Served{ServeEnd::kFailed, "passthrough without an upstream"};
      std::vector<std::string> to_client;
      if (Status s = session_->Forward(*message, line, &to_client); !s.ok()) {
        return Served{Stopped(stop_) ? ServeEnd::kStopped : ServeEnd::kFailed, s.message()};
      }
      for (std::string& answer : to_client) reply.messages.push_back({std::move(answer), 0});
    }
    return Send(std::move(reply));
  }

  // Sends what a reply holds, each message after its delay.
  std::optional<Served> Send(Reply reply) {
    if (!reply.log.empty()) log_(reply.log);
    for (Outgoing& out : reply.messages) {
      switch (Pause(out.delay_ms)) {
        case Waited::kStopped:
          return Served{ServeEnd::kStopped, ""};
        case Waited::kClientGone:
          return Served{ServeEnd::kClientClosed, ""};
        case Waited::kElapsed:
        case Waited::kInputClosed:
          break;
      }
      if (!WriteLine(out_fd_, std::move(out.line), stop_)) {
        return Served{Stopped(stop_) ? ServeEnd::kStopped : ServeEnd::kClientClosed, ""};
      }
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
  const std::function<void(std::string_view)>& log_;
  const std::atomic<bool>* stop_;
  ServeOptions options_;
  std::optional<PassthroughSession> session_;
  std::optional<Served> end_;  // set while waiting for the client, seen by Run
  Clock::time_point held_since_;
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

Served ServeReplay(Replayer* replayer, int in_fd, int out_fd, Upstream* upstream,
                   const std::function<void(std::string_view)>& log, const std::atomic<bool>* stop,
                   const ServeOptions& options) {
  return Serving(replayer, in_fd, out_fd, upstream, log, stop, options).Run();
}

}  // namespace arcs::mcp_record_replay
