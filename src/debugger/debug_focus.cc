// DebugSession: the focus (lane, work-item, frame), expressions evaluated there
// (print, set var, display) and `until`.
#include <fmt/format.h>

#include "src/debugger/debug_session.h"

namespace spvsim::debugger {

void DebugSession::selectLane(uint32_t lane) {
  SubGroup& sg = subGroup();
  if (lane >= sg.liveLanes)
    throw DebugError(fmt::format("lane {} does not exist: sub-group {} has lanes 0-{}", lane, sg.id,
                                 sg.liveLanes - 1));
  focus_ = lane;
  const auto& local = group_->slot->workGroup().localSize;
  const uint64_t linear = uint64_t(sg.firstLocalLinear) + lane;
  const std::array<uint64_t, 3> lid{linear % local[0], linear / local[0] % local[1],
                                    linear / (local[0] * local[1])};
  const NDRange& r = state_->range();
  std::array<uint64_t, 3> gid{};
  for (int d = 0; d < 3; ++d) gid[d] = r.offset[d] + group_->id[d] * r.local[d] + lid[d];
  out_ << fmt::format(
      "Focus on lane {} of sub-group {}: work-item ({},{},{}), local id ({},{},{}){}\n", lane, sg_,
      gid[0], gid[1], gid[2], lid[0], lid[1], lid[2], sg.mask.test(lane) ? "" : " (inactive here)");
}

// Global id -> work-group, sub-group and lane (local ids are linearised x first and cut
// into sub-groups in order, as src/exec/launch.cc does).
void DebugSession::selectWorkItem(const std::array<uint64_t, 3>& gid) {
  const NDRange& r = state_->range();
  std::array<uint64_t, 3> group{}, lid{};
  for (int d = 0; d < 3; ++d) {
    if (gid[d] < r.offset[d] || gid[d] - r.offset[d] >= r.global[d])
      throw DebugError(
          fmt::format("work-item ({},{},{}) is outside the NDRange (global {},{},{} "
                      "from offset {},{},{})",
                      gid[0], gid[1], gid[2], r.global[0], r.global[1], r.global[2], r.offset[0],
                      r.offset[1], r.offset[2]));
    group[d] = (gid[d] - r.offset[d]) / r.local[d];
    lid[d] = (gid[d] - r.offset[d]) % r.local[d];
  }
  selectWorkGroup(group, false);
  const auto& local = group_->slot->workGroup().localSize;
  const uint64_t linear = lid[0] + lid[1] * local[0] + lid[2] * local[0] * local[1];
  for (size_t i = 0; i < group_->slot->count(); ++i) {
    const SubGroup& sg = group_->slot->subGroups()[i];
    if (linear >= sg.firstLocalLinear && linear < uint64_t(sg.firstLocalLinear) + sg.liveLanes) {
      selectSubGroup(i, false);
      printLocation();
      return selectLane(static_cast<uint32_t>(linear - sg.firstLocalLinear));
    }
  }
  throw DebugError("the work-item has no sub-group");
}

void DebugSession::selectFrame(size_t depth) {
  SubGroup& sg = subGroup();
  frameScope(sg, depth);  // throws for a frame that does not exist
  frame_ = depth;
  const uint32_t pc = framePc(sg, depth);
  out_ << fmt::format("#{}  {} at {}\n", depth,
                      symbols_->functionName(sg.frames[sg.frames.size() - 1 - depth].function),
                      symbols_->describe(pc));
}

uint32_t DebugSession::currentLane() {
  const SubGroup& sg = subGroup();
  if (focus_ && *focus_ < sg.liveLanes) return *focus_;
  return sg.mask.any() ? sg.mask.first() : 0;
}

ExprScope DebugSession::scope(bool perLane) {
  SubGroup& sg = subGroup();
  std::optional<FrameScope> frame;
  if (frame_ >= std::max<size_t>(sg.frames.size(), 1)) frame_ = 0;
  if (frame_) frame = frameScope(sg, frame_);
  std::optional<uint32_t> lane;
  if (!perLane) lane = currentLane();
  return ExprScope{*symbols_, sg, frame, lane, [this](uint64_t p) { return pointerName(p); }};
}

std::string DebugSession::valueText(const Expression& e, const ValueStyle& style) {
  const ExprScope s = scope(false);
  std::optional<uint32_t> focus;
  if (focus_ && *focus_ < s.sg.liveLanes) focus = focus_;
  return formatExpr(evaluate(e, s), symbols_->module(), s.sg, style, s.namer, focus);
}

void DebugSession::setVariable(const Expression& target, const Expression& value, bool allLanes) {
  const ExprScope s = scope(allLanes);
  const ExprValue t = evaluate(target, s);
  const ExprValue v = evaluate(value, s);
  LaneMask lanes;
  if (allLanes)
    lanes = s.sg.mask;
  else
    lanes.set(currentLane());
  assign(t, v, lanes, s.sg, symbols_->module());
  // What it holds now, read back.
  out_ << formatExpr(evaluate(target, scope(false)), symbols_->module(), s.sg, {}, s.namer,
                     std::nullopt)
       << '\n';
}

void DebugSession::addDisplay(const Expression& e, const ValueStyle& style) {
  displays_.push_back(Display{nextDisplay_++, e, style});
  if (!finished_ && group_->slot) {
    const Display& d = displays_.back();
    try {
      out_ << fmt::format("{}: {}\n", d.number, valueText(d.expression, d.style));
    } catch (const DebugError& error) {
      out_ << fmt::format("{}: {}: {}\n", d.number, d.expression.text(), error.what());
    }
  }
}

void DebugSession::deleteDisplay(int number) {
  if (number == 0) {
    displays_.clear();
    return;
  }
  if (!std::erase_if(displays_, [&](const Display& d) { return d.number == number; }))
    throw DebugError(fmt::format("no display number {}", number));
}

void DebugSession::showDisplays() {
  if (!group_->slot || subGroup().state == SubGroupState::Done) return;
  for (const Display& d : displays_) {
    try {
      out_ << fmt::format("{}: {}\n", d.number, valueText(d.expression, d.style));
    } catch (const DebugError& error) {
      out_ << fmt::format("{}: {}: {}\n", d.number, d.expression.text(), error.what());
    }
  }
}

// `until`: back in a caller, done, at one of `pcs` in this frame, or (no pcs) at a later
// line of this frame than `line`.
bool DebugSession::untilDone(const SubGroup& sg, size_t depth, const spirv::SourceLine& line,
                             const std::vector<uint32_t>& pcs) const {
  if (sg.state == SubGroupState::Done || sg.frames.size() < depth) return true;
  if (sg.frames.size() > depth) return false;
  if (!pcs.empty()) return std::find(pcs.begin(), pcs.end(), sg.pc) != pcs.end();
  const spirv::SourceLine now = symbols_->lineAt(sg.pc);
  if (!line || !symbols_->hasLineInfo()) return true;
  return now && now.file == line.file && now.line > line.line;
}

void DebugSession::until(std::string_view location) {
  if (!canRun()) return;
  const SubGroup& start = subGroup();
  if (start.state == SubGroupState::Done) return endCommand();
  std::vector<uint32_t> pcs;
  if (!location.empty()) {
    pcs = symbols_->resolve(location, symbols_->lineAt(locationPc(start)).file).pcs;
    const uint32_t function = symbols_->functionAt(locationPc(start));
    std::erase_if(pcs, [&](uint32_t pc) { return symbols_->functionAt(pc) != function; });
    if (pcs.empty())
      throw DebugError(
          fmt::format("until: {} is not in the current function (use break and "
                      "continue)",
                      location));
  }
  const size_t depth = start.frames.size();
  const spirv::SourceLine line = symbols_->lineAt(locationPc(start));
  resume();
  do {
    if (advanceCurrent()) return endCommand();
  } while (!untilDone(subGroup(), depth, line, pcs));
  endCommand();
}

}  // namespace spvsim::debugger
