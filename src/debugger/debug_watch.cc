// DebugSession: watchpoints on variables and memory elements (`watch x`, `watch tile[2]`,
// `watch p[3]`): where the value lives in the current work-group, compared after every
// instruction while that work-group exists.
#include <fmt/format.h>

#include <cstring>

#include "src/debugger/debug_session.h"

namespace spvsim::debugger {

void DebugSession::addValueWatchpoint(std::string_view what) {
  const Expression e = Expression::parse(what);
  const ExprScope s = scope(false);
  const ExprValue v = evaluate(e, s);
  const ValueHomes homes = locateHomes(v, s.sg, symbols_->module());
  Breakpoint w;
  w.watch = true;
  w.onValue = true;
  w.group = group_->linear;
  w.bytes = homes.bytes;
  w.valueType = v.v.type;
  w.valueSigned = v.v.isSigned;
  for (size_t i = 0; i < homes.hosts.size(); ++i) {
    if (!homes.hosts[i]) continue;  // a lane whose pointer leads nowhere
    w.hosts.push_back(homes.hosts[i]);
    w.hostLanes.push_back(v.v.shared ? v.lane.value_or(~0u) : uint32_t(i));
    w.snapshot.insert(w.snapshot.end(), homes.hosts[i], homes.hosts[i] + homes.bytes);
  }
  if (w.hosts.empty())
    throw DebugError(fmt::format("watch: {} is not in memory any lane can read", e.text()));
  w.what = e.text();
  w.number = nextNumber_++;
  LaneMask lanes;
  for (uint32_t l : w.hostLanes)
    if (l != ~0u) lanes.set(l);
  const std::string where =
      lanes.none() ? fmt::format("{} memory of {}", v.v.storage, groupText(*group_))
                   : fmt::format("lane{} {} of {} sub-group {}", lanes.count() == 1 ? "" : "s",
                                 formatLaneList(lanes), groupText(*group_), sg_);
  out_ << fmt::format("Watchpoint {}: {} ({}, {})\n", w.number, w.what, v.v.typeName, where);
  breakpoints_.push_back(std::move(w));
  rebuildSites();
}

// Whether the watched value changed (printing each entry that did); a watchpoint whose
// work-group is gone is deleted.
bool DebugSession::checkValueWatch(Breakpoint& w, SubGroup& sg) {
  const auto it = groups_.find(w.group);
  if (it == groups_.end() || !it->second->slot || it->second->finished) {
    out_ << fmt::format("Watchpoint {} ({}) deleted: its work-group has finished.\n", w.number,
                        w.what);
    w.number = -w.number;
    return false;
  }
  const spirv::Module& m = symbols_->module();
  const ValueStyle style{0, w.valueSigned};
  const PointerNamer namer = [this](uint64_t p) { return pointerName(p); };
  bool changed = false;
  for (size_t i = 0; i < w.hosts.size(); ++i) {
    uint8_t* before = w.snapshot.data() + i * w.bytes;
    if (std::memcmp(before, w.hosts[i], w.bytes) == 0) continue;
    if (!changed)
      out_ << fmt::format("Watchpoint {}: {} changed by {} sub-group {}\n", w.number, w.what,
                          groupText(*group_), sg.id);
    changed = true;
    const std::string who = w.hostLanes[i] == ~0u ? w.what : fmt::format("lane {}", w.hostLanes[i]);
    out_ << fmt::format("  {}: {} -> {}\n", who, formatValue(m, w.valueType, before, style, namer),
                        formatValue(m, w.valueType, w.hosts[i], style, namer));
    std::memcpy(before, w.hosts[i], w.bytes);
  }
  if (changed) ++w.hits;
  return changed;
}

}  // namespace spvsim::debugger
