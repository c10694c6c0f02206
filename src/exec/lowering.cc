#include "src/exec/lowering.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/cfg.h"
#include "spirv/debug_info.h"
#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/text.h"
#include "spirv/opcode.h"
#include "src/exec/builtins.h"
#include "src/exec/memory.h"
#include "src/exec/register_shape.h"
#include "src/exec/relocations.h"
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

// A handler keeps its result's shape only where nothing else writes that register: no
// other instruction names it as its result (an odd-width fix-up after the op, say) and
// no phi copy or call writes it. Function parameters take their shapes from the call's
// arguments (functionCall copies every lane).
void Lowerer::assignShapeSlots() {
  const uint32_t slots = shapeSlot(out.registerBytes);
  std::unordered_map<uint32_t, uint32_t> writers;
  for (const Inst& in : out.code) ++writers[in.r];
  for (uint32_t r : copyTargets_) writers[r] += 2;
  for (const LoweredFunction& f : out.functions)
    for (uint32_t r : f.paramRegs) writers[r] += 2;
  for (Inst& in : out.code)
    in.shapeOut = in.shapeOut == kKeepsShape && writers[in.r] == 1 ? shapeSlot(in.r) : kNoShapeSlot;
  out.initialShapes.assign(slots, uint8_t(RegShape::Unknown));
  for (uint32_t r : uniformRegs_) out.initialShapes[shapeSlot(r)] = uint8_t(RegShape::Uniform);
  for (uint32_t r : out.functions.at(0).paramRegs)  // every lane gets the argument
    out.initialShapes[shapeSlot(r)] = uint8_t(RegShape::Uniform);
}

// Over the kernel's call tree (as the rest of lowering): a value is relevant when a load's
// or store's pointer, an access chain's operand, or an operand of a relevant value's
// shape-keeping definition; a relevant parameter makes every call's argument relevant.
void Lowerer::findShapeRelevant() {
  std::unordered_map<Id, const spirv::Instruction*> def;
  std::unordered_map<Id, std::pair<Id, size_t>> paramOf;  // parameter -> function, index
  std::vector<const spirv::Instruction*> calls;
  std::vector<Id> work;
  auto use = [&](Id id) {
    if (shapeRelevant_.insert(id).second) work.push_back(id);
  };
  for (Id function : facts.kernel(entry_).functions) {
    const spirv::Function* fp = module.findFunction(function);
    if (!fp) continue;  // lowering names the missing callee
    const spirv::Function& f = *fp;
    for (size_t k = 0; k < f.params.size(); ++k) paramOf[f.params[k]] = {f.id, k};
    for (const spirv::Block& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions) {
        if (inst.result) def[inst.result] = &inst;
        if (inst.operands.empty()) continue;  // validation refuses such modules anyway
        switch (inst.opcode) {
          case Op::OpLoad:
          case Op::OpStore:
            use(inst.operands[0]);
            break;
          case Op::OpAccessChain:
          case Op::OpInBoundsAccessChain:
          case Op::OpPtrAccessChain:
          case Op::OpInBoundsPtrAccessChain:
            for (Id id : inst.operands) use(id);
            break;
          case Op::OpFunctionCall:
            calls.push_back(&inst);
            break;
          default:
            break;
        }
      }
  }
  while (!work.empty()) {
    const Id id = work.back();
    work.pop_back();
    if (auto p = paramOf.find(id); p != paramOf.end()) {
      for (const spirv::Instruction* call : calls)
        if (call->operands[0] == p->second.first && call->operands.size() > p->second.second + 1)
          use(call->operands[p->second.second + 1]);
      continue;
    }
    auto d = def.find(id);
    if (d == def.end()) continue;
    switch (d->second->opcode) {
      case Op::OpIAdd:
      case Op::OpISub:
      case Op::OpIMul:
      case Op::OpSNegate:
      case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical:
      case Op::OpShiftRightArithmetic:
      case Op::OpUConvert:
      case Op::OpSConvert:
      case Op::OpBitcast:
      case Op::OpPtrCastToGeneric:
      case Op::OpCompositeExtract:
      case Op::OpCompositeInsert:
      case Op::OpCompositeConstruct:
      case Op::OpVectorShuffle:
      case Op::OpCopyObject:
      case Op::OpCopyLogical:
        for (Id operand : d->second->operands) use(operand);  // literals name no value
        break;
      case Op::OpPhi:  // phi copies carry shapes (SubGroup::takeEdge)
        for (size_t k = 0; k < d->second->operands.size(); k += 2) use(d->second->operands[k]);
        break;
      default:  // loads and chains are seeds already
        break;
    }
  }
}

