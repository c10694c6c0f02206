#include "src/exec/worker_arena.h"

#include <cstring>

namespace spvsim {

void WorkerArena::grow(size_t bytes) {
  constexpr size_t kAlign = 64;
  storage_.reset();  // the old block goes first: the process never holds both
  capacity_ = 0, aligned_ = nullptr;
  // for_overwrite: take() and touch() write what they hand out or keep.
  storage_ = std::make_unique_for_overwrite<uint8_t[]>(bytes + kAlign);
  const uintptr_t base = reinterpret_cast<uintptr_t>(storage_.get());
  aligned_ = reinterpret_cast<uint8_t*>((base + kAlign - 1) / kAlign * kAlign);
  capacity_ = bytes;
}

uint8_t* WorkerArena::take(size_t bytes) {
  if (bytes > capacity_) grow(bytes);
  std::memset(aligned_, 0, bytes);
  return aligned_;
}

void WorkerArena::trim() {
  if (capacity_ <= kKeptBytes) return;
  storage_.reset();
  capacity_ = 0, aligned_ = nullptr;
}

void WorkerArena::touch(size_t bytes) {
  if (bytes > capacity_) grow(bytes);
  std::memset(aligned_, 0, capacity_);
}

}  // namespace spvsim
