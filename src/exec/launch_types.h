// The launch contract between the front ends (tools/, runtime/, src/debugger/) and the
// executor: what a launch is given (NDRange, LaunchOptions, the kernel's handle) and what
// it returns (LaunchResult). A leaf: it includes nothing of the loader or of Program, so
// the executor's internal headers (launch.h, subgroup.h, device_enqueue.h,
// ndrange_check.h) depend on these types and not on the front end's API (program.h).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/device_queue.h"
#include "src/exec/diagnostics.h"
#include "src/exec/memory.h"
#include "src/exec/memory_limit.h"
#include "src/exec/svm.h"

namespace spvsim {

namespace spirv {
struct EntryPoint;
struct KernelSignature;
}  // namespace spirv

class DeviceEnqueueState;
class ObserverFactory;
class Program;

// The largest work-group (product of the local sizes) a launch accepts: local ids and
// sub-group ids are 32-bit (SubGroup::firstLocalLinear). Below that, memory decides
// (LaunchOptions::maxMemory: the registers, private and local memory of a work-group are
// counted before anything is allocated), as the command line is not a device.
inline constexpr uint64_t kMaxWorkGroupItems = (uint64_t(1) << 32) - 1;
// The device's CL_DEVICE_MAX_WORK_GROUP_SIZE, which the ICD reports and enforces, and
// the limit of kernels enqueued on the device (get_kernel_work_group_size).
inline constexpr uint64_t kDeviceMaxWorkGroupSize = 1024;
// The device's CL_DEVICE_LOCAL_MEM_SIZE (per work-group), which the ICD reports and
// enforces, and the limit of kernels enqueued on the device (CLK_OUT_OF_RESOURCES).
inline constexpr uint64_t kDeviceLocalMemSize = 64 * 1024;

struct NDRange {
  uint32_t dims = 1;
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> offset{0, 0, 0};
  std::array<uint64_t, 3> local{1, 1, 1};
  bool localGiven = false;  // otherwise spvsim picks a local size (see chooseLocalSize)
};

// Counters a front end may poll from another thread while a launch runs (a progress
// line): each work-group adds to them once, when it ends, so the executor's cost is two
// relaxed atomic adds per work-group. Launches of kernels enqueued on the device add
// their work-groups to `groupsTotal` as they start.
struct LaunchCounters {
  std::atomic<uint64_t> groupsTotal{0}, groupsDone{0}, laneInstructions{0};
};

struct LaunchOptions {
  uint32_t subGroupSize = 16;  // overridden by a SubgroupSize execution mode
  unsigned threads = 0;        // 0: all host cores
  // Sub-group instructions one work-group may execute before `instruction-budget`.
  uint64_t instructionBudget = 1ull << 30;
  // Sub-group instructions a sub-group runs before the scheduler switches to the next
  // one of its work-group (so spin-waits between sub-groups make progress).
  uint64_t quantum = 1u << 14;
  // How sub-groups of a work-group are interleaved: round-robin (deterministic), or a
  // random pick at every switch point from `scheduleSeed` (deterministic per seed).
  enum class Schedule { RoundRobin, Random };
  Schedule schedule = Schedule::RoundRobin;
  uint64_t scheduleSeed = 0;
  // Observers of the launch's execution events (src/exec/observer.h), e.g. the checkers
  // of src/check/. Work-groups run one at a time on one host thread when any asks for a
  // serial launch.
  std::vector<std::shared_ptr<const ObserverFactory>> observers;
  // Host memory the launch may allocate, in bytes: registers, private and local memory
  // of the work-groups running at once, observers' state. Fewer host threads run
  // when all of them would not fit; a launch that cannot run within the limit throws
  // Error(DiagnosticKind::OutOfMemory) before allocating.
  uint64_t maxMemory = defaultMaxMemory();
  // Bytes of maxMemory the caller's argument buffers already take (counted, not
  // allocated, by the launch): the command line's limit covers buffers and launch together.
  uint64_t argumentMemory = 0;
  // The SVM allocations the kernel may reach through raw host addresses (arguments set
  // as SVM pointers, pointers stored in SVM memory): bound as Global regions
  // (src/exec/svm.h). Each must satisfy svmAddressable(), or the launch throws.
  std::vector<SvmAllocation> svm;
  // The on-device queues kernels may enqueue to (src/exec/device_queue.h); the command
  // line's default queue unless the front end says otherwise.
  DeviceQueueOptions deviceQueues = DeviceQueueOptions::implicitDefault();
  // Write every built-in variable into each lane's private memory at sub-group start and
  // read built-ins from there (the debugger shows them as variables). Launches with
  // observers do so too, so that checkers see each built-in load as a private read.
  bool builtinStorage = false;
  // Progress counters to update (none: nothing is counted).
  LaunchCounters* counters = nullptr;
  // Fast: every fast path that applies (the default). Reference: none; every lane's
  // access resolves through the checked path, each instruction is a step of its own, no
  // register shapes, no privatised buffer, whole work-groups (src/DESIGN.md, "Tiers").
  // The results, diagnostics and instruction counts are the same; tiers_test holds the
  // fast paths to that.
  enum class Tier { Fast, Reference };
  Tier tier = Tier::Fast;
  // Which lanes execute together after a divergent branch outside uniform control flow,
  // a choice the specs leave to the implementation (src/DESIGN.md, "Reconvergence").
  // Ipdom (the default): the lanes of each side together, all of them again at the
  // branch's immediate post-dominator. Random: lanes that take the same side may be split
  // into groups that run one after another, seeded by `reconvergenceSeed`, and stay apart
  // until control flow is uniform again.
  enum class Reconvergence { Ipdom, Random };
  Reconvergence reconvergence = Reconvergence::Ipdom;
  uint64_t reconvergenceSeed = 0;
  // When other work-items see a work-item's stores (src/DESIGN.md, "Relaxed memory
  // model"). Sc (the default): at once, in the order the schedule runs them (sequential
  // consistency). Relaxed: stores to global and local memory wait in per-work-item store
  // buffers that drain at points and in orders drawn from `memoryModelSeed`, as far as
  // the OpenCL memory model allows (src/exec/memory_model.h); the launch then runs in the
  // Reference tier on one host thread.
  enum class MemoryModel { Sc, Relaxed };
  MemoryModel memoryModel = MemoryModel::Sc;
  uint64_t memoryModelSeed = 0;
  // Forward progress between work-groups, which OpenCL does not promise
  // (src/DESIGN.md, "Forward progress between work-groups"). None (the default): a
  // work-group whose sub-groups all wait is a `deadlock`. Occupancy: `residentGroups`
  // work-groups are resident at once (0: as many as the launch's host threads, the
  // device's compute units) on one host thread, round-robin, each keeping on making
  // progress, a new one admitted when one ends; a work-group that waits lets the others
  // run, and `deadlock` means no resident one can go on.
  enum class ForwardProgress { None, Occupancy };
  ForwardProgress forwardProgress = ForwardProgress::None;
  uint64_t residentGroups = 0;
};

// The global and constant regions of a launch: the kernels it enqueues see them too, at
// the same indices, since their block literals hold pointers into them.
struct InheritedMemory {
  std::vector<Region> global, constant;
};

// Where a launch's time went on each host thread, in seconds from the launch's start
// (spvsim run --stats): what a scaling question needs first, whether the threads began
// late, ran unequal shares, or waited on the launch's serial parts.
struct LaunchTimeline {
  struct Thread {
    double entered = 0;   // the job reached the thread
    double started = 0;   // its work-group slot was set up: the first unit began
    double finished = 0;  // no unit was left for it
    uint64_t units = 0;   // units it ran (work-groups, or sub-groups of split ones)
  };
  std::vector<Thread> threads;  // by job index; 0 is the launching thread
  double joined = 0;            // every thread had finished and was joined
  double end = 0;               // privatised copies folded, outputs collected
};

struct LaunchResult {
  std::vector<Diagnostic> diagnostics;  // folded and in deterministic order
  std::string printfOutput;             // in work-group order
  uint64_t subGroupSteps = 0;           // sub-group instructions executed
  uint64_t laneInstructions = 0;        // sum over steps of active lanes
  NDRange range;                        // as run (local size filled in)
  uint32_t subGroupSize = 0;            // as run
  bool aborted = false;                 // a fatal error stopped the launch
  uint64_t childLaunches = 0;           // kernels run by device-side enqueue
  // Where the work-groups' sub-groups ran apart (src/DESIGN.md, "Work-groups split into
  // sub-groups"): how many units the launch had (sub-groups and, in a smaller last
  // work-group, places for none); 0 where whole work-groups ran.
  uint64_t subGroupUnits = 0;
  // The buffers whose atomics the launch privatised (src/exec/reduction.h), as
  // "argument 1 (bins): add".
  std::vector<std::string> privatised;
  LaunchTimeline timeline;
};

// A kernel of a loaded program, what launches name (Program::kernel makes one): valid as
// long as its program.
class KernelHandle {
 public:
  KernelHandle() = default;  // none yet: assign one from Program::kernel before use
  const std::string& name() const;
  const spirv::EntryPoint& entryPoint() const { return *entry_; }
  const spirv::KernelSignature& signature() const;

 private:
  friend class Program;
  explicit KernelHandle(const spirv::EntryPoint& entry) : entry_(&entry) {}
  const spirv::EntryPoint* entry_ = nullptr;
};

}  // namespace spvsim
