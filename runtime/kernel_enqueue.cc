// clEnqueueNDRangeKernel and clEnqueueTask: checks the launch when it is enqueued, runs
// it on the queue's worker thread, then writes the kernel's printf output to stdout and
// its diagnostics where SPVSIM_DIAGNOSTICS says.
//
// A launch that a fatal error stopped (spvsim's LaunchResult::aborted: an instruction
// budget exceeded, barrier divergence, OpUnreachable...) completes its event with
// CL_OUT_OF_RESOURCES: the API spec gives an abnormally terminated command a negative
// status without naming one, CL_OUT_OF_RESOURCES is the code OpenCL implementations
// report for kernels that fault, and waits on the event then fail with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST as the spec requires. Error diagnostics
// of a launch that ran to the end (an out-of-bounds read, say) leave it CL_COMPLETE.
//
// A launch that runs out of memory ends the same way, with the reason in the
// diagnostics: beyond SPVSIM_MAX_MEMORY (the simulator refuses or stops it), or when
// the host has no more (std::bad_alloc). The spec's code for "a failure to allocate
// resources required by the OpenCL implementation on the device" is
// CL_OUT_OF_RESOURCES, and the simulated device's memory is what a launch allocates.
#include <fmt/format.h>

#include <cstdio>
#include <mutex>
#include <new>

#include "runtime/arg_errors.h"
#include "runtime/capture.h"
#include "runtime/diagnostic_output.h"
#include "runtime/kernel.h"
#include "runtime/knobs.h"
#include "runtime/mem.h"
#include "runtime/ndrange.h"
#include "runtime/program_api.h"
#include "runtime/queue.h"
#include "spirv/error.h"
#include "src/check/observers.h"

namespace spvsim::rt {
namespace {

constexpr cl_int kAbortedStatus = CL_OUT_OF_RESOURCES;

// Buffers a command uses, retained until the command object goes away (run or not).
class RetainedBuffers {
 public:
  ~RetainedBuffers() {
    for (cl_mem m : mems_) release(m);
  }
  void add(cl_mem m) {
    retain(m);
    mems_.push_back(m);
  }

 private:
  std::vector<cl_mem> mems_;
};

// Everything a launch needs, fixed when it is enqueued (but for `svm`).
struct Launch {
  std::shared_ptr<Program> executable;
  Program::Kernel kernel;
  NDRange range;
  std::vector<KernelArg> args;
  std::shared_ptr<RetainedBuffers> buffers = std::make_shared<RetainedBuffers>();
  // The context's live SVM allocations, taken when the launch runs (enqueueKernel).
  std::vector<SvmAllocation> svm;
  bool empty = false;                            // a zero global size: nothing to run
  DeviceQueueOptions deviceQueues;               // the context's device queues at enqueue time
  std::shared_ptr<const CaptureSource> capture;  // SPVSIM_CAPTURE: null unless captured
  uint32_t subGroupSize = 16;                    // for a kernel without intel_reqd_sub_group_size
};

void reportDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  if (diagnostics.empty()) return;
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    const std::string line = formatText(d);  // one line, no newline
    text += line + '\n';
  }
  countDiagnostics(diagnostics.size());
  writeDiagnosticText(text);
}

// A launch that produced no result: one error diagnostic saying why.
void reportFailure(const std::string& kernel, DiagnosticKind kind, const std::string& message) {
  Diagnostic d;
  d.kind = kind;
  d.message = message;
  d.kernel = kernel;
  reportDiagnostics({d});
}

