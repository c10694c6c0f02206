#include "src/debugger/debug_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "src/exec/address32.h"
#include "src/values/scalar_codec.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {
namespace {

using values::formatElement;
using values::parseUnsigned;
using values::trim;

std::string groupId(const std::array<uint64_t, 3>& id) {
  return fmt::format("({},{},{})", id[0], id[1], id[2]);
}

std::string sizes(const std::array<uint64_t, 3>& v, uint32_t dims) {
  std::string out = std::to_string(v[0]);
  for (uint32_t d = 1; d < dims; ++d) out += "," + std::to_string(v[d]);
  return out;
}

// "argument 2 (dst)" -> "dst"; "variable %38" -> "%38"; "local variable k.tile" -> "k.tile".
std::string shortRegionName(const std::string& name) {
  if (name.rfind("argument ", 0) == 0) {
    const size_t open = name.find('('), close = name.rfind(')');
    if (open != std::string::npos && close != std::string::npos && close > open)
      return name.substr(open + 1, close - open - 1);
  }
  for (const char* prefix :
       {"program variable ", "program constant ", "local variable ", "variable "})
    if (name.rfind(prefix, 0) == 0) return name.substr(std::strlen(prefix));
  return name;
}

}  // namespace

// The launch options are run's: the same schedule and the same checkers, which observe
// the work-groups through the LaunchState and WorkGroupSlot as they do in a launch.
DebugSession::DebugSession(DebugLaunch launch, std::ostream& out)
    : launch_(std::move(launch)), out_(out) {
  launch_.options.builtinStorage = true;  // built-in variables print from private memory
  for (const DebugArgument& a : launch_.args)
    initialBuffers_.emplace_back(a.bytes, a.bytes ? a.bytes + a.count * a.type.size() : a.bytes);
  for (const auto& g : launch_.program->globalVariables()) initialGlobals_.push_back(g.storage);
  launchFresh();
}

// A new LaunchState over the arguments: the launch from its start.
void DebugSession::launchFresh() {
  groups_.clear();
  group_ = nullptr;
  symbols_.reset();
  state_ = std::make_unique<LaunchState>(*launch_.program, launch_.kernel, launch_.range,
                                         launch_.bindings, launch_.options);
  symbols_ = std::make_unique<Symbols>(launch_.program->module(), state_->kernel());
  symbols_->setSourceCopies(launch_.sources);
  finishedGroups_.reset(state_->groupCount());
  releasedDiagnostics_.clear();
  released_ = 0;
  finished_ = aborted_ = false;
  focus_.reset();
  frame_ = 0;
  enterGroup(startGroup(0));
}

void DebugSession::restart() {
  // Only buffers are copied at the start; other storage the kernel may change is not.
  for (const ArgBinding& b : launch_.bindings)
    if (b.kind == ArgBinding::Kind::Image || b.kind == ArgBinding::Kind::Pipe ||
        b.kind == ArgBinding::Kind::SvmPointer)
      throw DebugError(
          "restart: the launch has image, pipe or SVM arguments, whose contents the "
          "debugger cannot put back; start spvsim debug again");
  for (size_t i = 0; i < launch_.args.size(); ++i)
    if (launch_.args[i].bytes)
      std::copy(initialBuffers_[i].begin(), initialBuffers_[i].end(), launch_.args[i].bytes);
  // Program-scope variables persist across launches of a program: put them back too.
  auto& globals = launch_.program->globalVariables();
  for (size_t i = 0; i < globals.size(); ++i)
    std::copy(initialGlobals_[i].begin(), initialGlobals_[i].end(), globals[i].storage.begin());
  std::vector<Breakpoint> kept;
  for (Breakpoint& b : breakpoints_) {
    if (b.onValue) {
      out_ << fmt::format("Watchpoint {} ({}) deleted: its variable belongs to the old launch.\n",
                          b.number, b.what);
      continue;
    }
    if (b.watch)
      b.snapshot.assign(launch_.args[b.arg].bytes + b.offset,
                        launch_.args[b.arg].bytes + b.offset + b.bytes);
    b.hits = 0;
    kept.push_back(std::move(b));
  }
  breakpoints_ = std::move(kept);
  launchFresh();
  rebuildSites();
  out_ << "Restarted: the kernel runs again from its start (buffers as given; breakpoints and "
          "displays kept).\n";
  start();
}

