// The scheduler of one work-group.
//
// Policies: round-robin (each runnable sub-group in turn, one quantum each) or random
// (at every switch point a runnable sub-group is picked, and a quantum of 1..quantum
// instructions drawn log-uniformly, from a PRNG seeded by the launch's seed and the
// work-group's linear id, so results depend on neither the host thread count nor timing).
// Switch points: the end of a quantum, a yield request (an atomic that made no progress
// or a store, or a run of atomics: src/exec/ops/atomic.cc), a barrier.
//
// Deadlock rule. A sub-group is *stuck* when its whole state (pc, active mask, SIMT
// stack, call frames, register file) returns to an earlier value while no sub-group of
// the work-group wrote memory (WorkGroupContext::writes unchanged; private and local
// memory only change through such writes). It then read the same memory as before, so
// it repeats that cycle for as long as the work-group writes nothing: the scheduler
// stops running it until the next write. When every sub-group not done is stuck or
// waits at a barrier, nothing in the work-group can ever write again: `deadlock`. Only
// another work-group or the host could release it, and OpenCL guarantees no forward
// progress between work-groups (spvsim runs them in any order, often one after the
// other). The verdict never depends on how long a loop runs, so a long computation
// without writes is never reported (its state never repeats); a spin whose state
// changes every iteration (a counter) is left to the instruction budget.
//
// Resuming. A turn (one sub-group's quantum) can be advanced any number of instructions
// at a time: the debugger steps it one by one, the launch runs it whole, and both see
// the same picks, quanta and deadlock verdicts (a fast stretch is accounted for when it
// ends, however many calls it took).
//
// Cost: the instruction loop (runSteps) only gains the yield test. A sub-group is watched
// (its state snapshot, then compared whenever it is back at the snapshot's pc) only
// after kFirstProbe of its own instructions with no write in the work-group, and each
// watch that finds no cycle doubles the quiet stretch before the next one.
#include "src/exec/workgroup.h"

#include <fmt/core.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace spvsim {
namespace {

constexpr uint64_t kFirstProbe = 1u << 14;   // quiet instructions before the first watch
constexpr uint64_t kMaxProbeGap = 1u << 22;  // cap of the doubling
constexpr unsigned kWindowShift = 5;         // a watch lasts gap / 32 instructions,
constexpr uint64_t kMinWindow = 1024;        // at least this many
constexpr size_t kListedSubGroups = 8;       // in a deadlock message

}  // namespace

// The state a watch compares against: taken when a watch starts, which only a sub-group
// quiet for kFirstProbe instructions does, so it is allocated then.
struct SpinSnapshot {
  uint32_t pc = 0;
  const Inst* code = nullptr;
  LaneMask mask;
  std::vector<SimtEntry> simt;
  std::vector<Frame> frames;
  std::vector<uint8_t> regs;
  size_t missAt = 0;  // the register block that differed last
};

// What the deadlock rule knows about one sub-group. Small and cheap to make: every
// work-group makes one per sub-group.
struct SpinWatch {
  uint64_t quietSince = 0;  // wg.writes when the current quiet stretch began
  uint64_t quietSteps = 0;  // this sub-group's instructions in it
  uint64_t probeAfter = kFirstProbe;
  uint64_t probeLeft = 0;  // > 0: watching
  bool stuck = false;      // in a cycle since quietSince
  std::unique_ptr<SpinSnapshot> snapshot;
};

namespace {

uint64_t splitMix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The instruction loop: up to `n` instructions, to a barrier, the end or a yield. Kept
// out of line so its code does not move with the scheduler around it.
[[gnu::noinline]] void runSteps(SubGroup& sg, uint64_t n) {
  const uint64_t end = n > ~sg.steps ? ~uint64_t(0) : sg.steps + n;
  sg.fuseBefore = sg.wg->fuse ? end : 0;
  while (sg.steps < end && sg.state == SubGroupState::Running && !sg.yieldRequested) step(sg);
  sg.fuseBefore = 0;
}

bool sameSimt(const std::vector<SimtEntry>& a, const std::vector<SimtEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.pc == y.pc && x.rpc == y.rpc && x.mask == y.mask;
  });
}

