#include "runtime/ndrange.h"

#include <array>
#include <cstdint>

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

cl_int checkLocalSize(const _cl_kernel* k, const NDRange& r) {
  uint64_t items = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    if (r.local[d] == 0 || (d >= r.dims && r.local[d] != 1)) return CL_INVALID_WORK_GROUP_SIZE;
    if (r.local[d] > deviceCaps().maxWorkGroupSize) return CL_INVALID_WORK_ITEM_SIZE;
    items *= r.local[d];  // at most maxWorkGroupSize^3: no overflow
  }
  if (items > deviceCaps().maxWorkGroupSize) return CL_INVALID_WORK_GROUP_SIZE;
  if (const spirv::ExecutionMode* reqd = requiredWorkGroupSize(k))
    for (uint32_t d = 0; d < 3; ++d)
      if (r.local[d] != reqd->literals[d]) return CL_INVALID_WORK_GROUP_SIZE;
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
// total number of global work-items is computed as global_work_size[0] × … ×
// global_work_size[work_dim - 1]", it is what get_global_linear_id() (a size_t) counts
// and what bounds the number of work-groups, so a product beyond SIZE_MAX is
// CL_INVALID_GLOBAL_WORK_SIZE too.
cl_int checkGlobalSize(cl_uint dims, const size_t* offset, const size_t* global) {
  size_t items = 1;
  for (cl_uint d = 0; d < dims; ++d)
    if (__builtin_mul_overflow(items, global[d], &items)) return CL_INVALID_GLOBAL_WORK_SIZE;
  for (cl_uint d = 0; offset && d < dims; ++d)
    if (offset[d] > SIZE_MAX - global[d]) return CL_INVALID_GLOBAL_OFFSET;
  return CL_SUCCESS;
}

// spvsim runs at most kMaxWorkGroups work-groups in one launch (src/exec/ndrange_check.h:
// beyond what a simulation finishes in years): a global size that needs more is beyond
// the device's range, CL_INVALID_GLOBAL_WORK_SIZE, found here and not by the launch on
// the worker thread. Counted with the local size the launch will use.
cl_int checkWorkGroupCount(const _cl_kernel* k, const NDRange& r) {
  const std::array<uint64_t, 3> local =
      r.localGiven ? r.local : chooseLocalSize(k->kernel.entryPoint(), r);
  uint64_t groups = 1;  // at most the number of work-items: no overflow
  for (uint32_t d = 0; d < r.dims; ++d) groups *= ceilDiv(r.global[d], local[d]);
  return groups > kMaxWorkGroups ? CL_INVALID_GLOBAL_WORK_SIZE : CL_SUCCESS;
}

}  // namespace

cl_int makeRange(const _cl_kernel* k, cl_uint dims, const size_t* offset, const size_t* global,
                 const size_t* local, NDRange& r) {
  if (cl_int err = checkGlobalSize(dims, offset, global)) return err;
  r.dims = dims;
  for (cl_uint d = 0; d < dims; ++d) {
    r.global[d] = global[d];
    r.offset[d] = offset ? offset[d] : 0;
    if (local) r.local[d] = local[d];
  }
  r.localGiven = local != nullptr;
  if (!local) impliedLocalSize(k, r);
  if (r.localGiven)
    if (cl_int err = checkLocalSize(k, r)) return err;
  return checkWorkGroupCount(k, r);
}

}  // namespace spvsim::rt
