#include "src/check/shadow_kernel.h"

#include <fmt/core.h>
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "spirv/binary.h"
#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/opcode.h"
#include "src/check/shadow_rules.h"
#include "src/check/shadow_static.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {
namespace {

using spirv::Id;
using spv::Op;

const ShadowKernel& kernelOf(const SubGroup& sg) {
  return static_cast<const ShadowKernel&>(*sg.wg->launch->kernel);
}

class RuleBuilder {
 public:
  RuleBuilder(ShadowKernel& k, const spirv::Module& m,
              const std::vector<const spirv::Instruction*>& byIndex)
      : k_(k), m_(m) {
    for (const spirv::Instruction* i : byIndex)
      if (i && i->result) defs_[i->result] = i;
  }

  // The rule of `inst` (decoded as `bin`); no pre and post: the handler stays as lowered.
  ShadowRule build(const spirv::Instruction& inst, const spirv::BinaryInstruction& bin) {
    ShadowRule r;
    if (inst.result && inst.resultType)
      if (auto v = operand(inst.result)) r.result = *v;
    for (const spirv::Operand& o : bin.operands)
      if (spirv::isIdOperand(o.kind) && o.offset < bin.words.size() &&
          o.kind != spirv::OperandKind::IdResultType)
        if (auto v = operand(bin.words[o.offset])) r.operands.push_back(*v);
    choose(inst, r);
    return r;
  }

 private:
  std::optional<ShadowOperand> operand(Id id) const {
    const ValueSlot* v = k_.findValue(id);
    if (!v || !v->bytes) return std::nullopt;
    return ShadowOperand{id, v->reg, v->bytes};
  }

  // operand(id), or an operand without bytes (always defined) where `id` has no register.
  ShadowOperand known(Id id) const { return operand(id).value_or(ShadowOperand{id}); }

  const spirv::Type* typeOf(Id id) const {
    const Id t = k_.facts->valueType(id);
    return t ? m_.findType(t) : nullptr;
  }

  bool isPointer(Id id) const {
    const spirv::Type* t = typeOf(id);
    return t && t->kind == spirv::TypeKind::Pointer;
  }

  // Vector results: component c of a same-length vector operand feeds component c only.
  void elementWise(ShadowRule& r) const {
    const spirv::Type* t = typeOf(r.result.id);
    if (!t || t->kind != spirv::TypeKind::Vector) return;
    r.components = static_cast<uint32_t>(t->count);
    r.result.elem = static_cast<uint32_t>(m_.findType(t->element)->size);
    for (ShadowOperand& o : r.operands) {
      const spirv::Type* ot = typeOf(o.id);
      if (ot && ot->kind == spirv::TypeKind::Vector && ot->count == t->count)
        o.elem = static_cast<uint32_t>(m_.findType(ot->element)->size);
    }
  }

  // 1 for each byte of type `t` that holds data, 0 for padding (struct padding, vec3's
  // fourth component); empty where every byte does.
  std::vector<uint8_t> dataBytes(Id t) const {
    const spirv::Type* type = t ? m_.findType(t) : nullptr;
    if (!type) return {};
    std::vector<uint8_t> out(type->size, 0);
    markData(*type, 0, out);
    if (std::find(out.begin(), out.end(), 0) == out.end()) return {};
    return out;
  }

  void markData(const spirv::Type& t, uint64_t at, std::vector<uint8_t>& out) const {
    using spirv::TypeKind;
    if (t.kind == TypeKind::Struct) {
      for (size_t k = 0; k < t.members.size(); ++k)
        markData(*m_.findType(t.members[k]), at + t.memberOffsets.at(k), out);
    } else if (t.kind == TypeKind::Array) {
      const spirv::Type& e = *m_.findType(t.element);
      for (uint64_t k = 0; k < t.count; ++k) markData(e, at + k * e.size, out);
    } else if (t.kind == TypeKind::Vector) {
      const uint64_t bytes = m_.findType(t.element)->size * t.count;
      std::fill_n(out.begin() + at, std::min<uint64_t>(bytes, out.size() - at), 1);
    } else {
      std::fill_n(out.begin() + at, std::min<uint64_t>(t.size, out.size() - at), 1);
    }
  }

