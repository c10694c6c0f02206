// IEEE 754 binary16 conversions for `half` kernel arguments and buffers.
#pragma once

#include <cstdint>

namespace spvsim::values {

// Rounds to the nearest half, ties to even; overflow gives infinity, NaN stays NaN.
uint16_t toHalf(double value);

// The exact value of a half.
double fromHalf(uint16_t bits);

}  // namespace spvsim::values
