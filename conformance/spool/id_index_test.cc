#include "conformance/spool/id_index.h"

#include <gtest/gtest.h>

#include <cstring>

namespace arcs::conformance::spool {
namespace {

struct Record {
  Uuid id;
  std::uint32_t value;
  bool duplicated;
};

Uuid IdOf(std::uint64_t n) {
  Uuid id{};
  std::memcpy(id.data() + 4, &n, sizeof n);  // distinct ids, hashed like any others
  return id;
}

TEST(IdIndex, FindsWhatItHoldsAcrossGrowth) {
  IdIndex<Record> index;
  constexpr std::uint32_t kCount = 200000;  // grows from 1024 slots to 2^18
  for (std::uint32_t n = 0; n < kCount; ++n) {
    ASSERT_EQ(index.Insert({IdOf(n), n, false}), IdIndex<Record>::Inserted::kAdded) << n;
  }
  EXPECT_EQ(index.size(), kCount);
  for (std::uint32_t n = 0; n < kCount; ++n) {
    const Record* r = index.Find(IdOf(n));
    ASSERT_NE(r, nullptr) << n;
    EXPECT_EQ(r->value, n);
    EXPECT_FALSE(r->duplicated);
  }
  for (std::uint64_t n = kCount; n < 2 * kCount; ++n) EXPECT_EQ(index.Find(IdOf(n)), nullptr);
}

TEST(IdIndex, DuplicatesMarkTheFirstAndAddNothing) {
  IdIndex<Record> index;
  EXPECT_EQ(index.Find(IdOf(1)), nullptr);  // empty: no table yet
  ASSERT_EQ(index.Insert({IdOf(1), 10, false}), IdIndex<Record>::Inserted::kAdded);
  ASSERT_EQ(index.Insert({IdOf(2), 20, false}), IdIndex<Record>::Inserted::kAdded);
  EXPECT_EQ(index.Insert({IdOf(1), 30, false}), IdIndex<Record>::Inserted::kDuplicate);
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.Find(IdOf(1))->value, 10u);
  EXPECT_TRUE(index.Find(IdOf(1))->duplicated);
  EXPECT_FALSE(index.Find(IdOf(2))->duplicated);
}

// Full means full, never a wrapped index or a lost record; duplicates are still recognized.
TEST(IdIndex, RefusesRecordsBeyondItsCapacity) {
  IdIndex<Record> index(12);  // at most 4096 slots: 3072 records
  ASSERT_EQ(index.capacity(), 3072u);
  for (std::uint32_t n = 0; n < 3072; ++n) {
    ASSERT_EQ(index.Insert({IdOf(n), n, false}), IdIndex<Record>::Inserted::kAdded) << n;
  }
  EXPECT_EQ(index.Insert({IdOf(5000), 0, false}), IdIndex<Record>::Inserted::kFull);
  EXPECT_EQ(index.Insert({IdOf(7), 0, false}), IdIndex<Record>::Inserted::kDuplicate);
  EXPECT_EQ(index.size(), 3072u);
  EXPECT_EQ(index.Find(IdOf(5000)), nullptr);
  for (std::uint32_t n = 0; n < 3072; ++n) ASSERT_EQ(index.Find(IdOf(n))->value, n);
  EXPECT_TRUE(index.Find(IdOf(7))->duplicated);
  // The default table limit holds far more than the default max_entries (10^8).
  EXPECT_GT(IdIndex<Record>().capacity(), std::size_t{1} << 30);
}

}  // namespace
}  // namespace arcs::conformance::spool
