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
// control flow is uniform again. Groups start in a random order, and they interleave:
// every few instructions (a seeded distance of 1 to 64 sub-group instructions) the
// running group hands over to a random one of its siblings (itself included), so
// accesses to memory by lanes of different groups, the two sides of an `if` included,
// meet in every order across seeds rather than one side's all before the other's.
//
// Switching is safe at any instruction: within one function frame every group of a
// divergence waits for the same reconvergence pc (above: nested divergences reuse the
// enclosing one's), so the frame's entries above its base are all siblings, and swapping
// the running one (the top) with another changes nothing but who runs next. A group
// inside a call holds the entries above its frame, so no switch happens until it returns.
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

// Sub-group instructions to the next switch between groups: 1..2^k for a uniform
// k in 0..6, so single-instruction interleavings are as likely as long stretches.
uint64_t interleaveDistance(uint64_t& rng) {
  const uint64_t span = uint64_t(1) << (mix(rng++) % 7);
  return 1 + mix(rng++) % span;
}

}  // namespace

void SubGroup::startReconvergence(const LaunchContext& launch, uint64_t groupLinearId) {
  randomReconvergence = launch.randomReconvergence;
  reconvergenceRng = mix(launch.reconvergenceSeed ^ mix(groupLinearId * 4096 + id));
  interleaveAt = kNeverInterleave;
  interleaveArmed = false;
}

void SubGroup::interleaveGroups() {
  const size_t first = frames.back().simtBase + 1;  // the frame's groups: [first, top]
  const size_t top = simt.size() - 1;
  if (state != SubGroupState::Running || top <= first) {
    // No sibling in this frame. A caller's frame may hold some (this group runs a
    // call): look again later; at the kernel's frame the next divergence re-arms.
    interleaveAt =
        frames.size() > 1 ? steps + interleaveDistance(reconvergenceRng) : kNeverInterleave;
    return;
  }
  const size_t j = first + size_t(mix(reconvergenceRng++) % (top - first + 1));
  if (j != top) {
    simt[top].pc = pc;  // where the running group resumes
    std::swap(simt[top], simt[j]);
    pc = simt[top].pc;
    setMask(simt[top].mask);
  }
  interleaveAt = steps + interleaveDistance(reconvergenceRng);
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
  // Siblings to switch between: arm the next switch, and stop the instruction loop
  // (WorkGroupRun), whose end was fixed before this switch point existed.
  if (simt.size() - 1 > frames.back().simtBase + 1) {
    interleaveAt = steps + interleaveDistance(reconvergenceRng);
    interleaveArmed = !yieldRequested;
    yieldRequested = true;
  }
}

}  // namespace spvsim
