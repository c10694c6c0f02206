// Lane copies shared by the loads and stores (src/exec/ops/load_store.cc) and the fused
// chain + access handlers (src/exec/ops/fused_access.cc): whole sub-groups' values moved
// in 16-byte blocks or splats of a known size, inline in both, so that neither hot path
// pays a libc call or a `rep movs` (src/DESIGN.md, "Latency on the hot path"). Also the
// access sizes that have handlers of their own.
#pragma once

#include <cstdint>
#include <cstring>

#include "src/exec/lowered.h"
#include "src/exec/ops/by_size.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

// 16-byte blocks through named vector values (SSE registers, the x86-64 baseline): a
// memcpy of a known 64 or 128 bytes may instead become `rep movs` in a block GCC predicts
// cold, whose start-up costs more than the copy. Each value moves by a memcpy of its own
// size (no alignment assumed: a vector type's reduced alignment is a GCC reading, not
// Clang's).
using Bytes16 = uint8_t __attribute__((vector_size(16)));

template <uint32_t kBlocks>
[[gnu::always_inline]] inline void copyBlocks(void* to, const void* from) {
  const uint8_t* f = static_cast<const uint8_t*>(from);
  uint8_t* t = static_cast<uint8_t*>(to);
  for (uint32_t b = 0; b < kBlocks; b += 4) {
    Bytes16 v0, v1, v2, v3;
    std::memcpy(&v0, f + 16 * b, 16);
    std::memcpy(&v1, f + 16 * (b + 1), 16);
    std::memcpy(&v2, f + 16 * (b + 2), 16);
    std::memcpy(&v3, f + 16 * (b + 3), 16);
    std::memcpy(t + 16 * b, &v0, 16);
    std::memcpy(t + 16 * (b + 1), &v1, 16);
    std::memcpy(t + 16 * (b + 2), &v2, 16);
    std::memcpy(t + 16 * (b + 3), &v3, 16);
  }
}

// The lanes' values, `elementBytes` each, from `from` to `to` (no libc call for a
// sub-group of 16 of 4 or 8 bytes).
[[gnu::always_inline]] inline void copyLanes(void* to, const void* from, uint32_t width,
                                             uint32_t elementBytes) {
  if (width == 16 && elementBytes == 4)
    copyBlocks<4>(to, from);
  else if (width == 16 && elementBytes == 8)
    copyBlocks<8>(to, from);
  else
    std::memcpy(to, from, size_t(width) * elementBytes);
}

// 32 bytes of one lane value, as a vector type (GCC ignores vector_size on a dependent
// type, so one alias per element type).
using Splat32x8 = uint32_t __attribute__((vector_size(32)));
using Splat64x4 = uint64_t __attribute__((vector_size(32)));

template <class V, class T>
[[gnu::always_inline]] inline void splat16Lanes(uint8_t* r, const uint8_t* src) {
  T x;
  std::memcpy(&x, src, sizeof x);
  const V v = V{} + x;
  for (uint32_t k = 0; k < 16 * sizeof(T) / sizeof(V); ++k)
    std::memcpy(r + k * sizeof(V), &v, sizeof(V));
}

// The `bytes` at `src` into every lane's slot of register `r`: for the small sizes
// through a 16-byte pattern of the value (whole SSE stores, not a store per lane);
// for 16 lanes of 4 or 8 bytes, one splat stored whole.
template <uint32_t N>
void broadcast(const SubGroup& sg, const uint8_t* src, uint8_t* r, uint32_t bytes) {
  if constexpr (N == 4 || N == 8) {
    if (sg.width == 16) {  // the default sub-group size: two or four 32-byte stores
      if constexpr (N == 4)
        splat16Lanes<Splat32x8, uint32_t>(r, src);
      else
        splat16Lanes<Splat64x4, uint64_t>(r, src);
      return;
    }
  }
  const uint32_t size = N ? N : bytes;
  const size_t total = size_t(sg.width) * size;
  size_t i = 0;
  if constexpr (N == 1 || N == 2 || N == 4 || N == 8) {
    uint8_t pattern[16];
    for (uint32_t k = 0; k < 16; k += N) std::memcpy(pattern + k, src, N);
    for (; i + 16 <= total; i += 16) std::memcpy(r + i, pattern, 16);
  }
  for (; i < total; i += size) std::memcpy(r + i, src, size);
}

// F<N>::run for accesses of N = 1, 2, 4, 8 or 16 bytes (the sizes with a Load<N> and a
// Store<N> of their own); nullptr for other sizes.
template <template <uint32_t> class F>
ExecFn bySizeOf(uint32_t bytes) {
  return bySize<F, 1, 2, 4, 8, 16>(bytes);
}

}  // namespace spvsim::ops
