// The launch profiler (`spvsim run --profile`, src/DESIGN.md "Profiles"): what each
// SPIR-V instruction of a launch executed, how full its sub-groups were, where their
// active masks split, when each sub-group ran, waited at a barrier or was done, and the
// memory traffic per buffer and address space.
//
// Collected only when asked for: ProfilerFactory::instrument copies the lowered kernel
// with every instruction's handler replaced by a counting trampoline (the kernel as
// lowered runs untouched otherwise), and its observer counts memory accesses. Profiled
// launches are serial (one host thread, work-groups in order), so the counts and the
// timeline are deterministic and the state needs no locks.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/observer.h"

namespace spvsim::profile {

// What one lowered instruction (a pc) did. A SPIR-V instruction lowers to one or more.
struct PcCounts {
  uint64_t executions = 0;      // sub-group steps
  uint64_t laneExecutions = 0;  // sum over those steps of the active lanes
  uint64_t splits = 0;          // branches and switches: steps where the active mask split
};

// What we know of one SPIR-V instruction, by its spirv::Instruction::index.
struct InstructionInfo {
  uint32_t index = 0;
  uint32_t result = 0;   // its result id, 0 for none
  std::string opcode;    // "OpIAdd"
  std::string text;      // disassembly with friendly names, as `spvsim dis` prints it
  std::string line;      // "file:line", or "" without line info
  std::string function;  // the SPIR-V function's OpName, or its %id
  bool branch = false;   // OpBranchConditional or OpSwitch: may split the mask
};

enum class SubGroupPhase : uint8_t { Running, AtBarrier, Done };

// [start, end) in simulated time: the launch's sub-group steps so far.
struct TimelineSegment {
  SubGroupPhase phase = SubGroupPhase::Running;
  uint64_t start = 0, end = 0;
};

struct SubGroupTimeline {
  std::array<uint64_t, 3> group{0, 0, 0};
  uint32_t subGroup = 0;
  uint32_t lanes = 0;  // lanes that exist
  std::vector<TimelineSegment> segments;
};

// Lane accesses: a copy counts as a read of its source and a write of its target, a
// read-modify-write atomic as both.
struct Traffic {
  uint64_t readBytes = 0, writtenBytes = 0, reads = 0, writes = 0;
};

// A Global, Constant or Local memory object of the launch (a buffer argument, a local
// argument, a program-scope or local variable).
struct BufferTraffic {
  Space space = Space::Global;
  uint32_t region = 0;
  std::string name;  // the region's name: "arg1", "program variable tmp", ...
  Traffic traffic;
};

// The timeline keeps at most this many segments in all (a long run switches sub-groups
// millions of times); later ones are dropped and `timelineTruncated` says so.
inline constexpr size_t kMaxTimelineSegments = 200000;

struct LaunchProfile {
  std::string kernel;
  uint32_t dims = 1;
  std::array<uint64_t, 3> globalSize{1, 1, 1}, globalOffset{0, 0, 0}, localSize{1, 1, 1},
      numGroups{1, 1, 1};
  uint32_t subGroupSize = 0;

  std::vector<PcCounts> counts;               // by pc of the instrumented kernel
  std::vector<uint32_t> pcSource;             // by pc: index into `instructions`
  std::vector<InstructionInfo> instructions;  // the SPIR-V instructions of the lowered code

  uint64_t clock = 0;  // sub-group steps so far
  std::vector<SubGroupTimeline> timeline;
  size_t timelineSegments = 0;
  bool timelineTruncated = false;
  size_t groupBase = 0;  // timeline index of the running work-group's sub-group 0

  std::vector<BufferTraffic> buffers;  // in order of first access
  std::array<Traffic, 5> spaces{};     // by Space (Global 1 .. Private 4; 0 unused)
};

// Asks for a serial launch, instruments it, and records one LaunchProfile per launch
// (kernels run by device-side enqueue get their own, after their parent's).
class ProfilerFactory final : public ObserverFactory {
 public:
  bool serial() const override { return true; }
  std::shared_ptr<const LoweredKernel> instrument(const LaunchContext& launch) const override;
  uint64_t stateBytes(const LaunchContext& launch) const override;
  std::string stateName() const override { return "the profiler's counters"; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext& launch) const override;

  const std::vector<std::shared_ptr<LaunchProfile>>& launches() const { return launches_; }

 private:
  // The factory's state is the launches' results, filled while they run (serially).
  mutable std::vector<std::shared_ptr<LaunchProfile>> launches_;
  mutable std::vector<const LaunchContext*> contexts_;
};

// Totals over a launch's instructions: they equal LaunchResult::subGroupSteps and
// laneInstructions of the same launch.
uint64_t totalExecutions(const LaunchProfile& p);
uint64_t totalLaneExecutions(const LaunchProfile& p);

}  // namespace spvsim::profile
