#include "reference/mcp_record_replay/replay_server.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/jsonrpc.h"

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

using Lines = std::vector<std::string>;

constexpr char kHandshakeId[] = "arcs-passthrough-initialize";
constexpr std::string_view kUpstreamIdPrefix = "arcs-upstream-";

std::string ErrorResponse(const json::Value& id, std::string_view message) {
  std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
  json::Write(id, &out);
  out += ",\"error\":{\"code\":-32000,\"message\":";
  json::AppendQuoted(message, &out);
  return out + "}}";
}

// Passthrough's own session with the upstream (errata MRR-E42): started by the first forwarded
// request with an initialize handshake, then carrying the unmatched requests and the client's
// notifications one way and everything the upstream says the other.
class UpstreamSession {
 public:
  UpstreamSession(Upstream* upstream, std::string recorded_initialize,
                  const std::function<void(std::string_view)>& log, const std::atomic<bool>* stop,
                  milliseconds timeout)
      : upstream_(upstream),
        recorded_initialize_(std::move(recorded_initialize)),
        log_(log),
        stop_(stop),
        timeout_(timeout) {}

  int out_fd() const { return state_ == State::kClosed ? -1 : upstream_->stdout_fd(); }
  bool Waiting() const { return !pending_.empty(); }
  std::optional<Clock::time_point> NextDeadline() const {
    if (pending_.empty()) return std::nullopt;
    return std::min_element(pending_.begin(), pending_.end(),
                            [](auto& a, auto& b) { return a.deadline < b.deadline; })
        ->deadline;
  }

  // The client's own initialize, which the handshake prefers to the recorded one.
  void SawClientInitialize(std::string_view line) {
    if (client_initialize_.empty()) client_initialize_ = line;
  }

  // A request the replayer did not match; the upstream's answer reaches the client later.
  Status Forward(const Classified& request, std::string_view line, Lines* to_client) {
    Forwarded p{json::ToString(*request.id), Clock::now() + timeout_};
    if (state_ == State::kClosed) {
      to_client->push_back(ErrorResponse(*request.id, "passthrough: " + closed_why_));
      return Status::Ok();
    }
    pending_.push_back(std::move(p));
    if (state_ == State::kIdle && request.method == "initialize") {
      state_ = State::kReady;  // the client's own handshake: its answer and its notification pass
      own_handshake_ = false;
    } else if (state_ == State::kIdle) {
      if (Status s = Handshake(); !s.ok()) return s;
    }
    return Send(line);
  }

  // A client notification (after the session started) goes to the upstream; an answer to one of
  // the upstream's requests goes back under the upstream's id. True when the line was for it.
  Result<bool> FromClient(const Classified& message, const json::Value& root,
                          std::string_view line) {
    if (message.kind == MessageKind::kNotification) {
      if (state_ == State::kIdle || state_ == State::kClosed ||
          (own_handshake_ && message.method == "notifications/initialized")) {
        return false;  // ours was sent with our handshake
      }
      if (Status s = Send(line); !s.ok()) return s;
      return true;
    }
    if (!message.id || !message.id->is_string()) return false;
    const std::string_view id = message.id->text();
    if (!id.starts_with(kUpstreamIdPrefix)) return false;
    auto it = upstream_ids_.find(std::string(id));
    if (it == upstream_ids_.end()) return false;
    json::Document original;
    original.Parse(it->second);
    upstream_ids_.erase(it);
    if (state_ == State::kClosed) return true;
    if (Status s = Send(WithId(root, original.root())); !s.ok()) return s;
    return true;
  }

  // Reads what the upstream wrote; its messages for the client go to *to_client.
  Status Pump(Lines* to_client) {
    char buffer[65536];
    for (;;) {
      const ssize_t n = ::read(upstream_->stdout_fd(), buffer, sizeof buffer);
      if (n > 0) {
        read_.append(buffer, static_cast<std::size_t>(n));
        if (read_.size() > (std::size_t{64} << 20) && read_.find('\n') == std::string::npos) {
          return Close("it sent a line over 64 MiB", to_client);
        }
        continue;
      }
      if (n == 0) return Close("it closed its output", to_client);
      if (errno == EINTR) continue;
      if (errno != EAGAIN)
        return Close(std::string("reading it: ") + std::strerror(errno), to_client);
      break;
    }
    for (std::size_t end; (end = read_.find('\n')) != std::string::npos;) {
      const std::string line = read_.substr(0, end);
      read_.erase(0, end + 1);
      if (Status s = FromUpstream(line, to_client); !s.ok()) return s;
    }
    return Status::Ok();
  }

  // Forwarded requests left unanswered past their time get an error response.
  void Expire(Lines* to_client) {
    const Clock::time_point now = Clock::now();
    std::erase_if(pending_, [&](const Forwarded& p) {
      if (p.deadline > now) return false;
      json::Document id;
      id.Parse(p.id);
      log_("passthrough: the upstream did not answer request " + Quoted(p.id, 40) + " within " +
           std::to_string(timeout_.count()) + " ms");
      to_client->push_back(
          ErrorResponse(id.root(), "passthrough: no answer from the upstream within " +
                                       std::to_string(timeout_.count()) + " ms"));
      return true;
    });
  }

