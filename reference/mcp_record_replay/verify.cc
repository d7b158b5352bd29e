#include "reference/mcp_record_replay/verify.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

#include "reference/core/json.h"
#include "reference/core/keyed_hash.h"
#include "reference/core/stop_signals.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/replay_server.h"
#include "reference/mcp_record_replay/request_key.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;
using json::Value;
using std::chrono::milliseconds;

constexpr std::size_t kMaxLine = std::size_t{64} << 20;  // as the recording's own line limit
constexpr std::size_t kNone = SIZE_MAX;
constexpr std::string_view kToolFields[] = {"inputSchema", "description", "annotations"};

bool IsResponse(MessageKind kind) {
  return kind == MessageKind::kResponse || kind == MessageKind::kError;
}

// The message of a recorded line, read again (null when the line holds none).
Result<const Value*> MsgAt(const LoadedRecording& recording, const RandomAccessSource& lines,
                           std::size_t index, json::Document* doc) {
  if (Status s = ReadMessageLine(lines, recording.messages[index], doc); !s.ok()) return s;
  const Value* msg = doc->root().Find("msg");
  return msg && msg->is_object() ? msg : nullptr;
}

std::string ToolName(std::string_view method, const Value* params) {
  const Value* name = params && params->is_object() ? params->FindLast("name") : nullptr;
  return method == "tools/call" && name && name->is_string() ? std::string(name->text()) : "";
}

// A tools/list result's tools by name (the last of a repeated name).
std::map<std::string_view, const Value*> ToolsByName(const Value* result) {
  std::map<std::string_view, const Value*> tools;
  const Value* list = result && result->is_object() ? result->FindLast("tools") : nullptr;
  if (!list) return tools;
  for (const Value& tool : list->items()) {
    const Value* name = tool.is_object() ? tool.FindLast("name") : nullptr;
    if (name && name->is_string()) tools[name->text()] = &tool;
  }
  return tools;
}

// Whether two optional members hold the same data (both absent is the same).
bool SameMember(const Value& a, const Value& b, std::string_view name) {
  const Value* x = a.FindLast(name);
  const Value* y = b.FindLast(name);
  return (!x && !y) || (x && y && json::SameData(*x, *y));
}

// Whether `pointer` is `ignored` or below it, a token "*" of `ignored` matching any one token.
bool Covers(std::string_view ignored, std::string_view pointer) {
  while (!ignored.empty()) {
    if (pointer.empty() || ignored[0] != '/' || pointer[0] != '/') return false;
    const std::size_t a = std::min(ignored.find('/', 1), ignored.size());
    const std::size_t b = std::min(pointer.find('/', 1), pointer.size());
    if (ignored.substr(1, a - 1) != "*" && ignored.substr(0, a) != pointer.substr(0, b)) {
      return false;
    }
    ignored.remove_prefix(a);
    pointer.remove_prefix(b);
  }
  return true;
}

// Where a live result departs from the recorded one: the JSON Pointer of each place a departure
// starts (a member or element only one of them has; values of other kinds, or other scalars), in
// document order, leaving out the places `ignored` covers; at most kMaxDepartures of them.
class Departures {
 public:
  static constexpr std::size_t kMaxDepartures = 10;
  explicit Departures(const std::vector<std::string>& ignored) : ignored_(ignored) {}

  std::vector<std::string> Of(const Value& recorded, const Value& live) {
    Walk(&recorded, &live);
    return std::move(found_);
  }

