// Fuzz target: the event-stream reader of the MCP Streamable HTTP transport (http::SseReader in
// reference/mcp_record_replay/http_transport.h), which reads what an upstream sends the recording
// proxy. The first byte chooses the size of the pieces the rest is fed in (1 to 64 bytes); the
// same bytes fed whole must give the same events (name, data, id, whether the id is the event's
// own) and the same verdict, as a stream may arrive split anywhere. Every event must be one the
// format allows: data within the limit and without a CR, no line break in its name or id, no NUL
// in its id.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "reference/mcp_record_replay/http_transport.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::size_t kMaxEventBytes = 4096;  // small, so that the limit is reached

using arcs::libfuzzer::Check;
namespace http = arcs::mcp_record_replay::http;

struct Read {
  std::vector<http::SseEvent> events;
  bool ok = true;
};

Read Feed(std::string_view stream, std::size_t piece) {
  http::SseReader reader(kMaxEventBytes);
  Read read;
  for (std::size_t at = 0; at < stream.size() && read.ok; at += piece) {
    read.ok = reader.Feed(stream.substr(at, piece), &read.events).ok();
  }
  return read;
}

bool Same(const http::SseEvent& a, const http::SseEvent& b) {
  return a.event == b.event && a.data == b.data && a.id == b.id && a.own_id == b.own_id;
}

void CheckEvent(const http::SseEvent& event) {
  Check(event.data.size() <= kMaxEventBytes, "an event's data over the limit");
  Check(event.data.find('\r') == std::string::npos, "a CR in an event's data");
  Check(event.event.find_first_of("\r\n") == std::string::npos, "a line break in an event's name");
  // WHATWG's event stream ignores an id with a NUL in it.
  Check(event.id.find_first_of(std::string_view("\r\n\0", 3)) == std::string::npos,
        "a line break or NUL in an event's id");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > kMaxInputBytes) return -1;
  const std::size_t piece = 1 + data[0] % 64;
  const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  const Read whole = Feed(stream, stream.size() + 1);
  const Read pieces = Feed(stream, piece);
  // A stream refused part way gives the events before the refusal: the same ones either way.
  Check(whole.ok == pieces.ok, "the verdict depends on how the stream is split");
  Check(whole.events.size() == pieces.events.size(),
        "the events depend on how the stream is split");
  for (std::size_t i = 0; i < whole.events.size() && i < pieces.events.size(); ++i) {
    Check(Same(whole.events[i], pieces.events[i]), "an event depends on how the stream is split");
    CheckEvent(whole.events[i]);
  }
  return 0;
}
