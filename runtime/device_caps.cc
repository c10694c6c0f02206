// What the device supports, in one place: clGetDeviceInfo reports it and programs and
// kernels (runtime/program*.cc) check against it. Only what spvsim really executes is
// claimed (see the comments); images are a later issue.
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "runtime/interfaces.h"
#include "runtime/knobs.h"
#include "src/program.h"

namespace spvsim::rt {
namespace {

std::vector<std::string> extensions() {
  return {
      "cl_khr_icd",
      "cl_khr_il_program",
      "cl_khr_byte_addressable_store",
      "cl_khr_fp64",
      "cl_khr_fp16",
      // Sub-groups: the lockstep executor's core feature (OpGroup*, OpGroupNonUniform*,
      // SPV_INTEL_subgroups shuffles and buffer block I/O).
      "cl_khr_subgroups",
      "cl_khr_subgroup_extended_types",
      "cl_khr_subgroup_non_uniform_vote",
      "cl_khr_subgroup_ballot",
      "cl_khr_subgroup_non_uniform_arithmetic",
      "cl_khr_subgroup_shuffle",
      "cl_khr_subgroup_shuffle_relative",
      "cl_khr_subgroup_clustered_reduce",
      "cl_khr_subgroup_rotate",
      "cl_intel_subgroups",
      "cl_intel_required_subgroup_size",
      "cl_intel_spirv_subgroups",
      // Atomics: every OpAtomic* on 32- and 64-bit integers, global and local (and generic)
      // pointers, exact at any host thread count; scopes and orders are honoured by the
      // race checker (src/race_checker.h).
      "cl_khr_global_int32_base_atomics",
      "cl_khr_global_int32_extended_atomics",
      "cl_khr_local_int32_base_atomics",
      "cl_khr_local_int32_extended_atomics",
      "cl_khr_int64_base_atomics",
      "cl_khr_int64_extended_atomics",
  };
}

// OpenCL C 3.0 optional features, matching CL_DEVICE_ATOMIC_*_CAPABILITIES
// (runtime/device.cc). Not claimed: all-SVM-devices scope (no SVM), images, pipes,
// device-side enqueue, read-write images.
std::vector<std::string> openclCFeatures() {
  return {
      "__opencl_c_int64",
      "__opencl_c_fp64",
      "__opencl_c_fp16",
      "__opencl_c_generic_address_space",  // generic pointers resolve to their space
      "__opencl_c_program_scope_global_variables",
      "__opencl_c_subgroups",
      "__opencl_c_work_group_collective_functions",
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device",
  };
}

// The SPIR-V versions spirv/ validates and loads (spirv/validator.cc: 1.0 to 1.6).
std::vector<cl_name_version> ils() {
  std::vector<cl_name_version> v;
  for (cl_uint minor = 0; minor <= 6; ++minor) {
    cl_name_version nv{CL_MAKE_VERSION(1, minor, 0), "SPIR-V"};
    v.push_back(nv);
  }
  return v;
}

// The sizes intel_reqd_sub_group_size may ask for: spvsim runs any size in 1..128; the
// powers of two and the configured default are advertised.
std::vector<size_t> subGroupSizes(uint32_t configured) {
  std::vector<size_t> v{1, 2, 4, 8, 16, 32, 64, 128};
  if (std::find(v.begin(), v.end(), configured) == v.end()) v.push_back(configured);
  std::sort(v.begin(), v.end());
  return v;
}

cl_ulong physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? cl_ulong(pages) * cl_ulong(pageSize) : cl_ulong(1) << 32;
}

DeviceCaps makeCaps() {
  DeviceCaps c;
  unsigned threads = knobs().threads ? knobs().threads : std::thread::hardware_concurrency();
  c.computeUnits = std::max(1u, threads);
  c.maxWorkGroupSize = kMaxWorkGroupSize;
  c.globalMemSize = physicalMemory();
  c.localMemSize = 64 * 1024;
  // The host's memory is the device's; one allocation may take a quarter of it (and at
  // least the 128 MiB the spec requires).
  c.maxMemAllocSize = std::max<cl_ulong>(c.globalMemSize / 4, cl_ulong(128) << 20);
  c.maxParameterSize = 1024;
  c.maxNumSubGroups = static_cast<cl_uint>(kMaxWorkGroupSize);  // sub-group size 1
  c.subGroupSize = knobs().subGroupSize;
  c.subGroupSizes = subGroupSizes(c.subGroupSize);
  c.extensions = extensions();
  c.openclCFeatures = openclCFeatures();
  c.ils = ils();
  return c;
}

}  // namespace

const DeviceCaps& deviceCaps() {
  // Immutable once built, and never destroyed: queue workers may still launch kernels
  // while the process runs its static destructors.
  static const DeviceCaps* caps = new DeviceCaps(makeCaps());
  return *caps;
}

}  // namespace spvsim::rt
