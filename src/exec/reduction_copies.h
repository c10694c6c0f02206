// Privatised reductions at run time (src/exec/reduction.h; src/DESIGN.md, "Privatised
// reductions"): which buffers a launch privatises, and each host thread's copies of them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/arg_binding.h"
#include "src/exec/lowered.h"
#include "src/exec/memory.h"
#include "src/exec/reduction.h"

namespace spvsim {

// A buffer the launch privatises: global region `region`, combined by `op` on
// `bytes`-byte elements.
struct PrivatisedRegion {
  uint64_t region = 0;
  ReductionOp op = ReductionOp::Add;
  uint32_t bytes = 0;
  uint8_t* base = nullptr;  // the buffer
  uint64_t size = 0;
};

// The largest buffer a launch privatises: each host thread may hold a copy, and folds it
// element by element at the end.
inline constexpr uint64_t kMaxPrivatisedBytes = uint64_t(256) << 10;

// The kernel's reduction targets whose buffers this launch may privatise: a plain buffer
// argument (readable, writable, no host restriction, at most kMaxPrivatisedBytes) that no
// other memory object of the launch overlaps (each buffer argument is a region of its
// own, so one buffer passed twice overlaps itself), where `allowed` accepts the target
// and its region (no observer or debugger watches its accesses). None where the launch
// has SVM, whose raw pointers the analysis cannot follow.
std::vector<PrivatisedRegion> privatisedRegions(
    const LoweredKernel& kernel, const std::vector<ArgBinding>& args,
    const std::vector<std::vector<uint8_t>>& params, const MemoryMap& mem,
    const std::function<bool(const ReductionTarget&, const Region&)>& allowed);

// Per global region of `mem`: 1 where no instruction of the launch can write it, a buffer
// argument bound to a parameter only read through (LoweredKernel::writtenParams) that no
// other memory object of the launch overlaps; 0 elsewhere, and everywhere in a launch
// with SVM.
std::vector<uint8_t> readOnlyRegions(const LoweredKernel& kernel,
                                     const std::vector<ArgBinding>& args,
                                     const std::vector<std::vector<uint8_t>>& params,
                                     const MemoryMap& mem);

// One host thread's copies, made on first use.
class ReductionCopies {
 public:
  explicit ReductionCopies(const std::vector<PrivatisedRegion>& regions);
  ReductionCopies(const ReductionCopies&) = delete;
  ReductionCopies& operator=(const ReductionCopies&) = delete;

  // The copy of global region `region` (as many bytes as the buffer, every element the
  // identity of `op` when made) if the launch privatises it for `op` on `bytes`-byte
  // elements; nullptr otherwise (the atomic then goes to the buffer).
  uint8_t* copyFor(uint64_t region, ReductionOp op, uint32_t bytes) {
    for (size_t i = 0; i < regions_.size(); ++i)
      if (regions_[i].region == region)
        return regions_[i].op == op && regions_[i].bytes == bytes ? copy(i) : nullptr;
    return nullptr;
  }
  // The copy of regions[i], or nullptr where this thread never made it.
  const uint8_t* made(size_t i) const { return reinterpret_cast<const uint8_t*>(copies_[i].get()); }

 private:
  uint8_t* copy(size_t i) {
    return copies_[i] ? reinterpret_cast<uint8_t*>(copies_[i].get()) : make(i);
  }
  uint8_t* make(size_t i);

  const std::vector<PrivatisedRegion>& regions_;
  // By regions_ index, in whole 8-byte words (as aligned as any lane's offset); null:
  // untouched.
  std::vector<std::unique_ptr<uint64_t[]>> copies_;
};

// Folds every host thread's copies into the buffers, slice `slice` of `slices` of each
// buffer (whole 64-byte blocks): each element combined across the copies, then into the
// buffer with one host atomic where that changes it. Slices share no element, so threads
// fold theirs at once, without a lock.
void foldCopies(const std::vector<PrivatisedRegion>& regions,
                const std::vector<std::unique_ptr<ReductionCopies>>& copies, unsigned slice,
                unsigned slices);

// How many slices a fold of `copies` is worth, at most `threads`: one per
// kFoldSliceBytes of copies to read (a small fold is not worth waking threads for).
unsigned foldSlices(const std::vector<PrivatisedRegion>& regions,
                    const std::vector<std::unique_ptr<ReductionCopies>>& copies, unsigned threads);
inline constexpr uint64_t kFoldSliceBytes = uint64_t(256) << 10;

}  // namespace spvsim
