// Lowering: spirv::Module functions -> LoweredKernel. Op families (src/exec/ops/*.cc)
// register one LowerFn per opcode; each picks a typed handler and fills an Inst.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spirv/module.h"
#include "spirv/module_facts.h"
#include "src/exec/address32.h"
#include "src/exec/lowered.h"
#include "src/exec/reduction_targets.h"

namespace spvsim {

// The scalar kind of a value's elements; selects handler template instances.
enum class Scalar : uint8_t { Bool, U8, U16, U32, U64, F16, F32, F64, Other };

// Shape of a value type: scalar kind, components (1 for scalars), elements per lane in
// the register (4 for vec3), and integer width in bits (odd widths such as i2 live in
// the next container, zero-extended).
struct Shape {
  Scalar scalar = Scalar::Other;
  uint32_t components = 1;
  uint32_t stride = 1;
  uint32_t bits = 0;
  uint32_t bytes = 0;  // per lane
  bool isInt() const { return scalar >= Scalar::U8 && scalar <= Scalar::U64; }
  bool isFloat() const { return scalar >= Scalar::F16 && scalar <= Scalar::F64; }
};

class Lowerer;
using LowerFn = void (*)(Lowerer&, const spirv::Instruction&);

struct OpTable {
  std::unordered_map<uint32_t, LowerFn> core;       // by spv::Op
  std::unordered_map<uint32_t, LowerFn> openclStd;  // by OpenCL.std instruction number
};

// Each op family adds its opcodes (src/exec/ops/*.cc).
void registerArithmeticOps(OpTable&);
void registerBitwiseOps(OpTable&);
void registerShiftOps(OpTable&);
void registerComparisonOps(OpTable&);
void registerConversionOps(OpTable&);
void registerCompositeOps(OpTable&);
void registerMemoryOps(OpTable&);
void registerPointerOps(OpTable&);
void registerControlOps(OpTable&);
void registerBarrierOps(OpTable&);
void registerOpenclMathOps(OpTable&);
void registerOpenclIntegerOps(OpTable&);
void registerOpenclCommonOps(OpTable&);
void registerOpenclRelationalOps(OpTable&);
void registerOpenclGeometricOps(OpTable&);
void registerOpenclVloadOps(OpTable&);
void registerOpenclShuffleOps(OpTable&);
void registerPrintfOps(OpTable&);
void registerGroupUniformOps(OpTable&);
void registerGroupNonUniformArithmeticOps(OpTable&);
void registerGroupNonUniformVoteOps(OpTable&);
void registerGroupNonUniformBallotOps(OpTable&);
void registerGroupNonUniformShuffleOps(OpTable&);
void registerIntelSubgroupShuffleOps(OpTable&);
void registerIntelSubgroupBlockIoOps(OpTable&);
void registerAtomicOps(OpTable&);
void registerAsyncCopyOps(OpTable&);
void registerExpectAssumeOps(OpTable&);
void registerImageReadWriteOps(OpTable&);
void registerImageSampleOps(OpTable&);
void registerImageQueryOps(OpTable&);
void registerIntelImageBlockIoOps(OpTable&);
void registerIntelMediaBlockIoOps(OpTable&);
void registerPipeOps(OpTable&);
void registerDeviceEnqueueOps(OpTable&);

const OpTable& opTable();  // built once, immutable

class Lowerer {
 public:
  // Lowers `entry` (an entry point of facts.module()); its work is proportional to the
  // kernel's own call tree: module-wide facts come from `facts`.
  Lowerer(const spirv::ModuleFacts& facts, const spirv::EntryPoint& entry, uint32_t width,
          LoweredKernel& out);
  void run();

  const spirv::ModuleFacts& facts;
  const spirv::Module& module;
  LoweredKernel& out;
  const uint32_t width;