  // The type a copy copies: the pointee of its target or source, looking through pointer
  // casts (llvm-spirv copies structs as i8 memcpys of cast pointers) for a composite one.
  Id copiedType(const spirv::Instruction& inst) const {
    Id fallback = 0;
    for (size_t k = 0; k < 2 && k < inst.operands.size(); ++k) {
      Id id = inst.operands[k];
      for (int depth = 0; id && depth < 8; ++depth) {
        const spirv::Type* t = typeOf(id);
        const spirv::Type* pointee =
            t && t->kind == spirv::TypeKind::Pointer ? m_.findType(t->element) : nullptr;
        if (pointee &&
            (pointee->kind == spirv::TypeKind::Struct || pointee->kind == spirv::TypeKind::Array))
          return pointee->id;
        if (pointee && !fallback) fallback = pointee->id;
        auto d = defs_.find(id);
        if (d == defs_.end() || d->second->operands.empty()) break;
        if (!sameAddress(*d->second)) break;
        id = d->second->operands[0];
      }
    }
    return fallback;
  }

  // Whether `inst` yields the start of an object of the type its first operand points at:
  // a pointer cast, or an access chain to first members (constant zero indices; a Ptr
  // chain's element index may be anything).
  bool sameAddress(const spirv::Instruction& inst) const {
    switch (inst.opcode) {
      case Op::OpBitcast:
      case Op::OpPtrCastToGeneric:
      case Op::OpGenericCastToPtr:
      case Op::OpCopyObject:
        return true;
      case Op::OpAccessChain:
      case Op::OpInBoundsAccessChain:
      case Op::OpPtrAccessChain:
      case Op::OpInBoundsPtrAccessChain: {
        // A Ptr chain's first index steps over whole objects of the base's pointee type.
        const bool ptr =
            inst.opcode == Op::OpPtrAccessChain || inst.opcode == Op::OpInBoundsPtrAccessChain;
        for (size_t k = ptr ? 2 : 1; k < inst.operands.size(); ++k) {
          auto c = m_.constants.find(inst.operands[k]);
          if (c == m_.constants.end() || c->second.isUndef ||
              std::any_of(c->second.bytes.begin(), c->second.bytes.end(),
                          [](uint8_t b) { return b; }))
            return false;
        }
        return true;
      }
      default:
        return false;
    }
  }

  // OpenCL.std built-ins that write through their pointer operand: result-shaped values
  // (fract, frexp, lgamma_r, modf, remquo, sincos) or their data operand (vstore*).
  bool pointerOutput(const spirv::Instruction& inst, ShadowRule& r) const {
    using namespace OpenCLLIB;
    static constexpr uint32_t kResultShaped[] = {Fract, Frexp, Lgamma_r, Modf, Remquo, Sincos};
    static constexpr uint32_t kStores[] = {Vstoren,        Vstore_half,    Vstore_half_r,
                                           Vstore_halfn,   Vstore_halfn_r, Vstorea_halfn,
                                           Vstorea_halfn_r};
    const uint32_t n = inst.extOpcode();
    const bool shaped =
        std::find(std::begin(kResultShaped), std::end(kResultShaped), n) != std::end(kResultShaped);
    const bool store = std::find(std::begin(kStores), std::end(kStores), n) != std::end(kStores);
    if ((!shaped && !store) || (shaped && !r.result.bytes) || r.operands.empty()) return false;
    bool found = false;
    for (size_t k = 0; k < r.operands.size(); ++k)
      if (isPointer(r.operands[k].id)) {
        r.pointer = static_cast<uint32_t>(k);
        r.operands[k].use = ShadowUse::Address;
        found = true;
      }
    if (!found) return false;
    elementWise(r);
    r.written = store ? 0 : -1;
    r.pre = &rules::pointerOutput;
    const spirv::Type* pt = typeOf(r.operands[r.pointer].id);
    const spirv::Type* pointee = pt ? m_.findType(pt->element) : nullptr;
    if (shaped && pointee && pointee->size == r.result.bytes) r.post = &rules::pointerOutputShadow;
    return true;
  }

