// A set of lanes of one sub-group (at most 128, src/DESIGN.md "Sizes").
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace spvsim {

constexpr uint32_t kMaxSubGroupSize = 128;

// Bits set in v. Without the POPCNT instruction (not in the x86-64 baseline) std::popcount
// is a library call; this is its bit-parallel sum, inline (setMask runs at every
// reconvergence and return).
inline uint32_t popcount64(uint64_t v) {
#if defined(__POPCNT__)
  return std::popcount(v);
#else
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<uint32_t>((v * 0x0101010101010101ull) >> 56);
#endif
}

struct LaneMask {
  uint64_t w[2] = {0, 0};

  static LaneMask firstN(uint32_t n) {
    LaneMask m;
    m.w[0] = n >= 64 ? ~0ull : (n ? (~0ull >> (64 - n)) : 0);
    m.w[1] = n >= 128 ? ~0ull : (n > 64 ? (~0ull >> (128 - n)) : 0);
    return m;
  }
  // `o`'s words by two 8-byte moves: GCC copies a LaneMask in one 16-byte load, which
  // stalls until two recent 8-byte stores of it reach the cache (no forwarding).
  void copyFrom(const LaneMask& o) {
    const uint64_t lo = o.w[0], hi = o.w[1];
    w[0] = lo;
    w[1] = hi;
  }
  bool test(uint32_t l) const { return (w[l >> 6] >> (l & 63)) & 1; }
  void set(uint32_t l) { w[l >> 6] |= 1ull << (l & 63); }
  void reset(uint32_t l) { w[l >> 6] &= ~(1ull << (l & 63)); }
  bool none() const { return (w[0] | w[1]) == 0; }
  bool any() const { return !none(); }
  // Lanes 64 and up only in sub-groups wider than 64: their word is usually 0.
  uint32_t count() const { return popcount64(w[0]) + (w[1] ? popcount64(w[1]) : 0); }
  uint32_t first() const { return w[0] ? std::countr_zero(w[0]) : 64 + std::countr_zero(w[1]); }
  LaneMask operator&(const LaneMask& o) const { return {{w[0] & o.w[0], w[1] & o.w[1]}}; }
  LaneMask operator|(const LaneMask& o) const { return {{w[0] | o.w[0], w[1] | o.w[1]}}; }
  LaneMask operator~() const { return {{~w[0], ~w[1]}}; }
  LaneMask andNot(const LaneMask& o) const { return {{w[0] & ~o.w[0], w[1] & ~o.w[1]}}; }
  bool operator==(const LaneMask& o) const { return w[0] == o.w[0] && w[1] == o.w[1]; }
  bool operator!=(const LaneMask& o) const { return !(*this == o); }

  template <class F>
  void forEach(F&& f) const {
    for (int k = 0; k < 2; ++k)
      for (uint64_t bits = w[k]; bits; bits &= bits - 1)
        f(uint32_t(k * 64 + std::countr_zero(bits)));
  }
  std::vector<uint32_t> lanes() const {
    std::vector<uint32_t> out;
    forEach([&](uint32_t l) { out.push_back(l); });
    return out;
  }
};

// Bit l: bit 0 of bools[l], for every lane; eight lanes per multiply (byte i's bit 0
// lands on bit 56 + i of the product, with no carries between them).
inline LaneMask boolMask(const uint8_t* bools, uint32_t width) {
  LaneMask m;
  uint32_t l = 0;
  for (; l + 8 <= width; l += 8) {
    uint64_t x;
    std::memcpy(&x, bools + l, 8);
    const uint64_t bits = ((x & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56;
    m.w[l >> 6] |= bits << (l & 63);
  }
  for (; l < width; ++l) m.w[l >> 6] |= uint64_t(bools[l] & 1) << (l & 63);
  return m;
}

}  // namespace spvsim