 private:
  // Either value may be null: a member or element the other has alone.
  void Walk(const Value* recorded, const Value* live) {
    if (found_.size() >= kMaxDepartures || (recorded && live && json::SameData(*recorded, *live))) {
      return;
    }
    if (std::any_of(ignored_.begin(), ignored_.end(),
                    [&](const std::string& i) { return Covers(i, pointer_); })) {
      return;
    }
    const std::size_t mark = pointer_.size();
    if (recorded && live && recorded->is_object() && live->is_object()) {
      for (const Value* object : {recorded, live}) {
        for (const json::Member& m : object->members()) {
          if (object->FindLast(m.name) != &m.value) continue;  // a repeated name: its last
          const Value* mine = recorded->FindLast(m.name);
          if (object == live && mine) continue;  // walked with the recorded members
          pointer_ += '/';
          json::AppendPointerToken(m.name, &pointer_);
          Walk(mine, live->FindLast(m.name));
          pointer_.resize(mark);
        }
      }
    } else if (recorded && live && recorded->is_array() && live->is_array()) {
      const auto a = recorded->items();
      const auto b = live->items();
      for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        pointer_ += '/' + std::to_string(i);
        Walk(i < a.size() ? &a[i] : nullptr, i < b.size() ? &b[i] : nullptr);
        pointer_.resize(mark);
      }
    } else {
      found_.push_back(pointer_);
    }
  }

  const std::vector<std::string>& ignored_;
  std::string pointer_;
  std::vector<std::string> found_;
};

std::string ErrorText(const Value& msg) {
  return Excerpt(json::ToString(*msg.FindLast("error")), 200);
}

// One verification: the recording's index, then the session.
class Session {
 public:
  Session(const LoadedRecording& recording, const RandomAccessSource& lines, LineTransport* server,
          const VerifyOptions& options, const std::atomic<bool>* stop)
      : recording_(recording), lines_(lines), server_(server), options_(options), stop_(stop) {}

  Result<VerifyReport> Run() {
    if (Status s = Index(); !s.ok()) return s;
    if (initialize_ == kNone) {
      return Status(StatusCode::kInvalidArgument,
                    "the recording holds no initialize request: there is no session to verify");
    }
    if (Status s = Play(); !s.ok()) return s;
    report_.not_sent = client_requests_ - report_.requests_sent;
    return std::move(report_);
  }

 private:
  enum class Outcome : std::uint8_t { kAnswered, kNotAnswered, kServerEnded, kStopped };