// The arguments with each buffer's storage bound (the snapshot keeps the buffers alive).
// A buffer over SVM memory (CL_MEM_USE_HOST_PTR of an SVM pointer) is passed as its SVM
// address, so that pointers into it the kernel stores are the host's.
std::vector<ArgBinding> bindings(const std::vector<KernelArg>& args) {
  std::vector<ArgBinding> out;
  for (const KernelArg& a : args) {
    out.push_back(a.binding);
    if (a.binding.kind == ArgBinding::Kind::Buffer) {
      out.back().data = a.mem->data;
      out.back().size = a.mem->size;
      out.back().uninitialized = !rootOf(a.mem)->contentsWritten;
      if (usesSvmPointer(a.mem)) out.back() = ArgBinding::svmPointer(a.mem->data);
    }
    if (a.binding.kind == ArgBinding::Kind::Pipe) out.back().pipe = a.mem->pipe.get();
  }
  return out;
}

// After a launch: buffers (and buffers under images) it was given may now hold values
// the kernel wrote, so later launches see them as initialised.
void markArgumentsWritten(const std::vector<KernelArg>& args) {
  for (const KernelArg& a : args)
    if (a.mem &&
        (a.binding.kind == ArgBinding::Kind::Buffer || a.binding.kind == ArgBinding::Kind::Image))
      markContentsWritten(a.mem);
}

// The launch itself, on the queue's worker thread.
cl_int execute(const Launch& l) {
  LaunchOptions options;
  options.subGroupSize = l.subGroupSize;
  options.threads = knobs().threads;
  options.instructionBudget = knobs().instructionBudget;
  if (knobs().reconvergenceSeed) {
    options.reconvergence = LaunchOptions::Reconvergence::Random;
    options.reconvergenceSeed = *knobs().reconvergenceSeed;
  }
  if (knobs().relaxedSeed) {
    options.memoryModel = LaunchOptions::MemoryModel::Relaxed;
    options.memoryModelSeed = *knobs().relaxedSeed;
  }
  if (knobs().residentGroups) {  // 0: as many as CL_DEVICE_MAX_COMPUTE_UNITS (the threads)
    options.forwardProgress = LaunchOptions::ForwardProgress::Occupancy;
    options.residentGroups = *knobs().residentGroups;
  }
  options.observers = check::observersFor({.races = knobs().checkRaces,
                                           .uninitialized = knobs().checkUninitialized,
                                           .undefinedValues = knobs().checkUndefined});
  options.maxMemory = knobs().maxMemory;
  options.svm = l.svm;
  options.deviceQueues = l.deviceQueues;
  options.deviceQueues.maxEnqueues = knobs().maxDeviceEnqueues;
  LaunchResult result;
  try {
    result = l.executable->launch(l.kernel, l.range, bindings(l.args), options);
    markArgumentsWritten(l.args);
  } catch (const Error& e) {  // a limit such as SPVSIM_MAX_MEMORY; the rest is checked
    reportFailure(l.kernel.name(), e.kind(), e.what());  // at enqueue time
    return kAbortedStatus;
  } catch (const std::bad_alloc&) {
    reportFailure(l.kernel.name(), DiagnosticKind::OutOfMemory,
                  fmt::format("the host ran out of memory for the launch of {} (SPVSIM_MAX_MEMORY "
                              "is {} bytes)",
                              l.kernel.name(), knobs().maxMemory));
    return kAbortedStatus;
  }
  if (!result.printfOutput.empty()) {
    std::fwrite(result.printfOutput.data(), 1, result.printfOutput.size(), stdout);
    std::fflush(stdout);
  }
  reportDiagnostics(result.diagnostics);
  return result.aborted ? kAbortedStatus : CL_COMPLETE;
}

// Runs on the queue's worker thread; a captured launch is written before it runs (its
// inputs) and after (its outputs).
cl_int runLaunch(const Launch& l) {
  if (l.empty) return CL_COMPLETE;
  std::unique_ptr<LaunchCapture> capture;
  if (l.capture)
    capture = LaunchCapture::begin(
        {*l.capture, *l.executable, l.kernel, l.range, l.args, !l.svm.empty(), l.subGroupSize});
  const cl_int status = execute(l);
  if (capture) capture->finish(status);
  return status;
}

