// A fixed set of threads running submitted tasks in order of submission: for work split into
// independent pieces (Lightbox's parallel verification runs one batch-taking loop on each).
// Threads live as long as the pool, so per-thread state (a reused json::Document, a parser's
// buffers) is built once per thread, not once per task.
#ifndef ARCS_REFERENCE_CORE_WORKER_POOL_H_
#define ARCS_REFERENCE_CORE_WORKER_POOL_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace arcs {

class WorkerPool {
 public:
  explicit WorkerPool(unsigned threads);
  // Runs the tasks already submitted, then joins the threads.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // The future is ready when the task has run (and holds what it threw, if anything).
  std::future<void> Submit(std::function<void()> task);

 private:
  void Work();
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::packaged_task<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_WORKER_POOL_H_
