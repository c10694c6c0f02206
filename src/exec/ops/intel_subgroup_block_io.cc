// cl_intel_subgroups buffer block reads and writes (SPV_INTEL_subgroups
// OpSubgroupBlockReadINTEL / OpSubgroupBlockWriteINTEL): element k of lane l is at
// Ptr[l + k * SubgroupMaxSize]. In the last, partial sub-group only the lanes that exist
// access memory; the holes of the missing lanes are left alone. Image block I/O is in
// intel_image_block_io.cc.
//
// Undefined behaviour reported here: a sub-group that reaches the instruction only in
// part (`non-uniform-collective`), a pointer that differs across lanes
// (`non-uniform-argument`; the first active lane's is used) and a pointer that is not
// aligned as the extensions require (`misaligned-block-io`; the access still happens).
#include <fmt/core.h>

#include <cstring>

#include "spirv/disassembly.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using spirv::TypeKind;
using spv::Op;

const char* builtinName(bool write) {
  return write ? "intel_sub_group_block_write" : "intel_sub_group_block_read";
}

// cl_intel_subgroups 6.13.X.1: global pointers 4-byte aligned for reads, 16-byte for
// writes; cl_intel_subgroup_local_block_io: local pointers 16-byte aligned for both.
uint32_t requiredAlignment(Space s, bool write) { return write || s == Space::Local ? 16 : 4; }

// "byte offset 4 of argument 0 (p) (global memory, 64 bytes)", as access diagnostics
// name places.
std::string describePointer(const SubGroup& sg, uint64_t p) {
  return describeLocation(*sg.wg->launch->memory, p);
}

void checkAlignment(SubGroup& sg, const Inst& in, uint64_t p, bool write) {
  const Space s = pointerSpace(p);
  const uint32_t need = requiredAlignment(s, write);
  if (pointerOffset(p) % need == 0) return;
  sg.report(in, DiagnosticKind::MisalignedBlockIo,
            fmt::format("{} pointer is at {}, but block {} of {} memory need {}-byte alignment",
                        builtinName(write), describePointer(sg, p), write ? "writes" : "reads",
                        spaceName(s), need),
            sg.mask);
}

// The pointer every lane uses (the first active lane's), after reporting a partial
// sub-group, a non-uniform pointer and misalignment.
uint64_t blockPointer(SubGroup& sg, const Inst& in, bool write) {
  ops::checkCollective(sg, in, builtinName(write));
  const uint64_t* ptr = sg.reg<uint64_t>(in.a);
  const uint32_t first = sg.mask.first();
  const uint64_t p = ptr[first];
  LaneMask differ;
  sg.forActive([&](uint32_t l) {
    if (ptr[l] != p) differ.set(l);
  });
  if (differ.any()) {
    const uint32_t d = differ.first();
    sg.report(in, DiagnosticKind::NonUniformArgument,
              fmt::format("{} pointer must be the same in every lane of the sub-group, but lane "
                          "{} points at {} and lane {} at {}; using lane {}'s",
                          builtinName(write), d, describePointer(sg, ptr[d]), first,
                          describePointer(sg, p), first),
              differ);
  }
  checkAlignment(sg, in, p, write);
  return p;
}