DebugSession::~DebugSession() = default;

GroupRun& DebugSession::startGroup(uint64_t linear) {
  auto g = std::make_unique<GroupRun>();
  g->linear = linear;
  g->id = state_->groupId(linear);
  g->slot = std::make_unique<WorkGroupSlot>(*state_);
  g->slot->start(linear, &g->diagnostics, &g->printf);
  g->run =
      std::make_unique<WorkGroupRun>(g->slot->workGroup(), g->slot->subGroups(), g->slot->count());
  if (state_->residentGroups()) g->run->deferDeadlocks();  // the others may release it
  g->reportedAt.assign(g->slot->count(), ~0ull);
  GroupRun& ref = *g;
  groups_[linear] = std::move(g);
  return ref;
}

void DebugSession::start() {
  const NDRange& r = state_->range();
  out_ << fmt::format(
      "Kernel {}: global {}, local {}: {} work-group{}, sub-group size {}, {} sub-group{} per "
      "work-group.\n",
      launch_.kernel.name(), sizes(r.global, r.dims), sizes(r.local, r.dims), state_->groupCount(),
      state_->groupCount() == 1 ? "" : "s", state_->subGroupSize(), state_->maxSubGroups(),
      state_->maxSubGroups() == 1 ? "" : "s");
  if (!symbols_->hasLineInfo()) {
    out_ << "The module has no source lines: locations are SPIR-V instructions.\n";
    if (const files::SourceCopy* program = symbols_->sourceCopies().program())
      out_ << fmt::format(
          "The application built it without -g; the bundle carries the source it compiled "
          "(`list {}:1`).\n",
          program->shownAs);
  }
  out_ << "Stopped at the kernel's entry. Type `help` for the commands.\n";
  printLocation();
}

// Focus on `g` at the sub-group whose turn it is (the scheduler's first pick in a new
// work-group), so that stepping it follows the schedule.
void DebugSession::enterGroup(GroupRun& g) {
  group_ = &g;
  const std::optional<size_t> turn = g.slot ? g.run->turn() : std::nullopt;
  sg_ = turn ? *turn : 0;
}

SubGroup& DebugSession::subGroup() {
  if (!group_->slot)
    throw DebugError(
        fmt::format("work-group {} has finished; its sub-groups are gone", groupId(group_->id)));
  return group_->slot->subGroups()[sg_];
}

std::string DebugSession::groupText(const GroupRun& g) const {
  return "work-group " + groupId(g.id);
}

void DebugSession::printLocation(const std::string& prefix) {
  out_ << prefix;
  if (!group_->slot) {
    out_ << groupText(*group_) << " has finished\n";
    return;
  }
  const SubGroup& sg = subGroup();
  const std::string head = fmt::format("{} sub-group {}", groupText(*group_), sg_);
  switch (sg.state) {
    case SubGroupState::Running:
      out_ << head << " at " << symbols_->describe(sg.pc) << '\n'
           << formatActiveMask(sg.mask, sg.liveLanes) << '\n';
      return;
    case SubGroupState::AtBarrier:
      out_ << head << " waits at a work-group barrier: " << symbols_->describe(sg.barrierPc) << '\n'
           << formatActiveMask(sg.mask, sg.liveLanes) << '\n';
      return;
    case SubGroupState::Done:
      break;
  }
  out_ << head << " has finished\n";
  const auto& sgs = group_->slot->subGroups();
  for (size_t i = 0; i < group_->slot->count(); ++i)
    if (sgs[i].state != SubGroupState::Done) return;
  if (!finished_)
    out_ << fmt::format("All sub-groups of {} have finished; `continue` {}.\n", groupText(*group_),
                        moreGroupsToRun() ? "goes on with the next work-group" : "ends the kernel");
}

