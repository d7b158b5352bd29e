#include "reference/mcp_record_replay/http_recorder.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "reference/core/keyed_hash.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/http_server.h"
#include "reference/mcp_record_replay/http_transport.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = RecordingSession::Clock;
using std::chrono::milliseconds;

// No wait is longer than this, so `stop` and a cancelled exchange are seen promptly.
constexpr milliseconds kWaitSlice{100};
// Bytes of an event stream read from the upstream and not yet taken by the client: past this, the
// upstream is not read (backpressure), so a slow client never makes the proxy hold a whole stream.
constexpr std::size_t kMaxQueued = 1 << 20;
// Each exchange holds a server thread for as long as it lasts, an event stream included: enough of
// them for the long-lived streams a client keeps open and the requests it makes meanwhile.
constexpr std::size_t kServerThreads = 64;
constexpr std::chrono::seconds kConnectTimeout{10};

// The headers the upstream needs of the client's request, and the client of the upstream's
// response (Content-Type goes with the body). Nothing else: a hop-by-hop header (Connection,
// Transfer-Encoding) describes one connection, and Host names the proxy.
constexpr std::string_view kRequestHeaders[] = {
    "Accept",        "Content-Type", http::kSessionHeader, http::kProtocolVersionHeader,
    "Authorization", "Last-Event-ID"};
constexpr std::string_view kResponseHeaders[] = {http::kSessionHeader, "WWW-Authenticate", "Allow"};

// A media type without its parameters and case: "Text/Event-Stream; charset=utf-8" is
// "text/event-stream".
std::string MediaType(std::string_view content_type) {
  std::string type(content_type.substr(0, content_type.find(';')));
  type.erase(std::remove(type.begin(), type.end(), ' '), type.end());
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return type;
}

// One client request forwarded upstream, and what comes back: its reader thread sends the request
// and reads the answer, the server's thread relays it. The status and headers are relayed once
// they came; an event stream as its bytes arrive; any other body once it is whole.
class Exchange {
 public:
  // Upstream's answer so far, waited for with a slice: false when the wait timed out.
  bool WaitForHeaders() {
    return WaitSlice([this] { return has_headers_ || done_; });
  }
  bool WaitForEnd() {
    return WaitSlice([this] { return done_; });
  }

  // The reader's side.
  void SetHeaders(const httplib::Response& response, bool stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = response.status;
    content_type_ = response.get_header_value("Content-Type");
    for (std::string_view name : kResponseHeaders) {
      const std::string key(name);
      if (response.has_header(key.c_str())) {
        headers_.emplace(key, response.get_header_value(key.c_str()));
      }
    }
    stream_ = stream;
    has_headers_ = true;
    changed_.notify_all();
  }
  // Queues bytes of an event stream for the client; waits while the client is kMaxQueued behind.
  // False once the exchange is cancelled: the reader stops.
  bool Queue(std::string_view bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return queued_ < kMaxQueued || cancelled_; });
    if (cancelled_) return false;
    chunks_.emplace_back(bytes);
    queued_ += bytes.size();
    changed_.notify_all();
    return true;
  }
  // The reader's alone; false once the body is over kMaxBodyBytes (the exchange then fails).
  bool AppendBody(std::string_view bytes) {
    body_.append(
        bytes.substr(0, http::kMaxBodyBytes + 1 - std::min(body_.size(), http::kMaxBodyBytes + 1)));
    return body_.size() <= http::kMaxBodyBytes;
  }
  void End(bool failed, std::string why) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    failed_ = failed;
    why_ = std::move(why);
    changed_.notify_all();
  }

  // The server's side: the next bytes of an event stream, waiting a slice at most for them.
  // False when none came; `end` once the stream is over (`failed` when cut short).
  bool Next(std::string* bytes, bool* end, bool* failed) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, kWaitSlice, [this] { return !chunks_.empty() || done_; });
    *end = chunks_.empty() && done_;
    *failed = failed_;
    if (chunks_.empty()) return *end;
    *bytes = std::move(chunks_.front());
    chunks_.pop_front();
    queued_ -= bytes->size();
    changed_.notify_all();
    return true;
  }

  // Ends the exchange early (the client went away, or the proxy stops): the upstream's connection
  // is shut down, which wakes the reader from its read.
  void Cancel() {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
    if (client_) client_->stop();
    changed_.notify_all();
  }
  bool cancelled() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cancelled_;
  }
  // The client the reader talks to the upstream with, while it does (null after): Cancel stops
  // it. False, and not set, when the exchange is already cancelled.
  bool SetClient(httplib::Client* client) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (client && cancelled_) return false;
    client_ = client;
    return true;
  }

  // Read by the server's thread once has_headers_ or done_ (the reader writes them no more).
  int status() const { return status_; }
  const std::string& content_type() const { return content_type_; }
  const httplib::Headers& headers() const { return headers_; }
  bool stream() const { return stream_; }
  bool has_headers() const { return has_headers_; }
  bool failed() const { return failed_; }
  const std::string& why() const { return why_; }
  std::string& body() { return body_; }  // once done_

  std::thread reader;

 private:
  template <typename Done>
  bool WaitSlice(Done done) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (changed_.wait_for(lock, kWaitSlice, done)) return true;
    // A Cancel between SetClient and the client's connecting found no connection to shut down.
    if (cancelled_ && client_) client_->stop();
    return false;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  int status_ = 0;
  std::string content_type_;
  httplib::Headers headers_;
  bool stream_ = false;
  bool has_headers_ = false;
  std::deque<std::string> chunks_;
  std::size_t queued_ = 0;
  std::string body_;
  bool done_ = false;
  bool failed_ = false;
  std::string why_;
  bool cancelled_ = false;
  httplib::Client* client_ = nullptr;
};

