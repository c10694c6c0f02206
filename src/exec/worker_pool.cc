#include "src/exec/worker_pool.h"

#include <sched.h>

#include <chrono>
#include <system_error>

namespace spvsim {

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::grow(unsigned helpers, size_t touch) {
  while (arenas_.size() < size_t(helpers) + 1) arenas_.push_back(std::make_unique<WorkerArena>());
  while (threads_.size() < helpers) {
    const unsigned index = static_cast<unsigned>(threads_.size());
    WorkerArena* arena = arenas_[index + 1].get();
    threads_.emplace_back([this, index, arena, touch] { serve(index, *arena, touch); });
  }
}

// Each thread touches its own arena, so its pages come from that thread's NUMA node.
void WorkerPool::reserve(unsigned n, size_t bytes) {
  std::lock_guard<std::mutex> busy(busy_);
  const unsigned before = static_cast<unsigned>(threads_.size());
  try {
    grow(n > 0 ? n - 1 : 0, bytes);
  } catch (const std::system_error&) {  // no more threads now: tryRun will say so
  } catch (const std::bad_alloc&) {
  }
  try {
    if (!arenas_.empty()) arenas_[0]->touch(bytes);
  } catch (const std::bad_alloc&) {  // the launch reports what does not fit
  }
  std::unique_lock<std::mutex> lock(m_);
  const unsigned started = static_cast<unsigned>(threads_.size()) - before;
  done_.wait(lock, [&] { return touched_ >= started; });
  touched_ = 0;
}

bool WorkerPool::tryRun(unsigned n, const Job& job) {
  std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
  if (!busy.owns_lock()) return false;
  const unsigned helpers = n > 0 ? n - 1 : 0;
  try {
    grow(helpers, 0);
  } catch (const std::system_error&) {
    return false;
  } catch (const std::bad_alloc&) {
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(m_);
    job_ = &job;
    helpersWanted_ = helpers;
    helpersRunning_ = helpers;
    ++generation_;
  }
  if (helpers) wake_.notify_all();
  if (n > 0) job(0, *arenas_[0]);
  awaitHelpers();
  for (auto& arena : arenas_) arena->trim();
  return true;
}

namespace {

// Spins until done() or kSpin has passed, pausing and yielding the core to any other
// runnable thread; returns done()'s last answer. A sleeping thread's core may halt, and
// on a VM waking it again took up to 6 ms (a lent 16-core VM: a third of a 16-thread
// launch); a spinning one sees the change at once. OpenMP runtimes wait the same way
// (KMP_BLOCKTIME, GOMP_SPINCOUNT).
template <class Done>
bool spinUntil(const Done& done) {
  const auto until = std::chrono::steady_clock::now() + WorkerPool::kSpin;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (i % 64 == 0) {
      if (std::chrono::steady_clock::now() > until) return false;
      sched_yield();
    }
  }
}

}  // namespace

// In a balanced launch the pool threads end within microseconds of the calling thread,
// and a sleep on the condition variable then costs a wake-up that the spin does not
// (the --stats timeline showed the last thread's end and the join 20-120 us apart on
// VMs). Seeing the count at 0 needs no lock (the last decrement releases every helper's
// work to this acquire). job_ stays as it is: a pool thread reads it only for a later
// generation, which tryRun posts with its new job.
void WorkerPool::awaitHelpers() {
  if (spinUntil([&] { return helpersRunning_.load(std::memory_order_acquire) == 0; })) return;
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [&] { return helpersRunning_ == 0; });
}

void WorkerPool::spin(uint64_t seen) const {
  spinUntil([&] {
    return generation_.load(std::memory_order_acquire) != seen ||
           stop_.load(std::memory_order_relaxed);
  });
}

void WorkerPool::serve(unsigned helper, WorkerArena& arena, size_t touch) {
  if (touch) {
    try {
      arena.touch(touch);
    } catch (const std::bad_alloc&) {  // the launch reports what does not fit
    }
  }
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  if (touch) {
    ++touched_;
    done_.notify_all();
  }
  for (;;) {
    if (!stop_ && generation_ == seen) {
      lock.unlock();
      spin(seen);
      lock.lock();
    }
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (helper >= helpersWanted_) continue;
    const Job* job = job_;
    lock.unlock();
    (*job)(helper + 1, arena);
    // Counted down before taking m_, which the other helpers ending now contend for: the
    // caller spinning in awaitHelpers sees the last one at once. The last also notifies
    // under m_, so that a caller past its spin is either waiting or sees the 0.
    if (helpersRunning_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> notify(m_);
      done_.notify_one();
    }
    lock.lock();
  }
}

}  // namespace spvsim
