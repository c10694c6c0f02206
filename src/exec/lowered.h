// The lowered form of a kernel: pre-decoded instructions whose operands are byte
// offsets into a sub-group's register file. Built once per (kernel, sub-group size),
// shared read-only by every launch and host thread.
//
// Register file layout (struct of arrays): a value id of per-lane size S owns
// S * width contiguous bytes; lane l's value starts at offset + l * S. Values use the
// OpenCL C memory layout (vec3 padded to vec4), so loads, stores, bitcasts and
// composite copies are plain byte copies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "spirv/module.h"
#include "spirv/module_facts.h"
#include "src/exec/memory.h"
#include "src/exec/reduction.h"

namespace spvsim {

class SubGroup;
struct Inst;
using ExecFn = void (*)(SubGroup&, const Inst&);
// Completes a work-group collective once every sub-group of the work-group waits at
// it (src/exec/workgroup.cc): reads each sub-group's operands, writes each one's result.
using WorkGroupCombineFn = void (*)(SubGroup* subGroups, size_t count, const Inst&);

constexpr uint32_t kNoShapeSlot = 0xffffffffu;

struct Inst {
  ExecFn fn = nullptr;
  uint32_t r = 0;  // result register offset
  uint32_t a = 0;  // operand register offsets (meaning per handler)
  uint32_t b = 0;
  uint32_t c = 0;
  uint32_t n = 0;    // components, or bytes per lane, per handler
  uint32_t aux = 0;  // handler-specific: an index into LoweredKernel::extra, ...
  uint32_t aux2 = 0;
  uint32_t src = 0;  // spirv::Instruction::index, for diagnostics
  // Work-group collectives: 1 + index into LoweredKernel::combiners (0: none). The
  // handler `fn` parks the sub-group like a work-group barrier.
  uint32_t combine = 0;
  // Where a handler that knows its result's shape records it (src/exec/register_shape.h):
  // shapeSlot(r) when this is the only instruction that writes r and the value may reach
  // an address, else kNoShapeSlot (Lowerer::assignShapeSlots).
  uint32_t shapeOut = kNoShapeSlot;
};
static_assert(sizeof(Inst) == 48, "an instruction fills its 48 bytes: keep it so");

// A control-flow edge: where it goes and the phi copies it performs.
// Layout in LoweredKernel::extra at `edge`: [targetPc, copyCount, (dst, src, bytes)*].
// When the copies of an edge read registers that they also write, lowering routes
// them through scratch registers, so executing them in order is a parallel copy.
// kCopyKeepsShape in `bytes`: the copy carries the source's register shape (a phi whose
// shape a consumer may use: src/exec/register_shape.h).
constexpr uint32_t kCopyKeepsShape = 0x80000000u;

constexpr uint32_t kNoPc = 0xffffffffu;

// Inst::aux2 of atomics, fences and barriers holds the memory semantics (16 bits); a
// semantics operand that is not a constant is kept as this (a checker then assumes
// the strongest).
constexpr uint32_t kDynamicSemantics = 0xffff;

struct LoweredFunction {
  spirv::Id id = 0;
  uint32_t entryPc = 0;
  uint32_t exitPc = 0;  // the function's virtual exit: where returning lanes gather
  std::vector<uint32_t> paramRegs;
  std::vector<uint32_t> paramSizes;
  uint32_t returnRegSize = 0;
  std::string name;
};

// A value placed in the register file before execution (constants, variable
// addresses), broadcast to every lane.
struct RegisterInit {
  uint32_t reg = 0;
  std::vector<uint8_t> value;  // one lane's bytes
};

enum class Builtin : uint8_t {
  GlobalInvocationId,
  LocalInvocationId,
  WorkgroupId,
  NumWorkgroups,
  WorkgroupSize,
  EnqueuedWorkgroupSize,
  GlobalSize,
  GlobalOffset,
  GlobalLinearId,
  LocalInvocationIndex,
  WorkDim,
  SubgroupSize,
  SubgroupMaxSize,
  NumSubgroups,
  NumEnqueuedSubgroups,
  SubgroupId,
  SubgroupLocalInvocationId,
  SubgroupEqMask,
  SubgroupGeMask,
  SubgroupGtMask,
  SubgroupLeMask,
  SubgroupLtMask,
};

// A built-in variable: a private region each lane sees its own value in.
struct BuiltinSlot {
  Builtin builtin;
  uint32_t region = 0;  // index into MemoryMap::priv
  uint32_t elementBytes = 0;
  uint32_t components = 1;
  // Whether the region is written at each sub-group start. False where every use of the
  // variable is a load lowered to a built-in read (src/exec/builtins.h): then only
  // launches with LaunchContext::builtinStorage write it.
  bool inMemory = true;
};

// Where a value id lives in the register file, for the debugger (src/debugger).
struct ValueSlot {
  spirv::Id id = 0;
  spirv::Id type = 0;
  uint32_t reg = 0;    // lane l's value starts at reg + l * bytes
  uint32_t bytes = 0;  // per lane
};

constexpr uint32_t kNoFunction = 0xffffffffu;

// Module-scope Workgroup (local) variables start at multiples of this many bytes of the
// local arena, or of their type's alignment when that is larger.
inline constexpr uint64_t kLocalVariableAlign = 16;

// A source-level name for a value: its OpName, or an OpenCL.DebugInfo.100 variable.
struct ValueName {
  std::string name;
  spirv::Id id = 0;                 // a ValueSlot's id
  uint32_t function = kNoFunction;  // index into LoweredKernel::functions; none: module
  bool address = false;             // the value is the address of the named storage
  uint32_t from = 0;                // DebugValue: the binding's spirv index (else 0)
  bool isSigned = false;            // debug info says a signed integer (element) type
  std::string typeName;             // the source type from debug info, or ""
  uint32_t argNumber = 0;           // the function parameter (from 1) it is; 0: none
};

struct LoweredKernel {
  const spirv::EntryPoint* entry = nullptr;
  // The module's facts, shared by every kernel of the module (owned by the Program).
  const spirv::ModuleFacts* facts = nullptr;
  uint32_t width = 0;  // sub-group size (lanes per register)
  std::vector<Inst> code;
  std::vector<uint32_t> extra;
  std::vector<WorkGroupCombineFn> combiners;  // see Inst::combine
  std::vector<LoweredFunction> functions;     // [0] is the entry point
  uint32_t registerBytes = 0;                 // whole register file of one sub-group
  // Each sub-group's register shapes at its start (src/exec/register_shape.h): Uniform
  // for constants and the entry's parameters, else Unknown.
  std::vector<uint8_t> initialShapes;
  std::vector<RegisterInit> inits;
  std::vector<BuiltinSlot> builtins;
  // Regions fixed by the module: private (the call tree's function variables, by-value
  // parameters' copies and built-ins; the loader refuses recursion, so each has one
  // static slot), local (the module-scope Workgroup variables the call tree uses; see
  // kLocalVariableAlign).
  // Program-scope variables are the Program's (global and constant regions 1..N).
  std::vector<Region> privateRegions;
  uint64_t privateBytes = 0;  // per lane
  std::vector<Region> localRegions;
  uint64_t localBytes = 0;
  // Kernel parameters: ByVal struct parameters point at a private copy (region != 0).
  std::vector<uint32_t> paramByValRegion;
  // Module-scope Private variables with initializers: (region, bytes) per lane.
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> privateInits;
  bool usesPrintf = false;
  // The call tree enqueues commands or uses device events (device-side enqueue): a launch
  // runs on one host thread, so which enqueue finds its queue full, which event gets
  // which clk_event_t and which release finds an event gone depend on the schedule
  // only, never on host timing.
  bool usesDeviceEnqueue = false;
  // No instruction of the call tree ties the sub-groups of a work-group together
  // (src/exec/subgroup_independence.h): a launch may run them apart.
  bool subGroupsIndependent = true;
  // Parameters whose buffers a launch may privatise (src/exec/reduction.h).
  std::vector<ReductionTarget> reductions;
  // Bit k: the launch may write through parameter k (src/exec/pointer_params.h).
  uint64_t writtenParams = ~uint64_t(0);
  // The fused handlers (src/DESIGN.md, "Fused chain and access"): code[pc] runs as one
  // handler with the `covers` instructions after it where the stretch has room, and
  // `unfused` is the handler it had before. A kernel copy that wraps instructions in
  // trampolines (an observer's instrument()) restores it wherever the pair takes in a
  // wrapped instruction (unfuseWhere), so that every trampoline runs.
  struct Fusion {
    uint32_t pc = 0;
    uint32_t covers = 0;
    ExecFn unfused = nullptr;
  };
  std::vector<Fusion> fusions;
  // Records that code[pc], whose handler was `unfused`, now covers the `covers`
  // instructions after it (a fusion extended from the same pc keeps the first handler).
  void noteFusion(size_t pc, ExecFn unfused, uint32_t covers) {
    if (!fusions.empty() && fusions.back().pc == pc)
      fusions.back().covers = std::max(fusions.back().covers, covers);
    else
      fusions.push_back({uint32_t(pc), covers, unfused});
  }
  // Gives each fused instruction its handler from before fusion where `wrapped` says so
  // of it or of an instruction it covers.
  template <class Wrapped>
  void unfuseWhere(Wrapped&& wrapped) {
    for (const Fusion& f : fusions)
      for (uint32_t pc = f.pc; pc <= f.pc + f.covers && pc < code.size(); ++pc)
        if (wrapped(pc)) {
          code[f.pc].fn = f.unfused;
          break;
        }
  }

