// The NDRange of clEnqueueNDRangeKernel, checked when the launch is enqueued so that
// an impossible range fails there with the spec's error code, before anything runs.
#pragma once

#include "runtime/kernel.h"

namespace spvsim::rt {

// Fills `range` from the application's arrays (`offset` and `local` may be null; every
// global size is non-zero) and checks it: CL_INVALID_GLOBAL_WORK_SIZE (more work-items
// than size_t counts, or more work-groups than spvsim runs), CL_INVALID_GLOBAL_OFFSET
// (offset + size beyond SIZE_MAX), CL_INVALID_WORK_GROUP_SIZE, CL_INVALID_WORK_ITEM_SIZE.
// Without `local`, the kernel's required size when it has one.
cl_int makeRange(const _cl_kernel* k, cl_uint dims, const size_t* offset, const size_t* global,
                 const size_t* local, NDRange& range);

}  // namespace spvsim::rt
