#include "src/exec/ndrange_check.h"

#include <fmt/core.h>

#include <optional>

#include "spirv/error.h"
#include "spirv/text.h"

namespace spvsim {
namespace {

using Problem = std::optional<RangeProblem>;

std::string sizes(const std::array<uint64_t, 3>& v) {
  return fmt::format("{} x {} x {}", v[0], v[1], v[2]);
}

// Product of the three sizes, or nullopt when it exceeds 2^64 - 1.
std::optional<uint64_t> product(const std::array<uint64_t, 3>& v) {
  uint64_t p = 1;
  for (uint64_t x : v)
    if (__builtin_mul_overflow(p, x, &p)) return std::nullopt;
  return p;
}

Problem globalProblem(const NDRange& r) {
  for (uint32_t d = 0; d < r.dims; ++d) {
    if (r.global[d] == 0)
      return RangeProblem{RangeProblemKind::ZeroGlobalSize,
                          fmt::format("global size in dimension {} is 0", d)};
    if (r.offset[d] > ~uint64_t(0) - r.global[d])
      return RangeProblem{
          RangeProblemKind::GlobalOffset,
          fmt::format("global offset {} + global size {} in dimension {} exceeds 2^64 - 1 "
                      "(the range of size_t)",
                      r.offset[d], r.global[d], d)};
  }
  if (!product(r.global))
    return RangeProblem{
        RangeProblemKind::TooManyWorkItems,
        fmt::format("the NDRange {} has more than 2^64 - 1 work-items", sizes(r.global))};
  return std::nullopt;
}

Problem localProblem(const spirv::EntryPoint& ep, const NDRange& r, uint64_t maxWorkGroupSize) {
  auto reqd = ep.findMode(spv::ExecutionMode::LocalSize);
  for (uint32_t d = 0; d < 3; ++d) {
    if (r.local[d] == 0)
      return RangeProblem{RangeProblemKind::ZeroLocalSize,
                          fmt::format("local size in dimension {} is 0", d)};
    if (reqd && r.local[d] != reqd->literals.at(d))
      return RangeProblem{
          RangeProblemKind::RequiredLocalSize,
          fmt::format("kernel {} requires work-group size {},{},{} (reqd_work_group_size)",
                      spirv::escapeText(ep.name, spirv::kQuotedNameBytes), reqd->literals[0],
                      reqd->literals[1], reqd->literals[2])};
  }
  const auto items = product(r.local);
  if (items && *items <= maxWorkGroupSize) return std::nullopt;
  const std::string size = items ? fmt::format("{}", *items) : "more than 2^64 - 1";
  if (maxWorkGroupSize < kMaxWorkGroupItems)
    return RangeProblem{RangeProblemKind::WorkGroupTooLarge,
                        fmt::format("work-group size {} ({}) exceeds the maximum of {}", size,
                                    sizes(r.local), maxWorkGroupSize)};
  return RangeProblem{
      RangeProblemKind::WorkGroupTooLarge,
      fmt::format("work-group size {} ({}) exceeds the 2^32 - 1 work-items spvsim runs in one "
                  "work-group (its local ids are 32-bit)",
                  size, sizes(r.local))};
}

Problem groupsProblem(const NDRange& r) {
  std::array<uint64_t, 3> groups;
  for (int d = 0; d < 3; ++d) groups[d] = ceilDiv(r.global[d], r.local[d]);
  auto n = product(groups);  // at most the work-item count
  if (n && *n <= kMaxWorkGroups) return std::nullopt;
  return RangeProblem{
      RangeProblemKind::TooManyWorkGroups,
      fmt::format("the NDRange has {} work-groups ({} of {}); spvsim runs at most 2^40",
                  n ? fmt::format("{}", *n) : "more than 2^64 - 1", sizes(groups), sizes(r.local))};
}

}  // namespace

std::variant<NDRange, RangeProblem> validateRange(const spirv::EntryPoint& ep, NDRange r,
                                                  uint64_t maxWorkGroupSize) {
  if (r.dims < 1 || r.dims > 3)
    return RangeProblem{RangeProblemKind::WorkDimension,
                        fmt::format("work dimension {} is not 1, 2 or 3", r.dims)};
  for (uint32_t d = r.dims; d < 3; ++d) {
    r.global[d] = 1;
    r.offset[d] = 0;
    r.local[d] = 1;
  }
  if (Problem p = globalProblem(r)) return *p;
  if (!r.localGiven) r.local = chooseLocalSize(ep, r);
  if (Problem p = localProblem(ep, r, maxWorkGroupSize)) return *p;
  if (Problem p = groupsProblem(r)) return *p;
  return r;
}

NDRange checkRange(const spirv::EntryPoint& ep, NDRange r, uint64_t maxWorkGroupSize) {
  auto checked = validateRange(ep, r, maxWorkGroupSize);
  if (auto* p = std::get_if<RangeProblem>(&checked))
    throw Error(DiagnosticKind::InvalidArgument, p->message);
  return std::get<NDRange>(checked);
}

}  // namespace spvsim