// Buffers, images and pipes: arguments whose cl_mem the launch holds (a pipe's packets
// persist in the cl_mem between launches).
bool holdsMem(const KernelArg& a) {
  const auto k = a.binding.kind;
  return k == ArgBinding::Kind::Buffer || k == ArgBinding::Kind::Image ||
         k == ArgBinding::Kind::Pipe;
}

// The arguments as set now; every one must be set (an unset one counts as missing:
// ArgErrorKind::Count) and every buffer still alive.
cl_int snapshotArgs(_cl_kernel* k, Launch& l) {
  std::lock_guard<std::mutex> lock(k->mutex);
  const auto& params = k->kernel.signature().params;
  for (size_t i = 0; i < k->args.size(); ++i) {
    const KernelArg& a = k->args[i];
    if (!a.set) return clError(ArgErrorKind::Count, params[i].kind);
    if (holdsMem(a) && !checked<_cl_mem>(a.mem, Kind::Mem)) return CL_INVALID_KERNEL_ARGS;
  }
  l.args = k->args;
  for (const KernelArg& a : l.args)
    if (holdsMem(a)) l.buffers->add(a.mem);
  return CL_SUCCESS;
}

cl_int enqueueKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* offset,
                     const size_t* global, const size_t* local, cl_command_type type,
                     cl_uint numWait, const cl_event* waitList, cl_event* event) {
  if (!validQueue(queue)) return CL_INVALID_COMMAND_QUEUE;
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (queueContext(queue) != k->program->context) return CL_INVALID_CONTEXT;
  if (dims < 1 || dims > 3) return CL_INVALID_WORK_DIMENSION;
  Launch l;
  l.executable = k->executable;
  l.kernel = k->kernel;
  l.subGroupSize = defaultSubGroupSize(k);
  l.deviceQueues = deviceQueueOptions(k->program->context);
  if (cl_int err = snapshotArgs(k, l)) return err;
  l.capture = captureSourceFor(k);
  // OpenCL 3.0: a NULL or zero global size "trivially succeeds" like a marker.
  l.empty = !global;
  for (cl_uint d = 0; global && d < dims; ++d) l.empty |= global[d] == 0;
  if (!l.empty) {
    if (cl_int err = makeRange(k, dims, offset, global, local, l.range)) return err;
    // clSetKernelArg takes any non-zero local size (its only local error is
    // CL_INVALID_ARG_SIZE for 0); the launch then cannot run: clEnqueueNDRangeKernel's
    // CL_OUT_OF_RESOURCES, "a failure to queue the execution instance of kernel ...
    // because of insufficient resources needed to execute the kernel", the spec's
    // example being "insufficient resources such as registers or local memory".
    if (localMemoryBytes(k->staticLocalBytes, l.args) > deviceCaps().localMemSize)
      return CL_OUT_OF_RESOURCES;
  }
  // The SVM allocations are taken when the launch runs, not now: a clEnqueueSVMFree
  // queued before it has freed its memory by then, and a kernel reaching freed memory
  // gets a diagnostic (no allocation holds it) rather than a host fault.
  auto* c = static_cast<_cl_context*>(k->program->context);
  return enqueue(queue, type, numWait, waitList, event, [l, c]() mutable {
    l.svm = c->svm.allocations();
    return runLaunch(l);
  });
}

}  // namespace

cl_int clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event) {
  return enqueueKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                       local_work_size, CL_COMMAND_NDRANGE_KERNEL, num_events_in_wait_list,
                       event_wait_list, event);
}

cl_int clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                     cl_event* event) {
  // "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1,
  // global_work_offset set to NULL, global_work_size[0] set to 1 and local_work_size[0]
  // set to 1".
  const size_t one = 1;
  return enqueueKernel(command_queue, kernel, 1, nullptr, &one, &one, CL_COMMAND_TASK,
                       num_events_in_wait_list, event_wait_list, event);
}

}  // namespace spvsim::rt
