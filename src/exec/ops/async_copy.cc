// Asynchronous work-group copies (OpenCL C async_work_group_copy,
// async_work_group_strided_copy, wait_group_events, prefetch): OpGroupAsyncCopy,
// OpGroupWaitEvents and OpenCL.std prefetch.
//
// Both group instructions are work-group collectives (group_util.h): every work-item of
// the work-group must reach them with the same arguments. The copy is done eagerly, once
// every sub-group waits at it (OpenCL lets it complete any time before the wait), by the
// work-group as a whole: its accesses go through the checked memory path and are
// reported to observers as work-item 0's copies, between asyncCopyBegin and asyncCopyEnd
// (so that a checker can tell they complete only at the wait). The wait is a collective
// too and tells observers which copies it completed, then that it ordered the work-group's
// memory like a work-group barrier, which is what makes the copied data visible to every
// work-item (src/DESIGN.md "Async copies").
#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using namespace ops;
using spv::Op;

// Register offsets of OpGroupAsyncCopy's operands, in LoweredKernel::extra at Inst::aux.
struct CopyOperands {
  uint32_t dst, src, count, stride, event;
  uint32_t countBytes, strideBytes, eventBytes;
};
constexpr uint32_t kCopyWords = 8;

// One work-item's arguments of an async copy.
struct CopyArgs {
  uint64_t dst = 0, src = 0, count = 0, stride = 0, event = 0;
  bool operator==(const CopyArgs&) const = default;
};

CopyOperands copyOperands(const SubGroup& sg, const Inst& in) {
  const uint32_t* e = sg.extra + in.aux;
  return {e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]};
}

CopyArgs copyArgs(const SubGroup& sg, const CopyOperands& o, uint32_t lane) {
  return {laneUint(sg, o.dst, lane, 8), laneUint(sg, o.src, lane, 8),
          laneUint(sg, o.count, lane, o.countBytes), laneUint(sg, o.stride, lane, o.strideBytes),
          laneUint(sg, o.event, lane, o.eventBytes)};
}

// The first argument in which `b` differs from `a`, for messages.
std::string firstDifference(const CopyArgs& a, const CopyArgs& b) {
  auto hex = [](uint64_t v) { return fmt::format("{:#x}", v); };
  if (a.dst != b.dst) return fmt::format("destination {} vs {}", hex(a.dst), hex(b.dst));
  if (a.src != b.src) return fmt::format("source {} vs {}", hex(a.src), hex(b.src));
  if (a.count != b.count) return fmt::format("element count {} vs {}", a.count, b.count);
  if (a.stride != b.stride) return fmt::format("stride {} vs {}", a.stride, b.stride);
  return fmt::format("event {} vs {}", hex(a.event), hex(b.event));
}

// Reports every work-item whose arguments differ from work-item 0's (the copy goes on
// with work-item 0's); returns work-item 0's.
CopyArgs uniformCopyArgs(SubGroup* sgs, size_t count, const Inst& in) {
  const CopyOperands o = copyOperands(sgs[0], in);
  const CopyArgs first = copyArgs(sgs[0], o, 0);
  for (size_t k = 0; k < count; ++k) {
    LaneMask differ;
    CopyArgs seen;
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l) {
      const CopyArgs a = copyArgs(sgs[k], o, l);
      if (a == first) continue;
      if (differ.none()) seen = a;
      differ.set(l);
    }
    if (differ.any())
      sgs[k].report(in, DiagnosticKind::NonUniformCollective,
                    fmt::format("async work-group copy reached with different arguments: "
                                "work-item 0 and lane {} of sub-group {} differ in {}; "
                                "work-item 0's arguments are used",
                                differ.first(), sgs[k].id, firstDifference(first, seen)),
                    differ);
  }
  return first;
}

// Element i of a side with `stride` elements of `bytes` between consecutive ones.
uint64_t elementPointer(uint64_t base, uint64_t i, uint64_t stride, uint64_t bytes) {
  const int64_t index = scaledIndex(int64_t(std::min<uint64_t>(i, kDeltaLimit)),
                                    int64_t(std::min<uint64_t>(stride, kDeltaLimit)));
  return offsetPointer(base, scaledIndex(index, int64_t(bytes)));
}

