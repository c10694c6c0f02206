#include "runtime/cell_pool.h"

#include <sanitizer/asan_interface.h>  // no-op macros without AddressSanitizer

#include <algorithm>
#include <cstdlib>
#include <new>

namespace spvsim::rt {
namespace {

constexpr size_t kCellAlign = 64;

}  // namespace

void* CellPool::allocate(size_t size) {
  const size_t bytes = sizeClass(size);
  {
    std::lock_guard lock(mutex_);
    std::deque<void*>& waiting = released_[bytes];
    if (waiting.size() > quarantine_) {
      void* cell = waiting.front();
      waiting.pop_front();
      ASAN_UNPOISON_MEMORY_REGION(cell, bytes);
      return cell;
    }
    ++created_;
  }
  // Never freed: the loader may read a released handle at any time.
  if (void* cell = std::aligned_alloc(kCellAlign, bytes)) return cell;
  std::lock_guard lock(mutex_);
  --created_;
  throw std::bad_alloc();
}

void CellPool::recycle(void* cell, size_t size, size_t keptBytes) {
  const size_t bytes = sizeClass(size);
  // A late read of the released object beyond its tombstone, by spvsim itself, is then
  // still an AddressSanitizer report.
  const size_t kept = (std::min(keptBytes, bytes) + 7) / 8 * 8;  // ASan's granule
  ASAN_POISON_MEMORY_REGION(static_cast<char*>(cell) + kept, bytes - kept);
  std::lock_guard lock(mutex_);
  released_[bytes].push_back(cell);
}

CellPool::~CellPool() {
  for (auto& [bytes, cells] : released_)
    for (void* cell : cells) {
      ASAN_UNPOISON_MEMORY_REGION(cell, bytes);
      std::free(cell);
    }
}

size_t CellPool::cellsCreated() const {
  std::lock_guard lock(mutex_);
  return created_;
}

}  // namespace spvsim::rt
