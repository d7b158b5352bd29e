#include "reference/mcp_record_replay/http_transport.h"

#include <charconv>

#include "reference/core/strings.h"

namespace arcs::mcp_record_replay::http {
namespace {

std::optional<std::uint16_t> Port(std::string_view text) {
  unsigned value = 0;
  const char* end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

// "HOST:PORT", "[IPv6]:PORT" or "HOST" into its host (brackets dropped) and its port text.
void SplitHostPort(std::string_view text, std::string_view* host, std::string_view* port) {
  *port = "";
  if (text.starts_with('[')) {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) {
      *host = text;
      return;
    }
    *host = text.substr(1, close - 1);
    if (close + 1 < text.size() && text[close + 1] == ':') *port = text.substr(close + 2);
    if (close + 1 < text.size() && text[close + 1] != ':') *host = text;  // junk after ']'
    return;
  }
  const std::size_t colon = text.rfind(':');
  *host = text.substr(0, colon);
  if (colon != std::string_view::npos) *port = text.substr(colon + 1);
}

}  // namespace

std::string SseFrame(std::string_view data, std::string_view event, std::string_view id) {
  std::string out;
  if (!event.empty()) out.append("event: ").append(event).append("\n");
  if (!id.empty()) out.append("id: ").append(id).append("\n");
  for (;;) {
    const std::size_t end = data.find('\n');
    out.append("data: ").append(data.substr(0, end)).append("\n");
    if (end == std::string_view::npos) break;
    data.remove_prefix(end + 1);
  }
  return out + "\n";
}

Status SseReader::Feed(std::string_view bytes, std::vector<SseEvent>* events) {
  if (failed_) return Status(StatusCode::kLimitExceeded, "an earlier event was too long");
  if (started_) return Take(bytes, events);
  head_.append(bytes);
  // Fewer bytes than a byte order mark, all of them its first: they may be one.
  if (head_.size() < kUtf8Bom.size() && kUtf8Bom.starts_with(head_)) return Status::Ok();
  started_ = true;
  const std::string head = std::move(head_);
  std::string_view rest = head;
  if (rest.starts_with(kUtf8Bom)) rest.remove_prefix(kUtf8Bom.size());
  return Take(rest, events);
}

Status SseReader::Take(std::string_view bytes, std::vector<SseEvent>* events) {
  for (const char c : bytes) {
    if (c == '\n' && after_cr_) {
      after_cr_ = false;
      continue;  // the "\n" of a "\r\n"
    }
    after_cr_ = c == '\r';
    if (c == '\r' || c == '\n') {
      Line(line_, events);
      line_.clear();
      continue;
    }
    line_ += c;
    if (++event_bytes_ > max_event_bytes_) {
      failed_ = true;
      return Status(StatusCode::kLimitExceeded,
                    "an event longer than " + std::to_string(max_event_bytes_) + " bytes");
    }
  }
  return Status::Ok();
}

void SseReader::Line(std::string_view line, std::vector<SseEvent>* events) {
  if (line.empty()) {  // the end of an event
    if (has_data_) {
      pending_.id = last_id_;
      events->push_back(std::move(pending_));
    }
    pending_ = {};
    has_data_ = false;
    event_bytes_ = 0;
    return;
  }
  if (line.front() == ':') return;  // a comment
  const std::size_t colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (value.starts_with(' ')) value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) pending_.data += '\n';
    pending_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    pending_.event = value;
  } else if (field == "id" && value.find('\0') == std::string_view::npos) {
    last_id_ = value;
    pending_.own_id = true;
  }
}

Result<ListenAddress> ParseListenAddress(std::string_view text) {
  const Status bad(
      StatusCode::kInvalidArgument,
      "address " + Quoted(text, 60) + ": expected PORT, :PORT, HOST:PORT or [IPv6]:PORT");
  ListenAddress address;
  std::string_view host, port = text;
  if (text.find(':') != std::string_view::npos || text.starts_with('[')) {
    SplitHostPort(text, &host, &port);
  }
  const std::optional<std::uint16_t> number = Port(port);
  if (!number || host.find_first_of("[]/ ") != std::string_view::npos) return bad;
  address.host = host.empty() ? "127.0.0.1" : std::string(host);
  address.port = *number;
  return address;
}

Result<HttpUrl> ParseHttpUrl(std::string_view text) {
  const Status bad(
      StatusCode::kInvalidArgument,
      "URL " + Quoted(text, 80) + ": expected http://HOST[:PORT][/PATH] or https://...");
  HttpUrl url;
  std::string_view rest;
  if (text.starts_with("http://")) {
    rest = text.substr(7);
  } else if (text.starts_with("https://")) {
    url.tls = true;
    rest = text.substr(8);
  } else {
    return bad;
  }
  const std::size_t slash = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, slash);
  url.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (url.path.starts_with('?')) url.path.insert(0, "/");
  if (authority.find('@') != std::string_view::npos) return bad;  // no credentials in the URL
  std::string_view host, port;
  SplitHostPort(authority, &host, &port);
  if (host.empty() || host.find_first_of("[] ") != std::string_view::npos) return bad;
  const bool has_port = authority.starts_with('[') ? authority.find("]:") != std::string_view::npos
                                                   : authority.find(':') != std::string_view::npos;
  url.host = host;
  url.port = url.tls ? 443 : 80;
  if (has_port) {
    const std::optional<std::uint16_t> number = Port(port);
    if (!number || *number == 0) return bad;
    url.port = *number;
  }
  return url;
}

std::string UrlHost(std::string_view host) {
  return host.find(':') == std::string_view::npos ? std::string(host)
                                                  : "[" + std::string(host) + "]";
}

std::string Origin(const HttpUrl& url) {
  return (url.tls ? "https://" : "http://") + UrlHost(url.host) + ":" + std::to_string(url.port);
}

}  // namespace arcs::mcp_record_replay::http
