// Event status transitions, waiting, callbacks, user events and event queries.
#include "runtime/event.h"

#include "runtime/clock.h"
#include "runtime/core_api.h"
#include "runtime/info_reply.h"

_cl_event::~_cl_event() {
  if (context) spvsim::rt::release(context);
}

namespace spvsim::rt {
namespace {

// Index into _cl_event::times of the timestamp taken on reaching `status`.
int timeIndex(cl_int status) {
  return CL_QUEUED - std::max<cl_int>(status, CL_COMPLETE);  // QUEUED 0 ... COMPLETE 3
}

bool isCallbackType(cl_int t) { return t == CL_SUBMITTED || t == CL_RUNNING || t == CL_COMPLETE; }

}  // namespace

_cl_event* validEvent(cl_event event) { return checked<_cl_event>(event, Kind::Event); }

_cl_event* newEvent(cl_context context, cl_command_queue queue, cl_command_type type,
                    bool profiling, cl_int initial) {
  auto* e = registerObject(new _cl_event);
  retain(context);
  e->context = context;
  e->queue = queue;
  e->type = type;
  e->profiling = profiling;
  e->status = initial;
  e->times[0] = nowNs();
  for (int i = 1; i <= timeIndex(initial); ++i) e->times[i] = e->times[0];
  return e;
}

void setStatus(_cl_event* e, cl_int status) {
  std::vector<_cl_event::Registration> due;
  std::vector<std::function<void()>> finish;
  {
    std::lock_guard lock(e->mutex);
    cl_int old = e->status;
    if (terminated(old) || status >= old) return;
    uint64_t now = nowNs();
    for (int i = timeIndex(old) + 1; i <= timeIndex(status); ++i) e->times[i] = now;
    e->status = status;
    cl_int reached = std::max<cl_int>(status, CL_COMPLETE);
    auto& cbs = e->callbacks;
    for (auto it = cbs.begin(); it != cbs.end();) {
      if (it->onStatus >= reached) {
        due.push_back(*it);
        it = cbs.erase(it);
      } else {
        ++it;
      }
    }
    if (terminated(status)) finish.swap(e->onFinish);
    e->changed.notify_all();
  }
  for (const auto& r : due) r.fn(e, status < 0 ? status : r.onStatus, r.data);
  for (auto& fn : finish) fn();
}

cl_int waitFor(_cl_event* e) {
  std::unique_lock lock(e->mutex);
  e->changed.wait(lock, [&] { return terminated(e->status); });
  return e->status;
}

void whenFinished(_cl_event* e, std::function<void()> fn) {
  {
    std::lock_guard lock(e->mutex);
    if (!terminated(e->status)) {
      e->onFinish.push_back(std::move(fn));
      return;
    }
  }
  fn();
}

cl_int clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; ++i) {
    _cl_event* e = validEvent(event_list[i]);
    if (!e) return CL_INVALID_EVENT;
    if (e->context != validEvent(event_list[0])->context) return CL_INVALID_CONTEXT;
  }
  bool failed = false;
  for (cl_uint i = 0; i < num_events; ++i)
    failed |= waitFor(static_cast<_cl_event*>(event_list[i])) < 0;
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

cl_int clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                      void* param_value, size_t* param_value_size_ret) {
  _cl_event* e = validEvent(event);
  if (!e) return CL_INVALID_EVENT;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE:
      return r.scalar(e->queue);
    case CL_EVENT_CONTEXT:
      return r.scalar(e->context);
    case CL_EVENT_COMMAND_TYPE:
      return r.scalar(e->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
      return r.scalar(e->status.load());
    case CL_EVENT_REFERENCE_COUNT:
      return r.scalar(e->refs.load());
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                               size_t param_value_size, void* param_value,
                               size_t* param_value_size_ret) {
  _cl_event* e = validEvent(event);
  if (!e) return CL_INVALID_EVENT;
  int index;
  switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED:
      index = 0;
      break;
    case CL_PROFILING_COMMAND_SUBMIT:
      index = 1;
      break;
    case CL_PROFILING_COMMAND_START:
      index = 2;
      break;
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE:  // no child commands: the same as END
      index = 3;
      break;
    default:
      return CL_INVALID_VALUE;
  }
  if (!e->profiling || e->status != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  std::lock_guard lock(e->mutex);
  return returnValue(cl_ulong{e->times[index]}, param_value_size, param_value,
                     param_value_size_ret);
}

cl_int clRetainEvent(cl_event event) {
  _cl_event* e = validEvent(event);
  return e && retainHandle(e) ? CL_SUCCESS : CL_INVALID_EVENT;
}

cl_int clReleaseEvent(cl_event event) {
  _cl_event* e = validEvent(event);
  return e && releaseHandle(e) ? CL_SUCCESS : CL_INVALID_EVENT;
}

cl_int clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                          void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*), void* user_data) {
  _cl_event* e = validEvent(event);
  if (!e) return CL_INVALID_EVENT;
  if (!pfn_notify || !isCallbackType(command_exec_callback_type)) return CL_INVALID_VALUE;
  cl_int now;
  {
    std::lock_guard lock(e->mutex);
    now = e->status;
    if (now > command_exec_callback_type) {
      e->callbacks.push_back({command_exec_callback_type, pfn_notify, user_data});
      return CL_SUCCESS;
    }
  }
  // Already reached: call it right away.
  pfn_notify(e, now < 0 ? now : command_exec_callback_type, user_data);
  return CL_SUCCESS;
}

cl_event clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_event>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  return withError<cl_event>(errcode_ret, CL_SUCCESS,
                             newEvent(context, nullptr, CL_COMMAND_USER, false, CL_SUBMITTED));
}

cl_int clSetUserEventStatus(cl_event event, cl_int execution_status) {
  _cl_event* e = validEvent(event);
  if (!e || e->type != CL_COMMAND_USER || e->queue) return CL_INVALID_EVENT;
  if (execution_status != CL_COMPLETE && execution_status >= 0) return CL_INVALID_VALUE;
  if (e->userStatusSet.exchange(true)) return CL_INVALID_OPERATION;
  retain(e);  // a callback may release the application's reference
  setStatus(e, execution_status);
  release(e);
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
