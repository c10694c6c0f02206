// 32-bit device addresses for Physical32 modules (src/DESIGN.md, "32-bit modules").
//
// Registers keep every pointer in the 64-bit encoding of src/exec/memory.h, so access
// chains, loads and stores run the handlers of 64-bit modules unchanged. A pointer only
// becomes 32 bits where a 32-bit device would show its bits: stored to memory (4 bytes),
// converted to an integer, bitcast, placed in a composite, printed with %p. This map gives
// each object of a launch a 32-bit address, as a device's allocator would, and converts
// both ways.
//
// Layout of the 32-bit space: [0, 16 MiB) is the null page (an integer there is null plus
// that offset); then one window per address space: private [16 MiB, 256 MiB), local
// [256 MiB, 512 MiB), constant [512 MiB, 1 GiB), global [1 GiB, 4 GiB). Each space's
// regions are placed in table order, each in a slot: a guard, the object rounded up to
// 4 KiB, a guard; the guard is the object's size clamped to 64 KiB .. 16 MiB. An address
// inside a slot names that object at offset address - base, so a pointer moved out of its
// object by less than the guard (integer arithmetic included) stays reported against its
// own object, and no such move reaches a neighbour. Placement depends only on the regions
// before (sizes and order), so program-scope and module-scope variables have the same
// address in every launch, and relocated initial values can be written before one.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "src/exec/memory.h"

namespace spvsim {

constexpr uint64_t kNullPage32 = 16ull << 20;

struct Window32 {
  uint64_t start = 0, end = 0;  // [start, end), end <= 2^32
};
Window32 window32(Space s);

// The encoded pointer of a 32-bit address in no slot: space Invalid, this region code
// (so no region and not null), the address as its offset. Accesses through it are
// reported as through an invalid pointer; it converts back to the same address.
constexpr uint64_t kNoObject32Code = 0x32;
constexpr uint64_t noObjectPointer(uint32_t a) {
  return (kNoObject32Code << kOffsetBits) | (uint64_t(a) + kOffsetBias);
}
constexpr bool isNoObjectPointer(uint64_t p) { return (p >> kOffsetBits) == kNoObject32Code; }

class Address32Map {
 public:
  // Places regions 1.. of `regions` (index 0 is never valid) in `s`'s window, after any
  // placed before; a region that does not fit gets no address.
  void place(Space s, const std::vector<Region>& regions);

  enum class Status : uint8_t {
    Exact,     // toPointer(value) gives the pointer back
    Inexact,   // the device's value, naming another object or none (out of reach,
               // saturated, null plus more than the null page, garbage)
    Unplaced,  // the pointer's object has no 32-bit address (its window is full)
  };
  struct Address {
    uint32_t value = 0;
    Status status = Status::Exact;
  };
  Address toAddress(uint64_t p) const;
  uint64_t toPointer(uint32_t a) const;

  // The address of region `region` of `s` (nullopt: not placed).
  std::optional<uint32_t> base(Space s, uint64_t region) const;

 private:
  struct Slot {
    uint64_t start = 0, end = 0, base = 0;
    uint64_t region = 0;
  };
  static size_t index(Space s) { return size_t(s); }
  std::array<std::vector<Slot>, 5> placed_;     // by space, in address order
  std::array<std::vector<int64_t>, 5> slotOf_;  // by space and region: index into placed_, -1
  std::array<uint64_t, 5> cursor_{};            // next free address of each window
};

// The map of a launch's memory (every region of every space).
Address32Map address32MapOf(const MemoryMap& memory);

}  // namespace spvsim