// The events the upstream has sent, by MCP session and event id. MCP 2025-11-25 (Streamable HTTP,
// "Resumability and Redelivery") makes an event id unique across all the streams of a session and
// lets a client that lost a stream ask for what followed the last id it had (Last-Event-ID): an
// event so sent again carries an id its session has seen. The recording holds a message once, when
// the proxy first had it whole, so an event with an id and data seen before is not recorded again.
// One that reuses an id with other data is recorded: nothing that passed is lost. The most recent
// kMaxKept ids (at most kMaxKeptBytes of them) are kept: an event sent again from further back is
// recorded again.
class SentEvents {
 public:
  // Whether `event`, which carries its own id, came before in `session`; remembers it.
  bool SentBefore(std::string_view session, const http::SseEvent& event) {
    std::string key(session);
    key += '\n';  // in neither a header's value nor an event's id
    key += event.id;
    const std::uint64_t data = KeyedHash(event.data);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto [it, inserted] = data_.try_emplace(std::move(key), data);
    if (!inserted) return it->second == data;
    order_.push_back(&it->first);
    kept_bytes_ += it->first.size();
    while (order_.size() > kMaxKept || kept_bytes_ > kMaxKeptBytes) Forget();
    return false;
  }

 private:
  static constexpr std::size_t kMaxKept = std::size_t{1} << 16;
  static constexpr std::size_t kMaxKeptBytes = std::size_t{8} << 20;

  void Forget() {
    const auto oldest = data_.find(*order_.front());
    kept_bytes_ -= oldest->first.size();
    order_.pop_front();
    data_.erase(oldest);
  }

  std::mutex mutex_;
  KeyedStringMap<std::uint64_t> data_;    // the hash of each event's data, by session and id
  std::deque<const std::string*> order_;  // data_'s keys, the oldest first
  std::size_t kept_bytes_ = 0;
};

// The event stream of one response, recorded event by event as its bytes arrive. Past an event
// over max_line_bytes the stream cannot be cut into events any more: the rest is kept (its first
// kUnrecordedKeptBytes) and recorded as one arcs/unrecorded when it ends.
// An `endpoint` event (the legacy HTTP+SSE transport's: where the client is to POST) is no
// message: it goes to `on_endpoint`, not to the recording. Nor is an event of `session` that
// `sent` has seen (SentEvents): it is counted, and the count goes on the log when the stream ends.
// Without a session (no Mcp-Session-Id) ids are unique per client, and the proxy cannot tell its
// clients apart: every event is recorded.
class StreamRecorder {
 public:
  StreamRecorder(RecordingSession* recording, std::uint64_t max_line_bytes, SentEvents* sent,
                 std::string session, std::function<void(std::string_view)> on_endpoint)
      : recording_(recording),
        reader_(static_cast<std::size_t>(max_line_bytes)),
        sent_(sent),
        session_(std::move(session)),
        on_endpoint_(std::move(on_endpoint)) {}

