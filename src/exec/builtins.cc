#include "src/exec/builtins.h"

#include <algorithm>
#include <cstring>

namespace spvsim {

bool describeBuiltin(spv::BuiltIn b, const spirv::Type& type, BuiltinSlot& slot) {
  using B = spv::BuiltIn;
  switch (b) {
    case B::GlobalInvocationId:
      slot.builtin = Builtin::GlobalInvocationId;
      break;
    case B::LocalInvocationId:
      slot.builtin = Builtin::LocalInvocationId;
      break;
    case B::WorkgroupId:
      slot.builtin = Builtin::WorkgroupId;
      break;
    case B::NumWorkgroups:
      slot.builtin = Builtin::NumWorkgroups;
      break;
    case B::WorkgroupSize:
      slot.builtin = Builtin::WorkgroupSize;
      break;
    case B::EnqueuedWorkgroupSize:
      slot.builtin = Builtin::EnqueuedWorkgroupSize;
      break;
    case B::GlobalSize:
      slot.builtin = Builtin::GlobalSize;
      break;
    case B::GlobalOffset:
      slot.builtin = Builtin::GlobalOffset;
      break;
    case B::GlobalLinearId:
      slot.builtin = Builtin::GlobalLinearId;
      break;
    case B::LocalInvocationIndex:
      slot.builtin = Builtin::LocalInvocationIndex;
      break;
    case B::WorkDim:
      slot.builtin = Builtin::WorkDim;
      break;
    case B::SubgroupSize:
      slot.builtin = Builtin::SubgroupSize;
      break;
    case B::SubgroupMaxSize:
      slot.builtin = Builtin::SubgroupMaxSize;
      break;
    case B::NumSubgroups:
      slot.builtin = Builtin::NumSubgroups;
      break;
    case B::NumEnqueuedSubgroups:
      slot.builtin = Builtin::NumEnqueuedSubgroups;
      break;
    case B::SubgroupId:
      slot.builtin = Builtin::SubgroupId;
      break;
    case B::SubgroupLocalInvocationId:
      slot.builtin = Builtin::SubgroupLocalInvocationId;
      break;
    case B::SubgroupEqMask:
      slot.builtin = Builtin::SubgroupEqMask;
      break;
    case B::SubgroupGeMask:
      slot.builtin = Builtin::SubgroupGeMask;
      break;
    case B::SubgroupGtMask:
      slot.builtin = Builtin::SubgroupGtMask;
      break;
    case B::SubgroupLeMask:
      slot.builtin = Builtin::SubgroupLeMask;
      break;
    case B::SubgroupLtMask:
      slot.builtin = Builtin::SubgroupLtMask;
      break;
    default:
      return false;
  }
  if (type.kind == spirv::TypeKind::Vector) {
    slot.components = static_cast<uint32_t>(type.count);
    slot.elementBytes = static_cast<uint32_t>(type.size / (type.count == 3 ? 4 : type.count));
  } else {
    slot.components = 1;
    slot.elementBytes = static_cast<uint32_t>(type.size);
  }
  return slot.elementBytes == 4 || slot.elementBytes == 8;
}

namespace {

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Calls f(l, x, y, z) for each live lane l with its local id, counting up from the
// sub-group's first local id.
template <class F>
void forLocalIds(const SubGroup& sg, F&& f) {
  const auto& L = sg.wg->localSize;
  uint64_t x = sg.firstLocalId[0], y = sg.firstLocalId[1], z = sg.firstLocalId[2];
  for (uint32_t l = 0; l < sg.liveLanes; ++l) {
    f(l, x, y, z);
    if (++x == L[0]) {
      x = 0;
      if (++y == L[1]) y = 0, ++z;
    }
  }
}

// Word `c` (bits 32c .. 32c+31) of a 128-bit sub-group mask whose bits [lo, hi) are set.
uint64_t maskWord(uint64_t lo, uint64_t hi, uint32_t c) {
  lo = std::max<uint64_t>(lo, 32ull * c);
  hi = std::min<uint64_t>(hi, 32ull * c + 32);
  if (lo >= hi) return 0;
  return ((1ull << (hi - lo)) - 1) << (lo - 32ull * c);
}

// The value of a built-in that is the same in every lane of `sg`, component `c`.
uint64_t uniformValue(const SubGroup& sg, Builtin b, uint32_t c) {
  const WorkGroupContext& wg = *sg.wg;
  const LaunchContext& ln = *wg.launch;
  const auto& L = wg.localSize;
  switch (b) {
    case Builtin::WorkgroupId:
      return c < 3 ? wg.groupId[c] : 0;
    case Builtin::NumWorkgroups:
      return c < 3 ? ln.numGroups[c] : 0;
    case Builtin::WorkgroupSize:
      return c < 3 ? L[c] : 0;
    case Builtin::EnqueuedWorkgroupSize:
      return c < 3 ? ln.enqueuedLocal[c] : 0;
    case Builtin::GlobalSize:
      return c < 3 ? ln.globalSize[c] : 0;
    case Builtin::GlobalOffset:
      return c < 3 ? ln.globalOffset[c] : 0;
    case Builtin::WorkDim:
      return ln.dims;
    case Builtin::SubgroupSize:
      return sg.liveLanes;
    case Builtin::SubgroupMaxSize:
      return sg.width;
    case Builtin::NumSubgroups:
      return ceilDiv(L[0] * L[1] * L[2], sg.width);
    case Builtin::NumEnqueuedSubgroups:
      return ceilDiv(ln.enqueuedLocal[0] * ln.enqueuedLocal[1] * ln.enqueuedLocal[2], sg.width);
    case Builtin::SubgroupId:
      return sg.id;
    default:
      return 0;
  }
}

// The first global id of dimension d in the work-group (global id = this + local id).
uint64_t groupBase(const SubGroup& sg, uint32_t d) {
  const LaunchContext& ln = *sg.wg->launch;
  return sg.wg->groupId[d] * ln.enqueuedLocal[d] + ln.globalOffset[d];
}

}  // namespace

void builtinColumn(const SubGroup& sg, Builtin b, uint32_t c, uint64_t* out) {
  const uint32_t n = sg.liveLanes;
  switch (b) {
    case Builtin::GlobalInvocationId:
    case Builtin::LocalInvocationId: {
      if (c >= 3) {
        std::fill_n(out, n, 0);
        return;
      }
      const uint64_t base = b == Builtin::GlobalInvocationId ? groupBase(sg, c) : 0;
      forLocalIds(sg, [&](uint32_t l, uint64_t x, uint64_t y, uint64_t z) {
        out[l] = base + (c == 0 ? x : c == 1 ? y : z);
      });
      return;
    }
    case Builtin::GlobalLinearId: {
      // Global ids less the offset: group id * enqueued size + local id, per dimension.
      const LaunchContext& ln = *sg.wg->launch;
      const auto& G = ln.globalSize;
      uint64_t g[3];
      for (uint32_t d = 0; d < 3; ++d) g[d] = sg.wg->groupId[d] * ln.enqueuedLocal[d];
      forLocalIds(sg, [&](uint32_t l, uint64_t x, uint64_t y, uint64_t z) {
        out[l] = (g[2] + z) * G[1] * G[0] + (g[1] + y) * G[0] + (g[0] + x);
      });
      return;
    }
    case Builtin::LocalInvocationIndex:
      for (uint32_t l = 0; l < n; ++l) out[l] = uint64_t(sg.firstLocalLinear) + l;
      return;
    case Builtin::SubgroupLocalInvocationId:
      for (uint32_t l = 0; l < n; ++l) out[l] = l;
      return;
    // Ge/Gt stop at the maximum sub-group size, not the actual one (OpenCL C 3.0.9,
    // cl_khr_subgroup_ballot: "less than the maximum sub-group size").
    case Builtin::SubgroupEqMask:
      for (uint32_t l = 0; l < n; ++l) out[l] = maskWord(l, l + 1, c);
      return;
    case Builtin::SubgroupGeMask:
      for (uint32_t l = 0; l < n; ++l) out[l] = maskWord(l, sg.width, c);
      return;
    case Builtin::SubgroupGtMask:
      for (uint32_t l = 0; l < n; ++l) out[l] = maskWord(l + 1, sg.width, c);
      return;
    case Builtin::SubgroupLeMask:
      for (uint32_t l = 0; l < n; ++l) out[l] = maskWord(0, l + 1, c);
      return;
    case Builtin::SubgroupLtMask:
      for (uint32_t l = 0; l < n; ++l) out[l] = maskWord(0, l, c);
      return;
    default:
      std::fill_n(out, n, uniformValue(sg, b, c));
  }
}

bool builtinAffine(const SubGroup& sg, Builtin b, uint32_t c, uint64_t& base, uint64_t& step) {
  step = 0;
  switch (b) {
    case Builtin::GlobalInvocationId:
    case Builtin::LocalInvocationId:
    case Builtin::GlobalLinearId: {
      if (c >= 3 && b != Builtin::GlobalLinearId) return base = 0, true;
      const uint64_t local[3] = {sg.firstLocalId[0], sg.firstLocalId[1], sg.firstLocalId[2]};
      if (local[0] + sg.liveLanes > sg.wg->localSize[0]) return false;  // lanes span rows
      if (b == Builtin::GlobalLinearId) {
        const LaunchContext& ln = *sg.wg->launch;
        const auto& G = ln.globalSize;
        uint64_t g[3];
        for (uint32_t d = 0; d < 3; ++d) g[d] = sg.wg->groupId[d] * ln.enqueuedLocal[d] + local[d];
        base = g[2] * G[1] * G[0] + g[1] * G[0] + g[0];
        step = 1;
        return true;
      }
      base = (b == Builtin::GlobalInvocationId ? groupBase(sg, c) : 0) + local[c];
      step = c == 0;
      return true;
    }
    case Builtin::LocalInvocationIndex:
      base = sg.firstLocalLinear, step = 1;
      return true;
    case Builtin::SubgroupLocalInvocationId:
      base = 0, step = 1;
      return true;
    case Builtin::SubgroupEqMask:
    case Builtin::SubgroupGeMask:
    case Builtin::SubgroupGtMask:
    case Builtin::SubgroupLeMask:
    case Builtin::SubgroupLtMask:
      return false;
    default:
      base = uniformValue(sg, b, c);
      return true;
  }
}

bool builtinAffine(const SubGroup& sg, Builtin b, uint32_t c, uint32_t n, uint64_t* base,
                   uint64_t* step) {
  if (b != Builtin::GlobalInvocationId && b != Builtin::LocalInvocationId) {
    for (uint32_t k = 0; k < n; ++k)
      if (!builtinAffine(sg, b, c + k, base[k], step[k])) return false;
    return true;
  }
  const uint64_t local[3] = {sg.firstLocalId[0], sg.firstLocalId[1], sg.firstLocalId[2]};
  if (local[0] + sg.liveLanes > sg.wg->localSize[0]) return false;  // lanes span rows
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t d = c + k;
    step[k] = d == 0;
    base[k] = d >= 3 ? 0 : (b == Builtin::GlobalInvocationId ? groupBase(sg, d) : 0) + local[d];
  }
  return true;
}

void writeBuiltins(SubGroup& sg, const LoweredKernel& kernel, bool all) {
  const MemoryMap& mem = *sg.wg->launch->memory;
  uint64_t column[kMaxSubGroupSize];
  for (const BuiltinSlot& slot : kernel.builtins) {
    if (!slot.inMemory && !all) continue;
    const Region& r = mem.priv[slot.region];
    for (uint32_t c = 0; c < slot.components; ++c) {
      builtinColumn(sg, slot.builtin, c, column);
      for (uint32_t l = 0; l < sg.liveLanes; ++l)
        std::memcpy(sg.priv + l * sg.privateBytes + r.arenaOffset + c * slot.elementBytes,
                    &column[l], slot.elementBytes);
    }
  }
}

}  // namespace spvsim
