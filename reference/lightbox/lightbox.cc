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
      event->problem =
          "line " + std::to_string(line.number) + " is not JSON: " + document_.error().message;
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
  if (!event.FindLast("schema_version")) {
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

struct ChainChecker::State {
  // Checks event `index` against the chain so far; records the first break.
  void Check(std::uint64_t index, const json::Value* event, std::string_view problem) {
    const json::Value* hash = event ? event->FindLast("hash") : nullptr;
    const json::Value* prev = event ? event->FindLast("prev_hash") : nullptr;
    stored.push_back(hash && hash->is_string() ? Prefix(hash->text()) : 0);
    if (lookahead && hash && hash->is_string() && hash->text() == *lookahead) {
      Fail(Break::kReordered,
           "its prev_hash names event " + std::to_string(index) + ", which comes after it");
      lookahead.reset();
    }
    if (!verdict.intact() || lookahead) return;
    at = index;
    if (!event) return Fail(Break::kUnreadable, std::string(problem));
    if (!hash || !hash->is_string() || !prev || !(prev->is_null() || prev->is_string())) {
      return Fail(Break::kNoHash,
                  "it has no string \"hash\", or no \"prev_hash\" that is null or a string");
    }
    Result<std::string> computed = EventHash(*event);
    if (!computed.ok()) return Fail(Break::kUnreadable, computed.status().message());
    if (*computed != hash->text()) {
      return Fail(Break::kContentChanged,
                  "its stored hash is not the hash of its content (" + *computed + ")");
    }
    CheckLink(index, *prev);
    previous_hash = std::string(hash->text());
  }

  void CheckLink(std::uint64_t index, const json::Value& prev) {
    if (index == 0) {
      if (!prev.is_null()) {
        Fail(Break::kStartsMidChain,
             "the first event's prev_hash is not null: the events before it were deleted");
      }
      return;
    }
    if (prev.is_null()) {
      return Fail(Break::kReordered, "its prev_hash is null, as only the first event's may be");
    }
    if (prev.text() == previous_hash) return;
    const std::uint64_t target = Prefix(prev.text());
    for (std::uint64_t j = 0; j + 1 < index; ++j) {
      if (stored[j] == target) {
        return Fail(Break::kInserted, "its prev_hash names event " + std::to_string(j) +
                                          ", not event " + std::to_string(index - 1) +
                                          ": the events between were inserted");
      }
    }
    lookahead = std::string(prev.text());  // later in the file (reordered), or nowhere (deleted)
  }

  void Fail(Break kind, std::string why) {
    verdict.first_break = kind;
    verdict.first_broken = at;
    verdict.reason = "event " + std::to_string(at) + ": " + why;
  }

  ChainVerdict verdict;
  std::vector<std::uint64_t> stored;  // Prefix of each event's stored hash
  std::string previous_hash;
  std::optional<std::string> lookahead;  // the first broken link's target, searched for ahead
  std::uint64_t at = 0;                  // the event being checked
};

ChainChecker::ChainChecker() : state_(std::make_unique<State>()) {}
ChainChecker::~ChainChecker() = default;

void ChainChecker::Add(const json::Value* event, std::string_view problem) {
  state_->Check(state_->verdict.events++, event, problem);
}

ChainVerdict ChainChecker::Finish() {
  if (state_->lookahead) {
    state_->Fail(Break::kDeleted,
                 "its prev_hash names no event of the file: the event before it was deleted");
  }
  return state_->verdict;
}

jsonl::LineOptions LineOptionsFor(const Limits& limits) {
  jsonl::LineOptions options;
  options.max_line_bytes = limits.max_line_bytes;
  options.max_total_bytes = UINT64_MAX;
  return options;
}

json::ParseOptions ParseOptionsFor(const Limits& limits) {
  json::ParseOptions options;
  options.max_depth = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(limits.max_json_depth, std::numeric_limits<std::uint32_t>::max()));
  return options;
}

Result<std::string> CanonicalBytes(const json::Value& event) {
  return canonical::PythonSortedJson(event, "hash");
}

Result<std::string> EventHash(const json::Value& event) {
  thread_local std::string bytes;  // reused: verification hashes every event of a log
  bytes.clear();
  if (Status s = canonical::AppendPythonSortedJson(event, "hash", &bytes); !s.ok()) return s;
  return Sha256Hex(bytes);
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

Status ForEachEvent(
    jsonl::ByteSource* events, const Limits& limits,
    const std::function<void(std::uint64_t, const json::Value*, std::string_view)>& on_event) {
  EventReader reader(events, limits);
  ReadEvent event;
  for (;;) {
    Result<bool> more = reader.Next(&event);
    if (!more.ok()) return more.status();
    if (!*more) return Status::Ok();
    on_event(event.index, event.value, event.problem);
  }
}

Result<ChainVerdict> Verify(jsonl::ByteSource* events, const Limits& limits) {
  ChainChecker chain;
  Status s = ForEachEvent(events, limits,
                          [&](std::uint64_t, const json::Value* event, std::string_view problem) {
                            chain.Add(event, problem);
                          });
  if (!s.ok()) return s;
  return chain.Finish();
}

Status HashEach(jsonl::ByteSource* events, const Limits& limits,
                const std::function<void(std::uint64_t, const Result<std::string>&)>& on_event) {
  return ForEachEvent(
      events, limits, [&](std::uint64_t index, const json::Value* event, std::string_view problem) {
        on_event(index, event ? EventHash(*event)
                              : Result<std::string>(
                                    Status(StatusCode::kParseError, std::string(problem))));
      });
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
    const json::Value* version = event.value->FindLast("schema_version");
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