  void Feed(std::string_view bytes) {
    const Clock::time_point now = Clock::now();
    if (rest_bytes_ == 0) {
      events_.clear();
      const Status s = reader_.Feed(bytes, &events_);
      for (const http::SseEvent& event : events_) Take(event, now);
      if (s.ok()) return;
    }
    rest_bytes_ += bytes.size();
    rest_.append(
        bytes.substr(0, kUnrecordedKeptBytes - std::min(rest_.size(), kUnrecordedKeptBytes)));
  }

  void End() {
    if (sent_again_ > 0) {
      recording_->Note("the upstream sent " + std::to_string(sent_again_) +
                       " event(s) again (their ids and data seen before in the session, as on a "
                       "stream resumed with Last-Event-ID): relayed, not recorded again");
    }
    if (rest_bytes_ == 0) return;
    recording_->Unrecorded(false, rest_, rest_bytes_,
                           {"too-long",
                            "an event of the stream over max_line_bytes, and the rest "
                            "of the stream from the bytes that held it"},
                           Clock::now());
  }

 private:
  void Take(const http::SseEvent& event, Clock::time_point now) {
    if (event.event == "endpoint") {
      on_endpoint_(event.data);
    } else if (event.own_id && !event.id.empty() && !session_.empty() &&
               sent_->SentBefore(session_, event)) {
      ++sent_again_;
    } else {
      recording_->Message(false, event.data, now);
    }
  }

  RecordingSession* recording_;
  http::SseReader reader_;
  SentEvents* sent_;
  const std::string session_;
  std::function<void(std::string_view)> on_endpoint_;
  std::vector<http::SseEvent> events_;
  std::uint64_t sent_again_ = 0;
  std::string rest_;
  std::uint64_t rest_bytes_ = 0;
};

// Clients of the upstream, each with its connection kept open between exchanges: a connection per
// message costs a remote upstream a TCP handshake, and TLS round trips, beyond F-001's "< 1ms per
// message". One idle for kIdle is dropped: servers close idle connections after a few seconds
// (Node 5 s, gunicorn 2 s), and one closed under a request would fail it.
class UpstreamClients {
 public:
  UpstreamClients(std::string origin, std::chrono::seconds read_timeout)
      : origin_(std::move(origin)), read_timeout_(read_timeout) {}

  std::unique_ptr<httplib::Client> Take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const Clock::time_point now = Clock::now();
      while (!idle_.empty()) {
        Idle last = std::move(idle_.back());
        idle_.pop_back();
        if (now - last.since < kIdle) return std::move(last.client);
      }
    }
    auto client = std::make_unique<httplib::Client>(origin_);
    client->set_connection_timeout(kConnectTimeout);
    client->set_read_timeout(read_timeout_);
    client->set_tcp_nodelay(true);
    client->set_keep_alive(true);
    return client;
  }

  // A client whose exchange ended well, its connection ready for the next.
  void Give(std::unique_ptr<httplib::Client> client) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < kMaxIdle) idle_.push_back({std::move(client), Clock::now()});
  }

 private:
  static constexpr std::chrono::seconds kIdle{1};
  static constexpr std::size_t kMaxIdle = 16;
  struct Idle {
    std::unique_ptr<httplib::Client> client;
    Clock::time_point since;
  };
  const std::string origin_;
  const std::chrono::seconds read_timeout_;
  std::mutex mutex_;
  std::vector<Idle> idle_;  // the most recently used last
};

class Proxy {
 public:
  Proxy(const HttpRecorderOptions& options, const http::HttpUrl& upstream,
        RecordingSession* recording)
      : options_(options),
        upstream_(upstream),
        recording_(recording),
        origin_(http::Origin(upstream)),
        clients_(origin_, options.upstream_read_timeout) {}

  void Route(httplib::Server* server) {
    const auto handler = [this](const httplib::Request& request, httplib::Response& response) {
      Forward(request, &response);
    };
    server->Post(".*", handler);
    server->Get(".*", handler);
    server->Delete(".*", handler);
  }

