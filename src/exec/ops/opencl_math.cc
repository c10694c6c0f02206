// OpenCL.std math instructions (OpenCL C "Math Functions"): acos ... trunc, half_*
// and native_*, for half, float and double scalars and vectors.
//
// Functions are evaluated in a wider host type (ops::Wide: double for half/float,
// long double for double) and rounded once to the element type; operations that are
// exact or correctly rounded in double (rounding functions, sqrt, division, fmod,
// remainder, ...) use double. native_* and half_* use the full-precision functions.
// Special values follow the OpenCL C specification's edge-case rules where they go
// beyond C99 (sinpi/cospi/tanpi, pown, powr, rootn, fract, ilogb, remquo's 7 bits).
#include <spirv/unified1/OpenCL.std.h>

#include <climits>
#include <cmath>
#include <limits>

#include "src/exec/ops/host_cpu.h"
#include "src/exec/ops/opencl_std_util.h"
#include "src/exec/ops/vector_libm.h"

namespace spvsim {
namespace {

using ops::Exact;
using ops::Wide;
using spirv::Instruction;
namespace cl = OpenCLLIB;

template <class X>
constexpr X kPi = X(3.141592653589793238462643383279502884L);

template <class X>
X nanOf() {
  return std::numeric_limits<X>::quiet_NaN();
}

// ---- Scalar semantics (X is the evaluation type) ----

double exp10x(double x) { return ::exp10(x); }
long double exp10x(long double x) { return ::exp10l(x); }
double lgammaR(double x, int* s) { return ::lgamma_r(x, s); }
long double lgammaR(long double x, int* s) { return ::lgammal_r(x, s); }

// sin(pi x) with exact zeros at integers, signed like x: sinpi(+n) = +0, sinpi(-n) = -0.
template <class X>
X sinpi(X x) {
  if (std::isinf(x)) return nanOf<X>();
  if (std::isnan(x)) return x;
  X r = std::fmod(std::fabs(x), X(2));  // exact, in [0, 2)
  X s = std::signbit(x) ? X(-1) : X(1);
  if (r >= X(1)) {
    s = -s;
    r -= X(1);
  }
  if (r > X(0.5)) r = X(1) - r;  // exact (Sterbenz)
  return r == 0 ? std::copysign(X(0), x) : s * std::sin(kPi<X> * r);
}

// cos(pi x) with cospi(n + 0.5) = +0.
template <class X>
X cospi(X x) {
  if (std::isinf(x)) return nanOf<X>();
  if (std::isnan(x)) return x;
  X r = std::fmod(std::fabs(x), X(2));
  if (r > X(1)) r = X(2) - r;  // cos is even about 1; r in [0, 1]
  if (r == X(0.5)) return X(0);
  if (r < X(0.25)) return std::cos(kPi<X> * r);
  if (r <= X(0.75)) return std::sin(kPi<X> * (X(0.5) - r));
  return -std::cos(kPi<X> * (X(1) - r));
}

// tan(pi x): the signed zeros and infinities of the spec fall out of sinpi / cospi.
template <class X>
X tanpi(X x) {
  return sinpi(x) / cospi(x);
}

// powr: pow for x >= 0 only, with the OpenCL edge cases.
template <class X>
X powr(X x, X y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) return nanOf<X>();
  if (x == 0 || std::isinf(x)) {
    if (y == 0) return nanOf<X>();
  }
  if (x == 0) return y < 0 ? std::numeric_limits<X>::infinity() : X(0);
  if (x == 1) return std::isinf(y) ? nanOf<X>() : X(1);
  return std::pow(x, y);
}

template <class X>
X rootn(X x, int32_t n) {
  if (n == 0 || std::isnan(x)) return n == 0 ? nanOf<X>() : x;
  const bool odd = n & 1;
  if (x < 0 && !odd) return nanOf<X>();
  if (x == 0) {
    if (n < 0)
      return odd ? std::copysign(std::numeric_limits<X>::infinity(), x)
                 : std::numeric_limits<X>::infinity();
    return odd ? x : X(0);
  }
  X r = std::pow(std::fabs(x), X(1) / X(n));
  return x < 0 ? -r : r;
}

// fmax / fmin: a NaN argument, quiet or signalling, yields the other (OpenCL C 7.5.1,
// C99 F.9.9.2). Host libraries that follow IEEE 754-2008's maxNum return a NaN for a
// signalling one, so NaNs are settled here before the host call.
template <class X>
X fmaxOf(X x, X y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  return std::fmax(x, y);
}

template <class X>
X fminOf(X x, X y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  return std::fmin(x, y);
}

template <class X>
X maxmag(X x, X y) {
  if (std::fabs(x) > std::fabs(y)) return x;
  if (std::fabs(y) > std::fabs(x)) return y;
  return fmaxOf(x, y);
}

template <class X>
X minmag(X x, X y) {
  if (std::fabs(x) < std::fabs(y)) return x;
  if (std::fabs(y) < std::fabs(x)) return y;
  return fminOf(x, y);
}

// y is an odd integer (every float of magnitude 2^64 or more is even).
template <class X>
bool oddInteger(X y) {
  return std::isfinite(y) && std::trunc(y) == y && std::fmod(y, X(2)) != 0;
}

// pow with the infinite-base cases of OpenCL C 7.5.1 (C99 F.9.4.4) settled here: the
// host's x87 powl returns +inf for pow(-inf, -2^63), taking the even integer for odd.
template <class X>
X powOf(X x, X y) {
  if (std::isinf(x) && !std::isnan(y) && y != 0) {
    const bool negative = std::signbit(x) && oddInteger(y);
    const X magnitude = y < 0 ? X(0) : std::numeric_limits<X>::infinity();
    return negative ? -magnitude : magnitude;
  }
  return std::pow(x, y);
}

// remainder, and the quotient's low 7 bits with the sign of x / y.
template <class X>
X remquo7(X x, X y, int32_t& quo) {
  X rem = std::remainder(x, y);
  quo = 0;
  if (std::isnan(rem)) return rem;
  X ay = std::fabs(y);
  X m = std::fmod(std::fabs(x), X(128) * ay);  // |x| = 128k|y| + m; the 128k part is even
  X q = std::nearbyint((m - std::remainder(m, ay)) / ay);
  int32_t mag = static_cast<int32_t>(q) & 127;
  quo = std::signbit(x) != std::signbit(y) ? -mag : mag;
  return rem;
}

template <class T>
int32_t ilogbOf(T t) {
  double x = t;
  if (std::isnan(x) || std::isinf(x)) return INT_MAX;  // FP_ILOGBNAN is INT_MAX
  if (x == 0) return INT_MIN;                          // FP_ILOGB0
  return std::ilogb(x);
}

// The largest value below 1 in T (fract's upper bound).
template <class T>
T belowOne() {
  if constexpr (std::is_same_v<T, _Float16>)
    return T(0x1.ffcp-1);
  else
    return std::nextafter(T(1), T(0));
}

// fract: min(x - floor(x), largest value below 1), floor(x) stored; fract(+-inf) is +-0,
// zeros and NaN give themselves for both.
template <class T>
T fractOf(T t, T& whole) {
  const double x = t;
  whole = t;
  if (std::isnan(x) || x == 0) return t;
  if (std::isinf(x)) return T(std::copysign(0.0, x));
  const double fl = std::floor(x);
  whole = T(fl);
  const T f = T(x - fl);  // may round up to 1 (x slightly below an integer)
  return f < belowOne<T>() ? f : belowOne<T>();
}

template <class T>
T nextafterOf(T x, T y) {
  if constexpr (std::is_same_v<T, _Float16>) {
    if (x != x || y != y) return T(double(x) + double(y));
    if (x == y) return y;
    uint16_t b;
    std::memcpy(&b, &x, 2);
    if (x == T(0))
      b = uint16_t((y > x ? 0 : 0x8000) | 1);
    else if ((y > x) == (x > T(0)))
      ++b;
    else
      --b;
    std::memcpy(&x, &b, 2);
    return x;
  } else {
    return std::nextafter(x, y);
  }
}

// nan(code): a quiet NaN carrying `code` in the low bits of its significand.
template <class T, class U>
T nanWithCode(U code) {
  constexpr int kTotal = sizeof(T) * 8, kSignificand = sizeof(T) == 2   ? 10
                                                       : sizeof(T) == 4 ? 23
                                                                        : 52;
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t,
                                  std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  const Bits quiet = Bits(Bits(1) << (kSignificand - 1));
  const Bits exponent = Bits(((Bits(1) << (kTotal - 1 - kSignificand)) - 1) << kSignificand);
  const Bits b = Bits(exponent | quiet | (Bits(code) & (quiet - 1)));
  T r;
  std::memcpy(&r, &b, sizeof r);
  return r;
}

// ---- Function objects: f(X...) in the evaluation type chosen by the handler ----

#define SPVSIM_FN1(Name, expr) \
  struct Name {                \
    template <class X>         \
    static X f(X x) {          \
      return expr;             \
    }                          \
  }
// A function libmvec also has (vector_libm.h): float registers go through it.
#define SPVSIM_FN1_LIBMVEC(Name, expr, function)                               \
  struct Name {                                                                \
    static constexpr ops::LibmFunction kLibmvec = ops::LibmFunction::function; \
    template <class X>                                                         \
    static X f(X x) {                                                          \
      return expr;                                                             \
    }                                                                          \
  }
#define SPVSIM_FN2(Name, expr) \
  struct Name {                \
    template <class X>         \
    static X f(X x, X y) {     \
      return expr;             \
    }                          \
  }

SPVSIM_FN1_LIBMVEC(Acos, std::acos(x), kAcos);
SPVSIM_FN1_LIBMVEC(Acosh, std::acosh(x), kAcosh);
SPVSIM_FN1(Acospi, std::acos(x) / kPi<X>);
SPVSIM_FN1_LIBMVEC(Asin, std::asin(x), kAsin);
SPVSIM_FN1_LIBMVEC(Asinh, std::asinh(x), kAsinh);
SPVSIM_FN1(Asinpi, std::asin(x) / kPi<X>);
SPVSIM_FN1_LIBMVEC(Atan, std::atan(x), kAtan);
SPVSIM_FN1_LIBMVEC(Atanh, std::atanh(x), kAtanh);
SPVSIM_FN1(Atanpi, std::atan(x) / kPi<X>);
SPVSIM_FN1_LIBMVEC(Cbrt, std::cbrt(x), kCbrt);
SPVSIM_FN1(Ceil, std::ceil(x));
SPVSIM_FN1_LIBMVEC(Cos, std::cos(x), kCos);
SPVSIM_FN1_LIBMVEC(Cosh, std::cosh(x), kCosh);
SPVSIM_FN1(Cospi, cospi(x));
SPVSIM_FN1_LIBMVEC(Erfc, std::erfc(x), kErfc);
SPVSIM_FN1_LIBMVEC(Erf, std::erf(x), kErf);
SPVSIM_FN1_LIBMVEC(Exp, std::exp(x), kExp);
SPVSIM_FN1_LIBMVEC(Exp2, std::exp2(x), kExp2);
SPVSIM_FN1_LIBMVEC(Exp10, exp10x(x), kExp10);
SPVSIM_FN1_LIBMVEC(Expm1, std::expm1(x), kExpm1);
SPVSIM_FN1(Fabs, std::fabs(x));
SPVSIM_FN1(Floor, std::floor(x));
SPVSIM_FN1(Lgamma, std::lgamma(x));
SPVSIM_FN1_LIBMVEC(Log, std::log(x), kLog);
SPVSIM_FN1_LIBMVEC(Log2, std::log2(x), kLog2);
SPVSIM_FN1_LIBMVEC(Log10, std::log10(x), kLog10);
SPVSIM_FN1_LIBMVEC(Log1p, std::log1p(x), kLog1p);
SPVSIM_FN1(Logb, std::logb(x));
SPVSIM_FN1(Recip, X(1) / x);
SPVSIM_FN1(Rint, std::nearbyint(x));  // the default mode: to nearest even
SPVSIM_FN1(Round, std::round(x));
SPVSIM_FN1(Rsqrt, X(1) / std::sqrt(x));
SPVSIM_FN1_LIBMVEC(Sin, std::sin(x), kSin);
SPVSIM_FN1_LIBMVEC(Sinh, std::sinh(x), kSinh);
SPVSIM_FN1(Sinpi, sinpi(x));
SPVSIM_FN1(Sqrt, std::sqrt(x));
SPVSIM_FN1_LIBMVEC(Tan, std::tan(x), kTan);
SPVSIM_FN1_LIBMVEC(Tanh, std::tanh(x), kTanh);
SPVSIM_FN1(Tanpi, tanpi(x));
SPVSIM_FN1(Tgamma, std::tgamma(x));
SPVSIM_FN1(Trunc, std::trunc(x));

SPVSIM_FN2(Atan2, std::atan2(x, y));
SPVSIM_FN2(Atan2pi, std::atan2(x, y) / kPi<X>);
SPVSIM_FN2(Copysign, std::copysign(x, y));
SPVSIM_FN2(Divide, x / y);
SPVSIM_FN2(Fdim, std::fdim(x, y));
SPVSIM_FN2(Fmax, fmaxOf(x, y));  // a NaN argument yields the other
SPVSIM_FN2(Fmin, fminOf(x, y));
SPVSIM_FN2(Fmod, std::fmod(x, y));
SPVSIM_FN2(Hypot, std::hypot(x, y));
SPVSIM_FN2(Maxmag, maxmag(x, y));
SPVSIM_FN2(Minmag, minmag(x, y));
SPVSIM_FN2(Pow, powOf(x, y));
SPVSIM_FN2(Powr, powr(x, y));
SPVSIM_FN2(Remainder, std::remainder(x, y));

#undef SPVSIM_FN1
#undef SPVSIM_FN1_LIBMVEC
#undef SPVSIM_FN2

// ---- Handlers ----

using ops::binaryLoop;
using ops::ternaryLoop;
using ops::unaryLoop;

template <class F, template <class> class W>
struct Unary {
  template <class T>
  struct H {
    static void run(SubGroup& sg, const Inst& in) {
      unaryLoop<T, T>(sg, in, [](T x) { return T(F::f(W<T>(x))); });
    }
  };
};

// Float registers of a function libmvec has go 4 lanes at a time through it, with the
// scalar path's results (vector_libm.h). A divergent sub-group's go through a copy, so
// that inactive lanes keep their values.
template <class F>
struct Libmvec {
  static constexpr uint32_t kScratch = 256;
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t count = in.n * sg.width;
    float* r = sg.reg<float>(in.r);
    const float* a = sg.reg<float>(in.a);
    if (sg.allActive) return ops::floatThroughLibmvec(F::kLibmvec, r, a, count);
    if (count > kScratch) return Unary<F, Wide>::template H<float>::run(sg, in);
    float scratch[kScratch];
    ops::floatThroughLibmvec(F::kLibmvec, scratch, a, count);
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.active[l]) std::memcpy(r + l * in.n, scratch + l * in.n, in.n * sizeof(float));
  }
};

