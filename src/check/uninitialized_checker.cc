#include "src/check/uninitialized_checker.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "src/check/shadow_bytes.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {
namespace {

// The shadow of `host` (the address the executor resolved kernel pointer `p` to) in arena
// mirror `mirror`, or nullptr for memory without shadow (global, constant).
uint8_t* shadowOf(const SubGroup& sg, uint32_t mirror, uint64_t p, const uint8_t* host) {
  const MemoryMap& mem = *sg.wg->launch->memory;
  switch (pointerSpace(p)) {
    case Space::Local:
      return const_cast<uint8_t*>(host) + mirror * mem.localArenaBytes;
    case Space::Private:
      return const_cast<uint8_t*>(host) + mirror * mem.privateArenaBytes;
    default:
      return nullptr;
  }
}

// How many of the `bytes` bytes at `p`/`host` were never written (0 for global and
// constant memory).
uint64_t uninitializedBytes(const SubGroup& sg, uint32_t mirror, uint64_t p, const uint8_t* host,
                            uint64_t bytes) {
  const uint8_t* s = shadowOf(sg, mirror, p, host);
  if (!s) return 0;
  return static_cast<uint64_t>(std::count(s, s + bytes, uint8_t{0}));
}

void markWritten(const SubGroup& sg, uint32_t mirror, uint64_t p, const uint8_t* host,
                 uint64_t bytes) {
  if (uint8_t* s = shadowOf(sg, mirror, p, host)) std::memset(s, 1, bytes);
}

// The target's bytes become exactly as initialised as the source's (a global or
// constant source counts as written).
void copyShadow(const SubGroup& sg, uint32_t mirror, const MemoryAccess& a) {
  uint8_t* d = shadowOf(sg, mirror, a.pointer, a.host);
  if (!d) return;  // global target: the host's memory, never tracked
  if (const uint8_t* s = shadowOf(sg, mirror, a.source, a.sourceHost))
    std::memmove(d, s, a.bytes);
  else
    std::memset(d, 1, a.bytes);
}

}  // namespace

void markArenaStartState(const SubGroup* sgs, size_t count, const LoweredKernel& k,
                         uint32_t mirror) {
  if (!count) return;
  const MemoryMap& mem = *sgs[0].wg->launch->memory;
  const bool allBuiltins = sgs[0].wg->launch->builtinStorage;
  auto forEachRegion = [&](auto&& f) {
    for (const BuiltinSlot& slot : k.builtins)
      if (slot.inMemory || allBuiltins) f(slot.region);
    for (const auto& init : k.privateInits) f(init.first);
    for (uint32_t region : k.paramByValRegion)
      if (region) f(region);
  };
  bool any = false;  // most kernels at -O2 have none: no pass over the lanes then
  forEachRegion([&](uint32_t) { any = true; });
  if (!any) return;
  for (size_t i = 0; i < count; ++i) {
    const SubGroup& sg = sgs[i];
    for (uint32_t l = 0; l < sg.liveLanes; ++l)
      forEachRegion([&](uint32_t region) {
        const Region& r = mem.priv[region];
        uint8_t* host = sg.priv + l * sg.privateBytes + r.arenaOffset;
        std::memset(host + mirror * mem.privateArenaBytes, 1, r.size);
      });
  }
}

void UninitializedChecker::workGroupBegin(WorkGroupContext& wg, SubGroup* sgs, size_t count) {
  lastSubGroup_ = nullptr;
  markArenaStartState(sgs, count, *wg.launch->kernel, mirror_);
}

void UninitializedChecker::access(SubGroup& sg, const MemoryAccess& a) {
  switch (a.kind) {
    case AccessKind::Read:
      return checkRead(sg, a);
    case AccessKind::Write:
    case AccessKind::AtomicStore:
    case AccessKind::AtomicRmw:
      return markWritten(sg, mirror_, a.pointer, a.host, a.bytes);
    case AccessKind::Copy:
      return copyShadow(sg, mirror_, a);
    case AccessKind::AtomicLoad:
    case AccessKind::AtomicFailedRmw:
      return;
  }
}

// A whole sub-group's access: one pass over the span's shadow, lane by lane only where a
// read meets unwritten bytes (the report names the lanes).
void UninitializedChecker::accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride,
                                     uint32_t lanes) {
  uint8_t* s = shadowOf(sg, mirror_, first.pointer, first.host);
  if (!s) return;  // global and constant memory: initialised by the host
  const uint64_t span = stride * (lanes - 1) + first.bytes;
  if (first.kind == AccessKind::Write) {
    std::memset(s, 1, span);  // contiguous lanes: the span is every lane's bytes
    return;
  }
  if (!noZeroByte(s, span)) ExecutionObserver::accessRun(sg, first, stride, lanes);
}

// The first lane of an instruction's execution that read unwritten bytes reports them;
// later lanes of the same execution join its diagnostic (lanes arrive in lane order).
void UninitializedChecker::checkRead(SubGroup& sg, const MemoryAccess& a) {
  const uint64_t missing = uninitializedBytes(sg, mirror_, a.pointer, a.host, a.bytes);
  if (!missing) return;
  if (lastSubGroup_ == &sg && lastStep_ == sg.steps) {
    if (appendLanes_) (*sg.wg->diagnostics)[lastDiagnostic_].lanes.push_back(a.lane);
    return;
  }
  const Inst& in = sg.code[sg.pc - 1];
  const uint64_t p = a.pointer;
  const Space s = pointerSpace(p);
  const Region& r = sg.wg->launch->memory->regions(s)[pointerRegion(p)];
  const size_t before = sg.wg->diagnostics->size();
  LaneMask lanes;
  lanes.set(a.lane);
  sg.report(in, DiagnosticKind::UninitializedRead,
            fmt::format("read of {} bytes at byte offset {} of {} ({} memory, {} bytes): {} of "
                        "them never written in this work-group",
                        a.bytes, pointerOffset(p), r.name, spaceName(s), r.size, missing),
            lanes);
  lastSubGroup_ = &sg;
  lastStep_ = sg.steps;
  appendLanes_ = sg.wg->diagnostics->size() > before;  // not folded into an earlier one
  lastDiagnostic_ = before;
}

}  // namespace spvsim::check
