// The undefined-value checker (`--check-undefined`): value-level undefinedness tracking
// (src/check/shadow_kernel.h). Undefined bytes come from OpUndef, private and local memory
// never written, and buffers the host never initialised (Region::uninitialized); they flow
// through registers and memory, and are `uninitialized-value` errors only where they
// matter: a branch condition or switch selector, an address, a value stored to global
// memory, a printf argument, an atomic operand, an integer divisor.
//
// This observer keeps the memory side that the rules do not: it clears the shadow
// registers and marks OpUndef values undefined (once per sub-group of its slot: see
// workGroupBegin), at each work-group's start it marks what the lanes hold before their
// first instruction (built-ins, initialised Private variables, ByVal copies) defined; writes other
// than OpStore's (atomics, vstore, block writes, pointer outputs of built-ins) mark their bytes
// defined, copies carry their source's shadow, and reads of undefined bytes by instructions other
// than OpLoad are noted for the rule that makes their result undefined
// (ShadowKernel::readUndefined).
#pragma once

#include <cstddef>

#include "src/exec/observer.h"

namespace spvsim::check {

class UndefinedValueChecker final : public ExecutionObserver {
 public:
  void workGroupBegin(WorkGroupContext& wg, SubGroup* subGroups, size_t count) override;
  void access(SubGroup& sg, const MemoryAccess& a) override;
  void accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride, uint32_t lanes) override;

 private:
  void noteRead(SubGroup& sg, const MemoryAccess& a);
  size_t prepared_ = 0;  // the slot's sub-groups whose shadow registers are set up
};

}  // namespace spvsim::check
