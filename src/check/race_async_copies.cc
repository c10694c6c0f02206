// The race checker's async work-group copies (OpenCL C async_work_group_copy,
// async_work_group_strided_copy, wait_group_events).
//
// OpenCL C (6.15.11, "Async Copies from Global to Local Memory, Local to Global Memory,
// and Prefetch") lets a copy complete at any time until a wait_group_events names its
// event, and the copy is the work-group's: any of its work-items may perform any element
// (PoCL's copies are loops over the work-items). So a copy's accesses are ordered after
// only what every work-item of the work-group knows when it is issued (what a work-group
// barrier before it ordered), and before only what follows its wait; a barrier between
// the issue and the wait orders nothing with the copy. The executor copies eagerly at
// the issue and reports the elements between asyncCopyBegin and asyncCopyEnd; the checker
// 1. compares each element, at the issue, with the history of its bytes, as an access
//    of the work-group (knownByAll) and with the copies still pending;
// 2. keeps the copy pending (its elements as arithmetic runs) and compares every access
//    until the wait with it (meetPendingCopies, from record);
// 3. at the wait (or the work-group's end, for a copy never waited for), records its
//    global accesses in the history as work-item 0's, which the wait's work-group barrier
//    orders before everything its work-group does after it (local memory's history
//    ends at that barrier anyway).
#include <fmt/core.h>

#include <algorithm>
#include <string>

#include "src/check/race_checker_impl.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {

using race::forEachPage;
namespace {

LaneMask oneLane(uint32_t lane) {
  LaneMask m;
  m.set(lane);
  return m;
}

}  // namespace

bool CopyRun::meets(const PageTable* t, uint64_t offset, uint64_t n) const {
  if (t != table || offset + n <= first) return false;
  if (step == 0) return offset < first + bytes;
  // Element k covers [first + k * step, + bytes): the ks whose element meets the access.
  const uint64_t lastK = (offset + n - 1 - first) / step;
  const uint64_t firstK = offset < first + bytes ? 0 : (offset - first - bytes) / step + 1;
  return firstK <= std::min(lastK, count - 1);
}

// Whether every work-item of the running work-group knows `prior` (vector clocks per
// class c): what orders it before anything the work-group as a whole does.
bool RaceChecker::Impl::knownByAll(int c, const Access& prior) const {
  const uint32_t of = prior.item;
  const uint32_t common = inThisGroup(of) ? base[c][of - firstItem] : lookup(wgClocks[c], of);
  if (common >= prior.clock) return true;
  for (uint32_t j = 0; j < items; ++j)
    if (knows(firstItem + j, c, of) < prior.clock) return false;
  return true;
}

void RaceChecker::asyncCopyBegin(SubGroup& sg, const Inst& in, uint64_t event) {
  Impl& m = *impl_;
  m.settle();
  m.shared.copies.push_back(PendingCopy{&m, event, &sg, &in, {}});
  m.copying = true;
}

void RaceChecker::asyncCopyEnd(SubGroup&) { impl_->copying = false; }

void RaceChecker::asyncCopiesWaited(SubGroup&, const std::vector<uint64_t>& events) {
  impl_->settle();
  impl_->completeCopies(&events);
}

void RaceChecker::Impl::copyElement(const MemoryAccess& a) {
  settle();
  PendingCopy& copy = shared.copies.back();  // the one being issued
  copySide(copy, a.source, a.bytes, false);
  copySide(copy, a.pointer, a.bytes, true);
}

