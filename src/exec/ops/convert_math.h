// Exact numeric conversions with the OpenCL rounding modes and saturation, shared by the
// conversion instructions and vstore_half. Pure functions; no simulator state.
//
// Narrowing float->float and int->float conversions are rounded here in software
// (exactly, for every mode and width), so no result depends on the host's floating-point
// environment or on how the compiler lowers conversions to _Float16.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace spvsim::ops {

// Same numbering as spv::FPRoundingMode.
enum class Round : uint8_t { RTE = 0, RTZ = 1, RTP = 2, RTN = 3 };

template <class F>
struct FloatFormat;
template <>
struct FloatFormat<_Float16> {
  static constexpr int digits = 11, minExp = -14, maxExp = 15;
};
template <>
struct FloatFormat<float> {
  static constexpr int digits = 24, minExp = -126, maxExp = 127;
};
template <>
struct FloatFormat<double> {
  static constexpr int digits = 53, minExp = -1022, maxExp = 1023;
};

// A finite value (-1)^neg * m * 2^e, held exactly.
struct ExactNumber {
  bool neg = false;
  uint64_t m = 0;
  int e = 0;
};

template <class F>
ExactNumber exactOfFloat(F x) {  // x finite
  int ex = 0;
  double fr = std::frexp(double(x), &ex);
  return {std::signbit(double(x)), uint64_t(std::ldexp(std::fabs(fr), 53)), ex - 53};
}

template <class I>
ExactNumber exactOfInt(I v) {
  bool neg = v < 0;
  uint64_t m = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  return {neg, m, 0};
}

// Whether dropping the low `shift` bits `rem` of a magnitude (kept part `kept`) rounds
// the magnitude up.
inline bool roundsUp(uint64_t kept, uint64_t rem, int shift, bool neg, Round mode) {
  if (rem == 0) return false;
  switch (mode) {
    case Round::RTZ:
      return false;
    case Round::RTP:
      return !neg;
    case Round::RTN:
      return neg;
    case Round::RTE:
      break;
  }
  if (shift > 64) return false;  // rem < 2^64 <= half
  uint64_t half = uint64_t(1) << (shift - 1);
  return rem > half || (rem == half && (kept & 1));
}

template <class F>
F overflowResult(bool neg, Round mode) {
  bool toInfinity =
      mode == Round::RTE || (mode == Round::RTP && !neg) || (mode == Round::RTN && neg);
  using Fmt = FloatFormat<F>;  // (numeric_limits has no _Float16)
  double big =
      toInfinity ? HUGE_VAL : std::ldexp(2.0 - std::ldexp(1.0, 1 - Fmt::digits), Fmt::maxExp);
  return F(neg ? -big : big);
}

// Rounds an exact value to the floating-point type F (half, float or double).
template <class F>
F roundExact(ExactNumber x, Round mode) {
  using Fmt = FloatFormat<F>;
  if (x.m == 0) return x.neg ? F(-0.0) : F(0.0);
  int exp = (63 - std::countl_zero(x.m)) + x.e;
  int q = std::max(exp, Fmt::minExp) - (Fmt::digits - 1);  // exponent of the last digit
  int shift = q - x.e;
  uint64_t m = 0;
  if (shift <= 0) {
    m = x.m << -shift;
  } else {
    uint64_t kept = shift >= 64 ? 0 : x.m >> shift;
    uint64_t rem = shift >= 64 ? x.m : x.m & ((uint64_t(1) << shift) - 1);
    m = kept + (roundsUp(kept, rem, shift, x.neg, mode) ? 1 : 0);
  }
  if (m != 0 && (63 - std::countl_zero(m)) + q > Fmt::maxExp) return overflowResult<F>(x.neg, mode);
  double mag = std::ldexp(double(m), q);  // exact: m has at most `digits` bits
  return F(x.neg ? -mag : mag);
}

// Integer -> floating point (default RTE).
template <class F, class I>
F intToFloat(I v, Round mode) {
  if constexpr (!std::is_same_v<F, _Float16>)
    if (mode == Round::RTE) return F(v);  // the host rounds to nearest even
  return roundExact<F>(exactOfInt(v), mode);
}

// Floating point -> floating point: widening is exact; narrowing rounds by `mode`.
template <class To, class From>
To floatToFloat(From v, Round mode) {
  if constexpr (sizeof(To) >= sizeof(From)) {
    return To(v);
  } else {
    if (std::isnan(v) || std::isinf(v)) return To(v);
    if constexpr (std::is_same_v<To, float>)
      if (mode == Round::RTE) return To(v);
    return roundExact<To>(exactOfFloat(v), mode);
  }
}

// Rounds to an integral value in double (exact for every half/float/double input).
inline double roundIntegral(double x, Round mode) {
  switch (mode) {
    case Round::RTZ:
      return std::trunc(x);
    case Round::RTP:
      return std::ceil(x);
    case Round::RTN:
      return std::floor(x);
    case Round::RTE:
      break;
  }
  double f = std::floor(x), d = x - f;
  if (d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0)) f += 1.0;
  return f;
}

// Floating point -> integer with saturation: NaN -> 0, out of range -> the nearest
// representable value. (Without the SaturatedConversion decoration out-of-range
// conversions are undefined in OpenCL C; spvsim gives the saturated value too.)
template <class I, class F>
I floatToInt(F v, Round mode) {
  double x = double(v);
  if (std::isnan(x)) return 0;
  x = roundIntegral(x, mode);
  constexpr int bits = std::numeric_limits<I>::digits;  // value bits
  const double hi = std::ldexp(1.0, bits);              // max + 1, exact
  if (x >= hi) return std::numeric_limits<I>::max();
  if (x < double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return I(x);
}

// Integer -> integer: modular, or clamped to the destination's range.
template <class To, class From>
To intToInt(From v, bool saturate) {
  if (saturate) {
    if (std::cmp_less(v, std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (std::cmp_greater(v, std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  }
  return To(v);
}

}  // namespace spvsim::ops
