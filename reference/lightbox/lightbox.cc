#include "reference/lightbox/lightbox.h"

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "reference/core/canonical.h"
#include "reference/core/sha256.h"
#include "reference/core/worker_pool.h"

namespace arcs::lightbox {
namespace {

std::string Sha256Hex(std::string_view bytes) { return ToHex(Sha256::Of(bytes)); }

// One event as read: its parsed object, or why there is none.
struct ReadEvent {
  std::uint64_t index = 0;
  const json::Value* value = nullptr;  // an object, or null when `problem` says why not
  std::string problem;
};

// One event's line parsed into `document`: the event, or null and why there is none. The line is
// copied, unless `in_buffer` holds its bytes where they may be parsed in place
// (Document::ParseInBuffer).
const json::Value* ParseEvent(const jsonl::Line& line, const Limits& limits,
                              json::Document* document, std::string* problem,
                              char* in_buffer = nullptr) {
  const json::ParseOptions options = ParseOptionsFor(limits);
  if (line.too_long) {
    *problem = "line " + std::to_string(line.number) + " is longer than " +
               std::to_string(limits.max_line_bytes) + " bytes (max_line_bytes)";
  } else if (!(in_buffer ? document->ParseInBuffer(in_buffer, line.text.size(), options)
                         : document->Parse(line.text, options))) {
    *problem = "line " + std::to_string(line.number) + " is not JSON: " + document->error().message;
  } else if (!document->root().is_object()) {
    *problem = "line " + std::to_string(line.number) + " is not a JSON object";
  } else {
    return &document->root();
  }
  return nullptr;
}

// The next line that is an event (blank lines are skipped), or false at the end; a Status for I/O
// errors and for max_events (`count`: the events read so far).
Result<bool> NextEventLine(jsonl::LineReader* lines, const Limits& limits, std::uint64_t count,
                           jsonl::Line* line) {
  do {
    Result<bool> more = lines->Next(line);
    if (!more.ok() || !*more) return more;
  } while (!line->too_long && jsonl::IsBlank(line->text));
  if (count == limits.max_events) {
    return Status(StatusCode::kLimitExceeded,
                  "more than " + std::to_string(limits.max_events) + " events (max_events)");
  }
  return true;
}

// Reads the events of events.jsonl one by one, skipping blank lines, into one reused Document.
class EventReader {
 public:
  EventReader(jsonl::ByteSource* source, const Limits& limits)
      : limits_(limits), lines_(source, LineOptionsFor(limits)) {}

