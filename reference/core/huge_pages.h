// Large, fresh allocations: the first write to each page of one costs a page fault, and on a
// virtual machine more than the write itself. AdviseHugePages asks the kernel to back one with
// transparent huge pages (2 MiB) where it allows them ("madvise" mode, Debian's default): a parse
// of a 100 MB document touches tens of megabytes of fresh memory (its values, simdjson's index),
// and taking it 4 KiB page fault by page fault was a tenth of SessionData's validation.
// PagesFaultedAhead takes the faults of a buffer on a second core, from its start, ahead of the
// caller filling it. Both only change how memory is backed, never what it holds.
#ifndef ARCS_REFERENCE_CORE_HUGE_PAGES_H_
#define ARCS_REFERENCE_CORE_HUGE_PAGES_H_

#include <cstddef>
#include <cstdint>
#include <thread>

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

// Faults in the pages of [data, data + size) on a second thread (MADV_POPULATE_WRITE, 4 MiB at a
// time from the start) while the caller writes them in order: its writes then mostly find them
// faulted in, and where it overtakes the thread it takes those faults itself. Populating the upper
// half only, and leaving the lower half's faults to the caller's read(), took `arcs model-io hash`
// of 100 MB 345 ms instead of 263 ms (medians of 10, each run right after Node's): the faults taken
// inside read() were the slow ones. For a buffer of at least kFaultAheadMin bytes on a machine
// with a second core; otherwise, or where the kernel lacks MADV_POPULATE_WRITE (Linux < 5.14) or
// no thread can be started, nothing happens. The pages must be writable: populating them writes
// nothing, so what the caller wrote first stays. Destruction waits for the thread.
class PagesFaultedAhead {
 public:
  static constexpr std::size_t kFaultAheadMin = std::size_t{8} << 20;

  PagesFaultedAhead(void* data, std::size_t size);
  ~PagesFaultedAhead();
  PagesFaultedAhead(const PagesFaultedAhead&) = delete;
  PagesFaultedAhead& operator=(const PagesFaultedAhead&) = delete;

  // Whether a thread was started (for tests).
  bool started() const { return helper_.joinable(); }

 private:
  std::thread helper_;
};

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_HUGE_PAGES_H_