bool DebugSession::canRun() {
  lastStop_ = StopReason::None;
  lastHits_.clear();
  lastStopText_.clear();
  lastErrorLine_.clear();
  if (finished_) {
    out_ << "The kernel has finished; nothing is left to run (`quit` ends the session).\n";
    return false;
  }
  return true;
}

void DebugSession::resume() {
  frame_ = 0;
  if (group_->slot) group_->reportedAt[sg_] = subGroup().steps;
}

// Ctrl-C: the front end's handler set the flag; reading it clears it.
bool DebugSession::interrupted() {
  if (!interrupt_ || !*interrupt_) return false;
  *interrupt_ = 0;
  lastStop_ = StopReason::Interrupted;
  out_ << "Interrupted.\n";
  return true;
}

void DebugSession::flushPrintf(GroupRun& g) {
  if (g.printf.size() <= g.printfShown) return;
  out_ << std::string_view(g.printf).substr(g.printfShown);
  g.printfShown = g.printf.size();
}

// One SPIR-V instruction of sub-group `index`: the Insts lowered from it run back to back
// (odd-width integer fix-ups share the instruction's `src`); with `inTurnOnly` only
// while it holds the scheduler's turn, so that `continue` switches where run would.
DebugSession::Stop DebugSession::execute(GroupRun& g, size_t index, bool inTurnOnly) {
  SubGroup& sg = g.slot->subGroups()[index];
  uint32_t pc = sg.pc;
  const uint32_t src = sg.code[pc].src;
  g.run->step(index);
  while (sg.state == SubGroupState::Running && sg.pc == pc + 1 && sg.code[sg.pc].src == src &&
         !symbols_->isFunctionExit(sg.pc) && (!inTurnOnly || g.run->holdsTurn(index))) {
    pc = sg.pc;
    g.run->step(index);
  }
  return afterStep(g, sg);
}

// The instruction budget, deadlocks and fatal errors are the scheduler's: they arrive
// as diagnostics and abort the work-group.
DebugSession::Stop DebugSession::afterStep(GroupRun& g, SubGroup& sg) {
  flushPrintf(g);
  Stop s = checkDiagnostics(g);
  if (g.slot->workGroup().aborted) {
    aborted_ = true;
    if (!s) s.kind = Stop::Kind::Error;
  }
  if (!s && hasWatchpoints_) s = checkWatchpoints(sg);
  return s;
}

DebugSession::Stop DebugSession::checkDiagnostics(GroupRun& g) {
  Stop s;
  for (; g.diagnosticsShown < g.diagnostics.size(); ++g.diagnosticsShown) {
    const Diagnostic& d = g.diagnostics[g.diagnosticsShown];
    const std::string text = formatText(d);  // one line, no newline
    out_ << text << '\n';
    if (d.severity == Severity::Error) {
      s.kind = Stop::Kind::Error;
      if (lastStopText_.empty()) {
        lastStopText_ = text;
        lastErrorLine_ = d.line;
      }
      if (d.subGroup && *d.subGroup < g.slot->count()) sg_ = *d.subGroup;
    }
  }
  if (s) {
    lastStop_ = StopReason::Error;
    // The faulting instruction has run (its access performed or skipped, as reported):
    // the sub-group stands after it, so say where the fault was.
    const std::string at = lastErrorLine_.substr(lastErrorLine_.find_last_of('/') + 1);
    out_ << (at.empty()
                 ? std::string("Stopped on the error.\n")
                 : fmt::format("Stopped on the error at {}; the sub-group is past it.\n", at));
  }
  return s;
}

