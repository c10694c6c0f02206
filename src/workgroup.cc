#include "src/workgroup.h"

#include <fmt/core.h>

namespace spvsim {
namespace {

// Reports at the instruction where `sg` stands: its barrier, or its next instruction.
void reportAt(SubGroup& sg, const char* kind, const std::string& message) {
  const Inst& at = sg.code[sg.state == SubGroupState::AtBarrier ? sg.barrierPc : sg.pc];
  sg.report(at, kind, message, sg.mask);
  sg.wg->aborted = true;
}

// All sub-groups are blocked: either release a barrier all reached together, or
// report why the work-group cannot continue.
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
          sg, "barrier-divergence",
          fmt::format("sub-groups {} and {} wait at different work-group barriers or collectives",
                      first->id, sg.id));
      return false;
    }
  }
  if (!first) return false;  // all done
  if (done) {
    reportAt(*first, "barrier-divergence",
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
  }
  for (size_t i = 0; i < count; ++i) sgs[i].state = SubGroupState::Running;
  return true;
}

}  // namespace

void runWorkGroup(WorkGroupContext& wg, std::vector<SubGroup>& sgs, size_t count) {
  const LaunchContext& launch = *wg.launch;
  uint64_t used = 0;
  for (;;) {
    bool anyRunning = false;
    for (size_t i = 0; i < count && !wg.aborted; ++i) {
      SubGroup& sg = sgs[i];
      if (sg.state != SubGroupState::Running) continue;
      const uint64_t start = sg.steps;
      for (uint64_t q = launch.quantum; q && sg.state == SubGroupState::Running; --q) step(sg);
      used += sg.steps - start;
      anyRunning |= sg.state == SubGroupState::Running;
      if (used > launch.instructionBudget) {
        reportAt(sg, "instruction-budget",
                 fmt::format("work-group exceeded the instruction budget of {} sub-group "
                             "instructions (an infinite loop? raise it with "
                             "--instruction-budget)",
                             launch.instructionBudget));
        return;
      }
    }
    if (wg.aborted) return;
    if (!anyRunning && !releaseBarrier(wg, sgs, count)) return;
  }
}

}  // namespace spvsim