  // initialize, then the client's other messages in file order, until the end or an early end.
  Status Play() {
    Result<Outcome> init = Exchange(initialize_);
    if (!init.ok()) return init.status();
    if (*init == Outcome::kServerEnded) {
      return Status(StatusCode::kIoError, "the upstream ended before it answered initialize: " +
                                              report_.changes.back().detail);
    }
    if (*init != Outcome::kAnswered) return Status::Ok();  // no session to go on with
    const std::vector<RecordedMessage>& messages = recording_.messages;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const RecordedMessage& m = messages[i];
      if (i == initialize_ || m.dir != Direction::kClientToServer) continue;
      if (m.kind != MessageKind::kRequest && m.kind != MessageKind::kNotification) continue;
      if (Stopped(stop_)) {
        report_.stopped = true;
        return Status::Ok();
      }
      Result<Outcome> outcome = Exchange(i);
      if (!outcome.ok()) return outcome.status();
      if (*outcome == Outcome::kServerEnded || *outcome == Outcome::kStopped) return Status::Ok();
    }
    return Status::Ok();
  }

  // Pairs each request with the response of its id (MRR-E28), files the client's answered
  // requests by their by-request key in file order (what a by-request replay serves, MRR-E34),
  // and the client's answers to the server's requests by the method of the request.
  Status Index() {
    const std::vector<RecordedMessage>& messages = recording_.messages;
    std::vector<std::size_t> answer(messages.size(), kNone);
    std::unordered_map<std::size_t, std::string> keys;
    std::unordered_map<std::size_t, std::string> server_methods;
    PendingIds pending[2];  // by the direction of the requests
    json::Document doc;
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const RecordedMessage& m = messages[i];
      const bool request = m.kind == MessageKind::kRequest;
      if (!request && !IsResponse(m.kind)) continue;
      Result<const Value*> msg = MsgAt(recording_, lines_, i, &doc);
      if (!msg.ok()) return msg.status();
      if (!*msg) continue;
      const Classified c = Classify(**msg);
      const auto dir = static_cast<std::size_t>(m.dir);
      if (request) {
        pending[dir].Add(*c.id, i);
        if (m.dir == Direction::kClientToServer) ++client_requests_;
        if (m.dir == Direction::kServerToClient) {
          server_methods.emplace(i, c.method);
        } else if (Result<std::string> key = RequestKey(c.method, c.params); key.ok()) {
          keys.emplace(i, std::move(*key));
        }
        if (m.dir == Direction::kClientToServer && c.method == "initialize" &&
            initialize_ == kNone) {
          initialize_ = i;
        }
      } else if (std::optional<std::uint64_t> asked = pending[1 - dir].Take(*c.id)) {
        answer[*asked] = i;
      }
    }
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (answer[i] == kNone) continue;
      if (messages[i].dir == Direction::kServerToClient) {
        client_answers_[server_methods[i]].push_back(answer[i]);
      } else if (auto key = keys.find(i); key != keys.end()) {
        recorded_[key->second].push_back(answer[i]);
      } else {
        unkeyed_.emplace(i, answer[i]);  // params without a canonical form: its own response
      }
    }
    return Status::Ok();
  }

  // The recorded response the request at `index` is compared with.
  std::size_t RecordedResponse(std::size_t index, const Classified& c) {
    if (Result<std::string> key = RequestKey(c.method, c.params); key.ok()) {
      auto queue = recorded_.find(*key);
      if (queue == recorded_.end() || queue->second.empty()) return kNone;
      const std::size_t response = queue->second.front();
      queue->second.pop_front();
      return response;
    }
    auto own = unkeyed_.find(index);
    return own == unkeyed_.end() ? kNone : own->second;
  }

  // Sends the client message at `index`; a request's response is awaited and compared.
  Result<Outcome> Exchange(std::size_t index) {
    json::Document doc;
    Result<const Value*> msg = MsgAt(recording_, lines_, index, &doc);
    if (!msg.ok()) return msg.status();
    if (!*msg) return Outcome::kNotAnswered;
    const Classified c = Classify(**msg);
    // A line the client sent that the recorder could not record as a message (errata MRR-E51):
    // no message of the client's to send again.
    if (c.method == "arcs/unrecorded") return Outcome::kAnswered;
    Change where;
    where.method = c.method;
    where.seq = recording_.messages[index].seq;
    where.tool = ToolName(c.method, c.params);
    if (Status sent = server_->Send(json::ToString(**msg), Clock::now() + options_.timeout);
        !sent.ok()) {
      return Stopped(stop_) ? Stop() : ServerEnded(std::move(where), sent.message());
    }
    if (c.kind == MessageKind::kNotification) {
      ++report_.notifications_sent;
      return Outcome::kAnswered;
    }
    ++report_.requests_sent;
    const std::size_t recorded = RecordedResponse(index, c);
    if (recorded == kNone) return Outcome::kNotAnswered;  // nothing to compare it with
    const Clock::time_point deadline = Clock::now() + options_.timeout;
    json::Document live;
    for (;;) {
      Received received = server_->Receive(deadline);
      switch (received.end) {
        case ReceiveEnd::kLine:
          break;
        case ReceiveEnd::kTimedOut:
          where.kind = ChangeKind::kNoResponse;
          where.breaking = true;
          where.detail = "no response within " + std::to_string(options_.timeout.count()) + " ms";
          report_.changes.push_back(std::move(where));
          return Outcome::kNotAnswered;
        case ReceiveEnd::kClosed:
          return ServerEnded(std::move(where), received.why);
        case ReceiveEnd::kStopped:
          return Stop();
        case ReceiveEnd::kFailed:
          return Status(StatusCode::kIoError, "the upstream: " + received.why);
      }
      if (!live.Parse(received.line) || !live.root().is_object()) continue;
      const Classified answer = Classify(live.root());
      if (answer.kind == MessageKind::kRequest) {
        if (Status s = AnswerServer(answer); !s.ok()) return s;
        continue;
      }
      if (!IsResponse(answer.kind) || !json::SameData(*answer.id, *c.id)) continue;
      if (index == initialize_) initialized_ = answer.kind == MessageKind::kResponse;
      json::Document recorded_doc;
      Result<const Value*> recorded_msg = MsgAt(recording_, lines_, recorded, &recorded_doc);
      if (!recorded_msg.ok()) return recorded_msg.status();
      if (*recorded_msg) Compare(std::move(where), **recorded_msg, live.root());
      ++report_.compared;
      return index == initialize_ && !initialized_ ? Outcome::kNotAnswered : Outcome::kAnswered;
    }
  }

  // The server's own request: the client's recorded answer to one of its method with the live
  // id, else -32601. A server that no longer reads shows as ended while the response is awaited,
  // so a failed send is left to that.
  Status AnswerServer(const Classified& request) {
    auto answers = client_answers_.find(request.method);
    if (answers != client_answers_.end() && !answers->second.empty()) {
      json::Document doc;
      Result<const Value*> recorded = MsgAt(recording_, lines_, answers->second.front(), &doc);
      if (!recorded.ok()) return recorded.status();
      answers->second.pop_front();
      if (*recorded) {
        ++report_.server_requests_answered;
        (void)server_->Send(WithId(**recorded, *request.id), Clock::now() + options_.timeout);
        return Status::Ok();
      }
    }
    std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
    json::Write(*request.id, &out);
    std::string error = "{\"code\":-32601";
    json::AppendMember(
        "message", "arcs mcp verify: the recording has no answer to " + std::string(request.method),
        &error);
    json::AppendRawMember("error", error + "}", &out);
    ++report_.server_requests_refused;
    (void)server_->Send(out + "}", Clock::now() + options_.timeout);
    return Status::Ok();
  }

  void Compare(Change where, const Value& recorded, const Value& live) {
    const Value* recorded_result = recorded.FindLast("result");
    const Value* live_result = live.FindLast("result");
    const bool recorded_error = recorded.FindLast("error") != nullptr;
    const bool live_error = live.FindLast("error") != nullptr;
    if (!recorded_error && live_error) {
      where.kind = ChangeKind::kResultBecameError;
      where.breaking = true;
      where.detail = ErrorText(live);
    } else if (recorded_error && !live_error) {
      where.kind = ChangeKind::kErrorBecameResult;
      where.detail = "it was " + ErrorText(recorded);
    } else if (recorded_error) {
      if (json::SameData(*recorded.FindLast("error"), *live.FindLast("error"))) return;
      where.kind = ChangeKind::kErrorChanged;
      where.detail = "it was " + ErrorText(recorded) + ", now " + ErrorText(live);
    } else if (where.method == "tools/list") {
      CompareTools(where, recorded_result, live_result);
      return;
    } else {
      std::vector<std::string> departures =
          Departures(options_.ignore_paths).Of(*recorded_result, *live_result);
      if (departures.empty()) return;  // the same data, or different only where ignored
      where.kind = ChangeKind::kResultChanged;
      where.fields = std::move(departures);
    }
    report_.changes.push_back(std::move(where));
  }

  void CompareTools(const Change& where, const Value* recorded_result, const Value* live_result) {
    const auto recorded = ToolsByName(recorded_result);
    const auto live = ToolsByName(live_result);
    auto add = [&](ChangeKind kind, std::string_view name, bool breaking,
                   std::vector<std::string> fields = {}) {
      Change change = where;
      change.kind = kind;
      change.tool = name;
      change.breaking = breaking;
      change.fields = std::move(fields);
      report_.changes.push_back(std::move(change));
    };
    for (const auto& [name, tool] : recorded) {
      auto now = live.find(name);
      if (now == live.end()) {
        add(ChangeKind::kToolRemoved, name, true);
        continue;
      }
      std::vector<std::string> fields;
      for (std::string_view field : kToolFields) {
        if (!SameMember(*tool, *now->second, field)) fields.emplace_back(field);
      }
      if (fields.empty()) continue;
      const bool schema = fields.front() == kToolFields[0];
      add(ChangeKind::kToolChanged, name, schema, std::move(fields));
    }
    for (const auto& [name, tool] : live) {
      if (!recorded.contains(name)) add(ChangeKind::kToolAdded, name, false);
    }
  }

  Outcome ServerEnded(Change where, std::string why) {
    where.kind = ChangeKind::kServerExited;
    where.breaking = true;
    where.detail = std::move(why);
    report_.changes.push_back(std::move(where));
    return Outcome::kServerEnded;
  }

  Outcome Stop() {
    report_.stopped = true;
    return Outcome::kStopped;
  }

  const LoadedRecording& recording_;
  const RandomAccessSource& lines_;
  LineTransport* server_;
  VerifyOptions options_;
  const std::atomic<bool>* stop_;
  std::size_t initialize_ = kNone;
  bool initialized_ = false;
  std::uint64_t client_requests_ = 0;
  KeyedStringMap<std::deque<std::size_t>> recorded_;        // by-request key -> responses
  std::unordered_map<std::size_t, std::size_t> unkeyed_;    // request -> its response
  KeyedStringMap<std::deque<std::size_t>> client_answers_;  // server method -> client answers
  VerifyReport report_;
};

