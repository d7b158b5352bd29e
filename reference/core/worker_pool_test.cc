#include "reference/core/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace arcs {
namespace {

TEST(WorkerPool, RunsEveryTaskOnItsThreadsAndReportsWhenEachIsDone) {
  std::atomic<int> sum = 0;
  std::mutex mutex;
  std::set<std::thread::id> ids;
  std::vector<std::future<void>> done;
  {
    WorkerPool pool(3);
    for (int i = 1; i <= 100; ++i) {
      done.push_back(pool.Submit([&, i] {
        sum += i;
        std::lock_guard<std::mutex> lock(mutex);
        ids.insert(std::this_thread::get_id());
      }));
    }
    for (std::future<void>& d : done) d.get();
    EXPECT_EQ(sum, 5050);
  }
  EXPECT_LE(ids.size(), 3u);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u);
}

TEST(WorkerPool, HandsATasksExceptionToItsFuture) {
  WorkerPool pool(1);
  std::future<void> failed = pool.Submit([] { throw std::runtime_error("no"); });
  std::future<void> next = pool.Submit([] {});
  EXPECT_THROW(failed.get(), std::runtime_error);
  next.get();  // the thread survived the throw
}

TEST(WorkerPool, RunsWhatWasSubmittedBeforeItIsDestroyed) {
  std::atomic<int> ran = 0;
  {
    WorkerPool pool(2);
    for (int i = 0; i < 50; ++i) pool.Submit([&] { ++ran; });
  }
  EXPECT_EQ(ran, 50);
}

}  // namespace
}  // namespace arcs
