// OpLoad, OpStore and OpVariable: the Load<N>/Store<N> handlers (a fast path for a whole
// or partly active sub-group inside one region, else each lane resolved and checked), the
// alignment an access requires, and the loads and stores other handlers go through
// (loadThroughMemory, storeThroughMemory). Every access goes through SubGroup::resolve
// (bounds, address space, writability) and is alignment checked against the
// instruction's Aligned operand or the type's natural alignment.
#include <cstring>

#include "src/exec/ops/builtin_read.h"
#include "src/exec/ops/lane_copy.h"
#include "src/exec/ops/memory_ops.h"
#include "src/exec/ops/pointer32.h"

namespace spvsim::ops {
namespace {

using spirv::Id;
using spirv::TypeKind;
using spv::Op;

// The fast paths of Load and Store: every lane active and inside one region
// (SubGroup::uniformRegionBase), so each lane's copy is exactly what the per-lane path
// does, only done for the whole sub-group at once where the addresses allow; with a
// partial mask, every active lane inside one region (SubGroup::activeRegionBase), each
// lane copied without resolving it.

template <uint32_t N>
void loadLanes(const SubGroup& sg, const SubGroup::FastAccess& fast, const uint64_t* ptr,
               uint8_t* r, uint32_t bytes) {
  switch (fast.pattern) {
    case LanePattern::Uniform:
      broadcast<N>(sg, fast.at(ptr[0]), r, bytes);
      return;
    case LanePattern::Contiguous:
      copyLanes(r, fast.at(ptr[0]), sg.width, bytes);
      return;
    case LanePattern::Scattered:
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(r + size_t(l) * bytes, fast.at(ptr[l]), bytes);
      return;
  }
}

// Lanes store in lane order, so where lanes share an address the last lane's value is
// what memory holds: for a uniform address, the last lane's value alone.
inline void storeLanes(const SubGroup& sg, const SubGroup::FastAccess& fast, const uint64_t* ptr,
                       const uint8_t* v, uint32_t bytes) {
  switch (fast.pattern) {
    case LanePattern::Uniform:
      std::memcpy(fast.at(ptr[0]), v + size_t(sg.width - 1) * bytes, bytes);
      return;
    case LanePattern::Contiguous:
      copyLanes(fast.at(ptr[0]), v, sg.width, bytes);
      return;
    case LanePattern::Scattered:
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(fast.at(ptr[l]), v + size_t(l) * bytes, bytes);
      return;
  }
}

// Failed lanes are reported once per instruction; their loaded value is 0.
template <uint32_t N>
struct Load {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t bytes = N ? N : in.n;
    const uint64_t* ptr = sg.reg<uint64_t>(in.a);
    uint8_t* r = sg.regs + in.r;
    if (const SubGroup::FastAccess fast =
            sg.uniformRegionBase(ptr, bytes, false, in.aux, sg.shapeOf(in.a))) {
      loadLanes<N>(sg, fast, ptr, r, bytes);
      // One address: every lane read the same bytes.
      return sg.setShape(
          in, fast.pattern == LanePattern::Uniform ? RegShape::Uniform : RegShape::Unknown);
    }
    sg.setShape(in, RegShape::Unknown);
    if (const SubGroup::FastAccess fast =
            sg.allActive ? SubGroup::FastAccess{} : sg.activeRegionBase(ptr, bytes, false, in.aux))
      return sg.forActive(
          [&](uint32_t l) { std::memcpy(r + size_t(l) * bytes, fast.at(ptr[l]), bytes); });
    LaneMask failed, misaligned;
    AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
    sg.forActive([&](uint32_t l) {
      const uint8_t* src = sg.resolve(ptr[l], l, bytes, false, err);
      if (!src) {
        failed.set(l);
        firstErr = err;
        std::memset(r + size_t(l) * bytes, 0, bytes);
        return;
      }
      if (ptr[l] & (in.aux - 1)) misaligned.set(l);  // the offset bias is aligned
      std::memcpy(r + size_t(l) * bytes, src, bytes);
    });
    if (failed.any()) sg.reportAccess(in, firstErr, failed, ptr, bytes, false);
    if (misaligned.any())
      sg.reportAccess(in, AccessError::Misaligned, misaligned, ptr, bytes, false);
  }
};

template <uint32_t N>
struct Store {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t bytes = N ? N : in.n;
    const uint64_t* ptr = sg.reg<uint64_t>(in.a);
    const uint8_t* v = sg.regs + in.b;
    if (const SubGroup::FastAccess fast =
            sg.uniformRegionBase(ptr, bytes, true, in.aux, sg.shapeOf(in.a))) {
      storeLanes(sg, fast, ptr, v, bytes);
      return;
    }
    if (const SubGroup::FastAccess fast =
            sg.allActive ? SubGroup::FastAccess{} : sg.activeRegionBase(ptr, bytes, true, in.aux))
      return sg.forActive([&](uint32_t l) {
        std::memcpy(fast.at(ptr[l]), v + size_t(l) * bytes, bytes);  // in lane order
      });
    LaneMask failed, misaligned;
    AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
    sg.forActive([&](uint32_t l) {
      uint8_t* dst = sg.resolve(ptr[l], l, bytes, true, err);
      if (!dst) {
        failed.set(l);
        firstErr = err;
        return;
      }
      if (ptr[l] & (in.aux - 1)) misaligned.set(l);    // the offset bias is aligned
      std::memcpy(dst, v + size_t(l) * bytes, bytes);  // resolve() marked it written
    });
    if (failed.any()) sg.reportAccess(in, firstErr, failed, ptr, bytes, true);
    if (misaligned.any())
      sg.reportAccess(in, AccessError::Misaligned, misaligned, ptr, bytes, true);
  }
};

