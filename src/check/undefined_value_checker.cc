#include "src/check/undefined_value_checker.h"

#include <cstring>

#include "src/check/shadow_kernel.h"
#include "src/check/uninitialized_checker.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {

void UndefinedValueChecker::workGroupBegin(WorkGroupContext& wg, SubGroup* sgs, size_t count) {
  const auto& k = static_cast<const ShadowKernel&>(*wg.launch->kernel);
  for (size_t i = 0; i < count; ++i) {
    SubGroup& sg = sgs[i];
    std::memset(sg.shadow, 0, k.registerBytes);
    for (const auto& [reg, lane] : k.undefined)
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(sg.shadow + reg + size_t(l) * lane.size(), lane.data(), lane.size());
    markArenaStartState(sg, k);
  }
}

void UndefinedValueChecker::access(SubGroup& sg, const MemoryAccess& a) {
  switch (a.kind) {
    case AccessKind::Write:
    case AccessKind::AtomicStore:
    case AccessKind::AtomicRmw:
      if (uint8_t* d = memoryShadow(sg, a.pointer, a.host)) std::memset(d, 1, a.bytes);
      return;
    case AccessKind::Copy:
      if (uint8_t* d = memoryShadow(sg, a.pointer, a.host)) {
        if (const uint8_t* s = memoryShadow(sg, a.source, a.sourceHost))
          std::memmove(d, s, a.bytes);
        else
          std::memset(d, 1, a.bytes);
      }
      return;
    case AccessKind::Read:  // a loaded value takes the memory's shadow (rules::load)
    case AccessKind::AtomicLoad:
    case AccessKind::AtomicFailedRmw:
      return;
  }
}

}  // namespace spvsim::check
