#include "src/exec/ops/shadow_memory.h"

#include <fmt/core.h>

#include <algorithm>

namespace spvsim {

uint64_t uninitializedBytes(const SubGroup& sg, uint64_t p, const uint8_t* host, uint64_t bytes) {
  const uint8_t* s = shadowOf(sg, p, host);
  if (!s) return 0;
  return static_cast<uint64_t>(std::count(s, s + bytes, uint8_t{0}));
}

void copyShadow(const SubGroup& sg, uint64_t dstP, uint8_t* dst, uint64_t srcP, const uint8_t* src,
                uint64_t bytes) {
  uint8_t* d = shadowOf(sg, dstP, dst);
  if (!d) return;  // global target: the host's memory, never tracked
  if (const uint8_t* s = shadowOf(sg, srcP, src))
    std::memmove(d, s, bytes);
  else
    std::memset(d, 1, bytes);
}

void reportUninitialized(SubGroup& sg, const Inst& in, const LaneMask& lanes, const uint64_t* ptrs,
                         uint64_t bytes) {
  const uint32_t l = lanes.first();
  const uint64_t p = ptrs[l];
  const Space s = pointerSpace(p);
  const Region& r = sg.wg->launch->memory->regions(s)[pointerRegion(p)];
  AccessError err = AccessError::Ok;
  const uint8_t* host = sg.resolve(p, l, bytes, false, err);
  const uint64_t missing = host ? uninitializedBytes(sg, p, host, bytes) : bytes;
  sg.report(in, DiagnosticKind::UninitializedRead,
            fmt::format("read of {} bytes at byte offset {} of {} ({} memory, {} bytes): {} of "
                        "them never written in this work-group",
                        bytes, pointerOffset(p), r.name, spaceName(s), r.size, missing),
            lanes);
}

void markStartState(const SubGroup& sg, const LoweredKernel& k) {
  const MemoryMap& mem = *sg.wg->launch->memory;
  auto mark = [&](uint32_t lane, uint32_t region) {
    const Region& r = mem.priv[region];
    uint8_t* host = sg.priv + lane * sg.privateBytes + r.arenaOffset;
    std::memset(host + mem.privateArenaBytes, 1, r.size);
  };
  for (uint32_t l = 0; l < sg.liveLanes; ++l) {
    for (const BuiltinSlot& slot : k.builtins) mark(l, slot.region);
    for (const auto& init : k.privateInits) mark(l, init.first);
    for (uint32_t region : k.paramByValRegion)
      if (region) mark(l, region);
  }
}

}  // namespace spvsim