bool sameFrames(const std::vector<Frame>& a, const std::vector<Frame>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.function == y.function && x.resultReg == y.resultReg && x.simtBase == y.simtBase;
  });
}

// Registers compared in 64-byte blocks, first the block that differed last time: in a
// loop that is not a spin that is usually the loop counter's, so a miss is cheap.
bool sameRegs(const SubGroup& sg, SpinSnapshot& snap) {
  constexpr size_t kBlock = 64;
  const uint8_t* now = sg.regs;
  const uint8_t* then = snap.regs.data();
  const size_t n = snap.regs.size();
  auto differs = [&](size_t at) {
    return std::memcmp(now + at, then + at, std::min(kBlock, n - at)) != 0;
  };
  if (snap.missAt < n && differs(snap.missAt)) return false;
  for (size_t at = 0; at < n; at += kBlock) {
    if (differs(at)) {
      snap.missAt = at;
      return false;
    }
  }
  return true;
}

// A sub-group whose groups switch (random reconvergence) is never caught in a cycle: the
// next switch, drawn from a stream that is not part of the state, may run a group that
// writes.
bool matches(const SubGroup& sg, SpinSnapshot& snap) {
  return sg.interleaveAt == SubGroup::kNeverInterleave && sg.pc == snap.pc &&
         sg.code == snap.code && sg.mask == snap.mask && sameRegs(sg, snap) &&
         sameSimt(sg.simt, snap.simt) && sameFrames(sg.frames, snap.frames);
}

// After instructions of `sg`: a stop that random reconvergence asked for only to end the
// instruction loop (SubGroup::interleaveArmed) is no yield, and a switch between its
// groups that is due happens (src/exec/reconvergence.cc).
inline void interleave(SubGroup& sg) {
  if (sg.interleaveArmed) [[unlikely]] {
    sg.interleaveArmed = false;
    sg.yieldRequested = false;
  }
  if (sg.steps >= sg.interleaveAt) [[unlikely]]
    sg.interleaveGroups();
}

// Reports at the instruction where `sg` stands: its barrier, or its next instruction.
void reportAt(SubGroup& sg, DiagnosticKind kind, const std::string& message) {
  const Inst& at = sg.code[sg.state == SubGroupState::AtBarrier ? sg.barrierPc : sg.pc];
  sg.report(at, kind, message, sg.mask);
  sg.wg->aborted = true;
}

// "`%5 = OpLoad %uint %4` (k.cl:7)" for the instruction where `sg` stands.
std::string where(const SubGroup& sg) {
  const uint32_t src = sg.code[sg.state == SubGroupState::AtBarrier ? sg.barrierPc : sg.pc].src;
  return sg.wg->launch->kernel->describeInstruction(src);
}

}  // namespace

WorkGroupRun::WorkGroupRun(WorkGroupContext& wg, std::vector<SubGroup>& sgs, size_t count)
    : wg_(wg),
      launch_(*wg.launch),
      sgs_(sgs),
      count_(count),
      watch_(count),
      rng_(splitMix(launch_.scheduleSeed ^ splitMix(wg.linearId))) {}

WorkGroupRun::~WorkGroupRun() = default;

std::optional<size_t> WorkGroupRun::turn() {
  return nextTurn() ? std::optional(turn_) : std::nullopt;
}

