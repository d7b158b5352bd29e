#include "reference/mcp_record_replay/replay.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <utility>

#include "reference/core/canonical.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/replay_server.h"
#include "reference/mcp_record_replay/request_key.h"

namespace arcs::mcp_record_replay {
namespace {

using json::Value;

bool IsResponse(MessageKind kind) {
  return kind == MessageKind::kResponse || kind == MessageKind::kError;
}

// The msg of a recorded line parsed again (null when the line has none: the loader refused such a
// recording, so only a file changed under us gets there).
const Value* MsgOf(const RandomAccessSource& lines, const RecordedMessage& m, json::Document* doc,
                   Status* status) {
  *status = ReadMessageLine(lines, m, doc);
  if (!status->ok()) return nullptr;
  const Value* msg = doc->root().Find("msg");
  return msg && msg->is_object() ? msg : nullptr;
}

// The recorded response with its id replaced by the live one (errata MRR-E37); every other
// member as recorded, a repeated name once with its last value (MRR-E24 last-wins).
std::string WithLiveId(const Value& response, const Value& live_id) {
  std::string out = "{";
  for (const json::Member& m : response.members()) {
    if (response.FindLast(m.name) != &m.value) continue;
    if (out.size() > 1) out += ',';
    json::AppendQuoted(m.name, &out);
    out += ':';
    json::Write(m.name == "id" ? live_id : m.value, &out);
  }
  if (!response.Find("id")) {
    if (out.size() > 1) out += ',';
    out += "\"id\":";
    json::Write(live_id, &out);
  }
  return out + "}";
}

std::string UnmatchedError(const Value& live_id) {
  std::string out = "{\"jsonrpc\":\"2.0\",\"id\":";
  json::Write(live_id, &out);
  return out + ",\"error\":{\"code\":-32000,\"message\":\"No matching response\"}}";
}

void AddLeaves(const Value& v, std::string* pointer, std::vector<std::string>* out) {
  const bool empty_container =
      (v.is_object() && v.members().empty()) || (v.is_array() && v.items().empty());
  if (!v.is_object() && !v.is_array()) {
    Result<std::string> scalar = canonical::Jcs(v);
    out->push_back(*pointer + '\0' + (scalar.ok() ? *scalar : std::string(v.text())));
    return;
  }
  if (empty_container) {
    out->push_back(*pointer + '\0' + (v.is_object() ? "{}" : "[]"));
    return;
  }
  const std::size_t mark = pointer->size();
  std::size_t index = 0;
  for (const Value& item : v.items()) {
    *pointer += '/' + std::to_string(index++);
    AddLeaves(item, pointer, out);
    pointer->resize(mark);
  }
  for (const json::Member& m : v.members()) {
    *pointer += '/';
    json::AppendPointerToken(m.name, pointer);
    AddLeaves(m.value, pointer, out);
    pointer->resize(mark);
  }
}

// A leaf's 128-bit digest (the first half of its SHA-256): equal digests are equal leaves for any
// input anyone can find, and a leaf of a megabyte is kept in 16 bytes. One each: ParamLeaves gives
// each leaf once.
std::vector<std::string> LeafDigests(const json::Value* params) {
  std::vector<std::string> digests;
  for (const std::string& leaf : ParamLeaves(params)) {
    const Sha256Digest d = Sha256::Of(leaf);
    digests.emplace_back(reinterpret_cast<const char*>(d.data()), 16);
  }
  return digests;
}

}  // namespace

std::vector<std::string> ParamLeaves(const json::Value* params) {
  std::vector<std::string> leaves;
  std::string pointer;
  if (!params || params->is_null() || (params->is_object() && params->members().empty())) {
    leaves.push_back(std::string(1, '\0') + "{}");
    return leaves;
  }
  if (params->is_object()) {
    for (const json::Member& m : params->members()) {
      if (m.name == "_meta") continue;
      pointer = "/";
      json::AppendPointerToken(m.name, &pointer);
      AddLeaves(m.value, &pointer, &leaves);
    }
    if (leaves.empty()) leaves.push_back(std::string(1, '\0') + "{}");  // only _meta
  } else {
    AddLeaves(*params, &pointer, &leaves);
  }
  std::sort(leaves.begin(), leaves.end());
  leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
  return leaves;
}

Result<MatchMode> ParseMatchMode(std::string_view text) {
  if (text == "sequential") return MatchMode::kSequential;
  if (text == "by-request") return MatchMode::kByRequest;
  if (text == "fuzzy") return MatchMode::kFuzzy;
  return Status(StatusCode::kInvalidArgument,
                "match mode " + Quoted(text, 40) + ": expected sequential, by-request or fuzzy");
}

Result<Timing> ParseTiming(std::string_view text) {
  if (text == "instant") return Timing{};
  if (text == "realistic") return Timing{Timing::Kind::kRealistic, 1.0};
  const Status bad(StatusCode::kInvalidArgument,
                   "timing " + Quoted(text, 40) +
                       ": expected instant, realistic or scaled:N (N a non-negative number)");
  if (!text.starts_with("scaled:")) return bad;
  const std::optional<double> n = ParseDecimal(text.substr(7), 0, 1e300);
  if (!n) return bad;
  return Timing{Timing::Kind::kScaled, *n};
}

Result<OnUnmatched> ParseOnUnmatched(std::string_view text) {
  if (text == "error") return OnUnmatched::kError;
  if (text == "warn") return OnUnmatched::kWarn;
  if (text == "passthrough") return OnUnmatched::kPassthrough;
  return Status(StatusCode::kInvalidArgument, "unmatched behaviour " + Quoted(text, 40) +
                                                  ": expected error, warn or passthrough");
}

Result<Replayer> Replayer::Create(const LoadedRecording& recording, const RandomAccessSource& lines,
                                  const ReplayOptions& options) {
  Replayer replayer(recording, lines, options);
  if (Status s = replayer.Index(); !s.ok()) return s;
  return replayer;
}

// Pairs each c2s request with the s2c response of its id (MRR-E28), then files the answered
// requests by the mode's key in the file order of the requests (MRR-E34 request-order).
Status Replayer::Index() {
  const std::vector<RecordedMessage>& messages = recording_->messages;
  if (options_.match_mode == MatchMode::kSequential) {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (messages[i].dir == Direction::kServerToClient && IsResponse(messages[i].kind)) {
        responses_.push_back(i);
      }
    }
    return Status::Ok();
  }
  // One reading of each request and response: a request's key (by-request: method and params
  // hashed; fuzzy: its method) is taken as it is read, and filed once its response is paired.
  std::vector<std::size_t> answer(messages.size(), kNone);
  std::unordered_map<std::size_t, std::string> keys;  // a request's key, by its index
  std::unordered_map<std::size_t, std::vector<std::string>> leaves;  // fuzzy: its leaf digests
  PendingIds pending;
  json::Document doc;
  Status status;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const RecordedMessage& m = messages[i];
    const bool request = m.dir == Direction::kClientToServer && m.kind == MessageKind::kRequest;
    const bool response = m.dir == Direction::kServerToClient && IsResponse(m.kind);
    if (!request && !response) continue;
    const Value* msg = MsgOf(*lines_, m, &doc, &status);
    if (!status.ok()) return status;
    const Value* id = msg ? msg->FindLast("id") : nullptr;
    if (!id) continue;
    if (request) {
      const Classified c = Classify(*msg);
      Result<std::string> key = options_.match_mode == MatchMode::kFuzzy
                                    ? Result<std::string>(std::string(c.method))
                                    : RequestKey(c.method, c.params);
      if (key.ok()) keys.emplace(i, std::move(*key));  // else never matched: no canonical form
      if (options_.match_mode == MatchMode::kFuzzy) leaves.emplace(i, LeafDigests(c.params));
      pending.Add(*id, i);  // paired all the same, so that its response answers no other
    }
    if (response) {
      if (std::optional<std::uint64_t> asked = pending.Take(*id)) answer[*asked] = i;
    }
  }
  for (std::size_t i = 0; i < messages.size(); ++i) {
    auto key_of = keys.find(i);
    if (answer[i] == kNone || key_of == keys.end()) continue;
    std::string& key = key_of->second;
    if (options_.match_mode == MatchMode::kFuzzy) {
      Method& method = fuzzy_[std::move(key)];
      const std::vector<std::string>& digests = leaves[i];
      const auto at = static_cast<std::uint32_t>(method.candidates.size());
      method.candidates.push_back({answer[i], static_cast<std::uint32_t>(digests.size())});
      method.shared.push_back(0);
      for (const std::string& digest : digests) method.holders[digest].push_back(at);
    } else {
      queues_[std::move(key)].responses.push_back(answer[i]);
    }
  }
  return Status::Ok();
}