DebugSession::Stop DebugSession::checkWatchpoints(SubGroup& sg) {
  Stop s;
  for (Breakpoint& w : breakpoints_) {
    if (!w.watch) continue;
    if (w.onValue) {
      if (checkValueWatch(w, sg)) s.kind = Stop::Kind::Watchpoint;
      continue;
    }
    const DebugArgument& arg = launch_.args[w.arg];
    const uint8_t* now = arg.bytes + w.offset;
    if (std::memcmp(now, w.snapshot.data(), w.bytes) == 0) continue;
    ++w.hits;
    const uint64_t size = arg.type.size();
    const std::string name = w.what.substr(0, w.what.find('['));
    out_ << fmt::format("Watchpoint {}: {} changed by {} sub-group {}\n", w.number, w.what,
                        groupText(*group_), sg.id);
    for (uint64_t e = 0; e < w.bytes / size; ++e) {
      const uint8_t* before = w.snapshot.data() + e * size;
      if (std::memcmp(before, now + e * size, size) == 0) continue;
      out_ << fmt::format("  {}[{}]: {} -> {}\n", name, w.offset / size + e,
                          formatElement(arg.type, before), formatElement(arg.type, now + e * size));
    }
    std::memcpy(w.snapshot.data(), now, w.bytes);
    s.kind = Stop::Kind::Watchpoint;
  }
  if (std::erase_if(breakpoints_, [](const Breakpoint& b) { return b.number < 0; })) rebuildSites();
  if (s) lastStop_ = StopReason::Watchpoint;
  return s;
}

bool DebugSession::breakpointHit(GroupRun& g, size_t index) {
  SubGroup& sg = g.slot->subGroups()[index];
  if (sg.pc >= sites_.size() || !sites_[sg.pc] || g.reportedAt[index] == sg.steps) return false;
  std::string hits;
  for (Breakpoint& bp : breakpoints_) {
    if (bp.watch ||
        std::find(bp.location.pcs.begin(), bp.location.pcs.end(), sg.pc) == bp.location.pcs.end())
      continue;
    std::string detail;
    if (bp.condition) {
      try {
        const ExprScope scope{*symbols_, sg, std::nullopt, std::nullopt,
                              [this](uint64_t p) { return pointerName(p); }};
        const LaneMask lanes =
            conditionLanes(evaluate(*bp.condition, scope), symbols_->module(), sg);
        if (lanes.none()) continue;
        detail = fmt::format(" ({} holds in lane{} {})", bp.condition->text(),
                             lanes.count() == 1 ? "" : "s", formatLaneList(lanes));
      } catch (const DebugError& e) {
        detail = fmt::format(" (cannot evaluate its condition: {})", e.what());
      }
    }
    ++bp.hits;
    lastHits_.push_back(bp.number);
    hits +=
        fmt::format("{}{}reakpoint {}, {}{}", hits.empty() ? "" : "; ",
                    bp.temporary ? "Temporary b" : "B", bp.number, bp.location.description, detail);
    if (bp.temporary) bp.number = -bp.number;  // deleted below, after the report
  }
  if (hits.empty()) return false;
  lastStopText_ = hits;
  if (std::erase_if(breakpoints_, [](const Breakpoint& b) { return b.number < 0; })) rebuildSites();
  g.reportedAt[index] = sg.steps;
  sg_ = index;
  lastStop_ = StopReason::Breakpoint;
  out_ << hits << '\n';
  return true;
}

// Advances the work-group's scheduler one instruction at a time until `done`, a stop,
// or the end of the work-group.
DebugSession::Stop DebugSession::runGroup(GroupRun& g, const std::function<bool()>& done) {
  for (;;) {
    if (done()) return {};
    if (interrupted()) return Stop{Stop::Kind::Interrupted};
    const std::optional<size_t> turn = g.run->turn();
    if (!turn) return g.run->over() ? groupOver(g) : Stop{Stop::Kind::Waits};
    if (breakpointHit(g, *turn)) return Stop{Stop::Kind::Breakpoint};
    const Stop s = execute(g, *turn, true);
    if (s) {
      if (s.kind != Stop::Kind::Error) sg_ = *turn;
      return s;
    }
  }
}

