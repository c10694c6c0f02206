// The race checker on a whole sub-group's access at once (ExecutionObserver::accessRun:
// every lane, contiguous or one address read by all, inside one region). It must give
// exactly what the lanes' events one by one give, so it does what record() does for
// each lane, skipping only the comparison where it can find nothing: where no byte of
// the run's span has a plain write or an atomic access in its history and, for a write,
// no read run of its pages meets the span (but the lanes' own reads of their own bytes, in
// a contiguous write: `a[i] += x`), comparing any lane would find no conflict.
// That is the common case (inputs read, outputs written once, local memory after a
// barrier ended its history), and then a lane costs only what remember() adds to the
// history, or nothing where the whole sub-group's access is kept as one write run or one
// read run. Otherwise every lane goes through recordAt(), as one by one.
#include <algorithm>

#include "src/check/race_checker_impl.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {

using race::forEachPage;

// Whether read run `r` of page `index` is, inside the span, only the writing lanes' reads
// of their own bytes: a whole sub-group's write of `laneBytes` per lane from table offset
// `offset` on by work-items writer, writer + 1, ...; each lane's read is then ordered
// before its write (one work-item), and the write need compare with nothing there.
static bool ownReads(const race::ReadRun& r, uint64_t index, uint64_t offset, uint32_t writer,
                     uint64_t laneBytes) {
  if (r.reps != 1 || r.size != laneBytes || (r.count > 1 && uint64_t(r.stride) != laneBytes))
    return false;
  const int64_t at = int64_t(index * kPageBytes + r.start) - int64_t(offset);
  const int64_t lane = at / int64_t(laneBytes);
  return at % int64_t(laneBytes) == 0 && int64_t(writer) + lane == int64_t(r.item);
}

// Whether no byte of [from, to) of the page has a plain write or an atomic in its history.
// Block by block: one never touched, or holding only a write run, is decided at once.
static bool noWrites(const Page& page, uint32_t from, uint32_t to) {
  if (!page.blocks) return true;
  for (uint32_t at = from; at < to;) {
    const uint32_t end = std::min(to, (at / race::kBlockBytes + 1) * race::kBlockBytes);
    const race::Block* blk = page.block(at);
    if (blk && !blk->history && !blk->atomics) {
      const race::WriteRun& r = blk->run;
      const uint32_t lo = at % race::kBlockBytes, hi = lo + (end - at);
      if (r.first.item && r.hi > lo && r.lo < hi) return false;
    } else if (blk) {
      for (uint32_t b = at; b < end; ++b) {
        const race::AtomicHistory* a = page.atomics(b);
        if (page.history(b).write.item || (a && (a->latest.item || a->set))) return false;
      }
    }
    at = end;
  }
  return true;
}

// Whether no access in the history of [offset, offset + bytes) of `table` is one that
// comparing a plain read (or, `write`, a plain write) of those bytes would consider. A
// whole sub-group's contiguous write (`writer`: its lane 0's work-item, `laneBytes` per
// lane) leaves out its lanes' reads of their own bytes (ownReads).
bool RaceChecker::Impl::quiet(PageTable& table, uint64_t offset, uint64_t bytes, bool write,
                              uint32_t writer, uint64_t laneBytes) const {
  bool none = true;
  forEachPage(offset, bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
    const Page* page = none ? RaceMemory::find(table, index) : nullptr;
    if (!page) return;
    if (write)
      for (const race::ReadRun& r : page->runs)
        if (r.hi > from && r.lo < to && !(writer && ownReads(r, index, offset, writer, laneBytes)))
          none = false;
    if (none) none = noWrites(*page, from, to);
  });
  return none;
}

void RaceChecker::Impl::recordRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride,
                                  uint32_t lanes) {
  const bool write = first.kind == AccessKind::Write;
  const uint64_t bytes = first.bytes, span = stride * (lanes - 1) + bytes;
  PageTable* table = nullptr;
  uint64_t offset = 0;
  int c = kGlobal;
  // Every lane's bytes lie in the span: where it is not remembered, neither is any lane's.
  if (!locate(first.pointer, span, table, offset, c)) return;
  const uint32_t src = sg.code[sg.pc - 1].src;
  if (!write && readRunInOnePage(sg, *table, offset, lanes, bytes, stride, src)) return;
  const bool skip =
      shared.copies.empty() &&
      quiet(*table, offset, span, write, write && stride == bytes ? itemOf(sg, 0) : 0, bytes);
  if (skip && write && stride == bytes && rememberWriteRun(sg, *table, offset, lanes, bytes, src))
    return;
  if (skip && !write && rememberReadRun(sg, *table, offset, lanes, bytes, stride, src)) return;
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t item = itemOf(sg, l);
    const Access cur{item, own[item - firstItem], src, 0, write, 0};
    if (skip)
      rememberAt(sg, *table, offset + l * stride, bytes, cur, c);
    else
      recordAt(sg, l, first.pointer + l * stride, first.host + l * stride, bytes, cur, *table,
               offset + l * stride, c);
  }
}

