// Loads of built-in variables lowered to built-in reads (src/exec/builtins.h).
#pragma once

#include "src/exec/lowering.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

// Lowers OpLoad `inst` as a built-in read when its pointer is a built-in variable or a
// constant component of one (Lowerer::builtinPointer); false where it is not one.
bool lowerBuiltinLoad(Lowerer& lw, const spirv::Instruction& inst, uint32_t align);

// Where `composite` is the result of the built-in read lowered last, in this block, and
// its only use is the extract of one `elementBytes` element being lowered: makes the
// read do the extract too when the work-group fuses (WorkGroupContext::fuse).
bool fuseBuiltinExtract(Lowerer& lw, spirv::Id composite, uint32_t elementBytes);

// Where `inst`, a scalar 64- to 32-bit OpUConvert / OpSConvert being lowered, narrows
// the component that a fused read and extract (fuseBuiltinExtract), lowered last in this
// block, extracted for it alone (`int x = get_global_id(0)`): makes the read narrow it
// too when the work-group fuses.
void fuseBuiltinNarrow(Lowerer& lw, const spirv::Instruction& inst);

// The OpLoad handler of src/exec/ops/load_store.cc for any size: r = *a, n bytes per
// lane, aux the required alignment.
void loadThroughMemory(SubGroup& sg, const Inst& in);

}  // namespace spvsim::ops
