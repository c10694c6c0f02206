// Events: the status of one command (or a user event), its profiling timestamps and
// callbacks. Every enqueued command has one, whether or not the application asked for
// it, so that wait lists, markers and barriers work on all commands alike.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "runtime/interfaces.h"

struct _cl_event : spvsim::rt::Object {
  _cl_event() : Object(spvsim::rt::Kind::Event) {}
  ~_cl_event();  // releases the context

  using Callback = void(CL_CALLBACK*)(cl_event, cl_int, void*);
  struct Registration {
    cl_int onStatus;  // CL_SUBMITTED, CL_RUNNING or CL_COMPLETE
    Callback fn;
    void* data;
  };

  cl_context context = nullptr;      // retained
  cl_command_queue queue = nullptr;  // not retained (a handle value); null for user events
  cl_command_type type = CL_COMMAND_USER;
  bool profiling = false;
  std::atomic<bool> userStatusSet{false};  // user events: clSetUserEventStatus was called

  std::atomic<cl_int> status{CL_QUEUED};  // written under `mutex`, read without it
  std::mutex mutex;
  std::condition_variable changed;
  cl_ulong times[4] = {};               // CL_PROFILING_COMMAND_QUEUED, _SUBMIT, _START, _END
  std::vector<Registration> callbacks;  // not yet called
  std::vector<std::function<void()>> onFinish;  // internal, run once the event terminates
};

namespace spvsim::rt {

// A finished status: CL_COMPLETE or an error code.
inline bool terminated(cl_int status) { return status <= CL_COMPLETE; }

// A new event (one reference, held by the caller) in status `initial`.
_cl_event* newEvent(cl_context context, cl_command_queue queue, cl_command_type type,
                    bool profiling, cl_int initial = CL_QUEUED);

// Moves the event forward to `status` (statuses only decrease; a terminated event
// never changes), records timestamps and runs the callbacks it reached, on the calling
// thread and without locks held. The caller holds a reference.
void setStatus(_cl_event* e, cl_int status);

// Blocks until the event terminated; its final status.
cl_int waitFor(_cl_event* e);

// Runs `fn` once the event terminated (now, on this thread, if it already has).
void whenFinished(_cl_event* e, std::function<void()> fn);

_cl_event* validEvent(cl_event event);

}  // namespace spvsim::rt
