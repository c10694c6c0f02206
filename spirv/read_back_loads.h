// Loads whose value the kernel never observes: the compiler's half of a partial store.
//
// `out[i].x = 42` on a `float4*` compiles to a load of the whole vector, an insert of the
// new component and a store of the vector back where it came from (clang at every -O
// level; two component stores load once and insert twice). The kernel reads nothing: the
// components it did not assign go back, unchanged, to the bytes they came from. Such a
// load of a write-only buffer is therefore no `access-violation` (src/DESIGN.md, "Access
// flags"), though it is performed like any other read.
#pragma once

#include <cstdint>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// The OpLoads of `module` (their Instruction::index, ascending) each of whose uses puts
// the loaded components back into a store through the pointer the load read, every
// component at its own position: directly as the stored value, or through results of
// OpCompositeInsert (the loaded value as the composite), OpVectorShuffle (components
// selected in place), OpCopyObject, OpSelect (as a chosen value) and OpPhi (where the
// pointer is not recomputed around a loop) that carry them. "The pointer the load read" is
// the same id, or one computed by the same instruction (an access chain or bitcast)
// from the same operands. Any other use (an extract, arithmetic, a phi, a call, a store
// elsewhere, a component moved) makes the load a read of the kernel's.
std::vector<uint32_t> readBackLoads(const Module& module);

}  // namespace spvsim::spirv
