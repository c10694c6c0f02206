// Float transcendental functions on a whole register at once, through glibc's libmvec
// (the vector forms of libm's double functions), with results identical to the scalar
// path's float(f(double(x))).
//
// libmvec's double functions are within a few ulps of libm's, not equal to them. Two
// doubles that close round to different floats only when a float rounding midpoint lies
// between them; so a lane whose vector result lies within kLibmvecGuardUlps double ulps
// of a midpoint, is near float's subnormal range or its overflow threshold, or is a NaN,
// is computed again by the scalar function. Every other lane rounds as the scalar path
// would: results far below float's smallest subnormal, or far above its largest float,
// round to the zero or infinity of their sign either way.
// vector_libm_exhaustive checks this over every float argument.
#pragma once

#include <cstdint>

namespace spvsim::ops {

// The libm functions libmvec also has (glibc 2.35).
enum class LibmFunction : uint8_t {
  kAcos,
  kAcosh,
  kAsin,
  kAsinh,
  kAtan,
  kAtanh,
  kCbrt,
  kCos,
  kCosh,
  kErf,
  kErfc,
  kExp,
  kExp10,
  kExp2,
  kExpm1,
  kLog,
  kLog10,
  kLog1p,
  kLog2,
  kSin,
  kSinh,
  kTan,
  kTanh,
  kCount,
};

// How far (in ulps of the double result) from a float rounding midpoint a vector result
// must lie to be used. glibc documents libmvec's errors as at most 4 ulps.
inline constexpr uint64_t kLibmvecGuardUlps = 1024;

using ScalarLibmFn = double (*)(double);

// Whether floatThroughLibmvec runs here: x86-64 with AVX2 and FMA (its 4-lane forms),
// unless SPVSIM_HOST_ISA=baseline.
bool hostHasLibmvec();

// r[i] = float(f(double(a[i]))) for `count` elements, f being libm's function. r may be
// a. Only where hostHasLibmvec().
void floatThroughLibmvec(LibmFunction f, float* r, const float* a, uint32_t count);

// r[i] = libmvec's f(a[i]) (no guard; the tail by libm), for checking the guard's premise.
void libmvecDoubles(LibmFunction f, double* r, const double* a, uint32_t count);

// The scalar libm function f (std::sin, ...), for tests and tools/libm_exhaustive.
ScalarLibmFn scalarLibm(LibmFunction f);
const char* libmName(LibmFunction f);

}  // namespace spvsim::ops
