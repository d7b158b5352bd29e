#include "reference/mcp_record_replay/replay.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <utility>

#include "reference/core/base64.h"
#include "reference/core/canonical.h"
#include "reference/core/sha256.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/request_key.h"

namespace arcs::mcp_record_replay {
namespace {

using json::Value;

// The msg of a recorded line parsed again (null when the line has none: the loader refused such a
// recording, so only a file changed under us gets there).
const Value* MsgOf(const RandomAccessSource& lines, const RecordedMessage& m, json::Document* doc,
                   Status* status) {
  *status = ReadMessageLine(lines, m, doc);
  if (!status->ok()) return nullptr;
  const Value* msg = doc->root().Find("msg");
  return msg && msg->is_object() ? msg : nullptr;
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

// The bytes of a line the recorder could not record as a message, when the recording holds them
// whole (errata MRR-E51: {"method":"arcs/unrecorded","params":{"base64":B}}, not truncated).
std::optional<std::string> UnrecordedBytes(const Value& msg) {
  const Value* method = msg.FindLast("method");
  const Value* params = msg.FindLast("params");
  if (!method || !method->is_string() || method->text() != "arcs/unrecorded" || !params ||
      !params->is_object()) {
    return std::nullopt;
  }
  const Value* base64 = params->FindLast("base64");
  const Value* truncated = params->FindLast("truncated");
  const bool whole = !truncated || (truncated->is_bool() && !truncated->as_bool());
  if (!base64 || !base64->is_string() || !whole) return std::nullopt;
  std::optional<std::string> bytes = base64::Decode(base64->text());
  if (!bytes || bytes->find('\n') != std::string::npos) return std::nullopt;
  return bytes;
}

// The progress token a client request asks for (params._meta.progressToken), or the one a
// progress notification reports on (params.progressToken); null when there is none.
const Value* ProgressToken(const Value* params, bool request) {
  if (!params || !params->is_object()) return nullptr;
  if (request) {
    params = params->FindLast("_meta");
    if (!params || !params->is_object()) return nullptr;
  }
  return params->FindLast("progressToken");
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

// One reading of every message: requests are paired with the responses of their ids, either
// side's (MRR-E28), the client's requests filed by the mode's key, and the client's notifications
// and answers filed for the live ones to pass (MRR-E39).
Status Replayer::Index() {
  const std::vector<RecordedMessage>& messages = recording_->messages;
  partner_.assign(messages.size(), kNone);
  answered_.assign(messages.size(), false);
  progress_of_.assign(messages.size(), kNone);
  sent_.assign(messages.size(), false);
  matched_.assign(messages.size(), false);
  with_progress_.assign(messages.size(), false);
  PendingIds pending[2];  // by the side that asked
  PendingIds tokens;      // the client's requests by the progress token they ask for
  json::Document doc;
  Status status;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const RecordedMessage& m = messages[i];
    if (m.kind == MessageKind::kOther) continue;
    const Value* msg = MsgOf(*lines_, m, &doc, &status);
    if (!status.ok()) return status;
    if (!msg) continue;
    const Classified c = Classify(*msg);
    const bool client = m.dir == Direction::kClientToServer;
    if (c.kind == MessageKind::kNotification) {
      if (client) notifications_[std::string(c.method)].items.push_back(i);
      if (!client && c.method == "notifications/progress") {
        if (const Value* token = ProgressToken(c.params, false)) {
          // The request still waiting for its response that asked for this token (MCP: a token
          // is unique among the active requests); those already answered are dropped on the way.
          while (std::optional<std::uint64_t> asked = tokens.Take(*token)) {
            if (partner_[*asked] != kNone) continue;
            progress_of_[i] = *asked;
            with_progress_[*asked] = true;
            tokens.Add(*token, *asked);
            break;
          }
        }
      }
      continue;
    }
    if (!c.id) continue;
    if (c.kind == MessageKind::kRequest) {
      pending[client ? 0 : 1].Add(*c.id, i);  // paired all the same, so it answers no other
      if (client) {
        IndexMatching(i, c);
        if (const Value* token = ProgressToken(c.params, true)) tokens.Add(*token, i);
      }
      continue;
    }
    if (std::optional<std::uint64_t> asked = pending[client ? 1 : 0].Take(*c.id)) {
      partner_[*asked] = i;
      partner_[i] = *asked;
    }
    if (client) answers_.Add(*c.id, i);
  }
  // A fuzzy candidate never answered is never served; marked here, so that the search looks at
  // one flag of a candidate (all of a method's share a leaf, the tool's name).
  for (auto& [method, candidates] : fuzzy_) {
    for (Candidate& c : candidates.candidates) c.served = partner_[c.request] == kNone;
  }
  return Status::Ok();
}

// Files a client request for the match mode; by-request and fuzzy keep only the answered ones,
// which the caller learns later: they are filed now and skipped when they have no response.
void Replayer::IndexMatching(std::size_t i, const Classified& c) {
  switch (options_.match_mode) {
    case MatchMode::kSequential:
      requests_.push_back(i);
      request_served_.push_back(false);
      break;
    case MatchMode::kByRequest:
      // Without a canonical form, never matched.
      if (Result<std::string> key = RequestKey(c.method, c.params); key.ok()) {
        queues_[std::move(*key)].items.push_back(i);
      }
      break;
    case MatchMode::kFuzzy: {
      Method& method = fuzzy_[std::string(c.method)];
      const std::vector<std::string> digests = LeafDigests(c.params);
      const auto at = static_cast<std::uint32_t>(method.candidates.size());
      method.candidates.push_back({i, static_cast<std::uint32_t>(digests.size())});
      method.fewest_leaves = std::min<std::uint64_t>(method.fewest_leaves, digests.size());
      method.shared.push_back(0);
      for (const std::string& digest : digests) method.holders[digest].push_back(at);
      break;
    }
  }
}

// MRR-E35 request-cursor-ids: the first unserved recorded request, unless a request recorded while
// it was waiting for its response (at most kWindow of them) has the live request's id and method:
// concurrent requests are paired by id, whatever order the live client sends them in. A request of
// another method than the one chosen is unmatched, and the cursor stays.
std::optional<std::size_t> Replayer::Sequential(std::string_view method, const Value& live_id) {
  constexpr std::size_t kWindow = 64;
  while (cursor_ < requests_.size() && request_served_[cursor_]) ++cursor_;
  if (cursor_ >= requests_.size()) return std::nullopt;
  const std::size_t first = requests_[cursor_];
  const std::size_t until = partner_[first] == kNone ? SIZE_MAX : partner_[first];
  json::Document doc;
  Status status;
  std::optional<std::size_t> chosen, first_of_method;
  for (std::size_t k = cursor_, seen = 0;
       k < requests_.size() && requests_[k] < until && seen < kWindow; ++k) {
    if (request_served_[k]) continue;
    ++seen;
    const Value* msg = MsgOf(*lines_, recording_->messages[requests_[k]], &doc, &status);
    if (!msg) continue;
    const Classified c = Classify(*msg);
    if (c.method != method) continue;
    if (json::SameData(*c.id, live_id)) {
      chosen = k;
      break;
    }
    if (k == cursor_) first_of_method = k;
  }
  if (!chosen) chosen = first_of_method;
  if (!chosen) return std::nullopt;
  request_served_[*chosen] = true;
  return requests_[*chosen];
}

std::optional<std::size_t> Replayer::ByRequest(std::string_view method, const Value* params) {
  Result<std::string> key = RequestKey(method, params);
  if (!key.ok()) return std::nullopt;
  auto it = queues_.find(*key);
  if (it == queues_.end()) return std::nullopt;
  Queue& queue = it->second;
  while (queue.head < queue.items.size() && partner_[queue.items[queue.head]] == kNone) {
    ++queue.head;  // never answered: not filed (MRR-E34)
  }
  if (queue.head >= queue.items.size()) return std::nullopt;  // MRR-E33 exhausted-unmatched
  return queue.items[queue.head++];
}

// MRR-E36 leaf-jaccard: the unserved candidate of the method most similar to the live params, at
// least 1/2, ties to the first in the file. A leaf every candidate of the method holds (the tool's
// name, often) adds one to every candidate's shared count: its holders are not walked, unless
// that much alone could make a candidate no other leaf reaches similar enough (3 x shared >=
// |A| + |B|, with |B| the method's fewest leaves), when every list is walked.
std::optional<std::size_t> Replayer::Fuzzy(std::string_view method, const Value* params) {
  auto it = fuzzy_.find(std::string(method));
  if (it == fuzzy_.end()) return std::nullopt;
  Method& m = it->second;
  const std::vector<std::string> live = LeafDigests(params);
  std::vector<const std::vector<std::uint32_t>*> holders;
  std::uint64_t everyones = 0;  // live leaves every candidate holds
  for (const std::string& digest : live) {
    auto found = m.holders.find(digest);
    if (found == m.holders.end()) continue;
    holders.push_back(&found->second);
    everyones += found->second.size() == m.candidates.size();
  }
  const bool walk_all = 3 * everyones >= live.size() + m.fewest_leaves;
  std::vector<std::uint32_t> touched;
  for (const std::vector<std::uint32_t>* list : holders) {
    if (!walk_all && list->size() == m.candidates.size()) continue;
    for (std::uint32_t c : *list) {
      if (!m.candidates[c].served && m.shared[c]++ == 0) touched.push_back(c);
    }
  }
  const std::uint64_t implied = walk_all ? 0 : everyones;
  // Similarity shared / (|A| + |B| - shared), compared as whole numbers (a/b > c/d: a*d > c*b);
  // a tie goes to the candidate first in the file.
  std::optional<std::uint32_t> best;
  std::uint64_t best_shared = 0, best_union = 1;
  for (std::uint32_t c : touched) {
    const std::uint64_t shared = std::exchange(m.shared[c], 0) + implied;
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
  return m.candidates[*best].request;
}

// Sends what follows `anchor` in the recording up to the next line the live session must pass:
// the server's notifications and requests recorded there (MRR-E39 in-recorded-place), except
// progress about a client request not matched yet, which waits for the match, and progress already
// sent (just before its response), which is not sent again.
void Replayer::Pass(std::size_t anchor, Reply* reply) {
  const std::vector<RecordedMessage>& messages = recording_->messages;
  for (std::size_t j = anchor == kNone ? 0 : anchor + 1; j < messages.size(); ++j) {
    const RecordedMessage& m = messages[j];
    if (m.kind == MessageKind::kOther) continue;  // never sent (MRR-E26)
    const bool server_initiated =
        m.dir == Direction::kServerToClient &&
        (m.kind == MessageKind::kRequest || m.kind == MessageKind::kNotification);
    if (!server_initiated) return;
    if (const std::size_t about = progress_of_[j]; about != kNone) {
      if (sent_[j]) continue;
      if (!matched_[about]) {
        deferred_[about].push_back(j);
        continue;
      }
    }
    Emit(j, reply);
  }
}

// Sends the server's message j; a request's id is remembered, so that the client's answer finds
// it.
void Replayer::Emit(std::size_t j, Reply* reply) {
  const RecordedMessage& m = recording_->messages[j];
  json::Document doc;
  Status status;
  sent_[j] = true;
  const Value* msg = MsgOf(*lines_, m, &doc, &status);
  if (!msg) return;
  if (m.kind == MessageKind::kRequest) {
    if (const Value* id = msg->FindLast("id")) awaited_.Add(*id, j);
  }
  if (std::optional<std::string> bytes = UnrecordedBytes(*msg)) {
    reply->messages.push_back({std::move(*bytes), 0, true});
    return;
  }
  Outgoing out{json::ToString(*msg), 0};
  if (progress_of_[j] != kNone) {
    if (auto live = live_ids_.find(progress_of_[j]); live != live_ids_.end()) {
      out.about = live->second;
    }
  }
  reply->messages.push_back(std::move(out));
}

// A recorded request matched by a live one: its progress may go out from now on, that whose place
// was passed before first (recorded after what Pass(request) sends: later than the next client
// line).
void Replayer::Matched(std::size_t request, const Value& live_id, Reply* reply) {
  matched_[request] = true;
  live_ids_[request] = json::ToString(live_id);
  Pass(request, reply);
  if (auto waiting = deferred_.find(request); waiting != deferred_.end()) {
    std::vector<std::size_t> progress = std::move(waiting->second);
    deferred_.erase(waiting);
    std::sort(progress.begin(), progress.end());
    for (std::size_t j : progress) {
      if (!sent_[j]) Emit(j, reply);
    }
  }
}

// A recorded request matched: what the server recorded after it, then its response, unless the
// client has still to answer a server request recorded between the two (then it is held).
void Replayer::Serve(std::size_t request, const Value& live_id, Reply* reply) {
  reply->matched = true;
  Matched(request, live_id, reply);
  const std::size_t response = partner_[request];
  for (std::size_t j = request + 1; j < response; ++j) {
    const RecordedMessage& m = recording_->messages[j];
    if (m.dir == Direction::kServerToClient && m.kind == MessageKind::kRequest && !answered_[j]) {
      held_.push_back({request, response, json::ToString(live_id)});
      return;
    }
  }
  Send(response, live_id, reply);
}

// The recorded response with the live id (MRR-E37), its delay, and what the server recorded after
// it; before it, the progress about its request recorded before it that has not gone out yet
// (its place not passed), since after the response it would be about no active request.
void Replayer::Send(std::size_t response, const Value& live_id, Reply* reply) {
  if (const std::size_t request = partner_[response]; request != kNone && with_progress_[request]) {
    for (std::size_t j = request + 1; j < response; ++j) {
      if (progress_of_[j] == request && !sent_[j]) Emit(j, reply);
    }
    deferred_.erase(request);
  }
  live_ids_.erase(partner_[response]);
  const RecordedMessage& m = recording_->messages[response];
  json::Document doc;
  Status status;
  const Value* msg = MsgOf(*lines_, m, &doc, &status);
  if (!msg) {
    reply->log = "the recorded response on seq " + std::to_string(m.seq) +
                 " could not be read again: " + status.message();
    reply->end = true;
    return;
  }
  Outgoing out{WithId(*msg, live_id), 0};
  if (options_.timing.kind != Timing::Kind::kInstant && m.latency_ms) {
    const double scale =
        options_.timing.kind == Timing::Kind::kScaled ? options_.timing.factor : 1.0;
    // Capped where a sleep's clock would overflow (about 35 years).
    constexpr double kLongest = static_cast<double>(std::uint64_t{1} << 40);
    const double delay = std::min(static_cast<double>(*m.latency_ms) * scale, kLongest);
    out.delay_ms = static_cast<std::uint64_t>(delay);
  }
  reply->messages.push_back(std::move(out));
  Pass(response, reply);
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
  reply.messages.push_back({UnmatchedError(live_id), 0});
  return reply;
}

Reply Replayer::Start() {
  Reply reply;
  Pass(kNone, &reply);
  return reply;
}

Reply Replayer::Request(const Classified& live) {
  std::optional<std::size_t> request;
  switch (options_.match_mode) {
    case MatchMode::kSequential:
      request = Sequential(live.method, *live.id);
      break;
    case MatchMode::kByRequest:
      request = ByRequest(live.method, live.params);
      break;
    case MatchMode::kFuzzy:
      request = Fuzzy(live.method, live.params);
      break;
  }
  if (!request) return Unmatched(live.method, *live.id);
  Reply reply;
  if (partner_[*request] == kNone) {  // matched, never answered: passed all the same
    Matched(*request, *live.id, &reply);
    Reply unmatched = Unmatched(live.method, *live.id);
    for (Outgoing& out : unmatched.messages) reply.messages.push_back(std::move(out));
    unmatched.messages = std::move(reply.messages);
    return unmatched;
  }
  Serve(*request, *live.id, &reply);
  return reply;
}

// A client notification passes the first recorded one of its method not yet passed (MRR-E39); it
// is never answered (EC-REC-005).
Reply Replayer::Notification(std::string_view method) {
  Reply reply;
  auto it = notifications_.find(std::string(method));
  if (it == notifications_.end() || it->second.head >= it->second.items.size()) return reply;
  Pass(it->second.items[it->second.head++], &reply);
  return reply;
}

// The client's answer to a server request the replay sent: it passes the recorded answer, and the
// responses that waited for it go out (MRR-E39). An answer to nothing is ignored (MRR-E38).
Reply Replayer::Answer(const Value& id) {
  Reply reply;
  const std::optional<std::uint64_t> asked = awaited_.Take(id);
  if (!asked) return reply;
  answered_[*asked] = true;
  if (std::optional<std::uint64_t> recorded = answers_.Take(id)) Pass(*recorded, &reply);
  for (std::size_t h = 0; h < held_.size();) {
    const Held held = held_[h];
    bool waiting = false;
    for (std::size_t j = held.request + 1; j < held.response && !waiting; ++j) {
      const RecordedMessage& m = recording_->messages[j];
      waiting =
          m.dir == Direction::kServerToClient && m.kind == MessageKind::kRequest && !answered_[j];
    }
    if (waiting) {
      ++h;
      continue;
    }
    held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(h));
    json::Document live_id;
    live_id.Parse(held.live_id);
    Send(held.response, live_id.root(), &reply);
  }
  return reply;
}

Reply Replayer::ReleaseHeld() {
  Reply reply;
  std::vector<Held> held = std::move(held_);
  held_.clear();
  for (const Held& h : held) {
    json::Document live_id;
    live_id.Parse(h.live_id);
    Send(h.response, live_id.root(), &reply);
  }
  if (!held.empty()) {
    reply.log = std::to_string(held.size()) +
                " response(s) sent without the client's answer to the server request(s) recorded "
                "before them";
  }
  return reply;
}

std::string Replayer::RecordedInitialize() const {
  json::Document doc;
  Status status;
  for (const RecordedMessage& m : recording_->messages) {
    if (m.dir != Direction::kClientToServer || m.kind != MessageKind::kRequest) continue;
    const Value* msg = MsgOf(*lines_, m, &doc, &status);
    if (msg && Classify(*msg).method == "initialize") return json::ToString(*msg);
  }
  return "";
}

// Requests are answered, notifications and the client's answers pass their recorded places;
// anything else changes nothing (errata MRR-E38).
Reply Replayer::Handle(std::string_view client_line) {
  json::Document doc;
  if (!doc.Parse(client_line) || !doc.root().is_object()) return {};
  const Classified c = Classify(doc.root());
  switch (c.kind) {
    case MessageKind::kRequest:
      return Request(c);
    case MessageKind::kNotification:
      return Notification(c.method);
    case MessageKind::kResponse:
    case MessageKind::kError:
      return c.id ? Answer(*c.id) : Reply{};
    case MessageKind::kOther:
      break;
  }
  return {};
}

namespace {

// Adds what a reply sends to the transcript; false when the replay ends there.
bool Record(Reply reply, ReplayTranscript* transcript) {
  if (!reply.log.empty()) transcript->log.push_back(std::move(reply.log));
  for (Outgoing& out : reply.messages) transcript->answers += out.line + "\n";
  transcript->ended = reply.end;
  return !reply.end;
}

}  // namespace

Result<ReplayTranscript> ReplayScript(const LoadedRecording& recording,
                                      const RandomAccessSource& lines, std::string_view script,
                                      const ReplayOptions& options, Forwarder* forwarder) {
  Result<Replayer> replayer = Replayer::Create(recording, lines, options);
  if (!replayer.ok()) return replayer.status();
  ReplayTranscript transcript;
  if (!Record(replayer->Start(), &transcript)) return transcript;
  jsonl::MemorySource source(script);
  jsonl::LineReader reader(&source, {});
  jsonl::Line line;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) break;
    Reply reply = replayer->Handle(line.text);
    if (reply.forward) {
      Result<std::string> answer = forwarder ? forwarder->Forward(line.text)
                                             : Status(StatusCode::kInvalidArgument, "no upstream");
      if (!answer.ok()) {
        transcript.log.push_back("passthrough: " + answer.status().message() + ": the replay ends");
        transcript.ended = true;
        return transcript;
      }
      reply.messages.push_back({std::move(*answer), 0});
    }
    if (!Record(std::move(reply), &transcript)) return transcript;
  }
  Record(replayer->ReleaseHeld(), &transcript);  // the client's end of input
  return transcript;
}

}  // namespace arcs::mcp_record_replay