void Lowerer::recordValues() {
  const spirv::Function* wrapper = body_ ? module.findFunction(entry_.function) : nullptr;
  if (wrapper)  // the wrapper's parameters are the body's (forwardedBody)
    for (size_t k = 0; k < wrapper->params.size(); ++k)
      regs_.emplace(wrapper->params[k], regs_.at(body_->params[k]));
  out.values.reserve(regs_.size());
  for (const auto& [id, r] : regs_) {
    const Id t = facts.valueType(id);
    if (!t) continue;
    out.values.push_back({id, t, r, valueBytes(t)});
  }
  std::sort(out.values.begin(), out.values.end(),
            [](const ValueSlot& a, const ValueSlot& b) { return a.id < b.id; });
  // OpName of parameters and results, scoped to their (lowered) function.
  for (const auto& [fid, functionIndex] : functionIndex_) {
    const spirv::Function& f = *module.findFunction(fid);
    const auto index = functionIndex;  // clang 15 cannot capture structured bindings
    auto add = [&](Id id, bool variable) {
      auto n = module.names.find(id);
      if (n != module.names.end() && regs_.count(id))
        out.names.push_back({n->second, id, index, variable});
    };
    for (Id p : f.params) add(p, false);
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions)
        if (i.result) add(i.result, i.opcode == Op::OpVariable);
  }
  for (Id v : facts.kernel(entry_).variables)
    if (auto n = module.names.find(v); n != module.names.end() && regs_.count(v))
      out.names.push_back({n->second, v, kNoFunction, true});
  recordDebugVariables();
  if (!wrapper) return;
  // The wrapper's parameter names, where debug info names no value of the body so.
  for (Id p : wrapper->params) {
    auto n = module.names.find(p);
    if (n == module.names.end()) continue;
    auto same = [&](const ValueName& v) { return v.name == n->second && v.function == 0; };
    if (std::none_of(out.names.begin(), out.names.end(), same))
      out.names.push_back({n->second, p, 0, false});
  }
}

// Debug-info variables bound to values the kernel has registers for, in binary order.
void Lowerer::recordDebugVariables() {
  std::vector<uint32_t> bound;
  for (const auto& [id, r] : regs_) {
    const std::vector<uint32_t>& of = facts.debugVariablesOf(id);
    bound.insert(bound.end(), of.begin(), of.end());
  }
  std::sort(bound.begin(), bound.end());
  for (uint32_t k : bound) {
    const spirv::DebugVariable& d = facts.debugVariables()[k];
    auto f = functionIndex_.find(d.function);
    ValueName n{d.name, d.id, f == functionIndex_.end() ? kNoFunction : f->second};
    n.address = d.binding == spirv::DebugVariable::Binding::Address;
    n.from = n.address ? 0 : d.index;
    n.isSigned = d.isSigned;
    n.typeName = d.typeName;
    out.names.push_back(std::move(n));
  }
}

// Program-scope variables live in the program (their pointers are fixed by the module);
// local and private ones get a region of this kernel's layout. Only the call tree's
// variables are placed, so a kernel's local memory holds only its own arrays.
void Lowerer::layoutModuleVariables() {
  for (Id id : facts.kernel(entry_).variables) {
    const spirv::Variable& v = module.variables.at(id);
    switch (v.storage) {
      case spv::StorageClass::CrossWorkgroup:
      case spv::StorageClass::UniformConstant:
        variablePointer_[v.id] = *programVariablePointer(module, v.id);
        break;
      case spv::StorageClass::Workgroup:
        placeLocalVariable(v);
        break;
      case spv::StorageClass::Input:
      case spv::StorageClass::Private:
      case spv::StorageClass::Function:
        placePrivateVariable(v);
        break;
      default:
        throw Error(DiagnosticKind::Unsupported,
                    fmt::format("unsupported: module-scope variable {} in storage class {}",
                                module.nameOf(v.id), static_cast<uint32_t>(v.storage)));
    }
  }
  // Initializers may hold any module-scope variable's address: once all are placed.
  for (const auto& [region, init] : pendingPrivateInits_) {
    std::optional<spirv::Constant> c = module.constantValue(init);
    if (!c)
      throw Error(DiagnosticKind::InvalidModule,
                  fmt::format("initializer {} is not a constant", facts.idName(init)));
    out.privateInits.push_back({region, constantMemoryBytes(*c)});
  }
}

