// The memory every ICD object lives in. An OpenCL handle is the object's address, and
// the ICD loader reads the handle's first word (its dispatch table) before spvsim can
// check the handle, so the memory of a released object must stay mapped and keep a
// valid dispatch pointer: a double release, or any call on a released handle, then
// reaches spvsim's handle check (runtime/object.h) instead of a freed block.
//
// So cells are never given back to the C++ allocator. A released cell is reused for a
// new object of the same size class, but only after `quarantine` newer cells of that
// class were released (first in, first out): a stale handle keeps being detected as
// invalid until that many later releases of its size class, and memory stays bounded
// by (the most objects alive at once + quarantine) cells per class, however many
// objects a program creates and releases.
//
// A handle cannot carry a generation counter (it is a plain pointer the loader
// dereferences), so the quarantine is the generation check: a reused cell holds a new
// live object whose handle equals the stale one.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace spvsim::rt {

class CellPool {
 public:
  explicit CellPool(size_t quarantine) : quarantine_(quarantine) {}
  // Frees the released cells (the registry's pool is never destroyed: handles may be
  // read until the process ends).
  ~CellPool();
  CellPool(const CellPool&) = delete;
  CellPool& operator=(const CellPool&) = delete;

  // A cell of at least `size` bytes (64-byte aligned): the oldest released one of its
  // size class when more than `quarantine` are waiting, else a new one. Throws
  // std::bad_alloc.
  void* allocate(size_t size);

  // Takes back a cell allocate(size) returned. Its first `keptBytes` are left as they
  // are (the released object's tombstone: its dispatch pointer first); under
  // AddressSanitizer the rest is poisoned until the cell is reused.
  void recycle(void* cell, size_t size, size_t keptBytes);

  // Cells ever created (for tests of the memory bound).
  size_t cellsCreated() const;

 private:
  static size_t sizeClass(size_t size) { return (size + 63) / 64 * 64; }

  const size_t quarantine_;
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::deque<void*>> released_;  // per size class, oldest first
  size_t created_ = 0;
};

}  // namespace spvsim::rt
