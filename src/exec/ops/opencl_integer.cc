// OpenCL.std integer instructions (OpenCL C "Integer Functions"), element-wise over
// char/short/int/long scalars and vectors. mad24/mul24 exist for 32-bit integers only.
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

#include "src/exec/ops/elementwise.h"

namespace spvsim {
namespace {

using ops::binaryLoop;
using ops::ternaryLoop;
using ops::unaryLoop;

template <class T>
using U = std::make_unsigned_t<T>;
template <class T>
using Lim = std::numeric_limits<T>;

// A type wide enough for any product of two T's plus a T (unsigned for unsigned T,
// so it holds (2^64 - 1)^2 + 2^64 - 1; never used for differences).
template <class T>
using Wide = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;

template <class T, class W>
T saturate(W v) {
  if (v < W(Lim<T>::min())) return Lim<T>::min();
  if (v > W(Lim<T>::max())) return Lim<T>::max();
  return T(v);
}

template <class T>
U<T> absOf(T x) {
  return x < 0 ? U<T>(U<T>(0) - U<T>(x)) : U<T>(x);
}
template <class T>
U<T> absDiff(T x, T y) {
  return x > y ? U<T>(U<T>(x) - U<T>(y)) : U<T>(U<T>(y) - U<T>(x));
}
// Sums and differences of any two 64-bit values fit a signed 128-bit integer.
template <class T>
T addSat(T x, T y) {
  return saturate<T>(__int128(x) + __int128(y));
}
template <class T>
T subSat(T x, T y) {
  return saturate<T>(__int128(x) - __int128(y));
}
// (x + y) >> 1 and (x + y + 1) >> 1 without overflow (>> of signed values floors).
template <class T>
T hadd(T x, T y) {
  return T((x >> 1) + (y >> 1) + (x & y & 1));
}
template <class T>
T rhadd(T x, T y) {
  return T((x >> 1) + (y >> 1) + ((x | y) & 1));
}
template <class T>
T clampOf(T x, T lo, T hi) {
  return std::min(std::max(x, lo), hi);
}
template <class T>
T mulHi(T x, T y) {
  return T((Wide<T>(x) * Wide<T>(y)) >> Lim<U<T>>::digits);
}
template <class T>
T madHi(T x, T y, T z) {
  return T(U<T>(mulHi(x, y)) + U<T>(z));
}
template <class T>
T madSat(T x, T y, T z) {
  return saturate<T>(Wide<T>(x) * Wide<T>(y) + Wide<T>(z));
}
template <class T>
T rotate(T v, T i) {
  return T(std::rotl(U<T>(v), int(U<T>(i) & (Lim<U<T>>::digits - 1))));
}
// mul24: only the low 24 bits take part (sign-extended for signed operands).
template <class T>
T low24(T x) {
  if constexpr (std::is_signed_v<T>)
    return T(int32_t(uint32_t(x) << 8) >> 8);
  else
    return T(x & 0xffffffu);
}
template <class T>
T mul24(T x, T y) {
  return T(uint32_t(low24(x)) * uint32_t(low24(y)));
}
template <class T>
T mad24(T x, T y, T z) {
  return T(uint32_t(mul24(x, y)) + uint32_t(z));
}

// Handlers: one struct per instruction, instantiated per element type.
#define SPVSIM_UNARY(Name, expr)                            \
  template <class T>                                        \
  struct Name {                                             \
    static void run(SubGroup& sg, const Inst& in) {         \
      unaryLoop<T, T>(sg, in, [](T x) { return T(expr); }); \
    }                                                       \
  };
#define SPVSIM_BINARY(Name, expr)                                    \
  template <class T>                                                 \
  struct Name {                                                      \
    static void run(SubGroup& sg, const Inst& in) {                  \
      binaryLoop<T, T, T>(sg, in, [](T x, T y) { return T(expr); }); \
    }                                                                \
  };
#define SPVSIM_TERNARY(Name, expr)                                            \
  template <class T>                                                          \
  struct Name {                                                               \
    static void run(SubGroup& sg, const Inst& in) {                           \
      ternaryLoop<T, T, T, T>(sg, in, [](T x, T y, T z) { return T(expr); }); \
    }                                                                         \
  };

SPVSIM_UNARY(Abs, absOf(x))
SPVSIM_UNARY(ClzOp, std::countl_zero(U<T>(x)))
SPVSIM_UNARY(CtzOp, std::countr_zero(U<T>(x)))
SPVSIM_UNARY(PopcountOp, std::popcount(U<T>(x)))
SPVSIM_BINARY(AbsDiff, absDiff(x, y))
SPVSIM_BINARY(AddSat, addSat(x, y))
SPVSIM_BINARY(SubSat, subSat(x, y))
SPVSIM_BINARY(Hadd, hadd(x, y))
SPVSIM_BINARY(Rhadd, rhadd(x, y))
SPVSIM_BINARY(Max, std::max(x, y))
SPVSIM_BINARY(Min, std::min(x, y))
SPVSIM_BINARY(MulHi, mulHi(x, y))
SPVSIM_BINARY(RotateOp, rotate(x, y))
SPVSIM_BINARY(Mul24, mul24(x, y))
SPVSIM_TERNARY(Clamp, clampOf(x, y, z))
SPVSIM_TERNARY(MadHi, madHi(x, y, z))
SPVSIM_TERNARY(MadSat, madSat(x, y, z))
SPVSIM_TERNARY(Mad24, mad24(x, y, z))

#undef SPVSIM_UNARY
#undef SPVSIM_BINARY
#undef SPVSIM_TERNARY

// upsample(hi, lo) = hi << bits | lo in the twice-as-wide type (same bits whether hi is
// signed or not).
template <class T>
struct Upsample {
  static void run(SubGroup& sg, const Inst& in) {
    using R = std::conditional_t<sizeof(T) == 1, uint16_t,
                                 std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
    binaryLoop<R, T, T>(sg, in, [](T hi, T lo) { return R(R(hi) << (8 * sizeof(T)) | lo); });
  }
};

enum class Kind { Signed, Unsigned, Only32Signed, Only32Unsigned, Upsample };

template <template <class> class H, Kind K>
ExecFn pick(Scalar operand) {
  if constexpr (K == Kind::Signed) return pickSigned<H>(operand);
  if constexpr (K == Kind::Unsigned) return pickUnsigned<H>(operand);
  if constexpr (K == Kind::Only32Signed) return operand == Scalar::U32 ? &H<int32_t>::run : nullptr;
  if constexpr (K == Kind::Only32Unsigned)
    return operand == Scalar::U32 ? &H<uint32_t>::run : nullptr;
  if constexpr (K == Kind::Upsample) {
    switch (operand) {
      case Scalar::U8:
        return &H<uint8_t>::run;
      case Scalar::U16:
        return &H<uint16_t>::run;
      case Scalar::U32:
        return &H<uint32_t>::run;
      default:
        return nullptr;
    }
  }
}

template <template <class> class H, Kind K, uint32_t Arity>
void lower(Lowerer& lw, const spirv::Instruction& inst) {
  Shape operand = lw.shapeOfValue(Lowerer::extArg(inst, 0));
  ops::emitElementwise(lw, inst, pick<H, K>(operand.scalar), Arity, 2);
}

}  // namespace

void registerOpenclIntegerOps(OpTable& t) {
  namespace cl = OpenCLLIB;
  constexpr Kind S = Kind::Signed, Un = Kind::Unsigned;
  t.openclStd[cl::SAbs] = &lower<Abs, S, 1>;
  t.openclStd[cl::UAbs] = &lower<Abs, Un, 1>;  // identity
  t.openclStd[cl::SAbs_diff] = &lower<AbsDiff, S, 2>;
  t.openclStd[cl::UAbs_diff] = &lower<AbsDiff, Un, 2>;
  t.openclStd[cl::SAdd_sat] = &lower<AddSat, S, 2>;
  t.openclStd[cl::UAdd_sat] = &lower<AddSat, Un, 2>;
  t.openclStd[cl::SSub_sat] = &lower<SubSat, S, 2>;
  t.openclStd[cl::USub_sat] = &lower<SubSat, Un, 2>;
  t.openclStd[cl::SHadd] = &lower<Hadd, S, 2>;
  t.openclStd[cl::UHadd] = &lower<Hadd, Un, 2>;
  t.openclStd[cl::SRhadd] = &lower<Rhadd, S, 2>;
  t.openclStd[cl::URhadd] = &lower<Rhadd, Un, 2>;
  t.openclStd[cl::SClamp] = &lower<Clamp, S, 3>;
  t.openclStd[cl::UClamp] = &lower<Clamp, Un, 3>;
  t.openclStd[cl::Clz] = &lower<ClzOp, Un, 1>;
  t.openclStd[cl::Ctz] = &lower<CtzOp, Un, 1>;
  t.openclStd[cl::Popcount] = &lower<PopcountOp, Un, 1>;
  t.openclStd[cl::SMad_hi] = &lower<MadHi, S, 3>;
  t.openclStd[cl::UMad_hi] = &lower<MadHi, Un, 3>;
  t.openclStd[cl::SMad_sat] = &lower<MadSat, S, 3>;
  t.openclStd[cl::UMad_sat] = &lower<MadSat, Un, 3>;
  t.openclStd[cl::SMax] = &lower<Max, S, 2>;
  t.openclStd[cl::UMax] = &lower<Max, Un, 2>;
  t.openclStd[cl::SMin] = &lower<Min, S, 2>;
  t.openclStd[cl::UMin] = &lower<Min, Un, 2>;
  t.openclStd[cl::SMul_hi] = &lower<MulHi, S, 2>;
  t.openclStd[cl::UMul_hi] = &lower<MulHi, Un, 2>;
  t.openclStd[cl::Rotate] = &lower<RotateOp, Un, 2>;
  t.openclStd[cl::SMul24] = &lower<Mul24, Kind::Only32Signed, 2>;
  t.openclStd[cl::UMul24] = &lower<Mul24, Kind::Only32Unsigned, 2>;
  t.openclStd[cl::SMad24] = &lower<Mad24, Kind::Only32Signed, 3>;
  t.openclStd[cl::UMad24] = &lower<Mad24, Kind::Only32Unsigned, 3>;
  t.openclStd[cl::S_Upsample] = &lower<Upsample, Kind::Upsample, 2>;
  t.openclStd[cl::U_Upsample] = &lower<Upsample, Kind::Upsample, 2>;
}

}  // namespace spvsim