// Every sub-group is done, or the scheduler ended the work-group with an error
// (deadlock, barrier divergence). Checkers report what they held back, as in a launch.
DebugSession::Stop DebugSession::groupOver(GroupRun& g) {
  if (!g.finished) g.slot->finish();
  g.finished = true;
  if (g.slot->workGroup().aborted) {
    aborted_ = true;
    const Stop s = checkDiagnostics(g);
    return s ? s : Stop{Stop::Kind::Error};
  }
  finishedGroups_.mark(g.linear);
  if (Stop s = checkDiagnostics(g)) return s;
  return Stop{Stop::Kind::GroupFinished};
}

DebugSession::Stop DebugSession::waitForRelease() {
  const size_t me = sg_;
  GroupRun& g = *group_;
  out_ << fmt::format(
      "sub-group {} waits at a work-group barrier: running the other sub-groups "
      "until it is released\n",
      me);
  const Stop s =
      runGroup(g, [&] { return g.slot->subGroups()[me].state == SubGroupState::Running; });
  if (!s) sg_ = me;
  if (s.kind == Stop::Kind::Waits)
    out_ << fmt::format(
        "{} waits for the other resident work-groups (--forward-progress occupancy): "
        "`continue` runs them in turns\n",
        groupText(g));
  return s;
}

// One instruction of the current sub-group (a barrier it waits at: the other sub-groups
// run until it is released), stopping first at a breakpoint not yet reported there.
DebugSession::Stop DebugSession::advanceCurrent() {
  SubGroup& sg = subGroup();
  switch (sg.state) {
    case SubGroupState::Done:
      return Stop{Stop::Kind::Done};
    case SubGroupState::AtBarrier:
      return waitForRelease();
    case SubGroupState::Running:
      break;
  }
  if (breakpointHit(*group_, sg_)) return Stop{Stop::Kind::Breakpoint};
  if (interrupted()) return Stop{Stop::Kind::Interrupted};
  return execute(*group_, sg_, false);
}

// Every execution command ends here: where the current sub-group stands, and the end
// of the launch after a fatal error.
void DebugSession::endCommand() {
  printLocation();
  showDisplays();
  if (aborted_ && !finished_) {
    out_ << "The error is fatal: the launch ends here, as it does in `spvsim run`.\n";
    finishKernel();
  }
}

void DebugSession::step(uint64_t count) {
  if (!canRun()) return;
  for (uint64_t k = 0; k < count; ++k) {
    resume();  // `step` executes the current instruction even at a breakpoint
    const Stop s = advanceCurrent();
    if (s) return endCommand();
  }
  endCommand();
}

// Whether `next` is done: back in a caller, or at another source line of this frame.
// From an instruction without a line (a prologue, clang's kernel wrapper) it goes to the
// first one that has a line, into calls too; without line information at all it runs
// one instruction, over calls.
bool DebugSession::nextDone(const SubGroup& sg, size_t depth, const spirv::SourceLine& line) const {
  if (sg.state == SubGroupState::Done || sg.frames.size() < depth) return true;
  const spirv::SourceLine now = symbols_->lineAt(sg.pc);
  if (!line && symbols_->hasLineInfo()) return bool(now);
  if (sg.frames.size() > depth) return false;
  if (!symbols_->hasLineInfo()) return true;
  return now && (now.file != line.file || now.line != line.line);
}

// Runs the current sub-group from its line until `done` holds; false when it stopped
// before (finished, a breakpoint, an error).
bool DebugSession::runLine(LineDone done) {
  const SubGroup& start = subGroup();
  if (start.state == SubGroupState::Done) return false;
  const size_t depth = start.frames.size();
  const spirv::SourceLine line = symbols_->lineAt(locationPc(start));
  resume();
  do {
    if (advanceCurrent()) return false;
  } while (!(this->*done)(subGroup(), depth, line));
  return true;
}

void DebugSession::next(uint64_t count) {
  if (!canRun()) return;
  for (uint64_t k = 0; k < count && runLine(&DebugSession::nextDone); ++k) {
  }
  endCommand();
}

