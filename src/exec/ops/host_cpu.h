// Host CPU instructions the op families use where the CPU has them. The binary targets
// plain x86-64 (so that it runs on any machine), where std::fma and std::popcount are
// library calls per component; a loop over a whole register built for the instructions
// (SPVSIM_HOST_TARGET) and chosen at run time gives the same results faster. Each feature
// is asked of the CPU once per process.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#define SPVSIM_HOST_TARGET(features) [[gnu::target(features)]]
#else
#define SPVSIM_HOST_TARGET(features)
#endif

namespace spvsim::ops {

inline bool hostHasFma() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

// AVX2 and FMA (x86-64-v3's vector and fused multiply-add instructions), unless
// SPVSIM_HOST_ISA=baseline asks for the plain build (for testing both builds on one machine).
inline bool hostHasAvx2Fma() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = [] {
    const char* isa = std::getenv("SPVSIM_HOST_ISA");
    if (isa && std::string_view(isa) == "baseline") return false;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return has;
#else
  return false;
#endif
}

inline bool hostHasPopcnt() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = __builtin_cpu_supports("popcnt");
  return has;
#else
  return false;
#endif
}

// r[i] = fma(a[i], b[i], c[i]) for `count` elements, with FMA instructions.
template <class T>
SPVSIM_HOST_TARGET("fma")
void fmaWithFmaInstructions(T* __restrict r, const T* __restrict a, const T* __restrict b,
                            const T* __restrict c, uint32_t count) {
  // Blocks of 16 for the -O2 vectoriser (known trip counts only): VFMADD on whole vectors.
  for (; count >= 16; count -= 16, r += 16, a += 16, b += 16, c += 16)
    for (uint32_t i = 0; i < 16; ++i) r[i] = std::fma(a[i], b[i], c[i]);
  for (uint32_t i = 0; i < count; ++i) r[i] = std::fma(a[i], b[i], c[i]);
}

// r[i] = popcount(a[i]) for `count` elements of unsigned type U, with POPCNT.
template <class U>
SPVSIM_HOST_TARGET("popcnt")
void popcountWithPopcnt(U* __restrict r, const U* __restrict a, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) r[i] = U(std::popcount(a[i]));
}

}  // namespace spvsim::ops