  // Cuts every exchange still open: `stop`.
  void CancelAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (const std::shared_ptr<Exchange>& exchange : open_) exchange->Cancel();
  }

 private:
  void Forward(const httplib::Request& request, httplib::Response* response) {
    const Clock::time_point now = Clock::now();
    auto exchange = std::make_shared<Exchange>();
    if (!Open(exchange)) {
      response->status = 503;  // stopping: not forwarded, so not recorded
      return;
    }
    if (request.method == "POST") recording_->Message(true, request.body, now);
    if (request.has_header("Last-Event-ID")) {
      recording_->Note(request.method + " " + request.path + " resumes a stream after event " +
                       Quoted(request.get_header_value("Last-Event-ID"), 200) + " (Last-Event-ID)");
    }
    httplib::Request upstream_request;
    upstream_request.method = request.method;
    upstream_request.path = Endpoint(request.target) ? request.target : upstream_.path;
    upstream_request.body = request.body;
    for (std::string_view name : kRequestHeaders) {
      const std::string key(name);
      const auto [from, to] = request.headers.equal_range(key);
      for (auto it = from; it != to; ++it) upstream_request.headers.emplace(key, it->second);
    }
    // Close joins the reader before the exchange can go.
    exchange->reader = std::thread(
        [this, e = exchange.get(), r = std::move(upstream_request)]() mutable { Read(e, &r); });
    // The headers, or the end of an exchange that failed before them.
    while (!exchange->WaitForHeaders()) {
    }
    if (!exchange->has_headers()) {
      const bool stopped = exchange->cancelled();  // by `stop`: no failure to warn about
      Close(exchange);
      if (!stopped) {
        recording_->Warn(request.method + " " + request.path + ": the upstream " + origin_ +
                         upstream_.path + " answered nothing: " + exchange->why());
      }
      response->status = 502;
      response->set_content(
          "arcs mcp record: the upstream answered nothing: " + exchange->why() + "\n",
          "text/plain");
      return;
    }
    response->status = exchange->status();
    for (const auto& [name, value] : exchange->headers()) response->set_header(name, value);
    if (exchange->stream()) {
      Relay(exchange, response);
      return;
    }
    while (!exchange->WaitForEnd()) {
    }
    Close(exchange);
    if (exchange->failed()) {
      // The status has not gone out yet: the client learns the exchange failed.
      response->status = 502;
      response->set_content(
          "arcs mcp record: the upstream's answer was cut short: " + exchange->why() + "\n",
          "text/plain");
      return;
    }
    if (!exchange->content_type().empty()) {
      response->set_content(std::move(exchange->body()), exchange->content_type());
    }
  }

  // The event stream, relayed to the client as it comes: chunked, each piece written as soon as
  // the reader queued it.
  // It goes out as "text/event-stream" whatever parameters the upstream gave it (an event stream
  // is UTF-8 whatever it says): the HTTP library compresses any other spelling, which would hold
  // events back.
  void Relay(const std::shared_ptr<Exchange>& exchange, httplib::Response* response) {
    response->set_chunked_content_provider(
        http::kEventStream,
        [exchange](std::size_t, httplib::DataSink& sink) {
          std::string bytes;
          bool end = false, failed = false;
          if (!exchange->Next(&bytes, &end, &failed)) return true;  // asked again: `stop` is seen
          if (!bytes.empty() && !sink.write(bytes.data(), bytes.size())) return false;
          if (end) {
            if (failed) return false;  // cut short upstream: cut short here too
            sink.done();
          }
          return true;
        },
        [this, exchange](bool) { Close(exchange); });
  }

  // The reader's thread: sends the request upstream, records and hands on what comes back.
  void Read(Exchange* exchange, httplib::Request* request) {
    std::unique_ptr<httplib::Client> client = clients_.Take();
    if (!exchange->SetClient(client.get())) {
      exchange->End(true, "cancelled");
      return;
    }
    std::optional<StreamRecorder> events;
    bool json = false, too_big = false;
    request->response_handler = [&](const httplib::Response& response) {
      const std::string type = MediaType(response.get_header_value("Content-Type"));
      if (type == http::kEventStream) {
        // A session's first stream (initialize's answer) carries its id in the answer only.
        std::string session = response.get_header_value(http::kSessionHeader);
        if (session.empty()) session = request->get_header_value(http::kSessionHeader);
        events.emplace(recording_, options_.limits.max_line_bytes, &sent_events_,
                       std::move(session),
                       [this](std::string_view endpoint) { Announced(endpoint); });
      }
      json = type == http::kJson;
      exchange->SetHeaders(response, events.has_value());
      return !exchange->cancelled();
    };
    request->content_receiver = [&](const char* data, std::size_t size, std::uint64_t,
                                    std::uint64_t) {
      const std::string_view bytes(data, size);
      if (!events) {
        too_big = !exchange->AppendBody(bytes);
        return !too_big && !exchange->cancelled();
      }
      events->Feed(bytes);
      return exchange->Queue(bytes);
    };
    httplib::Response response;
    httplib::Error error = httplib::Error::Success;
    const bool ok = client->send(*request, response, error);
    exchange->SetClient(nullptr);
    if (ok && !exchange->cancelled()) clients_.Give(std::move(client));
    if (events) events->End();
    if (ok && json) recording_->Message(false, exchange->body(), Clock::now());
    exchange->End(!ok, ok ? ""
                       : too_big
                           ? "its body is over " + std::to_string(http::kMaxBodyBytes) + " bytes"
                           : httplib::to_string(error));
  }

  // The legacy HTTP+SSE transport (MCP 2024-11-05): the upstream's GET stream names, in an
  // `endpoint` event, the path the client is to POST its messages to; the client resolves it
  // against the proxy's origin, and the proxy forwards a request for that path to the same path
  // upstream, every other to the URL's. (A full URL naming another origin is not rewritten.)
  void Announced(std::string_view endpoint) {
    std::lock_guard<std::mutex> lock(mutex_);
    endpoints_.emplace(endpoint);
    recording_->Note("the upstream's event stream names its endpoint " + Quoted(endpoint, 200) +
                     " (the legacy HTTP+SSE transport): requests for it are forwarded there");
  }
  bool Endpoint(const std::string& target) {
    std::lock_guard<std::mutex> lock(mutex_);
    return endpoints_.contains(target);
  }

  bool Open(const std::shared_ptr<Exchange>& exchange) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return false;
    open_.insert(exchange);
    return true;
  }

  // Ends an exchange: its reader is woken if it still reads, and joined.
  void Close(const std::shared_ptr<Exchange>& exchange) {
    exchange->Cancel();
    if (exchange->reader.joinable()) exchange->reader.join();
    std::lock_guard<std::mutex> lock(mutex_);
    open_.erase(exchange);
  }

  const HttpRecorderOptions& options_;
  const http::HttpUrl upstream_;
  RecordingSession* recording_;
  std::string origin_;  // scheme, host and port, as httplib::Client takes them
  UpstreamClients clients_;
  std::mutex mutex_;
  std::set<std::shared_ptr<Exchange>> open_;
  std::set<std::string, std::less<>> endpoints_;  // the legacy transport's, announced upstream
  SentEvents sent_events_;
  bool stopping_ = false;
};

}  // namespace

