// Kernel objects: a kernel of a built program and its argument values.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/program.h"

namespace spvsim::rt {

// One argument as clSetKernelArg left it: the simulator's argument (src/exec/arg_binding.h)
// and, for a buffer, the memory object whose storage it binds at enqueue time.
struct KernelArg {
  bool set = false;
  ArgBinding binding;
  cl_mem mem = nullptr;  // Buffer, Image: not retained (the API spec forbids it)
};

}  // namespace spvsim::rt

struct _cl_kernel : spvsim::rt::Object {
  _cl_kernel() : Object(spvsim::rt::Kind::Kernel) {}
  ~_cl_kernel();  // detaches from and releases the program

  _cl_program* program = nullptr;  // retained
  std::shared_ptr<spvsim::Program> executable;
  spvsim::Program::Kernel kernel;  // of executable: its signature
  bool uniformWorkGroups = false;
  uint64_t staticLocalBytes = 0;  // local variables of the kernel's call tree
  uint64_t privateBytes = 0;      // private variables of the call tree (an estimate)

  std::mutex mutex;  // guards args
  std::vector<spvsim::rt::KernelArg> args;
  // The sub-group size of launches of a kernel without intel_reqd_sub_group_size; 0:
  // SPVSIM_SUB_GROUP_SIZE. The OpenCL layer (runtime/layer/) sets the device's, so that a
  // replay splits work-groups as the device did.
  std::atomic<uint32_t> subGroupSizeOverride{0};
};

namespace spvsim::rt {

// The sub-group size a launch of the kernel uses (SPVSIM_SUB_GROUP_SIZE or its
// intel_reqd_sub_group_size).
uint32_t kernelSubGroupSize(const _cl_kernel* k);

// The sub-group size for kernels without intel_reqd_sub_group_size: the kernel's override,
// else SPVSIM_SUB_GROUP_SIZE.
uint32_t defaultSubGroupSize(const _cl_kernel* k);

// Bytes of local memory a launch needs with the current arguments.
uint64_t kernelLocalBytes(_cl_kernel* k);

// The kernel's own local variables plus its local-pointer arguments, saturating at
// UINT64_MAX (the sizes are the application's: several huge ones must not wrap around).
uint64_t localMemoryBytes(uint64_t staticBytes, const std::vector<KernelArg>& args);

// The kernel's SubgroupsPerWorkgroup (CL_KERNEL_COMPILE_NUM_SUB_GROUPS), or 0.
uint32_t compileNumSubGroups(const _cl_kernel* k);

// The kernel's required work-group size (reqd_work_group_size), or nullptr.
const spirv::ExecutionMode* requiredWorkGroupSize(const _cl_kernel* k);

}  // namespace spvsim::rt
