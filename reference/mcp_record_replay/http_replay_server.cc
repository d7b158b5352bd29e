#include "reference/mcp_record_replay/http_replay_server.h"

#include <httplib.h>
#include <poll.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>

#include "reference/core/json.h"
#include "reference/core/stop_signals.h"
#include "reference/mcp_record_replay/http_server.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/passthrough_session.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The messages of one event stream: pushed by whoever handles a POST, written by the HTTP thread
// that answers the stream's own request.
class Stream {
 public:
  void Push(Outgoing out) {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(out));
    ready_.notify_all();
  }
  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    ready_.notify_all();
  }
  // The next message, waiting up to `wait`; none yet, or (with *done) none ever again.
  std::optional<Outgoing> Next(milliseconds wait, bool* done) {
    std::unique_lock lock(mu_);
    ready_.wait_for(lock, wait, [&] { return !queue_.empty() || closed_; });
    *done = queue_.empty() && closed_;
    if (queue_.empty()) return std::nullopt;
    Outgoing out = std::move(queue_.front());
    queue_.pop_front();
    return out;
  }

 private:
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Outgoing> queue_;
  bool closed_ = false;
};

// The answer to a request passthrough could not hand to the upstream.
std::string ForwardFailed(const json::Value& id, std::string_view why) {
  std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
  json::Write(id, &out);
  out += ",\"error\":{\"code\":-32000,\"message\":";
  json::AppendQuoted("passthrough: " + std::string(why), &out);
  return out + "}}";
}

std::string NewSessionId() {
  std::random_device device;
  std::string id;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", device());
    id += part;
  }
  return id;
}

class HttpReplay {
 public:
  HttpReplay(Replayer* replayer, Upstream* upstream,
             const std::function<void(std::string_view)>& log, const std::atomic<bool>* stop,
             const ServeOptions& options)
      : replayer_(replayer), log_(log), stop_(stop), options_(options) {
    if (upstream) {
      session_.emplace(upstream, replayer->RecordedInitialize(), log, stop,
                       options.forward_timeout);
    }
  }

  void Install(httplib::Server* server) {
    server->Post(".*", [this](const httplib::Request& q, httplib::Response& r) { Post(q, r); });
    server->Get(".*", [this](const httplib::Request& q, httplib::Response& r) { Get(q, r); });
    server->Delete(".*", [](const httplib::Request&, httplib::Response& r) { r.status = 200; });
  }

  // Sends Start()'s messages and then, until the end, releases held responses whose client
  // answer did not come in time.
  Served Run() {
    {
      std::lock_guard lock(mu_);
      Route(replayer_->Start(), nullptr);
    }
    while (!Ending()) {
      WaitForUpstream();
      std::lock_guard lock(mu_);
      if (session_) PassOn();
      if (replayer_->Holding() && Clock::now() - held_since_ >= options_.answer_timeout) {
        Reply released = replayer_->ReleaseHeld();
        released.log = "no answer from the client within " +
                       std::to_string(options_.answer_timeout.count()) + " ms: " + released.log;
        Route(std::move(released), nullptr);
      }
    }
    closing_ = true;
    if (unmatched_) return {ServeEnd::kUnmatched, ""};
    return {ServeEnd::kStopped, ""};
  }

 private:
  bool Ending() const { return Stopped(stop_) || drained_unmatched_.load(); }

