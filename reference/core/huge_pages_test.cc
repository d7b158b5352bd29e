#include "reference/core/huge_pages.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

namespace arcs {
namespace {

// The advice changes how memory is backed, never what it holds: buffers advised at every size
// around the threshold and at unaligned starts read back what was written, and a string reserved
// and advised (as a file read whole is) grows and copies as any other.
TEST(HugePagesTest, AdvisedMemoryHoldsWhatIsWritten) {
  for (std::size_t size :
       {std::size_t{0}, std::size_t{4096}, kHugePageAdviceMin - 1, kHugePageAdviceMin,
        kHugePageAdviceMin + 12345, 3 * kHugePageAdviceMin}) {
    for (std::size_t skew : {0, 1, 4095}) {
      auto block = std::make_unique_for_overwrite<char[]>(size + skew);
      char* data = block.get() + skew;
      AdviseHugePages(data, size);
      for (std::size_t i = 0; i < size; i += 4093) data[i] = static_cast<char>(i % 251);
      for (std::size_t i = 0; i < size; i += 4093) {
        ASSERT_EQ(data[i], static_cast<char>(i % 251)) << size << " " << skew << " " << i;
      }
    }
  }
  std::string text;
  text.reserve(kHugePageAdviceMin + 64);
  AdviseHugePages(text.data(), text.capacity());
  text.assign(kHugePageAdviceMin, 'x');
  text += "tail";
  EXPECT_EQ(text.size(), kHugePageAdviceMin + 4);
  EXPECT_EQ(text.substr(text.size() - 5), "xtail");
}

}  // namespace
}  // namespace arcs
