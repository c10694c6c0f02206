// Simulated memory: separate address spaces made of bounds-checked regions.
//
// A pointer is a 64-bit value: [63..61] address space, [60..40] region code, [39] the
// saturated flag, [38..0] the byte offset plus 2^38 (so offsets -2^38 .. 2^38 - 1 are
// representable, and moving within them never borrows from or carries into the bits
// above). Null is 0; null plus an offset keeps space and region 0.
//
// Pointer arithmetic (access chains, vload offsets, ...) never changes the space or
// region: a pointer stays derived from its object, and an offset outside the object is
// reported against that object with its signed value. An offset beyond the representable
// range saturates: the flag is set (the offset bits then only tell the side), and the
// pointer stays saturated, since its true offset is unknown and it must never look valid
// again. The per-lane hot paths add plainly and check once per instruction that no
// lane's bits 39..63 changed (src/exec/ops/access_chain.cc): then each sum was exact, or
// moved a saturated pointer by less than its flag, and it stays saturated. Otherwise they
// fall back to offsetPointer().
//
// Integer arithmetic on a pointer's bits (OpConvertPtrToU ... OpConvertUToPtr) may carry
// into the region field. Region codes are region indices times an odd constant, so
// neighbouring codes decode to indices about 2^21 / golden ratio apart: a carry or borrow
// (or any other small change of the code) lands on no region, and the access is reported
// as through an invalid pointer rather than touching another object. Kernel accesses go
// only through SubGroup::resolve(), so a bad kernel address can never touch the
// simulator's own memory. Private and Input regions resolve to the accessing lane's own
// copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "src/exec/svm.h"

namespace spvsim {

enum class Space : uint8_t {
  Invalid = 0,  // null and garbage
  Global = 1,
  Constant = 2,
  Local = 3,
  Private = 4,  // per lane: Function storage and the built-in variables
};

constexpr uint64_t kOffsetBits = 40;  // the offset field, saturated flag included
constexpr uint64_t kRegionBits = 21;
constexpr uint64_t kOffsetMask = (1ull << kOffsetBits) - 1;
constexpr uint64_t kRegionMask = (1ull << kRegionBits) - 1;
constexpr uint64_t kSaturatedBit = 1ull << 39;
constexpr uint64_t kBiasedMask = kSaturatedBit - 1;  // the biased offset
constexpr uint64_t kOffsetBias = 1ull << 38;         // aligned to any access: p & (align - 1) works

// What pointerOffset() says for saturated pointers: "this or beyond".
constexpr int64_t kOffsetAbove = int64_t(kOffsetBias);       // 2^38 or more
constexpr int64_t kOffsetBelow = -int64_t(kOffsetBias) - 1;  // -2^38 - 1 or less
// The largest object (region) spvsim places: valid accesses lie well inside the
// representable offsets. Messages spell it out: 137438953472 bytes, 128 GiB.
constexpr uint64_t kMaxObjectBytes = 1ull << 37;
static_assert(kMaxObjectBytes == 128ull << 30);
// Regions per address space (region codes are 21 bits).
constexpr uint64_t kMaxRegions = 1ull << kRegionBits;

// Region index <-> code: multiplication by kRegionEncode and its inverse mod 2^21.
// kRegionDecode is 2^21 / golden ratio, rounded to odd: d * kRegionDecode mod 2^21 stays
// at least 1201 away from 0 for every code change 0 < |d| <= 1000, so in a table of up to
// 1201 regions no such change turns one region's code into another's.
constexpr uint64_t kRegionDecode = 1296121;
constexpr uint64_t kRegionEncode = 6985;
static_assert(((kRegionEncode * kRegionDecode) & kRegionMask) == 1);

// `offset` within -2^38 .. 2^38 - 1.
constexpr uint64_t makePointer(Space s, uint64_t region, int64_t offset = 0) {
  return (uint64_t(s) << 61) | (((region * kRegionEncode) & kRegionMask) << kOffsetBits) |
         (uint64_t(offset) + kOffsetBias);
}
constexpr Space pointerSpace(uint64_t p) { return Space(p >> 61); }
// The region index (an index no table has for a garbage code).
constexpr uint64_t pointerRegion(uint64_t p) {
  return (((p >> kOffsetBits) & kRegionMask) * kRegionDecode) & kRegionMask;
}
constexpr bool pointerSaturated(uint64_t p) { return (p & kSaturatedBit) != 0; }
// The offset bits of saturated pointers: the middle of each half, so that moving one by
// less than 2^37 bytes (which the hot paths allow, see above) keeps its side.
constexpr uint64_t kSaturatedAbove = kSaturatedBit | (3ull << 37);
constexpr uint64_t kSaturatedBelow = kSaturatedBit | (1ull << 37);
// The signed byte offset; kOffsetAbove / kOffsetBelow for a saturated pointer.
constexpr int64_t pointerOffset(uint64_t p) {
  if (pointerSaturated(p)) return (p & kOffsetBias) ? kOffsetAbove : kOffsetBelow;
  return int64_t(p & kBiasedMask) - int64_t(kOffsetBias);
}
// The offset as an unsigned number for bounds checks: above every object size when the
// offset is negative or saturated.
constexpr uint64_t offsetBits(uint64_t p) { return (p - kOffsetBias) & kOffsetMask; }
// Host addresses in the fast paths, for pointers already known valid: `origin` is the
// region's host base minus the bias, and a lane's address one mask and one add from it.
inline uintptr_t hostOrigin(const uint8_t* base) { return uintptr_t(base) - kOffsetBias; }
inline uint8_t* hostAddress(uintptr_t origin, uint64_t p) {
  return reinterpret_cast<uint8_t*>(origin + (p & kOffsetMask));
}
// Null plus an offset (space and region 0): the offset is the pointer's value.
constexpr bool nullDerived(uint64_t p) { return (p >> kOffsetBits) == 0; }

// Deltas beyond this saturate whatever the base offset; clamping to it keeps sums of a
// few deltas inside int64.
constexpr int64_t kDeltaLimit = int64_t(1) << 61;

constexpr int64_t clampDelta(int64_t d) { return std::clamp(d, -kDeltaLimit, kDeltaLimit); }

// a + b for deltas already within kDeltaLimit, clamped again.
constexpr int64_t addDeltas(int64_t a, int64_t b) { return clampDelta(a + b); }

// index * stride (stride >= 0) as a clamped delta, without overflow.
inline int64_t scaledIndex(int64_t index, int64_t stride) {
  int64_t product;
  if (__builtin_mul_overflow(index, stride, &product))
    return index < 0 ? -kDeltaLimit : kDeltaLimit;
  return clampDelta(product);
}

// `p` moved by `delta` bytes (|delta| <= kDeltaLimit) within its object: the space and
// region bits never change; an offset beyond the representable range saturates, and a
// saturated pointer stays as it is.
constexpr uint64_t offsetPointer(uint64_t p, int64_t delta) {
  if (pointerSaturated(p)) return p;
  const uint64_t object = p & ~kOffsetMask;
  const int64_t moved = int64_t(p & kBiasedMask) + delta;  // biased
  if (moved < 0) return object | kSaturatedBelow;
  if (moved > int64_t(kBiasedMask)) return object | kSaturatedAbove;
  return object | uint64_t(moved);
}

// Plain sums r = p + delta (mod 2^64) of exact deltas below 2^63 in magnitude: when no
// lane's bits 39..63 changed (`moved` ORs p ^ r over the lanes), each r is what
// offsetPointer(p, delta) gives, except that a saturated p moved by less than its flag
// (still saturated, as it must be).
constexpr bool plainSumsExact(uint64_t moved) { return (moved >> 39) == 0; }

const char* spaceName(Space s);

class Address32Map;  // src/exec/address32.h

// One allocation: a kernel buffer, a local array, a program-scope variable.
struct Region {
  uint8_t* base = nullptr;   // Global/Constant: the storage
  uint64_t arenaOffset = 0;  // Local/Private: offset in the work-group's/lane's arena
  uint64_t size = 0;
  // Whether the fast paths may write / read it without asking further (false for
  // read-only memory and for what the creation flags forbid).
  bool writable = true;
  std::string name;  // for diagnostics: "arg1", "program variable tmp", ...
  bool readable = true;
  // The buffer's creation flags (CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY, a .sim file's
  // ro / wo, buffer:ro: / wo:) forbid kernel writes / reads. Such an access is undefined
  // behaviour: it is reported as `access-violation` and then performed on the memory, as
  // a device does (its memory does not know the flags); SubGroup::locate. Memory that is
  // read-only by nature (constant memory) has writable false and these false: a write
  // to it is not performed.
  bool writeForbiddenByFlags = false;
  bool readForbiddenByFlags = false;
  bool hostRestricted() const { return writeForbiddenByFlags || readForbiddenByFlags; }
  // Global/Constant: contents the host never initialised (ArgBinding::uninitialized).
  bool uninitialized = false;
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
  // The SVM allocations bound as Global regions, sorted by host address (src/exec/svm.h).
  std::vector<SvmRange> svm;
  // A Physical32 module's 32-bit addresses of these regions (src/exec/address32.h); null
  // for 64-bit modules, whose handlers never ask.
  const Address32Map* addresses32 = nullptr;

