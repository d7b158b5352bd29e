#include "reference/mcp_record_replay/passthrough_session.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "reference/core/stop_signals.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/replay_server.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = PassthroughSession::Clock;
using std::chrono::milliseconds;

constexpr char kHandshakeId[] = "arcs-passthrough-initialize";
constexpr std::string_view kUpstreamIdPrefix = "arcs-upstream-";

// Waits until fd is ready for `events`, the deadline passes or `stop` is set; true when ready.
bool WaitFor(int fd, short events, Clock::time_point deadline, const std::atomic<bool>* stop) {
  for (;;) {
    const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || Stopped(stop)) return false;
    pollfd p{fd, events, 0};
    if (::poll(&p, 1, static_cast<int>(std::min(left, kSlice).count())) > 0) return true;
  }
}

std::string ErrorResponse(const json::Value& id, std::string_view message) {
  std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
  json::Write(id, &out);
  out += ",\"error\":{\"code\":-32000,\"message\":";
  json::AppendQuoted(message, &out);
  return out + "}}";
}

}  // namespace

std::optional<PassthroughSession::Clock::time_point> PassthroughSession::NextDeadline() const {
  if (pending_.empty()) return std::nullopt;
  return std::min_element(pending_.begin(), pending_.end(),
                          [](auto& a, auto& b) { return a.deadline < b.deadline; })
      ->deadline;
}

void PassthroughSession::SawClientInitialize(std::string_view line) {
  if (client_initialize_.empty()) client_initialize_ = line;
}

Status PassthroughSession::Forward(const Classified& request, std::string_view line,
                                   Lines* to_client) {
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

Result<bool> PassthroughSession::FromClient(const Classified& message, const json::Value& root,
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

Status PassthroughSession::Pump(Lines* to_client) {
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
    if (errno != EAGAIN) {
      return Close(std::string("reading it: ") + std::strerror(errno), to_client);
    }
    break;
  }
  for (std::size_t end; (end = read_.find('\n')) != std::string::npos;) {
    const std::string line = read_.substr(0, end);
    read_.erase(0, end + 1);
    if (Status s = FromUpstream(line, to_client); !s.ok()) return s;
  }
  return Status::Ok();
}

void PassthroughSession::Expire(Lines* to_client) {
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

Status PassthroughSession::Handshake() {
  const std::string& init = client_initialize_.empty() ? recorded_initialize_ : client_initialize_;
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
Status PassthroughSession::Send(std::string_view line) {
  if (state_ == State::kInitializing) {
    queued_.emplace_back(line);
    return Status::Ok();
  }
  return Write(line);
}

Status PassthroughSession::FromUpstream(const std::string& line, Lines* to_client) {
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

Status PassthroughSession::Write(std::string_view text) {
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
Status PassthroughSession::Close(std::string why, Lines* to_client) {
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

}  // namespace arcs::mcp_record_replay