  // False at the end; a Status for I/O errors and max_events.
  Result<bool> Next(ReadEvent* event) {
    jsonl::Line line;
    Result<bool> more = NextEventLine(&lines_, limits_, count_, &line);
    if (!more.ok() || !*more) return more;
    *event = ReadEvent{count_++, nullptr, ""};
    event->value = ParseEvent(line, limits_, &document_, &event->problem);
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

// What ChainChecker's state holds (so not in an anonymous namespace), shared with the parallel
// verifier's batches.
namespace chain_internal {

// What the chain check needs of one event. Taken where the event is read (by a worker, when
// verification runs in parallel), so that the check itself, in order, touches no JSON. Filled
// again for each event (FillFacts), its strings keeping their room: allocating three for each
// event, to be freed on the checking thread, cost two-thread verification about 7%.
struct EventFacts {
  std::string problem;  // why there is no event (not JSON, too long, not an object)
  bool readable = false;
  bool has_hash = false;
  std::string hash;  // "hash" (the last one), when a string
  enum class Prev : std::uint8_t { kMissing, kNull, kString, kOther } prev = Prev::kMissing;
  std::string prev_hash;   // "prev_hash" (the last one), when a string
  Status computed_status;  // EventHash's outcome, when it was asked for
  std::string computed_hash;

  // Strings of more than this many bytes are not kept from one event to the next (a "hash" of a
  // megabyte in one event must not stay held by the batch that read it).
  static constexpr std::size_t kKeptRoom = 256;
  void ReleaseLarge() {
    for (std::string* text : {&problem, &hash, &prev_hash, &computed_hash}) {
      if (text->capacity() > kKeptRoom) std::string().swap(*text);
    }
  }
};

void FillFacts(const json::Value* event, std::string_view problem, EventFacts* facts) {
  facts->problem.assign(problem);
  facts->readable = event != nullptr;
  facts->has_hash = false;
  facts->prev = EventFacts::Prev::kMissing;
  if (!event) return;
  const json::Value* hash = event->FindLast("hash");
  facts->has_hash = hash && hash->is_string();
  if (facts->has_hash) facts->hash.assign(hash->text());
  if (const json::Value* prev = event->FindLast("prev_hash")) {
    facts->prev = prev->is_null()     ? EventFacts::Prev::kNull
                  : prev->is_string() ? EventFacts::Prev::kString
                                      : EventFacts::Prev::kOther;
    if (prev->is_string()) facts->prev_hash.assign(prev->text());
  }
}

// Events' canonical forms, written one after another and then hashed side by side (Sha256Batch):
// 1.8 times as fast as one by one over the benchmark's 2 kB events (Sha256PerLine). Its room is
// kept from one use to the next, unless a long event grew it.
class CanonicalForms {
 public:
  void Clear() {
    if (text_.capacity() > kKeptRoom) std::string().swap(text_);
    text_.clear();
    ends_.clear();
    written_.clear();
  }
  // Writes the next event's form and returns EventHash's status for it: not ok for an event that
  // has none (a float). A null event is given no form, and no hash.
  Status Append(const json::Value* event) {
    const std::size_t start = text_.size();
    const Status status =
        event ? canonical::AppendPythonSortedJson(*event, "hash", &text_) : Status::Ok();
    if (!status.ok()) text_.resize(start);
    ends_.push_back(text_.size());
    written_.push_back(event != nullptr && status.ok());
    return status;
  }
  // The hash of the i-th form appended into facts[i].computed_hash, for each that has one.
  void Hash(EventFacts* facts) {
    const auto form = [&](std::size_t i) {
      const std::size_t start = i == 0 ? 0 : ends_[i - 1];
      return std::string_view(text_).substr(start, ends_[i] - start);
    };
    digests_.resize(ends_.size());
    Sha256Batch hashes;
    for (std::size_t i = 0; i < ends_.size(); ++i) {
      if (written_[i]) hashes.Add(form(i), &digests_[i]);
    }
    hashes.Flush();
    for (std::size_t i = 0; i < ends_.size(); ++i) {
      if (written_[i]) ToHex(digests_[i], &facts[i].computed_hash);
    }
  }

 private:
  static constexpr std::size_t kKeptRoom = 4 << 20;
  std::string text_;
  std::vector<std::size_t> ends_;  // form i ends there
  std::vector<bool> written_;      // whether form i was written
  std::vector<Sha256Digest> digests_;
};

}  // namespace chain_internal

using chain_internal::CanonicalForms;
using chain_internal::EventFacts;
using chain_internal::FillFacts;

struct ChainChecker::State {
  // Whether the next event's computed hash decides anything: not once the chain broke.
  bool NeedsHash() const { return verdict.intact() && !lookahead; }

  // Checks event `index` against the chain so far; records the first break.
  void Check(std::uint64_t index, const EventFacts& event) {
    stored.push_back(event.has_hash ? Prefix(event.hash) : 0);
    if (lookahead && event.has_hash && event.hash == *lookahead) {
      Fail(Break::kReordered,
           "its prev_hash names event " + std::to_string(index) + ", which comes after it");
      lookahead.reset();
    }
    if (!NeedsHash()) return;
    at = index;
    if (!event.readable) return Fail(Break::kUnreadable, event.problem);
    using Prev = EventFacts::Prev;
    if (!event.has_hash || event.prev == Prev::kMissing || event.prev == Prev::kOther) {
      return Fail(Break::kNoHash,
                  "it has no string \"hash\", or no \"prev_hash\" that is null or a string");
    }
    if (!event.computed_status.ok()) {
      return Fail(Break::kUnreadable, event.computed_status.message());
    }
    if (event.computed_hash != event.hash) {
      return Fail(Break::kContentChanged,
                  "its stored hash is not the hash of its content (" + event.computed_hash + ")");
    }
    CheckLink(index, event);
    previous_hash = event.hash;
  }

  void CheckLink(std::uint64_t index, const EventFacts& event) {
    const bool prev_null = event.prev == EventFacts::Prev::kNull;
    if (index == 0) {
      if (!prev_null) {
        Fail(Break::kStartsMidChain,
             "the first event's prev_hash is not null: the events before it were deleted");
      }
      return;
    }
    if (prev_null) {
      return Fail(Break::kReordered, "its prev_hash is null, as only the first event's may be");
    }
    if (event.prev_hash == previous_hash) return;
    const std::uint64_t target = Prefix(event.prev_hash);
    for (std::uint64_t j = 0; j + 1 < index; ++j) {
      if (stored[j] == target) {
        return Fail(Break::kInserted, "its prev_hash names event " + std::to_string(j) +
                                          ", not event " + std::to_string(index - 1) +
                                          ": the events between were inserted");
      }
    }
    lookahead = event.prev_hash;  // later in the file (reordered), or nowhere (deleted)
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

  // The events queued since the last Settle, and after it those it checked: the first `queued`
  // (or `settled`) of `queue`, the rest spare, filled again.
  std::vector<EventFacts> queue;
  std::size_t queued = 0;
  std::size_t settled = 0;
  CanonicalForms forms;
};

ChainChecker::ChainChecker() : state_(std::make_unique<State>()) {}
ChainChecker::~ChainChecker() = default;

void ChainChecker::Add(const json::Value* event, std::string_view problem) {
  Queue(event, problem);
  Settle();
}

void ChainChecker::Queue(const json::Value* event, std::string_view problem) {
  State& s = *state_;
  if (s.queued == 0) {
    s.settled = 0;
    s.forms.Clear();
  }
  if (s.queued == s.queue.size()) s.queue.emplace_back();
  EventFacts& facts = s.queue[s.queued++];
  facts.ReleaseLarge();
  FillFacts(event, problem, &facts);
  facts.computed_status = s.forms.Append(event);
}

void ChainChecker::Settle() {
  State& s = *state_;
  if (s.queued == 0) return;
  s.forms.Hash(s.queue.data());
  for (std::size_t i = 0; i < s.queued; ++i) s.Check(s.verdict.events++, s.queue[i]);
  s.settled = s.queued;
  s.queued = 0;
}

std::size_t ChainChecker::queued() const { return state_->queued; }

std::optional<Result<std::string_view>> ChainChecker::SettledHash(std::size_t k) const {
  const State& s = *state_;
  if (s.queued != 0 || k >= s.settled || !s.queue[k].readable) return std::nullopt;
  if (!s.queue[k].computed_status.ok()) return s.queue[k].computed_status;
  return std::string_view(s.queue[k].computed_hash);
}

ChainVerdict ChainChecker::Finish() {
  Settle();
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
  thread_local std::string bytes;  // reused: HashEach hashes every event of a log
  bytes.clear();
  if (Status s = canonical::AppendPythonSortedJson(event, "hash", &bytes); !s.ok()) return s;
  return ToHex(Sha256::Of(bytes));
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

namespace {

// Events for a worker: lines copied out of the reader, then each one's facts. Each line is
// followed by the room Document::ParseInBuffer pads it with, so the worker parses it where it
// stands rather than copy it once more.
struct Batch {
  static constexpr std::size_t kBytes = 1 << 20;
  static constexpr std::size_t kLines = 4096;
  static constexpr std::size_t kRoom = json::Document::kTakenTextSpare;
  std::string bytes;
  std::vector<jsonl::Line> lines;  // text left empty: line i is bytes[starts[i], ends[i])
  std::vector<std::size_t> starts;
  std::vector<std::size_t> ends;
  std::vector<EventFacts> facts;  // facts[i] is line i's; those past the lines are spare

  bool full() const { return bytes.size() >= kBytes || lines.size() >= kLines; }
  // Empty, with its capacity kept: a batch is used again rather than its memory faulted in anew,
  // and its facts filled again. Not a long line's, though: each batch would then hold one, and
  // memory grow with the workers.
  void Clear() {
    if (bytes.capacity() > 2 * kBytes) std::string().swap(bytes);
    bytes.clear();
    for (EventFacts& spare : facts) spare.ReleaseLarge();
    lines.clear();
    starts.clear();
    ends.clear();
  }
  void Add(const jsonl::Line& line) {
    starts.push_back(bytes.size());
    bytes.append(line.text);
    ends.push_back(bytes.size());
    bytes.append(kRoom, '\0');
    lines.push_back(line);
    lines.back().text = {};
  }
  // Each event's facts and hash.
  void ComputeFacts(const Limits& limits) {
    thread_local json::Document document;
    thread_local CanonicalForms forms;
    if (facts.size() < lines.size()) facts.resize(lines.size());
    forms.Clear();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      jsonl::Line line = lines[i];
      line.text = std::string_view(bytes).substr(starts[i], ends[i] - starts[i]);
      std::string problem;
      const json::Value* event =
          ParseEvent(line, limits, &document, &problem, bytes.data() + starts[i]);
      FillFacts(event, problem, &facts[i]);
      facts[i].computed_status = forms.Append(event);
    }
    forms.Hash(facts.data());
  }
};

// The shared side of a parallel verification: the one reader, from which each worker takes the
// next batch (copying lines is a small part of the work, and a batch copied by the worker that
// hashes it stays in that core's cache), and the finished batches, which the checking thread takes
// in order. At most 2 batches a worker are read and not yet checked, and checked ones are filled
// again, so memory stays a constant (each batch's 1 MiB of lines in at most 2 MiB of room: about
// 4 MiB a worker) plus the longest line.
class BatchQueue {
 public:
  BatchQueue(jsonl::ByteSource* events, const Limits& limits, unsigned workers)
      : limits_(limits), lines_(events, LineOptionsFor(limits)), most_ahead_(2 * workers) {}

  // A worker's loop: read a batch, compute its facts, hand it over; until the input ends. An
  // exception (memory exhausted) ends the process here rather than leave the checking thread
  // waiting for a batch that never comes.
  void Work() noexcept {
    while (WorkOnce()) {
    }
  }

  // One batch of that loop; false once the input has ended.
  bool WorkOnce() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return reading_done_ || next_ < checked_ + most_ahead_; });
    if (reading_done_) return false;
    const std::uint64_t sequence = next_++;
    std::unique_ptr<Batch> batch = ReadBatch();
    lock.unlock();
    batch->ComputeFacts(limits_);
    lock.lock();
    done_.emplace(sequence, std::move(batch));
    changed_.notify_all();
    return true;
  }

  // The checking thread's: batch `sequence` once it is done, or null after the last one.
  std::unique_ptr<Batch> Take(std::uint64_t sequence) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock,
                  [&] { return done_.contains(sequence) || (reading_done_ && sequence >= next_); });
    auto found = done_.find(sequence);
    if (found == done_.end()) return nullptr;
    std::unique_ptr<Batch> batch = std::move(found->second);
    done_.erase(found);
    checked_ = sequence + 1;
    changed_.notify_all();
    return batch;
  }

