// Validation of a launch's NDRange: every size and count the launch derives from it
// (global + offset, work-items, work-groups) must fit its integer type, so that a
// launch never silently runs fewer work-items than asked for.
#pragma once

#include <cstdint>

#include "spirv/module.h"
#include "src/exec/program.h"

namespace spvsim {

// Work-groups one launch may have: diagnostics are ordered by linear work-group id in
// the high bits of a 64-bit key (src/exec/subgroup.cc). Running 2^40 work-groups would take
// years, so no real launch is refused.
inline constexpr uint64_t kMaxWorkGroups = 1ull << 40;

// The range with unused dimensions set to 1 (offset 0) and the local size chosen when
// none was given (chooseLocalSize). Throws Error(DiagnosticKind::InvalidArgument) naming the
// problem: a dimension count outside 1..3, a zero size, global offset + global size beyond 2^64 -
// 1, more than 2^64 - 1 work-items or kMaxWorkGroups work-groups, a local size the kernel's
// reqd_work_group_size forbids or whose work-group is above `maxWorkGroupSize` (a device's
// limit: kDeviceMaxWorkGroupSize for kernels enqueued on the device; launches are bounded
// by memory and kMaxWorkGroupItems only).
NDRange checkRange(const spirv::EntryPoint& ep, NDRange range,
                   uint64_t maxWorkGroupSize = kMaxWorkGroupItems);

// ceil(a / b) for b > 0, without overflow.
constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

}  // namespace spvsim
