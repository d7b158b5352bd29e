#include "reference/lightbox/lightbox.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <vector>

#include "reference/core/canonical.h"
#include "reference/core/sha256.h"

namespace arcs::lightbox {
namespace {

std::string Sha256Hex(std::string_view bytes) { return ToHex(Sha256::Of(bytes)); }

// One event as read: its parsed object, or why there is none.
struct ReadEvent {
  std::uint64_t index = 0;
  const json::Value* value = nullptr;  // an object, or null when `problem` says why not
  std::string problem;
};

// Reads the events of events.jsonl one by one, skipping blank lines, into one reused Document.
class EventReader {
 public:
  EventReader(jsonl::ByteSource* source, const Limits& limits)
      : limits_(limits), lines_(source, LineOptionsFor(limits)) {}

  // False at the end; a Status for I/O errors and max_events.
  Result<bool> Next(ReadEvent* event) {
    jsonl::Line line;
    do {
      Result<bool> more = lines_.Next(&line);
      if (!more.ok() || !*more) return more;
    } while (!line.too_long && jsonl::IsBlank(line.text));
    if (count_ == limits_.max_events) {
      return Status(StatusCode::kLimitExceeded,
                    "more than " + std::to_string(limits_.max_events) + " events (max_events)");
    }
    *event = ReadEvent{count_++, nullptr, ""};
    if (line.too_long) {
      event->problem = "line " + std::to_string(line.number) + " is longer than " +
                       std::to_string(limits_.max_line_bytes) + " bytes (max_line_bytes)";
    } else if (!document_.Parse(line.text, ParseOptionsFor(limits_))) {
      event->problem = "line " + std::to_string(line.number) +
                       " is not JSON: " + document_.error().message;
    } else if (!document_.root().is_object()) {
      event->problem = "line " + std::to_string(line.number) + " is not a JSON object";
    } else {
      event->value = &document_.root();
    }
    return true;
  }

 private:
  Limits limits_;
  jsonl::LineReader lines_;
  json::Document document_;
  std::uint64_t count_ = 0;
};

// The first 16 hex digits of a hash as a number: enough to find which earlier event a link
// names, in 8 bytes an event.
std::uint64_t Prefix(std::string_view hash) {
  std::uint64_t value = 0;
  std::from_chars(hash.data(), hash.data() + std::min<std::size_t>(16, hash.size()), value, 16);
  return value;
}

// What Verify keeps between events.
class ChainState {
 public:
  // Checks event `e` against the chain so far; records the first break.
  void Check(const ReadEvent& e, ChainVerdict* verdict) {
    const json::Value* hash = e.value ? e.value->Find("hash") : nullptr;
    const json::Value* prev = e.value ? e.value->Find("prev_hash") : nullptr;
    stored_.push_back(hash && hash->is_string() ? Prefix(hash->text()) : 0);
    if (lookahead_ && hash && hash->is_string() && hash->text() == *lookahead_) {
      Fail(verdict, Break::kReordered,
           "its prev_hash names event " + std::to_string(e.index) + ", which comes after it");
      lookahead_.reset();
    }
    if (!verdict->intact() || lookahead_) return;
    at_ = e.index;
    if (!e.value) return Fail(verdict, Break::kUnreadable, e.problem);
    if (!hash || !hash->is_string() || !prev || !(prev->is_null() || prev->is_string())) {
      return Fail(verdict, Break::kNoHash, "it has no string \"hash\", or no \"prev_hash\" "
                                           "that is null or a string");
    }
    Result<std::string> computed = EventHash(*e.value);
    if (!computed.ok()) return Fail(verdict, Break::kUnreadable, computed.status().message());
    if (*computed != hash->text()) {
      return Fail(verdict, Break::kContentChanged,
                  "its stored hash is not the hash of its content (" + *computed + ")");
    }
    CheckLink(e.index, *prev, verdict);
    previous_hash_ = std::string(hash->text());
  }

  // At the end: a link whose target never came names a deleted event.
  void Finish(ChainVerdict* verdict) {
    if (!lookahead_) return;
    Fail(verdict, Break::kDeleted,
         "its prev_hash names no event of the file: the event before it was deleted");
  }

 private:
  void CheckLink(std::uint64_t index, const json::Value& prev, ChainVerdict* verdict) {
    if (index == 0) {
      if (!prev.is_null()) {
        Fail(verdict, Break::kStartsMidChain,
             "the first event's prev_hash is not null: the events before it were deleted");
      }
      return;
    }
    if (prev.is_null()) {
      return Fail(verdict, Break::kReordered,
                  "its prev_hash is null, as only the first event's may be");
    }
    if (prev.text() == previous_hash_) return;
    const std::uint64_t target = Prefix(prev.text());
    for (std::uint64_t j = 0; j + 1 < index; ++j) {
      if (stored_[j] == target) {
        return Fail(verdict, Break::kInserted,
                    "its prev_hash names event " + std::to_string(j) + ", not event " +
                        std::to_string(index - 1) + ": the events between were inserted");
      }
    }
    lookahead_ = std::string(prev.text());  // later in the file (reordered), or nowhere (deleted)
  }