// The elements [first, end) of one side that lie inside the object its base pointer
// names. They lie at increasing addresses (stride >= 0) in that object, so those outside
// it are a prefix and a suffix of the copy: computed, not visited, since a kernel may ask
// for any count. Empty for a pointer into no object.
struct Inside {
  uint64_t first = 0, end = 0;
};

Inside insideObject(const MemoryMap& mem, uint64_t base, uint64_t count, uint64_t stride,
                    uint64_t bytes) {
  const uint64_t p = mem.canonical(base);
  const Region* r = mem.regionOf(p);
  if (!r || pointerSaturated(p) || bytes > r->size) return {};
  using Wide = __int128;  // stride * bytes < 2^96
  const Wide offset = pointerOffset(p), last = Wide(r->size - bytes), step = Wide(stride) * bytes;
  if (offset > last) return {};
  if (step == 0) return offset >= 0 ? Inside{0, count} : Inside{};
  const Wide first = offset >= 0 ? 0 : (-offset + step - 1) / step;  // offset + i step >= 0
  const Wide end = (last - offset) / step + 1;                       // offset + i step <= last
  const uint64_t lo = uint64_t(std::min<Wide>(first, count));
  return {lo, std::max(lo, uint64_t(std::min<Wide>(end, count)))};
}

// Reports the copy's elements not copied: the standard access diagnostic of the first
// (its side, place and why), naming it and how many there were.
void reportUncopied(SubGroup& sg, const Inst& in, const CopyArgs& a, uint64_t srcStride,
                    uint64_t dstStride, uint64_t element, uint64_t uncopied) {
  const uint64_t bytes = in.n;
  const uint64_t s = elementPointer(a.src, element, srcStride, bytes);
  const uint64_t d = elementPointer(a.dst, element, dstStride, bytes);
  AccessError err = AccessError::Ok;
  const bool write = sg.locate(s, 0, bytes, false, err) != nullptr;  // else the source failed
  if (write) sg.locate(d, 0, bytes, true, err);
  std::vector<uint64_t> ptrs(sg.width, write ? d : s);
  // reportAccess words the access; the copy adds which elements it concerns (a repeat at
  // this instruction adds nothing).
  const size_t before = sg.wg->diagnostics->size();
  sg.reportAccess(in, err, sg.live, ptrs.data(), bytes, write);
  if (sg.wg->diagnostics->size() == before) return;
  sg.wg->diagnostics->back().message += fmt::format(
      ": element {} of an async copy of {}; {} of its elements {} not copied, the other {} "
      "{}",
      element, a.count, uncopied, uncopied == 1 ? "was" : "were", a.count - uncopied,
      a.count - uncopied == 1 ? "was" : "were");
}

// The copy itself, by the whole work-group, attributed to work-item 0 (sub-group 0's
// lane 0) for observers. Destination in local memory: the source is strided; else the
// destination is (SPIR-V OpGroupAsyncCopy). Every element whose source and destination
// the kernel may access is copied, as a device's copy engine would; the others are
// reported (the first, and how many) and skipped.
void performCopy(SubGroup& sg, const Inst& in, const CopyArgs& a) {
  if (a.count == 0) return;
  const uint64_t bytes = in.n;
  const bool toLocal = in.aux2 != 0;
  const uint64_t dstStride = toLocal ? 1 : a.stride, srcStride = toLocal ? a.stride : 1;
  const MemoryMap& mem = *sg.wg->launch->memory;
  const Inside src = insideObject(mem, a.src, a.count, srcStride, bytes);
  const Inside dst = insideObject(mem, a.dst, a.count, dstStride, bytes);
  const uint64_t from = std::max(src.first, dst.first);
  const uint64_t to = std::max(from, std::min(src.end, dst.end));
  uint64_t copied = 0, firstUncopied = from > 0 ? 0 : to;
  // What the creation flags forbid is copied and reported once per side (Region).
  bool readReported = false, writeReported = false;
  for (uint64_t i = from; i < to; ++i) {
    const uint64_t s = elementPointer(a.src, i, srcStride, bytes);
    const uint64_t d = elementPointer(a.dst, i, dstStride, bytes);
    AccessError readErr = AccessError::Ok, writeErr = AccessError::Ok;
    const uint8_t* source = sg.locate(s, 0, bytes, false, readErr);
    uint8_t* target = source ? sg.locate(d, 0, bytes, true, writeErr) : nullptr;
    if (!target) {  // inside the objects, but not writable (constant memory)
      firstUncopied = std::min(firstUncopied, i);
      continue;
    }
    if (readErr != AccessError::Ok && !std::exchange(readReported, true))
      sg.reportForbiddenByFlags(in, 0, s, bytes, false);
    if (writeErr != AccessError::Ok && !std::exchange(writeReported, true))
      sg.reportForbiddenByFlags(in, 0, d, bytes, true);
    ++copied;
    ++sg.wg->writes;
    if (sg.wg->observers.any()) [[unlikely]]
      sg.notify(MemoryAccess{AccessKind::Copy, 0, d, target, bytes, 0, 0, s, source});
    std::memmove(target, source, bytes);
  }
  if (copied != a.count)
    reportUncopied(sg, in, a, srcStride, dstStride, firstUncopied, a.count - copied);
}