  // Register offset of a value id; constants and variable addresses are placed on
  // first use.
  uint32_t reg(spirv::Id id);
  // A fresh register of `bytesPerLane` bytes per lane.
  uint32_t scratch(uint32_t bytesPerLane);
  const spirv::Type& type(spirv::Id typeId) const { return module.type(typeId); }
  const spirv::Type& typeOfValue(spirv::Id id) const;
  // Bytes per lane of a register holding a value of type `typeId`: the memory layout's
  // size, but 8 for a pointer, which registers keep in the 64-bit encoding of
  // src/exec/memory.h in every module (a Physical32 module's pointers are 4 bytes in
  // memory only: src/exec/address32.h).
  uint32_t valueBytes(spirv::Id typeId) const;
  // Whether the module has 32-bit pointers and size_t (OpMemoryModel Physical32).
  bool physical32() const { return module.addressing == spv::AddressingModel::Physical32; }
  spirv::Id typeIdOfValue(spirv::Id id) const;
  Shape shape(spirv::Id typeId) const;
  Shape shapeOfValue(spirv::Id id) const { return shape(typeIdOfValue(id)); }
  bool isConstant(spirv::Id id) const { return module.constants.count(id) != 0; }
  // The integer value of a constant id (zero-extended); throws if not a constant.
  uint64_t constantValue(spirv::Id id) const;

  // Appends an instruction for `src`: r = reg(src.result) when it has one.
  Inst& emit(const spirv::Instruction& src, ExecFn fn);
  uint32_t addExtra(const std::vector<uint32_t>& words);
  // The extra-pool index of the control-flow edge from the block being lowered to
  // `target`; its phi copies are filled in once every block has a pc.
  // An OpenCL.DebugInfo.100 or NonSemantic.* instruction: no effect on execution.
  bool isDebugInfo(const spirv::Instruction& inst) const;
  uint32_t edgeTo(spirv::Id target);
  // The extra-pool slot that will hold the pc where lanes diverging at the current
  // block's terminator reconverge (its immediate post-dominator or the virtual exit).
  uint32_t reconvergenceSlot();
  // The extra-pool slot that will hold the current function's exit pc.
  uint32_t exitSlot();
  // A private region of `bytes` per lane (function variables); returns its index.
  uint32_t allocatePrivate(uint64_t bytes, uint64_t align, const std::string& name);
  // Makes `id` a register that holds `value` in every lane from the start.
  void setConstantRegister(spirv::Id id, const std::vector<uint8_t>& value);
  // `in`'s handler records its result's shape (src/exec/register_shape.h), calling
  // SubGroup::setShape on every execution: kept where the value `result` may reach an
  // address (shapeRelevant_) and assignShapeSlots then gives it a slot.
  void keepsShape(Inst& in, spirv::Id result) {
    if (shapeRelevant_.count(result)) in.shapeOut = kKeepsShape;
  }
  // Whether `inst` is an atomic read-modify-write on a reduction target's memory
  // (src/exec/reduction.h): its handler may apply it to a host thread's private copy.
  bool reductionRmw(const spirv::Instruction& inst) const {
    return reductions_.rmws.count(inst.index) != 0;
  }
  // Index into out.functions of a function id (lowered on demand).
  uint32_t functionIndex(spirv::Id function);
  // The register holding the address of the callee's own copy of by-value (FuncParamAttr
  // ByVal) parameter `param` of out.functions[function]: a private region placed on first
  // use, which every call copies the argument's object into (src/exec/ops/control.cc).
  uint32_t byValCopy(uint32_t function, uint32_t param);

  // Whether every use of `pointer` in the function being lowered dereferences it (the
  // pointer operand of a load, store, atomic or memory copy): then it must point at an
  // element, not one past the end (src/exec/ops/array_bounds.h).
  bool onlyDereferenced(spirv::Id pointer);
  // Whether `id` has exactly one use in the function being lowered (debug info aside;
  // a literal word equal to it counts as a use).
  bool usedOnce(spirv::Id id);
  // The instruction of the block being lowered whose result is `id`, or nullptr.
  const spirv::Instruction* definitionInCurrentBlock(spirv::Id id) const {
    for (const auto& inst : block_->instructions)
      if (inst.result == id) return &inst;
    return nullptr;
  }
  bool definedInCurrentBlock(spirv::Id id) const { return definitionInCurrentBlock(id); }

