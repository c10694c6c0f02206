#include "src/exec/worker_pool.h"

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

void WorkerPool::grow(unsigned helpers) {
  while (threads_.size() < helpers) {
    const unsigned index = static_cast<unsigned>(threads_.size());
    threads_.emplace_back([this, index] { serve(index); });
  }
}

void WorkerPool::reserve(unsigned n) {
  std::lock_guard<std::mutex> busy(busy_);
  try {
    grow(n > 0 ? n - 1 : 0);
  } catch (const std::system_error&) {  // no more threads now: tryRun will say so
  }
}

bool WorkerPool::tryRun(unsigned n, const std::function<void(unsigned)>& job) {
  std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
  if (!busy.owns_lock()) return false;
  const unsigned helpers = n > 0 ? n - 1 : 0;
  try {
    grow(helpers);
  } catch (const std::system_error&) {
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
  if (n > 0) job(0);
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [&] { return helpersRunning_ == 0; });
  job_ = nullptr;
  return true;
}

void WorkerPool::serve(unsigned helper) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(m_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (helper >= helpersWanted_) continue;
    const std::function<void(unsigned)>* job = job_;
    lock.unlock();
    (*job)(helper + 1);
    lock.lock();
    if (--helpersRunning_ == 0) done_.notify_one();
  }
}

}  // namespace spvsim
