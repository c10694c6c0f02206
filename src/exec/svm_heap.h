// Host memory for SVM allocations at addresses kernels can use (svmAddressable(),
// src/exec/svm.h): one reserved window of address space inside a half-window, carved into
// page-granular blocks. A never-mapped guard page follows each block, so a host overrun
// faults and a kernel pointer just past one allocation lies in no other.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "src/exec/svm.h"

namespace spvsim {

class SvmHeap {
 public:
  struct Block {
    uint8_t* base = nullptr;
    uint64_t size = 0;   // as asked
    uint64_t flags = 0;  // the front end's (cl_svm_mem_flags)
  };

  SvmHeap() = default;
  ~SvmHeap();
  SvmHeap(const SvmHeap&) = delete;
  SvmHeap& operator=(const SvmHeap&) = delete;

  // `size` zeroed bytes aligned to `alignment` (a power of two, at most the window), or
  // nullptr when the window has no room (or cannot be reserved).
  uint8_t* allocate(uint64_t size, uint64_t alignment, uint64_t flags);
  // Frees a block by its base; false when `p` is no block's base.
  bool free(const void* p);
  // The block containing `p` (base <= p < base + size), if any.
  std::optional<Block> find(const void* p) const;
  // Every live block, as a launch binds them.
  std::vector<SvmAllocation> allocations() const;

 private:
  bool reserve();  // the window, on first use
  uint64_t take(uint64_t bytes, uint64_t alignment);

  mutable std::mutex mutex_;
  uint8_t* window_ = nullptr;
  uint64_t windowBytes_ = 0;
  std::map<uint64_t, uint64_t> free_;  // window offset -> bytes, coalesced
  std::map<uint64_t, Block> blocks_;   // host address -> block
};

}  // namespace spvsim
