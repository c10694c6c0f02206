// Value-level undefinedness tracking (`--check-undefined`, src/DESIGN.md "Undefined
// values"): the instrumented kernel a launch runs while the checker is on, and the shadow
// rules its instructions carry.
//
// Shadows. Registers: each sub-group's shadow register file (SubGroup::shadow, laid out as
// the registers) holds one byte per register byte, 1 where the value's byte is undefined;
// zeroed at each work-group's start, then OpUndef values are marked. Memory: 1 where a
// byte is defined (written): the mirrors of the private and local arenas
// (ObserverFactory::mirrorsArenas), and ShadowKernel::globalShadow for global and constant
// buffers the host never initialised (Region::uninitialized) and the regions that share
// their storage (hasMemoryShadow); other global and constant memory has no shadow and is
// defined.
//
// Rules. Each instruction that moves or computes values has a ShadowRule, decided once per
// launch from its SPIR-V operands; its handler is replaced by a trampoline that runs the
// rule's `pre` part, the original handler, then the `post` part. With the checker off the
// lowered kernel runs untouched: no cost per instruction.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "spirv/module.h"
#include "src/exec/lane_mask.h"
#include "src/exec/lowered.h"
#include "src/exec/memory.h"

namespace spvsim {
struct LaunchContext;
}

namespace spvsim::check {

struct ShadowRule;
using RuleFn = void (*)(SubGroup&, const Inst&, const ShadowRule&);

// What an undefined operand is reported as (a use where undefinedness matters).
enum class ShadowUse : uint8_t { None, Address, Condition, Selector, Divisor, Printf, Atomic };

// A value operand (or the result) of an instruction: its register and bytes per lane.
struct ShadowOperand {
  spirv::Id id = 0;
  uint32_t reg = 0;
  uint32_t bytes = 0;
  // Bytes per component when component c of this operand only feeds component c of the
  // result (element-wise vector instructions); 0: every byte feeds every component.
  uint32_t elem = 0;
  ShadowUse use = ShadowUse::None;  // reported where undefined in an active lane
};

struct ShadowRule {
  ExecFn original = nullptr;            // the lowered handler
  RuleFn pre = nullptr;                 // runs before it
  RuleFn post = nullptr;                // runs after it
  ShadowOperand result;                 // bytes 0: no result
  uint32_t components = 0;              // result components when element-wise, else 0
  std::vector<ShadowOperand> operands;  // value operands, in order
  // Stores and copies: which bytes of the stored type are data rather than padding (1), for
  // the check of what reaches global memory (padding may stay undefined); empty: all bytes.
  // A copy longer than the type repeats it (an array of it).
  std::vector<uint8_t> data;
  bool sizedCopy = false;  // OpCopyMemorySized (its size operand in Inst::c)
  // Built-ins that write through a pointer operand (fract, sincos, vstoren, ...): that
  // operand, and the operand whose value they write (-1: a value shaped as the result).
  uint32_t pointer = 0;
  int32_t written = -1;
  // Sub-group shuffles and broadcasts (rules::shuffle): how lane l's source lane follows
  // from operand `laneOperand` (Index: its value; Xor: l ^ it; Up: l - it; Down: l + it;
  // First: the first active lane), and the operand whose value moves.
  enum class Lane : uint8_t { Index, Xor, Up, Down, First } lane = Lane::Index;
  uint32_t laneOperand = 0, moved = 0;
  // Whether the rule can do nothing while the sub-group's shadow registers are all zero
  // (SubGroup::shadowClean): it only reports undefined operands and moves or combines
  // register shadows (zeros into zeros), or, for a store, gives memory the value's
  // shadow, which the observer's write event already marked defined.
  bool idleWhenClean = false;
};

// A copy of the launch's lowered kernel whose instructions with rules run through the
// trampoline (code[pc].fn), and what the rules need.
struct ShadowKernel : LoweredKernel {
  explicit ShadowKernel(const LoweredKernel& k) : LoweredKernel(k) {}
  std::vector<ShadowRule> rules;  // by pc; empty rules where the handler is unchanged
  // Constants with undefined bytes (OpUndef, composites with OpUndef parts): (register,
  // one lane's shadow), put in place at each work-group start.
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> undefined;
  // By global / constant region index: the shadow of the region's first byte (1 per
  // defined byte) where it has one (hasMemoryShadow), else null. Regions whose storage
  // overlaps share one shadow, held in `shadowStorage`, as they share their bytes: what a
  // kernel writes through one argument is defined when read through another. The
  // launch's state, changed as it runs: the checker's launch is serial (one host
  // thread), so the rules and the observer share it without locks.
  std::vector<uint8_t*> globalShadow, constantShadow;
  std::vector<std::unique_ptr<uint8_t[]>> shadowStorage;
  const spirv::Module* module = nullptr;
  // The arena mirror (LaunchContext::mirrorOf) holding private and local memory's shadow.
  uint32_t mirror = 0;
  // Lanes of the instruction execution `readStep` of sub-group `readBy` that read memory
  // with undefined bytes (set by the observer's read events; rules::mergeReads uses it
  // for instructions other than OpLoad that read memory: vloadn, atomics, block reads).
  mutable const SubGroup* readBy = nullptr;
  mutable uint64_t readStep = 0;
  mutable LaneMask readUndefined;
  // Whether the whole sub-group read of execution `runStep` of sub-group `runBy` (an
  // accessRun) read only defined bytes (or memory without shadow): rules::load then needs
  // no look at the memory of its own.
  mutable const SubGroup* runBy = nullptr;
  mutable uint64_t runStep = 0;
  mutable bool runDefined = false;
};

// The instrumented kernel for `launch` (its kernel and memory map bound), whose private
// and local memory shadows are arena mirror `mirror`. Throws
// Error(DiagnosticKind::Internal) when the module's words cannot be decoded again.
std::shared_ptr<const ShadowKernel> instrumentKernel(const LaunchContext& launch, uint32_t mirror);

// Whether region `r` of global or constant memory has a memory shadow: it is a buffer the
// host never initialised, or it is in a set of regions whose storage overlaps (one buffer
// passed as two arguments, sub-buffers of one buffer, and what overlaps those) that holds
// one.
bool hasMemoryShadow(const MemoryMap& mem, Space space, uint64_t r);

// The memory shadow of `host` (what kernel pointer `p` resolved to), 1 per defined byte,
// or nullptr for memory without shadow (always defined).
uint8_t* memoryShadow(const SubGroup& sg, uint64_t p, const uint8_t* host);

// The handler of instructions with rules.
void shadowTrampoline(SubGroup& sg, const Inst& in);

}  // namespace spvsim::check