// Whether `event` names copies of this work-group no wait has released.
bool liveEvent(const WorkGroupContext& wg, uint64_t event) {
  return std::any_of(wg.unwaitedCopies.begin(), wg.unwaitedCopies.end(),
                     [&](const auto& copy) { return copy.first == event; });
}

bool releasedEvent(const WorkGroupContext& wg, uint64_t event) {
  return std::find(wg.releasedEvents.begin(), wg.releasedEvents.end(), event) !=
         wg.releasedEvents.end();
}

// The event every work-item gets: the one passed in, else one naming this instruction
// (never 0, the null event). A non-zero event passed in must be one an earlier copy of
// the work-group returned (OpenCL C: it associates the copy with that one, "otherwise
// event should be zero"); any other is reported, and returned as the spec says.
void asyncCopy(SubGroup* sgs, size_t count, const Inst& in) {
  const CopyArgs a = uniformCopyArgs(sgs, count, in);
  const WorkGroupContext& wg = *sgs[0].wg;
  if (a.event && !liveEvent(wg, a.event) && !releasedEvent(wg, a.event))
    sgs[0].report(in, DiagnosticKind::InvalidEvent,
                  fmt::format("async copy given event {:#x}, which no earlier async copy of the "
                              "work-group returned (an uninitialised event_t?); the event "
                              "argument should be 0 or a previous copy's event",
                              a.event),
                  sgs[0].live);
  // The copy acts on memory for the whole work-group: every work-item's stores first.
  if (sgs[0].wg->relaxed) [[unlikely]]
    sgs[0].wg->relaxed->drainGroup(*sgs[0].wg);
  const uint64_t event = a.event ? a.event : uint64_t(in.src) + 1;
  const bool observed = sgs[0].wg->observers.any();
  if (observed) [[unlikely]]
    sgs[0].wg->observers.each([&](ExecutionObserver& o) { o.asyncCopyBegin(sgs[0], in, event); });
  performCopy(sgs[0], in, a);
  if (observed) [[unlikely]]
    sgs[0].wg->observers.each([&](ExecutionObserver& o) { o.asyncCopyEnd(sgs[0]); });
  sgs[0].wg->unwaitedCopies.emplace_back(event, sgs[0].barrierPc);
  const uint32_t eventBytes = copyOperands(sgs[0], in).eventBytes;
  for (size_t k = 0; k < count; ++k)
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l)
      std::memcpy(sgs[k].regs + in.r + size_t(l) * eventBytes, &event, eventBytes);
}

spv::StorageClass pointerStorage(Lowerer& lw, spirv::Id id) {
  const spirv::Type& t = lw.typeOfValue(id);
  return t.kind == spirv::TypeKind::Pointer ? t.storage : spv::StorageClass::Max;
}