  // Sub-group shuffles and broadcasts whose source lane follows from one operand: their
  // operands become {moved value, lane operand} (from the SPIR-V operand positions).
  bool shuffle(const spirv::Instruction& inst, ShadowRule& r) const {
    using L = ShadowRule::Lane;
    auto set = [&](L lane, size_t value, size_t index) {
      if (std::max(value, index) >= inst.operands.size()) return false;
      auto v = operand(inst.operands[value]);
      auto i = operand(inst.operands[index]);
      if (!v || !i || v->bytes != r.result.bytes) return false;
      r.operands = {*v, *i};
      r.lane = lane;
      r.moved = 0;
      r.laneOperand = 1;
      return true;
    };
    switch (inst.opcode) {  // operands: the scope first, except for the INTEL ones
      case Op::OpGroupNonUniformBroadcast:
      case Op::OpGroupNonUniformShuffle:
        return set(L::Index, 1, 2);
      case Op::OpGroupNonUniformBroadcastFirst:
        return set(L::First, 1, 1);
      case Op::OpGroupNonUniformShuffleXor:
        return set(L::Xor, 1, 2);
      case Op::OpGroupNonUniformShuffleUp:
        return set(L::Up, 1, 2);
      case Op::OpGroupNonUniformShuffleDown:
        return set(L::Down, 1, 2);
      case Op::OpSubgroupShuffleINTEL:
        return set(L::Index, 0, 1);
      case Op::OpSubgroupShuffleXorINTEL:
        return set(L::Xor, 0, 1);
      case Op::OpGroupBroadcast: {  // Subgroup scope with a scalar lane id only
        if (inst.operands.size() < 3) return false;
        const spirv::Type* id = typeOf(inst.operands[2]);
        auto scope = m_.constants.find(inst.operands[0]);
        if (!id || id->kind == spirv::TypeKind::Vector || scope == m_.constants.end() ||
            scope->second.bytes.empty() || scope->second.bytes[0] != uint8_t(spv::Scope::Subgroup))
          return false;
        return set(L::Index, 1, 2);
      }
      default:
        return false;
    }
  }

  // OpVectorShuffle's 0xFFFFFFFF components have no value: marked in ShadowRule::data.
  void undefinedComponents(const spirv::Instruction& inst, ShadowRule& r) const {
    const spirv::Type* t = typeOf(inst.result);
    const spirv::Type* e = t ? m_.findType(t->element) : nullptr;
    if (!e) return;
    for (size_t k = 2; k < inst.operands.size(); ++k) {
      if (inst.operands[k] != 0xffffffffu) continue;
      r.data.resize(r.result.bytes, 0);
      const uint64_t at = (k - 2) * e->size;
      for (uint64_t b = at; b < at + e->size && b < r.data.size(); ++b) r.data[b] = 1;
    }
    if (!r.data.empty()) r.pre = &rules::shuffleVector;
  }

  void use(ShadowRule& r, size_t k, ShadowUse u) const {
    if (k < r.operands.size()) r.operands[k].use = u;
  }

