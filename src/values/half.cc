#include "src/values/half.h"

#include <cmath>

namespace spvsim::values {

uint16_t toHalf(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7e00;
  const double a = std::fabs(value);
  // 65520 lies halfway between the largest half (65504) and 2^16; ties go to the even
  // neighbour, which is 2^16 = infinity.
  if (a >= 65520.0) return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) {
    // Subnormal: a multiple of 2^-24. 1024 * 2^-24 rounds up into the smallest normal,
    // whose bit pattern is exactly 0x0400.
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  int exp2 = 0;
  const double fraction = std::frexp(a, &exp2);  // a = fraction * 2^exp2, fraction in [0.5, 1)
  const int exponent = exp2 - 1;                 // a = (2 * fraction) * 2^exponent
  // (2f - 1) * 1024 is exact in double; nearbyint rounds ties to even. A carry out of
  // the mantissa (1024) correctly bumps the exponent field.
  const auto mantissa = static_cast<uint16_t>(std::nearbyint((2 * fraction - 1) * 1024));
  return sign | static_cast<uint16_t>(((exponent + 15) << 10) + mantissa);
}

double fromHalf(uint16_t bits) {
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0x1f) return mantissa ? std::nan("") : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

}  // namespace spvsim::values
