// Fuzz target: the TJ-SPEC-010 loader and replay matcher (reference/mcp_record_replay/loader.h,
// replay.h) on any bytes. The input is a recording, a line "#script", then a client script; its
// first two bytes choose the match mode and the unmatched behaviour. Properties: no crash; a
// recording the validator finds no error in always loads (the loader refuses only what validate
// calls an error: errata MRR-E11); every message the replay sends is one JSON object; it answers
// only requests, each at most once (a response sent then, or held and sent later: MRR-E39), every
// response carrying the id of a live request not answered yet, and by the client's end of input
// every matched request is answered; a recorded response is served at most once (MRR-E33, and
// MRR-E35's cursor), so the served count never exceeds the recorded responses.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "reference/core/json.h"
#include "reference/mcp_record_replay/loader.h"
#include "reference/mcp_record_replay/recording.h"
#include "reference/mcp_record_replay/replay.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::string_view kScriptMarker = "\n#script\n";

using arcs::libfuzzer::Check;
namespace mrr = arcs::mcp_record_replay;

bool HasErrors(std::string_view recording, const mrr::Limits& limits) {
  bool errors = false;
  arcs::jsonl::MemorySource source(recording);
  (void)mrr::CheckRecording(&source, limits,
                            [&](const mrr::RecordingFinding& f) { errors = errors || !f.warning; });
  return errors;
}

std::size_t RecordedResponses(const mrr::LoadedRecording& recording) {
  std::size_t n = 0;
  for (const mrr::RecordedMessage& m : recording.messages) {
    n += m.dir == mrr::Direction::kServerToClient &&
         (m.kind == mrr::MessageKind::kResponse || m.kind == mrr::MessageKind::kError);
  }
  return n;
}

// The live requests not answered yet, by id (as JSON), checked against what the replay sends.
class Answers {
 public:
  void Asked(const arcs::json::Value& id) { ++waiting_[arcs::json::ToString(id)]; }
  void Check(const mrr::Reply& reply) {
    for (const mrr::Outgoing& out : reply.messages) {
      ::Check(!out.unrecorded || out.line.find('\n') == std::string::npos,
              "an unrecorded line sent holds a line end");
      if (out.unrecorded) continue;  // a server line as it was sent (errata MRR-E51)
      arcs::json::Document message;
      ::Check(message.Parse(out.line) && message.root().is_object(), "a message is not an object");
      const mrr::Classified c = mrr::Classify(message.root());
      if (c.kind != mrr::MessageKind::kResponse && c.kind != mrr::MessageKind::kError) continue;
      auto it = c.id ? waiting_.find(arcs::json::ToString(*c.id)) : waiting_.end();
      ::Check(it != waiting_.end() && it->second > 0,
              "a response carries no id of a live request waiting for one");
      --it->second;
    }
  }
  void Forwarded(const arcs::json::Value& id) { --waiting_[arcs::json::ToString(id)]; }
  bool AllAnswered() const {
    for (const auto& [id, n] : waiting_) {
      if (n != 0) return false;
    }
    return true;
  }

 private:
  std::map<std::string, int> waiting_;
};

void Replay(const mrr::LoadedRecording& loaded, std::string_view recording, std::string_view script,
            const mrr::ReplayOptions& options) {
  const mrr::MemoryRandomAccess lines(recording);
  arcs::Result<mrr::Replayer> replayer = mrr::Replayer::Create(loaded, lines, options);
  Check(replayer.ok(), "a loaded recording cannot be indexed");
  Answers answers;
  answers.Check(replayer->Start());
  std::size_t served = 0;
  bool ended = false;
  while (!script.empty() && !ended) {
    const std::size_t end = std::min(script.find('\n'), script.size());
    const std::string_view line = script.substr(0, end);
    script.remove_prefix(std::min(end + 1, script.size()));
    arcs::json::Document request;
    const bool is_request = request.Parse(line) && request.root().is_object() &&
                            mrr::Classify(request.root()).kind == mrr::MessageKind::kRequest;
    if (is_request) answers.Asked(*request.root().Find("id"));
    const mrr::Reply reply = replayer->Handle(line);
    Check(is_request || (!reply.matched && !reply.forward), "a message that is no request matched");
    if (reply.forward) answers.Forwarded(*request.root().Find("id"));
    answers.Check(reply);
    served += reply.matched;
    ended = reply.end;
  }
  if (!ended) {
    answers.Check(replayer->ReleaseHeld());
    Check(answers.AllAnswered(), "a live request left unanswered at the client's end");
  }
  Check(served <= RecordedResponses(loaded), "a recorded response served twice");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2 || size > kMaxInputBytes) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  const std::size_t marker = text.find(kScriptMarker);
  const std::string_view recording = text.substr(0, marker);
  const std::string_view script =
      marker == std::string_view::npos ? "" : text.substr(marker + kScriptMarker.size());
  mrr::LoadOptions load;
  load.limits.max_json_depth = 64;
  arcs::jsonl::MemorySource source(recording);
  arcs::Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, load);
  if (!loaded.ok()) {
    Check(HasErrors(recording, load.limits), "a recording without errors was refused");
    return 0;
  }
  mrr::ReplayOptions options;
  options.match_mode = static_cast<mrr::MatchMode>(data[0] % 3);
  options.on_unmatched = data[1] % 2 ? mrr::OnUnmatched::kWarn : mrr::OnUnmatched::kError;
  Replay(*loaded, recording, script, options);
  return 0;
}
