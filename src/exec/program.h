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
#include "src/exec/launch_types.h"
#include "src/exec/memory.h"
#include "src/exec/memory_limit.h"
#include "src/exec/ndrange_check.h"
#include "src/exec/svm.h"
#include "src/exec/worker_arena.h"

namespace spvsim {

struct LoweredKernel;
class DeviceEnqueueState;

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

  // A kernel of this program, what launches name (src/exec/launch_types.h).
  using Kernel = KernelHandle;

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
  // memory it touches, in `maxMemory` beside `argumentBytes`: `--threads 4096` on a
  // 64-item kernel once touched 4 GiB past a 50 MiB limit. Each thread touches what the
  // launch's work-group slot takes (`slotBytes`, e.g. slotBytesEstimate), at most
  // WorkerArena::kReservedBytes: touching more than the launch uses costs a process time
  // for nothing. Threads it does not start, the launch starts if it needs them.
  void reserveThreads(unsigned threads, const NDRange& range, uint64_t maxMemory,
                      uint64_t argumentBytes, uint64_t slotBytes = WorkerArena::kReservedBytes);
  // The bytes a launch of `kernel` over `range` at sub-group size `width` takes for one
  // work-group slot without observers (slotBytesFor), with `localArgumentBytes` of local
  // memory arguments; lowers the kernel (cached).
  uint64_t slotBytesEstimate(const Kernel& kernel, uint32_t width, const NDRange& range,
                             uint64_t localArgumentBytes);

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

}  // namespace spvsim
