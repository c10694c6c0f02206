// Simulated memory: separate address spaces made of bounds-checked regions.
//
// A pointer is a 64-bit value: [63..61] address space, [60..40] region index,
// [39..0] byte offset. Null is 0. Pointer arithmetic is plain integer arithmetic on
// the offset, so out-of-range results land outside their region (or in region
// indices that do not exist) and are caught by the bounds check. Private and Input
// regions resolve to the accessing lane's own copy. Kernel accesses go only through
// resolve(), so a bad kernel address can never touch the simulator's own memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spvsim {

enum class Space : uint8_t {
  Invalid = 0,  // null and garbage
  Global = 1,
  Constant = 2,
  Local = 3,
  Private = 4,  // per lane: Function storage and the built-in variables
};

constexpr uint64_t kOffsetBits = 40;
constexpr uint64_t kRegionBits = 21;
constexpr uint64_t kOffsetMask = (1ull << kOffsetBits) - 1;
constexpr uint64_t kRegionMask = (1ull << kRegionBits) - 1;

constexpr uint64_t makePointer(Space s, uint64_t region, uint64_t offset) {
  return (uint64_t(s) << 61) | (region << kOffsetBits) | offset;
}
constexpr Space pointerSpace(uint64_t p) { return Space(p >> 61); }
constexpr uint64_t pointerRegion(uint64_t p) { return (p >> kOffsetBits) & kRegionMask; }
constexpr uint64_t pointerOffset(uint64_t p) { return p & kOffsetMask; }

const char* spaceName(Space s);

// One allocation: a kernel buffer, a local array, a program-scope variable.
struct Region {
  uint8_t* base = nullptr;   // Global/Constant: the storage
  uint64_t arenaOffset = 0;  // Local/Private: offset in the work-group's/lane's arena
  uint64_t size = 0;
  bool writable = true;
  std::string name;  // for diagnostics: "arg1", "program variable tmp", ...
};

// The regions of one launch. Global and Constant regions point at real storage;
// Local regions are offsets into a work-group's arena, Private regions offsets into
// a lane's arena.
struct MemoryMap {
  std::vector<Region> global{Region{}};  // index 0 is never valid
  std::vector<Region> constant{Region{}};
  std::vector<Region> local{Region{}};
  std::vector<Region> priv{Region{}};
  uint64_t localArenaBytes = 0;
  uint64_t privateArenaBytes = 0;  // per lane

  const std::vector<Region>& regions(Space s) const;
};

// Why an access failed; Ok when it did not.
enum class AccessError { Ok, Null, OutOfBounds, ReadOnly, Misaligned, InvalidSpace };

}  // namespace spvsim
