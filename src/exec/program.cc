#include "src/exec/program.h"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "spirv/error.h"
#include "spirv/text.h"
#include "src/exec/device_enqueue.h"
#include "src/exec/launch.h"
#include "src/exec/lowering.h"
#include "src/exec/relocations.h"
#include "src/exec/resident_groups.h"
#include "src/exec/worker_pool.h"
#include "src/exec/workgroup.h"

namespace spvsim {

std::shared_ptr<Program> Program::load(std::vector<uint32_t> words,
                                       const spirv::LoadOptions& options, uint64_t maxMemory) {
  return std::shared_ptr<Program>(
      new Program(spirv::loadModule(std::move(words), options), maxMemory));
}

// A program-scope variable's initializer, with the addresses it holds filled in; empty
// for an unexpanded null value (spirv::Constant::zeroFill).
std::vector<uint8_t> Program::initialValue(const spirv::Variable& v) const {
  std::optional<spirv::Constant> c = module_.constantValue(v.initializer);
  if (!c)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("the initializer of {} is not a constant", module_.nameOf(v.id)));
  if (c->zeroFill) return {};
  // A Physical32 module's memory holds 32-bit addresses (src/exec/address32.h).
  std::optional<Address32Map> addresses32;
  if (module_.addressing == spv::AddressingModel::Physical32)
    addresses32 = programVariableAddresses32(module_);
  return resolvedBytes(
      *facts_, *c, [&](spirv::Id var) { return programVariablePointer(module_, var); },
      addresses32 ? &*addresses32 : nullptr);
}

bool Program::isProgramVariable(const spirv::Variable& v) {
  return v.storage == spv::StorageClass::CrossWorkgroup ||
         v.storage == spv::StorageClass::UniformConstant;
}

// Program-scope variables live as long as the program: their total is checked against
// the limit before any is allocated.
void Program::checkVariableMemory(uint64_t maxMemory) const {
  uint64_t total = 0;
  for (const auto& v : module_.globalVariables)
    if (isProgramVariable(v))
      total = addBytes(total, module_.type(module_.type(v.type).element).size);
  checkMemory(total, maxMemory, "the program-scope variables of the module");
}

Program::Program(spirv::Module module, uint64_t maxMemory)
    : module_(std::move(module)),
      facts_(std::make_unique<spirv::ModuleFacts>(module_)),
      pool_(std::make_unique<WorkerPool>()) {
  checkVariableMemory(maxMemory);
  for (const auto& v : module_.globalVariables) {
    if (!isProgramVariable(v)) continue;
    const spirv::Type& pointee = module_.type(module_.type(v.type).element);
    ProgramVariable pv{v.id, std::vector<uint8_t>(pointee.size, 0)};
    if (v.initializer) {
      std::vector<uint8_t> init = initialValue(v);
      if (!init.empty()) pv.storage = std::move(init);  // empty: all zero (zeroFill)
    }
    (v.storage == spv::StorageClass::CrossWorkgroup ? globals_ : constants_)
        .push_back(std::move(pv));
  }
}

Program::~Program() = default;

Program::Kernel Program::kernel(const std::string& name) const {
  if (const auto* ep = facts_->findEntryPoint(name)) return Kernel(*ep);
  std::string names;
  for (const auto& ep : module_.entryPoints) names += (names.empty() ? "" : ", ") + ep.name;
  throw Error(DiagnosticKind::InvalidArgument,
              spirv::escapeText(fmt::format("no kernel named '{}' in the module (kernels: {})",
                                            name, names.empty() ? "none" : names)));
}

uint32_t Program::subGroupSizeFor(const Kernel& kernel, uint32_t requested) const {
  if (auto required = kernel.signature().requiredSubGroupSize) requested = *required;
  if (requested < 1 || requested > kMaxSubGroupSize)
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("sub-group size {} is outside 1..{}", requested, kMaxSubGroupSize));
  return requested;
}

