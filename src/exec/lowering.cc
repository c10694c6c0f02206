// Lowering's driver: the op table, the walk over the kernel's call tree and blocks (control
// flow edges with their phi copies, reconvergence points), each instruction's lowering with
// the odd-width fix-ups around it, and the per-function use queries handlers ask
// (onlyDereferenced, usedOnce). Variable placement is in lowering_variables.cc, values'
// registers, constants and names in lowering_values.cc, shape slots in lowering_shapes.cc.
#include "src/exec/lowering.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/cfg.h"
#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/opcode.h"
#include "spirv/text.h"
#include "src/exec/pointer_params.h"
#include "src/exec/register_shape.h"
#include "src/exec/subgroup.h"
#include "src/exec/subgroup_independence.h"

namespace spvsim {

using spirv::Id;
using spirv::TypeKind;
using spv::Op;

const OpTable& opTable() {
  static const OpTable table = [] {
    OpTable t;
    registerArithmeticOps(t);
    registerBitwiseOps(t);
    registerShiftOps(t);
    registerComparisonOps(t);
    registerConversionOps(t);
    registerCompositeOps(t);
    registerMemoryOps(t);
    registerPointerOps(t);
    registerControlOps(t);
    registerBarrierOps(t);
    registerOpenclMathOps(t);
    registerOpenclIntegerOps(t);
    registerOpenclCommonOps(t);
    registerOpenclRelationalOps(t);
    registerOpenclGeometricOps(t);
    registerOpenclVloadOps(t);
    registerOpenclShuffleOps(t);
    registerPrintfOps(t);
    registerGroupUniformOps(t);
    registerGroupNonUniformArithmeticOps(t);
    registerGroupNonUniformVoteOps(t);
    registerGroupNonUniformBallotOps(t);
    registerGroupNonUniformShuffleOps(t);
    registerIntelSubgroupShuffleOps(t);
    registerIntelSubgroupBlockIoOps(t);
    registerAtomicOps(t);
    registerAsyncCopyOps(t);
    registerExpectAssumeOps(t);
    registerImageReadWriteOps(t);
    registerImageSampleOps(t);
    registerImageQueryOps(t);
    registerIntelImageBlockIoOps(t);
    registerIntelMediaBlockIoOps(t);
    registerPipeOps(t);
    registerDeviceEnqueueOps(t);
    return t;
  }();
  return table;
}

namespace {

// Registers start on a shape granule: the granule names the register.
constexpr uint32_t kRegisterAlign = kShapeGranule;

bool isOddWidth(const Shape& s) {
  return s.isInt() && s.bits != 8 && s.bits != 16 && s.bits != 32 && s.bits != 64;
}

// Odd-width integers are kept zero-extended in their container: results are masked
// after each instruction, and operands of signed instructions are sign-extended first.
// Both run over the whole register in blocks of 16 (which vectorise) when every lane is
// active: odd widths come from vector bitcasts (`<4 x i1>` to `i4`) in the hot paths of
// ordinary kernels, e.g. a stencil's border test. `r` may be `a` (in place).
template <class T, class F>
void eachComponent(SubGroup& sg, const Inst& in, T* r, const T* a, F f) {
  if (sg.allActive) {
    constexpr uint32_t kBlock = 16;
    uint32_t e = sg.width * in.n;
    for (; e >= kBlock; e -= kBlock, r += kBlock, a += kBlock)
      for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i]);
    for (uint32_t i = 0; i < e; ++i) r[i] = f(a[i]);
    return;
  }
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = f(a[l * in.n + c]);
  });
}

template <class T>
struct MaskBits {  // in place
  static void run(SubGroup& sg, const Inst& in) {
    const T m = static_cast<T>((uint64_t(1) << in.aux) - 1);
    T* r = sg.reg<T>(in.r);
    eachComponent<T>(sg, in, r, r, [m](T v) { return T(v & m); });
  }
};

template <class T>
struct SignExtendBits {
  static void run(SubGroup& sg, const Inst& in) {
    const unsigned shift = sizeof(T) * 8 - in.aux;
    using S = std::make_signed_t<T>;
    eachComponent<T>(sg, in, sg.reg<T>(in.r), sg.reg<T>(in.a),
                     [shift](T v) { return T(S(T(v << shift)) >> shift); });
  }
};

bool readsSigned(Op op) { return spirv::readsSignedOperands(op); }

}  // namespace

Lowerer::Lowerer(const spirv::ModuleFacts& f, const spirv::EntryPoint& entry, uint32_t width,
                 LoweredKernel& o)
    : facts(f), module(f.module()), out(o), width(width), entry_(entry) {
  out.entry = &entry;
  out.facts = &f;
  out.width = width;
  out.privateRegions.push_back(Region{});
  out.localRegions.push_back(Region{});
}