  // Where a load of `pointer` reads a built-in variable (src/exec/builtins.h): the
  // variable itself, or one component of it through a constant access chain.
  struct BuiltinPointer {
    uint32_t slot = 0;   // index into out.builtins
    uint32_t first = 0;  // the first component read
    uint32_t components = 0;
  };
  // nullptr where `pointer` is no such pointer.
  const BuiltinPointer* builtinPointer(spirv::Id pointer) const;

  // "OpFAdd on half3": names an opcode with the type a handler was missing for.
  std::string describeWithType(const spirv::Instruction& inst) const;

  [[noreturn]] void unsupported(const spirv::Instruction& inst,
                                const std::string& detail = "") const;

  // Operand i of an instruction (the word after result type and result id).
  static spirv::Id operand(const spirv::Instruction& inst, size_t i) { return inst.operands.at(i); }

  // The OpExtInst argument i (after the set id and instruction number).
  static spirv::Id extArg(const spirv::Instruction& inst, size_t i) {
    return inst.operands.at(2 + i);
  }

 private:
  struct PendingPc {
    uint32_t extraIndex;
    spirv::Id block;  // 0: the function's exit
  };

  void lowerFunction(uint32_t index);
  void lowerInstruction(const spirv::Instruction& inst);
  void placeConstant(spirv::Id id, uint32_t reg);
  void placeVariable(const spirv::Variable& v, uint32_t reg);
  void patchPcs(uint32_t exitPc);
  void emitOddWidthFixups(const spirv::Instruction& inst, bool before);
  // Places the module-scope variables the kernel's call tree uses (spirv::KernelFacts).
  void layoutModuleVariables();
  void placeLocalVariable(const spirv::Variable& v);
  void placePrivateVariable(const spirv::Variable& v);
  // Whether every use of built-in variable `v` in the call tree is a load, directly or
  // through a constant access chain that only loads use; records builtinPointers_.
  bool onlyLoaded(const spirv::Variable& v, uint32_t slot);
  // Where a module-scope variable is (for relocations): after layoutModuleVariables.
  std::function<std::optional<uint64_t>(spirv::Id)> placedVariable() const;
  // A constant in memory: its bytes with the addresses it holds filled in (32-bit ones in
  // a Physical32 module).
  std::vector<uint8_t> constantMemoryBytes(const spirv::Constant& c);
  // A constant's register value: as in memory, but a pointer in its 8-byte encoding.
  std::vector<uint8_t> constantRegisterBytes(const spirv::Constant& c);
  void recordValues();  // LoweredKernel::values and names, for the debugger
  // Inst::shapeOut and LoweredKernel::initialShapes, once all code is lowered.
  void assignShapeSlots();
  // The values whose shapes a consumer may use: load and store pointers and access chain
  // operands, and what they are computed from through shape-keeping instructions.
  void findShapeRelevant();
  static constexpr uint32_t kKeepsShape = 0xffffffffu;
  void recordDebugVariables();
  uint32_t allocate(uint64_t bytesPerLane);
  // A register that holds `value` in every lane from the start.
  uint32_t constantRegister(const std::vector<uint8_t>& value);
  // The kernel body that an llvm-spirv wrapper (the entry point's function) forwards its
  // parameters to, or nullptr (src/DESIGN.md, "Kernel wrappers").
  const spirv::Function* forwardedBody() const;