std::optional<std::size_t> Replayer::Sequential() {
  if (cursor_ >= responses_.size()) return std::nullopt;
  return responses_[cursor_++];
}

std::optional<std::size_t> Replayer::ByRequest(std::string_view method, const Value* params) {
  Result<std::string> key = RequestKey(method, params);
  if (!key.ok()) return std::nullopt;
  auto it = queues_.find(*key);
  if (it == queues_.end()) return std::nullopt;
  Queue& queue = it->second;
  if (queue.head >= queue.responses.size()) return std::nullopt;  // MRR-E33 exhausted-unmatched
  return queue.responses[queue.head++];
}

// MRR-E36 leaf-jaccard: the unserved candidate of the method most similar to the live params, at
// least 1/2, ties to the first in the file.
std::optional<std::size_t> Replayer::Fuzzy(std::string_view method, const Value* params) {
  auto it = fuzzy_.find(std::string(method));
  if (it == fuzzy_.end()) return std::nullopt;
  Method& m = it->second;
  const std::vector<std::string> live = LeafDigests(params);
  std::vector<std::uint32_t> touched;
  for (const std::string& digest : live) {
    auto holders = m.holders.find(digest);
    if (holders == m.holders.end()) continue;
    for (std::uint32_t c : holders->second) {
      if (m.candidates[c].served) continue;
      if (m.shared[c]++ == 0) touched.push_back(c);
    }
  }
  // Similarity shared / (|A| + |B| - shared), compared as whole numbers (a/b > c/d: a*d > c*b);
  // a tie goes to the candidate first in the file.
  std::optional<std::uint32_t> best;
  std::uint64_t best_shared = 0, best_union = 1;
  for (std::uint32_t c : touched) {
    const std::uint64_t shared = std::exchange(m.shared[c], 0);
    const std::uint64_t all = m.candidates[c].leaves + live.size() - shared;
    const std::uint64_t left = shared * best_union, right = best_shared * all;
    if (!best || left > right || (left == right && c < *best)) {
      best = c;
      best_shared = shared;
      best_union = all;
    }
  }
  if (!best || 2 * best_shared < best_union) return std::nullopt;
  m.candidates[*best].served = true;
  return m.candidates[*best].response;
}

