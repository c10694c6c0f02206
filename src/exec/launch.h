// One launch taken apart: the state its work-groups share (LaunchState) and the storage
// one host thread runs work-groups in, one at a time (WorkGroupSlot). Program::launch
// runs slots on a thread pool; the debugger (src/debugger) steps one slot by hand, each
// through the same scheduler (WorkGroupRun, src/exec/workgroup.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "src/exec/address32.h"
#include "src/exec/image_table.h"
#include "src/exec/launch_types.h"
#include "src/exec/reduction_copies.h"
#include "src/exec/subgroup.h"
#include "src/exec/worker_arena.h"

namespace spvsim {

// Each lane's private arena for kernel `k`: its private regions, 16-byte aligned.
inline uint64_t privateArenaBytes(const LoweredKernel& k) {
  return (k.privateBytes + 15) / 16 * 16;
}

// The bytes of one work-group slot (WorkGroupSlot::carveStorage and its sub-groups) for
// kernel `k` with `maxSubGroups` sub-groups, private and local arenas of the given
// bytes, each `copies` times (1 + the arena mirrors), and a shadow register file beside
// the registers where `shadowRegisters`; observers' per-slot state not included.
uint64_t slotBytesFor(const LoweredKernel& k, uint64_t maxSubGroups, uint64_t privateArenaBytes,
                      uint64_t localArenaBytes, uint64_t copies, bool shadowRegisters);

// Arguments bound to a launch: one register value per parameter.
struct BoundArgs {
  std::vector<std::vector<uint8_t>> paramValues;  // per parameter: one lane's bytes
  std::vector<std::vector<uint8_t>> byValBytes;   // per parameter (ByVal only)
  std::vector<LaunchImage> images;                // image arguments (src/exec/image_table.h)
  std::vector<PipeStorage*> pipes;  // pipe parameters' pipes; handle k + 1 names pipes[k]
};

class LaunchState {
 public:
  // Validates the range and arguments (throws Error(DiagnosticKind::InvalidArgument)), lowers the
  // kernel and lays out memory. `args` buffers must outlive the LaunchState. Throws
  // Error(DiagnosticKind::OutOfMemory) when the observers' state alone exceeds
  // options.maxMemory.
  // `enqueue` records what the kernels enqueue (none: device-side enqueue fails);
  // `inherited` gives a child launch its parent's regions (src/exec/device_enqueue.h).
  LaunchState(Program& program, const KernelHandle& kernel, const NDRange& range,
              const std::vector<ArgBinding>& args, const LaunchOptions& options,
              DeviceEnqueueState* enqueue = nullptr, const InheritedMemory* inherited = nullptr);
  LaunchState(const LaunchState&) = delete;
  LaunchState& operator=(const LaunchState&) = delete;

  const LaunchContext& context() const { return ctx_; }
  const LoweredKernel& kernel() const { return *ctx_.kernel; }
  const MemoryMap& memory() const { return mem_; }
  const BoundArgs& args() const { return bound_; }
  const NDRange& range() const { return range_; }
  uint32_t subGroupSize() const { return ctx_.kernel->width; }
  uint64_t groupCount() const { return groups_; }
  // What host threads take: whole work-groups (1 unit each), or each sub-group apart
  // (maxSubGroups units each) where nothing ties them together and the work-groups are
  // too few to share out (src/DESIGN.md, "Work-groups split into sub-groups").
  // Unit u is sub-group u % unitsPerGroup() of work-group u / unitsPerGroup().
  uint64_t unitsPerGroup() const { return unitsPerGroup_; }
  uint64_t unitCount() const { return groups_ * unitsPerGroup_; }
  size_t maxSubGroups() const { return maxSubGroups_; }
  // Whether an observer (or the relaxed memory model) asked for work-groups one at a
  // time on one host thread.
  bool serial() const { return serial_; }
  // The launch's store buffers under LaunchOptions::MemoryModel::Relaxed, else null.
  RelaxedMemory* relaxedMemory() const { return relaxed_.get(); }
  // Under --forward-progress occupancy the work-groups resident at once (run on one host
  // thread, src/exec/resident_groups.h); 0: none, work-groups run to their end one by one.
  uint64_t residentGroups() const { return residentGroups_; }
  const std::vector<std::shared_ptr<const ObserverFactory>>& observers() const {
    return observers_;
  }
  // The buffers this launch privatises (src/exec/reduction_copies.h).
  const std::vector<PrivatisedRegion>& privatised() const { return privatised_; }
  // Work-group id of linear work-group `linear` (x fastest).
  std::array<uint64_t, 3> groupId(uint64_t linear) const;

  // Host memory of one WorkGroupSlot (registers, private and local arenas), and how many
  // slots fit in LaunchOptions::maxMemory beside the launch's fixed state (0: none).
  uint64_t slotBytes() const { return slotBytes_; }
  uint64_t slotsThatFit() const;
  // Each WorkGroupSlot charges its bytes to the launch while it lives; throws
  // Error(DiagnosticKind::OutOfMemory) when the slot would exceed the limit.
  void reserveSlot() const;
  void releaseSlot() const { reserved_ -= slotBytes_; }

 private:
  void checkRegionCounts() const;
  // A Physical32 module: its size_t bounds the range, and its pointers get 32-bit
  // addresses (src/exec/address32.h).
  void setUp32BitAddresses(const spirv::EntryPoint& ep);
  uint64_t computeSlotBytes() const;
  void chargePrivatisedCopies();
  bool splitsGroups(const LaunchOptions& options) const;
  std::string describeSlot() const;
  std::string besideArguments() const;  // " beside the N of argument buffers", or ""

