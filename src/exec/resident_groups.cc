// Resident work-groups under --forward-progress occupancy (resident_groups.h).
#include "src/exec/resident_groups.h"

#include <fmt/core.h>

#include <algorithm>
#include <thread>

namespace spvsim {
namespace {

struct Resident {
  uint64_t linear = 0;
  std::unique_ptr<WorkGroupSlot> slot;  // back to the free ones when the work-group ends
  std::unique_ptr<WorkGroupRun> run;
  uint64_t writes = 0;  // the work-group's writes when its turn began
  bool waits = false;   // every sub-group waits (until another work-group writes)
};

std::string groupName(const LaunchState& state, uint64_t linear) {
  const auto id = state.groupId(linear);
  return fmt::format("({},{},{})", id[0], id[1], id[2]);
}

class ResidentScheduler {
 public:
  ResidentScheduler(const LaunchState& state, uint64_t resident, WorkerArena& arena,
                    ReductionCopies* copies, ResidentGroupSink& sink)
      : state_(state), resident_(resident), arena_(arena), copies_(copies), sink_(sink) {}

  void run() {
    admit();
    size_t at = 0;
    while (!groups_.empty()) {
      if (allWait()) return reportDeadlock();
      at %= groups_.size();
      if (groups_[at].waits) {
        ++at;
        continue;
      }
      if (turn(groups_[at])) ++at;  // else the group left: `at` names the next
    }
  }

 private:
  // Fills free places with the next work-groups in linear order.
  void admit() {
    while (groups_.size() < resident_ && next_ < state_.groupCount() && !sink_.stopping()) {
      Resident r;
      r.linear = next_++;
      r.slot = takeSlot();
      std::vector<Diagnostic>* diagnostics = nullptr;
      std::string* printf = nullptr;
      sink_.started(r.linear, diagnostics, printf);
      r.slot->start(r.linear, diagnostics, printf);
      r.run =
          std::make_unique<WorkGroupRun>(r.slot->workGroup(), r.slot->subGroups(), r.slot->count());
      r.run->deferDeadlocks();
      r.writes = r.slot->workGroup().writes;
      groups_.push_back(std::move(r));
    }
  }

  // A slot a work-group left, or a new one: the first on the thread's arena, the others
  // on their own (each charges the launch's memory limit, WorkGroupSlot).
  std::unique_ptr<WorkGroupSlot> takeSlot() {
    if (!free_.empty()) {
      std::unique_ptr<WorkGroupSlot> slot = std::move(free_.back());
      free_.pop_back();
      return slot;
    }
    auto slot = std::make_unique<WorkGroupSlot>(state_, made_++ == 0 ? &arena_ : nullptr);
    if (copies_) slot->useReductionCopies(copies_);
    slot->allowFusion(!state_.context().referenceTier);
    return slot;
  }

  void leave(Resident& r) {
    r.slot->finish();
    sink_.ended(r.linear, *r.slot);
    r.run.reset();
    free_.push_back(std::move(r.slot));
  }

  bool allWait() const {
    return std::all_of(groups_.begin(), groups_.end(), [](const Resident& r) { return r.waits; });
  }

  // One slice of `r`; false when it ended (it left groups_).
  bool turn(Resident& r) {
    const WorkGroupRun::Slice s = r.run->runSlice(kResidentSlice);
    const uint64_t writes = r.slot->workGroup().writes;
    if (writes != r.writes) wakeOthers(r);  // what another one waits for, maybe
    r.writes = writes;
    if (s == WorkGroupRun::Slice::Waits) r.waits = true;
    if (s != WorkGroupRun::Slice::Over) return true;
    end(r.linear, r.slot->workGroup().aborted);
    return false;
  }

  void wakeOthers(const Resident& writer) {
    for (Resident& r : groups_)
      if (&r != &writer) {
        r.run->wake();
        r.waits = false;
      }
  }

  // Work-group `linear` is over: it leaves, and so do those after it when it aborted
  // (the launch drops what comes after a fatal work-group); the next ones come in.
  void end(uint64_t linear, bool aborted) {
    for (size_t i = 0; i < groups_.size();) {
      Resident& r = groups_[i];
      if (r.linear == linear || (aborted && r.linear > linear)) {
        leave(r);
        groups_.erase(groups_.begin() + ptrdiff_t(i));
      } else {
        ++i;
      }
    }
    admit();
  }

  void reportDeadlock() {
    const uint64_t notStarted = state_.groupCount() - next_;
    for (Resident& r : groups_) {
      r.run->reportDeadlock(why(r, notStarted));
      leave(r);
    }
    groups_.clear();
  }

  std::string why(const Resident& waiting, uint64_t notStarted) const {
    std::vector<uint64_t> others;
    for (const Resident& r : groups_)
      if (&r != &waiting) others.push_back(r.linear);
    return residentDeadlockWhy(state_, resident_, others, notStarted);
  }

  const LaunchState& state_;
  const uint64_t resident_;
  WorkerArena& arena_;
  size_t made_ = 0;  // slots made
  std::vector<std::unique_ptr<WorkGroupSlot>> free_;
  ReductionCopies* copies_;
  ResidentGroupSink& sink_;
  std::vector<Resident> groups_;  // in linear order (admitted in it)
  uint64_t next_ = 0;             // the next work-group to admit
};

}  // namespace

std::string residentDeadlockWhy(const LaunchState& state, uint64_t resident,
                                const std::vector<uint64_t>& others, uint64_t notStarted) {
  std::string names;
  for (const uint64_t linear : others)
    names += fmt::format("{}{}", names.empty() ? "" : ", ", groupName(state, linear));
  return fmt::format(
      "Under --forward-progress occupancy:{} {}, and {}: nothing is left to write what {} for",
      resident,
      names.empty() ? "it is the only resident work-group"
                    : fmt::format("the work-groups resident with it wait too ({})", names),
      notStarted == 0 ? "every other work-group has ended"
                      : fmt::format("the {} work-group{} not started yet cannot start before a "
                                    "resident one ends",
                                    notStarted, notStarted == 1 ? "" : "s"),
      names.empty() ? "it waits" : "they wait");
}

uint64_t residentGroupCount(const LaunchOptions& options) {
  if (options.residentGroups) return options.residentGroups;
  const unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  return std::max(1u, threads);
}

void runResidentGroups(const LaunchState& state, uint64_t resident, WorkerArena& arena,
                       ReductionCopies* copies, ResidentGroupSink& sink) {
  ResidentScheduler(state, resident, arena, copies, sink).run();
}

}  // namespace spvsim
