// Command queues: each has a worker thread that runs its commands once their wait
// lists have finished, in order (in-order queues) or as they become ready
// (out-of-order queues).
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "runtime/event.h"
#include "runtime/interfaces.h"

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
};

namespace spvsim::rt {

_cl_command_queue* validQueue(cl_command_queue queue);

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
