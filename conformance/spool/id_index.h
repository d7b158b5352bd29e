// The Spool validator's index of entry ids (conformance/spool/checker.cc): each entry's record,
// found by its id, for the cross-entry rules, in a few bytes per entry. In a header of its own so
// that its packing, its growth and its capacity are tested directly (id_index_test.cc).
#ifndef ARCS_CONFORMANCE_SPOOL_ID_INDEX_H_
#define ARCS_CONFORMANCE_SPOOL_ID_INDEX_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "reference/core/text_formats.h"

namespace arcs::conformance::spool {

// Open addressing over indices into a list of records: 4 bytes a slot, the table at most 3/4 full
// and doubled (from 1024 slots) when it would be fuller. The records stay in a deque, which never
// over-allocates by more than one block. Record needs `Uuid id` and `bool duplicated`.
//
// A slot holds a record's index in its high bits and a tag in the low ones: bits of the id's hash
// that the slot's position does not use. A probe compares tags first and reads the record (in the
// deque, elsewhere in memory) only when they match, so probing past other ids stays in the table.
// With 2^k slots an index needs k bits (there are fewer than 3/4 * 2^k records), which leaves
// 32 - k bits for the tag: 22 at first, 5 at 2^27 slots (100 million entries, the default
// max_entries), 1 at 2^31 slots, the largest table. Capacity: 3/4 * 2^31 = 1,610,612,736 records.
// max_entries can be set higher, so Insert() does not assume it: at capacity it adds nothing and
// says kFull (the checker reports that and stops); an index is never truncated or wrapped.
//
// The slot and the tag are both cut from the hash, low and high bits, so the hash must spread
// every bit of an id over all 64 (UuidHash does): ids that differ only in a few digits, as counter
// and time-ordered ids do, must still land in scattered slots, or the probes grow with the table.
// Probes() measures that, for the tests.
template <typename Record>
class IdIndex {
 public:
  enum class Inserted : std::uint8_t { kAdded, kDuplicate, kFull };
  static constexpr int kMinSlotBits = 10;  // the first table: 1024 slots
  static constexpr int kMaxSlotBits = 31;  // tag bits = 32 - slot bits must stay >= 1

  // A smaller table limit (10 to kMaxSlotBits) is for tests of the capacity.
  explicit IdIndex(int max_slot_bits = kMaxSlotBits)
      : max_slot_bits_(max_slot_bits < kMinSlotBits   ? kMinSlotBits
                       : max_slot_bits > kMaxSlotBits ? kMaxSlotBits
                                                      : max_slot_bits) {}

  // How long the probes are, for tests of the hash's spread (id_index_test.cc), in O(table size):
  // over the ids held, the mean and the largest number of slots Find() reads to reach one (1: its
  // own slot), and the longest run of occupied slots, which bounds the walk for an absent id.
  struct ProbeStats {
    double mean = 0;
    std::size_t max = 0;
    std::size_t longest_run = 0;
  };
  ProbeStats Probes() const {
    ProbeStats stats;
    if (records_.empty()) return stats;
    std::size_t total = 0, run = 0;
    // Start after an empty slot (a quarter of them are) so that no run wraps around uncounted.
    std::size_t start = 0;
    while (slots_[start] != kEmpty) ++start;
    for (std::size_t n = 1; n <= slots_.size(); ++n) {
      const std::size_t i = (start + n) & mask_;
      const std::uint32_t slot = slots_[i];
      if (slot == kEmpty) {
        run = 0;
        continue;
      }
      const std::size_t home = Hash(records_[slot >> tag_bits_].id) & mask_;
      const std::size_t probes = ((i - home) & mask_) + 1;
      total += probes;
      if (probes > stats.max) stats.max = probes;
      if (++run > stats.longest_run) stats.longest_run = run;
    }
    stats.mean = static_cast<double>(total) / static_cast<double>(records_.size());
    return stats;
  }

  // The most records the index can hold.
  std::size_t capacity() const { return (std::size_t{1} << max_slot_bits_) / 4 * 3; }
  std::size_t size() const { return records_.size(); }

  const Record* Find(const Uuid& id) const {
    if (slots_.empty()) return nullptr;
    const std::uint64_t hash = Hash(id);
    const std::uint32_t tag = Tag(hash);
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const std::uint32_t slot = slots_[i];
      if (slot == kEmpty) return nullptr;
      if ((slot & tag_mask_) == tag && records_[slot >> tag_bits_].id == id) {
        return &records_[slot >> tag_bits_];
      }
    }
  }

