// The object types shared between the runtime's files, as far as other files use
// them. Each is defined (and may gain fields) in the file named beside it.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/object.h"
#include "src/exec/image.h"
#include "src/exec/svm_heap.h"

namespace spvsim {
class PipeStorage;  // src/exec/pipe.h
}

// runtime/platform.cc: the one platform and its one device.
struct _cl_platform_id : spvsim::rt::Object {
  _cl_platform_id() : Object(spvsim::rt::Kind::Platform) {}
};
struct _cl_device_id : spvsim::rt::Object {
  _cl_device_id() : Object(spvsim::rt::Kind::Device) {}
};

namespace spvsim::rt {
cl_platform_id thePlatform();
cl_device_id theDevice();

// runtime/device.cc: the device facts that programs and kernels must agree with
// (clGetDeviceInfo reports exactly these).
struct DeviceCaps {
  cl_uint computeUnits = 0;     // host threads a launch uses (SPVSIM_THREADS)
  size_t maxWorkGroupSize = 0;  // spvsim::kDeviceMaxWorkGroupSize
  cl_ulong globalMemSize = 0;   // the host's physical memory
  cl_ulong localMemSize = 0;    // per work-group
  cl_ulong maxMemAllocSize = 0;
  size_t maxParameterSize = 0;               // bytes of all kernel arguments together
  cl_uint maxNumSubGroups = 0;               // per work-group, at the smallest sub-group size
  cl_uint maxClockMHz = 0;                   // the host CPU's (CL_DEVICE_MAX_CLOCK_FREQUENCY)
  cl_uint subGroupSize = 0;                  // for kernels without intel_reqd_sub_group_size
  std::vector<size_t> subGroupSizes;         // CL_DEVICE_SUB_GROUP_SIZES_INTEL
  std::vector<std::string> extensions;       // CL_DEVICE_EXTENSIONS, in order
  std::vector<std::string> openclCFeatures;  // __opencl_c_* (all version 3.0.0)
  std::vector<cl_name_version> ils;          // CL_DEVICE_ILS_WITH_VERSION
};
const DeviceCaps& deviceCaps();
}  // namespace spvsim::rt

// runtime/context.cc
struct _cl_context : spvsim::rt::Object {
  _cl_context() : Object(spvsim::rt::Kind::Context) {}
  std::vector<cl_device_id> devices;
  std::vector<cl_context_properties> properties;  // as given, 0-terminated (empty if none)
  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
  void* notifyData = nullptr;
  std::vector<std::pair<void(CL_CALLBACK*)(cl_context, void*), void*>> destructorCallbacks;
  std::mutex mutex;     // guards destructorCallbacks
  spvsim::SvmHeap svm;  // clSVMAlloc's memory (runtime/svm.cc)
  // On-device queues (runtime/device_queue.cc), not retained: each removes itself when
  // destroyed. The default is what get_default_queue returns.
  std::mutex deviceQueueMutex;
  std::vector<cl_command_queue> deviceQueues;
  cl_command_queue defaultDeviceQueue = nullptr;
  ~_cl_context();  // runs the destructor callbacks, last registered first
};

// runtime/mem.cc: buffers and sub-buffers; runtime/image.cc: images.
struct _cl_mem : spvsim::rt::Object {
  _cl_mem() : Object(spvsim::rt::Kind::Mem) {}
  cl_context context = nullptr;  // retained
  cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
  cl_mem_flags flags = 0;
  size_t size = 0;
  void* hostPtr = nullptr;    // CL_MEM_USE_HOST_PTR: the application's memory
  uint8_t* data = nullptr;    // the contents kernels and commands read and write
  _cl_mem* parent = nullptr;  // sub-buffers, 1-D buffer images: retained buffer
  size_t origin = 0;          // sub-buffers: offset in the parent
  std::vector<cl_mem_properties> properties;
  spvsim::ImageDesc image;  // images: shape, format, pitches; image.data == data
  // Owned storage (null for CL_MEM_USE_HOST_PTR and sub-buffers), freed by ~_cl_mem.
  uint8_t* storage = nullptr;
  std::shared_ptr<spvsim::PipeStorage> pipe;  // CL_MEM_OBJECT_PIPE (runtime/pipe.cc)
  std::mutex mutex;                           // guards the two lists below
  std::vector<void*> mappings;                // pointers of live maps (CL_MEM_MAP_COUNT)
  std::vector<std::pair<void(CL_CALLBACK*)(cl_mem, void*), void*>> destructorCallbacks;
  // Root buffers: whether anything gave the contents values (a host pointer at creation,
  // a write, fill or copy command, a map for writing, a kernel given the buffer or an image
  // over it); kernels see a buffer without as never initialised (ArgBinding::uninitialized,
  // --check-undefined). Whole-buffer: a partial write counts, so nothing is reported wrongly.
  mutable std::atomic<bool> contentsWritten{false};
  // Root buffers and images of the OpenCL layer's replays (runtime/layer/): what the
  // application's device left in them (images: pixels packed), captured (SPVSIM_CAPTURE) as
  // their "after" contents instead of the simulator's, so that a bundle records the
  // device's run.
  std::shared_ptr<const std::vector<uint8_t>> capturedAfter;
  ~_cl_mem();  // runs the destructor callbacks (last registered first), frees storage
};

namespace spvsim::rt {

// runtime/queue.cc. Enqueues a command on `queue`: `run` executes on the queue's worker
// thread once every event of the wait list has completed (and, on an in-order queue,
// every earlier command); it returns the command's final status (CL_COMPLETE or a
// negative error code). Validates the wait list (CL_INVALID_EVENT_WAIT_LIST,
// CL_INVALID_CONTEXT), returns a new event through `event` when it is not null, and
// when `blocking` waits for the command (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
// if a wait-list event failed, so the command did not run).
cl_int enqueue(cl_command_queue queue, cl_command_type type, cl_uint numWait,
               const cl_event* waitList, cl_event* event, std::function<cl_int()> run,
               bool blocking = false);

// The context of a live queue (the caller has validated it).
cl_context queueContext(cl_command_queue queue);

}  // namespace spvsim::rt