  void choose(const spirv::Instruction& inst, ShadowRule& r) const {
    const Op op = inst.opcode;
    switch (op) {
      case Op::OpPhi:  // copied on edges (rules::branch...)
      case Op::OpVariable:
      case Op::OpReturn:
      case Op::OpUnreachable:
        return;
      case Op::OpLoad:  // built-in reads too: with observers they are loads (builtins.h)
        r.operands = {known(inst.operands.at(0))};
        use(r, 0, ShadowUse::Address);
        r.post = &rules::load;  // after the observer saw the handler's read
        return;
      case Op::OpStore:
        r.operands = {known(inst.operands.at(0)), known(inst.operands.at(1))};
        r.data = dataBytes(k_.facts->valueType(r.operands[1].id));
        r.pre = &rules::storeCheck;
        r.post = &rules::storeShadow;
        return;
      case Op::OpCopyMemory:
      case Op::OpCopyMemorySized:
        r.operands = {known(inst.operands.at(0)), known(inst.operands.at(1))};
        use(r, 0, ShadowUse::Address);
        use(r, 1, ShadowUse::Address);
        r.sizedCopy = op == Op::OpCopyMemorySized;
        r.data = dataBytes(copiedType(inst));
        r.pre = &rules::copyCheck;
        return;
      case Op::OpBranch:
        r.pre = &rules::branch;
        return;
      case Op::OpBranchConditional:
        r.operands.resize(std::min<size_t>(r.operands.size(), 1));
        use(r, 0, ShadowUse::Condition);
        r.pre = &rules::branchConditional;
        return;
      case Op::OpSwitch:
        r.operands.resize(std::min<size_t>(r.operands.size(), 1));
        use(r, 0, ShadowUse::Selector);
        r.pre = &rules::switchSelector;
        return;
      case Op::OpFunctionCall:
        r.pre = &rules::call;
        return;
      case Op::OpReturnValue:
        r.pre = &rules::returnValue;
        return;
      case Op::OpSelect:
        if (r.operands.size() != 3 || !r.result.bytes) break;
        elementWise(r);
        r.pre = &rules::select;
        return;
      default:
        break;
    }
    if (spirv::copiesBits(op) && r.result.bytes) {
      r.pre = &rules::moveBytes;
      if (op == Op::OpVectorShuffle) undefinedComponents(inst, r);
      return;
    }
    if (spirv::movesValuesBetweenLanes(op)) {
      if (r.result.bytes) r.pre = shuffle(inst, r) ? &rules::shuffle : &rules::crossLane;
      return;
    }
    if (spirv::isAtomic(op)) {
      for (size_t k = 0; k < r.operands.size(); ++k)
        use(r, k, k == 0 ? ShadowUse::Address : ShadowUse::Atomic);
    } else if (spirv::isIntegerDivision(op)) {
      use(r, 1, ShadowUse::Divisor);
    } else if (op == Op::OpExtInst && pointerOutput(inst, r)) {
      return;
    } else if (op == Op::OpExtInst) {
      const bool printf = inst.extOpcode() == OpenCLLIB::Printf;
      for (size_t k = 0; k < r.operands.size(); ++k)
        if (printf || isPointer(r.operands[k].id))
          use(r, k, printf ? ShadowUse::Printf : ShadowUse::Address);
    } else if (op == Op::OpGroupAsyncCopy) {
      for (size_t k = 0; k < r.operands.size(); ++k)
        if (isPointer(r.operands[k].id)) use(r, k, ShadowUse::Address);
    }
    elementWise(r);
    bool uses = false, pointer = false;
    for (const ShadowOperand& o : r.operands) {
      uses |= o.use != ShadowUse::None;
      pointer |= isPointer(o.id);
    }
    if (r.result.bytes || uses) r.pre = &rules::propagate;
    // Reads through a pointer operand (vloadn, atomics, block reads) reach the result.
    if (r.result.bytes && pointer && !isPointer(r.result.id) && op != Op::OpPtrDiff &&
        op != Op::OpPtrEqual && op != Op::OpPtrNotEqual && op != Op::OpConvertPtrToU)
      r.post = &rules::mergeReads;
  }

