// The shadow rules of value-level undefinedness tracking (src/check/shadow_kernel.h): what
// each kind of instruction does to the shadow registers and memory, and where it reports an
// undefined operand (`uninitialized-value`). Rules for control flow, calls, loads and stores
// read the lowered Inst's operands as their handlers in src/exec/ops/ lay them out; the
// others read ShadowRule's operands, taken from the SPIR-V instruction.
#pragma once

#include "src/check/shadow_kernel.h"

namespace spvsim::check::rules {

// A result is undefined (per component for element-wise instructions) where any operand
// it depends on is; operands with a use are reported first.
void propagate(SubGroup& sg, const Inst& in, const ShadowRule& r);
// Pure byte moves (composite extract/insert/construct, shuffles, copies, bitcasts): the
// handler itself, run on the shadow register file.
void moveBytes(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpVectorShuffle with undefined (0xFFFFFFFF) components: moveBytes, then those
// components (1 bytes of ShadowRule::data) undefined.
void shuffleVector(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpSelect: the chosen operand's shadow; everything where the condition is undefined.
void select(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpLoad (after the handler): reports an undefined address; the result takes the memory's
// shadow, from the observer's record of the handler's whole sub-group read where it made
// one (ShadowKernel::runBy).
void load(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpStore: reports an undefined address, and an undefined value stored to global memory
// (pre); the memory takes the value's shadow (post, after the executor's write events).
void storeCheck(SubGroup& sg, const Inst& in, const ShadowRule& r);
void storeShadow(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpCopyMemory(Sized): reports undefined addresses, and undefined data bytes copied to
// global memory (the executor's copy events carry the shadow).
void copyCheck(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpenCL.std built-ins that write through a pointer (fract, modf, sincos, frexp, remquo,
// lgamma_r, vstore*): propagate, and report an undefined value written to global memory
// (pre); built-ins writing a result-shaped value give the memory the result's shadow (post).
void pointerOutput(SubGroup& sg, const Inst& in, const ShadowRule& r);
void pointerOutputShadow(SubGroup& sg, const Inst& in, const ShadowRule& r);
// Branches and switches: report an undefined condition or selector; the phi copies of the
// edges the lanes take copy shadows too.
void branch(SubGroup& sg, const Inst& in, const ShadowRule& r);
void branchConditional(SubGroup& sg, const Inst& in, const ShadowRule& r);
void switchSelector(SubGroup& sg, const Inst& in, const ShadowRule& r);
// OpFunctionCall: arguments' shadows to the callee's parameters; OpReturnValue: the
// value's shadow to the caller's result register.
void call(SubGroup& sg, const Inst& in, const ShadowRule& r);
void returnValue(SubGroup& sg, const Inst& in, const ShadowRule& r);
// After an instruction that read memory other than by OpLoad: lanes whose reads touched
// undefined bytes get an undefined result.
void mergeReads(SubGroup& sg, const Inst& in, const ShadowRule& r);
// Sub-group shuffles and broadcasts: each lane's result takes its source lane's value
// shadow (undefined where the lane index is, or the source lane is outside the sub-group
// or inactive: the handler reports those).
void shuffle(SubGroup& sg, const Inst& in, const ShadowRule& r);
// Sub-group collectives: a result is undefined in every lane where any active lane's
// operand is (values move between lanes).
void crossLane(SubGroup& sg, const Inst& in, const ShadowRule& r);

}  // namespace spvsim::check::rules
