// `continue` under --forward-progress occupancy:N (src/exec/resident_groups.h): the
// session keeps N work-groups resident and runs them in turns of kResidentSlice
// sub-group instructions each, in linear order from the current one, as a launch does;
// a work-group whose sub-groups all wait is passed over until another resident one
// writes memory, and when every resident one waits, each gets the same `deadlock` as in
// `spvsim run`. Breakpoints, watchpoints and errors stop the turn that meets them; the
// next `continue` goes on from that work-group. `step` and `next` run the current
// sub-group only (the others stand still, as with gdb's scheduler-locking).
#include <fmt/format.h>

#include "src/debugger/debug_session.h"
#include "src/exec/resident_groups.h"

namespace spvsim::debugger {

// Started and not finished, in linear order.
std::vector<GroupRun*> DebugSession::residentGroups() {
  std::vector<GroupRun*> resident;
  for (auto& [linear, g] : groups_)
    if (g->slot && !g->finished) resident.push_back(g.get());
  return resident;
}

// Starts the lowest work-groups neither started nor finished until N are resident.
void DebugSession::admitResident() {
  size_t resident = residentGroups().size();
  uint64_t linear = finishedGroups_.firstUnfinished();
  while (resident < state_->residentGroups()) {
    while (linear < state_->groupCount() &&
           (finishedGroups_.finished(linear) || groups_.count(linear) != 0))
      ++linear;
    if (linear == state_->groupCount()) return;
    startGroup(linear);
    ++resident;
  }
}

// The resident work-group after `after` in linear order (wrapping round, `after` itself
// last) that does not wait; nullptr when each waits.
GroupRun* DebugSession::nextResident(const GroupRun& after) {
  const std::vector<GroupRun*> resident = residentGroups();
  GroupRun* first = nullptr;
  for (GroupRun* g : resident) {
    if (g->waits) continue;
    if (g->linear > after.linear) return g;
    if (!first) first = g;
  }
  return first;
}

// `writer` wrote memory: what the others wait for may have come.
void DebugSession::wakeResident(const GroupRun& writer) {
  for (GroupRun* g : residentGroups())
    if (g != &writer) {
      g->run->wake();
      g->waits = false;
    }
}

void DebugSession::continueResident() {
  admitResident();
  for (;;) {
    GroupRun& g = *group_;
    const uint64_t start = g.run->instructions();
    const uint64_t writes = g.slot->workGroup().writes;
    const Stop s = runGroup(g, [&] { return g.run->instructions() - start >= kResidentSlice; });
    if (g.slot && g.slot->workGroup().writes != writes) wakeResident(g);
    if (s.kind == Stop::Kind::None || s.kind == Stop::Kind::Waits) {
      g.waits = s.kind == Stop::Kind::Waits;
      GroupRun* next = nextResident(g);
      if (!next) return residentDeadlock();
      enterGroup(*next);
      continue;
    }
    if (s.kind != Stop::Kind::GroupFinished) return endCommand();
    admitResident();
    GroupRun* next = nextResident(g);  // `g` has finished: never itself
    if (!next) {
      if (residentGroups().empty()) return finishKernel();
      return residentDeadlock();
    }
    enterGroup(*next);
    release(g);
  }
}

// Every resident work-group waits: each reports the launch's `deadlock`, which is fatal.
void DebugSession::residentDeadlock() {
  const std::vector<GroupRun*> resident = residentGroups();
  const uint64_t notStarted = finishedGroups_.unfinished() - resident.size();
  for (GroupRun* g : resident) {
    std::vector<uint64_t> others;
    for (const GroupRun* o : resident)
      if (o != g) others.push_back(o->linear);
    g->run->reportDeadlock(
        residentDeadlockWhy(*state_, state_->residentGroups(), others, notStarted));
  }
  for (GroupRun* g : resident) groupOver(*g);
  enterGroup(*resident.front());
  endCommand();
}

}  // namespace spvsim::debugger
