// Device-side enqueue (OpenCL 2.0): the on-device queues a launch may enqueue to and the
// OpenCL C constants its kernels see (src/DESIGN.md "Device-side enqueue").
#pragma once

#include <cstdint>
#include <vector>

namespace spvsim {

// enqueue_kernel / enqueue_marker return codes (OpenCL C 2.0, 6.13.17).
inline constexpr int32_t kClkSuccess = 0;
inline constexpr int32_t kClkEnqueueFailure = -101;
inline constexpr int32_t kClkInvalidQueue = -102;
inline constexpr int32_t kClkInvalidNdrange = -160;
inline constexpr int32_t kClkInvalidEventWaitList = -57;
inline constexpr int32_t kClkDeviceQueueFull = -161;
inline constexpr int32_t kClkInvalidArgSize = -51;
inline constexpr int32_t kClkEventAllocationFailure = -100;
inline constexpr int32_t kClkOutOfResources = -5;

// clk_event_t values: CLK_NULL_EVENT is all ones; spvsim's events count from 1.
inline constexpr uint64_t kNullEvent = ~0ull;
inline constexpr int32_t kClComplete = 0;
inline constexpr int32_t kClSubmitted = 2;
inline constexpr uint32_t kClkProfilingCommandExecTime = 1;

// One outstanding command (kernel or marker) takes this many bytes of its queue's size:
// a queue of CL_QUEUE_SIZE S holds S / 128 commands, each from its enqueue until it has
// run (its children then hold places of their own).
inline constexpr uint64_t kDeviceQueueCommandBytes = 128;
// The device's CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE and _MAX_SIZE.
inline constexpr uint64_t kDeviceQueuePreferredSize = 16 * 1024;
inline constexpr uint64_t kDeviceQueueMaxSize = 256 * 1024;
// On-device queues one context may have besides its default one, and device events
// alive at once (CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS).
inline constexpr uint32_t kMaxDeviceQueues = 4;
inline constexpr uint32_t kMaxDeviceEvents = 1024;

// Commands one host launch and all its descendants may enqueue, spvsim's bound (no
// device has one: a device's queues bound the commands outstanding at once, not those
// enqueued over time): a kernel that enqueues itself without end would otherwise never
// stop. Far above what conformant programs enqueue (the conformance suite's deepest
// trees enqueue about 5,500); reaching it is a fatal error that names it and how to
// raise it (--max-device-enqueues, SPVSIM_MAX_DEVICE_ENQUEUES).
inline constexpr uint64_t kMaxDeviceEnqueues = 1u << 20;
// The longest event wait list spvsim reads (a list names valid events, at most
// kMaxDeviceEvents of them distinct): a longer one is CLK_INVALID_EVENT_WAIT_LIST.
inline constexpr uint32_t kMaxWaitListEvents = 1u << 14;

// An on-device queue a kernel may name: its queue_t value (never 0, CLK_NULL_QUEUE) and
// its size in bytes.
struct DeviceQueue {
  uint64_t handle = 0;
  uint64_t size = kDeviceQueuePreferredSize;
};

struct DeviceQueueOptions {
  std::vector<DeviceQueue> queues;
  uint64_t defaultQueue = 0;  // what get_default_queue returns: 0 is CLK_NULL_QUEUE
  uint64_t maxEnqueues = kMaxDeviceEnqueues;

  // The command line's: one default queue of the preferred size.
  static DeviceQueueOptions implicitDefault() {
    DeviceQueueOptions o;
    o.queues.push_back(DeviceQueue{1, kDeviceQueuePreferredSize});
    o.defaultQueue = 1;
    return o;
  }
  const DeviceQueue* find(uint64_t handle) const {
    for (const auto& q : queues)
      if (q.handle == handle && handle != 0) return &q;
    return nullptr;
  }
};

}  // namespace spvsim
