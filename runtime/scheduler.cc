// The worker thread of each command queue and enqueue(). A command becomes ready once
// the events it waits for have terminated; an in-order queue runs only its oldest
// command, an out-of-order queue any ready one. The worker sleeps on the queue's
// condition variable, which every awaited event signals when it finishes.
#include <list>
#include <thread>

#include "runtime/queue.h"

namespace spvsim::rt {

struct Command {
  _cl_event* event;               // the queue's reference
  std::vector<_cl_event*> waits;  // the wait list (retained): a failure fails the command
  std::vector<_cl_event*> after;  // ordering only (retained): markers, barriers
  std::function<cl_int()> run;
};

struct QueueState {
  std::mutex mutex;
  std::condition_variable wake;
  std::list<Command> pending;
  std::vector<_cl_event*> active;  // submitted and not yet finished (unretained)
  _cl_event* barrier = nullptr;    // the last barrier (retained); later commands follow it
  std::atomic<bool> outOfOrder{false};
  bool released = false;  // the queue object is gone: finish what is pending, then stop
};

namespace {

bool allFinished(const std::vector<_cl_event*>& events) {
  for (_cl_event* e : events)
    if (!terminated(e->status)) return false;
  return true;
}

bool ready(const Command& c) { return allFinished(c.waits) && allFinished(c.after); }

std::list<Command>::iterator nextReady(QueueState& s) {
  if (!s.outOfOrder) {
    auto front = s.pending.begin();
    return front != s.pending.end() && ready(*front) ? front : s.pending.end();
  }
  for (auto it = s.pending.begin(); it != s.pending.end(); ++it)
    if (ready(*it)) return it;
  return s.pending.end();
}

void execute(Command& c) {
  for (_cl_event* w : c.waits)
    if (w->status < 0) return setStatus(c.event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  setStatus(c.event, CL_RUNNING);
  cl_int status;
  try {
    status = c.run ? c.run() : CL_COMPLETE;
  } catch (...) {  // a command must never take the worker (and the process) down
    status = CL_OUT_OF_RESOURCES;
  }
  setStatus(c.event, status);
}

// Drops the references a finished command held (outside the queue's lock: releasing
// may run destructor callbacks of the application).
void retire(Command& c) {
  for (_cl_event* e : c.waits) release(e);
  for (_cl_event* e : c.after) release(e);
  c.run = nullptr;
  release(c.event);
}

void workerLoop(std::shared_ptr<QueueState> s) {
  std::unique_lock lock(s->mutex);
  for (;;) {
    auto it = s->pending.end();
    s->wake.wait(lock, [&] {
      it = nextReady(*s);
      return it != s->pending.end() || (s->released && s->pending.empty());
    });
    if (it == s->pending.end()) break;
    Command c = std::move(*it);
    s->pending.erase(it);
    lock.unlock();
    execute(c);
    lock.lock();
    std::erase(s->active, c.event);
    lock.unlock();
    retire(c);
    lock.lock();
  }
  _cl_event* barrier = std::exchange(s->barrier, nullptr);
  lock.unlock();
  if (barrier) release(barrier);
}

// Wakes the worker of `s` when `e` finishes (if the queue still exists then).
void wakeOnFinish(_cl_event* e, const std::shared_ptr<QueueState>& s) {
  whenFinished(e, [w = std::weak_ptr<QueueState>(s)] {
    if (auto s = w.lock()) {
      std::lock_guard lock(s->mutex);
      s->wake.notify_all();
    }
  });
}

std::vector<_cl_event*> retained(cl_uint n, const cl_event* list) {
  std::vector<_cl_event*> v;
  for (cl_uint i = 0; i < n; ++i) {
    v.push_back(static_cast<_cl_event*>(list[i]));
    retain(v.back());
  }
  return v;
}

// Queues a command; returns its event with one reference for the caller.
_cl_event* submit(_cl_command_queue* q, cl_command_type type, cl_uint numWait,
                  const cl_event* waitList, std::function<cl_int()> run, Ordering ordering) {
  QueueState& s = *q->state;
  bool profiling = q->props & CL_QUEUE_PROFILING_ENABLE;
  // The new event's reference is the application's (handed out or released by
  // enqueueOrdered); the queue holds one of its own until the command retired.
  _cl_event* e = newEvent(q->context, q, type, profiling, CL_SUBMITTED);
  retain(e);
  Command c{e, retained(numWait, waitList), {}, std::move(run)};
  // Hooks go on before the worker can see (and retire) the command.
  for (_cl_event* w : c.waits) wakeOnFinish(w, q->state);
  std::vector<_cl_event*> after;
  _cl_event* oldBarrier = nullptr;
  {
    std::lock_guard lock(s.mutex);
    if (ordering != Ordering::WaitList && numWait == 0) after = s.active;
    if (s.barrier) after.push_back(s.barrier);
    for (_cl_event* a : after) {
      retain(a);  // the command's
      retain(a);  // ours, until its hook is on
    }
    c.after = after;
    if (ordering == Ordering::Barrier) {
      oldBarrier = std::exchange(s.barrier, e);
      retain(e);
    }
    s.active.push_back(e);
    s.pending.push_back(std::move(c));
  }
  if (oldBarrier) release(oldBarrier);
  for (_cl_event* a : after) {
    wakeOnFinish(a, q->state);
    release(a);
  }
  std::lock_guard lock(s.mutex);
  s.wake.notify_all();
  return e;
}

bool anyFailed(cl_uint n, const cl_event* list) {
  for (cl_uint i = 0; i < n; ++i)
    if (static_cast<_cl_event*>(list[i])->status < 0) return true;
  return false;
}

}  // namespace

std::shared_ptr<QueueState> startWorker(bool outOfOrder) {
  auto s = std::make_shared<QueueState>();
  s->outOfOrder = outOfOrder;
  std::thread(workerLoop, s).detach();  // ends by itself once the queue is released
  return s;
}

void stopWorker(QueueState& s) {
  std::lock_guard lock(s.mutex);
  s.released = true;
  s.wake.notify_all();
}

void setOutOfOrder(QueueState& s, bool outOfOrder) {
  std::lock_guard lock(s.mutex);
  s.outOfOrder = outOfOrder;
  s.wake.notify_all();
}

cl_int checkWaitList(cl_context context, cl_uint numWait, const cl_event* waitList) {
  if ((numWait == 0) != (waitList == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < numWait; ++i) {
    _cl_event* e = validEvent(waitList[i]);
    if (!e) return CL_INVALID_EVENT_WAIT_LIST;
    if (e->context != context) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

cl_int enqueueOrdered(cl_command_queue queue, cl_command_type type, cl_uint numWait,
                      const cl_event* waitList, cl_event* event, std::function<cl_int()> run,
                      bool blocking, Ordering ordering) {
  auto* q = static_cast<_cl_command_queue*>(queue);
  if (cl_int err = checkWaitList(q->context, numWait, waitList)) return err;
  if (blocking && anyFailed(numWait, waitList)) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  _cl_event* e = submit(q, type, numWait, waitList, std::move(run), ordering);
  // A blocking command whose wait list failed did not run: an unsuccessful enqueue,
  // which hands out no event (OpenCL 3.0, "event" of every clEnqueue*).
  if (blocking && waitFor(e) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
    releaseHandle(e);
    return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  if (event)
    *event = e;
  else
    releaseHandle(e);  // nobody has the handle: only the queue's reference keeps it
  return CL_SUCCESS;
}

cl_int enqueue(cl_command_queue queue, cl_command_type type, cl_uint numWait,
               const cl_event* waitList, cl_event* event, std::function<cl_int()> run,
               bool blocking) {
  return enqueueOrdered(queue, type, numWait, waitList, event, std::move(run), blocking,
                        Ordering::WaitList);
}

}  // namespace spvsim::rt