  // By spirv::Instruction::index, for diagnostics: the disassembly, and "file:line" (""
  // where there is none). The module's text, shared by all its kernels.
  const std::string& instructionText(uint32_t src) const { return facts->instructionText(src); }
  const std::string& instructionLine(uint32_t src) const { return facts->instructionLine(src); }
  // Whether the load at `src` only reads back what it stores again (spirv/read_back_loads.h).
  bool readsBack(uint32_t src) const { return facts->readsBack(src); }

  // For the debugger: every value id with a register (sorted by id), and the names of
  // values (OpName, debug-info variables).
  std::vector<ValueSlot> values;
  std::vector<ValueName> names;

  // "`%5 = OpLoad %uint %4` (k.cl:7)" for SPIR-V instruction `src`, for messages.
  std::string describeInstruction(uint32_t src) const {
    const std::string& text = instructionText(src);
    std::string s = !text.empty() ? "`" + text + "`" : "instruction " + std::to_string(src);
    if (const std::string& line = instructionLine(src); !line.empty()) s += " (" + line + ")";
    return s;
  }

  const ValueSlot* findValue(spirv::Id id) const {
    auto it = std::lower_bound(values.begin(), values.end(), id,
                               [](const ValueSlot& v, spirv::Id x) { return v.id < x; });
    return it != values.end() && it->id == id ? &*it : nullptr;
  }
};

}  // namespace spvsim
