// OpenCL.std geometric instructions (cross, distance, length, normalize and their
// fast_ forms) and core OpDot. Sums of squares and products are accumulated in
// ops::Wide (exact products for half/float; no overflow or underflow for any input of
// the element type), then rounded once. The fast_ forms use the same evaluation.
#include <spirv/unified1/OpenCL.std.h>

#include <cmath>

#include "src/exec/ops/opencl_std_util.h"

namespace spvsim {
namespace {

using ops::Wide;
using spirv::Instruction;
namespace cl = OpenCLLIB;

template <class T>
Wide<T> sumOfProducts(const T* a, const T* b, uint32_t n) {
  Wide<T> s = 0;
  for (uint32_t c = 0; c < n; ++c) s += Wide<T>(a[c]) * Wide<T>(b[c]);
  return s;
}

template <class T>
Wide<T> sumOfSquaredDifferences(const T* a, const T* b, uint32_t n) {
  Wide<T> s = 0;
  for (uint32_t c = 0; c < n; ++c) {
    Wide<T> d = Wide<T>(a[c]) - Wide<T>(b[c]);
    s += d * d;
  }
  return s;
}

// Reductions: r (one element per lane) = f(lane's a[, b]) over in.aux components.
template <class T, class F>
void reduce(SubGroup& sg, const Inst& in, F f) {
  T* r = sg.reg<T>(in.r);
  const T* a = sg.reg<T>(in.a);
  const T* b = sg.reg<T>(in.b);
  sg.forActive([&](uint32_t l) { r[l] = T(f(a + l * in.n, b + l * in.n, in.aux)); });
}

template <class T>
struct Dot {
  static void run(SubGroup& sg, const Inst& in) { reduce<T>(sg, in, sumOfProducts<T>); }
};

template <class T>
struct Length {
  static void run(SubGroup& sg, const Inst& in) {
    reduce<T>(sg, in,
              [](const T* a, const T*, uint32_t n) { return std::sqrt(sumOfProducts(a, a, n)); });
  }
};

template <class T>
struct Distance {
  static void run(SubGroup& sg, const Inst& in) {
    reduce<T>(sg, in, [](const T* a, const T* b, uint32_t n) {
      return std::sqrt(sumOfSquaredDifferences(a, b, n));
    });
  }
};

// normalize(p): p itself when all components are zero; all NaN when any is NaN; with
// infinite components, as if those were +-1 and the finite ones 0.
template <class T>
void normalizeOne(const T* p, T* r, uint32_t n) {
  using X = Wide<T>;
  X v[16];
  bool hasInf = false, hasNan = false;
  for (uint32_t c = 0; c < n; ++c) {
    hasInf |= std::isinf(X(p[c]));
    hasNan |= std::isnan(X(p[c]));
  }
  for (uint32_t c = 0; c < n; ++c)
    v[c] = !hasInf ? X(p[c]) : std::isinf(X(p[c])) ? std::copysign(X(1), X(p[c])) : X(0) * X(p[c]);
  X sum = 0;
  for (uint32_t c = 0; c < n; ++c) sum += v[c] * v[c];
  const X len = std::sqrt(sum);
  for (uint32_t c = 0; c < n; ++c) r[c] = hasNan ? T(NAN) : len == 0 ? p[c] : T(v[c] / len);
}

template <class T>
struct Normalize {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    sg.forActive([&](uint32_t l) { normalizeOne(a + l * in.n, r + l * in.n, in.aux); });
  }
};

// cross of 3- or 4-component vectors; the w component of a 4-component result is 0.
template <class T>
struct Cross {
  static void run(SubGroup& sg, const Inst& in) {
    using X = Wide<T>;
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    const T* b = sg.reg<T>(in.b);
    sg.forActive([&](uint32_t l) {
      const T* p = a + l * in.n;
      const T* q = b + l * in.n;
      T* o = r + l * in.n;
      o[0] = T(X(p[1]) * X(q[2]) - X(p[2]) * X(q[1]));
      o[1] = T(X(p[2]) * X(q[0]) - X(p[0]) * X(q[2]));
      o[2] = T(X(p[0]) * X(q[1]) - X(p[1]) * X(q[0]));
      if (in.n == 4) o[3] = T(0);
    });
  }
};

template <template <class> class H>
void lowerReduction(Lowerer& lw, const Instruction& inst, uint32_t count, uint32_t first) {
  ops::emitReduction(lw, inst, pickFloat<H>(lw.shape(inst.resultType).scalar), count, first);
}

void lowerCross(Lowerer& lw, const Instruction& inst) {
  Shape s = lw.shape(inst.resultType);
  ExecFn fn = s.components == 3 || s.components == 4 ? pickFloat<Cross>(s.scalar) : nullptr;
  ops::emitStd(lw, inst, fn, 2);
}

void lowerNormalize(Lowerer& lw, const Instruction& inst) {
  ops::emitStd(lw, inst, pickFloat<Normalize>(lw.shape(inst.resultType).scalar), 1);
}

}  // namespace

void registerOpenclGeometricOps(OpTable& t) {
  t.core[uint32_t(spv::Op::OpDot)] = [](Lowerer& lw, const Instruction& i) {
    lowerReduction<Dot>(lw, i, 2, 0);
  };
  auto length = [](Lowerer& lw, const Instruction& i) { lowerReduction<Length>(lw, i, 1, 2); };
  auto distance = [](Lowerer& lw, const Instruction& i) { lowerReduction<Distance>(lw, i, 2, 2); };
  t.openclStd[cl::Length] = length;
  t.openclStd[cl::Fast_length] = length;
  t.openclStd[cl::Distance] = distance;
  t.openclStd[cl::Fast_distance] = distance;
  t.openclStd[cl::Normalize] = &lowerNormalize;
  t.openclStd[cl::Fast_normalize] = &lowerNormalize;
  t.openclStd[cl::Cross] = &lowerCross;
}

}  // namespace spvsim