  // A checked batch, for ReadBatch to fill again.
  void Recycle(std::unique_ptr<Batch> batch) {
    batch->Clear();
    std::lock_guard lock(mutex_);
    spare_.push_back(std::move(batch));
  }

  // Why reading stopped before the end (I/O, max_events), once every batch is taken.
  const Status& status() const { return status_; }

 private:
  // The next lines, with the lock held; the end of input or a Status ends reading.
  std::unique_ptr<Batch> ReadBatch() {
    std::unique_ptr<Batch> batch;
    if (spare_.empty()) {
      batch = std::make_unique<Batch>();
    } else {
      batch = std::move(spare_.back());
      spare_.pop_back();
    }
    jsonl::Line line;
    while (!batch->full()) {
      Result<bool> more = NextEventLine(&lines_, limits_, events_, &line);
      if (!more.ok() || !*more) {
        if (!more.ok()) status_ = more.status();
        reading_done_ = true;
        break;
      }
      ++events_;
      batch->Add(line);
    }
    return batch;
  }

  const Limits limits_;
  std::mutex mutex_;
  std::condition_variable changed_;
  jsonl::LineReader lines_;
  std::uint64_t events_ = 0;   // events read
  std::uint64_t next_ = 0;     // the next batch's sequence number
  std::uint64_t checked_ = 0;  // batches taken by the checking thread
  const std::uint64_t most_ahead_;
  bool reading_done_ = false;
  Status status_;
  std::map<std::uint64_t, std::unique_ptr<Batch>> done_;
  std::vector<std::unique_ptr<Batch>> spare_;  // checked, to be filled again
};

}  // namespace

