// Host threads kept between launches, each with the memory it runs work-groups in
// (WorkerArena). Starting a thread costs tens of microseconds (about 0.3 ms for 16 on a
// 16-core VM) and touching fresh memory more, which a short launch on many cores would
// otherwise pay every time; a pool also lets the launching thread work instead of
// waiting. Between jobs a thread spins a while before it sleeps: waking a sleeping one
// took up to 6 ms on a lent VM. See src/DESIGN.md, "Host threads".
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "src/exec/worker_arena.h"

namespace spvsim {

class WorkerPool {
 public:
  WorkerPool() = default;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();

  using Job = std::function<void(unsigned t, WorkerArena& arena)>;

  // How long a pool thread stays awake after its job (or its start) before it sleeps:
  // long enough for the next of back-to-back launches, short enough not to hold a core
  // for long once launches stop.
  static constexpr std::chrono::milliseconds kSpin{10};

  // Runs job(t, arena t) for every t in [0, n): t = 0 on the calling thread, the others
  // on pool threads (started on first need and kept); arena t is kept too. Returns once
  // every job(t) has returned. Returns false without running anything when another
  // caller is using the pool (a second launch at the same time), or when threads cannot
  // be started; the caller then makes its own threads and arenas. `job` must not throw.
  bool tryRun(unsigned n, const Job& job);

  // Starts threads so that a later tryRun(n) finds them ready, each arena holding `bytes`
  // touched by its own thread; returns once they are.
  void reserve(unsigned n, size_t bytes = WorkerArena::kReservedBytes);

 private:
  // Holds busy_. Pool threads started here first touch `touch` bytes of their arenas
  // (0: none).
  void grow(unsigned helpers, size_t touch);
  // The body of pool thread `helper` (job index helper + 1, with that arena).
  void serve(unsigned helper, WorkerArena& arena, size_t touch);
  // Spins, yielding the core to any other runnable thread, until a job after `seen` is
  // posted, the pool stops, or kSpin has passed.
  void spin(uint64_t seen) const;
  // The calling thread's wait, after its own share of a job, for the pool threads' to
  // end: spinning as spin() does, then on the condition variable.
  void awaitHelpers();

  std::mutex busy_;  // held for a whole tryRun / reserve
  std::mutex m_;     // the fields below
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  // Arena t for job index t; grown (under busy_) before a thread that uses it starts.
  std::vector<std::unique_ptr<WorkerArena>> arenas_;
  const Job* job_ = nullptr;
  unsigned touched_ = 0;        // pool threads that have touched their arenas (reserve waits)
  unsigned helpersWanted_ = 0;  // pool threads 0..helpersWanted_-1 take part in the job
  // Set under m_ with the job, counted down by each helper as it ends, read spinning by
  // the calling thread (awaitHelpers). A line of its own: the waiting helpers spin on
  // generation_ and stop_.
  alignas(64) std::atomic<unsigned> helpersRunning_{0};
  alignas(64) std::atomic<uint64_t> generation_{0};  // one per job; written under m_, read spinning
  std::atomic<bool> stop_{false};                    // written under m_, read spinning
};

}  // namespace spvsim
