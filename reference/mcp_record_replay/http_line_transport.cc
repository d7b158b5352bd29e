#include "reference/mcp_record_replay/http_line_transport.h"

#include <httplib.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "reference/core/json.h"
#include "reference/core/stop_signals.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/replay_server.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = std::chrono::steady_clock;

// A request's answer when HTTP refused it: a JSON-RPC error with the request's id.
std::string HttpError(const json::Value& id, int status, std::string_view body) {
  std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
  json::Write(id, &out);
  out += ",\"error\":{\"code\":-32000,\"message\":";
  json::AppendQuoted("HTTP " + std::to_string(status) + ": " + Printable(Excerpt(body, 200)), &out);
  return out + "}}";
}

// Lines from a response body, whichever of MCP's two forms it has.
class BodyReader {
 public:
  explicit BodyReader(bool stream) : stream_(stream) {}
  // False when the body cannot be read (an event too long); *lines gets what is whole.
  bool Feed(std::string_view bytes, std::vector<std::string>* lines) {
    if (!stream_) {
      json_ += bytes;
      return json_.size() <= http::kMaxBodyBytes;
    }
    std::vector<http::SseEvent> events;
    const bool ok = sse_.Feed(bytes, &events).ok();
    for (http::SseEvent& e : events) {
      if (e.event.empty() || e.event == "message") lines->push_back(std::move(e.data));
    }
    return ok;
  }
  void End(std::vector<std::string>* lines) {
    if (!stream_ && !json_.empty()) lines->push_back(std::move(json_));
  }

 private:
  bool stream_;
  std::string json_;
  http::SseReader sse_;
};

}  // namespace

Result<std::unique_ptr<HttpLineTransport>> HttpLineTransport::Connect(
    std::string_view url, const std::atomic<bool>* stop) {
  Result<http::HttpUrl> parsed = http::ParseHttpUrl(url);
  if (!parsed.ok()) return parsed.status();
  return std::unique_ptr<HttpLineTransport>(new HttpLineTransport(std::move(*parsed), stop));
}

HttpLineTransport::~HttpLineTransport() {
  std::string session;
  {
    std::lock_guard lock(mu_);
    closing_ = true;
    session = session_id_;
    for (httplib::Client* client : active_) client->stop();
  }
  for (;;) {
    std::vector<std::thread> exchanges;
    {
      std::lock_guard lock(mu_);
      exchanges.swap(exchanges_);
    }
    if (exchanges.empty()) break;
    for (std::thread& t : exchanges) t.join();
  }
  if (!session.empty()) {  // MCP: a client that is done with a session DELETEs it
    httplib::Client client(http::Origin(url_));
    client.set_connection_timeout(std::chrono::seconds(2));
    client.set_read_timeout(std::chrono::seconds(2));
    (void)client.Delete(url_.path, {{http::kSessionHeader, session}});
  }
}

// Registers a client whose exchange the destructor stops; false when the transport is closing.
bool HttpLineTransport::Open(httplib::Client* client) {
  std::lock_guard lock(mu_);
  if (closing_) return false;
  active_.insert(client);
  return true;
}

void HttpLineTransport::Close(httplib::Client* client) {
  std::lock_guard lock(mu_);
  active_.erase(client);
}

// A request's POST goes on while its answer comes; a notification's or an answer's is awaited
// (202), so that what the client sends next cannot overtake it on another connection.
Status HttpLineTransport::Send(std::string_view line, Clock::time_point deadline) {
  json::Document message;
  const bool request = message.Parse(line) && message.root().is_object() &&
                       Classify(message.root()).kind == MessageKind::kRequest;
  auto answered = std::make_shared<std::atomic<bool>>(false);
  std::unique_lock lock(mu_);
  if (!failure_.empty()) return Status(StatusCode::kIoError, failure_);
  exchanges_.emplace_back([this, body = std::string(line), deadline, answered]() mutable {
    Post(std::move(body), deadline);
    std::lock_guard done(mu_);
    *answered = true;
    arrived_.notify_all();
  });
  while (!request && !*answered && Clock::now() < deadline && !Stopped(stop_)) {
    arrived_.wait_for(lock, kSlice);
  }
  return failure_.empty() ? Status::Ok() : Status(StatusCode::kIoError, failure_);
}

