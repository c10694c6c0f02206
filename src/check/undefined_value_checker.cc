#include "src/check/undefined_value_checker.h"

#include <algorithm>
#include <cstring>

#include "src/check/shadow_bytes.h"
#include "src/check/shadow_kernel.h"
#include "src/check/uninitialized_checker.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {

void UndefinedValueChecker::workGroupBegin(WorkGroupContext& wg, SubGroup* sgs, size_t count) {
  const auto& k = static_cast<const ShadowKernel&>(*wg.launch->kernel);
  // Records of the last work-group's reads, whose sub-groups (the same objects) count
  // their steps from 0 again.
  k.runBy = k.readBy = nullptr;
  // The slot's sub-groups keep their shadow registers from one work-group to the next, as
  // they keep their registers: every shadow a rule reads was written in this work-group
  // by the rule of the value's own instruction (or, for an instruction without rule, is
  // the zero it started with), and the undefined constants' never change. So each
  // sub-group's are set up once, on its first work-group in this slot.
  // A file that was not clean is cleared again (what it holds is as good, but a clean one
  // lets the rules that only move shadows do nothing: SubGroup::shadowClean).
  for (size_t i = 0; i < count; ++i) {
    SubGroup& sg = sgs[i];
    if (i < prepared_ && sg.shadowClean) continue;
    std::memset(sg.shadow, 0, k.registerBytes);
    for (const auto& [reg, lane] : k.undefined)
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(sg.shadow + reg + size_t(l) * lane.size(), lane.data(), lane.size());
    sg.shadowClean = k.undefined.empty();
  }
  prepared_ = std::max(prepared_, count);
  markArenaStartState(sgs, count, k, k.mirror);
}

// Lanes of this instruction execution that read undefined bytes, for rules::mergeReads
// (OpLoad's rule reads the shadow itself).
void UndefinedValueChecker::noteRead(SubGroup& sg, const MemoryAccess& a) {
  const uint8_t* d = memoryShadow(sg, a.pointer, a.host);
  if (!d || std::find(d, d + a.bytes, uint8_t{0}) == d + a.bytes) return;
  const auto& k = static_cast<const ShadowKernel&>(*sg.wg->launch->kernel);
  if (k.readBy != &sg || k.readStep != sg.steps) {
    k.readBy = &sg;
    k.readStep = sg.steps;
    k.readUndefined = LaneMask{};
  }
  k.readUndefined.set(a.lane);
}

void UndefinedValueChecker::access(SubGroup& sg, const MemoryAccess& a) {
  switch (a.kind) {
    case AccessKind::Write:
    case AccessKind::AtomicStore:
    case AccessKind::AtomicRmw:
      if (a.kind == AccessKind::AtomicRmw) noteRead(sg, a);
      if (uint8_t* d = memoryShadow(sg, a.pointer, a.host)) std::memset(d, 1, a.bytes);
      return;
    case AccessKind::Copy:
      if (uint8_t* d = memoryShadow(sg, a.pointer, a.host)) {
        if (const uint8_t* s = memoryShadow(sg, a.source, a.sourceHost))
          std::memmove(d, s, a.bytes);
        else
          std::memset(d, 1, a.bytes);
      }
      return;
    case AccessKind::Read:
    case AccessKind::AtomicLoad:
    case AccessKind::AtomicFailedRmw:
      return noteRead(sg, a);
  }
}

// A whole sub-group's access: one pass over the span's shadow, lane by lane only where a
// read meets undefined bytes (noteRead names the lanes).
void UndefinedValueChecker::accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride,
                                      uint32_t lanes) {
  uint8_t* d = memoryShadow(sg, first.pointer, first.host);
  const uint64_t span = stride * (lanes - 1) + first.bytes;
  if (first.kind == AccessKind::Write) {
    if (d) std::memset(d, 1, span);  // contiguous lanes: the span is every lane's bytes
    return;
  }
  // Memory without shadow is defined. What the read found, for OpLoad's rule (after this
  // handler: rules::load).
  const auto& k = static_cast<const ShadowKernel&>(*sg.wg->launch->kernel);
  k.runBy = &sg;
  k.runStep = sg.steps;
  k.runDefined = !d || noZeroByte(d, span);
  if (!k.runDefined) ExecutionObserver::accessRun(sg, first, stride, lanes);
}

}  // namespace spvsim::check