// Local arrays start 16-byte aligned (or at their type's alignment when larger).
void Lowerer::placeLocalVariable(const spirv::Variable& v) {
  const spirv::Type& pointee = type(type(v.type).element);
  uint64_t align = std::max<uint64_t>(kLocalVariableAlign, pointee.align);
  out.localBytes = (out.localBytes + align - 1) / align * align;
  Region r;
  r.arenaOffset = out.localBytes;
  r.size = pointee.size;
  r.name = "local variable " + module.nameOf(v.id);
  out.localBytes += pointee.size;
  out.localRegions.push_back(r);
  variablePointer_[v.id] = makePointer(Space::Local, out.localRegions.size() - 1, 0);
}

void Lowerer::placePrivateVariable(const spirv::Variable& v) {
  const spirv::Type& pointee = type(type(v.type).element);
  uint32_t region = allocatePrivate(pointee.size, pointee.align, module.nameOf(v.id));
  variablePointer_[v.id] = makePointer(Space::Private, region, 0);
  if (v.storage == spv::StorageClass::Input) {
    out.privateRegions[region].writable = false;
    if (!v.builtin)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: Input variable {} is not a "
                              "built-in",
                              module.nameOf(v.id)));
    BuiltinSlot slot;
    slot.region = region;
    if (!describeBuiltin(*v.builtin, pointee, slot))
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported built-in variable {} (BuiltIn {})", module.nameOf(v.id),
                              static_cast<uint32_t>(*v.builtin)));
    slot.inMemory = !onlyLoaded(v, static_cast<uint32_t>(out.builtins.size()));
    out.builtins.push_back(slot);
  } else if (v.initializer) {
    pendingPrivateInits_.push_back({region, v.initializer});
  }
}

namespace {

// Whether `inst` is an access chain to component `index` of a vector built-in `v`: one
// constant index within the vector.
bool componentChain(const Lowerer& lw, const spirv::Instruction& inst, const spirv::Variable& v,
                    uint32_t& index) {
  if (inst.opcode != Op::OpAccessChain && inst.opcode != Op::OpInBoundsAccessChain) return false;
  if (inst.operands.size() != 2 || inst.operands[0] != v.id || !lw.isConstant(inst.operands[1]))
    return false;
  const spirv::Type& pointee = lw.type(lw.type(v.type).element);
  const uint64_t i = lw.constantValue(inst.operands[1]);
  if (pointee.kind != TypeKind::Vector || i >= pointee.count) return false;
  index = static_cast<uint32_t>(i);
  return true;
}

}  // namespace

// Any operand word equal to an id counts as a use, as in onlyDereferenced (a literal that
// happens to equal it only keeps the private copy), but an OpLoad's words after its
// pointer: memory-operand literals, or a scope, which is a constant. Constants holding the
// variable's address count where the call tree names them (or initialises a variable it
// uses with them): the cost stays the call tree's.
bool Lowerer::onlyLoaded(const spirv::Variable& v, uint32_t slot) {
  auto holdsAddress = [&](Id id) {
    auto c = module.constants.find(id);
    if (c == module.constants.end()) return false;
    for (const spirv::Relocation& r : c->second.relocations)
      if (r.variable == v.id) return true;
    return false;
  };
  for (Id id : facts.kernel(entry_).variables) {
    const Id init = module.variables.at(id).initializer;
    if (init == v.id || holdsAddress(init)) return false;
  }
  const spirv::Type& pointee = type(type(v.type).element);
  const uint32_t all = pointee.kind == TypeKind::Vector ? static_cast<uint32_t>(pointee.count) : 1;
  std::unordered_map<Id, BuiltinPointer> pointers{{v.id, {slot, 0, all}}};
  bool only = true;
  const std::vector<Id>& functions = facts.kernel(entry_).functions;
  for (Id fid : functions)  // the access chains first: their uses may come before them
    for (const auto& b : module.findFunction(fid)->blocks)
      for (const auto& inst : b.instructions)
        if (uint32_t index = 0; componentChain(*this, inst, v, index))
          pointers[inst.result] = {slot, index, 1};
  for (Id fid : functions)
    for (const auto& b : module.findFunction(fid)->blocks)
      for (const auto& inst : b.instructions) {
        if (isDebugInfo(inst)) continue;
        const bool load = inst.opcode == Op::OpLoad;
        const bool chain = pointers.count(inst.result) != 0;
        const size_t operands =
            load ? std::min<size_t>(1, inst.operands.size()) : inst.operands.size();
        for (size_t k = 0; k < operands; ++k) {
          const Id id = inst.operands[k];
          if (holdsAddress(id)) only = false;
          if (pointers.count(id) && !load) only = only && chain && k == 0 && id == v.id;
        }
      }
  builtinPointers_.insert(pointers.begin(), pointers.end());
  return only;
}

