// How the addresses of one sub-group access lie. Load, store and vload handlers use it
// to copy a whole sub-group at once: one address for every lane (uniform) or lane l at
// first + l * bytes (contiguous). Lanes 0 and 1 say which of the two to test, and that
// test is one pass of XORs and ORs over four lanes at a time in two SSE2 registers (GCC/Clang
// vector types: SIMD instructions on any target, unlike -O2's loop vectoriser, which leaves loops
// of a run-time trip count alone).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

namespace spvsim {

enum class LanePattern : uint8_t {
  Scattered,   // anything else: lane by lane
  Uniform,     // every lane the same address
  Contiguous,  // lane l at p[0] + l * bytes, increasing (no wrap-around)
};

struct LaneAddresses {
  LanePattern pattern = LanePattern::Scattered;
  uint64_t lo = 0, hi = 0;  // the smallest and the largest address
  // Each address is a multiple of a power of two 2^k exactly when this one is (the OR of
  // the addresses, or of the first and the stride).
  uint64_t alignment = 0;
};

namespace lanes {

// Two lanes: one SSE2 register (the x86-64 baseline), so no ABI question.
using U64x2 = uint64_t __attribute__((vector_size(16)));

inline U64x2 load2(const uint64_t* p) {
  U64x2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Zero exactly when p[l] == first + l * step for every lane l < width.
inline uint64_t offLine(const uint64_t* p, uint32_t width, uint64_t first, uint64_t step) {
  U64x2 even = {first, first + step}, odd = {first + 2 * step, first + 3 * step};
  const uint64_t advance = 4 * step;
  U64x2 offEven = {}, offOdd = {};
  uint32_t l = 0;
  for (; l + 4 <= width; l += 4) {
    offEven |= load2(p + l) ^ even;
    offOdd |= load2(p + l + 2) ^ odd;
    even += advance;
    odd += advance;
  }
  const U64x2 off = offEven | offOdd;
  uint64_t result = off[0] | off[1];
  for (; l < width; ++l) result |= p[l] ^ (first + l * step);
  return result;
}

}  // namespace lanes

// The pattern of `width` (>= 1) addresses `p` of accesses of `bytes` each.
[[gnu::always_inline]] inline LaneAddresses classifyLanes(const uint64_t* p, uint32_t width,
                                                          uint64_t bytes) {
  const uint64_t p0 = p[0];
  if (width == 1) return {LanePattern::Uniform, p0, p0, p0};
  const uint64_t step = p[1] - p0, last = p[width - 1];
  if (step == 0 && lanes::offLine(p, width, p0, 0) == 0) return {LanePattern::Uniform, p0, p0, p0};
  if (step == bytes && last > p0 && lanes::offLine(p, width, p0, step) == 0)
    return {LanePattern::Contiguous, p0, last, p0 | step};
  uint64_t lo = p0, hi = p0, ored = 0;
  for (uint32_t l = 0; l < width; ++l) {
    lo = std::min(lo, p[l]);
    hi = std::max(hi, p[l]);
    ored |= p[l];
  }
  return {LanePattern::Scattered, lo, hi, ored};
}

// The pattern of `width` (>= 2) addresses `p` known to be p[0] + l * (p[1] - p[0]) modulo
// 2^64 (an affine register: src/exec/register_shape.h): from lanes 0, 1 and the end
// points, reading no other lane. A sequence that wraps around 2^64 is scanned.
[[gnu::always_inline]] inline LaneAddresses affineLanes(const uint64_t* p, uint32_t width,
                                                        uint64_t bytes) {
  const uint64_t p0 = p[0];
  const int64_t step = int64_t(p[1] - p0);
  if (step == 0) return {LanePattern::Uniform, p0, p0, p0};
  int64_t span;
  if (__builtin_mul_overflow(step, int64_t(width - 1), &span))
    return classifyLanes(p, width, bytes);
  const uint64_t last = p0 + uint64_t(span);
  if (span > 0 ? last < p0 : last > p0) return classifyLanes(p, width, bytes);
  // Every address a multiple of 2^k exactly when p0 and the step are.
  const uint64_t alignment = p0 | uint64_t(step);
  if (step > 0 && uint64_t(step) == bytes) return {LanePattern::Contiguous, p0, last, alignment};
  return {LanePattern::Scattered, std::min(p0, last), std::max(p0, last), alignment};
}

// affineLanes of the addresses p0 + l * step (l < width >= 2) that no register holds (a
// fused access: src/exec/ops/fused_access.cc); nullopt where they wrap around 2^64.
[[gnu::always_inline]] inline std::optional<LaneAddresses> affineLanesOf(uint64_t p0, int64_t step,
                                                                         uint32_t width,
                                                                         uint64_t bytes) {
  if (step == 0) return LaneAddresses{LanePattern::Uniform, p0, p0, p0};
  int64_t span;
  if (__builtin_mul_overflow(step, int64_t(width - 1), &span)) return std::nullopt;
  const uint64_t last = p0 + uint64_t(span);
  if (span > 0 ? last < p0 : last > p0) return std::nullopt;
  const uint64_t alignment = p0 | uint64_t(step);
  if (step > 0 && uint64_t(step) == bytes)
    return LaneAddresses{LanePattern::Contiguous, p0, last, alignment};
  return LaneAddresses{LanePattern::Scattered, std::min(p0, last), std::max(p0, last), alignment};
}

}  // namespace spvsim
