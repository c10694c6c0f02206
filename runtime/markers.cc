// Markers, barriers and waits: commands that only order other commands.
#include "runtime/core_api.h"
#include "runtime/queue.h"

namespace spvsim::rt {

cl_int clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                   const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  return enqueueOrdered(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list,
                        event, nullptr, false, Ordering::AllBefore);
}

cl_int clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  return enqueueOrdered(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list,
                        event, nullptr, false, Ordering::Barrier);
}

// OpenCL 1.1: a marker after every earlier command; the event is required.
cl_int clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if (!event) return CL_INVALID_VALUE;
  return rt::clEnqueueMarkerWithWaitList(command_queue, 0, nullptr, event);
}

cl_int clEnqueueBarrier(cl_command_queue command_queue) {
  return rt::clEnqueueBarrierWithWaitList(command_queue, 0, nullptr, nullptr);
}

// OpenCL 1.1: later commands wait for these events (a barrier on them).
cl_int clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                              const cl_event* event_list) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  cl_int err = checkWaitList(queueContext(command_queue), num_events, event_list);
  if (err == CL_INVALID_EVENT_WAIT_LIST) return CL_INVALID_EVENT;
  if (err) return err;
  return enqueueOrdered(command_queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr, nullptr,
                        false, Ordering::Barrier);
}

}  // namespace spvsim::rt
