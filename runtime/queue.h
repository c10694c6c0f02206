// Command queues: each has a worker thread that runs its commands once their wait
// lists have finished, in order (in-order queues) or as they become ready
// (out-of-order queues).
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "runtime/event.h"
#include "runtime/interfaces.h"
#include "src/exec/device_queue.h"

namespace spvsim::rt {
struct QueueState;  // queue.cc: shared by the queue object and its worker thread
}

struct _cl_command_queue : spvsim::rt::Object {
  _cl_command_queue() : Object(spvsim::rt::Kind::Queue) {}
  ~_cl_command_queue();  // lets the worker finish the queued commands, then end

  cl_context context = nullptr;  // retained
  cl_device_id device = nullptr;
  std::atomic<cl_command_queue_properties> props{0};
  std::vector<cl_queue_properties> properties;  // clCreateCommandQueueWithProperties' list
  std::shared_ptr<spvsim::rt::QueueState> state;
  cl_uint deviceQueueSize = 0;  // CL_QUEUE_ON_DEVICE queues: CL_QUEUE_SIZE
};

namespace spvsim::rt {

// A host queue (device queues take no host commands); null otherwise.
_cl_command_queue* validQueue(cl_command_queue queue);
// A host or device queue.
_cl_command_queue* anyQueue(cl_command_queue queue);
cl_command_queue makeQueue(cl_context context, cl_device_id device,
                           cl_command_queue_properties bits, cl_int* errcode_ret);

// On-device queues (runtime/device_queue.cc).
bool isDeviceQueue(const _cl_command_queue* q);
cl_command_queue createDeviceQueue(cl_context context, cl_device_id device,
                                   cl_command_queue_properties bits, cl_uint size,
                                   cl_int* errcode_ret);
void forgetDeviceQueue(_cl_command_queue* q);  // from its destructor
cl_command_queue defaultDeviceQueue(cl_context context);
// The context's device queues as a launch sees them (their queue_t values, sizes).
DeviceQueueOptions deviceQueueOptions(cl_context context);

// How a command orders itself against the others of an out-of-order queue.
enum class Ordering {
  WaitList,   // only its wait list
  AllBefore,  // marker: its wait list, or every earlier command when the list is empty
  Barrier,    // the same, and every later command waits for it
};

// Validates a wait list against a context: CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT.
cl_int checkWaitList(cl_context context, cl_uint numWait, const cl_event* waitList);

// enqueue() with an ordering (markers and barriers).
cl_int enqueueOrdered(cl_command_queue queue, cl_command_type type, cl_uint numWait,
                      const cl_event* waitList, cl_event* event, std::function<cl_int()> run,
                      bool blocking, Ordering ordering);

}  // namespace spvsim::rt