// Inline helpers (used only here): the launch runs a turn through them per quantum,
// barrier or atomic, so calls would cost more than the scheduling itself.
inline bool WorkGroupRun::nextTurn() {
  if (turn_ != kNone) return true;
  if (over()) return false;
  for (;;) {
    const size_t i = pick();
    if (i < count_) {
      turn_ = i;
      quantumLeft_ = quantumLength();
      chunkLeft_ = chunkRan_ = 0;
      return true;
    }
    if (anyRunning()) {
      if (defer_) {  // the other resident work-groups may release it (resident_groups.h)
        waiting_ = true;
        return false;
      }
      reportDeadlock();
    } else if (releaseBarrier(wg_, sgs_, count_)) {
      cursor_ = 0;
      continue;
    }
    over_ = true;
    return false;
  }
}

void WorkGroupRun::run() {
  while (nextTurn()) advance(~uint64_t(0));
}

WorkGroupRun::Slice WorkGroupRun::runSlice(uint64_t instructions) {
  waiting_ = false;
  const uint64_t start = used_;
  while (used_ - start < instructions && nextTurn()) advance(instructions - (used_ - start));
  if (over()) return Slice::Over;
  return waiting_ ? Slice::Waits : Slice::Ran;
}

// A watch compares with the writes it began at: one no count equals starts afresh.
void WorkGroupRun::wake() {
  for (SpinWatch& w : watch_) w.quietSince = ~uint64_t(0);
}

void WorkGroupRun::step(size_t i) {
  if (turn_ == i) return advance(1);
  SubGroup& sg = sgs_[i];
  if (sg.state != SubGroupState::Running) return;
  sync(watch_[i]);
  const uint64_t start = sg.steps;
  spvsim::step(sg);
  interleave(sg);
  sg.yieldRequested = false;
  sg.atomicsInTurn = 0;
  used_ += sg.steps - start;
  checkBudget(sg);
}

inline bool WorkGroupRun::random() const {
  return launch_.schedule == LaunchOptions::Schedule::Random;
}

inline uint64_t WorkGroupRun::next() { return splitMix(rng_++); }

// Random: a length up to 2^e for a uniform e, so short quanta (fine interleavings of
// short kernels) are as likely as long ones.
inline uint64_t WorkGroupRun::quantumLength() {
  if (!random()) return launch_.quantum;
  const unsigned bits = 64 - std::countl_zero(launch_.quantum);
  const uint64_t cap = std::min(launch_.quantum, uint64_t(1) << (next() % bits));
  return 1 + next() % cap;
}

// A write anywhere in the work-group ends every quiet stretch, watch and cycle.
inline void WorkGroupRun::sync(SpinWatch& w) {
  if (w.quietSince == wg_.writes) return;
  w.quietSince = wg_.writes;
  w.quietSteps = 0;
  w.probeLeft = 0;
  w.stuck = false;
}

inline bool WorkGroupRun::runnable(size_t i) {
  if (sgs_[i].state != SubGroupState::Running) return false;
  sync(watch_[i]);
  return !watch_[i].stuck;
}

inline bool WorkGroupRun::anyRunning() const {
  for (size_t i = 0; i < count_; ++i)
    if (sgs_[i].state == SubGroupState::Running) return true;
  return false;
}

// The next runnable sub-group after the cursor (round-robin) or after a random
// start (random); count_ when none is.
// No division per pick (a 64-bit `%` on every sub-group switch showed in profiles).
inline size_t WorkGroupRun::pick() {
  const size_t start = random() ? next() % count_ : cursor_;
  for (size_t k = 0, i = start; k < count_; ++k, i = i + 1 == count_ ? 0 : i + 1) {
    if (runnable(i)) {
      cursor_ = i + 1 == count_ ? 0 : i + 1;
      return i;
    }
  }
  return count_;
}

// Whether the turn's sub-group runs on: quantum left, running, no yield, and (between
// fast stretches) not found stuck.
inline bool WorkGroupRun::turnContinues() {
  SubGroup& sg = sgs_[turn_];
  if (!quantumLeft_ || sg.state != SubGroupState::Running || sg.yieldRequested) return false;
  if (chunkLeft_) return true;
  SpinWatch& w = watch_[turn_];
  sync(w);
  return !w.stuck;
}

