#include "reference/core/pages_faulted_ahead.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

namespace arcs {
namespace {

// A fresh anonymous mapping of `size` bytes in 4 KiB pages, unmapped on destruction, so that
// residence is counted page by page whatever the kernel's huge page mode.
class Mapping {
 public:
  explicit Mapping(std::size_t size)
      : size_(size),
        data_(::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) {
#if defined(MADV_NOHUGEPAGE)
    if (ok()) (void)::madvise(data_, size_, MADV_NOHUGEPAGE);
#endif
  }
  ~Mapping() {
    if (ok()) ::munmap(data_, size_);
  }
  bool ok() const { return data_ != MAP_FAILED; }
  char* data() const { return static_cast<char*>(data_); }

  // How many of the pages of [from, to) are resident (mincore).
  std::size_t ResidentPages(std::size_t from, std::size_t to) const {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> resident((to - from) / page);
    if (::mincore(data() + from, to - from, resident.data()) != 0) return 0;
    std::size_t count = 0;
    for (unsigned char r : resident) count += r & 1;
    return count;
  }

 private:
  std::size_t size_;
  void* data_;
};

bool KernelPopulatesWrites() {
#if defined(MADV_POPULATE_WRITE)
  Mapping probe(4096);
  return probe.ok() && ::madvise(probe.data(), 4096, MADV_POPULATE_WRITE) == 0;
#else
  return false;
#endif
}

// Every page of a large fresh buffer is resident once the helper is done, though the caller wrote
// none.
TEST(PagesFaultedAheadTest, FaultsInTheWholeBuffer) {
  if (!KernelPopulatesWrites() || std::thread::hardware_concurrency() < 2) {
    GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE, or the machine one core";
  }
  const std::size_t size = PagesFaultedAhead::kFaultAheadMin;
  Mapping buffer(size);
  ASSERT_TRUE(buffer.ok());
  {
    PagesFaultedAhead ahead(buffer.data(), size);
    EXPECT_TRUE(ahead.started());
  }
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  EXPECT_EQ(buffer.ResidentPages(0, size), size / page);
}

// What the caller writes, before or while the helper runs, stays written.
TEST(PagesFaultedAheadTest, KeepsWhatIsWritten) {
  const std::size_t size = PagesFaultedAhead::kFaultAheadMin + 12345;
  Mapping buffer(size);
  ASSERT_TRUE(buffer.ok());
  auto write = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; i += 1000) buffer.data()[i] = static_cast<char>(i % 251);
  };
  write(size / 2 / 1000 * 1000, size);
  {
    PagesFaultedAhead ahead(buffer.data() + 1, size - 1);
    write(0, size / 2);
  }
  for (std::size_t i = 0; i < size; i += 1000) {
    ASSERT_EQ(buffer.data()[i], static_cast<char>(i % 251)) << i;
  }
}

// Below the threshold no thread is worth starting.
TEST(PagesFaultedAheadTest, LeavesSmallBuffersAlone) {
  std::string small(PagesFaultedAhead::kFaultAheadMin - 1, 'x');
  PagesFaultedAhead ahead(small.data(), small.size());
  EXPECT_FALSE(ahead.started());
  EXPECT_EQ(small, std::string(PagesFaultedAhead::kFaultAheadMin - 1, 'x'));
}

}  // namespace
}  // namespace arcs