  // Up to kSlice, until the upstream has written something (passthrough) or the time is up.
  void WaitForUpstream() {
    int fd = -1;
    {
      std::lock_guard lock(mu_);
      if (session_) fd = session_->out_fd();
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(kSlice.count())) < 0) std::this_thread::sleep_for(kSlice);
  }

  // What the upstream said, and the errors of forwards it left unanswered, to their streams.
  // Called with mu_ held.
  void PassOn() {
    PassthroughSession::Lines to_client;
    if (Status s = session_->Pump(&to_client); !s.ok()) log_("passthrough: " + s.message());
    session_->Expire(&to_client);
    Route(AsReply(std::move(to_client)), nullptr);
  }

  static Reply AsReply(PassthroughSession::Lines lines) {
    Reply reply;
    for (std::string& line : lines) reply.messages.push_back({std::move(line), 0});
    return reply;
  }

  void Post(const httplib::Request& request, httplib::Response& response) {
    json::Document doc;
    if (!doc.Parse(request.body) || !doc.root().is_object()) {
      response.status = 400;
      response.set_content(
          R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"one JSON-RPC message (a JSON object) per POST"}})",
          http::kJson);
      return;
    }
    const Classified message = Classify(doc.root());
    std::shared_ptr<Stream> stream;
    std::lock_guard lock(mu_);
    if (unmatched_) {  // --on-unmatched error ended the replay: nothing more is answered
      response.status = 503;
      return;
    }
    if (message.kind == MessageKind::kRequest) {
      stream = std::make_shared<Stream>();
      streams_[json::ToString(*message.id)] = stream;
      if (message.method == "initialize") {
        if (session_id_.empty()) session_id_ = NewSessionId();
        response.set_header(http::kSessionHeader, session_id_);
      }
    }
    if (session_) {
      if (message.kind == MessageKind::kRequest && message.method == "initialize") {
        session_->SawClientInitialize(request.body);
      }
      Result<bool> taken = session_->FromClient(message, doc.root(), request.body);
      if (!taken.ok()) log_("passthrough: " + taken.status().message());
      if (taken.ok() && *taken && message.kind != MessageKind::kNotification) {
        response.status = 202;  // an answer to the upstream's request, gone to it
        return;
      }
    }
    const bool was_holding = replayer_->Holding();
    Reply reply = replayer_->Handle(request.body);
    if (!was_holding && replayer_->Holding()) held_since_ = Clock::now();
    if (reply.forward) {
      PassthroughSession::Lines to_client;
      if (Status s = session_->Forward(message, request.body, &to_client); !s.ok()) {
        log_("passthrough: " + s.message());
        to_client.push_back(ForwardFailed(*message.id, s.message()));  // never left unanswered
      }
      for (std::string& line : to_client) reply.messages.push_back({std::move(line), 0});
    }
    Route(std::move(reply), stream);
    if (!stream) {
      response.status = 202;
      return;
    }
    Respond(stream, &response, /*last=*/unmatched_);
  }

  // The GET stream: what the server sends unrelated to a request, one taker at a time.
  void Get(const httplib::Request& request, httplib::Response& response) {
    if (request.get_header_value("Accept").find(http::kEventStream) == std::string::npos) {
      response.status = 406;
      return;
    }
    if (standalone_taken_.exchange(true)) {
      response.status = 409;  // one GET stream per session (MCP: the server may refuse another)
      return;
    }
    Respond(standalone_, &response, false);
  }

  // Where a reply's messages go: a response to the stream of the request it answers (which it then
  // closes), with the messages before it in the reply, which belong to its exchange (recorded
  // between its request and it, or said by the upstream before it); the rest to the current
  // request's stream, or the GET stream. Progress about a live request goes to that request's
  // stream whatever else the reply holds: it was passed by another request or by an answer, and
  // on any other stream it could reach the client after the response that ends its request, when
  // it is about no active request (MCP's Streamable HTTP: a request's stream carries the messages
  // related to it). Called with mu_ held.
  void Route(Reply reply, std::shared_ptr<Stream> current) {
    if (!reply.log.empty()) log_(reply.log);
    std::shared_ptr<Stream> target = current ? current : standalone_;
    std::vector<Outgoing> before;  // not placed yet
    for (Outgoing& out : reply.messages) {
      json::Document doc;
      std::optional<Classified> c;
      if (!out.unrecorded && doc.Parse(out.line) && doc.root().is_object()) {
        c = Classify(doc.root());
      }
      const bool response =
          c && (c->kind == MessageKind::kResponse || c->kind == MessageKind::kError) && c->id;
      auto it = response ? streams_.find(json::ToString(*c->id)) : streams_.end();
      if (it == streams_.end()) {
        before.push_back(std::move(out));
        continue;
      }
      for (Outgoing& earlier : std::exchange(before, {})) Place(std::move(earlier), *it->second);
      it->second->Push(std::move(out));
      it->second->Close();
      streams_.erase(it);
      target = standalone_;
    }
    for (Outgoing& rest : before) Place(std::move(rest), *target);
    if (reply.end) unmatched_ = true;
  }

  // A message to `stream`, unless it is progress about a request whose stream is open. Called with
  // mu_ held.
  void Place(Outgoing out, Stream& stream) {
    if (!out.about.empty()) {
      if (auto open = streams_.find(out.about); open != streams_.end()) {
        open->second->Push(std::move(out));
        return;
      }
    }
    stream.Push(std::move(out));
  }

  // Answers with the stream's events as they come, each after its timing delay; with `last`, the
  // replay ends once this stream is written.
  void Respond(std::shared_ptr<Stream> stream, httplib::Response* response, bool last) {
    response->set_header("Cache-Control", "no-cache");
    response->set_chunked_content_provider(
        http::kEventStream, [this, stream, last](std::size_t, httplib::DataSink& sink) {
          for (;;) {
            if (closing_ || Stopped(stop_)) {
              sink.done();
              return true;
            }
            bool done = false;
            std::optional<Outgoing> out = stream->Next(kSlice, &done);
            if (out) {
              Pause(out->delay_ms);
              const std::string frame = http::SseFrame(out->line, "message");
              return sink.write(frame.data(), frame.size());
            }
            if (done) {
              if (last) drained_unmatched_ = true;
              sink.done();
              return true;
            }
          }
        });
  }

  // The timing's delay, cut to kMaxDelay, ended early by the stop flag.
  void Pause(std::uint64_t delay_ms) {
    if (delay_ms > static_cast<std::uint64_t>(kMaxDelay.count())) {
      log_("the recorded delay of " + std::to_string(delay_ms) + " ms is cut to " +
           std::to_string(kMaxDelay.count()) + " ms, the longest a replay waits");
    }
    const Clock::time_point end =
        Clock::now() + std::min(milliseconds(delay_ms), milliseconds(kMaxDelay));
    while (Clock::now() < end && !closing_ && !Stopped(stop_)) {
      std::this_thread::sleep_for(std::min<Clock::duration>(kSlice, end - Clock::now()));
    }
  }

  Replayer* replayer_;
  const std::function<void(std::string_view)>& log_;
  const std::atomic<bool>* stop_;
  ServeOptions options_;
  std::mutex mu_;  // the replayer, session_, streams_, session_id_, held_since_, unmatched_
  std::optional<PassthroughSession> session_;
  std::map<std::string, std::shared_ptr<Stream>> streams_;  // by the live request's id, as JSON
  std::shared_ptr<Stream> standalone_ = std::make_shared<Stream>();
  std::atomic<bool> standalone_taken_{false};
  std::string session_id_;
  Clock::time_point held_since_;
  bool unmatched_ = false;
  std::atomic<bool> drained_unmatched_{false};  // the unmatched error is written: the end
  std::atomic<bool> closing_{false};
};

}  // namespace

Served ServeReplayHttp(Replayer* replayer, const http::ListenAddress& address, Upstream* upstream,
                       const std::function<void(std::string_view)>& log,
                       const std::atomic<bool>* stop, const ServeOptions& options,
                       const std::function<void(std::uint16_t)>& listening) {
  http::HttpServer server(64);  // each open event stream holds a thread
  HttpReplay replay(replayer, upstream, log, stop, options);
  replay.Install(&server.server());
  const Result<std::uint16_t> port = server.Bind(address);
  if (!port.ok()) return {ServeEnd::kFailed, port.status().message()};
  listening(*port);
  server.Start();
  const Served served = replay.Run();
  server.Stop();
  return served;
}

}  // namespace arcs::mcp_record_replay
