// The launch profiler (`spvsim run --profile`, src/DESIGN.md "Profiles"): what each
// SPIR-V instruction of a launch executed, how full its sub-groups were, where their
// active masks split, which host thread ran each work-group and when each sub-group ran,
// waited at a barrier or was done, the memory traffic per buffer and address space, how
// well each global access coalesced into 64-byte lines and how many wavefronts each local
// access took for a number of banks.
//
// Collected only when asked for: ProfilerFactory::instrument copies the lowered kernel
// with every instruction's handler replaced by a counting trampoline (the kernel as
// lowered runs untouched otherwise), and its observer counts memory accesses. Profiled
// launches run on as many host threads as any other: each WorkGroupSlot's observer keeps
// counters of its own, without locks, and adds them into the launch's LaunchProfile under
// a lock when its slot ends. Time is counted per host thread in sub-group steps (the
// thread's own instructions so far), so one thread (--threads 1) gives the deterministic
// profile of a serial run.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
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

// [start, end) in simulated time: the sub-group steps its host thread had executed.
struct TimelineSegment {
  SubGroupPhase phase = SubGroupPhase::Running;
  uint64_t start = 0, end = 0;
};

struct SubGroupTimeline {
  std::array<uint64_t, 3> group{0, 0, 0};
  uint64_t linearGroup = 0;  // the work-group's linear id (x fastest)
  uint32_t subGroup = 0;
  uint32_t lanes = 0;   // lanes that exist
  uint32_t thread = 0;  // the HostThreadTimeline (LaunchProfile::threads index) that ran it
  std::vector<TimelineSegment> segments;
};

// A work-group a host thread ran: [start, end) in that thread's steps.
struct WorkGroupSpan {
  std::array<uint64_t, 3> group{0, 0, 0};
  uint64_t linearGroup = 0;
  uint32_t subGroups = 0;
  uint64_t start = 0, end = 0;
};

// One WorkGroupSlot: the host thread that ran it and the work-groups it ran, in the
// order it ran them. A thread has one slot, except under --forward-progress occupancy,
// where one thread takes turns between a slot per resident work-group (`slot` numbers
// them; their work-groups interleave on the thread's clock).
struct HostThreadTimeline {
  uint32_t thread = 0;  // the host thread, numbered in the order threads began the launch
  uint32_t slot = 0;    // the slot among that thread's slots
  uint64_t steps = 0;   // the thread's sub-group steps at the slot's end
  std::vector<WorkGroupSpan> groups;
};

// Global memory, per access instruction (a pc), over its sub-group executions that
// touched global memory: the bytes the lanes asked for and the 64-byte lines (aligned
// blocks of a memory object, counted from its start) they touched, each execution's
// distinct lines. Efficiency = requestedBytes / (lines x 64).
inline constexpr uint64_t kLineBytes = 64;
struct CoalescingCounts {
  uint64_t executions = 0;
  uint64_t accesses = 0;  // lane accesses (a copy's source and target are two)
  uint64_t requestedBytes = 0;
  uint64_t lines = 0;
};

// Local memory, per access instruction, over its sub-group executions that touched local
// memory: each execution's conflict degree, the most distinct 4-byte words in any one
// bank (word w is in bank w mod banks; lanes on the same word share it: a broadcast), the
// wavefronts the access takes.
inline constexpr uint64_t kBankWordBytes = 4;
struct BankCounts {
  uint64_t executions = 0;
  uint64_t accesses = 0;
  uint64_t wavefronts = 0;  // sum of the executions' degrees
  uint64_t maxDegree = 0;
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

  uint32_t banks = 32;  // local memory banks of 4-byte words (--profile-banks)

  std::vector<PcCounts> counts;               // by pc of the instrumented kernel
  std::vector<CoalescingCounts> coalescing;   // by pc
  std::vector<BankCounts> bankConflicts;      // by pc
  std::vector<uint32_t> pcSource;             // by pc: index into `instructions`
  std::vector<InstructionInfo> instructions;  // the SPIR-V instructions of the lowered code

  uint64_t clock = 0;  // the most sub-group steps any host thread executed (the time axis)
  std::vector<HostThreadTimeline> threads;  // one per slot, in the order slots ended
  std::vector<SubGroupTimeline> timeline;   // in the order slots ended, then ran them
  size_t timelineSegments = 0;
  bool timelineTruncated = false;

  std::vector<BufferTraffic> buffers;  // in order of first access
  std::array<Traffic, 5> spaces{};     // by Space (Global 1 .. Private 4; 0 unused)
};

struct LaunchRecorder;

// Instruments each launch and records one LaunchProfile per launch (kernels run by
// device-side enqueue get their own, after their parent's).
class ProfilerFactory final : public ObserverFactory {
 public:
  // `banks`: local memory banks of 4-byte words, for the conflict degrees (1..1024).
  explicit ProfilerFactory(uint32_t banks = 32);
  ~ProfilerFactory() override;
  std::shared_ptr<const LoweredKernel> instrument(const LaunchContext& launch) const override;
  uint64_t stateBytes(const LaunchContext& launch) const override;
  uint64_t slotStateBytes(const LaunchContext& launch) const override;
  std::string stateName() const override { return "the profiler's counters"; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext& launch) const override;

  // The launches' profiles; complete once their launches returned.
  std::vector<std::shared_ptr<LaunchProfile>> launches() const;

 private:
  uint32_t banks_;
  // One recorder per launch, matched to its slots by the LaunchContext; launches (a
  // parent and its enqueued children, two ICD queues) may instrument and create at once.
  mutable std::mutex mutex_;
  mutable std::vector<std::shared_ptr<LaunchRecorder>> recorders_;
};

// Totals over a launch's instructions: they equal LaunchResult::subGroupSteps and
// laneInstructions of the same launch.
uint64_t totalExecutions(const LaunchProfile& p);
uint64_t totalLaneExecutions(const LaunchProfile& p);

// The conflict degree of one sub-group access to local memory: the most distinct 4-byte
// words (`words`: word indices, any order, repeats allowed) that fall in one of `banks`
// banks. 0 for no words.
uint64_t conflictDegree(std::vector<uint64_t>& words, uint32_t banks);

}  // namespace spvsim::profile
