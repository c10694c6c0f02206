// The lowering of the memory instructions, one file per concern: loads, stores and
// variables (load_store.cc), access chains (access_chain.cc), a chain fused with the access
// that uses it (fused_access.cc) and memory copies (copy_memory.cc); registerMemoryOps
// (memory_ops.cc) puts them in the op table. Every access goes through SubGroup::resolve
// (bounds, address space, writability) and is alignment checked against the instruction's
// Aligned operand or the type's natural alignment.
#pragma once

#include <cstdint>

#include "src/exec/lowering.h"

namespace spvsim::ops {

void lowerLoad(Lowerer& lw, const spirv::Instruction& inst);
void lowerStore(Lowerer& lw, const spirv::Instruction& inst);
void lowerVariable(Lowerer& lw, const spirv::Instruction& inst);
// OpAccessChain and its forms; `hasElement`: the Ptr forms, whose first index is Element.
void lowerAccessChain(Lowerer& lw, const spirv::Instruction& inst, bool hasElement);
void lowerCopyMemory(Lowerer& lw, const spirv::Instruction& inst);
void lowerCopyMemorySized(Lowerer& lw, const spirv::Instruction& inst);

// A chain fused with the access that uses it (fused_access.cc): lowerLoad and lowerStore
// call it before they emit the access; nothing where it does not apply.
template <bool Write>
void fuseWithChain(Lowerer& lw, spirv::Id pointer, uint32_t bytes);

}  // namespace spvsim::ops