// Up to `limit` instructions of the turn; ends the turn when it is over.
inline void WorkGroupRun::advance(uint64_t limit) {
  SubGroup& sg = sgs_[turn_];
  SpinWatch& w = watch_[turn_];
  const uint64_t start = sg.steps;
  bool going;
  while ((going = turnContinues()) && limit) {
    if (!chunkLeft_ && !w.probeLeft && w.quietSteps >= w.probeAfter) startProbe(sg, w);
    const uint64_t ran = chunkLeft_ || !w.probeLeft ? runFast(sg, w, limit)
                                                    : probe(sg, w, std::min(limit, quantumLeft_));
    quantumLeft_ -= ran;
    limit -= ran;
  }
  used_ += sg.steps - start;
  if (!going) endTurn();
}

// The hot loop: up to the next watch, the end of the quantum or a switch point. A
// stretch interrupted by `limit` resumes at the next call; the quiet count takes it
// whole when it ends.
inline uint64_t WorkGroupRun::runFast(SubGroup& sg, SpinWatch& w, uint64_t limit) {
  if (!chunkLeft_) {
    chunkLeft_ = std::min(quantumLeft_, w.probeAfter - w.quietSteps);
    chunkRan_ = 0;
  }
  const uint64_t start = sg.steps;
  // Up to the next switch between random reconvergence's groups (never: no bound).
  runSteps(sg, std::min({chunkLeft_, limit, sg.interleaveAt - sg.steps}));
  interleave(sg);
  const uint64_t ran = sg.steps - start;
  chunkRan_ += ran;
  chunkLeft_ -= ran;
  if (sg.state != SubGroupState::Running || sg.yieldRequested) chunkLeft_ = 0;
  if (!chunkLeft_ && wg_.writes == w.quietSince) w.quietSteps += chunkRan_;
  return ran;
}

void WorkGroupRun::startProbe(SubGroup& sg, SpinWatch& w) {
  w.probeLeft = std::max(w.probeAfter >> kWindowShift, kMinWindow);
  if (!w.snapshot) w.snapshot = std::make_unique<SpinSnapshot>();
  SpinSnapshot& snap = *w.snapshot;
  snap.pc = sg.pc;
  snap.code = sg.code;
  snap.mask = sg.mask;
  snap.simt = sg.simt;
  snap.frames = sg.frames;
  snap.regs.assign(sg.regs, sg.regs + launch_.kernel->registerBytes);
}

// Steps while comparing with the snapshot; a match with no write since is a cycle.
uint64_t WorkGroupRun::probe(SubGroup& sg, SpinWatch& w, uint64_t n) {
  n = std::min(n, w.probeLeft);
  uint64_t ran = 0;
  while (ran < n && sg.state == SubGroupState::Running) {
    spvsim::step(sg);
    interleave(sg);
    ++ran;
    if (wg_.writes != w.quietSince) return ran;  // sync() drops the watch
    if (sg.state == SubGroupState::Running && sg.pc == w.snapshot->pc && matches(sg, *w.snapshot)) {
      w.stuck = true;
      break;
    }
    if (sg.yieldRequested) break;
  }
  w.quietSteps += ran;
  w.probeLeft -= ran;
  if (sg.state != SubGroupState::Running) {
    w.probeLeft = 0;  // a cycle never spans a barrier: it would wait there
  } else if (!w.stuck && !w.probeLeft) {
    w.probeAfter = std::min(w.probeAfter * 2, kMaxProbeGap);
    w.quietSteps = 0;
  }
  return ran;
}

inline void WorkGroupRun::endTurn() {
  SubGroup& sg = sgs_[turn_];
  sg.yieldRequested = false;
  sg.atomicsInTurn = 0;  // the next turn starts afresh (WorkGroupSlot::start zeroes it too)
  turn_ = kNone;
  chunkLeft_ = 0;
  if (!over()) checkBudget(sg);
}