void Program::reserveThreads(unsigned threads, const NDRange& range, uint64_t maxMemory,
                             uint64_t argumentBytes, uint64_t slotBytes) {
  uint64_t n = threads ? threads : std::thread::hardware_concurrency();
  n = std::min(n, mulBytes(mulBytes(range.global[0], range.global[1]), range.global[2]));
  const uint64_t touch = std::clamp<uint64_t>(slotBytes, 1, WorkerArena::kReservedBytes);
  const uint64_t room = maxMemory - std::min(maxMemory, argumentBytes);
  n = std::min<uint64_t>(n, room / touch);
  if (n > 0) pool_->reserve(static_cast<unsigned>(n), size_t(touch));
}

uint64_t Program::slotBytesEstimate(const Kernel& kernel, uint32_t width, const NDRange& range,
                                    uint64_t localArgumentBytes) {
  const LoweredKernel& k = lowered(kernel, width);
  const auto local = range.localGiven ? range.local : chooseLocalSize(kernel.entryPoint(), range);
  const uint64_t items = mulBytes(mulBytes(local[0], local[1]), local[2]);
  return slotBytesFor(k, ceilDiv(items, width), privateArenaBytes(k),
                      addBytes(k.localBytes, localArgumentBytes), 1, false);
}

const LoweredKernel& Program::lowered(const Kernel& kernel, uint32_t width) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = lowered_[{kernel.name(), width}];
  if (!slot) {
    auto k = std::make_unique<LoweredKernel>();
    Lowerer(*facts_, kernel.entryPoint(), width, *k).run();
    slot = std::move(k);
  }
  return *slot;
}

const std::string& KernelHandle::name() const { return entry_->name; }
const spirv::KernelSignature& KernelHandle::signature() const { return entry_->signature; }

std::array<uint64_t, 3> chooseLocalSize(const spirv::EntryPoint& ep, const NDRange& range) {
  if (const auto* m = ep.findMode(spv::ExecutionMode::LocalSize))
    return {m->literals.at(0), m->literals.at(1), m->literals.at(2)};
  std::array<uint64_t, 3> local{1, 1, 1};
  uint64_t budget = 256;
  for (uint32_t d = 0; d < range.dims; ++d) {
    uint64_t best = 1;
    for (uint64_t c = std::min(range.global[d], budget); c >= 1; --c)
      if (range.global[d] % c == 0) {
        best = c;
        break;
      }
    local[d] = best;
    budget /= best;
  }
  return local;
}

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point origin) {
  return std::chrono::duration<double>(Clock::now() - origin).count();
}

struct GroupOutput {
  uint64_t unit;  // LaunchState::unitCount(): the work-group's linear id where unsplit
  std::vector<Diagnostic> diagnostics;
  std::string printf;
};

// What the host threads of one launch share. A unit is a work-group, or one sub-group
// of a split work-group (LaunchState::unitsPerGroup).
struct LaunchProgress {
  LaunchProgress(Clock::time_point origin, uint64_t units, unsigned threads)
      : origin(origin), units(units), threads(threads) {}

  const Clock::time_point origin;  // the launch's start (LaunchTimeline)
  const uint64_t units;
  const unsigned threads;
  std::atomic<uint64_t> next{0}, steps{0}, laneSteps{0};
  std::atomic<bool> abort{false};
  // No unit from here on runs (a fatal diagnostic in this one, or an exception).
  std::atomic<uint64_t> firstAborted{~0ull};
  // The first exception a worker threw (std::bad_alloc, an Error): the other workers
  // stop at their next unit and the launching thread rethrows it.
  std::mutex errorMutex;
  std::exception_ptr error;

