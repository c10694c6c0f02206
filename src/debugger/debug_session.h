// The engine of `spvsim debug`: one launch stepped by hand. Each work-group visited has
// its own WorkGroupSlot (registers, private and local memory) and WorkGroupRun, the
// scheduler `spvsim run` uses (src/exec/workgroup.h): `continue` advances that scheduler
// one instruction at a time, checking breakpoints before and watchpoints and new error
// diagnostics (checkers' included) after each, so that it interleaves sub-groups as
// `spvsim run` does with the same options and seed, and reports its deadlocks; then it
// moves on to the next work-group. `step`, `next` and `finish` run the current
// sub-group alone (in the scheduler's turn while it holds it, else out of turn).
#pragma once

#include <array>
#include <csignal>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "src/debugger/debug_expr.h"
#include "src/debugger/debug_launch.h"
#include "src/debugger/debug_symbols.h"
#include "src/debugger/debug_values.h"
#include "src/debugger/finished_groups.h"
#include "src/exec/launch.h"
#include "src/exec/workgroup.h"

namespace spvsim::debugger {

// One work-group the session has started.
struct GroupRun {
  uint64_t linear = 0;
  std::array<uint64_t, 3> id{0, 0, 0};
  std::unique_ptr<WorkGroupSlot> slot;  // released once finished and left
  std::unique_ptr<WorkGroupRun> run;    // its scheduler (over slot)
  std::vector<Diagnostic> diagnostics;
  std::string printf;
  size_t printfShown = 0;
  size_t diagnosticsShown = 0;
  // Per sub-group: its step count when a breakpoint was last reported for it (or when
  // it was resumed), so that resuming does not stop again at the same place.
  std::vector<uint64_t> reportedAt;
  bool finished = false;
  // --forward-progress occupancy: every sub-group waits for what another resident
  // work-group may write (WorkGroupRun::deferDeadlocks); cleared when one writes.
  bool waits = false;
};

struct Breakpoint {
  int number = 0;
  bool watch = false;
  bool temporary = false;               // tbreak: deleted when it stops
  CodeLocation location;                // breakpoints
  std::optional<Expression> condition;  // breakpoints
  // Watchpoints: bytes [offset, offset + bytes) of buffer argument `arg`.
  size_t arg = 0;
  uint64_t offset = 0, bytes = 0;
  std::string what;  // "out[0:4]"
  std::vector<uint8_t> snapshot;
  // Watchpoints on a variable or memory element (`watch EXPR`): where its entries live
  // in work-group `group` (ValueHomes), one snapshot of `bytes` per entry.
  bool onValue = false;
  uint64_t group = 0;
  std::vector<uint8_t*> hosts;
  std::vector<uint32_t> hostLanes;  // per entry: its lane, or ~0u for one shared value
  spirv::Id valueType = 0;
  bool valueSigned = false;
  uint64_t hits = 0;
};

// An expression shown at every stop (`display`).
struct Display {
  int number = 0;
  Expression expression;
  ValueStyle style;
};

class DebugSession {
 public:
  DebugSession(DebugLaunch launch, std::ostream& out);
  ~DebugSession();

  // Prints the launch and where it starts (work-group (0,0,0), sub-group 0, the entry).
  void start();

  // Execution. Each prints what happened and where the current sub-group stands.
  void step(uint64_t count);  // SPIR-V instructions of the current sub-group
  void next(uint64_t count);  // source lines (instructions without line info), over calls
  void finish();              // until the current function returns
  // Until the current sub-group has finished the kernel (DAP's stepOut from the entry
  // function, which has no caller), or a breakpoint, watchpoint or error stops it.
  void finishSubGroup();
  // Source lines like `next`, but into calls: until another line, in any frame.
  void stepLine();
  void continueRun();  // until a breakpoint, watchpoint, error or the end
  // Until the current frame reaches `location` (none: a line after the current one, so
  // that a loop's back edge does not stop it) or returns.
  void until(std::string_view location);
  // Polled between instructions: when it reads non-zero, execution stops ("Interrupted")
  // and the flag is cleared. Front ends point it at what their SIGINT handler sets.
  void setInterruptFlag(volatile std::sig_atomic_t* flag) { interrupt_ = flag; }
  // Relaunches the kernel from its start: buffers as they were given, breakpoints,
  // watchpoints on buffers and displays kept.
  void restart();