Result<int> RunHttpRecorder(const HttpRecorderOptions& options, const std::atomic<bool>* stop) {
  if (options.upstream_url.empty() || options.listen.empty()) {
    return Status(StatusCode::kInvalidArgument, "give the upstream URL and the address to serve");
  }
  const Result<http::HttpUrl> upstream = http::ParseHttpUrl(options.upstream_url);
  if (!upstream.ok()) return upstream.status();
  const Result<http::ListenAddress> address = http::ParseListenAddress(options.listen);
  if (!address.ok()) return address.status();
  http::HttpServer server(kServerThreads);
  const Result<std::uint16_t> port = server.Bind(*address);
  if (!port.ok()) return port.status();
  // Requests wait in the listen queue until the recording has its header.
  Result<std::unique_ptr<RecordingSession>> recording =
      RecordingSession::Start(options, options.upstream_url, "body or event");
  if (!recording.ok()) return recording.status();
  Proxy proxy(options, *upstream, recording->get());
  proxy.Route(&server.server());
  const std::string url =
      "http://" + http::UrlHost(address->host) + ":" + std::to_string(*port) + upstream->path;
  (*recording)->Note("listening on " + url);
  if (options.on_listening) options.on_listening(url);

  server.Start();
  while (!(stop && stop->load(std::memory_order_relaxed)) && !server.Ended()) {
    const Clock::time_point now = Clock::now();
    (*recording)->FlushIfDue(now);
    std::this_thread::sleep_until(std::min(now + kWaitSlice, (*recording)->next_due()));
  }
  const bool failed = server.Ended();  // the server ended without being asked to
  proxy.CancelAll();
  server.Stop();
  if (Status s = (*recording)->Finish(); !s.ok()) return s;
  if (failed) return Status(StatusCode::kIoError, "the server on " + url + " stopped serving");
  return 0;
}

}  // namespace arcs::mcp_record_replay
