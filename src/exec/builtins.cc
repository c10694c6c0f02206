#include "src/exec/builtins.h"

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

// The value of component `c` of built-in `b` for lane `l` of sub-group `sg`.
uint64_t builtinValue(const SubGroup& sg, Builtin b, uint32_t l, uint32_t c) {
  const WorkGroupContext& wg = *sg.wg;
  const LaunchContext& ln = *wg.launch;
  const auto& L = wg.localSize;
  const uint64_t linear = sg.firstLocalLinear + l;
  const uint64_t local[3] = {linear % L[0], (linear / L[0]) % L[1], linear / (L[0] * L[1])};
  const uint64_t wgSize = L[0] * L[1] * L[2];
  const uint64_t enqSize = ln.enqueuedLocal[0] * ln.enqueuedLocal[1] * ln.enqueuedLocal[2];
  auto global = [&](uint32_t d) {
    return wg.groupId[d] * ln.enqueuedLocal[d] + local[d] + ln.globalOffset[d];
  };
  // Sub-group masks: bit k of the 128-bit mask, split into four 32-bit words.
  auto maskWord = [&](auto pred) {
    uint64_t w = 0;
    for (uint32_t k = 0; k < 32; ++k)
      if (pred(c * 32 + k)) w |= 1ull << k;
    return w;
  };
  switch (b) {
    case Builtin::GlobalInvocationId:
      return c < 3 ? global(c) : 0;
    case Builtin::LocalInvocationId:
      return c < 3 ? local[c] : 0;
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
    case Builtin::GlobalLinearId:
      return (global(2) - ln.globalOffset[2]) * ln.globalSize[1] * ln.globalSize[0] +
             (global(1) - ln.globalOffset[1]) * ln.globalSize[0] + (global(0) - ln.globalOffset[0]);
    case Builtin::LocalInvocationIndex:
      return linear;
    case Builtin::WorkDim:
      return ln.dims;
    case Builtin::SubgroupSize:
      return sg.liveLanes;
    case Builtin::SubgroupMaxSize:
      return sg.width;
    case Builtin::NumSubgroups:
      return ceilDiv(wgSize, sg.width);
    case Builtin::NumEnqueuedSubgroups:
      return ceilDiv(enqSize, sg.width);
    case Builtin::SubgroupId:
      return sg.id;
    case Builtin::SubgroupLocalInvocationId:
      return l;
    case Builtin::SubgroupEqMask:
      return maskWord([&](uint32_t k) { return k == l; });
    // Ge/Gt stop at the maximum sub-group size, not the actual one (OpenCL C 3.0.9,
    // cl_khr_subgroup_ballot: "less than the maximum sub-group size").
    case Builtin::SubgroupGeMask:
      return maskWord([&](uint32_t k) { return k >= l && k < sg.width; });
    case Builtin::SubgroupGtMask:
      return maskWord([&](uint32_t k) { return k > l && k < sg.width; });
    case Builtin::SubgroupLeMask:
      return maskWord([&](uint32_t k) { return k <= l; });
    case Builtin::SubgroupLtMask:
      return maskWord([&](uint32_t k) { return k < l; });
  }
  return 0;
}

}  // namespace

void writeBuiltins(SubGroup& sg, const LoweredKernel& kernel) {
  const MemoryMap& mem = *sg.wg->launch->memory;
  for (const BuiltinSlot& slot : kernel.builtins) {
    const Region& r = mem.priv[slot.region];
    for (uint32_t l = 0; l < sg.liveLanes; ++l) {
      uint8_t* dst = sg.priv + l * sg.privateBytes + r.arenaOffset;
      for (uint32_t c = 0; c < slot.components; ++c) {
        uint64_t v = builtinValue(sg, slot.builtin, l, c);
        std::memcpy(dst + c * slot.elementBytes, &v, slot.elementBytes);
      }
    }
  }
}

}  // namespace spvsim
