#include "src/check/observers.h"

#include <algorithm>

#include "src/check/race_checker.h"
#include "src/check/shadow_kernel.h"
#include "src/check/undefined_value_checker.h"
#include "src/check/uninitialized_checker.h"
#include "src/exec/memory_limit.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {
namespace {

// Work-groups in order, on one host thread: the launch's one slot has a race checker
// that sees them all. Under --forward-progress occupancy each resident work-group's slot
// has its own, and all share the launch's part of the state (RaceChecker::launchState),
// so work-groups resident together are compared with each other.
class RaceCheckerFactory final : public ObserverFactory {
 public:
  bool serial() const override { return true; }
  bool takesResidentGroups() const override { return true; }
  std::unique_ptr<ObserverLaunchState> launchState(const LaunchContext& launch) const override {
    return RaceChecker::launchState(launch);
  }
  // Constant memory is read-only and private memory the lane's own: nothing to race on.
  uint32_t spaces(const LaunchContext&) const override {
    return spaceBit(Space::Global) | spaceBit(Space::Local);
  }
  // A buffer nothing in the launch writes: its reads race with nothing, and there is
  // nothing else (LaunchContext::readOnlyGlobal).
  bool watchesGlobalRegion(const LaunchContext& launch, uint64_t region) const override {
    return region >= launch.readOnlyGlobal.size() || !launch.readOnlyGlobal[region];
  }
  bool readsBuiltinsAsMemory() const override { return false; }
  // Relaxed device-wide read-modify-writes that nothing else in the launch touches, with
  // no fence to synchronise through: any two of them are ordered by their scope, so the
  // checker would judge nothing on them (ReductionTarget::unordered).
  bool letsReductionBypass(const LaunchContext&, const ReductionTarget& t,
                           const Region&) const override {
    return t.unordered;
  }
  uint64_t stateBytes(const LaunchContext& launch) const override {
    return RaceChecker::stateBytes(launch);
  }
  std::string stateName() const override { return "the race checker's state"; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext& launch) const override {
    return std::make_unique<RaceChecker>(launch, launch.launchStateOf(this));
  }
};

class UninitializedCheckerFactory final : public ObserverFactory {
 public:
  bool mirrorsArenas() const override { return true; }
  // Global and constant memory are the host's, initialised: no shadow.
  uint32_t spaces(const LaunchContext&) const override {
    return spaceBit(Space::Local) | spaceBit(Space::Private);
  }
  // Built-ins are always defined.
  bool readsBuiltinsAsMemory() const override { return false; }
  bool letsReductionBypass(const LaunchContext&, const ReductionTarget&,
                           const Region&) const override {
    return true;  // global memory has no shadow
  }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext& launch) const override {
    return std::make_unique<UninitializedChecker>(launch.mirrorOf(this));
  }
};

// Serial: the shadows of never-initialised buffers are the launch's (ShadowKernel), shared
// by all its work-groups. Global accesses are seen so that writes other than OpStore's
// (atomics, vstore, ...) define never-initialised buffers' bytes. Work-groups resident
// together (--forward-progress occupancy) share those shadows too, and each slot's
// private and local shadows are its own work-group's: nothing else is kept per slot.
class UndefinedValueCheckerFactory final : public ObserverFactory {
 public:
  bool serial() const override { return true; }
  bool takesResidentGroups() const override { return true; }
  bool mirrorsArenas() const override { return true; }
  bool shadowsRegisters() const override { return true; }
  // Built-in values are defined: their loads' results keep the shadow registers' zeroes
  // (rules::load leaves Input-class loads alone).
  bool readsBuiltinsAsMemory() const override { return false; }
  // An initialised buffer has no shadow to keep up to date, and a reduction's results are
  // unused (its operands' rules still run around the handler).
  bool letsReductionBypass(const LaunchContext&, const ReductionTarget&,
                           const Region& region) const override {
    return !region.uninitialized;  // (a region sharing storage is never privatised)
  }
  // Global and constant memory only where the launch binds a buffer the host never
  // initialised: other buffers have no shadow, so their plain accesses change nothing.
  uint32_t spaces(const LaunchContext& launch) const override {
    // (Both spaces where either binds one: a buffer bound in both shares its shadow.)
    uint32_t s = spaceBit(Space::Local) | spaceBit(Space::Private);
    for (const auto* regions : {&launch.memory->global, &launch.memory->constant})
      if (std::any_of(regions->begin(), regions->end(),
                      [](const Region& r) { return r.uninitialized; }))
        s |= spaceBit(Space::Global) | spaceBit(Space::Constant);
    return s;
  }
  // Only never-initialised buffers, and what shares their storage, have shadows to keep
  // up to date.
  bool watchesGlobalRegion(const LaunchContext& launch, uint64_t region) const override {
    return hasMemoryShadow(*launch.memory, Space::Global, region);
  }
  std::shared_ptr<const LoweredKernel> instrument(const LaunchContext& launch) const override {
    return instrumentKernel(launch, launch.mirrorOf(this));
  }
  // A shadow byte per byte of each buffer with a shadow (instrumentKernel): at most the
  // sum of their sizes (overlapping ones share theirs).
  uint64_t stateBytes(const LaunchContext& launch) const override {
    uint64_t bytes = 0;
    for (Space space : {Space::Global, Space::Constant}) {
      const std::vector<Region>& regions = launch.memory->regions(space);
      for (size_t r = 1; r < regions.size(); ++r)
        if (hasMemoryShadow(*launch.memory, space, r)) bytes = addBytes(bytes, regions[r].size);
    }
    return bytes;
  }
  std::string stateName() const override {
    return "the undefined-value checker's shadows of never-initialised buffers";
  }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<UndefinedValueChecker>();
  }
};

}  // namespace

std::shared_ptr<const ObserverFactory> undefinedValueCheckerFactory() {
  return std::make_shared<UndefinedValueCheckerFactory>();
}

std::shared_ptr<const ObserverFactory> raceCheckerFactory() {
  return std::make_shared<RaceCheckerFactory>();
}

std::shared_ptr<const ObserverFactory> uninitializedCheckerFactory() {
  return std::make_shared<UninitializedCheckerFactory>();
}

ObserverList observersFor(const Checks& checks) {
  ObserverList list;
  // Races first: on one access, its report comes before an uninitialised read's.
  if (checks.races) list.push_back(raceCheckerFactory());
  if (checks.uninitialized) list.push_back(uninitializedCheckerFactory());
  if (checks.undefinedValues) list.push_back(undefinedValueCheckerFactory());
  return list;
}

}  // namespace spvsim::check