template <class F, template <class> class W>
struct Binary {
  template <class T>
  struct H {
    static void run(SubGroup& sg, const Inst& in) {
      binaryLoop<T, T, T>(sg, in, [](T x, T y) { return T(F::f(W<T>(x), W<T>(y))); });
    }
  };
};

template <class T>
struct Nextafter {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T x, T y) { return nextafterOf(x, y); });
  }
};

// fma and mad: one rounding for float and double (host fma); half goes through a
// double fma (its product is exact). With every lane active, a register goes through the
// CPU's FMA instructions where it has them (src/exec/ops/host_cpu.h): the same single
// rounding.
template <class T>
struct Fma {
  using E = std::conditional_t<std::is_same_v<T, _Float16>, double, T>;
  static void run(SubGroup& sg, const Inst& in) {
    if constexpr (!std::is_same_v<T, _Float16>) {
      if (sg.allActive && ops::hostHasFma())
        return ops::fmaWithFmaInstructions<T>(sg.reg<T>(in.r), sg.reg<T>(in.a), sg.reg<T>(in.b),
                                              sg.reg<T>(in.c), in.n * sg.width);
    }
    ternaryLoop<T, T, T, T>(sg, in, [](T a, T b, T c) { return T(std::fma(E(a), E(b), E(c))); });
  }
};

