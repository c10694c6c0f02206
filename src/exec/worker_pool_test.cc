#include "src/exec/worker_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
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
    ASSERT_TRUE(pool.tryRun(n, [&](unsigned t, WorkerArena&) {
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
  ASSERT_TRUE(
      pool.tryRun(4, [&](unsigned t, WorkerArena&) { first[t] = std::this_thread::get_id(); }));
  ASSERT_TRUE(
      pool.tryRun(4, [&](unsigned t, WorkerArena&) { second[t] = std::this_thread::get_id(); }));
  EXPECT_EQ(first, second);
}

// A job posted while the threads spin (right after the last) and one posted after they
// have gone to sleep (well past kSpin) both run every index, on the same threads; and a
// pool destroyed while its threads spin stops them.
TEST(WorkerPool, RunsJobsPostedWhileAwakeAndAfterSleeping) {
  std::vector<std::thread::id> ids[3];
  {
    WorkerPool pool;
    for (int job = 0; job < 3; ++job) {
      if (job == 2) std::this_thread::sleep_for(WorkerPool::kSpin * 5);
      ids[job].assign(5, std::thread::id());
      ASSERT_TRUE(pool.tryRun(
          5, [&](unsigned t, WorkerArena&) { ids[job][t] = std::this_thread::get_id(); }));
    }
  }
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_EQ(ids[0], ids[2]);
  EXPECT_EQ(std::set<std::thread::id>(ids[2].begin(), ids[2].end()).size(), 5u);
}

// The job has returned everywhere before tryRun does: its results are all visible.
TEST(WorkerPool, WaitsForTheSlowestIndex) {
  WorkerPool pool;
  std::vector<int> out(6, 0);
  ASSERT_TRUE(pool.tryRun(6, [&](unsigned t, WorkerArena&) {
    if (t == 5) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    out[t] = int(t) + 1;
  }));
  EXPECT_EQ(out, (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

// A helper that ends while the caller spins for it (well within kSpin): its plain writes
// are visible when tryRun returns, job after job (the caller reads the count without the
// lock; ThreadSanitizer checks the ordering in --config=tsan).
TEST(WorkerPool, ReturnsAsTheLastHelperEndsWithItsWritesVisible) {
  WorkerPool pool;
  pool.reserve(3);
  for (int job = 0; job < 200; ++job) {
    std::vector<int> out(3, -1);
    ASSERT_TRUE(pool.tryRun(3, [&](unsigned t, WorkerArena&) {
      if (t == 2) {  // ends last: about 50 us of work after the others
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
        while (std::chrono::steady_clock::now() < until) {
        }
      }
      out[t] = job * 10 + int(t);
    }));
    EXPECT_EQ(out, (std::vector<int>{job * 10, job * 10 + 1, job * 10 + 2})) << "job " << job;
  }
}

// A second caller while a job runs gets false (and makes its own threads) instead of
// waiting: two ICD queues launching at once never wait on each other's pool.
TEST(WorkerPool, RefusesASecondCallerWhileBusy) {
  WorkerPool pool;
  std::atomic<bool> inside{false}, release{false};
  std::thread launcher([&] {
    pool.tryRun(2, [&](unsigned t, WorkerArena&) {
      if (t == 1) {
        inside = true;
        while (!release) std::this_thread::yield();
      }
    });
  });
  while (!inside) std::this_thread::yield();
  std::atomic<bool> ran{false};  // both indices of the last job write it
  EXPECT_FALSE(pool.tryRun(2, [&](unsigned, WorkerArena&) { ran = true; }));
  EXPECT_FALSE(ran);
  release = true;
  launcher.join();
  EXPECT_TRUE(pool.tryRun(2, [&](unsigned, WorkerArena&) { ran = true; }));
  EXPECT_TRUE(ran);
}

// Each index has an arena of its own, and the same one in the next job: storage a
// thread touched stays with it.
TEST(WorkerPool, GivesEachIndexItsOwnArenaAcrossJobs) {
  WorkerPool pool;
  pool.reserve(3);
  std::vector<WorkerArena*> first(3), second(3);
  std::vector<size_t> reserved(3);
  ASSERT_TRUE(pool.tryRun(3, [&](unsigned t, WorkerArena& a) {
    first[t] = &a;
    reserved[t] = a.capacity();
  }));
  ASSERT_TRUE(pool.tryRun(3, [&](unsigned t, WorkerArena& a) { second[t] = &a; }));
  EXPECT_EQ(first, second);
  EXPECT_EQ(std::set<WorkerArena*>(first.begin(), first.end()).size(), 3u);
  for (size_t c : reserved) EXPECT_GE(c, WorkerArena::kReservedBytes);
}

// reserve() touches what it is asked for (a launch's work-group slot), not the default.
TEST(WorkerPool, ReservesTheBytesItIsAskedFor) {
  WorkerPool pool;
  pool.reserve(3, 64 << 10);
  std::vector<size_t> reserved(3);
  ASSERT_TRUE(pool.tryRun(3, [&](unsigned t, WorkerArena& a) { reserved[t] = a.capacity(); }));
  for (size_t c : reserved) {
    EXPECT_GE(c, size_t(64) << 10);
    EXPECT_LT(c, WorkerArena::kReservedBytes);
  }
}

// An arena grown past kKeptBytes by one job is freed when the job ends; a typical one is
// kept.
TEST(WorkerPool, FreesOnlyArenasGrownPastWhatItKeeps) {
  WorkerPool pool;
  ASSERT_TRUE(pool.tryRun(
      2, [&](unsigned t, WorkerArena& a) { a.take(t == 0 ? WorkerArena::kKeptBytes + 1 : 4096); }));
  std::vector<size_t> after(2);
  ASSERT_TRUE(pool.tryRun(2, [&](unsigned t, WorkerArena& a) { after[t] = a.capacity(); }));
  EXPECT_EQ(after[0], 0u);
  EXPECT_EQ(after[1], 4096u);
}

// take() hands out zeroed, 64-byte aligned bytes, whatever the previous user left there,
// and grows when asked for more than it holds.
TEST(WorkerArena, TakesZeroedAlignedBytesAndGrows) {
  WorkerArena arena;
  uint8_t* p = arena.take(1000);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  std::fill(p, p + 1000, 0xab);
  uint8_t* q = arena.take(600);
  EXPECT_EQ(q, p);  // reused, not reallocated
  EXPECT_TRUE(std::all_of(q, q + 600, [](uint8_t b) { return b == 0; }));
  uint8_t* r = arena.take(size_t(3) << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(r) % 64, 0u);
  EXPECT_GE(arena.capacity(), size_t(3) << 20);
  EXPECT_EQ(r[0], 0);
  EXPECT_EQ(r[(size_t(3) << 20) - 1], 0);
}

}  // namespace
}  // namespace spvsim
