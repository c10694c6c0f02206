// Host memory for SVM allocations at addresses kernels can use (svmAddressable(),
// src/exec/svm.h): one reserved window of address space inside a half-window, carved into
// page-granular blocks. A never-mapped guard page follows each block, so a host overrun
// faults and a kernel pointer just past one allocation lies in no other.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
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
    // Which allocation this is: a later block at the same base has another, so a free
    // queued for this one cannot free that one.
    uint64_t serial = 0;
  };

  // Where the bytes [p, p + size) lie against the heap. The window is the heap's alone
  // (freed blocks stay reserved, never mapped), so any of its bytes outside a live block
  // is a freed block, a guard page or unused: never memory anyone else owns.
  enum class Placement {
    Elsewhere,  // no byte in the window: memory the heap knows nothing of
    InBlock,    // inside one live block (an empty range: from its base to its end)
    Stray,      // in the window but not inside one live block, or wrapping past 2^64
  };
  struct Range {
    const void* p = nullptr;
    uint64_t size = 0;
  };

  SvmHeap() = default;
  ~SvmHeap();
  SvmHeap(const SvmHeap&) = delete;
  SvmHeap& operator=(const SvmHeap&) = delete;

  // `size` zeroed bytes aligned to `alignment` (a power of two, at most the window), or
  // nullptr when the window has no room (or cannot be reserved).
  uint8_t* allocate(uint64_t size, uint64_t alignment, uint64_t flags);
  // Frees a block by its base; false when `p` is no block's base or, given a serial,
  // the block there is another allocation than that one.
  bool free(const void* p, std::optional<uint64_t> serial = std::nullopt);
  // The block containing `p` (base <= p < base + size), if any.
  std::optional<Block> find(const void* p) const;
  Placement place(const void* p, uint64_t size) const;
  // Runs `use` when no range is Stray, holding the heap while it runs so that no block
  // is freed under it (a host command copying into SVM memory that a free on another
  // thread unmaps would fault); false, without running it, otherwise.
  bool whilePlaced(std::initializer_list<Range> ranges, const std::function<void()>& use) const;
  // Every live block, as a launch binds them.
  std::vector<SvmAllocation> allocations() const;

 private:
  bool reserve();  // the window, on first use
  uint64_t take(uint64_t bytes, uint64_t alignment);
  Placement placeLocked(uint64_t address, uint64_t size) const;

  mutable std::mutex mutex_;
  uint8_t* window_ = nullptr;
  uint64_t windowBytes_ = 0;
  std::map<uint64_t, uint64_t> free_;  // window offset -> bytes, coalesced
  std::map<uint64_t, Block> blocks_;   // host address -> block
  uint64_t allocations_ = 0;           // blocks made so far: the next serial
};

}  // namespace spvsim
