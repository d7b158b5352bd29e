// Asks the kernel to back a large, fresh allocation with transparent huge pages (2 MiB) where it
// allows them ("madvise" mode, Debian's default): a parse of a 100 MB document touches tens of
// megabytes of fresh memory (its values, simdjson's index), and taking it 4 KiB page fault by page
// fault was a tenth of SessionData's validation. Only a hint: memory reads the same either way.
#ifndef ARCS_REFERENCE_CORE_HUGE_PAGES_H_
#define ARCS_REFERENCE_CORE_HUGE_PAGES_H_

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace arcs {

// Smaller allocations are left alone: a huge page would cost more to clear than it saves.
inline constexpr std::size_t kHugePageAdviceMin = std::size_t{4} << 20;

// Advises the whole 2 MiB pages inside [data, data + size), when size is at least
// kHugePageAdviceMin; call it before the memory is first written.
inline void AdviseHugePages(void* data, std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (size < kHugePageAdviceMin) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (begin + size) & ~(kHuge - 1);
  if (first < last) {
    (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#else
  (void)data;
  (void)size;
#endif
}

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_HUGE_PAGES_H_