  NDRange range_;
  MemoryMap mem_;
  Address32Map addresses32_;  // Physical32 modules only (mem_.addresses32)
  BoundArgs bound_;
  LaunchContext ctx_;
  uint64_t groups_ = 0;
  size_t maxSubGroups_ = 0;
  uint64_t unitsPerGroup_ = 1;
  uint64_t residentGroups_ = 0;
  std::vector<std::shared_ptr<const ObserverFactory>> observers_;
  std::shared_ptr<const LoweredKernel> instrumented_;  // ObserverFactory::instrument
  // ObserverFactory::launchState (ctx_.launchStates): what each factory's slots share.
  std::vector<std::unique_ptr<ObserverLaunchState>> observerStates_;
  std::unique_ptr<RelaxedMemory> relaxed_;  // ctx_.relaxed
  bool serial_ = false;
  uint64_t maxMemory_ = 0;
  uint64_t argumentBytes_ = 0;  // LaunchOptions::argumentMemory
  uint64_t fixedBytes_ = 0;     // argumentBytes_ and the observers' state
  uint64_t slotBytes_ = 0;
  mutable std::atomic<uint64_t> reserved_{0};  // fixedBytes_ + live slots
  std::vector<PrivatisedRegion> privatised_;
};

// A host thread's registers, private and local arenas and sub-groups, reused for each
// work-group it runs, and its observers (one per factory). With mirrored arenas
// (ObserverFactory::mirrorsArenas), each lane's private arena and the local arena are
// twice their data size: the second half is the observers'.
class WorkGroupSlot {
 public:
  // Throws Error(DiagnosticKind::OutOfMemory) when the slot does not fit the launch's
  // memory limit. The storage comes from `arena` (a host thread's, kept across launches;
  // it must outlive the slot and not be used by another slot meanwhile), or from an
  // arena of the slot's own when null.
  explicit WorkGroupSlot(const LaunchState& launch, WorkerArena* arena = nullptr);
  ~WorkGroupSlot();
  WorkGroupSlot(const WorkGroupSlot&) = delete;
  WorkGroupSlot& operator=(const WorkGroupSlot&) = delete;

  // Sets up work-group `linear`: cleared local memory, every sub-group at the kernel's
  // entry (or only sub-group `only`; none where the group has no such sub-group).
  // Diagnostics and printf output go to the given sinks.
  static constexpr uint64_t kEverySubGroup = ~uint64_t(0);
  void start(uint64_t linear, std::vector<Diagnostic>* diagnostics, std::string* printf,
             uint64_t only = kEverySubGroup);
  // After the work-group ran (or was abandoned): observers report what they held back.
  void finish();

  // Work-groups started from now on apply privatised atomics to `copies` (null: to the
  // buffers). Only a launch's host threads do; the debugger's slots never.
  void useReductionCopies(ReductionCopies* copies) { reductions_ = copies; }
  // Work-groups started from now on run fused handlers as pairs (WorkGroupContext::fuse).
  void allowFusion(bool on) { fuse_ = on; }

  WorkGroupContext& workGroup() { return wg_; }
  std::vector<SubGroup>& subGroups() { return sgs_; }
  size_t count() const { return count_; }

 private:
  uint8_t* regsFor(size_t i);
  void startSubGroup(SubGroup& sg);
  void setClearedBytes();

  // Charges the slot's memory first and returns it last (declared before the storage).
  struct Reservation {
    explicit Reservation(const LaunchState& launch) : launch(launch) { launch.reserveSlot(); }
    ~Reservation() { launch.releaseSlot(); }
    const LaunchState& launch;
  };

  const LaunchState& launch_;
  Reservation reservation_;
  void carveStorage(WorkerArena& arena);

  std::unique_ptr<WorkerArena> ownArena_;  // without a host thread's arena
  // Parts of one zeroed block of the arena: registers of every sub-group, their shadows
  // (ObserverFactory::shadowsRegisters; null without), lanes' private arenas, local arena.
  uint8_t *regStorage_ = nullptr, *shadowStorage_ = nullptr, *privStorage_ = nullptr;
  std::vector<uint8_t> shapeStorage_;  // each sub-group's register shapes
  uint8_t* local_ = nullptr;
  size_t localBytes_ = 0;
  uint64_t privStride_ = 0;  // bytes per lane of privStorage_
  // The bytes [clearFrom_, clearTo_) of each lane's arena are zeroed at sub-group start.
  uint64_t clearFrom_ = 0, clearTo_ = 0;
  // Whether any built-in is read through private memory (writeBuiltins has work).
  bool builtinsInMemory_ = false;
  // What each live lane's arena starts with: (arena offset, bytes) of the module's
  // initialised Private variables and the ByVal arguments' copies.
  std::vector<std::pair<uint64_t, const std::vector<uint8_t>*>> laneInits_;
  std::vector<SubGroup> sgs_;
  size_t count_ = 0;
  std::vector<std::unique_ptr<ExecutionObserver>> observers_;
  std::vector<ExecutionObserver*> observerList_;  // what WorkGroupContext::observers names
  uint32_t spaces_ = 0;                           // the union of the factories' spaces()
  ReductionCopies* reductions_ = nullptr;
  bool fuse_ = false;
  WorkGroupContext wg_;
};

}  // namespace spvsim
