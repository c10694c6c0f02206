// A set of lanes of one sub-group (at most 128, src/DESIGN.md "Sizes").
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace spvsim {

constexpr uint32_t kMaxSubGroupSize = 128;

struct LaneMask {
  uint64_t w[2] = {0, 0};

  static LaneMask firstN(uint32_t n) {
    LaneMask m;
    m.w[0] = n >= 64 ? ~0ull : (n ? (~0ull >> (64 - n)) : 0);
    m.w[1] = n >= 128 ? ~0ull : (n > 64 ? (~0ull >> (128 - n)) : 0);
    return m;
  }
  bool test(uint32_t l) const { return (w[l >> 6] >> (l & 63)) & 1; }
  void set(uint32_t l) { w[l >> 6] |= 1ull << (l & 63); }
  void reset(uint32_t l) { w[l >> 6] &= ~(1ull << (l & 63)); }
  bool none() const { return (w[0] | w[1]) == 0; }
  bool any() const { return !none(); }
  uint32_t count() const { return std::popcount(w[0]) + std::popcount(w[1]); }
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

}  // namespace spvsim