// Whether `stepLine` is done: at a line (any line without line information) that is
// another line or in another frame, or the sub-group finished.
bool DebugSession::stepLineDone(const SubGroup& sg, size_t depth,
                                const spirv::SourceLine& line) const {
  if (sg.state == SubGroupState::Done || !symbols_->hasLineInfo()) return true;
  const spirv::SourceLine now = symbols_->lineAt(sg.pc);
  if (!now) return false;
  return sg.frames.size() != depth || now.file != line.file || now.line != line.line;
}

void DebugSession::stepLine() {
  if (!canRun()) return;
  runLine(&DebugSession::stepLineDone);
  endCommand();
}

void DebugSession::finish() {
  if (!canRun()) return;
  const SubGroup& start = subGroup();
  if (start.state == SubGroupState::Done) return endCommand();
  if (start.frames.size() <= 1)
    throw DebugError("the kernel's entry function has no caller to return to; use `continue`");
  const size_t depth = start.frames.size();
  const uint32_t function = start.frames.back().function;
  const uint32_t resultReg = start.frames.back().resultReg;
  out_ << "Run till exit from " << symbols_->functionName(function) << '\n';
  resume();
  for (;;) {
    const Stop s = advanceCurrent();
    if (s) return endCommand();
    const SubGroup& sg = subGroup();
    if (sg.state == SubGroupState::Done || sg.frames.size() < depth) break;
  }
  endCommand();
  if (symbols_->kernel().functions[function].returnRegSize == 0) return;
  for (const ValueSlot& v : symbols_->kernel().values)
    if (v.reg == resultReg) {
      ValueRef ref;
      ref.byId = true;
      ref.id = v.id;
      const ValueReader reader(*symbols_, subGroup());
      out_ << "Value returned: "
           << reader.format(reader.read(ref), std::nullopt, {},
                            [this](uint64_t p) { return pointerName(p); })
           << '\n';
      return;
    }
}

void DebugSession::finishSubGroup() {
  if (!canRun()) return;
  if (subGroup().state == SubGroupState::Done) return endCommand();
  out_ << "Run till this sub-group finishes the kernel\n";
  resume();
  for (;;) {
    if (const Stop s = advanceCurrent()) return endCommand();
    if (subGroup().state == SubGroupState::Done) break;
  }
  endCommand();
}

void DebugSession::continueRun() {
  if (!canRun()) return;
  resume();
  if (state_->residentGroups()) return continueResident();
  for (;;) {
    const Stop s = runGroup(*group_, [] { return false; });
    if (s.kind != Stop::Kind::GroupFinished) return endCommand();
    // The work-group is done: go on with the lowest one not finished.
    const uint64_t next = finishedGroups_.firstUnfinished();
    if (next == state_->groupCount()) return finishKernel();
    GroupRun& previous = *group_;
    auto it = groups_.find(next);
    enterGroup(it != groups_.end() ? *it->second : startGroup(next));
    release(previous);
  }
}

// A finished work-group left behind: only its diagnostics are kept, for the summary.
void DebugSession::release(GroupRun& g) {
  releasedDiagnostics_.insert(releasedDiagnostics_.end(), g.diagnostics.begin(),
                              g.diagnostics.end());
  ++released_;
  groups_.erase(g.linear);
}

bool DebugSession::moreGroupsToRun() const {
  const uint64_t others = finishedGroups_.finished(group_->linear) ? 0 : 1;
  return finishedGroups_.unfinished() > others;
}

void DebugSession::finishKernel() {
  finished_ = true;
  // The kernel's end: every store the relaxed memory model buffered reaches memory.
  if (RelaxedMemory* relaxed = state_->relaxedMemory()) relaxed->drainAll();
  std::vector<Diagnostic> all = releasedDiagnostics_;
  for (const auto& [linear, g] : groups_)
    all.insert(all.end(), g->diagnostics.begin(), g->diagnostics.end());
  all = foldDiagnostics(std::move(all));
  if (aborted_)
    out_ << fmt::format("Kernel {} stopped by a fatal error.\n", launch_.kernel.name());
  else
    out_ << fmt::format("Kernel {} finished: all {} work-group{} ran.\n", launch_.kernel.name(),
                        state_->groupCount(), state_->groupCount() == 1 ? "" : "s");
  if (all.empty()) out_ << "No diagnostics.\n";
  for (const Diagnostic& d : all) {
    const std::string text = formatText(d);  // one line, no newline
    out_ << text << '\n';
  }
  if (launch_.results) out_ << launch_.results();
}

