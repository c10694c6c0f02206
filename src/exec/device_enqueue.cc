#include "src/exec/device_enqueue.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>

#include "spirv/error.h"

namespace spvsim {

int32_t DeviceEnqueueState::reserve(uint64_t queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  const DeviceQueue* q = options_.find(queue);
  if (!q) return kClkInvalidQueue;
  uint64_t& n = outstanding_[queue];
  if (total_ >= options_.maxEnqueues || n >= q->size / kDeviceQueueCommandBytes)
    return kClkDeviceQueueFull;
  ++n;
  ++total_;
  return kClkSuccess;
}

void DeviceEnqueueState::record(EnqueuedCommand command, uint64_t group) {
  std::lock_guard<std::mutex> lock(mutex_);
  command.order = {group, nextOrder_[group]++};
  recorded_.push_back(std::make_unique<EnqueuedCommand>(std::move(command)));
}

std::vector<std::unique_ptr<EnqueuedCommand>> DeviceEnqueueState::takeRecorded() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::unique_ptr<EnqueuedCommand>> out = std::move(recorded_);
  recorded_.clear();
  nextOrder_.clear();
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->order < b->order; });
  return out;
}

DeviceEnqueueState::Event* DeviceEnqueueState::find(uint64_t event) {
  auto it = events_.find(event);
  return it != events_.end() && it->second.refs > 0 ? &it->second : nullptr;
}

uint64_t DeviceEnqueueState::createEvent(bool user) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (live_ >= kMaxDeviceEvents) return kNullEvent;
  ++live_;
  const uint64_t id = nextEvent_++;
  Event& e = events_[id];
  e.user = user;
  return id;
}

bool DeviceEnqueueState::isValid(uint64_t event) {
  std::lock_guard<std::mutex> lock(mutex_);
  return find(event) != nullptr;
}

bool DeviceEnqueueState::retain(uint64_t event) {
  std::lock_guard<std::mutex> lock(mutex_);
  Event* e = find(event);
  if (e) ++e->refs;
  return e != nullptr;
}

// An event released to zero stays in the table (refs 0): commands that wait on it still
// learn its status; kernels no longer may name it.
bool DeviceEnqueueState::release(uint64_t event) {
  std::lock_guard<std::mutex> lock(mutex_);
  Event* e = find(event);
  if (e && --e->refs == 0) --live_;
  return e != nullptr;
}

bool DeviceEnqueueState::setUserStatus(uint64_t event, int32_t status) {
  std::lock_guard<std::mutex> lock(mutex_);
  Event* e = find(event);
  if (!e || !e->user || e->userStatusSet || status > kClComplete) return false;
  e->userStatusSet = true;
  e->status = status;
  return true;
}

std::optional<int32_t> DeviceEnqueueState::status(uint64_t event) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = events_.find(event);
  if (it == events_.end()) return std::nullopt;
  return it->second.status;
}

void DeviceEnqueueState::started(const EnqueuedCommand& c) {
  std::lock_guard<std::mutex> lock(mutex_);
  events_[c.event].start = Clock::now();
}

void DeviceEnqueueState::adopt(uint64_t parent, const EnqueuedCommand& child) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++events_[parent].children;
  events_[child.event].parent = parent;
}

void DeviceEnqueueState::complete(const EnqueuedCommand& c, int32_t status, uint64_t execNs) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (outstanding_[c.queue] > 0) --outstanding_[c.queue];
  Event& e = events_[c.event];
  if (e.start == Clock::time_point{}) e.start = Clock::now();  // never ran: no time passed
  e.ran = true;
  e.ranStatus = status;
  e.times[0] = execNs;
  completeIfDone(c.event);
}

void DeviceEnqueueState::completeIfDone(uint64_t id) {
  while (id != 0) {
    Event& e = events_[id];
    if (!e.ran || e.children > 0) return;
    // OpenCL C: the status is an error if the command or any of its children failed.
    e.status = e.ranStatus < 0 ? e.ranStatus : e.childError;
    const auto sinceStart =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - e.start);
    // COMPLETE includes the children; a command that ran takes at least its own time.
    e.times[1] = std::max<uint64_t>(e.times[0], uint64_t(sinceStart.count()));
    for (uint8_t* where : e.profiling) std::memcpy(where, e.times.data(), sizeof e.times);
    e.profiling.clear();
    const int32_t status = e.status;
    id = e.parent;
    if (id == 0) break;
    Event& parent = events_[id];
    --parent.children;
    if (status < 0 && parent.childError == kClComplete) parent.childError = status;
  }
}

