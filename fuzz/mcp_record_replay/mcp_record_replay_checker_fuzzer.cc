// Fuzz target: the TJ-SPEC-010 recording checker (reference/mcp_record_replay/recording.h) and
// the by-request key on any bytes: no crash; findings come in line order, each on a line the
// input has, each a one-line message; every request of a parsable message line has a key or a
// reason it has none, and the key depends on the params' data only (a re-serialized copy of the
// params, members in another order, has the same key).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "reference/core/json.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/recording.h"
#include "reference/mcp_record_replay/request_key.h"

namespace {

constexpr std::size_t kMaxInputBytes = 256 * 1024;

using arcs::libfuzzer::Check;

// Each line's requests: the key of the params as parsed equals the key of their re-serialized
// text (json::Write keeps the data).
void CheckKeys(std::string_view text) {
  using namespace arcs;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    json::Document line;
    if (line.Parse(text.substr(0, end)) && line.root().is_object()) {
      if (const json::Value* msg = line.root().Find("msg")) {
        const mcp_record_replay::Classified c = mcp_record_replay::Classify(*msg);
        if (c.kind == mcp_record_replay::MessageKind::kRequest) {
          Result<std::string> key = mcp_record_replay::RequestKey(c.method, c.params);
          if (key.ok() && c.params) {
            json::Document again;
            Check(again.Parse(json::ToString(*c.params)), "re-serialized params do not parse");
            Result<std::string> same = mcp_record_replay::RequestKey(c.method, &again.root());
            Check(same.ok() && *same == *key, "the key changes when the params are rewritten");
          }
        }
      }
    }
    text.remove_prefix(std::min(end + 1, text.size()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // linear in the input: larger inputs add nothing
  using namespace arcs;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mcp_record_replay::Limits limits;
  limits.max_json_depth = 64;
  const std::uint64_t lines =
      static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::uint64_t last = 0;
  jsonl::MemorySource source(text);
  const Status s = mcp_record_replay::CheckRecording(
      &source, limits, [&](const mcp_record_replay::RecordingFinding& f) {
        Check(f.line >= last && f.line <= lines, "a finding out of line order or past the end");
        Check(f.message.find('\n') == std::string::npos, "a message of several lines");
        last = f.line;
      });
  Check(s.ok(), "a memory source failed");
  CheckKeys(text);
  return 0;
}