// ldexp, pown, rootn: the second argument is a 32-bit integer per component.
template <class T>
struct Ldexp {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, int32_t>(sg, in, [](T x, int32_t k) { return T(std::ldexp(double(x), k)); });
  }
};

template <class T>
struct Pown {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, int32_t>(sg, in, [](T x, int32_t n) {
      using X = Wide<T>;
      return T(powOf(X(x), X(n)));
    });
  }
};

template <class T>
struct Rootn {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, int32_t>(sg, in, [](T x, int32_t n) { return T(rootn(Wide<T>(x), n)); });
  }
};

template <class T>
struct Ilogb {
  static void run(SubGroup& sg, const Inst& in) { unaryLoop<int32_t, T>(sg, in, ilogbOf<T>); }
};

template <class T>
struct Nan {
  using U = std::conditional_t<sizeof(T) == 2, uint16_t,
                               std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<T, U>(sg, in, [](U code) { return nanWithCode<T>(code); });
  }
};

// Pointer-output functions: r = f(x[, y], out) and `out` (P per component) is stored
// through the pointer in the last operand slot.
template <class T, class P, class F>
void withPointer(SubGroup& sg, const Inst& in, uint32_t ptrReg, F f) {
  T* r = sg.reg<T>(in.r);
  ops::PointerWrites writes(sg, in, ptrReg, in.aux * sizeof(P), in.n * sizeof(P));
  sg.forActive([&](uint32_t l) {
    P out[16];
    for (uint32_t c = 0; c < in.aux; ++c) r[l * in.n + c] = f(l * in.n + c, out[c]);
    writes.store(l, out);
  });
  writes.finish();
}