unsigned DefaultVerifyThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

// `threads` workers read, parse and hash batches of events; this thread checks the chain in order
// as they complete (with one thread, this thread reads and hashes each batch before it checks it).
// Every event is hashed, also past a break (ChainChecker::Add stops hashing there): the verdict is
// the same.
Result<ChainVerdict> Verify(jsonl::ByteSource* events, const Limits& limits, unsigned threads) {
  BatchQueue queue(events, limits, std::max(threads, 1u));
  ChainChecker chain;
  {
    std::optional<WorkerPool> workers;  // its destructor waits for the workers, which end with
                                        // the input
    if (threads > 1) {
      workers.emplace(threads);
      for (unsigned k = 0; k < threads; ++k) workers->Submit([&queue] { queue.Work(); });
    }
    for (std::uint64_t sequence = 0;; ++sequence) {
      if (!workers) (void)queue.WorkOnce();
      std::unique_ptr<Batch> batch = queue.Take(sequence);
      if (!batch) break;
      for (std::size_t i = 0; i < batch->lines.size(); ++i) {
        chain.state_->Check(chain.state_->verdict.events++, batch->facts[i]);
      }
      queue.Recycle(std::move(batch));
    }
  }
  if (!queue.status().ok()) return queue.status();
  return chain.Finish();
}

Result<ChainVerdict> Verify(jsonl::ByteSource* events, const Limits& limits) {
  return Verify(events, limits, 1);
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
