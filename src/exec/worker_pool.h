// Host threads kept between launches. Starting a thread costs tens of microseconds
// (about 0.3 ms for 16 on a 16-core VM), which a short launch on many cores would
// otherwise pay every time; a pool also lets the launching thread work instead of
// waiting. See src/DESIGN.md, "Host threads".
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace spvsim {

class WorkerPool {
 public:
  WorkerPool() = default;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();

  // Runs job(t) for every t in [0, n): t = 0 on the calling thread, the others on pool
  // threads (started on first need and kept). Returns once every job(t) has returned.
  // Returns false without running anything when another caller is using the pool (a
  // second launch at the same time), or when threads cannot be started; the caller
  // then makes its own threads. `job` must not throw.
  bool tryRun(unsigned n, const std::function<void(unsigned)>& job);

  // Starts threads so that a later tryRun(n) finds them ready.
  void reserve(unsigned n);

 private:
  void grow(unsigned helpers);  // holds busy_
  void serve(unsigned helper);  // the body of pool thread `helper` (job index helper + 1)

  std::mutex busy_;  // held for a whole tryRun / reserve
  std::mutex m_;     // the fields below
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned helpersWanted_ = 0;  // pool threads 0..helpersWanted_-1 take part in the job
  unsigned helpersRunning_ = 0;
  uint64_t generation_ = 0;  // one per job
  bool stop_ = false;
};

}  // namespace spvsim
