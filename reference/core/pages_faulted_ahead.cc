#include "reference/core/pages_faulted_ahead.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
#include <system_error>

namespace arcs {

PagesFaultedAhead::PagesFaultedAhead(void* data, std::size_t size) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  constexpr std::uintptr_t kPage = 4096;
  if (size < kFaultAheadMin || std::thread::hardware_concurrency() < 2) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  static constexpr std::uintptr_t kStep = std::uintptr_t{4} << 20;
  const std::uintptr_t first = (begin + kPage - 1) & ~(kPage - 1);
  const std::uintptr_t last = (begin + size) & ~(kPage - 1);
  try {
    helper_ = std::thread([first, last] {
      // Fails only where the kernel cannot populate (too old, or no memory left): the caller's
      // own writes then fault the pages in, as without this.
      for (std::uintptr_t at = first; at < last; at += kStep) {
        (void)::madvise(reinterpret_cast<void*>(at), std::min(kStep, last - at),
                        MADV_POPULATE_WRITE);
      }
    });
  } catch (const std::system_error&) {
    // No thread to be had: the caller's writes fault the pages in themselves.
  }
#else
  (void)data;
  (void)size;
#endif
}

PagesFaultedAhead::~PagesFaultedAhead() {
  if (helper_.joinable()) helper_.join();
}

}  // namespace arcs