bool DeviceEnqueueState::captureProfiling(uint64_t event, uint8_t* where) {
  std::lock_guard<std::mutex> lock(mutex_);
  Event* e = find(event);
  if (!e || e->user) return false;
  // A completed command's times are known: the kernel reads them right after (the
  // conformance suite's enqueue_block does, in a block that waited for the event).
  if (e->status == kClSubmitted)
    e->profiling.push_back(where);
  else
    std::memcpy(where, e->times.data(), sizeof e->times);
  return true;
}

const spirv::EntryPoint* invokeKernel(const spirv::Module& module, spirv::Id invoke) {
  for (const auto& ep : module.entryPoints) {
    const spirv::Function* callee = module.onlyCallee(ep.function);
    if (ep.function == invoke || (callee && callee->id == invoke)) return &ep;
  }
  return nullptr;
}

bool isBlockInvokeKernel(const spirv::Module& module, const spirv::EntryPoint& ep) {
  for (const auto& f : module.functions)
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions) {
        int invoke = -1;  // the operand naming the invoke function
        switch (i.opcode) {
          case spv::Op::OpEnqueueKernel:
            invoke = 6;
            break;
          case spv::Op::OpGetKernelWorkGroupSize:
          case spv::Op::OpGetKernelPreferredWorkGroupSizeMultiple:
            invoke = 0;
            break;
          case spv::Op::OpGetKernelNDrangeSubGroupCount:
          case spv::Op::OpGetKernelNDrangeMaxSubGroupSize:
            invoke = 1;
            break;
          default:
            continue;
        }
        if (size_t(invoke) < i.operands.size() && invokeKernel(module, i.operands[invoke]) == &ep)
          return true;
      }
  return false;
}

namespace {

using Pending = std::deque<std::unique_ptr<EnqueuedCommand>>;

// A command's wait list: CL_COMPLETE when every event completed, the first negative
// status when one failed, CL_SUBMITTED while one has yet to complete.
int32_t waitStatus(DeviceEnqueueState& state, const EnqueuedCommand& c) {
  int32_t result = kClComplete;
  for (uint64_t e : c.waits) {
    const int32_t s = state.status(e).value_or(kClComplete);
    if (s < 0) return s;
    if (s != kClComplete) result = kClSubmitted;
  }
  return result;
}

Diagnostic enqueueDiagnostic(Severity severity, const EnqueuedCommand& c, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.kind = DiagnosticKind::DeviceEnqueue;
  d.kernel = c.kernel ? c.kernel->name : c.parent;
  d.message = std::move(message);
  d.order = {~0ull, ~0ull};
  return d;
}

std::string describe(const EnqueuedCommand& c) {
  return c.marker ? fmt::format("a marker enqueued by kernel {}", c.parent)
                  : fmt::format("kernel {} enqueued by kernel {}", c.kernel->name, c.parent);
}

void merge(LaunchResult& into, LaunchResult&& child) {
  for (auto& d : child.diagnostics) into.diagnostics.push_back(std::move(d));
  into.printfOutput += child.printfOutput;
  into.subGroupSteps += child.subGroupSteps;
  into.laneInstructions += child.laneInstructions;
  into.aborted = into.aborted || child.aborted;
  into.childLaunches += 1 + child.childLaunches;
}

// Runs one enqueued kernel: the block literal is a buffer argument (a new global region
// after the parent's), each local size a local-memory argument. Returns the commands it
// enqueued, adopted as its children before it completes (it waits for them).
std::vector<std::unique_ptr<EnqueuedCommand>> runKernel(Program& program, DeviceEnqueueState& state,
                                                        const LaunchOptions& options,
                                                        const InheritedMemory& memory,
                                                        EnqueuedCommand& c, LaunchResult& result,
                                                        InheritedMemory& childMemory) {
  std::vector<ArgBinding> args{ArgBinding::buffer(c.literal.data(), c.literal.size())};
  for (uint64_t bytes : c.localSizes) args.push_back(ArgBinding::local(bytes));
  LaunchOptions o = options;
  o.subGroupSize = c.subGroupSize;
  const Program::Kernel kernel = program.kernel(c.kernel->name);
  state.started(c);
  const auto start = std::chrono::steady_clock::now();
  LaunchResult r = program.launchOnly(kernel, c.range, args, o, state, &memory, &childMemory);
  const uint64_t ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  const bool aborted = r.aborted;
  merge(result, std::move(r));
  auto children = state.takeRecorded();
  for (const auto& child : children) state.adopt(c.event, *child);
  state.complete(c, aborted ? kClkEnqueueFailure : kClComplete, ns);
  return children;
}

void append(Pending& pending, std::vector<std::unique_ptr<EnqueuedCommand>> commands) {
  for (auto& c : commands) pending.push_back(std::move(c));
}

// The commands no event can release any more: their wait lists name user events whose
// status is never set, or the event of an ancestor (which completes only after them).
void reportStuck(const Pending& pending, LaunchResult& result) {
  for (const auto& c : pending)
    result.diagnostics.push_back(enqueueDiagnostic(
        Severity::Error, *c,
        describe(*c) + " never ran: its wait list names an event that never completes "
                       "(a user event whose status is never set, or the event of a command that "
                       "completes only after its children, this one among them)"));
}

}  // namespace

