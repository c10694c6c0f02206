// Runs one work-group: its sub-groups interleaved round-robin or in a seeded random
// order, switching at barriers, at yield points (atomics) and after a quantum of
// instructions; a work-group whose sub-groups can never progress is reported as a
// `deadlock` (see workgroup.cc). One scheduler, resumable at any instruction, serves
// the launch (run to the end) and the debugger (one instruction at a time).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "src/exec/subgroup.h"

namespace spvsim {

struct SpinWatch;

class WorkGroupRun {
 public:
  // Schedules sub-groups [0, count) of `wg` (as WorkGroupSlot::start left them).
  WorkGroupRun(WorkGroupContext& wg, std::vector<SubGroup>& subGroups, size_t count);
  ~WorkGroupRun();
  WorkGroupRun(const WorkGroupRun&) = delete;
  WorkGroupRun& operator=(const WorkGroupRun&) = delete;

  // Runs until every sub-group is done or the work-group aborts (a fatal diagnostic,
  // barrier divergence, deadlock, the instruction budget).
  void run();

  // The sub-group whose turn it is. At a switch point this picks the next one, which
  // may release a work-group barrier or report barrier divergence or a deadlock;
  // nullopt once the work-group is over (every sub-group done, or aborted).
  std::optional<size_t> turn();
  bool holdsTurn(size_t i) const { return turn_ == i; }
  // One instruction of sub-group `i` (Running). In its turn the schedule goes on
  // exactly as in run(); out of turn (a debugger user's choice) it is one instruction
  // more, counted against the budget, after which the schedule resumes.
  void step(size_t i);
  // Whether the work-group is over (see turn()).
  bool over() {
    over_ |= wg_.aborted;
    return over_;
  }
  // Sub-group instructions executed, counted against the instruction budget.
  uint64_t instructions() const { return used_; }

  // For work-groups resident together (src/exec/resident_groups.h): when every
  // sub-group waits, the work-group is not deadlocked but waits for the others, which
  // may write what it waits for.
  void deferDeadlocks() { defer_ = true; }
  enum class Slice { Over, Waits, Ran };
  // Runs up to `instructions` sub-group instructions: Over when the work-group is over,
  // Waits when no sub-group can go on (after deferDeadlocks), else Ran.
  Slice runSlice(uint64_t instructions);
  // Another work-group wrote memory: what each sub-group found about its own cycle no
  // longer holds.
  void wake();
  // `deadlock`, naming each sub-group and where it waits; `why` says why nothing can
  // release them.
  void reportDeadlock(const std::string& why);

 private:
  bool nextTurn();
  bool random() const;
  uint64_t next();
  uint64_t quantumLength();
  void sync(SpinWatch& w);
  bool runnable(size_t i);
  bool anyRunning() const;
  size_t pick();
  bool turnContinues();
  void advance(uint64_t limit);
  uint64_t runFast(SubGroup& sg, SpinWatch& w, uint64_t limit);
  void startProbe(SubGroup& sg, SpinWatch& w);
  uint64_t probe(SubGroup& sg, SpinWatch& w, uint64_t n);
  void endTurn();
  void checkBudget(SubGroup& sg);
  void reportDeadlock();
  bool defer_ = false;    // deferDeadlocks()
  bool waiting_ = false;  // the last turn found every sub-group waiting (deferred)

  static constexpr size_t kNone = ~size_t(0);

  WorkGroupContext& wg_;
  const LaunchContext& launch_;
  std::vector<SubGroup>& sgs_;
  size_t count_;
  std::vector<SpinWatch> watch_;
  uint64_t rng_;
  size_t cursor_ = 0;
  uint64_t used_ = 0;
  bool over_ = false;
  // The turn in progress: its sub-group, the instructions left of its quantum, and the
  // fast stretch (runFast) it is in, which the deadlock rule accounts for as a whole.
  size_t turn_ = kNone;
  uint64_t quantumLeft_ = 0;
  uint64_t chunkLeft_ = 0, chunkRan_ = 0;
};

// Runs a work-group to the end: WorkGroupRun(...).run().
void runWorkGroup(WorkGroupContext& wg, std::vector<SubGroup>& subGroups, size_t count);

// Call when no sub-group is Running: releases the work-group barrier (or collective)
// that every sub-group not done waits at and returns true, or reports
// barrier-divergence (sub-groups at different barriers, or some finished) and returns
// false; false too when all are done.
bool releaseBarrier(WorkGroupContext& wg, std::vector<SubGroup>& subGroups, size_t count);

}  // namespace spvsim
