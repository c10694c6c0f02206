// Random reconvergence (LaunchOptions::Reconvergence::Random; src/DESIGN.md,
// "Reconvergence"). SPIR-V 1.6, 2.2.5 ("Control Flow"): invocations that take the same
// path through non-uniform control flow need not execute its instructions together;
// which do (a "tangle") is the implementation's choice until control flow is uniform
// again, and only SPV_KHR_maximal_reconvergence (MaximallyReconvergesKHR) pins it, which
// OpenCL's environment does not declare. spvsim's default, reconverging each side at the
// branch's immediate post-dominator, is the most generous choice; a kernel that counts on
// it (a ballot or a shuffle inside a divergent branch that expects every lane of its side)
// works here and breaks on hardware that splits the side. This mode splits it.
//
// At each divergent branch (both sides taken: so never in uniform control flow, where
// every lane goes one way), the lanes of each side may be split at random into groups
// that execute one after another, each as its own SIMT entry, so non-uniform sub-group
// operations see only their group. Nested in non-uniform control flow (the current entry
// waits to reconverge somewhere), the groups and the sides reconverge where that entry
// does: the post-dominator of the branch that left uniform control flow. At function level
// (the entry has no reconvergence point), at the branch's own post-dominator, where
// control flow is uniform again. Groups run in a random order.
#include <algorithm>
#include <array>

#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// At most this many groups out of one side (then as many as it has lanes, if fewer).
constexpr uint32_t kMaxGroupsPerSide = 4;

}  // namespace

void SubGroup::startReconvergence(const LaunchContext& launch, uint64_t groupLinearId) {
  randomReconvergence = launch.randomReconvergence;
  reconvergenceRng = mix(launch.reconvergenceSeed ^ mix(groupLinearId * 4096 + id));
}

void SubGroup::divergeRandomly(const uint32_t* targets, const LaneMask* masks, uint32_t count,
                               uint32_t reconvergePc) {
  auto next = [&] { return mix(reconvergenceRng++); };
  const uint32_t rpc = simt.back().rpc != kNoPc ? simt.back().rpc : reconvergePc;
  // The groups partition the active lanes: at most one per lane.
  std::array<uint32_t, kMaxSubGroupSize> groupTargets;
  std::array<LaneMask, kMaxSubGroupSize> groupMasks;
  uint32_t groups = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t lanes = masks[k].count();
    if (lanes < 2 || next() % 2 == 0) {  // the side as one group
      groupTargets[groups] = targets[k];
      groupMasks[groups++] = masks[k];
      continue;
    }
    const uint32_t parts = 2 + uint32_t(next() % (std::min(lanes, kMaxGroupsPerSide) - 1));
    std::array<LaneMask, kMaxGroupsPerSide> split{};
    masks[k].forEach([&](uint32_t l) { split[next() % parts].set(l); });
    for (uint32_t p = 0; p < parts; ++p)
      if (split[p].any()) {
        groupTargets[groups] = targets[k];
        groupMasks[groups++] = split[p];
      }
  }
  for (uint32_t g = groups; g > 1; --g) {  // Fisher-Yates: the order the groups run in
    const uint32_t j = uint32_t(next() % g);
    std::swap(groupTargets[g - 1], groupTargets[j]);
    std::swap(groupMasks[g - 1], groupMasks[j]);
  }
  pushDivergence(groupTargets.data(), groupMasks.data(), groups, rpc);
}

}  // namespace spvsim