  // The hash of `id`, after asking the CPU to fetch the slot its probe starts at. A table of
  // megabytes makes that slot a cache miss; asked for early (the checker does so as soon as it has
  // read an entry's id, and inserts it after the entry's other checks), the miss is not waited on.
  std::uint64_t Prefetch(const Uuid& id) const {
    const std::uint64_t hash = Hash(id);
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_]);
    return hash;
  }
  // Adds the record. kDuplicate: the id is present; that record is marked duplicated and nothing
  // is added. kFull: the index holds capacity() records and this id is not one of them; nothing
  // is added.
  Inserted Insert(const Record& record) { return Insert(record, Hash(record.id)); }
  // The same, with `hash` = Prefetch(record.id).
  Inserted Insert(const Record& record, std::uint64_t hash) {
    // A full table still has a quarter of its slots empty, so the probe below ends either way.
    const bool room = (records_.size() + 1) * 4 <= slots_.size() * 3 || Grow();
    const std::uint32_t tag = Tag(hash);
    std::size_t i = hash & mask_;
    for (; slots_[i] != kEmpty; i = (i + 1) & mask_) {
      const std::uint32_t slot = slots_[i];
      if ((slot & tag_mask_) == tag && records_[slot >> tag_bits_].id == record.id) {
        records_[slot >> tag_bits_].duplicated = true;
        return Inserted::kDuplicate;
      }
    }
    if (!room) return Inserted::kFull;
    slots_[i] = static_cast<std::uint32_t>(records_.size()) << tag_bits_ | tag;
    records_.push_back(record);
    return Inserted::kAdded;
  }

 private:
  // No slot is ever all ones: an index is below 3/4 * 2^k, so a slot is below 3/4 * 2^32.
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFF;

  // The tag takes the hash's top bits, which a 32-bit size_t would leave zero.
  static_assert(sizeof(std::size_t) == 8, "UuidHash must give 64 bits");
  static std::uint64_t Hash(const Uuid& id) { return UuidHash()(id); }
  // The hash's top bits; the slot position takes its low ones (k + tag bits = 32 <= 64).
  std::uint32_t Tag(std::uint64_t hash) const {
    return static_cast<std::uint32_t>(hash >> (64 - tag_bits_));
  }

  // Doubles the table and rebuilds it from the records (the tags get one bit shorter). Returns
  // false, changing nothing, when the table is at its largest.
  bool Grow() {
    const int bits = slots_.empty() ? kMinSlotBits : slot_bits_ + 1;
    if (bits > max_slot_bits_) return false;
    // Free the old table before allocating the new one: the rebuild needs only the records, and
    // holding both would be the peak of memory per entry.
    std::vector<std::uint32_t>().swap(slots_);
    slots_.assign(std::size_t{1} << bits, kEmpty);
    slot_bits_ = bits;
    mask_ = slots_.size() - 1;
    tag_bits_ = 32 - bits;
    tag_mask_ = (std::uint32_t{1} << tag_bits_) - 1;
    // Each record's slot is a random one of the new table: hashes are taken kAhead records early
    // and their slots fetched then, so that the misses overlap.
    constexpr std::size_t kAhead = 16;
    std::array<std::uint64_t, kAhead> ahead;
    const std::size_t count = records_.size();
    for (std::size_t r = 0; r < std::min(kAhead, count); ++r) ahead[r] = Prefetch(records_[r].id);
    for (std::uint32_t r = 0; r < count; ++r) {
      const std::uint64_t hash = ahead[r % kAhead];
      if (r + kAhead < count) ahead[r % kAhead] = Prefetch(records_[r + kAhead].id);
      std::size_t i = hash & mask_;
      while (slots_[i] != kEmpty) i = (i + 1) & mask_;
      slots_[i] = r << tag_bits_ | Tag(hash);
    }
    return true;
  }

  std::deque<Record> records_;
  std::vector<std::uint32_t> slots_;
  std::size_t mask_ = 0;
  int max_slot_bits_;
  int slot_bits_ = 0;
  int tag_bits_ = 0;
  std::uint32_t tag_mask_ = 0;
};

}  // namespace arcs::conformance::spool

#endif  // ARCS_CONFORMANCE_SPOOL_ID_INDEX_H_