  // The next run of units [first, end) for one host thread, or false when none is
  // left: guided self-scheduling, 1 / (8 x threads) of what is left and at least one, so
  // that many short work-groups do not contend on the counter one by one (triad on 16
  // threads: 16384 groups of 4 us, a fifth of its launch) while the last ones still go
  // one at a time (mandel's imbalance).
  bool take(uint64_t& first, uint64_t& end) {
    uint64_t at = next.load(std::memory_order_relaxed);
    for (;;) {
      if (at >= units) return false;
      const uint64_t n = std::max<uint64_t>(1, (units - at) / (uint64_t(threads) * 8));
      if (next.compare_exchange_weak(at, at + n, std::memory_order_relaxed)) {
        first = at, end = at + n;
        return true;
      }
    }
  }
  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (!error) error = std::move(e);
    abort = true;
    firstAborted = 0;
  }
  void noteAborted(uint64_t u) {
    abort = true;
    for (uint64_t cur = firstAborted; u < cur && !firstAborted.compare_exchange_weak(cur, u);) {
    }
  }
};

// Counts a work-group done for the progress line once all its units are (the units of
// a split work-group finish on any threads, in any order).
class GroupsDone {
 public:
  GroupsDone(const LaunchState& state, LaunchCounters* counters)
      : counters_(counters), per_(state.unitsPerGroup()) {
    if (counters && per_ > 1) left_ = std::make_unique<std::atomic<uint64_t>[]>(state.groupCount());
    if (left_)
      for (uint64_t g = 0; g < state.groupCount(); ++g) left_[g] = per_;
  }
  void unitDone(uint64_t unit) {
    if (!counters_) return;
    if (left_ && left_[unit / per_].fetch_sub(1, std::memory_order_relaxed) != 1) return;
    counters_->groupsDone.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  LaunchCounters* counters_;
  const uint64_t per_;
  std::unique_ptr<std::atomic<uint64_t>[]> left_;  // units of each group not done yet
};

// Runs units (work-groups, or sub-groups of split ones), taken in order from `progress`,
// on one host thread.
void runWorker(const LaunchState& state, WorkerArena& arena, LaunchProgress& progress,
               std::vector<GroupOutput>& out, ReductionCopies* copies, LaunchCounters* counters,
               GroupsDone& groupsDone, LaunchTimeline::Thread& times) {
  const Clock::time_point origin = progress.origin;
  times.entered = secondsSince(origin);
  WorkGroupSlot slot(state, &arena);
  if (copies) slot.useReductionCopies(copies);
  slot.allowFusion(!state.context().referenceTier);
  times.started = secondsSince(origin);
  const uint64_t per = state.unitsPerGroup();
  uint64_t mySteps = 0, myLaneSteps = 0, units = 0;
  // Units before the first fatal one all run, whatever the thread count: the rest of a
  // run already taken goes on up to it (collect() keeps outputs in unit order).
  for (uint64_t u = 0, end = 0;; ++u) {
    if (u == end && (progress.abort.load(std::memory_order_relaxed) || !progress.take(u, end)))
      break;
    if (u >= progress.firstAborted.load(std::memory_order_relaxed)) {
      u = end - 1;
      continue;
    }
    GroupOutput o{u, {}, {}};
    slot.start(u / per, &o.diagnostics, &o.printf,
               per == 1 ? WorkGroupSlot::kEverySubGroup : u % per);
    WorkGroupContext& wg = slot.workGroup();
    if (slot.count())
      runWorkGroup(wg, slot.subGroups(), slot.count());  // 0: past a short group's last
    slot.finish();
    const uint64_t laneStepsBefore = myLaneSteps;
    for (size_t i = 0; i < slot.count(); ++i) {
      mySteps += slot.subGroups()[i].steps;
      myLaneSteps += slot.subGroups()[i].laneStepsNow();
    }
    if (counters)
      counters->laneInstructions.fetch_add(myLaneSteps - laneStepsBefore,
                                           std::memory_order_relaxed);
    groupsDone.unitDone(u);
    ++units;
    if (wg.aborted) progress.noteAborted(u);
    if (!o.diagnostics.empty() || !o.printf.empty()) out.push_back(std::move(o));
  }
  times.finished = secondsSince(origin);
  times.units = units;  // once: the threads' entries share cache lines
  progress.steps += mySteps;
  progress.laneSteps += myLaneSteps;
}

// The launch's side of resident work-groups (src/exec/resident_groups.h): outputs,
// counts and aborts as runWorker keeps them for work-groups run one by one.
class ResidentOutputs final : public ResidentGroupSink {
 public:
  ResidentOutputs(LaunchProgress& progress, std::vector<GroupOutput>& out, LaunchCounters* counters,
                  GroupsDone& groupsDone)
      : progress_(progress), out_(out), counters_(counters), groupsDone_(groupsDone) {}

