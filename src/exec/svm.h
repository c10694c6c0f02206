// Shared virtual memory (SVM): allocations the host and kernels address with the same
// pointer values, the host's own addresses.
//
// Kernel pointers are encoded (src/exec/memory.h); an SVM pointer is not: it is the raw
// host address, which decodes as Space::Invalid. A launch binds every SVM allocation it
// may touch as a Global region and keeps a table of their host ranges (MemoryMap::svm).
// Only the slow path of an access (SubGroup::locate, after the encoded spaces failed)
// looks a raw address up there and goes on with the region's encoded pointer: bounds,
// writability, observers and diagnostics then see an ordinary global access. Registers
// and memory keep the raw value, so a pointer a kernel stores is one the host can follow.
//
// Raw addresses must behave under the encoded pointers' arithmetic (offsetPointer and
// the access chains' plain sums): bit 39 (the saturated flag) clear and bits 40..63 (space
// and region) equal over an allocation and a margin past it. svmAddressable() says so;
// SvmHeap (src/exec/svm_heap.h) hands out only such memory. Moving a raw pointer out of
// its 2^39-byte half-window saturates it, as for any object, and it then resolves nowhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spvsim {

struct MemoryMap;

// One SVM allocation a launch may touch, as a front end passes it (LaunchOptions::svm).
struct SvmAllocation {
  uint8_t* base = nullptr;  // owned by the front end, alive during the launch
  uint64_t size = 0;
  std::string name;  // for diagnostics: "SVM allocation 0x7f..."
};

// One entry of a launch's table: the host range of the Global region `region`.
struct SvmRange {
  uint64_t base = 0;
  uint64_t size = 0;
  uint32_t region = 0;
};

// The half-window of raw addresses that decode consistently: [k 2^40, k 2^40 + 2^39), k >= 1.
inline constexpr uint64_t kSvmWindowBits = 39;
inline constexpr uint64_t kSvmWindowBytes = uint64_t(1) << kSvmWindowBits;

// Whether [base, base + size] lies in one half-window (above the null-derived values).
constexpr bool svmAddressable(uint64_t base, uint64_t size) {
  const uint64_t end = base + size;
  return base >= (uint64_t(1) << 40) && end >= base && ((base ^ end) >> 40) == 0 &&
         ((end >> kSvmWindowBits) & 1) == 0;
}

// The table entry `p` points into or past (the nearest allocation at or below `p` in the
// same half-window), or nullptr. `table` is sorted by base and its ranges do not overlap.
const SvmRange* findSvmRange(const std::vector<SvmRange>& table, uint64_t p);

// Adds the allocations to `mem` as Global regions and fills mem.svm. Throws
// Error(DiagnosticKind::Unsupported) for an allocation outside svmAddressable() and
// Error(DiagnosticKind::InvalidArgument) for overlapping ones.
void bindSvmAllocations(const std::vector<SvmAllocation>& allocations, MemoryMap& mem);

}  // namespace spvsim