// One side of one element of the copy being issued: compared with the history of its
// bytes and with the other pending copies, then added to the copy's runs.
void RaceChecker::Impl::copySide(PendingCopy& copy, uint64_t p, uint64_t bytes, bool write) {
  PageTable* table = nullptr;
  uint64_t offset = 0;
  int c = kGlobal;
  if (!locate(p, bytes, table, offset, c)) return;  // constant memory cannot race
  const Access cur{firstItem, 0, copy.in->src, 0, write, 0};
  const Access other = firstConflict(*table, offset, bytes, cur, c,
                                     [&](const Access& prior) { return !knownByAll(c, prior); });
  SubGroup& sg = *copy.sg;
  const std::string what = "async copy's " + describeAccess(write ? "write" : "read", p, bytes);
  if (other.item) {
    const bool sameGroup = inThisGroup(other.item);
    sg.report(
        *copy.in, DiagnosticKind::DataRace,
        fmt::format("{} conflicts with an earlier {} by {} at {}: {}", what, accessVerb(other),
                    describeItem(other.item), launch.kernel->describeInstruction(other.src),
                    sameGroup ? "a copy is the work-group's, and any of its work-items may "
                                "perform it, so only a work-group barrier covering this "
                                "memory orders an access before it"
                              : "work-items of different work-groups are ordered only by "
                                "release/acquire atomics or fences of device scope"),
        oneLane(0));
  } else {
    for (const PendingCopy& earlier : shared.copies) {
      if (&earlier == &copy) continue;
      const auto it = std::find_if(earlier.runs.begin(), earlier.runs.end(), [&](const CopyRun& r) {
        return (r.write || write) && r.meets(table, offset, bytes);
      });
      if (it == earlier.runs.end()) continue;
      sg.report(*copy.in, DiagnosticKind::DataRace,
                fmt::format("{} conflicts with the {} of an earlier async copy at {}, not yet "
                            "waited for: two copies are unordered until a wait_group_events "
                            "waits for the earlier one's event",
                            what, it->write ? "write" : "read",
                            launch.kernel->describeInstruction(earlier.in->src)),
                oneLane(0));
      break;
    }
  }
  // The element extends the copy's last run when it lies one step further.
  CopyRun* last = copy.runs.empty() ? nullptr : &copy.runs.back();
  if (last && last->table == table && last->write == write && last->bytes == bytes &&
      offset >= last->first &&
      (last->count == 1 || offset == last->first + last->count * last->step)) {
    if (last->count == 1) last->step = offset - last->first;
    ++last->count;
    return;
  }
  copy.runs.push_back(CopyRun{table, c, write, uint32_t(bytes), offset, 0, 1});
}

// An access by a work-item (cur, already recorded, with no other conflict) against the
// copies issued and not yet waited for: they are unordered with it whatever barriers
// came between. Those of other work-groups resident at the same time too: the access
// comes after the copy's issue, so nothing orders it before the copy, and nothing after
// it before the wait.
void RaceChecker::Impl::meetPendingCopies(SubGroup& sg, uint32_t lane, uint64_t p, uint64_t bytes,
                                          const Access& cur, const PageTable& table,
                                          uint64_t offset) {
  for (const PendingCopy& copy : shared.copies)
    for (const CopyRun& r : copy.runs) {
      if ((!r.write && !cur.write) || !r.meets(&table, offset, bytes)) continue;
      const auto& g = copy.sg->wg->groupId;
      sg.report(
          sg.code[sg.pc - 1], DiagnosticKind::DataRace,
          fmt::format("{} by {} conflicts with the {} of {} async copy at "
                      "{}, not yet waited for: a copy may complete at any time until a "
                      "wait_group_events waits for its event (OpenCL C 6.15.11), so "
                      "no {} orders it with accesses before that wait",
                      describeAccess(accessVerb(cur), p, bytes), describeItem(cur.item),
                      r.write ? "write" : "read",
                      copy.owner == this ? std::string("the work-group's")
                                         : fmt::format("work-group ({},{},{})'s", g[0], g[1], g[2]),
                      launch.kernel->describeInstruction(copy.in->src),
                      copy.owner == this ? "barrier" : "synchronisation"),
          oneLane(lane));
      return;
    }
}

// The copies of `events` (all of them when null) are complete: their global accesses go
// into the history as work-item 0's, now.
void RaceChecker::Impl::completeCopies(const std::vector<uint64_t>* events) {
  auto done = [&](const PendingCopy& copy) {
    return copy.owner == this &&
           (!events || std::find(events->begin(), events->end(), copy.event) != events->end());
  };
  for (const PendingCopy& copy : shared.copies) {
    if (!done(copy)) continue;
    for (const CopyRun& r : copy.runs) {
      if (r.c == kLocal) continue;  // the wait's barrier (or the next work-group) ends it
      const Access cur{firstItem, own[0], copy.in->src, 0, r.write, 0};
      for (uint64_t k = 0; k < r.count; ++k)
        forEachPage(r.first + k * r.step, r.bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
          if (Page* page = memory.page(*r.table, index))
            remember(*copy.sg, *page, from, to, cur, r.c);
          else
            warnBudget(*copy.sg);
        });
    }
  }
  std::erase_if(shared.copies, done);
}

}  // namespace spvsim::check