void DebugSession::selectSubGroup(uint64_t index, bool show) {
  if (!group_->slot)
    throw DebugError(fmt::format("{} has finished; its sub-groups are gone", groupText(*group_)));
  if (index >= group_->slot->count())
    throw DebugError(
        fmt::format("{} has sub-groups 0-{}", groupText(*group_), group_->slot->count() - 1));
  sg_ = index;
  frame_ = 0;
  if (show) printLocation();
}

void DebugSession::selectWorkGroup(const std::array<uint64_t, 3>& id, bool show) {
  const auto& n = state_->context().numGroups;
  for (int d = 0; d < 3; ++d)
    if (id[d] >= n[d])
      throw DebugError(
          fmt::format("work-group {} does not exist: the launch has {}x{}x{} "
                      "work-groups (ids from 0)",
                      groupId(id), n[0], n[1], n[2]));
  const uint64_t linear = id[0] + id[1] * n[0] + id[2] * n[0] * n[1];
  auto it = groups_.find(linear);
  if ((it == groups_.end() && finishedGroups_.finished(linear)) ||
      (it != groups_.end() && !it->second->slot))
    throw DebugError(
        fmt::format("work-group {} has finished; its sub-groups are gone", groupId(id)));
  if (it == groups_.end()) {
    checkOneAtATime(id);
    group_ = &startGroup(linear);
  } else {
    group_ = it->second.get();
  }
  sg_ = 0;
  frame_ = 0;
  if (show) printLocation();
}

// A serial observer follows one work-group from its start to its end
// before the next (as a launch with it runs them): another may start only once the ones
// started have finished.
void DebugSession::checkOneAtATime(const std::array<uint64_t, 3>& id) const {
  if (!state_->serial()) return;
  for (const auto& [linear, g] : groups_)
    if (!g->finished)
      throw DebugError(fmt::format(
          "with --check-races work-groups run one after another: work-group {} cannot start "
          "before {} has finished (`continue` runs it to its end)",
          groupId(id), groupText(*g)));
}

void DebugSession::rebuildSites() {
  sites_.assign(symbols_->kernel().code.size(), 0);
  hasWatchpoints_ = false;
  for (const Breakpoint& bp : breakpoints_) {
    hasWatchpoints_ |= bp.watch;
    for (uint32_t pc : bp.location.pcs) sites_[pc] = 1;
  }
}

void DebugSession::addBreakpoint(std::string_view location, std::string_view condition,
                                 bool temporary) {
  Breakpoint bp;
  bp.temporary = temporary;
  spirv::Id file = 0;
  if (group_->slot) file = symbols_->lineAt(locationPc(subGroup())).file;
  bp.location = symbols_->resolve(location, file);
  if (!trim(condition).empty()) {
    try {
      bp.condition = Expression::parse(condition);
    } catch (const DebugError& e) {
      throw DebugError(fmt::format("condition {}", e.what()));
    }
  }
  bp.number = nextNumber_++;
  if (!bp.location.note.empty()) out_ << bp.location.note << '\n';
  out_ << fmt::format("{}reakpoint {} at {}", temporary ? "Temporary b" : "B", bp.number,
                      bp.location.description);
  if (bp.location.pcs.size() > 1)
    out_ << fmt::format(" ({} locations)", bp.location.pcs.size());
  else
    out_ << ": " << symbols_->instructionText(bp.location.pcs[0]);
  if (bp.condition) out_ << " if " << bp.condition->text();
  out_ << '\n';
  breakpoints_.push_back(std::move(bp));
  rebuildSites();
}

