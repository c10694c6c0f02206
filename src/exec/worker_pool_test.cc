#include "src/exec/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

namespace spvsim {
namespace {

// Every index runs exactly once, index 0 on the calling thread, the rest elsewhere.
TEST(WorkerPool, RunsEveryIndexOnceWithTheCallerAsIndexZero) {
  WorkerPool pool;
  for (unsigned n : {1u, 2u, 5u, 3u, 8u}) {
    std::vector<std::atomic<int>> runs(n);
    std::vector<std::thread::id> ids(n);
    ASSERT_TRUE(pool.tryRun(n, [&](unsigned t) {
      ++runs[t];
      ids[t] = std::this_thread::get_id();
    }));
    for (unsigned t = 0; t < n; ++t) EXPECT_EQ(runs[t], 1) << "n=" << n << " t=" << t;
    EXPECT_EQ(ids[0], std::this_thread::get_id());
    EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(), n);
  }
}

// Threads are kept: a second job of the same size runs on the same threads.
TEST(WorkerPool, KeepsItsThreadsBetweenJobs) {
  WorkerPool pool;
  pool.reserve(4);
  std::vector<std::thread::id> first(4), second(4);
  ASSERT_TRUE(pool.tryRun(4, [&](unsigned t) { first[t] = std::this_thread::get_id(); }));
  ASSERT_TRUE(pool.tryRun(4, [&](unsigned t) { second[t] = std::this_thread::get_id(); }));
  EXPECT_EQ(first, second);
}

// The job has returned everywhere before tryRun does: its results are all visible.
TEST(WorkerPool, WaitsForTheSlowestIndex) {
  WorkerPool pool;
  std::vector<int> out(6, 0);
  ASSERT_TRUE(pool.tryRun(6, [&](unsigned t) {
    if (t == 5) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    out[t] = int(t) + 1;
  }));
  EXPECT_EQ(out, (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

// A second caller while a job runs gets false (and makes its own threads) instead of
// waiting: two ICD queues launching at once never wait on each other's pool.
TEST(WorkerPool, RefusesASecondCallerWhileBusy) {
  WorkerPool pool;
  std::atomic<bool> inside{false}, release{false};
  std::thread launcher([&] {
    pool.tryRun(2, [&](unsigned t) {
      if (t == 1) {
        inside = true;
        while (!release) std::this_thread::yield();
      }
    });
  });
  while (!inside) std::this_thread::yield();
  bool ran = false;
  EXPECT_FALSE(pool.tryRun(2, [&](unsigned) { ran = true; }));
  EXPECT_FALSE(ran);
  release = true;
  launcher.join();
  EXPECT_TRUE(pool.tryRun(2, [&](unsigned) { ran = true; }));
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace spvsim
