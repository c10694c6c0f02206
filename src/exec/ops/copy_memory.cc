// OpCopyMemory and OpCopyMemorySized, and the same copy for other instructions that copy
// an object (copyMemoryBytes, src/exec/ops/memory_copy.h): each lane's source and target
// located and bounds-checked, one Copy access per lane for observers.
#include <cstring>

#include "src/exec/ops/memory_copy.h"
#include "src/exec/ops/memory_ops.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {
namespace {

using spirv::Id;

// OpCopyMemory / OpCopyMemorySized: in.a target, in.b source, bytes in.n or from in.c.
// Each lane's copy is one Copy access for observers (not a read and a write: copying a
// struct with padding or unwritten members reads nothing the kernel uses).
template <bool Sized>
void copyMemory(SubGroup& sg, const Inst& in) {
  const uint64_t* dst = sg.reg<uint64_t>(in.a);
  const uint64_t* src = sg.reg<uint64_t>(in.b);
  LaneMask failed;
  AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
  bool failedWrite = false;
  uint64_t failedBytes = 0;
  sg.forActive([&](uint32_t l) {
    uint64_t bytes = in.n;
    if constexpr (Sized) {
      bytes = 0;
      std::memcpy(&bytes, sg.regs + in.c + size_t(l) * in.aux2, in.aux2);
    }
    if (bytes == 0) return;
    AccessError readErr = AccessError::Ok;
    const uint8_t* s = sg.locate(src[l], l, bytes, false, readErr);
    uint8_t* d = s ? sg.locate(dst[l], l, bytes, true, err) : nullptr;
    if (!s || !d) {
      failed.set(l);
      firstErr = s ? err : readErr;
      failedWrite = s != nullptr;
      failedBytes = bytes;
      return;
    }
    // What the creation flags forbid is performed and reported (Region).
    if (readErr != AccessError::Ok) sg.reportForbiddenByFlags(in, l, src[l], bytes, false);
    if (err != AccessError::Ok) sg.reportForbiddenByFlags(in, l, dst[l], bytes, true);
    ++sg.wg->writes;
    if (sg.wg->observers.any()) [[unlikely]]
      sg.notify(MemoryAccess{AccessKind::Copy, l, dst[l], d, bytes, 0, 0, src[l], s});
    if (sg.wg->relaxed) [[unlikely]] {  // the copy acts on memory: the lane's stores first
      sg.wg->relaxed->direct(sg, l, src[l], s, bytes);
      sg.wg->relaxed->direct(sg, l, dst[l], d, bytes);
    }
    std::memmove(d, s, bytes);
  });
  if (failed.any())
    sg.reportAccess(in, firstErr, failed, failedWrite ? dst : src, failedBytes, failedWrite);
}

}  // namespace

void lowerCopyMemory(Lowerer& lw, const spirv::Instruction& inst) {
  Id target = inst.operands.at(0);
  uint32_t t = lw.reg(target), s = lw.reg(inst.operands.at(1));
  Inst& in = lw.emit(inst, &copyMemory<false>);
  in.a = t;
  in.b = s;
  in.n = static_cast<uint32_t>(lw.type(lw.typeOfValue(target).element).size);
}

void lowerCopyMemorySized(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t t = lw.reg(inst.operands.at(0)), s = lw.reg(inst.operands.at(1));
  Id size = inst.operands.at(2);
  uint32_t sizeReg = lw.reg(size);
  uint32_t sizeBytes = static_cast<uint32_t>(lw.typeOfValue(size).size);
  Inst& in = lw.emit(inst, &copyMemory<true>);
  in.a = t;
  in.b = s;
  in.c = sizeReg;
  in.aux2 = sizeBytes;
}

void copyMemoryBytes(SubGroup& sg, const Inst& in) { copyMemory<false>(sg, in); }

}  // namespace spvsim::ops
