// clGetKernelWorkGroupInfo and clGetKernelSubGroupInfo(KHR). The sub-group answers are
// what kernels observe: sub-groups are cut from the work-group by linear local id, all of
// the kernel's sub-group size except possibly the last (get_max_sub_group_size() is that
// size, get_num_sub_groups() is ceil(work-group items / size)).
#include <algorithm>
#include <array>
#include <cstring>

#include "runtime/kernel.h"
#include "runtime/program_api.h"

namespace spvsim::rt {
namespace {

// The device argument of a kernel query: ours, or NULL (the kernel has one device).
bool validDevice(const _cl_kernel* k, cl_device_id device) {
  if (!device) return k->program->context->devices.size() == 1;
  return checked<_cl_device_id>(device, Kind::Device) &&
         contextHasDevice(k->program->context, device);
}

size_t maxWorkGroupSize() { return deviceCaps().maxWorkGroupSize; }

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The local size array of an NDRange query (1 to 3 size_t values), or false.
bool readLocalSize(size_t inputSize, const void* input, std::array<size_t, 3>& local) {
  if (!input || inputSize == 0 || inputSize % sizeof(size_t) != 0 || inputSize > 3 * sizeof(size_t))
    return false;
  local = {1, 1, 1};
  std::memcpy(local.data(), input, inputSize);
  return true;
}

// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: a one-dimensional local size of exactly
// `count` sub-groups (the other dimensions 1), or all zeros when no work-group holds
// that many.
cl_int localSizeForCount(const _cl_kernel* k, size_t inputSize, const void* input, size_t valueSize,
                         void* value, size_t* sizeRet) {
  if (!input || inputSize != sizeof(size_t)) return CL_INVALID_VALUE;
  size_t count = 0;
  std::memcpy(&count, input, sizeof count);
  // The number of dimensions is inferred from param_value_size.
  size_t dims = valueSize / sizeof(size_t);
  if (!value) dims = 3;
  if (dims == 0 || dims > 3 || (value && valueSize % sizeof(size_t) != 0)) return CL_INVALID_VALUE;
  std::array<size_t, 3> local{0, 0, 0};
  const uint64_t width = kernelSubGroupSize(k);
  const uint64_t items = count * width;
  const spirv::ExecutionMode* reqd = requiredWorkGroupSize(k);
  if (reqd) {  // only the required size is possible
    const uint64_t reqdItems = uint64_t(reqd->literals[0]) * reqd->literals[1] * reqd->literals[2];
    if (count != 0 && ceilDiv(reqdItems, width) == count)
      local = {reqd->literals[0], reqd->literals[1], reqd->literals[2]};
  } else if (count != 0 && count <= maxWorkGroupSize() && items <= maxWorkGroupSize()) {
    local = {static_cast<size_t>(items), 1, 1};
  }
  std::vector<size_t> out(local.begin(), local.begin() + dims);
  for (size_t d = dims; d < 3; ++d)  // a required size that needs more dimensions
    if (local[d] > 1) std::fill(out.begin(), out.end(), 0);
  return returnVector(out, valueSize, value, sizeRet);
}

}  // namespace

cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                cl_kernel_work_group_info param_name, size_t param_value_size,
                                void* param_value, size_t* param_value_size_ret) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (!validDevice(k, device)) return CL_INVALID_DEVICE;
  const size_t size = param_value_size;
  void* value = param_value;
  size_t* sizeRet = param_value_size_ret;
  switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE:
      return returnValue(maxWorkGroupSize(), size, value, sizeRet);
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      std::vector<size_t> wg{0, 0, 0};
      if (const auto* reqd = requiredWorkGroupSize(k))
        wg = {reqd->literals[0], reqd->literals[1], reqd->literals[2]};
      return returnVector(wg, size, value, sizeRet);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE:
      return returnValue(cl_ulong{kernelLocalBytes(k)}, size, value, sizeRet);
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:  // whole sub-groups
      return returnValue(size_t{kernelSubGroupSize(k)}, size, value, sizeRet);
    case CL_KERNEL_PRIVATE_MEM_SIZE:
      return returnValue(cl_ulong{k->privateBytes}, size, value, sizeRet);
    case CL_KERNEL_SPILL_MEM_SIZE_INTEL:  // registers never spill: private memory is separate
      return returnValue(cl_ulong{0}, size, value, sizeRet);
    case CL_KERNEL_GLOBAL_WORK_SIZE:  // only for custom devices and built-in kernels
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name, size_t input_value_size,
                               const void* input_value, size_t param_value_size, void* param_value,
                               size_t* param_value_size_ret) {
  _cl_kernel* k = checked<_cl_kernel>(kernel, Kind::Kernel);
  if (!k) return CL_INVALID_KERNEL;
  if (!validDevice(k, device)) return CL_INVALID_DEVICE;
  const size_t size = param_value_size;
  void* value = param_value;
  size_t* sizeRet = param_value_size_ret;
  const size_t width = kernelSubGroupSize(k);
  std::array<size_t, 3> local{};
  switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
      if (!readLocalSize(input_value_size, input_value, local)) return CL_INVALID_VALUE;
      return returnValue(width, size, value, sizeRet);
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
      if (!readLocalSize(input_value_size, input_value, local)) return CL_INVALID_VALUE;
      return returnValue(size_t(ceilDiv(uint64_t(local[0]) * local[1] * local[2], width)), size,
                         value, sizeRet);
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
      return localSizeForCount(k, input_value_size, input_value, size, value, sizeRet);
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
      return returnValue(size_t(ceilDiv(maxWorkGroupSize(), width)), size, value, sizeRet);
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
      return returnValue(size_t{compileNumSubGroups(k)}, size, value, sizeRet);
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: {  // cl_intel_required_subgroup_size
      const auto required = k->kernel.signature().requiredSubGroupSize;
      return returnValue(size_t{required.value_or(0)}, size, value, sizeRet);
    }
    default:
      return CL_INVALID_VALUE;
  }
}

cl_int clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                  cl_kernel_sub_group_info param_name, size_t input_value_size,
                                  const void* input_value, size_t param_value_size,
                                  void* param_value, size_t* param_value_size_ret) {
  return rt::clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value,
                                     param_value_size, param_value, param_value_size_ret);
}

}  // namespace spvsim::rt