std::string Describe(const Change& c) {
  static constexpr std::string_view kWords[] = {"tool added",
                                                "tool removed",
                                                "tool changed",
                                                "result changed",
                                                "result became an error",
                                                "error became a result",
                                                "error changed",
                                                "no response",
                                                "the server exited"};
  std::string line = "  " + std::string(kWords[static_cast<std::size_t>(c.kind)]) + ": " +
                     c.method + (c.tool.empty() ? "" : " " + c.tool) + " (seq " +
                     std::to_string(c.seq) + ")";
  if (!c.fields.empty()) {
    line += (c.kind == ChangeKind::kResultChanged ? ": at " : ": ") + Join(c.fields);
  }
  if (!c.detail.empty()) line += ": " + c.detail;
  return line;
}

}  // namespace

Result<std::unique_ptr<StdioTransport>> StdioTransport::Start(const std::string& command,
                                                              const std::atomic<bool>* stop,
                                                              int log_fd) {
  Result<std::unique_ptr<Upstream>> upstream = Upstream::Start(command, log_fd);
  if (!upstream.ok()) return upstream.status();
  return std::unique_ptr<StdioTransport>(new StdioTransport(std::move(*upstream), stop));
}

StdioTransport::~StdioTransport() {
  if (Stopped(stop_)) return;
  upstream_->CloseStdin();
  upstream_->WaitForExit(Upstream::kDefaultGrace);
}

