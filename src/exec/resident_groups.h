// --forward-progress occupancy[:N] (LaunchOptions::ForwardProgress::Occupancy;
// src/DESIGN.md, "Forward progress between work-groups"): N work-groups resident at once,
// as a device with N compute units holds them, each keeping on making progress. OpenCL
// promises no forward progress between work-groups, so a kernel in which one work-group
// waits for another (a spin on a flag, a grid-wide barrier of persistent threads) is a
// `deadlock` by default; this mode runs it the way such kernels assume devices do.
//
// One host thread runs the resident work-groups round-robin, a slice of instructions
// each (deterministic: the same run at any --threads). A work-group whose sub-groups all
// wait (WorkGroupRun's deadlock rule: each finished, at a barrier, or in a cycle while
// the work-group writes nothing) is passed over until another resident work-group
// writes memory, which may be what it waits for. When one ends, the next work-group in
// linear order is admitted. `deadlock` is reported when every resident work-group
// waits: none can write any more, and the work-groups not admitted yet cannot start.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/launch.h"
#include "src/exec/workgroup.h"

namespace spvsim {

// What the launch does with each work-group: where its diagnostics and printf output
// go, and what it does when the work-group is over.
class ResidentGroupSink {
 public:
  virtual ~ResidentGroupSink() = default;
  // Sinks for work-group `linear`, valid until ended(linear).
  virtual void started(uint64_t linear, std::vector<Diagnostic>*& diagnostics,
                       std::string*& printf) = 0;
  // Work-group `linear` finished or aborted (wg.aborted), or was abandoned (a work-group
  // before it aborted the launch); its slot still holds its sub-groups.
  virtual void ended(uint64_t linear, WorkGroupSlot& slot) = 0;
  // Whether the launch is stopping: no work-group is admitted any more (another thread's
  // exception, or an abort noted).
  virtual bool stopping() const = 0;
};

// Sub-group instructions a resident work-group runs before the next one's turn (the
// launch's and the debugger's `continue`).
inline constexpr uint64_t kResidentSlice = 1u << 12;

// Why a resident work-group is in a deadlock when every resident one waits: `others`
// the other resident ones (linear ids), `notStarted` the work-groups not admitted yet. The text
// follows "deadlock: ..." as WorkGroupRun::reportDeadlock's `why`.
std::string residentDeadlockWhy(const LaunchState& state, uint64_t resident,
                                const std::vector<uint64_t>& others, uint64_t notStarted);

// The work-groups resident at once for `options` (residentGroups, or the compute units:
// --threads, else the host's cores), at least 1.
uint64_t residentGroupCount(const LaunchOptions& options);

// Runs every work-group of `state` on this thread, `resident` at a time. The first slot
// takes `arena` (the thread's), the others arenas of their own.
void runResidentGroups(const LaunchState& state, uint64_t resident, WorkerArena& arena,
                       ReductionCopies* copies, ResidentGroupSink& sink);

}  // namespace spvsim
