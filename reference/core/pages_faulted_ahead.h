// Large, fresh allocations: the first write to each page of one costs a page fault, and on a
// virtual machine more than the write itself. PagesFaultedAhead takes the faults of a buffer on a
// second core, from its start, ahead of the caller filling it; it only changes when memory is
// backed, never what it holds.
// Nothing here asks for transparent huge pages (MADV_HUGEPAGE), which ARCS once did: on a VM that
// reports its free memory to the host (virtio free page reporting, as on this project's Firecracker
// machines), a huge page taken after the machine idled a few seconds is backed by the host again
// page by page. Measured there: first writes to 256 MiB took about 1 s in huge pages against
// 0.12 s in 4 KiB pages (0.05 s in huge pages back to back), and `arcs validate` of a 100 MB
// session took a median 443 ms against 241 after a 4 s pause, 252 against 256 back to back.
#ifndef ARCS_REFERENCE_CORE_PAGES_FAULTED_AHEAD_H_
#define ARCS_REFERENCE_CORE_PAGES_FAULTED_AHEAD_H_

#include <cstddef>
#include <thread>

namespace arcs {

// Faults in the pages of [data, data + size) on a second thread (MADV_POPULATE_WRITE, 4 MiB at a
// time from the start) while the caller writes them in order: its writes then mostly find them
// faulted in, and where it overtakes the thread it takes those faults itself. `arcs model-io hash`
// of 100 MB took a median 207 ms with the thread against 239 without (8 runs each, back to back).
// Populating the upper half only, leaving the lower half's faults to the caller's read(), was
// slower (345 ms against 263, in huge pages, each run right after Node's): faults taken inside
// read() are the slow ones. For a buffer of at least kFaultAheadMin bytes on a machine with a
// second core; otherwise, or where the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14) or no
// thread can be started, nothing happens. The pages must be writable: populating them writes
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

#endif  // ARCS_REFERENCE_CORE_PAGES_FAULTED_AHEAD_H_