// A buffer argument's elements (NAME, NAME[I], NAME[I:J]) are watched in the buffer, in
// every work-group; anything else is an expression naming a variable or memory element.
void DebugSession::addWatchpoint(std::string_view what) {
  const auto& params = state_->kernel().entry->signature.params;
  const std::string_view name = trim(what.substr(0, what.find('[')));
  size_t arg = params.size();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name || fmt::format("arg{}", i) == name) arg = i;
  if (arg == params.size() || launch_.args[arg].kind != DebugArgument::Kind::Buffer)
    return addValueWatchpoint(what);
  // out[I:J] is always a range; out[i] with a name inside is an expression.
  ElementRange range;
  try {
    range = parseElementRange(what);
  } catch (const DebugError&) {
    if (what.find(':') != std::string_view::npos) throw;
    return addValueWatchpoint(what);
  }
  const DebugArgument& a = launch_.args[arg];
  const auto [first, end] = elementBounds(range, a.count, a.count);
  Breakpoint w;
  w.watch = true;
  w.arg = arg;
  w.offset = first * a.type.size();
  w.bytes = (end - first) * a.type.size();
  w.what = end == first + 1 ? fmt::format("{}[{}]", range.name, first)
                            : fmt::format("{}[{}:{}]", range.name, first, end);
  w.snapshot.assign(a.bytes + w.offset, a.bytes + w.offset + w.bytes);
  w.number = nextNumber_++;
  out_ << fmt::format("Watchpoint {}: {} ({} {} element{}, {} bytes)\n", w.number, w.what,
                      end - first, a.type.name(), end - first == 1 ? "" : "s", w.bytes);
  breakpoints_.push_back(std::move(w));
  rebuildSites();
}

void DebugSession::deleteBreakpoint(int number) {
  auto it = std::find_if(breakpoints_.begin(), breakpoints_.end(),
                         [&](const Breakpoint& b) { return b.number == number; });
  if (it == breakpoints_.end())
    throw DebugError(fmt::format("no breakpoint or watchpoint number {}", number));
  breakpoints_.erase(it);
  rebuildSites();
}

void DebugSession::deleteAllBreakpoints() {
  breakpoints_.clear();
  rebuildSites();
}

std::string DebugSession::pointerName(uint64_t p) const {
  // A Physical32 module's pointers show as their 32-bit addresses (src/exec/address32.h).
  // `p` is that address, or a pointer in its 8-byte encoding (every encoded pointer to an
  // object is above 2^32).
  if (const Address32Map* map = state_->memory().addresses32) {
    const bool encoded = p > 0xffffffffu;
    const uint32_t address = encoded ? map->toAddress(p).value : uint32_t(p);
    const uint64_t pointer = encoded ? p : map->toPointer(address);
    if (pointerSpace(pointer) == Space::Invalid) return fmt::format("0x{:08x}", address);
    return fmt::format("0x{:08x} ({})", address, objectName(pointer));
  }
  return objectName(p);
}

std::string DebugSession::objectName(uint64_t p) const {
  const Space s = pointerSpace(p);
  if (p == 0 || s == Space::Invalid) return formatRawPointer(p);
  const std::vector<Region>& table = state_->memory().regions(s);
  const uint64_t region = pointerRegion(p);
  if (region == 0 || region >= table.size()) return formatRawPointer(p);
  std::string name = shortRegionName(table[region].name);
  if (s == Space::Private && !name.empty() && name[0] == '%') {
    uint64_t id = 0;
    if (parseUnsigned(std::string_view(name).substr(1), id))
      for (const ValueName& n : symbols_->kernel().names)
        if (n.address && n.id == id) name = n.name;
  }
  return fmt::format("{}:{}+{}", spaceName(s), name, pointerOffset(p));
}

int DebugSession::exitStatus() const {
  if (aborted_ || hasErrors(releasedDiagnostics_)) return 2;
  for (const auto& [linear, g] : groups_)
    if (hasErrors(g->diagnostics)) return 2;
  return 0;
}

}  // namespace spvsim::debugger