  // Focus.
  // `show`: print where the new focus stands.
  void selectSubGroup(uint64_t index, bool show = true);
  void selectWorkGroup(const std::array<uint64_t, 3>& id, bool show = true);

  // Focus: the lane `$lane`, `set var` and `print` (first) use, and the call-stack frame
  // names are looked up in (0: innermost; reset by execution and switching). Throw
  // DebugError for lanes, work-items and frames that do not exist.
  void selectLane(uint32_t lane);
  void selectWorkItem(const std::array<uint64_t, 3>& globalId);
  void selectFrame(size_t depth);
  size_t frame() const { return frame_; }
  std::optional<uint32_t> focusLane() const { return focus_; }  // explicit focus
  uint32_t currentLane();  // the focus, else the first active lane

  // Expressions in the selected frame; `perLane`: $lane is each lane's own (conditions).
  ExprScope scope(bool perLane);
  // `print`: the value's text; `set var`: writes TARGET in the focused lane (`allLanes`:
  // every active lane, $lane each lane's own) and prints what it wrote.
  std::string valueText(const Expression& e, const ValueStyle& style);
  void setVariable(const Expression& target, const Expression& value, bool allLanes);
  void addDisplay(const Expression& e, const ValueStyle& style);
  void deleteDisplay(int number);  // 0: all
  void showDisplays();
  const std::vector<Display>& displays() const { return displays_; }

  // Breakpoints and watchpoints share one numbering. Throw DebugError.
  void addBreakpoint(std::string_view location, std::string_view condition, bool temporary = false);
  void addWatchpoint(std::string_view what);
  void deleteBreakpoint(int number);
  void deleteAllBreakpoints();
  const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }

  // State for the inspection commands.
  const Symbols& symbols() const { return *symbols_; }
  const LaunchState& launchState() const { return *state_; }
  const DebugLaunch& launch() const { return launch_; }
  GroupRun& group() { return *group_; }
  // The work-groups started and not yet left behind finished by `continue`.
  const std::map<uint64_t, std::unique_ptr<GroupRun>>& groups() const { return groups_; }
  uint64_t releasedGroups() const { return released_; }  // finished and let go
  bool hasSubGroups() const { return group_->slot != nullptr; }
  SubGroup& subGroup();  // the current one; throws DebugError when its group is gone
  size_t subGroupIndex() const { return sg_; }
  bool finished() const { return finished_; }
  // Names pointers by region: "global:out+16", "private:x+0", "local:tile+4"; a
  // Physical32 module's 32-bit addresses as "0x40010010 (global:out+16)".
  std::string pointerName(uint64_t pointer) const;
  // Prints where the current sub-group stands and its active lanes.
  void printLocation(const std::string& prefix = "");

  // Why the last execution command stopped, for front ends that report it as data (DAP):
  // None when it ran to its natural end (a step done, the kernel finished).
  enum class StopReason { None, Breakpoint, Watchpoint, Error, Interrupted };
  StopReason lastStop() const { return lastStop_; }
  // The last stop's breakpoints (their numbers) and what it said ("Breakpoint 1, ..."; an
  // error stop: the error diagnostic's text), for a front end's stop event.
  const std::vector<int>& lastHits() const { return lastHits_; }
  const std::string& lastStopText() const { return lastStopText_; }
  // An error stop: the source line of the faulting instruction ("k.cl:6"; "" without line
  // information). The sub-group stands after it (the access was performed).
  const std::string& lastErrorLine() const { return lastErrorLine_; }