// A quiet contiguous write by lanes whose clocks agree, whose lanes' bytes never straddle a
// page: remembered per page as one write run (RaceMemory::recordWriteRun) rather than
// lane by lane. False (nothing done) where it does not apply.
bool RaceChecker::Impl::rememberWriteRun(SubGroup& sg, PageTable& table, uint64_t offset,
                                         uint32_t lanes, uint64_t laneBytes, uint32_t src) {
  if (laneBytes > race::kBlockBytes || kPageBytes % laneBytes || offset % laneBytes) return false;
  if (!sameClock(sg, lanes)) return false;
  const uint32_t item = itemOf(sg, 0);
  const uint32_t clock = own[item - firstItem];
  forEachPage(offset, laneBytes * lanes, [&](uint64_t index, uint32_t from, uint32_t to) {
    Page* page = memory.page(table, index);
    const uint32_t lane = uint32_t((index * kPageBytes + from - offset) / laneBytes);
    if (!page || !memory.recordWriteRun(*page, from, to, Access{item + lane, clock, src, 0, 1, 0},
                                        uint32_t(laneBytes), ++page->gen))
      return warnBudget(sg);
    // As remember() after each lane's write (the span holds no atomics: quiet).
    for (uint32_t x = from; x < to; x += uint32_t(laneBytes)) memory.wrote(*page);
  });
  return true;
}

// The common read (a whole sub-group's, inside one page, no write or atomic in its
// history there, the lanes at one clock): rememberReadRun's run with one page lookup.
// False (nothing done) where it does not apply.
bool RaceChecker::Impl::readRunInOnePage(SubGroup& sg, PageTable& table, uint64_t offset,
                                         uint32_t lanes, uint64_t laneBytes, uint64_t stride,
                                         uint32_t src) {
  const uint64_t span = stride * (lanes - 1) + laneBytes;
  const uint32_t from = uint32_t(offset % kPageBytes);
  if (!shared.copies.empty() || from + span > kPageBytes || (stride && stride != laneBytes) ||
      !sameClock(sg, lanes))
    return false;
  Page* page = memory.page(table, offset / kPageBytes);
  if (!page) {
    warnBudget(sg);
    return true;
  }
  if (!noWrites(*page, from, uint32_t(from + span))) return false;
  const uint32_t item = itemOf(sg, 0);
  if (!memory.addReadRun(*page, item, own[item - firstItem], src, from, uint32_t(laneBytes),
                         uint32_t(stride), lanes))
    warnBudget(sg);
  return true;
}

// Whether lanes [0, lanes) of `sg` are all at one clock (the lanes of a sub-group are,
// but where they synchronised apart: atomics or fences in divergent code).
bool RaceChecker::Impl::sameClock(const SubGroup& sg, uint32_t lanes) const {
  if (ownUniform) return true;
  const uint32_t item = itemOf(sg, 0), clock = own[item - firstItem];
  for (uint32_t l = 1; l < lanes; ++l)
    if (own[item + l - firstItem] != clock) return false;
  return true;
}

// A quiet read (contiguous, or of one address by every lane) by lanes whose clocks agree,
// whose lanes' bytes never straddle a page: remembered per page as one read run
// (RaceMemory::addReadRun) rather than lane by lane. False (nothing done) where it does
// not apply.
bool RaceChecker::Impl::rememberReadRun(SubGroup& sg, PageTable& table, uint64_t offset,
                                        uint32_t lanes, uint64_t laneBytes, uint64_t stride,
                                        uint32_t src) {
  if (laneBytes > kPageBytes || (stride && stride != laneBytes) ||
      (offset % kPageBytes + laneBytes > kPageBytes) || (stride && kPageBytes % laneBytes) ||
      (stride && offset % laneBytes) || !sameClock(sg, lanes))
    return false;
  const uint32_t item = itemOf(sg, 0), clock = own[item - firstItem];
  if (!stride) {  // every lane's bytes are the first lane's
    Page* page = memory.page(table, offset / kPageBytes);
    if (!page || !memory.addReadRun(*page, item, clock, src, uint32_t(offset % kPageBytes),
                                    uint32_t(laneBytes), 0, lanes))
      warnBudget(sg);
    return true;
  }
  forEachPage(offset, laneBytes * lanes, [&](uint64_t index, uint32_t from, uint32_t to) {
    Page* page = memory.page(table, index);
    const uint32_t lane = uint32_t((index * kPageBytes + from - offset) / laneBytes);
    if (!page || !memory.addReadRun(*page, item + lane, clock, src, from, uint32_t(laneBytes),
                                    uint32_t(laneBytes), uint32_t((to - from) / laneBytes)))
      warnBudget(sg);
  });
  return true;
}

void RaceChecker::accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride,
                            uint32_t lanes) {
  Impl& m = *impl_;
  m.settle();
  if (first.kind == AccessKind::Read && m.readOnly(first.pointer)) return;
  // Write-write reports of the lanes wait together until the run's bytes are in memory
  // (the next event), as each lane's would until the next lane's.
  m.recordRun(sg, first, stride, lanes);
}

}  // namespace spvsim::check