// One POST and its answer, until the deadline (a stream's events as they come); the exchange ends
// early when the transport closes.
void HttpLineTransport::Post(std::string body, Clock::time_point deadline) {
  json::Document message;
  const bool request = message.Parse(body) && message.root().is_object() &&
                       Classify(message.root()).kind == MessageKind::kRequest;
  httplib::Client client(http::Origin(url_));
  const auto left = std::max<Clock::duration>(deadline - Clock::now(), kSlice);
  client.set_read_timeout(std::chrono::ceil<std::chrono::seconds>(left));
  httplib::Request post;
  post.method = "POST";
  post.path = url_.path;
  post.body = std::move(body);
  post.set_header("Content-Type", http::kJson);
  post.set_header("Accept", std::string(http::kJson) + ", " + http::kEventStream);
  {
    std::lock_guard lock(mu_);
    if (!session_id_.empty()) post.set_header(http::kSessionHeader, session_id_);
    if (!protocol_version_.empty()) {
      post.set_header(http::kProtocolVersionHeader, protocol_version_);
    }
  }
  std::optional<BodyReader> reader;
  int status = 0;
  std::string refusal;  // the body of an HTTP error
  post.response_handler = [&](const httplib::Response& response) {
    status = response.status;
    if (response.has_header(http::kSessionHeader)) {
      std::lock_guard lock(mu_);
      if (session_id_.empty()) session_id_ = response.get_header_value(http::kSessionHeader);
    }
    const std::string type = response.get_header_value("Content-Type");
    reader.emplace(type.starts_with(http::kEventStream));
    return !closing_;
  };
  post.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
    if (status >= 300) {
      refusal.append(
          data, std::min<std::size_t>(size, 4096 - std::min<std::size_t>(refusal.size(), 4096)));
      return !closing_;
    }
    std::vector<std::string> lines;
    const bool ok = reader->Feed(std::string_view(data, size), &lines);
    for (std::string& line : lines) Arrived(std::move(line));
    return ok && !closing_ && !Stopped(stop_);
  };
  httplib::Response response;
  httplib::Error error = httplib::Error::Success;
  if (!Open(&client)) return;
  const bool sent = client.send(post, response, error);
  Close(&client);
  if (closing_) return;
  if (!sent && status == 0) {
    Failed("cannot reach " + http::Origin(url_) + url_.path + ": " + httplib::to_string(error));
    return;
  }
  if (reader && status < 300) {
    std::vector<std::string> lines;
    reader->End(&lines);
    for (std::string& line : lines) Arrived(std::move(line));
  }
  if (status >= 300 && request) Arrived(HttpError(*message.root().Find("id"), status, refusal));
}

// The GET stream, once the session has an id: what the server sends that relates to no request.
// Called with mu_ held.
void HttpLineTransport::OpenGetStream() {
  exchanges_.emplace_back([this] {
    httplib::Client client(http::Origin(url_));
    client.set_read_timeout(std::chrono::hours(24));
    httplib::Headers headers = {{"Accept", http::kEventStream}};
    {
      std::lock_guard lock(mu_);
      headers.emplace(http::kSessionHeader, session_id_);
      if (!protocol_version_.empty()) {
        headers.emplace(http::kProtocolVersionHeader, protocol_version_);
      }
    }
    std::optional<BodyReader> reader;
    bool ok = true;
    if (!Open(&client)) return;
    (void)client.Get(
        url_.path, headers,
        [&](const httplib::Response& response) {
          ok = response.status == 200 &&
               response.get_header_value("Content-Type").starts_with(http::kEventStream);
          if (ok) reader.emplace(true);
          return ok && !closing_;
        },
        [&](const char* data, std::size_t size) {
          std::vector<std::string> lines;
          const bool fed = reader->Feed(std::string_view(data, size), &lines);
          for (std::string& line : lines) Arrived(std::move(line));
          return fed && !closing_ && !Stopped(stop_);
        });
    Close(&client);
  });
}

void HttpLineTransport::Arrived(std::string line) {
  LearnFrom(line);
  std::lock_guard lock(mu_);
  lines_.push_back(std::move(line));
  arrived_.notify_all();
}

void HttpLineTransport::Failed(std::string why) {
  std::lock_guard lock(mu_);
  if (failure_.empty()) failure_ = std::move(why);
  arrived_.notify_all();
}

// The protocol version an initialize result names, for the requests that follow.
void HttpLineTransport::LearnFrom(std::string_view line) {
  json::Document doc;
  if (!doc.Parse(line) || !doc.root().is_object()) return;
  const json::Value* result = doc.root().FindLast("result");
  const json::Value* version = result ? result->FindLast("protocolVersion") : nullptr;
  if (!version || !version->is_string()) return;
  std::lock_guard lock(mu_);
  if (!protocol_version_.empty()) return;
  protocol_version_ = version->text();
  if (!session_id_.empty() && !closing_) OpenGetStream();
}

Received HttpLineTransport::Receive(Clock::time_point deadline) {
  std::unique_lock lock(mu_);
  for (;;) {
    if (!lines_.empty()) {
      Received received{ReceiveEnd::kLine, std::move(lines_.front()), ""};
      lines_.pop_front();
      return received;
    }
    if (!failure_.empty()) return {ReceiveEnd::kFailed, "", failure_};
    if (Stopped(stop_)) return {ReceiveEnd::kStopped, "", ""};
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return {ReceiveEnd::kTimedOut, "", ""};
    arrived_.wait_for(lock, std::min<Clock::duration>(kSlice, deadline - now));
  }
}

}  // namespace arcs::mcp_record_replay