// Inst: r event, n element bytes, aux operands in extra (CopyOperands), aux2 1 when the
// destination is local memory.
void lowerAsyncCopy(Lowerer& lw, const spirv::Instruction& inst) {
  if (groupScope(lw, inst) != GroupScope::Workgroup)
    lw.unsupported(inst, "OpGroupAsyncCopy at Subgroup execution scope");
  const spirv::Id dst = Lowerer::operand(inst, 1), src = Lowerer::operand(inst, 2);
  const spirv::Id count = Lowerer::operand(inst, 3), stride = Lowerer::operand(inst, 4);
  const spirv::Id event = Lowerer::operand(inst, 5);
  using SC = spv::StorageClass;
  const SC d = pointerStorage(lw, dst), s = pointerStorage(lw, src);
  const bool toLocal = d == SC::Workgroup && s == SC::CrossWorkgroup;
  const bool toGlobal = d == SC::CrossWorkgroup && s == SC::Workgroup;
  if (!toLocal && !toGlobal)
    lw.unsupported(inst, "OpGroupAsyncCopy other than between Workgroup and CrossWorkgroup");
  const Shape cs = lw.shapeOfValue(count), ss = lw.shapeOfValue(stride);
  if (!cs.isInt() || !ss.isInt() || cs.components != 1 || ss.components != 1)
    lw.unsupported(inst, lw.describeWithType(inst));
  const uint64_t elementBytes = lw.type(lw.typeOfValue(dst).element).size;
  const uint64_t eventBytes = lw.type(inst.resultType).size;
  if (elementBytes == 0 || elementBytes > UINT32_MAX || eventBytes > 8 ||
      lw.typeOfValue(event).size != eventBytes)
    lw.unsupported(inst, lw.describeWithType(inst));
  const std::vector<uint32_t> words{lw.reg(dst),        lw.reg(src),         lw.reg(count),
                                    lw.reg(stride),     lw.reg(event),       uint32_t(cs.bytes),
                                    uint32_t(ss.bytes), uint32_t(eventBytes)};
  static_assert(kCopyWords == 8);
  const uint32_t at = lw.addExtra(words);
  Inst& in = emitWorkGroupCollective(lw, inst, &asyncCopy);
  in.n = uint32_t(elementBytes);
  in.aux = at;
  in.aux2 = toLocal ? 1 : 0;
}

// ---- OpGroupWaitEvents ------------------------------------------------------------
// Inst: a NumEvents, b EventsList (pointer), n NumEvents bytes, aux event bytes.

// One work-item's events, read through the checked path (so an out-of-bounds list or
// an unwritten event is reported); false when the list could not be read.
bool readEvents(SubGroup& sg, const Inst& in, uint32_t lane, std::vector<uint64_t>& events) {
  const uint64_t n = laneUint(sg, in.a, lane, in.n);
  const uint64_t list = sg.reg<uint64_t>(in.b)[lane];
  events.assign(n, 0);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t p = offsetPointer(list, scaledIndex(int64_t(i), in.aux));
    AccessError err = AccessError::Ok;
    const uint8_t* host = sg.resolve(p, lane, in.aux, false, err);
    if (!host) {
      LaneMask one;
      one.set(lane);
      std::vector<uint64_t> ptrs(sg.width, p);
      sg.reportAccess(in, err, one, ptrs.data(), in.aux, false);
      return false;
    }
    std::memcpy(&events[i], host, in.aux);
  }
  return true;
}

// The index of the first event in `events` that names no copy a wait may wait for: one
// no copy of the work-group returned, or one a wait already released (OpenCL C: "The
// event objects specified in event_list will be released after the wait is performed").
std::optional<size_t> firstInvalidEvent(const WorkGroupContext& wg,
                                        const std::vector<uint64_t>& events) {
  for (size_t i = 0; i < events.size(); ++i)
    if (!liveEvent(wg, events[i])) return i;
  return std::nullopt;
}

void reportInvalidWait(SubGroup& sg, const Inst& in, const LaneMask& lanes, uint64_t event,
                       size_t index) {
  const bool released = releasedEvent(*sg.wg, event);
  sg.report(in, DiagnosticKind::InvalidEvent,
            fmt::format("wait_group_events waits for event {:#x} (element {} of the event list), "
                        "which {}; the wait goes on as a work-group barrier",
                        event, index,
                        released ? "an earlier wait_group_events already waited for and released"
                                 : "no async copy of the work-group returned (an uninitialised "
                                   "event_t?)"),
            lanes);
}