template <class T>
struct Fract {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    withPointer<T, T>(sg, in, in.b, [&](uint32_t i, T& whole) { return fractOf(a[i], whole); });
  }
};

template <class T>
struct Modf {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    withPointer<T, T>(sg, in, in.b, [&](uint32_t i, T& whole) {
      double w;
      T f = T(std::modf(double(a[i]), &w));
      whole = T(w);
      return f;
    });
  }
};

template <class T>
struct Sincos {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    withPointer<T, T>(sg, in, in.b, [&](uint32_t i, T& cosine) {
      Wide<T> x = a[i];
      cosine = T(std::cos(x));
      return T(std::sin(x));
    });
  }
};

template <class T>
struct Frexp {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    withPointer<T, int32_t>(sg, in, in.b, [&](uint32_t i, int32_t& e) {
      int exp = 0;
      T m = T(std::frexp(double(a[i]), &exp));
      e = std::isfinite(double(a[i])) ? exp : 0;
      return m;
    });
  }
};

template <class T>
struct LgammaR {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    withPointer<T, int32_t>(sg, in, in.b, [&](uint32_t i, int32_t& sign) {
      int s = 0;
      T v = T(lgammaR(Wide<T>(a[i]), &s));
      sign = s;
      return v;
    });
  }
};

template <class T>
struct Remquo {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    const T* b = sg.reg<T>(in.b);
    withPointer<T, int32_t>(sg, in, in.c, [&](uint32_t i, int32_t& quo) {
      return T(remquo7(double(a[i]), double(b[i]), quo));
    });
  }
};