  void started(uint64_t linear, std::vector<Diagnostic>*& diagnostics,
               std::string*& printf) override {
    GroupOutput& o = open_[linear];
    o.unit = linear;
    diagnostics = &o.diagnostics;
    printf = &o.printf;
  }

  void ended(uint64_t linear, WorkGroupSlot& slot) override {
    uint64_t lanes = 0;
    for (size_t i = 0; i < slot.count(); ++i) {
      steps += slot.subGroups()[i].steps;
      lanes += slot.subGroups()[i].laneStepsNow();
    }
    laneSteps += lanes;
    if (counters_) counters_->laneInstructions.fetch_add(lanes, std::memory_order_relaxed);
    groupsDone_.unitDone(linear);
    ++units;
    // Resident work-groups end out of order: a fatal one keeps those before it running,
    // and the launch keeps every work-group up to the last that aborted.
    if (slot.workGroup().aborted) lastAborted_ = std::max(lastAborted_.value_or(0), linear);
    auto it = open_.find(linear);
    if (!it->second.diagnostics.empty() || !it->second.printf.empty())
      out_.push_back(std::move(it->second));
    open_.erase(it);
  }

  bool stopping() const override {
    return lastAborted_.has_value() || progress_.abort.load(std::memory_order_relaxed);
  }

  // After the run: the launch drops what comes after the last work-group that aborted.
  void noteAborts() const {
    if (lastAborted_) progress_.noteAborted(*lastAborted_);
  }

  uint64_t steps = 0, laneSteps = 0, units = 0;

 private:
  LaunchProgress& progress_;
  std::vector<GroupOutput>& out_;
  LaunchCounters* counters_;
  GroupsDone& groupsDone_;
  std::map<uint64_t, GroupOutput> open_;  // the resident work-groups' outputs
  std::optional<uint64_t> lastAborted_;
};

// All work-groups on this thread, state.residentGroups() at a time.
void runResidentWorker(const LaunchState& state, WorkerArena& arena, LaunchProgress& progress,
                       std::vector<GroupOutput>& out, ReductionCopies* copies,
                       LaunchCounters* counters, GroupsDone& groupsDone,
                       LaunchTimeline::Thread& times) {
  times.entered = times.started = secondsSince(progress.origin);
  ResidentOutputs outputs(progress, out, counters, groupsDone);
  runResidentGroups(state, state.residentGroups(), arena, copies, outputs);
  outputs.noteAborts();
  times.finished = secondsSince(progress.origin);
  times.units = outputs.units;
  progress.steps += outputs.steps;
  progress.laneSteps += outputs.laneSteps;
}

// Host threads for a launch: as asked (0: all cores), one for a serial observer, no more
// than there are units or than fit in LaunchOptions::maxMemory (at least one: its
// WorkGroupSlot then reports what does not fit).
unsigned threadCount(const LaunchState& state, const LaunchOptions& options) {
  uint64_t threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  if (state.serial()) threads = 1;  // e.g. verdicts that must not depend on timing
  // Which work-group gets which packets of a pipe, or a place in a device queue, must not
  // depend on host timing either.
  if (!state.context().pipes.empty() || state.kernel().usesDeviceEnqueue) threads = 1;
  // Resident work-groups take turns on one thread, so that how they interleave does not
  // depend on timing either (src/exec/resident_groups.h).
  if (state.residentGroups()) threads = 1;
  threads = std::min({threads, state.unitCount(), state.slotsThatFit()});
  return static_cast<unsigned>(std::max<uint64_t>(threads, 1));
}

// Diagnostics and printf output in unit (work-group) order. Units are taken in order, so
// every unit before the first fatal one ran to completion whatever the thread count;
// later ones are dropped for determinism.
LaunchResult collect(std::vector<std::vector<GroupOutput>>& outputs, uint64_t firstAborted) {
  std::vector<GroupOutput> all;
  for (auto& v : outputs)
    for (auto& o : v)
      if (o.unit <= firstAborted) all.push_back(std::move(o));
  std::sort(all.begin(), all.end(),
            [](const GroupOutput& a, const GroupOutput& b) { return a.unit < b.unit; });
  LaunchResult result;
  std::vector<Diagnostic> diags;
  for (auto& o : all) {
    result.printfOutput += o.printf;
    for (auto& d : o.diagnostics) diags.push_back(std::move(d));
  }
  result.diagnostics = foldDiagnostics(std::move(diags));
  return result;
}

}  // namespace