// in: a = pointer, r = result (reads) or b = data (writes), n = elements of T per lane
// in the register, aux = components.
template <class T, bool Write>
void blockAccess(SubGroup& sg, const Inst& in) {
  const uint64_t p = blockPointer(sg, in, Write);
  T* data = sg.reg<T>(Write ? in.b : in.r);
  const uint32_t n = in.n, comps = in.aux, max = sg.width;
  AccessError err = AccessError::Ok;
  // Fast path: a full sub-group whose whole block lies in one shared region (not for
  // observers of its space, which see each lane's access).
  if (sg.allActive && pointerSpace(p) != Space::Private &&
      !(sg.wg->checkedSpaces & spaceBit(pointerSpace(p)))) {
    if (uint8_t* base = sg.resolve(p, 0, uint64_t(comps) * max * sizeof(T), Write, err)) {
      for (uint32_t k = 0; k < comps; ++k)
        for (uint32_t l = 0; l < max; ++l) {
          uint8_t* mem = base + (size_t(k) * max + l) * sizeof(T);
          T* v = data + size_t(l) * n + k;
          Write ? std::memcpy(mem, v, sizeof(T)) : std::memcpy(v, mem, sizeof(T));
        }
      return;
    }
  }
  uint64_t failedAt[kMaxSubGroupSize];
  LaneMask failed;
  AccessError firstErr = AccessError::Ok;
  sg.forActive([&](uint32_t l) {
    for (uint32_t k = 0; k < comps; ++k) {
      const uint64_t at = offsetPointer(p, int64_t((uint64_t(k) * max + l) * sizeof(T)));
      T* v = data + size_t(l) * n + k;
      uint8_t* mem = sg.resolve(at, l, sizeof(T), Write, err);
      if (!mem) {
        if (!failed.test(l)) failedAt[l] = at;
        if (failed.none()) firstErr = err;
        failed.set(l);
        if (!Write) *v = T(0);
        continue;
      }
      Write ? std::memcpy(mem, v, sizeof(T)) : std::memcpy(v, mem, sizeof(T));
    }
  });
  if (failed.any()) sg.reportAccess(in, firstErr, failed, failedAt, sizeof(T), Write);
}

template <class T>
struct BlockRead {
  static void run(SubGroup& sg, const Inst& in) { blockAccess<T, false>(sg, in); }
};

template <class T>
struct BlockWrite {
  static void run(SubGroup& sg, const Inst& in) { blockAccess<T, true>(sg, in); }
};

// The pointee of a block I/O pointer: a scalar the data's components equal. Private
// (Function) pointers would name a different block in every lane: unsupported.
const spirv::Type& blockElement(Lowerer& lw, const spirv::Instruction& inst, spirv::Id ptr,
                                spirv::Id dataType) {
  const spirv::Type& pt = lw.typeOfValue(ptr);
  if (pt.kind != TypeKind::Pointer) lw.unsupported(inst, "block I/O through a non-pointer");
  if (pt.storage == spv::StorageClass::Function || pt.storage == spv::StorageClass::Private)
    lw.unsupported(inst, fmt::format("{} on a private pointer", spirv::opcodeName(inst.opcode)));
  const spirv::Type& e = lw.type(pt.element);
  const spirv::Type& dt = lw.type(dataType);
  const spirv::Type& component = dt.kind == TypeKind::Vector ? lw.type(dt.element) : dt;
  const bool scalar = e.kind == TypeKind::Int || e.kind == TypeKind::Float;
  if (!scalar || component.kind != e.kind || component.size != e.size)
    lw.unsupported(inst, lw.describeWithType(inst));
  return e;
}

template <bool Write>
void lowerBlock(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id ptr = Lowerer::operand(inst, 0);
  const spirv::Id dataType = Write ? lw.typeIdOfValue(Lowerer::operand(inst, 1)) : inst.resultType;
  const spirv::Type& e = blockElement(lw, inst, ptr, dataType);
  const ExecFn fn = Write ? pickByBytes<BlockWrite>(e.size) : pickByBytes<BlockRead>(e.size);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const Shape s = lw.shape(dataType);
  const uint32_t a = lw.reg(ptr);
  const uint32_t b = Write ? lw.reg(Lowerer::operand(inst, 1)) : 0;
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.n = s.stride;
  in.aux = s.components;
}

}  // namespace

void registerIntelSubgroupBlockIoOps(OpTable& t) {
  t.core[uint32_t(Op::OpSubgroupBlockReadINTEL)] = &lowerBlock<false>;
  t.core[uint32_t(Op::OpSubgroupBlockWriteINTEL)] = &lowerBlock<true>;
}

}  // namespace spvsim