// ---- Lowering ----

template <template <class> class H, uint32_t Count>
void lowerFloat(Lowerer& lw, const Instruction& inst) {
  ops::emitStd(lw, inst, pickFloat<H>(lw.shape(inst.resultType).scalar), Count);
}

// Functions the x86-64-v3 instructions (FMA, ROUNDPS, SQRTPS, MINPS...) evaluate inline,
// with the same results: their AVX2 builds where the CPU has them (ops::OnAvx2).
template <template <class> class H, uint32_t Count>
void lowerFloatFast(Lowerer& lw, const Instruction& inst) {
  ops::emitStd(lw, inst, ops::pickFloatFast<H>(lw.shape(inst.resultType).scalar), Count);
}

// Handlers whose argument `k` is a 32-bit integer (ldexp, pown, rootn).
template <template <class> class H>
void lowerWithInt(Lowerer& lw, const Instruction& inst) {
  Shape k = lw.shapeOfValue(Lowerer::extArg(inst, 1));
  ExecFn fn = k.isInt() && k.bits == 32 ? pickFloat<H>(lw.shape(inst.resultType).scalar) : nullptr;
  ops::emitStd(lw, inst, fn, 2);
}

void lowerIlogb(Lowerer& lw, const Instruction& inst) {
  Shape r = lw.shape(inst.resultType);
  ExecFn fn = r.isInt() && r.bits == 32 ? pickFloat<Ilogb>(ops::argScalar(lw, inst, 0)) : nullptr;
  ops::emitStd(lw, inst, fn, 1);
}

