// The one device: identity, clGetDeviceInfo, sub-devices (none) and the timers.
#include <string>

#include "runtime/clock.h"
#include "runtime/core_api.h"
#include "runtime/image.h"
#include "runtime/info_reply.h"
#include "runtime/interfaces.h"
#include "runtime/pipe.h"
#include "src/exec/device_queue.h"

namespace spvsim::rt {
namespace {

// A simulator of GPU execution (lockstep sub-groups), so applications that ask for a
// GPU find it.
constexpr cl_device_type kDeviceType = CL_DEVICE_TYPE_GPU;
constexpr cl_device_type kValidTypes = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                       CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                       CL_DEVICE_TYPE_CUSTOM;

// cl_ext_float_atomics' queries and bits (not in this system's CL/cl_ext.h).
constexpr cl_device_info kSingleFpAtomicCapabilities = 0x4231;
constexpr cl_device_info kDoubleFpAtomicCapabilities = 0x4232;
constexpr cl_device_info kHalfFpAtomicCapabilities = 0x4233;
constexpr cl_bitfield kGlobalFpAtomics =
    (1 << 0) | (1 << 1) | (1 << 2);  // load/store, add, min/max
constexpr cl_bitfield kFpAtomics = kGlobalFpAtomics | kGlobalFpAtomics << 16;  // and local

std::string ilVersionString() {
  std::string s;
  for (const auto& il : deviceCaps().ils)
    s += (s.empty() ? "" : " ") + std::string(il.name) + "_" +
         std::to_string(CL_VERSION_MAJOR(il.version)) + "." +
         std::to_string(CL_VERSION_MINOR(il.version));
  return s;
}

std::vector<cl_name_version> openclCVersions() {
  std::vector<cl_name_version> v;
  for (cl_version ver : {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                         CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)})
    v.push_back(cl_name_version{ver, "OpenCL C"});
  return v;
}

// Identity, versions and feature lists.
cl_int identityInfo(cl_device_info param, const InfoReply& r, bool& known) {
  const DeviceCaps& caps = deviceCaps();
  switch (param) {
    case CL_DEVICE_TYPE:
      return r.scalar(kDeviceType);
    case CL_DEVICE_VENDOR_ID:
      return r.scalar(cl_uint{0});  // no PCI vendor
    case CL_DEVICE_NAME:
      return r.string("spvsim");
    case CL_DEVICE_VENDOR:
      return r.string("spvsim");
    case CL_DRIVER_VERSION:
      return r.string("0.1");
    case CL_DEVICE_PROFILE:
      return r.string("FULL_PROFILE");
    case CL_DEVICE_VERSION:
      return r.string("OpenCL 3.0 spvsim");
    case CL_DEVICE_NUMERIC_VERSION:
      return r.scalar(cl_version{CL_MAKE_VERSION(3, 0, 0)});
    case CL_DEVICE_OPENCL_C_VERSION:  // the highest fully backwards-compatible version
      return r.string("OpenCL C 1.2 spvsim");
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
      return r.vector(openclCVersions());
    case CL_DEVICE_OPENCL_C_FEATURES:
      return r.vector(withVersion(caps.openclCFeatures, CL_MAKE_VERSION(3, 0, 0)));
    case CL_DEVICE_EXTENSIONS:
      return r.string(joined(caps.extensions));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
      return r.vector(withVersion(caps.extensions, CL_MAKE_VERSION(1, 0, 0)));
    case CL_DEVICE_IL_VERSION:
      return r.string(ilVersionString());
    case CL_DEVICE_ILS_WITH_VERSION:
      return r.vector(caps.ils);
    case CL_DEVICE_BUILT_IN_KERNELS:
      return r.string("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
      return r.vector(std::vector<cl_name_version>{});
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
      return r.string("v0000-01-01-00");  // no conformance run
    case CL_DEVICE_PLATFORM:
      return r.scalar(thePlatform());
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE:  // clang-15 + llvm-spirv-15
    case CL_DEVICE_LINKER_AVAILABLE:    // SPIRV-Tools' linker
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
      return r.boolean(true);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
      return r.boolean(false);
  }
  known = false;
  return CL_INVALID_VALUE;
}

// Work-items, work-groups and sub-groups.
cl_int executionInfo(cl_device_info param, const InfoReply& r, bool& known) {
  const DeviceCaps& caps = deviceCaps();
  switch (param) {
    case CL_DEVICE_MAX_COMPUTE_UNITS:
      return r.scalar(caps.computeUnits);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY:  // the host CPU's, which runs the kernels
      return r.scalar(caps.maxClockMHz);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
      return r.scalar(cl_uint{3});
    case CL_DEVICE_MAX_WORK_GROUP_SIZE:
      return r.scalar(caps.maxWorkGroupSize);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES:
      return r.vector(std::vector<size_t>(3, caps.maxWorkGroupSize));
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
      return r.scalar(caps.maxNumSubGroups);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:  // sub-groups are interleaved
      return r.boolean(true);
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL:
      return r.vector(caps.subGroupSizes);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return r.scalar(size_t{caps.subGroupSize});
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
      return r.boolean(true);
    case CL_DEVICE_EXECUTION_CAPABILITIES:
      return r.scalar(cl_device_exec_capabilities{CL_EXEC_KERNEL});  // no native kernels
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return r.scalar(cl_command_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                  CL_QUEUE_PROFILING_ENABLE});
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
      return r.scalar(size_t{1});
    case CL_DEVICE_PRINTF_BUFFER_SIZE:
      return r.scalar(size_t{1} << 20);
    case CL_DEVICE_MAX_PARAMETER_SIZE:
      return r.scalar(caps.maxParameterSize);
  }
  known = false;
  return CL_INVALID_VALUE;
}

// Memory: sizes, alignment, caches.
cl_int memoryInfo(cl_device_info param, const InfoReply& r, bool& known) {
  const DeviceCaps& caps = deviceCaps();
  switch (param) {
    case CL_DEVICE_ADDRESS_BITS:
      return r.scalar(cl_uint{64});
    case CL_DEVICE_GLOBAL_MEM_SIZE:
      return r.scalar(caps.globalMemSize);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
      return r.scalar(caps.maxMemAllocSize);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN:  // bits: the size of long16
      return r.scalar(cl_uint{1024});
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
      return r.scalar(cl_uint{128});
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
      return r.scalar(cl_device_mem_cache_type{CL_NONE});
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
      return r.scalar(cl_uint{0});
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
      return r.scalar(cl_ulong{0});
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
      return r.scalar(cl_ulong{64 * 1024});
    case CL_DEVICE_MAX_CONSTANT_ARGS:
      return r.scalar(cl_uint{64});
    case CL_DEVICE_LOCAL_MEM_TYPE:
      return r.scalar(cl_device_local_mem_type{CL_LOCAL});
    case CL_DEVICE_LOCAL_MEM_SIZE:
      return r.scalar(caps.localMemSize);
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
      return r.scalar(size_t{64 * 1024});
    case CL_DEVICE_SVM_CAPABILITIES:  // buffer SVM (runtime/svm.cc); no SVM atomics
      return r.scalar(cl_device_svm_capabilities{CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                                 CL_DEVICE_SVM_FINE_GRAIN_BUFFER});
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
      return r.scalar(cl_uint{0});  // natural alignment
    // Atomics and fences: every order, and scopes up to the device (all-SVM-devices
    // would need SVM atomics, which spvsim does not offer). Execution is sequentially consistent;
    // the checkers (src/check) report what weaker orders and narrower scopes leave unordered.
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
      return r.scalar(cl_device_atomic_capabilities{
          CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
          CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
          CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE});
  }
  known = false;
  return CL_INVALID_VALUE;
}

// Floating point and vector widths.
cl_int arithmeticInfo(cl_device_info param, const InfoReply& r, bool& known) {
  switch (param) {
    case CL_DEVICE_SINGLE_FP_CONFIG:  // host IEEE arithmetic, std::fma, no flushing
      return r.scalar(cl_device_fp_config{CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT});
    // The minimum the spec asks of cl_khr_fp64. The directed modes are those of the
    // conversions (_rtz, _rtp, _rtn), rounded exactly in software (src/exec/ops/
    // convert_math.h); OpenCL C has no other way to select a rounding mode.
    case CL_DEVICE_DOUBLE_FP_CONFIG:
      return r.scalar(cl_device_fp_config{CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                          CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA});
    case CL_DEVICE_HALF_FP_CONFIG:
      return r.scalar(cl_device_fp_config{CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST});
    // cl_ext_float_atomics: float and double, global and local; no half atomics.
    case kSingleFpAtomicCapabilities:
    case kDoubleFpAtomicCapabilities:
      return r.scalar(kFpAtomics);
    case kHalfFpAtomicCapabilities:
      return r.scalar(cl_bitfield{0});
    // One lane per work-item: no vector width is preferred over scalars.
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
      return r.scalar(cl_uint{1});
  }
  known = false;
  return CL_INVALID_VALUE;
}

// Pipes (runtime/pipe.h).
cl_int pipeInfo(cl_device_info param, const InfoReply& r, bool& known) {
  switch (param) {
    case CL_DEVICE_PIPE_SUPPORT:
      return r.boolean(true);
    case CL_DEVICE_MAX_PIPE_ARGS:
      return r.scalar(kMaxPipeArgs);
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
      return r.scalar(kPipeMaxActiveReservations);
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
      return r.scalar(kPipeMaxPacketSize);
  }
  known = false;
  return CL_INVALID_VALUE;
}

// Device queues (runtime/device_queue.cc, src/exec/device_queue.h) and what this device
// does not have: partitions.
cl_int absentInfo(cl_device_info param, const InfoReply& r, bool& known) {
  switch (param) {
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
      return r.scalar(cl_uint{0});
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
      return r.scalar(cl_uint{kDeviceQueuePreferredSize});
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
      return r.scalar(cl_uint{kDeviceQueueMaxSize});
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
      return r.scalar(cl_uint{kMaxDeviceQueues});
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
      return r.scalar(cl_uint{kMaxDeviceEvents});
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
      return r.scalar(cl_command_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                  CL_QUEUE_PROFILING_ENABLE});
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
      return r.scalar(cl_device_device_enqueue_capabilities{CL_DEVICE_QUEUE_SUPPORTED |
                                                            CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT});
    case CL_DEVICE_PARENT_DEVICE:
      return r.scalar(cl_device_id{nullptr});
    case CL_DEVICE_PARTITION_PROPERTIES:  // "0": cannot be partitioned
      return r.vector(std::vector<cl_device_partition_property>{0});
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
      return r.scalar(cl_device_affinity_domain{0});
    case CL_DEVICE_PARTITION_TYPE:  // a root device: no partition type
      return r.vector(std::vector<cl_device_partition_property>{});
    case CL_DEVICE_REFERENCE_COUNT:
      return r.scalar(cl_uint{1});  // root devices are never released
  }
  known = false;
  return CL_INVALID_VALUE;
}

