// The memory copy that OpCopyMemory executes, for other instructions that copy an object
// (by-value arguments at a call, src/exec/ops/control.cc).
#pragma once

#include "src/exec/lowered.h"

namespace spvsim::ops {

// Copies in.n bytes per active lane from the pointers in register in.b to those in
// register in.a, as OpCopyMemory does (src/exec/ops/copy_memory.cc): both sides
// located and bounds-checked, one Copy access per lane for observers (so shadows
// follow the bytes), failures reported at `in`.
void copyMemoryBytes(SubGroup& sg, const Inst& in);

}  // namespace spvsim::ops