void waitGroupEvents(SubGroup* sgs, size_t count, const Inst& in) {
  WorkGroupContext& wg = *sgs[0].wg;
  std::vector<uint64_t> first, events;
  const bool ok = readEvents(sgs[0], in, 0, first);
  for (size_t k = 0; k < count; ++k) {
    LaneMask differ, invalid;
    uint64_t invalidEvent = 0;
    size_t invalidIndex = 0;
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l) {
      const bool workItem0 = k == 0 && l == 0;
      if (workItem0 ? !ok : !readEvents(sgs[k], in, l, events)) continue;
      const std::vector<uint64_t>& list = workItem0 ? first : events;
      if (ok && list != first) differ.set(l);
      if (const auto at = firstInvalidEvent(wg, list)) {
        if (invalid.none()) invalidEvent = list[*at], invalidIndex = *at;
        invalid.set(l);
      }
    }
    if (differ.any())
      sgs[k].report(in, DiagnosticKind::NonUniformCollective,
                    fmt::format("wait_group_events reached with different event lists: "
                                "work-item 0 waits for {} event(s), lane {} of sub-group {} "
                                "for other events",
                                first.size(), differ.first(), sgs[k].id),
                    differ);
    if (invalid.any()) reportInvalidWait(sgs[k], in, invalid, invalidEvent, invalidIndex);
  }
  // The copies are complete; every work-item now sees their data. The wait releases
  // their events.
  for (uint64_t event : first)
    if (liveEvent(wg, event) && !releasedEvent(wg, event)) wg.releasedEvents.push_back(event);
  std::erase_if(wg.unwaitedCopies, [&](const auto& copy) {
    return std::find(first.begin(), first.end(), copy.first) != first.end();
  });
  wg.observers.each([&](ExecutionObserver& o) { o.asyncCopiesWaited(sgs[0], first); });
  constexpr uint32_t kSemantics = uint32_t(spv::MemorySemanticsMask::AcquireRelease) |
                                  uint32_t(spv::MemorySemanticsMask::WorkgroupMemory) |
                                  uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory);
  wg.observers.each([&](ExecutionObserver& o) {
    o.workGroupBarrier(sgs, count, uint32_t(spv::Scope::Workgroup), kSemantics);
  });
}

void lowerWaitEvents(Lowerer& lw, const spirv::Instruction& inst) {
  if (groupScope(lw, inst) != GroupScope::Workgroup)
    lw.unsupported(inst, "OpGroupWaitEvents at Subgroup execution scope");
  const spirv::Id n = Lowerer::operand(inst, 1), list = Lowerer::operand(inst, 2);
  const Shape ns = lw.shapeOfValue(n);
  const spirv::Type& listType = lw.typeOfValue(list);
  if (!ns.isInt() || ns.components != 1 || listType.kind != spirv::TypeKind::Pointer)
    lw.unsupported(inst, lw.describeWithType(inst));
  const uint64_t eventBytes = lw.type(listType.element).size;
  if (eventBytes == 0 || eventBytes > 8) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t nReg = lw.reg(n), listReg = lw.reg(list);
  Inst& in = emitWorkGroupCollective(lw, inst, &waitGroupEvents);
  in.a = nReg;
  in.b = listReg;
  in.n = ns.bytes;
  in.aux = uint32_t(eventBytes);
}

// prefetch(p, n) is a hint without an effect on results (OpenCL C 6.15.10): nothing to
// check, nothing to do.
void noEffect(SubGroup&, const Inst&) {}

void lowerPrefetch(Lowerer& lw, const spirv::Instruction& inst) { lw.emit(inst, &noEffect); }

}  // namespace

void reportUnwaitedCopies(SubGroup& first) {
  const auto& unwaited = first.wg->unwaitedCopies;
  first.report(first.code[unwaited.front().second], DiagnosticKind::UnwaitedAsyncCopy,
               fmt::format("the work-group finished without waiting (wait_group_events) for {} "
                           "async cop{}; a copy may complete at any time before its wait, so "
                           "what it copied is undefined",
                           unwaited.size(), unwaited.size() == 1 ? "y" : "ies"),
               first.live);
}

void registerAsyncCopyOps(OpTable& t) {
  t.core[uint32_t(Op::OpGroupAsyncCopy)] = &lowerAsyncCopy;
  t.core[uint32_t(Op::OpGroupWaitEvents)] = &lowerWaitEvents;
  t.openclStd[185] = &lowerPrefetch;  // OpenCL.std prefetch
}

}  // namespace spvsim
