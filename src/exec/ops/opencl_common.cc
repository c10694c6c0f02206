// OpenCL.std common instructions (OpenCL C "Common Functions"): fclamp, degrees,
// fmax_common, fmin_common, mix, radians, step, smoothstep, sign. Arithmetic is done
// in ops::Wide (double for half/float, long double for double) and rounded once.
#include <spirv/unified1/OpenCL.std.h>

#include <cmath>

#include "src/exec/ops/opencl_std_util.h"

namespace spvsim {
namespace {

using ops::binaryLoop;
using ops::ternaryLoop;
using ops::unaryLoop;
using ops::Wide;
using spirv::Instruction;
namespace cl = OpenCLLIB;

constexpr long double kPi = 3.141592653589793238462643383279502884L;

// clamp(x, lo, hi) = fmin(fmax(x, lo), hi); undefined when lo > hi.
template <class T>
struct Clamp {
  static void run(SubGroup& sg, const Inst& in) {
    ternaryLoop<T, T, T, T>(sg, in, [](T x, T lo, T hi) {
      return T(std::fmin(std::fmax(double(x), double(lo)), double(hi)));
    });
  }
};

template <class T>
struct Degrees {
  static void run(SubGroup& sg, const Inst& in) {
    using X = Wide<T>;
    unaryLoop<T, T>(sg, in, [](T r) { return T(X(r) * X(180.0L / kPi)); });
  }
};

template <class T>
struct Radians {
  static void run(SubGroup& sg, const Inst& in) {
    using X = Wide<T>;
    unaryLoop<T, T>(sg, in, [](T d) { return T(X(d) * X(kPi / 180.0L)); });
  }
};

// max/min of the common functions: "y if x < y, otherwise x" (undefined for NaN).
template <class T>
struct MaxCommon {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T x, T y) { return x < y ? y : x; });
  }
};

template <class T>
struct MinCommon {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T x, T y) { return y < x ? y : x; });
  }
};

// mix(x, y, a) = x + (y - x) * a
template <class T>
struct Mix {
  static void run(SubGroup& sg, const Inst& in) {
    using X = Wide<T>;
    ternaryLoop<T, T, T, T>(sg, in, [](T x, T y, T a) { return T(X(x) + (X(y) - X(x)) * X(a)); });
  }
};

// step(edge, x) = x < edge ? 0 : 1
template <class T>
struct Step {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T edge, T x) { return x < edge ? T(0) : T(1); });
  }
};

// smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2t).
template <class T>
struct Smoothstep {
  static void run(SubGroup& sg, const Inst& in) {
    using X = Wide<T>;
    ternaryLoop<T, T, T, T>(sg, in, [](T e0, T e1, T x) {
      X t = (X(x) - X(e0)) / (X(e1) - X(e0));
      t = std::fmin(std::fmax(t, X(0)), X(1));
      return T(t * t * (X(3) - X(2) * t));
    });
  }
};

// sign: 1.0 for x > 0, -1.0 for x < 0, x for +-0, 0.0 for NaN.
template <class T>
struct Sign {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<T, T>(sg, in, [](T x) {
      if (x > T(0)) return T(1);
      if (x < T(0)) return T(-1);
      return x == T(0) ? x : T(0);
    });
  }
};

// Never reporting, element-wise: their AVX2 builds where the CPU has them (ops::OnAvx2).
template <template <class> class H, uint32_t Count>
void lowerFloat(Lowerer& lw, const Instruction& inst) {
  ops::emitStd(lw, inst, ops::pickFloatFast<H>(lw.shape(inst.resultType).scalar), Count);
}

}  // namespace

void registerOpenclCommonOps(OpTable& t) {
  t.openclStd[cl::FClamp] = &lowerFloat<Clamp, 3>;
  t.openclStd[cl::Degrees] = &lowerFloat<Degrees, 1>;
  t.openclStd[cl::Radians] = &lowerFloat<Radians, 1>;
  t.openclStd[cl::FMax_common] = &lowerFloat<MaxCommon, 2>;
  t.openclStd[cl::FMin_common] = &lowerFloat<MinCommon, 2>;
  t.openclStd[cl::Mix] = &lowerFloat<Mix, 3>;
  t.openclStd[cl::Step] = &lowerFloat<Step, 2>;
  t.openclStd[cl::Smoothstep] = &lowerFloat<Smoothstep, 3>;
  t.openclStd[cl::Sign] = &lowerFloat<Sign, 1>;
}

}  // namespace spvsim