  // 0 no error diagnostics so far, 2 otherwise (as `spvsim run`).
  int exitStatus() const;

 private:
  std::string objectName(uint64_t pointer) const;  // pointerName of an encoded pointer
  struct Stop {
    enum class Kind {
      None,
      Done,
      Breakpoint,
      Watchpoint,
      Error,
      GroupFinished,
      Interrupted,
      Waits,  // occupancy: the work-group waits for the other resident ones
    };
    Kind kind = Kind::None;
    explicit operator bool() const { return kind != Kind::None; }
  };

  GroupRun& startGroup(uint64_t linear);
  void enterGroup(GroupRun& g);
  void checkOneAtATime(const std::array<uint64_t, 3>& id) const;
  bool canRun();
  void resume();
  Stop execute(GroupRun& g, size_t index, bool inTurnOnly);
  Stop afterStep(GroupRun& g, SubGroup& sg);
  Stop checkDiagnostics(GroupRun& g);
  Stop checkWatchpoints(SubGroup& sg);
  bool checkValueWatch(Breakpoint& w, SubGroup& sg);
  bool interrupted();
  void addValueWatchpoint(std::string_view what);
  bool untilDone(const SubGroup& sg, size_t depth, const spirv::SourceLine& line,
                 const std::vector<uint32_t>& pcs) const;
  void launchFresh();
  bool breakpointHit(GroupRun& g, size_t index);
  Stop runGroup(GroupRun& g, const std::function<bool()>& done);
  Stop groupOver(GroupRun& g);
  Stop waitForRelease();
  Stop advanceCurrent();
  bool nextDone(const SubGroup& sg, size_t depth, const spirv::SourceLine& line) const;
  bool stepLineDone(const SubGroup& sg, size_t depth, const spirv::SourceLine& line) const;
  using LineDone = bool (DebugSession::*)(const SubGroup&, size_t, const spirv::SourceLine&) const;
  bool runLine(LineDone done);
  void finishKernel();
  void release(GroupRun& g);
  // --forward-progress occupancy (debug_resident.cc).
  void continueResident();
  void admitResident();
  std::vector<GroupRun*> residentGroups();
  GroupRun* nextResident(const GroupRun& after);
  void wakeResident(const GroupRun& writer);
  void residentDeadlock();
  bool moreGroupsToRun() const;
  void endCommand();
  void flushPrintf(GroupRun& g);
  std::string groupText(const GroupRun& g) const;
  void rebuildSites();

  DebugLaunch launch_;
  std::ostream& out_;
  std::unique_ptr<LaunchState> state_;
  std::unique_ptr<Symbols> symbols_;
  std::map<uint64_t, std::unique_ptr<GroupRun>> groups_;
  GroupRun* group_ = nullptr;
  size_t sg_ = 0;
  FinishedGroups finishedGroups_;
  std::vector<Diagnostic> releasedDiagnostics_;  // of work-groups let go
  uint64_t released_ = 0;
  std::vector<Breakpoint> breakpoints_;
  std::vector<uint8_t> sites_;  // by pc: 1 when a breakpoint stops there
  bool hasWatchpoints_ = false;
  int nextNumber_ = 1;
  bool finished_ = false;
  bool aborted_ = false;
  std::optional<uint32_t> focus_;
  size_t frame_ = 0;
  std::vector<Display> displays_;
  int nextDisplay_ = 1;
  volatile std::sig_atomic_t* interrupt_ = nullptr;
  StopReason lastStop_ = StopReason::None;
  std::vector<int> lastHits_;
  std::string lastStopText_;
  std::string lastErrorLine_;
  // The buffers' and program-scope variables' contents at the start, for `restart`.
  std::vector<std::vector<uint8_t>> initialBuffers_;
  std::vector<std::vector<uint8_t>> initialGlobals_;
};

}  // namespace spvsim::debugger
