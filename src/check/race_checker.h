// The data-race and insufficient-scope checker (`--check-races`): a vector-clock
// happens-before model of the OpenCL memory model over work-items, with scopes.
//
// Threads are work-items (lanes), not sub-groups: lanes of one sub-group run in lockstep
// in spvsim, but the memory model does not order their accesses, so code that relies on
// lockstep without a sub-group barrier is reported. Synchronisation, per memory class
// (local = WorkgroupMemory, global = CrossWorkgroupMemory semantics bits):
// - a work-group barrier whose semantics name the class joins every work-item of the
//   work-group (memory scope Subgroup: only each sub-group; Invocation: nothing);
// - a sub-group barrier joins the lanes of the sub-group;
// - release (atomic with Release/AcqRel/SeqCst semantics, or a release fence before a
//   relaxed atomic store or read-modify-write) and acquire (atomic with Acquire/AcqRel/
//   SeqCst, or a relaxed atomic read before an acquire fence) synchronise through the
//   atomic's location when both operations' scopes include both work-items; release
//   sequences continue through read-modify-writes. Atomics with no storage-class bits
//   (what clang emits for C11-style atomics) order both classes.
// Two conflicting accesses (same byte, at least one a write) race unless happens-before
// orders them (OpenCL 3.0 API, memory model, "Data races"), except two atomics whose
// scopes both include both work-items, which never race. A race is a `data-race`, or an
// `insufficient-scope` when synchronisation too narrow in scope would have ordered it (or
// the two atomics' scopes exclude one another's work-item).
//
// Per byte the checker keeps three histories apart: the last plain write, the plain
// reads since it, and the atomic accesses since it (with read/write flag and scope). A
// plain access is checked against the write, the reads (if it writes) and the atomics
// (atomic writes only, if it reads); an atomic access against the plain write, the plain
// reads (if it writes) and the other atomics (scopes). So an atomic never hides a plain
// access: `*p = 0` by one work-item then `atomic_dec(p)` by all, a plain read after
// others' atomics, a compare-exchange against a plain write (a failed one only reads) are
// all found. Plain reads are all kept until a plain write of their byte (runs of them,
// src/check/race_memory.h: reads of memory nobody writes cost little and compare with
// nothing), except reads of buffers that no instruction of the launch can write
// (LaunchContext::readOnlyGlobal), which race with nothing and are not kept. Atomics are kept while
// unordered with one another: one inline, more in a set of at most 16 (an access ordered after an
// earlier one by the same or a wider scope, writing if it wrote, replaces it; past 16 the oldest of
// the accessing work-group goes, else the oldest: dropping one may hide a race, never make one).
// A reduction target's relaxed device-wide read-modify-writes, which nothing else in the launch
// touches and no fence can make synchronise, are never compared with anything: the launch may
// privatise them and the checker then does not see them (ReductionTarget::unordered). A
// plain write ends all three histories (what it raced with is reported); a work-group
// barrier over local memory ends the local memory's (it orders all of them before all
// that follow). Each access is reported once, against the first conflict found (plain
// write-write conflicts last, as the others say more). Two plain writes race whatever
// values they store, as in the memory model; the report says when a write stored what
// its bytes already held (Oclgrind, by default, reports none of those).
//
// Work-groups run one at a time, in order, on one host thread while the checker is on
// (its factory asks for a serial launch), so verdicts never depend on timing. Under
// --forward-progress occupancy:N the thread holds N work-groups resident at once, each
// in a slot with a RaceChecker of its own, taking turns: each keeps its work-group's
// part (clocks, local memory) and all share the launch's (global memory's histories,
// releases at global atomic locations: launchState), so accesses of work-groups resident
// together are compared as those of work-groups run one after another are. Its state
// grows as the launch runs, within LaunchContext::observerMemory (what --max-memory or
// SPVSIM_MAX_MEMORY leaves); an access it cannot record past that is not compared with
// later ones, and one `out-of-memory` warning says so, what it would take and what to raise.
#pragma once

#include <cstdint>
#include <memory>

#include "src/exec/observer.h"

namespace spvsim::check {

class RaceChecker final : public ExecutionObserver {
 public:
  // Throws Error(DiagnosticKind::InvalidArgument) when the launch has more work-items than the
  // checker can name (2^32 - 2).
  // `shared`: the launch's state from launchState(), which the checkers of all its slots
  // share; nullptr: one of its own (a checker that sees all of the launch's work-groups).
  explicit RaceChecker(const LaunchContext& launch, ObserverLaunchState* shared = nullptr);
  ~RaceChecker() override;
  // The launch-wide part of the checkers' state (RaceChecker::Shared), for
  // ObserverFactory::launchState. Throws like the constructor.
  static std::unique_ptr<ObserverLaunchState> launchState(const LaunchContext& launch);
  // The host memory the checkers' state takes before the launch runs (the page tables of
  // global memory and of each resident work-group's local memory, a flag per work-group),
  // for LaunchOptions::maxMemory; what it records as the launch runs
  // comes out of LaunchContext::observerMemory. Throws like the constructor for too many
  // work-items.
  static uint64_t stateBytes(const LaunchContext& launch);
  RaceChecker(const RaceChecker&) = delete;
  RaceChecker& operator=(const RaceChecker&) = delete;

  void workGroupBegin(WorkGroupContext& wg, SubGroup*, size_t) override;
  void workGroupEnd(WorkGroupContext&) override;
  void access(SubGroup& sg, const MemoryAccess& a) override;
  void accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride, uint32_t lanes) override;
  void asyncCopyBegin(SubGroup& sg, const Inst& in, uint64_t event) override;
  void asyncCopyEnd(SubGroup& sg) override;
  void asyncCopiesWaited(SubGroup& sg, const std::vector<uint64_t>& events) override;
  void fence(SubGroup& sg, uint32_t scope, uint32_t semantics) override;
  void subGroupBarrier(SubGroup& sg, uint32_t scope, uint32_t semantics) override;
  void workGroupBarrier(SubGroup* subGroups, size_t count, uint32_t scope,
                        uint32_t semantics) override;

  struct Snapshot;
  struct Shared;
  struct Impl;

 private:
  enum class AtomicKind { Load, Store, Rmw, FailedRmw };
  // A plain access by `lane` of `bytes` bytes at kernel pointer `p` (host address
  // `host`). Writes store their bytes before the next call (a later call compares them
  // for write-write races).
  void plain(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host, uint64_t bytes,
             bool write);
  // An atomic access, after it took effect. `semantics` is what applied (the Unequal
  // semantics for a failed compare-exchange); `scope` an spv::Scope, possibly with
  // kPossiblyLegacyAtomic.
  void atomic(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host, uint32_t bytes,
              AtomicKind kind, uint32_t scope, uint32_t semantics);

  std::unique_ptr<Shared> ownShared_;  // with no launch state given
  std::unique_ptr<Impl> impl_;
};

}  // namespace spvsim::check