// Waits until fd is ready for `events`, the deadline passes or the stop flag is set.
bool StdioTransport::WaitFor(int fd, short events, Clock::time_point deadline) const {
  for (;;) {
    const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || Stopped(stop_)) return false;
    pollfd p{fd, events, 0};
    if (::poll(&p, 1, static_cast<int>(std::min(left, kSlice).count())) > 0) return true;
  }
}

std::string StdioTransport::HowItEnded() {
  if (upstream_->WaitForExit(Upstream::kDefaultGrace)) {
    return "it " + DescribeWaitStatus(*upstream_->wait_status());
  }
  return "it closed its output";
}

Status StdioTransport::Send(std::string_view line, Clock::time_point deadline) {
  const std::string bytes = std::string(line) + "\n";
  std::string_view rest = bytes;
  while (!rest.empty()) {
    const ssize_t n = ::write(upstream_->stdin_fd(), rest.data(), rest.size());
    if (n > 0) {
      rest.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      return Status(StatusCode::kIoError,
                    "writing to it: " + std::string(std::strerror(errno)) + "; " + HowItEnded());
    } else if (!WaitFor(upstream_->stdin_fd(), POLLOUT, deadline)) {
      return Status(StatusCode::kIoError, Stopped(stop_) ? "stopped" : "it takes no input");
    }
  }
  return Status::Ok();
}

Received StdioTransport::Receive(Clock::time_point deadline) {
  char buffer[65536];
  for (;;) {
    if (const std::size_t end = pending_.find('\n'); end != std::string::npos) {
      Received received{ReceiveEnd::kLine, pending_.substr(0, end), ""};
      pending_.erase(0, end + 1);
      return received;
    }
    if (pending_.size() > kMaxLine) return {ReceiveEnd::kFailed, "", "it sent a line over 64 MiB"};
    const ssize_t n = ::read(upstream_->stdout_fd(), buffer, sizeof buffer);
    if (n > 0) {
      pending_.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      return {ReceiveEnd::kClosed, "", HowItEnded()};
    } else if (errno != EAGAIN && errno != EINTR) {
      return {ReceiveEnd::kFailed, "", "reading it: " + std::string(std::strerror(errno))};
    } else if (!WaitFor(upstream_->stdout_fd(), POLLIN, deadline)) {
      return {Stopped(stop_) ? ReceiveEnd::kStopped : ReceiveEnd::kTimedOut, "", ""};
    }
  }
}