void lowerNan(Lowerer& lw, const Instruction& inst) {
  Shape r = lw.shape(inst.resultType), code = lw.shapeOfValue(Lowerer::extArg(inst, 0));
  ExecFn fn = code.isInt() && code.bits == r.bits ? pickFloat<Nan>(r.scalar) : nullptr;
  ops::emitStd(lw, inst, fn, 1);
}

// Pointer-output functions: `values` value arguments, then the pointer.
template <template <class> class H, uint32_t Values>
void lowerWithPointer(Lowerer& lw, const Instruction& inst) {
  ops::emitStd(lw, inst, pickFloat<H>(lw.shape(inst.resultType).scalar), Values + 1, Values);
}

template <class F>
void lowerLibmvec(Lowerer& lw, const Instruction& inst) {
  const Scalar s = lw.shape(inst.resultType).scalar;
  ops::emitStd(lw, inst,
               s == Scalar::F32 && ops::hostHasLibmvec() ? &Libmvec<F>::run
                                                         : pickFloat<Unary<F, Wide>::template H>(s),
               1);
}

template <class F>
void unary(OpTable& t, uint32_t op) {
  if constexpr (requires { F::kLibmvec; })
    t.openclStd[op] = &lowerLibmvec<F>;
  else
    t.openclStd[op] = &lowerFloat<Unary<F, Wide>::template H, 1>;
}
template <class F>
void unaryExact(OpTable& t, uint32_t op) {
  t.openclStd[op] = &lowerFloat<Unary<F, Exact>::template H, 1>;
}
template <class F>
void unaryFast(OpTable& t, uint32_t op) {
  t.openclStd[op] = &lowerFloatFast<Unary<F, Wide>::template H, 1>;
}
template <class F>
void unaryExactFast(OpTable& t, uint32_t op) {
  t.openclStd[op] = &lowerFloatFast<Unary<F, Exact>::template H, 1>;
}
template <class F>
void binaryExactFast(OpTable& t, uint32_t op) {
  t.openclStd[op] = &lowerFloatFast<Binary<F, Exact>::template H, 2>;
}
template <class F>
void binary(OpTable& t, uint32_t op) {
  t.openclStd[op] = &lowerFloat<Binary<F, Wide>::template H, 2>;
}
template <class F>
void binaryExact(OpTable& t, uint32_t op) {
  t.openclStd[op] = &lowerFloat<Binary<F, Exact>::template H, 2>;
}

void registerTranscendental(OpTable& t) {
  unary<Acos>(t, cl::Acos);
  unary<Acosh>(t, cl::Acosh);
  unary<Acospi>(t, cl::Acospi);
  unary<Asin>(t, cl::Asin);
  unary<Asinh>(t, cl::Asinh);
  unary<Asinpi>(t, cl::Asinpi);
  unary<Atan>(t, cl::Atan);
  unary<Atanh>(t, cl::Atanh);
  unary<Atanpi>(t, cl::Atanpi);
  unary<Cbrt>(t, cl::Cbrt);
  unary<Cosh>(t, cl::Cosh);
  unary<Cospi>(t, cl::Cospi);
  unary<Erfc>(t, cl::Erfc);
  unary<Erf>(t, cl::Erf);
  unary<Expm1>(t, cl::Expm1);
  unary<Lgamma>(t, cl::Lgamma);
  unary<Log1p>(t, cl::Log1p);
  unary<Sinh>(t, cl::Sinh);
  unary<Sinpi>(t, cl::Sinpi);
  unary<Tanh>(t, cl::Tanh);
  unary<Tanpi>(t, cl::Tanpi);
  unary<Tgamma>(t, cl::Tgamma);
  binary<Atan2>(t, cl::Atan2);
  binary<Atan2pi>(t, cl::Atan2pi);
  binary<Hypot>(t, cl::Hypot);
  binary<Pow>(t, cl::Pow);
}