// H<N>::run for the sizes of bySizeOf, H<0>::run (the size from Inst::n) for the others.
template <template <uint32_t> class H>
ExecFn accessBySize(uint32_t bytes) {
  const ExecFn sized = bySizeOf<H>(bytes);
  return sized ? sized : &H<0>::run;
}

// Required alignment: the Aligned memory operand if present, else the natural
// alignment of the accessed type's scalar elements. Always a power of two.
uint32_t requiredAlignment(const Lowerer& lw, Id pointee, const spirv::Instruction& inst,
                           size_t memoryOperandIndex) {
  uint64_t a = lw.type(pointee).align;
  if (lw.type(pointee).kind == TypeKind::Struct || lw.type(pointee).kind == TypeKind::Array) a = 1;
  if (inst.operands.size() > memoryOperandIndex) {
    uint32_t mask = inst.operands[memoryOperandIndex];
    if (mask & uint32_t(spv::MemoryAccessMask::Aligned))
      a = inst.operands.at(memoryOperandIndex + 1);
  }
  if (a == 0 || (a & (a - 1))) a = 1;
  return static_cast<uint32_t>(a);
}

}  // namespace

void lowerLoad(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t bytes = static_cast<uint32_t>(lw.type(inst.resultType).size);
  uint32_t ptr = lw.reg(inst.operands.at(0));
  uint32_t align = requiredAlignment(lw, inst.resultType, inst, 1);
  if (ops::lowerBuiltinLoad(lw, inst, align)) return;
  if (lw.physical32() && lw.type(inst.resultType).kind == TypeKind::Pointer)
    return ops::lowerPointerLoad32(lw, inst, align);  // 4 bytes in memory
  fuseWithChain<false>(lw, inst.operands[0], bytes);
  Inst& in = lw.emit(inst, accessBySize<Load>(bytes));
  in.a = ptr;
  in.n = bytes;
  in.aux = align;
  lw.keepsShape(in, inst.result);
}

void loadThroughMemory(SubGroup& sg, const Inst& in) { Load<0>::run(sg, in); }
void storeThroughMemory(SubGroup& sg, const Inst& in) { Store<0>::run(sg, in); }

void lowerStore(Lowerer& lw, const spirv::Instruction& inst) {
  Id value = inst.operands.at(1);
  Id type = lw.typeIdOfValue(value);
  uint32_t bytes = static_cast<uint32_t>(lw.type(type).size);
  uint32_t ptr = lw.reg(inst.operands[0]), v = lw.reg(value);
  uint32_t align = requiredAlignment(lw, type, inst, 2);
  if (lw.physical32() && lw.type(type).kind == TypeKind::Pointer)
    return ops::lowerPointerStore32(lw, inst, align);  // 4 bytes in memory
  fuseWithChain<true>(lw, inst.operands[0], bytes);
  Inst& in = lw.emit(inst, accessBySize<Store>(bytes));
  in.a = ptr;
  in.b = v;
  in.n = bytes;
  in.aux = align;
}

// Function-scope variables have one static private slot each: the loader refuses
// recursion (spirv/call_graph.h), so a function has at most one live frame.
void lowerVariable(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Type& pt = lw.type(inst.resultType);
  const spirv::Type& pointee = lw.type(pt.element);
  uint32_t region =
      lw.allocatePrivate(pointee.size, pointee.align, "variable " + lw.module.nameOf(inst.result));
  uint64_t p = makePointer(Space::Private, region, 0);
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &p, 8);
  lw.setConstantRegister(inst.result, bytes);
  if (inst.operands.size() > 1) {
    spirv::Instruction store;
    store.opcode = Op::OpStore;
    store.index = inst.index;
    store.operands = {inst.result, inst.operands[1]};
    lowerStore(lw, store);
  }
}

}  // namespace spvsim::ops
