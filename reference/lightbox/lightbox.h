// Lightbox v1 (lightbox.md): the reference hash chain. An event's hash is the lowercase hex
// SHA-256 of its canonical bytes: the event without its "hash" member, as Python's
// json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False) writes it (the rule list;
// the code sample's default ASCII escaping contradicts it: errata LB-E23). The bytes on disk are
// not the canonical bytes (the upstream recorder writes lines with Python's default escaping),
// so every event is parsed and re-serialized.
//
// Everything streams: memory grows with the longest line, plus 8 bytes per event kept to tell a
// reordered chain from a deleted or inserted event at the first broken link. Whether the events
// follow the field tables and the async, retry and redaction rules is the validator's question
// (conformance/lightbox/checker.h); this file is the chain.
#ifndef ARCS_REFERENCE_LIGHTBOX_LIGHTBOX_H_
#define ARCS_REFERENCE_LIGHTBOX_LIGHTBOX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/status.h"

namespace arcs::lightbox {

// "Always "1" for this version"; writers "MUST set schema_version to exactly the version they
// implement".
inline constexpr std::string_view kSchemaVersion = "1";

struct Limits {
  std::uint64_t max_line_bytes = 64ull << 20;
  std::uint64_t max_events = 100'000'000;
  std::uint64_t max_json_depth = 128;
};

jsonl::LineOptions LineOptionsFor(const Limits& limits);
json::ParseOptions ParseOptionsFor(const Limits& limits);

// The canonical bytes of an event (an object; its "hash" member left out), or kInvalidArgument
// for a float anywhere in it.
Result<std::string> CanonicalBytes(const json::Value& event);

// The lowercase hex SHA-256 of CanonicalBytes.
Result<std::string> EventHash(const json::Value& event);

// Where and why a chain breaks.
enum class Break : std::uint8_t {
  kNone,            // every event's hash and link hold
  kUnreadable,      // a line that is not a JSON object, or holds a float: nothing to hash
  kNoHash,          // "hash" is missing or not a string; or "prev_hash" missing or mistyped
  kContentChanged,  // the stored hash is not the hash of the event: it was edited
  kStartsMidChain,  // the first event's prev_hash is not null: events before it were deleted
  kInserted,        // prev_hash names an earlier event but not the previous one
  kReordered,       // prev_hash names an event that comes later in the file
  kDeleted,         // prev_hash names no event of the file: the one before it was deleted
};
std::string_view BreakName(Break b);  // "none", "unreadable", "no-hash", "content-changed", ...

struct ChainVerdict {
  std::uint64_t events = 0;  // events read (all of them, also past a break)
  Break first_break = Break::kNone;
  std::uint64_t first_broken = 0;  // 0-based index of the first broken event, when any
  std::string reason;              // "event 3: its stored hash is not the hash of its content"
  bool intact() const { return first_break == Break::kNone; }
};

// Calls on_event(index, event or null, why null) for each event of events.jsonl in order: blank
// lines are skipped, a line that is not a JSON object (or is too long) comes as null with the
// reason. Status only for I/O errors and max_events.
Status ForEachEvent(jsonl::ByteSource* events, const Limits& limits,
                    const std::function<void(std::uint64_t index, const json::Value* event,
                                             std::string_view problem)>& on_event);

// Verify's state, for a caller that reads the events itself (the validator reads each line once
// for all its rules). Keeps 8 bytes an event, and the facts and canonical forms of the events
// queued and not yet settled.
class ChainChecker {
 public:
  ChainChecker();
  ~ChainChecker();
  ChainChecker(const ChainChecker&) = delete;
  ChainChecker& operator=(const ChainChecker&) = delete;

  // The next event: its parsed object, or null and why it has none (not JSON, too long, ...);
  // checked at once (Queue, then Settle).
  void Add(const json::Value* event, std::string_view problem);
  // The same for events checked together, whose hashes are computed side by side (Sha256Batch):
  // Queue writes the event's canonical form, so its object may go once it returns; Settle checks
  // every event queued since the last Settle, in order.
  void Queue(const json::Value* event, std::string_view problem);
  void Settle();
  std::size_t queued() const;  // events queued and not yet settled
  // EventHash of the k-th event the last Settle (or Add) checked, so that a caller need not
  // compute it again (until the next Queue); nothing for a line with no event. Every event is
  // hashed, also past a break.
  std::optional<Result<std::string_view>> SettledHash(std::size_t k) const;
  // The verdict once every event was added (those still queued are settled first).
  ChainVerdict Finish();

 private:
  friend Result<ChainVerdict> Verify(jsonl::ByteSource*, const Limits&, unsigned);
  struct State;
  std::unique_ptr<State> state_;
};

// Verifies the chain of events.jsonl: prev_hash null for the first event, each prev_hash equal
// to the previous event's hash, each hash equal to the computed one. Blank lines are skipped (a
// trailing newline is not an event). Status only for I/O errors and limits.
Result<ChainVerdict> Verify(jsonl::ByteSource* events, const Limits& limits);
// The same verdict with `threads` threads parsing and hashing events (each event's hash is
// independent of the chain), the chain checked in order; 1 is the one-thread Verify above.
Result<ChainVerdict> Verify(jsonl::ByteSource* events, const Limits& limits, unsigned threads);
// The cores this machine has: the default of `arcs lightbox verify -j`.
unsigned DefaultVerifyThreads();

// Calls on_event(index, hash or the reason there is none) for each event, in order.
Status HashEach(jsonl::ByteSource* events, const Limits& limits,
                const std::function<void(std::uint64_t, const Result<std::string>&)>& on_event);

// Writes a chain: each input line is an event (a JSON object; prev_hash and hash, when present,
// are replaced), written with schema_version set when it is missing, its prev_hash, and its hash,
// as one canonical line (sorted keys, no ASCII escaping) with "hash" last. Fails on the first
// line that is not an object, holds a float, or has a schema_version other than "1".
Status WriteChain(jsonl::ByteSource* events, const Limits& limits, std::string* out);

}  // namespace arcs::lightbox

#endif  // ARCS_REFERENCE_LIGHTBOX_LIGHTBOX_H_
