// Memory a host thread keeps across launches for the work-group slot it runs work-groups
// in (registers, private and local arenas). Fresh pages cost a page fault on first touch,
// and on a 16-core VM those faults serialise: 1 to 8 ms before a thread's first
// work-group, most of a short launch. Reusing touched memory removes them; see
// src/DESIGN.md, "Host threads".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace spvsim {

class WorkerArena {
 public:
  // The most WorkerPool::reserve touches for each thread (what the launch's slot takes,
  // up to this), as an OpenCL runtime sets up each host thread's work-group memory when
  // it starts: room for a typical work-group slot (256 work-items' registers, private
  // arenas and 64 KiB of local memory) without holding much memory per thread.
  static constexpr size_t kReservedBytes = size_t(1) << 20;

  WorkerArena() = default;
  WorkerArena(const WorkerArena&) = delete;
  WorkerArena& operator=(const WorkerArena&) = delete;

  // `bytes` zeroed bytes, 64-byte aligned, valid until the next take() or touch(). Grows
  // (new, untouched memory) when it holds less; throws std::bad_alloc like new.
  uint8_t* take(size_t bytes);
  // Makes the arena hold at least `bytes`, every page written from the calling thread.
  void touch(size_t bytes);
  // Frees the block when it holds more than kKeptBytes: one launch with a huge work-group
  // slot must not leave every thread holding that much until the program is destroyed.
  void trim();
  static constexpr size_t kKeptBytes = size_t(16) << 20;
  size_t capacity() const { return capacity_; }

 private:
  void grow(size_t bytes);

  std::unique_ptr<uint8_t[]> storage_;
  uint8_t* aligned_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace spvsim