// Functions that also have half_* and native_* forms (same host evaluation).
void registerWithFastForms(OpTable& t) {
  for (uint32_t op : {cl::Cos, cl::Half_cos, cl::Native_cos}) unary<Cos>(t, op);
  for (uint32_t op : {cl::Sin, cl::Half_sin, cl::Native_sin}) unary<Sin>(t, op);
  for (uint32_t op : {cl::Tan, cl::Half_tan, cl::Native_tan}) unary<Tan>(t, op);
  for (uint32_t op : {cl::Exp, cl::Half_exp, cl::Native_exp}) unary<Exp>(t, op);
  for (uint32_t op : {cl::Exp2, cl::Half_exp2, cl::Native_exp2}) unary<Exp2>(t, op);
  for (uint32_t op : {cl::Exp10, cl::Half_exp10, cl::Native_exp10}) unary<Exp10>(t, op);
  for (uint32_t op : {cl::Log, cl::Half_log, cl::Native_log}) unary<Log>(t, op);
  for (uint32_t op : {cl::Log2, cl::Half_log2, cl::Native_log2}) unary<Log2>(t, op);
  for (uint32_t op : {cl::Log10, cl::Half_log10, cl::Native_log10}) unary<Log10>(t, op);
  for (uint32_t op : {cl::Rsqrt, cl::Half_rsqrt, cl::Native_rsqrt}) unaryFast<Rsqrt>(t, op);
  for (uint32_t op : {cl::Sqrt, cl::Half_sqrt, cl::Native_sqrt})
    t.openclStd[op] = &lowerFloatFast<Unary<Sqrt, ops::Own>::template H, 1>;
  for (uint32_t op : {cl::Half_recip, cl::Native_recip}) unaryExact<Recip>(t, op);
  for (uint32_t op : {cl::Half_divide, cl::Native_divide}) binaryExact<Divide>(t, op);
  for (uint32_t op : {cl::Powr, cl::Half_powr, cl::Native_powr}) binary<Powr>(t, op);
}

void registerExact(OpTable& t) {
  unaryExactFast<Ceil>(t, cl::Ceil);
  unaryExactFast<Fabs>(t, cl::Fabs);
  unaryExactFast<Floor>(t, cl::Floor);
  unaryExact<Logb>(t, cl::Logb);
  unaryExactFast<Rint>(t, cl::Rint);
  unaryExact<Round>(t, cl::Round);
  unaryExactFast<Trunc>(t, cl::Trunc);
  binaryExactFast<Copysign>(t, cl::Copysign);
  binaryExact<Fdim>(t, cl::Fdim);
  binaryExactFast<Fmax>(t, cl::Fmax);
  binaryExactFast<Fmin>(t, cl::Fmin);
  binaryExact<Fmod>(t, cl::Fmod);
  binaryExact<Maxmag>(t, cl::Maxmag);
  binaryExact<Minmag>(t, cl::Minmag);
  binaryExact<Remainder>(t, cl::Remainder);
}

void registerSpecial(OpTable& t) {
  t.openclStd[cl::Fma] = &lowerFloatFast<Fma, 3>;
  t.openclStd[cl::Mad] = &lowerFloatFast<Fma, 3>;
  t.openclStd[cl::Nextafter] = &lowerFloat<Nextafter, 2>;
  t.openclStd[cl::Ldexp] = &lowerWithInt<Ldexp>;
  t.openclStd[cl::Pown] = &lowerWithInt<Pown>;
  t.openclStd[cl::Rootn] = &lowerWithInt<Rootn>;
  t.openclStd[cl::Ilogb] = &lowerIlogb;
  t.openclStd[cl::Nan] = &lowerNan;
  t.openclStd[cl::Fract] = &lowerWithPointer<Fract, 1>;
  t.openclStd[cl::Modf] = &lowerWithPointer<Modf, 1>;
  t.openclStd[cl::Sincos] = &lowerWithPointer<Sincos, 1>;
  t.openclStd[cl::Frexp] = &lowerWithPointer<Frexp, 1>;
  t.openclStd[cl::Lgamma_r] = &lowerWithPointer<LgammaR, 1>;
  t.openclStd[cl::Remquo] = &lowerWithPointer<Remquo, 2>;
}

}  // namespace

void registerOpenclMathOps(OpTable& t) {
  registerTranscendental(t);
  registerWithFastForms(t);
  registerExact(t);
  registerSpecial(t);
}

}  // namespace spvsim
