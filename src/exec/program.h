// The simulator's API for front ends (tools/ and runtime/): load a module once, launch
// its kernels many times.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "spirv/loader.h"
#include "spirv/module.h"
#include "spirv/module_facts.h"
#include "src/exec/arg_binding.h"
#include "src/exec/device_queue.h"
#include "src/exec/diagnostics.h"
#include "src/exec/memory.h"
#include "src/exec/memory_limit.h"
#include "src/exec/svm.h"

namespace spvsim {

struct LoweredKernel;
class ObserverFactory;
class DeviceEnqueueState;

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

class WorkerPool;       // src/exec/worker_pool.h
class LaunchState;      // src/exec/launch.h
class ReductionCopies;  // src/exec/reduction_copies.h

class Program {
 public:
  // Validates and decodes; throws Error(DiagnosticKind::InvalidModule /
  // DiagnosticKind::Unsupported), or Error(DiagnosticKind::OutOfMemory) when the program-scope
  // variables (allocated here, for the program's lifetime) take more than `maxMemory` bytes.
  static std::shared_ptr<Program> load(std::vector<uint32_t> words,
                                       const spirv::LoadOptions& options = {},
                                       uint64_t maxMemory = defaultMaxMemory());
  ~Program();

  const spirv::Module& module() const { return module_; }
  // Computed once at load: call trees, each kernel's variables, value types, ...
  const spirv::ModuleFacts& facts() const { return *facts_; }

  // A kernel of this program, what launches name: valid as long as the program.
  class Kernel {
   public:
    Kernel() = default;  // none yet: assign one from Program::kernel before use
    const std::string& name() const { return entry_->name; }
    const spirv::EntryPoint& entryPoint() const { return *entry_; }
    const spirv::KernelSignature& signature() const { return entry_->signature; }

   private:
    friend class Program;
    explicit Kernel(const spirv::EntryPoint& entry) : entry_(&entry) {}
    const spirv::EntryPoint* entry_ = nullptr;
  };

  // Throws Error(DiagnosticKind::InvalidArgument) naming the kernels there are.
  Kernel kernel(const std::string& name) const;

  // Throws ArgumentError (src/exec/arg_check.h) for arguments that do not fit the
  // kernel's signature, Error(DiagnosticKind::InvalidArgument) for a bad NDRange; kernel errors
  // come back as diagnostics.
  LaunchResult launch(const Kernel& kernel, const NDRange& range,
                      const std::vector<ArgBinding>& args, const LaunchOptions& options = {});
  // One launch without running what its kernels enqueue (src/exec/device_enqueue.h):
  // `enqueue` records the commands; `inherited` (a child's) gives the global and constant
  // regions in place of the program's variables; `memoryOut` receives the launch's.
  LaunchResult launchOnly(const Kernel& kernel, const NDRange& range,
                          const std::vector<ArgBinding>& args, const LaunchOptions& options,
                          DeviceEnqueueState& enqueue, const InheritedMemory* inherited,
                          InheritedMemory* memoryOut);
  // The same by kernel name (tests).
  LaunchResult launch(const std::string& kernel, const NDRange& range,
                      const std::vector<ArgBinding>& args, const LaunchOptions& options = {}) {
    return launch(this->kernel(kernel), range, args, options);
  }

  // The sub-group size a launch would use: the SubgroupSize execution mode or the
  // requested size; throws Error(DiagnosticKind::InvalidArgument) outside 1..128.
  uint32_t subGroupSizeFor(const Kernel& kernel, uint32_t requested) const;

  // Starts the host threads a launch of `range` on `threads` threads (0: all cores) will
  // run on, so that its launch time does not include starting them (they are kept in any
  // case). No more than the range has work-items (a launch never uses more threads than
  // units of work, and a unit holds at least one work-item), nor than fit, each with the
  // memory it touches (WorkerArena::kReservedBytes), in `maxMemory` beside
  // `argumentBytes`: `--threads 4096` on a 64-item kernel once touched 4 GiB past a
  // 50 MiB limit. Threads it does not start, the launch starts if it needs them.
  void reserveThreads(unsigned threads, const NDRange& range, uint64_t maxMemory,
                      uint64_t argumentBytes);

  // The lowered form of a kernel for a sub-group size (cached; thread-safe).
  const LoweredKernel& lowered(const Kernel& kernel, uint32_t subGroupSize);

  // Storage of program-scope variables (global: mutable, persists across launches).
  struct ProgramVariable {
    spirv::Id id;
    std::vector<uint8_t> storage;
  };
  std::vector<ProgramVariable>& globalVariables() { return globals_; }
  const std::vector<ProgramVariable>& constantVariables() const { return constants_; }

 private:
  Program(spirv::Module module, uint64_t maxMemory);
  static bool isProgramVariable(const spirv::Variable& v);
  void checkVariableMemory(uint64_t maxMemory) const;
  std::vector<uint8_t> initialValue(const spirv::Variable& v) const;
  void foldPrivatised(const LaunchState& state,
                      const std::vector<std::unique_ptr<ReductionCopies>>& copies);
  spirv::Module module_;
  std::unique_ptr<const spirv::ModuleFacts> facts_;  // of module_, which never moves
  std::vector<ProgramVariable> globals_, constants_;
  std::mutex mutex_;
  std::map<std::pair<std::string, uint32_t>, std::unique_ptr<LoweredKernel>> lowered_;
  // Host threads of launches, kept for the next launch (src/exec/worker_pool.h). Last, so
  // that it is destroyed first: its threads never outlive what they run.
  std::unique_ptr<WorkerPool> pool_;
};

// The local size spvsim picks when none is given: the kernel's LocalSize mode if it has
// one, else the largest divisor of each global dimension whose product stays <= 256.
std::array<uint64_t, 3> chooseLocalSize(const spirv::EntryPoint& ep, const NDRange& range);

}  // namespace spvsim