void Lowerer::run() {
  findShapeRelevant();
  layoutModuleVariables();
  body_ = forwardedBody();
  if (const spirv::Function* start = body_ ? body_ : module.findFunction(entry_.function)) {
    reductions_ =
        findReductionTargets(facts, facts.kernel(entry_), *start,
                             [this](const spirv::Instruction& i) { return isDebugInfo(i); });
    out.reductions = reductions_.targets;
    out.writtenParams =
        writtenParams(facts, facts.kernel(entry_), *start,
                      [this](const spirv::Instruction& i) { return isDebugInfo(i); });
  }
  functionIndex(body_ ? body_->id : entry_.function);
  while (!pendingFunctions_.empty()) {
    uint32_t f = pendingFunctions_.front();
    pendingFunctions_.erase(pendingFunctions_.begin());
    lowerFunction(f);
  }
  out.registerBytes = std::max<uint32_t>(out.registerBytes, kRegisterAlign);
  const auto& params = entry_.signature.params;
  out.paramByValRegion.assign(params.size(), 0);
  for (size_t k = 0; k < params.size(); ++k) {
    if (params[k].kind != spirv::ParamKind::ByValStruct) continue;
    const spirv::Type& pointee = type(type(params[k].type).element);
    out.paramByValRegion[k] = allocatePrivate(pointee.size, pointee.align,
                                              "argument " + spirv::escapeText(params[k].name));
  }
  assignShapeSlots();
  recordValues();
}

// llvm-spirv emits each kernel as a function that the entry point calls with its own
// parameters, at every -O level. Starting at that body instead saves every sub-group a
// call and a return (and the argument copies); the wrapper's parameter names name the
// body's registers (recordValues), so that the debugger still finds them.
const spirv::Function* Lowerer::forwardedBody() const {
  const spirv::Function* body = module.onlyCallee(entry_.function);
  const spirv::Function* wrapper = module.findFunction(entry_.function);
  if (!body || body->blocks.empty() || !wrapper) return nullptr;
  const spirv::Instruction& call = wrapper->blocks[0].instructions[0];
  const std::vector<Id> args(call.operands.begin() + 1, call.operands.end());
  return args == wrapper->params && type(body->resultType).kind == spirv::TypeKind::Void ? body
                                                                                         : nullptr;
}

uint32_t Lowerer::allocate(uint64_t bytesPerLane) {
  uint32_t offset = out.registerBytes;
  // Types are at most 2^37 bytes (spirv::kMaxTypeBytes) and width at most 128: no overflow.
  uint64_t size = std::max<uint64_t>(bytesPerLane, 1) * width;
  size = (size + kRegisterAlign - 1) / kRegisterAlign * kRegisterAlign;
  if (offset + size > (1ull << 31))
    throw Error(DiagnosticKind::Unsupported,
                "kernel needs more than 2 GiB of registers per sub-group");
  out.registerBytes = offset + static_cast<uint32_t>(size);
  return offset;
}

uint32_t Lowerer::scratch(uint32_t bytesPerLane) { return allocate(bytesPerLane); }

Inst& Lowerer::emit(const spirv::Instruction& src, ExecFn fn) {
  Inst in;
  in.fn = fn;
  in.src = src.index;
  if (src.result && src.resultType) in.r = reg(src.result);
  out.code.push_back(in);
  return out.code.back();
}

uint32_t Lowerer::addExtra(const std::vector<uint32_t>& words) {
  uint32_t at = static_cast<uint32_t>(out.extra.size());
  out.extra.insert(out.extra.end(), words.begin(), words.end());
  return at;
}

bool Lowerer::isDebugInfo(const spirv::Instruction& inst) const {
  if (inst.opcode != Op::OpExtInst) return false;
  auto it = module.extInstImports.find(inst.extSet());
  if (it == module.extInstImports.end()) return false;
  return it->second == "OpenCL.DebugInfo.100" || it->second.rfind("NonSemantic.", 0) == 0;
}

namespace {

// How many leading operands of `op` are pointers it dereferences (0: none).
size_t dereferencedOperands(Op op) { return spirv::dereferencedPointers(op); }

}  // namespace

bool Lowerer::onlyDereferenced(Id pointer) {
  if (derefFn_ != fn_) {
    derefFn_ = fn_;
    derefOnly_.clear();
    // Any operand word equal to an id counts as a use (a literal that happens to equal it
    // only makes the answer false: the check then allows one past the end).
    for (const auto& b : fn_->blocks)
      for (const auto& inst : b.instructions) {
        if (isDebugInfo(inst)) continue;
        const size_t deref = dereferencedOperands(inst.opcode);
        for (size_t k = 0; k < inst.operands.size(); ++k) {
          auto [it, fresh] = derefOnly_.try_emplace(inst.operands[k], true);
          it->second = it->second && k < deref;
        }
      }
  }
  auto it = derefOnly_.find(pointer);
  return it != derefOnly_.end() && it->second;
}

