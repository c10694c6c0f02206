#include "runtime/ndrange.h"

#include <cstdint>
#include <variant>

#include "src/exec/ndrange_check.h"

namespace spvsim::rt {
namespace {

// The local size the kernel dictates when the application gives none: its
// reqd_work_group_size, or its SubgroupsPerWorkgroup whole sub-groups; else spvsim picks
// (divisors of the global size, so uniform).
void impliedLocalSize(const _cl_kernel* k, NDRange& r) {
  if (const spirv::ExecutionMode* reqd = requiredWorkGroupSize(k)) {
    for (uint32_t d = 0; d < 3; ++d) r.local[d] = reqd->literals[d];
    r.localGiven = true;
  } else if (const uint32_t n = compileNumSubGroups(k)) {
    r.local = {uint64_t(n) * kernelSubGroupSize(k), 1, 1};
    r.localGiven = true;
  }
}

// CL_DEVICE_MAX_WORK_ITEM_SIZES: each dimension of the work-group on its own.
cl_int checkWorkItemSizes(const NDRange& r) {
  for (uint32_t d = 0; d < 3; ++d)
    if (r.local[d] > deviceCaps().maxWorkGroupSize) return CL_INVALID_WORK_ITEM_SIZE;
  return CL_SUCCESS;
}

// What the kernel's build asks of a work-group beyond its size: whole sub-groups
// (CL_KERNEL_COMPILE_NUM_SUB_GROUPS) and, without -cl-uniform-work-group-size's
// opposite, no partial work-groups. The local sizes are non-zero (validateRange).
cl_int checkKernelWorkGroup(const _cl_kernel* k, const NDRange& r) {
  const uint64_t items = r.local[0] * r.local[1] * r.local[2];  // at most the device's max
  const uint64_t width = kernelSubGroupSize(k);
  if (const uint32_t n = compileNumSubGroups(k); n && (items + width - 1) / width != n)
    return CL_INVALID_WORK_GROUP_SIZE;
  if (k->uniformWorkGroups)
    for (uint32_t d = 0; d < r.dims; ++d)
      if (r.global[d] % r.local[d] != 0) return CL_INVALID_WORK_GROUP_SIZE;
  return CL_SUCCESS;
}

// The OpenCL 3.0 API spec, clEnqueueNDRangeKernel: CL_INVALID_GLOBAL_WORK_SIZE "if any
// of the values specified in global_work_size[0], ... global_work_size[work_dim - 1]
// exceed the maximum value representable by size_t on the device", and
// CL_INVALID_GLOBAL_OFFSET "if the value specified in global_work_size + the
// corresponding values in global_work_offset for any dimensions is greater than the
// maximum value representable by size_t on the device". The device's size_t is 64 bits
// (CL_DEVICE_ADDRESS_BITS), like the host's, so no single size can exceed it; but "the
// total number of global work-items is computed as global_work_size[0] x ... x
// global_work_size[work_dim - 1]", it is what get_global_linear_id() (a size_t) counts
// and what bounds the number of work-groups, so a product beyond SIZE_MAX is
// CL_INVALID_GLOBAL_WORK_SIZE too. spvsim runs at most kMaxWorkGroups work-groups in one
// launch (beyond what a simulation finishes in years): a global size that needs more is
// beyond the device's range, CL_INVALID_GLOBAL_WORK_SIZE, found here and not by the
// launch on the worker thread.
cl_int errorCodeOf(RangeProblemKind kind) {
  switch (kind) {
    case RangeProblemKind::WorkDimension:
      return CL_INVALID_WORK_DIMENSION;
    case RangeProblemKind::ZeroGlobalSize:
    case RangeProblemKind::TooManyWorkItems:
    case RangeProblemKind::TooManyWorkGroups:
      return CL_INVALID_GLOBAL_WORK_SIZE;
    case RangeProblemKind::GlobalOffset:
      return CL_INVALID_GLOBAL_OFFSET;
    case RangeProblemKind::ZeroLocalSize:
    case RangeProblemKind::RequiredLocalSize:
    case RangeProblemKind::WorkGroupTooLarge:
      return CL_INVALID_WORK_GROUP_SIZE;
  }
  return CL_INVALID_VALUE;
}

// Problems of the global range, reported before any of the work-group's.
bool isGlobalProblem(RangeProblemKind kind) {
  return kind == RangeProblemKind::WorkDimension || kind == RangeProblemKind::ZeroGlobalSize ||
         kind == RangeProblemKind::GlobalOffset || kind == RangeProblemKind::TooManyWorkItems;
}

}  // namespace

cl_int makeRange(const _cl_kernel* k, cl_uint dims, const size_t* offset, const size_t* global,
                 const size_t* local, NDRange& r) {
  r.dims = dims;
  for (cl_uint d = 0; d < dims; ++d) {
    r.global[d] = global[d];
    r.offset[d] = offset ? offset[d] : 0;
    if (local) r.local[d] = local[d];
  }
  r.localGiven = local != nullptr;
  if (!local) impliedLocalSize(k, r);
  const auto checked = validateRange(k->kernel.entryPoint(), r, deviceCaps().maxWorkGroupSize);
  const RangeProblem* problem = std::get_if<RangeProblem>(&checked);
  if (problem && isGlobalProblem(problem->kind)) return errorCodeOf(problem->kind);
  if (r.localGiven)
    if (cl_int err = checkWorkItemSizes(r)) return err;
  if (problem) return errorCodeOf(problem->kind);
  return r.localGiven ? checkKernelWorkGroup(k, r) : CL_SUCCESS;
}

}  // namespace spvsim::rt
