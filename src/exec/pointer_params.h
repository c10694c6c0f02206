// What a kernel's SPIR-V lets its pointer parameters do: shared by the analyses that
// decide, before a launch, what the launch can touch (src/exec/reduction_targets.h;
// LaunchContext::readOnlyGlobal).
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>

#include "spirv/module.h"
#include "spirv/module_facts.h"

namespace spvsim {

// Whether some instruction of `fn` makes a global or generic pointer that is not derived
// from another pointer (a load, an integer, a call's result): such a pointer could reach
// any buffer without an analysis of the parameters seeing it.
bool forgesSharedPointers(const spirv::ModuleFacts& facts, const spirv::Function& fn);

// Which of the first 64 CrossWorkgroup pointer parameters of `body` each pointer of it may
// come from (bit k: parameter k), through access chains, casts, copies, phis and selects,
// to a fixed point (loops' phis); 0 for values that come from none.
class ParamSources {
 public:
  ParamSources(const spirv::Module& m, const spirv::Function& body);
  uint64_t of(spirv::Id id) const {
    auto it = from_.find(id);
    return it == from_.end() ? 0 : it->second;
  }

 private:
  std::unordered_map<spirv::Id, uint64_t> from_;
};

// The parameters of `body` (the function lowering starts at: parameter k is the kernel's
// parameter k) that the launch may write through, as a bit set (bit k: parameter k;
// parameters past 63 always count as written). A CrossWorkgroup pointer parameter
// is only read when every use of it and of every pointer derived from it (access chains,
// casts, copies, phis and selects) derives another pointer or reads: the pointer of an
// OpLoad, OpAtomicLoad or OpSubgroupBlockReadINTEL, the source of an OpCopyMemory(Sized)
// or OpGroupAsyncCopy, an operand of a pointer comparison, difference or conversion to an
// integer, the pointer of OpenCL.std's vload*, prefetch. Any other use (a store, an
// atomic that may write, a call, an escape into memory) may write. Every parameter may be
// written when an instruction of `kernel`'s call tree forges a pointer
// (forgesSharedPointers). Instructions `isDebugInfo` accepts do not execute.
inline constexpr uint64_t kAllParams = ~uint64_t(0);
uint64_t writtenParams(const spirv::ModuleFacts& facts, const spirv::KernelFacts& kernel,
                       const spirv::Function& body,
                       const std::function<bool(const spirv::Instruction&)>& isDebugInfo);

}  // namespace spvsim
