// Validation of a launch's NDRange: every size and count the launch derives from it
// (global + offset, work-items, work-groups) must fit its integer type, so that a
// launch never silently runs fewer work-items than asked for.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <variant>

#include "spirv/module.h"
#include "src/exec/launch_types.h"

namespace spvsim {

// Work-groups one launch may have: diagnostics are ordered by linear work-group id in
// the high bits of a 64-bit key (src/exec/subgroup.cc). Running 2^40 work-groups would take
// years, so no real launch is refused.
inline constexpr uint64_t kMaxWorkGroups = 1ull << 40;

// What is wrong with an NDRange, typed once: the command line reports the message, the
// ICD maps the kind to its CL error code (runtime/ndrange.cc).
enum class RangeProblemKind {
  WorkDimension,      // not 1, 2 or 3
  ZeroGlobalSize,     // a global size of 0
  GlobalOffset,       // offset + size beyond 2^64 - 1
  TooManyWorkItems,   // more than 2^64 - 1
  ZeroLocalSize,      // a local size of 0
  RequiredLocalSize,  // not the kernel's reqd_work_group_size
  WorkGroupTooLarge,  // above the device's (or spvsim's) maximum work-group size
  TooManyWorkGroups,  // more than kMaxWorkGroups
};

struct RangeProblem {
  RangeProblemKind kind;
  std::string message;
};

// The range with unused dimensions set to 1 (offset 0) and the local size chosen when
// none was given (chooseLocalSize), or the first problem found, in this order: a
// dimension count outside 1..3, a zero global size, global offset + global size beyond
// 2^64 - 1, more than 2^64 - 1 work-items, a zero local size, a local size the kernel's
// reqd_work_group_size forbids, a work-group above `maxWorkGroupSize` (a device's limit:
// kDeviceMaxWorkGroupSize for kernels enqueued on the device and the ICD; launches from
// the command line are bounded by memory and kMaxWorkGroupItems only), more than
// kMaxWorkGroups work-groups.
std::variant<NDRange, RangeProblem> validateRange(const spirv::EntryPoint& ep, NDRange range,
                                                  uint64_t maxWorkGroupSize = kMaxWorkGroupItems);

// validateRange's range; throws Error(DiagnosticKind::InvalidArgument) with the problem's
// message.
NDRange checkRange(const spirv::EntryPoint& ep, NDRange range,
                   uint64_t maxWorkGroupSize = kMaxWorkGroupItems);

// The local size spvsim picks when none is given: the kernel's LocalSize mode if it has
// one, else the largest divisor of each global dimension whose product stays <= 256.
std::array<uint64_t, 3> chooseLocalSize(const spirv::EntryPoint& ep, const NDRange& range);

// ceil(a / b) for b > 0, without overflow.
constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

}  // namespace spvsim