  // Inline: the memory access fast path asks once per access.
  const std::vector<Region>& regions(Space s) const {
    switch (s) {
      case Space::Global:
        return global;
      case Space::Constant:
        return constant;
      case Space::Local:
        return local;
      default:
        return priv;
    }
  }
  // The region `p` points into, or nullptr for null, invalid and garbage pointers.
  const Region* regionOf(uint64_t p) const;
  // A raw SVM address as the encoded Global pointer of its allocation's region (offsets
  // past its end included); any other value unchanged.
  uint64_t canonical(uint64_t p) const;
};

// A global or constant region of a launch (MemoryMap::global / constant, by index).
struct RegionRef {
  Space space = Space::Global;
  uint64_t index = 0;
};

// The global regions (and the constant ones where `withConstant`) that have storage, in
// sets of regions whose storage overlaps (one buffer passed as two arguments, sub-buffers
// of one buffer, and what overlaps those): each set sorted by start, its first region
// starting where its storage does. A region joins the set before it (in order of start)
// when it starts before the end of everything in that set.
std::vector<std::vector<RegionRef>> sharedStorage(const MemoryMap& mem, bool withConstant);

// Why an access failed; Ok when it did not. InvalidSpace: a pointer into no object
// (an invalid space or region code: garbage bits, e.g. from integer arithmetic).
// ReadOnly / WriteOnly with a null host address: memory that cannot be written (constant
// memory) / read. With a host address (SubGroup::locate): an access the creation flags
// forbid (Region::writeForbiddenByFlags / readForbiddenByFlags), which is performed and
// reported.
enum class AccessError { Ok, Null, OutOfBounds, ReadOnly, Misaligned, InvalidSpace, WriteOnly };

// Where `p` points, for diagnostics: "byte offset -4 of argument 1 (in) (global memory,
// 64 bytes)", "byte offset 274877906944 or more (out of the representable range) of ...",
// "byte offset 8 from a null pointer", "invalid pointer 0x... (it points into no object)".
std::string describeLocation(const MemoryMap& memory, uint64_t p);
// The same with its preposition: "at byte offset ...", "through an invalid pointer ...".
std::string describePlace(const MemoryMap& memory, uint64_t p);

}  // namespace spvsim