const Lowerer::BuiltinPointer* Lowerer::builtinPointer(Id pointer) const {
  auto it = builtinPointers_.find(pointer);
  return it == builtinPointers_.end() ? nullptr : &it->second;
}

std::function<std::optional<uint64_t>(Id)> Lowerer::placedVariable() const {
  return [this](Id var) -> std::optional<uint64_t> {
    auto it = variablePointer_.find(var);
    if (it == variablePointer_.end()) return std::nullopt;
    return it->second;
  };
}

uint32_t Lowerer::allocatePrivate(uint64_t bytes, uint64_t align, const std::string& name) {
  align = std::max<uint64_t>(align, 8);
  out.privateBytes = (out.privateBytes + align - 1) / align * align;
  Region r;
  r.arenaOffset = out.privateBytes;
  r.size = bytes;
  r.name = name;
  out.privateBytes += bytes;
  out.privateRegions.push_back(r);
  return static_cast<uint32_t>(out.privateRegions.size() - 1);
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

spirv::Id Lowerer::typeIdOfValue(Id id) const {
  const Id t = facts.valueType(id);
  if (!t)
    throw Error(DiagnosticKind::InvalidModule, fmt::format("{} has no type", facts.idName(id)));
  return t;
}

const spirv::Type& Lowerer::typeOfValue(Id id) const { return type(typeIdOfValue(id)); }

uint32_t Lowerer::valueBytes(Id typeId) const {
  const spirv::Type& t = type(typeId);
  return t.kind == TypeKind::Pointer ? 8 : static_cast<uint32_t>(t.size);
}

std::vector<uint8_t> Lowerer::constantRegisterBytes(const spirv::Constant& c) {
  const spirv::Type& t = type(c.type);
  if (t.kind == TypeKind::Pointer && t.size != 8) {  // a Physical32 pointer: 8 in registers
    uint64_t p = 0;
    if (!c.relocations.empty())
      p = relocatedPointer(facts, c, c.relocations[0], placedVariable());
    else if (std::any_of(c.bytes.begin(), c.bytes.end(), [](uint8_t b) { return b != 0; }))
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: pointer constant {} is neither null nor a "
                              "variable's address",
                              facts.idName(c.id)));
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), &p, 8);
    return bytes;
  }
  return constantMemoryBytes(c);
}

std::vector<uint8_t> Lowerer::constantMemoryBytes(const spirv::Constant& c) {
  if (c.relocations.empty()) return c.bytes;
  if (!physical32()) return resolvedBytes(facts, c, placedVariable());
  if (!variableAddresses32_) {  // relocations name module-scope variables, all placed now
    variableAddresses32_ = programVariableAddresses32(module);
    variableAddresses32_->place(Space::Local, out.localRegions);
    variableAddresses32_->place(Space::Private, out.privateRegions);
  }
  return resolvedBytes(facts, c, placedVariable(), &*variableAddresses32_);
}

Shape Lowerer::shape(Id typeId) const {
  const spirv::Type& t = type(typeId);
  Shape s;
  s.bytes = valueBytes(typeId);
  const spirv::Type* e = &t;
  if (t.kind == TypeKind::Vector) {
    e = &type(t.element);
    s.components = static_cast<uint32_t>(t.count);
    s.stride = t.count == 3 ? 4 : s.components;
  }
  s.bits = e->width;
  switch (e->kind) {
    case TypeKind::Bool:
      s.scalar = Scalar::Bool;
      s.bits = 8;
      break;
    case TypeKind::Int:
      s.scalar = e->size == 1   ? Scalar::U8
                 : e->size == 2 ? Scalar::U16
                 : e->size == 4 ? Scalar::U32
                                : Scalar::U64;
      break;
    case TypeKind::Float:
      s.scalar = e->width == 16 ? Scalar::F16 : e->width == 32 ? Scalar::F32 : Scalar::F64;
      break;
    case TypeKind::Pointer:
      s.scalar = Scalar::U64;
      s.bits = 64;
      break;
    default:
      s.scalar = Scalar::Other;
      break;
  }
  return s;
}

