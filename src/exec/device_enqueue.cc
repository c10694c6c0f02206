#include "src/exec/device_enqueue.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>

#include "spirv/error.h"
#include "src/exec/program.h"

namespace spvsim {

DeviceEnqueueState::Reservation DeviceEnqueueState::reserve(uint64_t queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  const DeviceQueue* q = options_.find(queue);
  if (!q) return Reservation::QueueFull;  // callers name a valid queue: a queue of no places
  uint64_t& n = outstanding_[queue];
  if (n >= q->size / kDeviceQueueCommandBytes) return Reservation::QueueFull;
  if (total_ >= options_.maxEnqueues) return Reservation::TreeBound;
  ++n;
  ++total_;
  return Reservation::Taken;
}

void DeviceEnqueueState::record(EnqueuedCommand command, uint64_t group) {
  std::lock_guard<std::mutex> lock(mutex_);
  command.order = {group, nextOrder_[group]++};
  for (uint64_t e : command.waits) ++events_[e].waiters;  // valid: checked at enqueue
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
  if (!e) return false;
  if (--e->refs == 0) {
    --live_;
    forgetIfDone(event);
  }
  return true;
}

void DeviceEnqueueState::forget(uint64_t event) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (find(event)) {
    --live_;
    events_.erase(event);
  }
}

void DeviceEnqueueState::forgetIfDone(uint64_t id) {
  auto it = events_.find(id);
  if (it == events_.end()) return;
  const Event& e = it->second;
  if (e.refs == 0 && e.waiters == 0 && (e.user || e.status != kClSubmitted)) events_.erase(it);
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
  for (uint64_t w : c.waits) {
    auto it = events_.find(w);
    if (it != events_.end() && it->second.waiters > 0) --it->second.waiters;
    forgetIfDone(w);
  }
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
    const uint64_t done = id;
    id = e.parent;
    forgetIfDone(done);  // `e` may be gone
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

using Commands = std::vector<std::unique_ptr<EnqueuedCommand>>;

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
// after the host launch's), each local size a local-memory argument. Its memory tables
// are the host launch's (`memory`: the buffers and program-scope variables its captured
// pointers may name) plus its own arguments: the literals of kernels that have ended are
// gone, as a device reuses a command's storage once it has run, so a tree's depth costs
// no memory. Returns the commands it enqueued, adopted as its children before it
// completes (it waits for them).
Commands runKernel(Program& program, DeviceEnqueueState& state, const LaunchOptions& options,
                   const InheritedMemory& memory, EnqueuedCommand& c, LaunchResult& result) {
  std::vector<ArgBinding> args{ArgBinding::buffer(c.literal.data(), c.literal.size())};
  for (uint64_t bytes : c.localSizes) args.push_back(ArgBinding::local(bytes));
  LaunchOptions o = options;
  o.subGroupSize = c.subGroupSize;
  const Program::Kernel kernel = program.kernel(c.kernel->name);
  state.started(c);
  const auto start = std::chrono::steady_clock::now();
  LaunchResult r = program.launchOnly(kernel, c.range, args, o, state, &memory, nullptr);
  const uint64_t ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  const bool aborted = r.aborted;
  merge(result, std::move(r));
  Commands children = state.takeRecorded();
  for (const auto& child : children) state.adopt(c.event, *child);
  state.complete(c, aborted ? kClkEnqueueFailure : kClComplete, ns);
  return children;
}

// The commands one launch enqueued that have not run yet, in their recorded order.
using Batch = std::deque<std::unique_ptr<EnqueuedCommand>>;

// The next command to run: the first whose wait list has completed (or failed) in the
// newest batch that has one, so a command's children run before its later siblings (a
// device draining its queue keeps few commands outstanding; spvsim's order is one a
// device may take, and it does not depend on host threads). An emptied batch goes.
std::unique_ptr<EnqueuedCommand> takeReady(DeviceEnqueueState& state, std::vector<Batch>& stack,
                                           int32_t& wait) {
  for (size_t b = stack.size(); b-- > 0;) {
    Batch& pending = stack[b];
    for (auto it = pending.begin(); it != pending.end(); ++it) {
      if ((wait = waitStatus(state, **it)) == kClSubmitted) continue;
      std::unique_ptr<EnqueuedCommand> c = std::move(*it);
      pending.erase(it);
      if (pending.empty()) stack.erase(stack.begin() + ptrdiff_t(b));
      return c;
    }
  }
  return nullptr;
}

// The commands no event can release any more: their wait lists name user events whose
// status is never set, or the event of an ancestor (which completes only after them).
void reportStuck(const std::vector<Batch>& stack, LaunchResult& result) {
  for (const Batch& b : stack)
    for (const auto& c : b)
      result.diagnostics.push_back(enqueueDiagnostic(
          Severity::Error, *c,
          describe(*c) + " never ran: its wait list names an event that never completes "
                         "(a user event whose status is never set, or the event of a command "
                         "that completes only after its children, this one among them)"));
}

}  // namespace

void runEnqueued(Program& program, DeviceEnqueueState& state, const LaunchOptions& options,
                 const InheritedMemory& memory, LaunchResult& result) {
  std::vector<Batch> stack;
  Commands first = state.takeRecorded();
  if (result.aborted) {  // the parent did not complete: its children do not start
    for (auto& c : first) state.complete(*c, kClkEnqueueFailure, 0);
    return;
  }
  if (!first.empty())
    stack.emplace_back(std::make_move_iterator(first.begin()),
                       std::make_move_iterator(first.end()));
  while (!stack.empty()) {
    int32_t wait = kClSubmitted;
    std::unique_ptr<EnqueuedCommand> c = takeReady(state, stack, wait);
    if (!c) return reportStuck(stack, result);
    if (wait < 0) {
      result.diagnostics.push_back(enqueueDiagnostic(
          Severity::Warning, *c,
          fmt::format("{} did not run: an event of its wait list ended with status {}",
                      describe(*c), wait)));
      state.complete(*c, wait, 0);
      continue;
    }
    if (c->marker) {
      state.complete(*c, kClComplete, 0);
      continue;
    }
    Commands children;
    try {
      children = runKernel(program, state, options, memory, *c, result);
    } catch (const Error& e) {
      result.diagnostics.push_back(
          enqueueDiagnostic(Severity::Error, *c, describe(*c) + ": " + e.what()));
      state.complete(*c, kClkEnqueueFailure, 0);
      for (auto& lost : state.takeRecorded()) state.complete(*lost, kClkEnqueueFailure, 0);
      continue;
    }
    if (result.aborted) return;
    if (!children.empty())
      stack.emplace_back(std::make_move_iterator(children.begin()),
                         std::make_move_iterator(children.end()));
  }
}

}  // namespace spvsim
