#include "src/exec/svm.h"

#include <fmt/core.h>

#include <algorithm>

#include "spirv/error.h"
#include "src/exec/launch.h"
#include "src/exec/memory.h"
#include "src/exec/subgroup.h"

namespace spvsim {

const SvmRange* findSvmRange(const std::vector<SvmRange>& table, uint64_t p) {
  auto it = std::upper_bound(table.begin(), table.end(), p,
                             [](uint64_t v, const SvmRange& r) { return v < r.base; });
  if (it == table.begin()) return nullptr;
  const SvmRange& r = *(it - 1);
  // Past the end only within the same half-window (the same space and region bits).
  return ((r.base ^ p) >> kSvmWindowBits) == 0 ? &r : nullptr;
}

uint64_t MemoryMap::canonical(uint64_t p) const {
  if (svm.empty() || pointerSpace(p) != Space::Invalid) return p;
  const SvmRange* r = findSvmRange(svm, p);
  if (!r) return p;
  return offsetPointer(makePointer(Space::Global, r->region), int64_t(p - r->base));
}

uint8_t* SubGroup::locateSvm(uint64_t p, uint32_t lane, uint64_t bytes, bool write,
                             AccessError& error) const {
  const uint64_t q = wg->launch->memory->canonical(p);
  if (q == p) {
    error = AccessError::InvalidSpace;
    return nullptr;
  }
  return locate(q, lane, bytes, write, error);
}

void bindSvmAllocations(const std::vector<SvmAllocation>& allocations, MemoryMap& mem) {
  for (const SvmAllocation& a : allocations) {
    const uint64_t base = reinterpret_cast<uintptr_t>(a.base);
    if (!svmAddressable(base, a.size) || a.size > kMaxObjectBytes)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("{} ({} bytes at 0x{:x}) lies outside the host addresses spvsim's "
                              "kernels can use (see src/exec/svm.h)",
                              a.name, a.size, base));
    mem.global.push_back(Region{a.base, 0, a.size, true, a.name});
    mem.svm.push_back(SvmRange{base, a.size, uint32_t(mem.global.size() - 1)});
  }
  std::sort(mem.svm.begin(), mem.svm.end(),
            [](const SvmRange& x, const SvmRange& y) { return x.base < y.base; });
  for (size_t i = 1; i < mem.svm.size(); ++i)
    if (mem.svm[i].base < mem.svm[i - 1].base + mem.svm[i - 1].size)
      throw Error(
          DiagnosticKind::InvalidArgument,
          fmt::format("SVM allocations {} and {} overlap", mem.global[mem.svm[i - 1].region].name,
                      mem.global[mem.svm[i].region].name));
}

}  // namespace spvsim
