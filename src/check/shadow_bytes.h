// Scans over per-byte shadows (1: written / defined, 0: never written), shared by the
// uninitialised-read and undefined-value checkers: a whole sub-group's access looks at its
// span once, and these make that look eight bytes at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace spvsim::check {

// Whether none of the n shadow bytes at p is 0.
inline bool noZeroByte(const uint8_t* p, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if ((w - kOnes) & ~w & kHighs) return false;  // some byte of w is 0
  }
  for (; i < n; ++i)
    if (!p[i]) return false;
  return true;
}

}  // namespace spvsim::check