 private:
  enum class State : std::uint8_t { kIdle, kInitializing, kReady, kClosed };
  struct Forwarded {
    std::string id;  // the client's, as JSON
    Clock::time_point deadline;
  };

  Status Handshake() {
    const std::string& init =
        client_initialize_.empty() ? recorded_initialize_ : client_initialize_;
    json::Document doc;
    if (init.empty() || !doc.Parse(init) || !doc.root().is_object()) {
      log_(
          "passthrough: no initialize request to start the upstream's session with: requests go "
          "to it without one");
      state_ = State::kReady;
      return Status::Ok();
    }
    log_("passthrough: the upstream's session starts with " +
         std::string(client_initialize_.empty() ? "the recorded" : "the client's") +
         " initialize request");
    state_ = State::kInitializing;
    json::Document id;
    id.Parse(std::string("\"") + kHandshakeId + "\"");
    return Write(WithId(doc.root(), id.root()));
  }

  // To the upstream now, or once its handshake is over.
  Status Send(std::string_view line) {
    if (state_ == State::kInitializing) {
      queued_.emplace_back(line);
      return Status::Ok();
    }
    return Write(line);
  }

  Status FromUpstream(const std::string& line, Lines* to_client) {
    json::Document doc;
    if (!doc.Parse(line) || !doc.root().is_object()) {
      log_("passthrough: the upstream's " + Quoted(line, 80) + " is not a message: dropped");
      return Status::Ok();
    }
    const Classified c = Classify(doc.root());
    const bool response = c.kind == MessageKind::kResponse || c.kind == MessageKind::kError;
    if (response && c.id && c.id->is_string() && c.id->text() == kHandshakeId) {
      if (c.kind == MessageKind::kError) log_("passthrough: the upstream refused initialize");
      state_ = State::kReady;
      if (Status s = Write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"); !s.ok()) {
        return s;
      }
      for (const std::string& queued : std::exchange(queued_, {})) {
        if (Status s = Write(queued); !s.ok()) return s;
      }
      return Status::Ok();
    }
    if (response && c.id) {
      const std::string id = json::ToString(*c.id);
      std::erase_if(pending_, [&](const Forwarded& p) { return p.id == id; });
    }
    if (c.kind == MessageKind::kRequest) {
      const std::string ours = std::string(kUpstreamIdPrefix) + std::to_string(next_id_++);
      upstream_ids_.emplace(ours, json::ToString(*c.id));
      json::Document id;
      id.Parse("\"" + ours + "\"");
      to_client->push_back(WithId(doc.root(), id.root()));
      return Status::Ok();
    }
    to_client->push_back(line);
    return Status::Ok();
  }

  Status Write(std::string_view text) {
    std::string line(text);
    line += '\n';
    const Clock::time_point deadline = Clock::now() + timeout_;
    for (std::string_view rest = line; !rest.empty();) {
      const ssize_t n = ::write(upstream_->stdin_fd(), rest.data(), rest.size());
      if (n > 0) {
        rest.remove_prefix(static_cast<std::size_t>(n));
      } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        return Status(StatusCode::kIoError,
                      std::string("the upstream: writing to it: ") + std::strerror(errno));
      } else if (!WaitFor(upstream_->stdin_fd(), POLLOUT, deadline, stop_)) {
        return Status(StatusCode::kIoError,
                      Stopped(stop_) ? "stopped" : "the upstream: it takes no input");
      }
    }
    return Status::Ok();
  }

  // The upstream has ended: what waits for it gets an error response, and so will what comes.
  Status Close(std::string why, Lines* to_client) {
    log_("passthrough: the upstream " + why);
    state_ = State::kClosed;
    closed_why_ = "the upstream " + std::move(why);
    for (const Forwarded& p : std::exchange(pending_, {})) {
      json::Document id;
      id.Parse(p.id);
      to_client->push_back(ErrorResponse(id.root(), "passthrough: " + closed_why_));
    }
    return Status::Ok();
  }

  Upstream* upstream_;
  std::string recorded_initialize_;
  const std::function<void(std::string_view)>& log_;
  const std::atomic<bool>* stop_;
  milliseconds timeout_;
  State state_ = State::kIdle;
  bool own_handshake_ = true;  // the session began with an initialize of ours, not the client's
  std::string closed_why_;
  std::string client_initialize_;
  Lines queued_;                                     // for the upstream, once its handshake is over
  std::vector<Forwarded> pending_;                   // forwarded, unanswered
  std::map<std::string, std::string> upstream_ids_;  // our id -> the upstream's, as JSON
  std::uint64_t next_id_ = 1;
  std::string read_;  // bytes read from the upstream after its last whole line
};

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
      if (at)
        wait =
            std::clamp(std::chrono::ceil<milliseconds>(*at - Clock::now()), milliseconds(0), wait);
    }
    const int n = ::poll(fds, 2, static_cast<int>(wait.count()));
    Lines to_client;
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
      Lines to_client;
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
  std::optional<UpstreamSession> session_;
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
