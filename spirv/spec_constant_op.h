// OpSpecConstantOp as OpenCL producers use it: address arithmetic for the initializers of
// program-scope variables (`constant int* p = &table[2];`).
#pragma once

#include "spirv/module.h"

namespace spvsim::spirv {

// Fills c.bytes and c.relocations for an OpSpecConstantOp (operands: the opcode, then
// its operands): access chains over a variable's address with constant indices, and
// pointer casts. Throws Error(DiagnosticKind::Unsupported) naming any other operation.
void evaluateSpecConstantOp(const Module& module, const Instruction& inst, Constant& c);

}  // namespace spvsim::spirv