  void Fail(ChainVerdict* verdict, Break kind, std::string why) {
    verdict->first_break = kind;
    verdict->first_broken = at_;
    verdict->reason = "event " + std::to_string(at_) + ": " + why;
  }

  std::vector<std::uint64_t> stored_;  // Prefix of each event's stored hash
  std::string previous_hash_;
  std::optional<std::string> lookahead_;  // the first broken link's target, searched for ahead
  std::uint64_t at_ = 0;                  // the event being checked
};

// `event` as a chain writer writes it, without "hash": sorted members, prev_hash set, and
// schema_version set when it is missing.
std::string WithLink(const json::Value& event, const std::string& prev_hash) {
  struct Override {
    std::string_view name;
    std::string json;
  };
  std::vector<Override> overrides;
  std::string prev = "null";
  if (!prev_hash.empty()) {
    prev.clear();
    json::AppendQuoted(prev_hash, &prev);
  }
  overrides.push_back({"prev_hash", prev});
  if (!event.Find("schema_version")) {
    std::string version;
    json::AppendQuoted(kSchemaVersion, &version);
    overrides.push_back({"schema_version", version});  // sorts after prev_hash
  }
  std::string out = "{";
  auto append = [&](std::string_view name, auto&& write_value) {
    if (out.size() > 1) out += ',';
    json::AppendQuoted(name, &out);
    out += ':';
    write_value();
  };
  std::size_t next = 0;
  auto flush_before = [&](std::string_view name) {
    for (; next < overrides.size() && overrides[next].name < name; ++next) {
      append(overrides[next].name, [&] { out += overrides[next].json; });
    }
  };
  for (const json::Member* m : json::MembersSortedLastWins(event)) {
    if (m->name == "hash" || m->name == "prev_hash") continue;
    flush_before(m->name);
    append(m->name, [&] { json::Write(m->value, &out, json::WriteStyle::kPython); });
  }
  flush_before("\xff");
  out += '}';
  return out;
}

}  // namespace

jsonl::LineOptions LineOptionsFor(const Limits& limits) {
  jsonl::LineOptions options;
  options.max_line_bytes = limits.max_line_bytes;
  options.max_total_bytes = UINT64_MAX;
  return options;
}

json::ParseOptions ParseOptionsFor(const Limits& limits) {
  json::ParseOptions options;
  options.max_depth = static_cast<std::uint32_t>(std::min<std::uint64_t>(
      limits.max_json_depth, std::numeric_limits<std::uint32_t>::max()));
  return options;
}

Result<std::string> CanonicalBytes(const json::Value& event) {
  return canonical::PythonSortedJson(event, "hash");
}

Result<std::string> EventHash(const json::Value& event) {
  Result<std::string> bytes = CanonicalBytes(event);
  if (!bytes.ok()) return bytes.status();
  return Sha256Hex(*bytes);
}

std::string_view BreakName(Break b) {
  switch (b) {
    case Break::kNone:
      return "none";
    case Break::kUnreadable:
      return "unreadable";
    case Break::kNoHash:
      return "no-hash";
    case Break::kContentChanged:
      return "content-changed";
    case Break::kStartsMidChain:
      return "starts-mid-chain";
    case Break::kInserted:
      return "inserted";
    case Break::kReordered:
      return "reordered";
    case Break::kDeleted:
      return "deleted";
  }
  return "none";
}

Result<ChainVerdict> Verify(jsonl::ByteSource* events, const Limits& limits) {
  EventReader reader(events, limits);
  ChainState chain;
  ChainVerdict verdict;
  ReadEvent event;
  for (;;) {
    Result<bool> more = reader.Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) break;
    ++verdict.events;
    chain.Check(event, &verdict);
  }
  chain.Finish(&verdict);
  return verdict;
}

Status HashEach(jsonl::ByteSource* events, const Limits& limits,
                const std::function<void(std::uint64_t, const Result<std::string>&)>& on_event) {
  EventReader reader(events, limits);
  ReadEvent event;
  for (;;) {
    Result<bool> more = reader.Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return Status::Ok();
    on_event(event.index, event.value ? EventHash(*event.value)
                                      : Result<std::string>(
                                            Status(StatusCode::kParseError, event.problem)));
  }
}

Status WriteChain(jsonl::ByteSource* events, const Limits& limits, std::string* out) {
  EventReader reader(events, limits);
  ReadEvent event;
  std::string prev_hash;
  for (;;) {
    Result<bool> more = reader.Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return Status::Ok();
    const std::string where = "event " + std::to_string(event.index) + ": ";
    if (!event.value) return Status(StatusCode::kParseError, where + event.problem);
    if (std::optional<std::string> at = canonical::FirstFloat(*event.value)) {
      return Status(StatusCode::kInvalidArgument, where + *at + " is a float");
    }
    const json::Value* version = event.value->Find("schema_version");
    if (version && !(version->is_string() && version->text() == kSchemaVersion)) {
      return Status(StatusCode::kUnsupported,
                    where + "schema_version is not \"1\", the version this writer implements");
    }
    const std::string canonical = WithLink(*event.value, prev_hash);
    prev_hash = Sha256Hex(canonical);
    out->append(canonical, 0, canonical.size() - 1);
    *out += ",\"hash\":\"" + prev_hash + "\"}\n";
  }
}

}  // namespace arcs::lightbox