bool Lowerer::usedOnce(Id id) {
  if (usesFn_ != fn_) {
    usesFn_ = fn_;
    uses_.clear();
    for (const auto& b : fn_->blocks)
      for (const auto& inst : b.instructions)
        if (!isDebugInfo(inst))
          for (uint32_t word : inst.operands) ++uses_[word];
  }
  auto it = uses_.find(id);
  return it != uses_.end() && it->second == 1;
}

uint32_t Lowerer::edgeTo(Id target) {
  const spirv::Block* to = nullptr;
  for (const auto& b : fn_->blocks)
    if (b.label == target) to = &b;
  if (!to)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("branch to unknown block {}", facts.idName(target)));
  struct Copy {
    uint32_t dst, src, bytes;
    Id dstId;
  };
  std::vector<Copy> copies;
  for (const auto& inst : to->instructions) {
    if (isDebugInfo(inst)) continue;  // llvm-spirv puts DebugScope before the phis
    if (inst.opcode != Op::OpPhi) break;
    for (size_t k = 0; k + 1 < inst.operands.size(); k += 2)
      if (inst.operands[k + 1] == block_->label) {
        copies.push_back(
            {reg(inst.result), reg(inst.operands[k]), valueBytes(inst.resultType), inst.result});
        break;
      }
  }
  // A copy that reads a register another copy of this edge writes needs scratch.
  bool conflict = false;
  for (const auto& a : copies)
    for (const auto& b : copies)
      if (&a != &b && a.src == b.dst) conflict = true;
  // Bytes, and whether the copy carries its source's shape (a phi that may reach an address).
  auto bytesOf = [&](const Copy& c) {
    return c.bytes | (shapeRelevant_.count(c.dstId) ? kCopyKeepsShape : 0);
  };
  std::vector<uint32_t> words{0, 0};
  if (conflict) {
    std::vector<uint32_t> temps;
    for (const auto& c : copies) temps.push_back(scratch(c.bytes));
    for (size_t k = 0; k < copies.size(); ++k)
      words.insert(words.end(), {temps[k], copies[k].src, bytesOf(copies[k])});
    for (size_t k = 0; k < copies.size(); ++k)
      words.insert(words.end(), {copies[k].dst, temps[k], bytesOf(copies[k])});
  } else {
    for (const auto& c : copies) words.insert(words.end(), {c.dst, c.src, bytesOf(c)});
  }
  words[1] = static_cast<uint32_t>((words.size() - 2) / 3);
  for (size_t k = 2; k < words.size(); k += 3) copyTargets_.push_back(words[k]);
  uint32_t at = addExtra(words);
  pendingPcs_.push_back({at, target});
  return at;
}

uint32_t Lowerer::reconvergenceSlot() {
  uint32_t at = addExtra({0});
  pendingPcs_.push_back({at, reconvergeBlock_.at(block_->label)});
  return at;
}

uint32_t Lowerer::exitSlot() {
  uint32_t at = addExtra({0});
  pendingPcs_.push_back({at, 0});
  return at;
}

uint32_t Lowerer::functionIndex(Id function) {
  if (auto it = functionIndex_.find(function); it != functionIndex_.end()) return it->second;
  const spirv::Function* f = module.findFunction(function);
  if (!f)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("call to unknown function {}", facts.idName(function)));
  if (f->blocks.empty())
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported: call to function {} that has no "
                            "body (an unresolved import)",
                            f->linkName.empty() ? module.nameOf(function)
                                                : spirv::escapeText(f->linkName)));
  uint32_t index = static_cast<uint32_t>(out.functions.size());
  LoweredFunction lf;
  lf.id = function;
  lf.name = module.nameOf(function);
  for (size_t k = 0; k < f->params.size(); ++k) {
    lf.paramRegs.push_back(reg(f->params[k]));
    lf.paramSizes.push_back(valueBytes(f->paramTypes[k]));
  }
  lf.returnRegSize = valueBytes(f->resultType);
  out.functions.push_back(lf);
  functionIndex_[function] = index;
  pendingFunctions_.push_back(index);
  return index;
}