  ShadowKernel& k_;
  const spirv::Module& m_;
  std::unordered_map<Id, const spirv::Instruction*> defs_;  // result id -> its instruction
};

// Which bytes of each constant are undefined (1): OpUndef values, and composites with
// OpUndef constituents (llvm-spirv's `(float4)(x, undef, ...)`); constants without are absent.
std::unordered_map<Id, std::vector<uint8_t>> undefinedConstantBytes(const spirv::Binary& bin,
                                                                    const spirv::Module& m) {
  std::unordered_map<Id, std::vector<uint8_t>> out;
  for (const spirv::BinaryInstruction& i : bin.code) {
    const spirv::Type* t = i.type ? m.findType(i.type) : nullptr;
    if (!t) continue;
    if (i.op == Op::OpUndef) {
      out[i.result].assign(t->size, 1);
      continue;
    }
    if (i.op != Op::OpConstantComposite && i.op != Op::OpSpecConstantComposite) continue;
    std::vector<uint8_t> mask;
    for (size_t k = 3; k < i.words.size(); ++k) {
      auto part = out.find(i.words[k]);
      if (part == out.end()) continue;
      const size_t n = k - 3;
      uint64_t at = 0;
      if (t->kind == spirv::TypeKind::Struct && n < t->memberOffsets.size())
        at = t->memberOffsets[n];
      else if (const spirv::Type* e = m.findType(t->element))
        at = n * e->size;
      mask.resize(t->size, 0);
      for (size_t b = 0; b < part->second.size() && at + b < mask.size(); ++b)
        mask[at + b] |= part->second[b];
    }
    if (!mask.empty()) out[i.result] = std::move(mask);
  }
  return out;
}

// Rules that write no nonzero shadow byte into registers nor anything into memory while
// every register's shadow is zero (see ShadowRule::idleWhenClean). The others make
// undefined values from memory or lanes (load, mergeReads, shuffles, undefined vector
// components) or write memory shadows the observer does not (copies, pointer outputs).
bool idleWhenClean(const ShadowRule& r) {
  const RuleFn pre = r.pre, post = r.post;
  const bool pureBefore = pre == &rules::propagate || pre == &rules::moveBytes ||
                          pre == &rules::select || pre == &rules::crossLane ||
                          pre == &rules::branch || pre == &rules::branchConditional ||
                          pre == &rules::switchSelector || pre == &rules::call ||
                          pre == &rules::returnValue || pre == &rules::storeCheck;
  return pureBefore && (!post || post == &rules::storeShadow);
}

// The rules of the lowered kernel's instructions (one per SPIR-V instruction, on the first
// Inst lowered from it), by pc; those that can change nothing in this launch
// (src/check/shadow_static.h) are left out, their handlers as lowered.
void instrumentCode(ShadowKernel& k, const spirv::Module& m, const spirv::Binary& bin,
                    MaybeUndefined::Launch launch) {
  const auto byIndex = spirv::instructionsByIndex(m);
  RuleBuilder builder(k, m, byIndex);
  k.rules.assign(k.code.size(), ShadowRule{});
  std::unordered_map<uint32_t, const ShadowRule*> built;
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    const Inst& in = k.code[pc];
    if (pc > 0 && k.code[pc - 1].src == in.src) continue;
    if (in.src >= byIndex.size() || !byIndex[in.src]) continue;
    const spirv::Instruction& inst = *byIndex[in.src];
    if (in.src >= bin.code.size() || bin.code[in.src].op != inst.opcode)
      throw Error(
          DiagnosticKind::Internal,
          fmt::format("--check-undefined: instruction {} ({}) is not where the binary has it",
                      in.src, spirv::opcodeName(inst.opcode)));
    ShadowRule r = builder.build(inst, bin.code[in.src]);
    if (!r.pre && !r.post) continue;
    r.original = in.fn;
    k.rules[pc] = std::move(r);
    built[in.src] = &k.rules[pc];
  }
  const MaybeUndefined maybe(m, *k.facts, std::move(launch), built);
  std::vector<uint8_t> wrapped(k.code.size(), 0);
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    ShadowRule& r = k.rules[pc];
    if (!r.original) continue;
    if (maybe.needed(*byIndex[k.code[pc].src], r))
      wrapped[pc] = 1;
    else
      r = ShadowRule{};
  }
  // A fused pair that takes in a wrapped instruction would skip its trampoline.
  k.unfuseWhere([&](size_t pc) { return wrapped[pc] != 0; });
  for (size_t pc = 0; pc < k.code.size(); ++pc)
    if (wrapped[pc]) {
      ShadowRule& r = k.rules[pc];
      r.original = k.code[pc].fn;
      r.idleWhenClean = idleWhenClean(r);
      k.code[pc].fn = &shadowTrampoline;
    }
}

bool anyUninitialized(const MemoryMap& mem, const std::vector<RegionRef>& set) {
  return std::any_of(set.begin(), set.end(), [&](const RegionRef& r) {
    return mem.regions(r.space)[r.index].uninitialized;
  });
}