uint64_t Lowerer::constantValue(Id id) const {
  auto it = module.constants.find(id);
  if (it == module.constants.end())
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("{} is not a constant", facts.idName(id)));
  uint64_t v = 0;
  std::memcpy(&v, it->second.bytes.data(), std::min<size_t>(8, it->second.bytes.size()));
  return v;
}

uint32_t Lowerer::constantRegister(const std::vector<uint8_t>& value) {
  uint32_t r = allocate(value.size());
  out.inits.push_back({r, value});
  uniformRegs_.push_back(r);
  return r;
}

void Lowerer::setConstantRegister(Id id, const std::vector<uint8_t>& value) {
  regs_[id] = constantRegister(value);
}

// LLVM's byval, which llvm-spirv keeps as FuncParamAttr ByVal on a pointer parameter: the
// callee gets its own copy of the pointee, and changing it leaves the caller's object
// as it was (C's by-value structs and unions; clang passes the caller's object itself at
// -O0, relying on the copy). The copy is the callee's frame memory, placed like its
// function variables: the loader refuses recursion (spirv/call_graph.h), so a function
// has at most one live frame and one region per such parameter serves every call.
uint32_t Lowerer::byValCopy(uint32_t function, uint32_t param) {
  const uint64_t key = (uint64_t(function) << 32) | param;
  if (auto it = byValCopies_.find(key); it != byValCopies_.end()) return it->second;
  const spirv::Function& f = *module.findFunction(out.functions.at(function).id);
  const Id id = f.params.at(param);
  const spirv::Type& pt = type(f.paramTypes.at(param));
  // OpName or the id, as variables' regions are named: friendly names would disassemble
  // the module while lowering.
  const std::string what =
      fmt::format("by-value parameter {} of {}", module.nameOf(id), module.nameOf(f.id));
  if (pt.kind != TypeKind::Pointer)
    throw Error(DiagnosticKind::InvalidModule, what + " (FuncParamAttr ByVal) is not a pointer");
  // Function, Private or Generic: a pointer that can point into private memory.
  if (pt.storage != spv::StorageClass::Function && pt.storage != spv::StorageClass::Private &&
      pt.storage != spv::StorageClass::Generic)
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported: {} points to storage class {}; spvsim places "
                            "by-value copies in private memory",
                            what, static_cast<uint32_t>(pt.storage)));
  const spirv::Type& pointee = type(pt.element);
  if (pointee.size > UINT32_MAX)
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported: {} copies {} bytes per call (at most 4 GiB)", what,
                            pointee.size));
  uint64_t align = pointee.align;
  if (const spirv::Decoration* d = module.findDecoration(id, spv::Decoration::Alignment);
      d && !d->literals.empty())
    align = std::max<uint64_t>(align, d->literals[0]);
  const uint32_t region = allocatePrivate(pointee.size, align, what);
  std::vector<uint8_t> bytes(8);
  const uint64_t p = makePointer(Space::Private, region, 0);
  std::memcpy(bytes.data(), &p, 8);
  const uint32_t r = constantRegister(bytes);
  byValCopies_.emplace(key, r);
  return r;
}

uint32_t Lowerer::reg(Id id) {
  if (auto it = signedOverride_.find(id); it != signedOverride_.end()) return it->second;
  if (auto it = regs_.find(id); it != regs_.end()) return it->second;
  if (auto c = module.constants.find(id); c != module.constants.end()) {
    if (c->second.zeroFill) {  // registers start zeroed and constants are never written
      regs_[id] = allocate(valueBytes(c->second.type));
      uniformRegs_.push_back(regs_[id]);
      return regs_[id];
    }
    setConstantRegister(id, constantRegisterBytes(c->second));
    return regs_[id];
  }
  if (auto v = variablePointer_.find(id); v != variablePointer_.end()) {
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), &v->second, 8);
    setConstantRegister(id, bytes);
    return regs_[id];
  }
  if (module.variables.count(id))  // spirv::KernelFacts missed a use: never guess
    throw Error(
        DiagnosticKind::Internal,
        fmt::format("module-scope variable {} used by kernel {} was not "
                    "placed",
                    module.nameOf(id), spirv::escapeText(entry_.name, spirv::kQuotedNameBytes)));
  uint32_t r = allocate(valueBytes(typeIdOfValue(id)));
  regs_[id] = r;
  return r;
}

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