void Lowerer::lowerFunction(uint32_t index) {
  fnIndex_ = index;
  fn_ = module.findFunction(out.functions[index].id);
  out.functions[index].entryPc = static_cast<uint32_t>(out.code.size());
  // Reconvergence points from the post-dominator tree.
  const spirv::FunctionCfg cfg = spirv::functionCfg(module, *fn_);
  auto ipdom = spirv::immediatePostDominators(cfg.successors, cfg.exits);
  reconvergeBlock_.clear();
  for (size_t b = 0; b < fn_->blocks.size(); ++b)
    reconvergeBlock_[fn_->blocks[b].label] = ipdom[b] < 0 ? 0 : fn_->blocks[ipdom[b]].label;

  blockPc_.clear();
  for (const auto& block : fn_->blocks) {
    block_ = &block;
    blockPc_[block.label] = static_cast<uint32_t>(out.code.size());
    for (const auto& inst : block.instructions) {
      if (inst.opcode == Op::OpPhi) {
        reg(inst.result);
        continue;
      }
      lowerInstruction(inst);
    }
  }
  uint32_t exitPc = static_cast<uint32_t>(out.code.size());
  out.functions[index].exitPc = exitPc;
  extern ExecFn functionExitHandler();
  spirv::Instruction exitMarker;
  exitMarker.index = fn_->index;
  Inst& ex = emit(exitMarker, functionExitHandler());
  ex.aux = index;
  patchPcs(exitPc);
}

void Lowerer::patchPcs(uint32_t exitPc) {
  for (const auto& p : pendingPcs_)
    out.extra[p.extraIndex] = p.block == 0 ? exitPc : blockPc_.at(p.block);
  pendingPcs_.clear();
}

void Lowerer::emitOddWidthFixups(const spirv::Instruction& inst, bool before) {
  if (before) {
    if (!readsSigned(inst.opcode)) return;
    for (Id op : inst.operands) {
      if (!facts.valueType(op)) continue;
      Shape s = shapeOfValue(op);
      if (!isOddWidth(s) || signedOverride_.count(op)) continue;
      uint32_t tmp = scratch(s.bytes);
      Inst in;
      in.fn = pickUnsigned<SignExtendBits>(s.scalar);
      in.r = tmp;
      in.a = reg(op);
      in.n = s.stride;
      in.aux = s.bits;
      in.src = inst.index;
      out.code.push_back(in);
      signedOverride_[op] = tmp;
    }
    return;
  }
  signedOverride_.clear();
  if (!inst.result || !inst.resultType) return;
  Shape s = shape(inst.resultType);
  if (!isOddWidth(s)) return;
  Inst in;
  in.fn = pickUnsigned<MaskBits>(s.scalar);
  in.r = reg(inst.result);
  in.n = s.stride;
  in.aux = s.bits;
  in.src = inst.index;
  out.code.push_back(in);
}

void Lowerer::lowerInstruction(const spirv::Instruction& inst) {
  const OpTable& table = opTable();
  LowerFn fn = nullptr;
  if (inst.opcode == Op::OpExtInst) {
    const std::string& set = module.extInstImports.count(inst.extSet())
                                 ? module.extInstImports.at(inst.extSet())
                                 : std::string();
    if (isDebugInfo(inst)) return;
    if (set != "OpenCL.std")
      unsupported(inst, fmt::format("extended instruction set \"{}\"", spirv::escapeText(set)));
    auto it = table.openclStd.find(inst.extOpcode());
    if (it == table.openclStd.end())
      unsupported(inst, "OpenCL.std " + spirv::openclStdName(inst.extOpcode()));
    fn = it->second;
  } else {
    auto it = table.core.find(static_cast<uint32_t>(inst.opcode));
    if (it == table.core.end()) unsupported(inst);
    fn = it->second;
  }
  if (out.subGroupsIndependent && tiesSubGroups(*this, inst)) out.subGroupsIndependent = false;
  emitOddWidthFixups(inst, true);
  fn(*this, inst);
  emitOddWidthFixups(inst, false);
}

std::string Lowerer::describeWithType(const spirv::Instruction& inst) const {
  Id t = inst.resultType;
  if (!t && !inst.operands.empty() && facts.valueType(inst.operands[0]))
    t = typeIdOfValue(inst.operands[0]);
  std::string name = inst.opcode == Op::OpExtInst
                         ? "OpenCL.std " + spirv::openclStdName(inst.extOpcode())
                         : spirv::opcodeName(inst.opcode);
  return t ? name + " on " + spirv::typeName(module, t) : name;
}

void Lowerer::unsupported(const spirv::Instruction& inst, const std::string& detail) const {
  std::string what = detail.empty() ? spirv::opcodeName(inst.opcode) : detail;
  std::string at = inst.result ? " at " + facts.idName(inst.result)
                               : fmt::format(" (instruction {})", inst.index);
  std::string line = module.describeLine(inst.line);
  throw Error(DiagnosticKind::Unsupported,
              fmt::format("unsupported SPIR-V instruction {}{} in kernel {}{}", what, at,
                          spirv::escapeText(entry_.name, spirv::kQuotedNameBytes),
                          line.empty() ? "" : " (" + line + ")"));
}

}  // namespace spvsim