std::string_view ChangeKindName(ChangeKind kind) {
  static constexpr std::string_view kNames[] = {
      "tool_added",     "tool_removed",        "tool_changed",
      "result_changed", "result_became_error", "error_became_result",
      "error_changed",  "no_response",         "server_exited"};
  return kNames[static_cast<std::size_t>(kind)];
}

bool VerifyReport::breaking() const {
  return std::any_of(changes.begin(), changes.end(), [](const Change& c) { return c.breaking; });
}

Result<VerifyReport> Verify(const LoadedRecording& recording, const RandomAccessSource& lines,
                            LineTransport* server, const VerifyOptions& options,
                            const std::atomic<bool>* stop) {
  return Session(recording, lines, server, options, stop).Run();
}

std::vector<std::string> VerifyText(const VerifyReport& report) {
  std::vector<std::string> lines;
  for (const bool breaking : {true, false}) {
    std::vector<std::string> group;
    for (const Change& c : report.changes) {
      if (c.breaking == breaking) group.push_back(Describe(c));
    }
    if (group.empty()) continue;
    lines.push_back((breaking ? "breaking changes: " : "other changes: ") +
                    std::to_string(group.size()));
    lines.insert(lines.end(), group.begin(), group.end());
  }
  std::string last = std::to_string(report.requests_sent) + " requests sent, " +
                     std::to_string(report.compared) + " responses compared: ";
  last += report.changes.empty() ? "no change"
          : report.breaking()    ? "breaking"
                                 : "no breaking change";
  if (report.not_sent > 0) {
    last += "; " + std::to_string(report.not_sent) + " requests not sent (the session ended early)";
  }
  if (report.stopped) last += " so far; stopped by a signal, incomplete";
  lines.push_back(std::move(last));
  return lines;
}

std::string VerifyJson(const VerifyReport& report) {
  std::string out = "{";
  json::AppendRawMember("breaking", report.breaking() ? "true" : "false", &out);
  json::AppendRawMember("complete", !report.stopped && report.not_sent == 0 ? "true" : "false",
                        &out);
  out += ",\"changes\":[";
  for (std::size_t i = 0; i < report.changes.size(); ++i) {
    const Change& c = report.changes[i];
    out += i > 0 ? ",{" : "{";
    json::AppendMember("kind", ChangeKindName(c.kind), &out);
    json::AppendRawMember("breaking", c.breaking ? "true" : "false", &out);
    json::AppendMember("method", c.method, &out);
    json::AppendRawMember("seq", std::to_string(c.seq), &out);
    std::string tool = "null";
    if (!c.tool.empty()) {
      tool.clear();
      json::AppendQuoted(c.tool, &tool);
    }
    json::AppendRawMember("tool", tool, &out);
    out += ",\"fields\":[";
    for (std::size_t f = 0; f < c.fields.size(); ++f) {
      if (f > 0) out += ',';
      json::AppendQuoted(c.fields[f], &out);
    }
    out += ']';
    json::AppendMember("detail", c.detail, &out);
    out += '}';
  }
  out += ']';
  json::AppendRawMember("requests_sent", std::to_string(report.requests_sent), &out);
  json::AppendRawMember("notifications_sent", std::to_string(report.notifications_sent), &out);
  json::AppendRawMember("compared", std::to_string(report.compared), &out);
  json::AppendRawMember("not_sent", std::to_string(report.not_sent), &out);
  std::string server = "{";
  json::AppendRawMember("answered", std::to_string(report.server_requests_answered), &server);
  json::AppendRawMember("refused", std::to_string(report.server_requests_refused), &server);
  json::AppendRawMember("server_requests", server + "}", &out);
  return out + "}";
}

}  // namespace arcs::mcp_record_replay