inline void WorkGroupRun::checkBudget(SubGroup& sg) {
  if (used_ <= launch_.instructionBudget || wg_.aborted) return;
  // A split work-group's sub-groups each have the budget (LaunchState::unitsPerGroup).
  reportAt(
      sg, DiagnosticKind::InstructionBudget,
      fmt::format("{} exceeded the instruction budget of {} sub-group "
                  "instructions (an infinite loop? raise it with --instruction-budget)",
                  launch_.splitGroups ? "sub-group" : "work-group", launch_.instructionBudget));
  over_ = true;
}

void WorkGroupRun::reportDeadlock() {
  reportDeadlock(
      "Nothing in the work-group writes memory any more, so only another work-group or the "
      "host could release it, and OpenCL guarantees no forward progress between work-groups");
}

void WorkGroupRun::reportDeadlock(const std::string& why) {
  SubGroup* first = nullptr;
  std::string parts;
  size_t listed = 0, more = 0;
  for (size_t i = 0; i < count_; ++i) {
    SubGroup& sg = sgs_[i];
    if (sg.state == SubGroupState::Done) continue;
    const bool spins = sg.state == SubGroupState::Running;
    if (spins && !first) first = &sg;
    if (listed == kListedSubGroups) {
      ++more;
      continue;
    }
    parts += fmt::format(
        "{}sub-group {} {} {}", listed++ ? "; " : "", sg.id,
        spins ? "spins without writing memory at" : "waits at the work-group barrier or collective",
        where(sg));
  }
  if (more) parts += fmt::format("; and {} more", more);
  if (launch_.splitGroups) {  // one sub-group, run apart (LaunchState::unitsPerGroup)
    reportAt(*first, DiagnosticKind::Deadlock,
             fmt::format("{}. It runs apart from the other sub-groups of its work-group, since "
                         "nothing ties them together (no barrier, atomic or volatile access): "
                         "what it waits for is a plain write by another work-item, a data race",
                         parts));
    return;
  }
  reportAt(*first, DiagnosticKind::Deadlock,
           fmt::format("no sub-group of the work-group can make progress: {}. {}", parts, why));
}

bool releaseBarrier(WorkGroupContext& wg, std::vector<SubGroup>& sgs, size_t count) {
  SubGroup* first = nullptr;
  size_t done = 0;
  for (size_t i = 0; i < count; ++i) {
    SubGroup& sg = sgs[i];
    if (sg.state == SubGroupState::Done) {
      ++done;
      continue;
    }
    if (!first) first = &sg;
    if (sg.barrierPc != first->barrierPc) {
      reportAt(
          sg, DiagnosticKind::BarrierDivergence,
          fmt::format("sub-groups {} and {} wait at different work-group barriers or collectives",
                      first->id, sg.id));
      return false;
    }
  }
  if (!first) return false;  // all done
  if (done) {
    reportAt(*first, DiagnosticKind::BarrierDivergence,
             fmt::format("work-group barrier reached by {} sub-group(s) while {} finished "
                         "the kernel without reaching it",
                         count - done, done));
    return false;
  }
  // A work-group collective (OpGroup* at Workgroup scope) computes every sub-group's
  // result now, while all of them wait at it.
  const Inst& at = first->code[first->barrierPc];
  if (at.combine) {
    wg.launch->kernel->combiners[at.combine - 1](sgs.data(), count, at);
    if (wg.aborted) return false;
  } else {
    wg.observers.each(
        [&](ExecutionObserver& o) { o.workGroupBarrier(sgs.data(), count, at.aux, at.aux2); });
  }
  for (size_t i = 0; i < count; ++i) sgs[i].state = SubGroupState::Running;
  return true;
}

void runWorkGroup(WorkGroupContext& wg, std::vector<SubGroup>& sgs, size_t count) {
  WorkGroupRun(wg, sgs, count).run();
}

}  // namespace spvsim