namespace {

// Reservations open on each pipe argument (src/exec/pipe.h).
std::vector<size_t> openReservations(const LaunchState& state) {
  std::vector<size_t> open;
  for (PipeStorage* p : state.context().pipes) open.push_back(p->openReservations());
  return open;
}

// A reservation the launch made and never committed keeps its packets (or room) from
// every later reader and writer of the pipe.
void reportUncommitted(const LaunchState& state, const std::vector<size_t>& before,
                       LaunchResult& result) {
  const std::vector<size_t> after = openReservations(state);
  for (size_t k = 0; k < after.size(); ++k) {
    if (after[k] <= before[k]) continue;
    Diagnostic d;
    d.severity = Severity::Warning;
    d.kind = DiagnosticKind::PipeMisuse;
    d.kernel = state.context().kernelName;
    d.message = fmt::format(
        "the launch ended with {} reservation{} on its pipe argument {} never committed; "
        "their packets stay reserved",
        after[k] - before[k], after[k] - before[k] == 1 ? "" : "s", k);
    result.diagnostics.push_back(std::move(d));
  }
}

// Serial observers follow the work-groups one at a time; resident work-groups interleave,
// each in a slot with observers of its own (src/exec/resident_groups.h). Those whose
// factory shares their state among the slots (ObserverFactory::takesResidentGroups: the
// checkers) compare the resident work-groups with each other; any other sees each slot
// apart, and what work-groups resident at the same time do to each other goes unseen by
// it. Said once per launch rather than left silent.
void reportUnobservedResidents(const LaunchState& state, LaunchResult& result) {
  const uint64_t resident = std::min(state.residentGroups(), state.groupCount());
  if (resident < 2) return;
  std::string apart;
  for (const auto& f : state.observers())
    if (f->serial() && !f->takesResidentGroups())
      apart += fmt::format("{}{}", apart.empty() ? "" : ", ", f->stateName());
  if (apart.empty()) return;
  Diagnostic d;
  d.severity = Severity::Warning;
  d.kind = DiagnosticKind::Unsupported;
  d.kernel = state.context().kernelName;
  d.message = fmt::format(
      "under --forward-progress occupancy:{} the observers that follow the work-groups one at "
      "a time without taking those resident together ({}) see each of the {} resident places "
      "apart: what work-groups resident at the same time do to each other is not seen by them",
      state.residentGroups(), apart, resident);
  result.diagnostics.push_back(std::move(d));
}

}  // namespace

LaunchResult Program::launch(const Kernel& kernel, const NDRange& range,
                             const std::vector<ArgBinding>& args, const LaunchOptions& options) {
  DeviceEnqueueState enqueue(options.deviceQueues);
  InheritedMemory memory;
  LaunchResult result = launchOnly(kernel, range, args, options, enqueue, nullptr, &memory);
  runEnqueued(*this, enqueue, options, memory, result);
  return result;
}