// Gives each global and constant region that has a memory shadow (hasMemoryShadow) its
// place in one: a set of regions whose storage overlaps (sharedStorage) shares one,
// spanning their union, made of 1s (defined) where a region the host initialised lies
// and 0s elsewhere in a never-initialised one.
void makeMemoryShadows(const MemoryMap& mem, ShadowKernel& k) {
  k.globalShadow.assign(mem.global.size(), nullptr);
  k.constantShadow.assign(mem.constant.size(), nullptr);
  for (const std::vector<RegionRef>& set : sharedStorage(mem, true)) {
    if (!anyUninitialized(mem, set)) continue;
    auto region = [&](const RegionRef& r) -> const Region& {
      return mem.regions(r.space)[r.index];
    };
    const uint8_t* start = region(set.front()).base;
    size_t bytes = 0;
    for (const RegionRef& r : set)
      bytes = std::max(bytes, size_t(region(r).base - start) + region(r).size);
    uint8_t* shadow = k.shadowStorage.emplace_back(new uint8_t[bytes]).get();
    // Undefined where a never-initialised region lies, unless a region the host
    // initialised lies there too.
    std::memset(shadow, 1, bytes);
    for (bool hostWrote : {false, true})
      for (const RegionRef& r : set)
        if (region(r).uninitialized != hostWrote)
          std::memset(shadow + (region(r).base - start), hostWrote, region(r).size);
    for (const RegionRef& r : set)
      (r.space == Space::Global ? k.globalShadow : k.constantShadow)[r.index] =
          shadow + (region(r).base - start);
  }
}

}  // namespace

bool hasMemoryShadow(const MemoryMap& mem, Space space, uint64_t r) {
  const std::vector<Region>& own = mem.regions(space);
  if (r == 0 || r >= own.size()) return false;
  if (own[r].uninitialized) return true;
  for (const std::vector<RegionRef>& set : sharedStorage(mem, true))
    for (const RegionRef& member : set)
      if (member.space == space && member.index == r) return anyUninitialized(mem, set);
  return false;
}

std::shared_ptr<const ShadowKernel> instrumentKernel(const LaunchContext& launch, uint32_t mirror) {
  auto k = std::make_shared<ShadowKernel>(*launch.kernel);
  k->module = launch.module;
  k->mirror = mirror;
  std::optional<spirv::Binary> bin = spirv::parseBinary(launch.module->words);
  if (!bin)
    throw Error(DiagnosticKind::Internal, "--check-undefined: the module's words do not decode");
  const MemoryMap& mem = *launch.memory;
  makeMemoryShadows(mem, *k);
  auto anyShadow = [](const std::vector<uint8_t*>& shadows) {
    return std::any_of(shadows.begin(), shadows.end(), [](const uint8_t* s) { return s; });
  };
  MaybeUndefined::Launch facts{launch.kernel->functions.at(0).id,
                               anyShadow(k->globalShadow),
                               anyShadow(k->constantShadow),
                               {}};
  for (auto& [id, mask] : undefinedConstantBytes(*bin, *launch.module)) {
    facts.undefinedConstants.insert(id);
    if (const ValueSlot* v = k->findValue(id); v && v->bytes) {
      mask.resize(v->bytes, 0);
      k->undefined.push_back({v->reg, std::move(mask)});
    }
  }
  instrumentCode(*k, *launch.module, *bin, std::move(facts));
  return k;
}

uint8_t* memoryShadow(const SubGroup& sg, uint64_t p, const uint8_t* host) {
  const MemoryMap& mem = *sg.wg->launch->memory;
  const ShadowKernel& k = kernelOf(sg);
  const Space s = pointerSpace(p);
  switch (s) {
    case Space::Local:
      return k.mirror ? const_cast<uint8_t*>(host) + k.mirror * mem.localArenaBytes : nullptr;
    case Space::Private:
      return k.mirror ? const_cast<uint8_t*>(host) + k.mirror * mem.privateArenaBytes : nullptr;
    case Space::Global:
    case Space::Constant: {
      auto& table = s == Space::Global ? k.globalShadow : k.constantShadow;
      const uint64_t r = pointerRegion(p);
      if (r >= table.size() || !table[r]) return nullptr;
      return table[r] + (host - mem.regions(s)[r].base);
    }
    default:
      return nullptr;
  }
}

void shadowTrampoline(SubGroup& sg, const Inst& in) {
  const ShadowRule& r = kernelOf(sg).rules[&in - sg.code];
  if (sg.shadowClean && r.idleWhenClean) return r.original(sg, in);
  if (r.pre) r.pre(sg, in, r);
  r.original(sg, in);
  if (r.post) r.post(sg, in, r);
}

}  // namespace spvsim::check