  const spirv::EntryPoint& entry_;
  const spirv::Function* body_ = nullptr;  // forwardedBody(), where lowering started
  ReductionAnalysis reductions_;           // of the function lowering starts at
  std::unordered_map<spirv::Id, uint32_t> regs_;
  std::unordered_map<spirv::Id, uint32_t> functionIndex_;
  std::unordered_map<spirv::Id, uint32_t> blockPc_;
  std::unordered_map<spirv::Id, uint32_t> reconvergeBlock_;  // block -> ipdom (0: exit)
  std::unordered_map<spirv::Id, uint64_t> variablePointer_;
  std::unordered_map<spirv::Id, BuiltinPointer> builtinPointers_;
  std::vector<PendingPc> pendingPcs_;
  std::unordered_map<spirv::Id, uint32_t> signedOverride_;
  std::vector<uint32_t> uniformRegs_;  // constants: Uniform from the start
  std::unordered_set<spirv::Id> shapeRelevant_;
  std::vector<uint32_t> copyTargets_;  // written by phi copies
  std::vector<uint32_t> pendingFunctions_;
  std::unordered_map<uint64_t, uint32_t> byValCopies_;  // (function << 32 | param) -> register
  std::vector<std::pair<uint32_t, spirv::Id>> pendingPrivateInits_;  // region, initializer
  // Physical32: the addresses of the module-scope variables (all a relocation can name),
  // placed as every launch of the kernel places them; made after layoutModuleVariables.
  std::optional<Address32Map> variableAddresses32_;
  const spirv::Function* fn_ = nullptr;
  // onlyDereferenced() of the function `derefFn_`, computed on first use.
  std::unordered_map<spirv::Id, bool> derefOnly_;
  const spirv::Function* derefFn_ = nullptr;
  std::unordered_map<spirv::Id, uint32_t> uses_;  // of the function usesFn_
  const spirv::Function* usesFn_ = nullptr;
  const spirv::Block* block_ = nullptr;
  uint32_t fnIndex_ = 0;
};

// A memory-semantics operand as Inst::aux2 keeps it (kDynamicSemantics if not constant).
inline uint32_t memorySemantics(Lowerer& lw, spirv::Id id) {
  return lw.isConstant(id) ? uint32_t(lw.constantValue(id)) & 0xffff : kDynamicSemantics;
}

// Picks a handler instance by scalar kind. `H` is a class template with a static
// `run(SubGroup&, const Inst&)`; returns nullptr for kinds the family lacks.
template <template <class> class H>
ExecFn pickUnsigned(Scalar s) {
  switch (s) {
    case Scalar::U8:
      return &H<uint8_t>::run;
    case Scalar::U16:
      return &H<uint16_t>::run;
    case Scalar::U32:
      return &H<uint32_t>::run;
    case Scalar::U64:
      return &H<uint64_t>::run;
    default:
      return nullptr;
  }
}

template <template <class> class H>
ExecFn pickSigned(Scalar s) {
  switch (s) {
    case Scalar::U8:
      return &H<int8_t>::run;
    case Scalar::U16:
      return &H<int16_t>::run;
    case Scalar::U32:
      return &H<int32_t>::run;
    case Scalar::U64:
      return &H<int64_t>::run;
    default:
      return nullptr;
  }
}

template <template <class> class H>
ExecFn pickFloat(Scalar s) {
  switch (s) {
    case Scalar::F16:
      return &H<_Float16>::run;
    case Scalar::F32:
      return &H<float>::run;
    case Scalar::F64:
      return &H<double>::run;
    default:
      return nullptr;
  }
}

// Picks H<uintN_t> by an element's size: integers, floats (by their bits) and, when
// `bools`, booleans (1 byte); nullptr for other kinds. For handlers that only move bits.
template <template <class> class H>
ExecFn pickBits(Scalar s, bool bools = false) {
  switch (s) {
    case Scalar::Bool:
      return bools ? &H<uint8_t>::run : nullptr;
    case Scalar::U8:
      return &H<uint8_t>::run;
    case Scalar::U16:
    case Scalar::F16:
      return &H<uint16_t>::run;
    case Scalar::U32:
    case Scalar::F32:
      return &H<uint32_t>::run;
    case Scalar::U64:
    case Scalar::F64:
      return &H<uint64_t>::run;
    default:
      return nullptr;
  }
}

// Picks H<uintN_t> for elements of `bytes` bytes (1, 2, 4, 8); nullptr otherwise.
template <template <class> class H>
ExecFn pickByBytes(uint64_t bytes) {
  switch (bytes) {
    case 1:
      return &H<uint8_t>::run;
    case 2:
      return &H<uint16_t>::run;
    case 4:
      return &H<uint32_t>::run;
    case 8:
      return &H<uint64_t>::run;
    default:
      return nullptr;
  }
}

}  // namespace spvsim