// Every thread's copies of the privatised buffers into the buffers, after the last
// work-group: in slices on the pool's threads where there is much to read, else here.
void Program::foldPrivatised(const LaunchState& state,
                             const std::vector<std::unique_ptr<ReductionCopies>>& copies) {
  const unsigned slices = foldSlices(state.privatised(), copies, unsigned(copies.size()));
  auto fold = [&](unsigned t, WorkerArena&) { foldCopies(state.privatised(), copies, t, slices); };
  if (slices > 1 && pool_->tryRun(slices, fold)) return;
  for (unsigned t = 0; t < slices; ++t) foldCopies(state.privatised(), copies, t, slices);
}

LaunchResult Program::launchOnly(const Kernel& kernel, const NDRange& requested,
                                 const std::vector<ArgBinding>& args, const LaunchOptions& options,
                                 DeviceEnqueueState& enqueue, const InheritedMemory* inherited,
                                 InheritedMemory* memoryOut) {
  const Clock::time_point origin = Clock::now();
  LaunchState state(*this, kernel, requested, args, options, &enqueue, inherited);
  const std::vector<size_t> openBefore = openReservations(state);
  const unsigned threads = threadCount(state, options);
  if (options.counters) options.counters->groupsTotal.fetch_add(state.groupCount());
  LaunchProgress progress(origin, state.unitCount(), threads);
  GroupsDone groupsDone(state, options.counters);
  std::vector<std::vector<GroupOutput>> outputs(threads);
  std::vector<LaunchTimeline::Thread> times(threads);
  std::vector<std::unique_ptr<ReductionCopies>> copies(threads);  // null: none privatised
  if (!state.privatised().empty())
    for (auto& c : copies) c = std::make_unique<ReductionCopies>(state.privatised());
  auto work = [&](unsigned t, WorkerArena& arena) {
    try {
      if (state.residentGroups())
        runResidentWorker(state, arena, progress, outputs[t], copies[t].get(), options.counters,
                          groupsDone, times[t]);
      else
        runWorker(state, arena, progress, outputs[t], copies[t].get(), options.counters, groupsDone,
                  times[t]);
    } catch (...) {
      progress.fail(std::current_exception());
    }
  };
  auto ownArena = [&](unsigned t) {
    WorkerArena arena;
    work(t, arena);
  };
  const bool pooled = pool_->tryRun(threads, work);
  if (!pooled && threads == 1) {  // another launch has the pool: this thread, its own arena
    ownArena(0);
  } else if (!pooled) {
    // Another launch has the pool (ICD queues running at once): threads of our own.
    std::vector<std::thread> pool;
    try {
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back(ownArena, t);
    } catch (...) {  // no more threads: stop those started, then report
      progress.fail(std::current_exception());
    }
    for (auto& th : pool) th.join();
  }
  const double joined = secondsSince(origin);
  // The kernel's end: every buffered store reaches memory.
  if (RelaxedMemory* relaxed = state.relaxedMemory()) relaxed->drainAll();
  if (!state.privatised().empty()) foldPrivatised(state, copies);
  if (progress.error) std::rethrow_exception(progress.error);

  LaunchResult result = collect(outputs, progress.firstAborted);
  result.timeline.threads = std::move(times);
  result.timeline.joined = joined;
  result.subGroupSteps = progress.steps;
  result.laneInstructions = progress.laneSteps;
  result.range = state.range();
  result.subGroupSize = state.subGroupSize();
  result.aborted = progress.abort;
  if (state.unitsPerGroup() > 1) result.subGroupUnits = state.unitCount();
  reportUncommitted(state, openBefore, result);
  reportUnobservedResidents(state, result);
  for (const PrivatisedRegion& r : state.privatised())
    result.privatised.push_back(state.memory().global[r.region].name + ": " +
                                reductionOpName(r.op));
  if (memoryOut) *memoryOut = InheritedMemory{state.memory().global, state.memory().constant};
  result.timeline.end = secondsSince(origin);
  return result;
}

}  // namespace spvsim