void runEnqueued(Program& program, DeviceEnqueueState& state, const LaunchOptions& options,
                 const InheritedMemory& memory, LaunchResult& result) {
  // Every launch's regions stay alive (children's literals among them) until the end:
  // a grandchild's table names them.
  std::deque<InheritedMemory> tables{memory};
  std::deque<std::unique_ptr<EnqueuedCommand>> done;
  Pending pending;
  append(pending, state.takeRecorded());
  if (result.aborted) {  // the parent did not complete: its children do not start
    for (auto& c : pending) state.complete(*c, kClkEnqueueFailure, 0);
    return;
  }
  std::vector<const InheritedMemory*> tableOf;  // parallel to pending: whose regions
  for (size_t i = 0; i < pending.size(); ++i) tableOf.push_back(&tables.front());
  while (!pending.empty()) {
    size_t i = 0;
    int32_t wait = kClSubmitted;
    for (; i < pending.size(); ++i)
      if ((wait = waitStatus(state, *pending[i])) != kClSubmitted) break;
    if (i == pending.size()) return reportStuck(pending, result);
    std::unique_ptr<EnqueuedCommand> c = std::move(pending[i]);
    const InheritedMemory* parentMemory = tableOf[i];
    pending.erase(pending.begin() + i);
    tableOf.erase(tableOf.begin() + i);
    if (wait < 0) {
      result.diagnostics.push_back(enqueueDiagnostic(
          Severity::Warning, *c,
          fmt::format("{} did not run: an event of its wait list ended with status {}",
                      describe(*c), wait)));
      state.complete(*c, wait, 0);
    } else if (c->marker) {
      state.complete(*c, kClComplete, 0);
    } else {
      tables.emplace_back();
      std::vector<std::unique_ptr<EnqueuedCommand>> more;
      try {
        more = runKernel(program, state, options, *parentMemory, *c, result, tables.back());
      } catch (const Error& e) {
        result.diagnostics.push_back(
            enqueueDiagnostic(Severity::Error, *c, describe(*c) + ": " + e.what()));
        state.complete(*c, kClkEnqueueFailure, 0);
        for (auto& lost : state.takeRecorded()) state.complete(*lost, kClkEnqueueFailure, 0);
        done.push_back(std::move(c));
        continue;
      }
      if (result.aborted) return;
      for (size_t k = 0; k < more.size(); ++k) tableOf.push_back(&tables.back());
      append(pending, std::move(more));
    }
    done.push_back(std::move(c));
  }
}

}  // namespace spvsim
