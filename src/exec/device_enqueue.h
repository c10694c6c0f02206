// Device-side enqueue (OpenCL 2.0): what the kernels of a launch enqueue (enqueue_kernel,
// enqueue_marker), their events, and running the enqueued kernels after the launch that
// enqueued them (src/DESIGN.md "Device-side enqueue").
//
// The executor's handlers (src/exec/ops/device_enqueue.cc) record each command here;
// Program::launch then runs the commands as a device draining its queues would: depth
// first, each command's children (once their wait lists completed) before the
// command's later siblings, so the commands outstanding at once stay few (a fan-out
// tree holds its depth times its fan-out, not a whole level). Every flag (NO_WAIT,
// WAIT_KERNEL, WAIT_WORK_GROUP) allows a child to start after its parent has finished
// executing, which is when spvsim starts it; the parent's event completes when the
// parent and all its children have. No order between children is guaranteed without
// events; spvsim's is fixed (src/DESIGN.md "Device-side enqueue").
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "spirv/module.h"
#include "src/exec/device_queue.h"
#include "src/exec/diagnostics.h"
#include "src/exec/launch_types.h"
#include "src/exec/memory.h"

namespace spvsim {

// A command a kernel enqueued.
struct EnqueuedCommand {
  bool marker = false;
  uint64_t queue = 0;
  const spirv::EntryPoint* kernel = nullptr;  // the block's invoke kernel (not for markers)
  NDRange range;
  std::vector<uint8_t> literal;  // a copy of the block literal (the captures)
  std::vector<uint64_t> localSizes;
  std::vector<uint64_t> waits;  // events
  uint64_t event = 0;           // completes with the command
  uint32_t subGroupSize = 0;    // the parent's
  // Deterministic order of the commands of one launch: work-group, then the order the
  // work-group's sub-groups enqueued in (one host thread runs a work-group).
  std::pair<uint64_t, uint64_t> order;
  std::string parent;  // the enqueuing kernel, for messages
};

// What a launch and every launch it causes share: events, queue occupancy, the commands
// the running launch records. Handlers of several host threads call it: it locks.
class DeviceEnqueueState {
 public:
  explicit DeviceEnqueueState(DeviceQueueOptions options) : options_(std::move(options)) {}

  const DeviceQueueOptions& options() const { return options_; }

  // Takes a place in `queue` (one of options().queues) for a command, unless the queue's
  // outstanding commands (size / kDeviceQueueCommandBytes) or the commands the launch
  // tree enqueued (options().maxEnqueues) are at their bound.
  enum class Reservation { Taken, QueueFull, TreeBound };
  Reservation reserve(uint64_t queue);
  // Records a reserved command, giving it its event and order within work-group `group`.
  void record(EnqueuedCommand command, uint64_t group);
  // The commands recorded since the last call, in their deterministic order.
  std::vector<std::unique_ptr<EnqueuedCommand>> takeRecorded();

  // Events (clk_event_t values): enqueue's, markers' and user events; kNullEvent when
  // kMaxDeviceEvents have references.
  uint64_t createEvent(bool user);
  bool isValid(uint64_t event);
  bool retain(uint64_t event);   // false: not a valid event
  bool release(uint64_t event);  // false: not a valid event
  // The event of a command that was not enqueued after all (no one has seen it).
  void forget(uint64_t event);
  // set_user_event_status: false when `event` is not a user event whose status is unset.
  bool setUserStatus(uint64_t event, int32_t status);
  // CL_SUBMITTED until complete, CL_COMPLETE, or a negative error; nullopt: no such event.
  std::optional<int32_t> status(uint64_t event);
  // A command starts running (CL_PROFILING_COMMAND_START of its event).
  void started(const EnqueuedCommand& c);
  // `child` was enqueued by the launch of the command whose event is `parent`: `parent`
  // completes only when `child` has (OpenCL C, "Execution model": a parent kernel is
  // complete when it and all its child kernels have finished).
  void adopt(uint64_t parent, const EnqueuedCommand& child);
  // A command's own execution ended (`execNs`: END - START) with `status`; its queue
  // place is given back. Its event completes now if no child of it is outstanding, else
  // when the last one completes, with `status` or the first error of a child; then the
  // profiling values captured for it are written.
  void complete(const EnqueuedCommand& c, int32_t status, uint64_t execNs);
  // capture_event_profiling_info(CLK_PROFILING_COMMAND_EXEC_TIME): `where` (16 writable
  // bytes of a buffer that outlives the launch) receives END - START and COMPLETE - START
  // in ns: at once when the event has completed, else when it completes.
  bool captureProfiling(uint64_t event, uint8_t* where);

 private:
  using Clock = std::chrono::steady_clock;
  struct Event {
    int32_t refs = 1;
    int32_t status = kClSubmitted;
    bool user = false;
    bool userStatusSet = false;
    // Commands' events: the command's own end and status, the children it waits for,
    // the parent that waits for it, and the profiling times once complete.
    bool ran = false;
    int32_t ranStatus = kClComplete;  // the command's own; a failed child's error below
    int32_t childError = kClComplete;
    uint64_t children = 0;  // not yet complete
    uint64_t parent = 0;
    uint64_t waiters = 0;  // recorded commands whose wait lists name it, not yet complete
    Clock::time_point start{};
    std::array<uint64_t, 2> times{};  // END - START, COMPLETE - START (ns)
    std::vector<uint8_t*> profiling;  // where captures wait for the times
  };
  Event* find(uint64_t event);
  // Drops event `id` once nothing can learn of it any more: no references (kernels can no
  // longer name it), no command waiting on it, and complete (a command's: it and its
  // children; a user event: its status set, or never to be). A tree's memory then
  // follows the commands outstanding, not all it ever enqueued.
  void forgetIfDone(uint64_t id);
  // Completes command event `id` (and, in turn, parents) once it ran and its children did.
  void completeIfDone(uint64_t id);

  std::mutex mutex_;
  DeviceQueueOptions options_;
  std::unordered_map<uint64_t, Event> events_;
  uint64_t nextEvent_ = 1;
  uint64_t live_ = 0;                         // events with references (kMaxDeviceEvents)
  std::map<uint64_t, uint64_t> outstanding_;  // per queue
  uint64_t total_ = 0;
  std::map<uint64_t, uint64_t> nextOrder_;  // per work-group of the running launch
  std::vector<std::unique_ptr<EnqueuedCommand>> recorded_;
};

// The kernel entry point that runs block invoke function `invoke`: the entry point whose
// function is `invoke`, or whose function only calls it (llvm-spirv's wrapper); null if
// there is none.
const spirv::EntryPoint* invokeKernel(const spirv::Module& module, spirv::Id invoke);

// Whether `ep` runs a block that the module enqueues or queries (OpEnqueueKernel,
// OpGetKernel*): such kernels are the blocks', not the user's (the CLI's default kernel).
bool isBlockInvokeKernel(const spirv::Module& module, const spirv::EntryPoint& ep);

// Runs the commands the launch that produced `result` enqueued (and theirs, in turn),
// adding their diagnostics, output and counts to `result`. `memory` holds the global and
// constant regions of that launch, which the children's captured pointers name.
void runEnqueued(Program& program, DeviceEnqueueState& state, const LaunchOptions& options,
                 const InheritedMemory& memory, LaunchResult& result);

}  // namespace spvsim