bool validDevice(cl_device_id device) { return checked<_cl_device_id>(device, Kind::Device); }

}  // namespace

cl_device_id theDevice() {
  static _cl_device_id* d = registerObject(new _cl_device_id);  // never released
  return d;
}

cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                      cl_device_id* devices, cl_uint* num_devices) {
  if (platform && platform != thePlatform()) return CL_INVALID_PLATFORM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~kValidTypes || device_type == 0))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  bool match = device_type == CL_DEVICE_TYPE_ALL || (device_type & CL_DEVICE_TYPE_DEFAULT) ||
               (device_type & kDeviceType);
  if (num_devices) *num_devices = match ? 1 : 0;
  if (!match) return CL_DEVICE_NOT_FOUND;
  if (devices) devices[0] = theDevice();
  return CL_SUCCESS;
}

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                       void* param_value, size_t* param_value_size_ret) {
  if (!validDevice(device)) return CL_INVALID_DEVICE;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  for (auto group :
       {identityInfo, executionInfo, memoryInfo, arithmeticInfo, imageInfo, pipeInfo, absentInfo}) {
    bool known = true;
    cl_int err = group(param_name, r, known);
    if (known) return err;
  }
  return CL_INVALID_VALUE;
}

// No partitioning scheme is supported (CL_DEVICE_PARTITION_PROPERTIES is {0}).
cl_int clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                          cl_uint, cl_device_id*, cl_uint*) {
  if (!validDevice(in_device)) return CL_INVALID_DEVICE;
  (void)properties;
  return CL_INVALID_VALUE;
}

cl_int clCreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext*,
                             cl_uint, cl_device_id*, cl_uint*) {
  return validDevice(in_device) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

// The root device lives as long as the library: retain and release do nothing.
cl_int clRetainDevice(cl_device_id device) {
  return validDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
cl_int clReleaseDevice(cl_device_id device) {
  return validDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
cl_int clRetainDeviceEXT(cl_device_id device) { return rt::clRetainDevice(device); }
cl_int clReleaseDeviceEXT(cl_device_id device) { return rt::clReleaseDevice(device); }

cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                               cl_ulong* host_timestamp) {
  if (!validDevice(device)) return CL_INVALID_DEVICE;
  if (!device_timestamp || !host_timestamp) return CL_INVALID_VALUE;
  *device_timestamp = *host_timestamp = nowNs();  // the device clock is the host clock
  return CL_SUCCESS;
}

cl_int clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  if (!validDevice(device)) return CL_INVALID_DEVICE;
  if (!host_timestamp) return CL_INVALID_VALUE;
  *host_timestamp = nowNs();
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