Reply Replayer::Serve(std::size_t response, const Value& live_id) {
  const RecordedMessage& m = recording_->messages[response];
  json::Document doc;
  Status status;
  const Value* msg = MsgOf(*lines_, m, &doc, &status);
  Reply reply;
  if (!msg) {
    reply.log = "the recorded response on seq " + std::to_string(m.seq) +
                " could not be read again: " + status.message();
    reply.end = true;
    return reply;
  }
  reply.message = WithLiveId(*msg, live_id);
  reply.matched = true;
  if (options_.timing.kind != Timing::Kind::kInstant && m.latency_ms) {
    const double scale =
        options_.timing.kind == Timing::Kind::kScaled ? options_.timing.factor : 1.0;
    // Capped where a sleep's clock would overflow (about 35 years).
    constexpr double kLongest = static_cast<double>(std::uint64_t{1} << 40);
    const double delay = std::min(static_cast<double>(*m.latency_ms) * scale, kLongest);
    reply.delay_ms = static_cast<std::uint64_t>(delay);
  }
  return reply;
}

Reply Replayer::Unmatched(std::string_view method, const Value& live_id) {
  Reply reply;
  reply.log = "no matching response in the recording for " + Quoted(method, 80);
  switch (options_.on_unmatched) {
    case OnUnmatched::kPassthrough:
      reply.forward = true;
      reply.log += ": forwarded to the upstream";
      return reply;
    case OnUnmatched::kError:
      reply.end = true;
      reply.log += ": the replay ends (--on-unmatched error)";
      break;
    case OnUnmatched::kWarn:
      break;
  }
  reply.message = UnmatchedError(live_id);
  return reply;
}

// Only requests are answered: a notification never (EC-REC-005), nor anything that is not a
// request (errata MRR-E38).
Reply Replayer::Handle(std::string_view client_line) {
  json::Document doc;
  if (!doc.Parse(client_line) || !doc.root().is_object()) return {};
  const Classified c = Classify(doc.root());
  if (c.kind != MessageKind::kRequest) return {};
  std::optional<std::size_t> response;
  switch (options_.match_mode) {
    case MatchMode::kSequential:
      response = Sequential();
      break;
    case MatchMode::kByRequest:
      response = ByRequest(c.method, c.params);
      break;
    case MatchMode::kFuzzy:
      response = Fuzzy(c.method, c.params);
      break;
  }
  return response ? Serve(*response, *c.id) : Unmatched(c.method, *c.id);
}

Result<ReplayTranscript> ReplayScript(const LoadedRecording& recording,
                                      const RandomAccessSource& lines, std::string_view script,
                                      const ReplayOptions& options, Forwarder* forwarder) {
  Result<Replayer> replayer = Replayer::Create(recording, lines, options);
  if (!replayer.ok()) return replayer.status();
  ReplayTranscript transcript;
  jsonl::MemorySource source(script);
  jsonl::LineReader reader(&source, {});
  jsonl::Line line;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) break;
    Reply reply = replayer->Handle(line.text);
    if (!reply.log.empty()) transcript.log.push_back(std::move(reply.log));
    if (reply.forward) {
      Result<std::string> answer = forwarder ? forwarder->Forward(line.text)
                                             : Status(StatusCode::kInvalidArgument, "no upstream");
      if (!answer.ok()) {
        transcript.log.push_back("passthrough: " + answer.status().message() + ": the replay ends");
        transcript.ended = true;
        break;
      }
      reply.message = std::move(*answer);
    }
    if (reply.message) transcript.answers += *reply.message + "\n";
    if (reply.end) {
      transcript.ended = true;
      break;
    }
  }
  return transcript;
}

}  // namespace arcs::mcp_record_replay
