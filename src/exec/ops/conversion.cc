// Conversion instructions: int <-> float, int <-> int, float <-> float (with the
// FPRoundingMode and SaturatedConversion decorations), bitcasts and pointer casts.
//
// Float -> int always saturates (NaN -> 0): out-of-range conversions without
// SaturatedConversion are undefined in OpenCL C, and the saturated value is the one
// spvsim picks. Int -> float and narrowing float -> float round to nearest even unless
// the instruction carries an FPRoundingMode decoration; float -> int truncates.
#include "src/exec/ops/conversion.h"

#include <cstring>

#include "src/exec/ops/builtin_read.h"
#include "src/exec/ops/convert_math.h"
#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/pointer32.h"

namespace spvsim {
namespace {

using ops::Round;
using ops::unaryLoop;
using spv::Op;

template <class T>
struct Tag {
  using type = T;
};

// Calls fn(Tag<T>) for the integer type of a container kind and signedness.
template <class Fn>
ExecFn withInt(Scalar s, bool isSigned, Fn fn) {
  switch (s) {
    case Scalar::U8:
      return isSigned ? fn(Tag<int8_t>{}) : fn(Tag<uint8_t>{});
    case Scalar::U16:
      return isSigned ? fn(Tag<int16_t>{}) : fn(Tag<uint16_t>{});
    case Scalar::U32:
      return isSigned ? fn(Tag<int32_t>{}) : fn(Tag<uint32_t>{});
    case Scalar::U64:
      return isSigned ? fn(Tag<int64_t>{}) : fn(Tag<uint64_t>{});
    default:
      return nullptr;
  }
}

template <class Fn>
ExecFn withFloat(Scalar s, Fn fn) {
  switch (s) {
    case Scalar::F16:
      return fn(Tag<_Float16>{});
    case Scalar::F32:
      return fn(Tag<float>{});
    case Scalar::F64:
      return fn(Tag<double>{});
    default:
      return nullptr;
  }
}

template <class Fn>
ExecFn withRound(Round r, Fn fn) {
  switch (r) {
    case Round::RTE:
      return fn(std::integral_constant<Round, Round::RTE>{});
    case Round::RTZ:
      return fn(std::integral_constant<Round, Round::RTZ>{});
    case Round::RTP:
      return fn(std::integral_constant<Round, Round::RTP>{});
    case Round::RTN:
      return fn(std::integral_constant<Round, Round::RTN>{});
  }
  return nullptr;
}

template <class To, class From, Round M>
struct FloatToInt {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<To, From>(sg, in, [](From x) { return ops::floatToInt<To>(x, M); });
  }
};

template <class To, class From, Round M>
struct IntToFloat {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<To, From>(sg, in, [](From x) { return ops::intToFloat<To>(x, M); });
  }
};

template <class To, class From, Round M>
struct FloatToFloat {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<To, From>(sg, in, [](From x) { return ops::floatToFloat<To>(x, M); });
  }
};

template <class To, class From, bool Saturate>
struct IntToInt {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<To, From>(sg, in, [](From x) { return ops::intToInt<To>(x, Saturate); });
    sg.setShape(in, [&] { return shape(sg, in); });
  }
  // Narrowing keeps an affine value affine (modulo the narrower width); widening only
  // where no lane's value wrapped around (else lanes past the wrap jump by 2^bits).
  static RegShape shape(const SubGroup& sg, const Inst& in) {
    const RegShape s = sg.shapeOf(in.a);
    if (s != RegShape::Affine || !sg.keepsShapes()) return s;
    if (Saturate) return RegShape::Unknown;
    if (sizeof(To) <= sizeof(From)) return s;
    return ops::affineWithoutWrap(sg, sg.reg<From>(in.a), in.n) ? s : RegShape::Unknown;
  }
};

// OpQuantizeToF16: float -> half (RTE) -> float; half denormals flush to zero.
struct QuantizeToF16 {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<float, float>(sg, in, [](float x) {
      float q = float(ops::floatToFloat<_Float16>(x, Round::RTE));
      return std::fabs(q) < 0x1p-14f ? std::copysign(0.0f, q) : q;
    });
  }
};

// Conversion details of one instruction.
struct ConversionInfo {
  Shape to, from;
  Round round;
  bool saturate;
};

ConversionInfo conversionInfo(Lowerer& lw, const spirv::Instruction& inst, Round defaultRound) {
  ConversionInfo c{lw.shape(inst.resultType), lw.shapeOfValue(Lowerer::operand(inst, 0)),
                   defaultRound, false};
  if (auto* d = lw.module.findDecoration(inst.result, spv::Decoration::FPRoundingMode))
    c.round = Round(d->literals.at(0) & 3);
  c.saturate = lw.module.hasDecoration(inst.result, spv::Decoration::SaturatedConversion);
  if (c.to.components != c.from.components)
    lw.unsupported(inst, lw.describeWithType(inst) + " with a different component count");
  return c;
}

// The AVX2 build of conversion handler F where the CPU has it (ops::OnAvx2); half floats
// keep the plain build.
template <ExecFn F, class To, class From>
ExecFn fastConversion() {
  if constexpr (std::is_same_v<To, _Float16> || std::is_same_v<From, _Float16>)
    return F;
  else
    return ops::fastest(F, &ops::onAvx2<F>);
}

Inst& emitConversion(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn) {
  return ops::emitElementwise(lw, inst, fn, 1);
}

template <bool ToSigned>
void lowerFloatToInt(Lowerer& lw, const spirv::Instruction& inst) {
  ConversionInfo c = conversionInfo(lw, inst, Round::RTZ);
  emitConversion(lw, inst, withInt(c.to.scalar, ToSigned, [&](auto to) {
                   return withFloat(c.from.scalar, [&](auto from) {
                     return withRound(c.round, [&](auto m) {
                       using T = typename decltype(to)::type;
                       using F = typename decltype(from)::type;
                       return fastConversion<&FloatToInt<T, F, decltype(m)::value>::run, T, F>();
                     });
                   });
                 }));
}

template <bool FromSigned>
void lowerIntToFloat(Lowerer& lw, const spirv::Instruction& inst) {
  ConversionInfo c = conversionInfo(lw, inst, Round::RTE);
  emitConversion(lw, inst, withFloat(c.to.scalar, [&](auto to) {
                   return withInt(c.from.scalar, FromSigned, [&](auto from) {
                     return withRound(c.round, [&](auto m) {
                       using T = typename decltype(to)::type;
                       using F = typename decltype(from)::type;
                       return fastConversion<&IntToFloat<T, F, decltype(m)::value>::run, T, F>();
                     });
                   });
                 }));
}

void lowerFloatToFloat(Lowerer& lw, const spirv::Instruction& inst) {
  ConversionInfo c = conversionInfo(lw, inst, Round::RTE);
  emitConversion(lw, inst, withFloat(c.to.scalar, [&](auto to) {
                   return withFloat(c.from.scalar, [&](auto from) {
                     return withRound(c.round, [&](auto m) {
                       return &FloatToFloat<typename decltype(to)::type,
                                            typename decltype(from)::type, decltype(m)::value>::run;
                     });
                   });
                 }));
}

// UConvert/SConvert (saturating with the decoration) and the SatConvert opcodes.
template <bool FromSigned, bool ToSigned, bool AlwaysSaturate>
void lowerIntToInt(Lowerer& lw, const spirv::Instruction& inst) {
  ConversionInfo c = conversionInfo(lw, inst, Round::RTE);
  if (!AlwaysSaturate) ops::fuseBuiltinNarrow(lw, inst);  // `int x = get_global_id(0)`
  bool saturate = AlwaysSaturate || c.saturate;
  Inst& in =
      emitConversion(lw, inst, withInt(c.to.scalar, ToSigned, [&](auto to) {
                       return withInt(c.from.scalar, FromSigned, [&](auto from) -> ExecFn {
                         using T = typename decltype(to)::type;
                         using F = typename decltype(from)::type;
                         return saturate ? fastConversion<&IntToInt<T, F, true>::run, T, F>()
                                         : fastConversion<&IntToInt<T, F, false>::run, T, F>();
                       });
                     }));
  lw.keepsShape(in, inst.result);
}

// Copies in.n bytes per lane (OpBitcast, OpPtrCastToGeneric); in.b: source bytes.
struct CopyBytes {
  static void run(SubGroup& sg, const Inst& in) {
    uint8_t* r = sg.reg<uint8_t>(in.r);
    const uint8_t* a = sg.reg<uint8_t>(in.a);
    const uint32_t copy = std::min(in.n, in.b);
    sg.forActive([&](uint32_t l) {
      std::memcpy(r + l * in.n, a + l * in.b, copy);
      std::memset(r + l * in.n + copy, 0, in.n - copy);
    });
  }
};

// Equal sizes (every OpBitcast of a valid module): source and result registers have one
// layout, so a full sub-group is one copy; U is the element the lane size is made of.
// in.aux: whether both types have components of one size (then an affine value stays
// affine; otherwise only a uniform one stays uniform).
template <class U>
struct CopySameSize {
  static void run(SubGroup& sg, const Inst& in) {
    U* r = sg.reg<U>(in.r);
    const U* a = sg.reg<U>(in.a);
    const uint32_t n = in.n / sizeof(U);
    sg.setShape(in, [&] {
      const RegShape s = sg.shapeOf(in.a);
      return in.aux || s == RegShape::Uniform ? s : RegShape::Unknown;
    });
    if (sg.allActive) {
      for (uint32_t i = 0, count = n * sg.width; i < count; ++i) r[i] = a[i];
      return;
    }
    sg.forActive([&](uint32_t l) {
      for (uint32_t i = 0; i < n; ++i) r[l * n + i] = a[l * n + i];
    });
  }
};

ExecFn pickCopy(uint32_t resultBytes, uint32_t sourceBytes) {
  if (resultBytes != sourceBytes) return &CopyBytes::run;
  if (resultBytes % 8 == 0) return &CopySameSize<uint64_t>::run;
  if (resultBytes % 4 == 0) return &CopySameSize<uint32_t>::run;
  if (resultBytes % 2 == 0) return &CopySameSize<uint16_t>::run;
  return &CopySameSize<uint8_t>::run;
}

void lowerCopy(Lowerer& lw, const spirv::Instruction& inst) {
  if (lw.physical32() && ops::lowerPointerBitcast32(lw, inst)) return;
  const uint32_t resultBytes = lw.valueBytes(inst.resultType);
  const uint32_t sourceBytes = lw.valueBytes(lw.typeIdOfValue(Lowerer::operand(inst, 0)));
  Inst& in = lw.emit(inst, pickCopy(resultBytes, sourceBytes));
  in.a = lw.reg(Lowerer::operand(inst, 0));
  in.n = resultBytes;
  in.b = sourceBytes;
  if (resultBytes != sourceBytes) return;
  const Shape to = lw.shape(inst.resultType), from = lw.shapeOfValue(Lowerer::operand(inst, 0));
  in.aux = to.bytes / to.stride == from.bytes / from.stride;
  lw.keepsShape(in, inst.result);
}

// OpConvertPtrToU / OpConvertUToPtr: pointers are 64-bit register values.
template <class To, class From>
struct Widen {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<To, From>(sg, in, [](From x) { return To(x); });
  }
};

void lowerPtrToU(Lowerer& lw, const spirv::Instruction& inst) {
  if (lw.physical32()) return ops::lowerPtrToU32(lw, inst);  // the 32-bit address
  Shape to = lw.shape(inst.resultType);
  emitConversion(lw, inst, withInt(to.scalar, false, [](auto t) {
                   return &Widen<typename decltype(t)::type, uint64_t>::run;
                 }));
}

void lowerUToPtr(Lowerer& lw, const spirv::Instruction& inst) {
  if (lw.physical32()) return ops::lowerUToPtr32(lw, inst);
  Shape from = lw.shapeOfValue(Lowerer::operand(inst, 0));
  emitConversion(lw, inst, withInt(from.scalar, false, [](auto f) {
                   return &Widen<uint64_t, typename decltype(f)::type>::run;
                 }));
}

// Generic -> specific: the pointer when it points into that space, else null.
struct GenericToSpace {
  static void run(SubGroup& sg, const Inst& in) {
    const Space want = Space(in.aux);
    const MemoryMap& mem = *sg.wg->launch->memory;  // raw SVM addresses are global
    unaryLoop<uint64_t, uint64_t>(sg, in, [want, &mem](uint64_t p) {
      return pointerSpace(mem.canonical(p)) == want ? p : uint64_t(0);
    });
  }
};

Space spaceOf(spv::StorageClass storage) {
  switch (storage) {
    case spv::StorageClass::CrossWorkgroup:
      return Space::Global;
    case spv::StorageClass::UniformConstant:
      return Space::Constant;
    case spv::StorageClass::Workgroup:
      return Space::Local;
    case spv::StorageClass::Function:
    case spv::StorageClass::Private:
    case spv::StorageClass::Input:
      return Space::Private;
    default:
      return Space::Invalid;
  }
}

void lowerGenericCast(Lowerer& lw, const spirv::Instruction& inst) {
  Space want = spaceOf(lw.type(inst.resultType).storage);
  if (want == Space::Invalid) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, &GenericToSpace::run);
  in.a = lw.reg(Lowerer::operand(inst, 0));
  in.n = 1;
  in.aux = uint32_t(want);
}

// OpGenericPtrMemSemantics: the storage-class bit of the space a generic pointer points
// into (WorkgroupMemory for local, CrossWorkgroupMemory for global), 0 for private
// memory and null; get_fence() shifts it into CLK_LOCAL/GLOBAL_MEM_FENCE.
struct GenericSemantics {
  static uint32_t of(uint64_t p) {
    switch (pointerSpace(p)) {
      case Space::Local:
        return uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);
      case Space::Global:
        return uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory);
      default:
        return 0;
    }
  }
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<uint32_t, uint64_t>(sg, in, [](uint64_t p) { return of(p); });
  }
};

void lowerGenericSemantics(Lowerer& lw, const spirv::Instruction& inst) {
  const Shape s = lw.shape(inst.resultType);
  if (s.scalar != Scalar::U32 || s.components != 1) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, &GenericSemantics::run);
  in.a = lw.reg(Lowerer::operand(inst, 0));
  in.n = 1;
}

void lowerQuantize(Lowerer& lw, const spirv::Instruction& inst) {
  ExecFn fn = lw.shape(inst.resultType).scalar == Scalar::F32 ? &QuantizeToF16::run : nullptr;
  emitConversion(lw, inst, fn);
}

}  // namespace

void ops::signExtend32To64(SubGroup& sg, const Inst& in) {
  IntToInt<int64_t, int32_t, false>::run(sg, in);
}
void ops::zeroExtend32To64(SubGroup& sg, const Inst& in) {
  IntToInt<uint64_t, uint32_t, false>::run(sg, in);
}

void registerConversionOps(OpTable& t) {
  t.core[uint32_t(Op::OpConvertFToU)] = &lowerFloatToInt<false>;
  t.core[uint32_t(Op::OpConvertFToS)] = &lowerFloatToInt<true>;
  t.core[uint32_t(Op::OpConvertSToF)] = &lowerIntToFloat<true>;
  t.core[uint32_t(Op::OpConvertUToF)] = &lowerIntToFloat<false>;
  t.core[uint32_t(Op::OpFConvert)] = &lowerFloatToFloat;
  t.core[uint32_t(Op::OpUConvert)] = &lowerIntToInt<false, false, false>;
  t.core[uint32_t(Op::OpSConvert)] = &lowerIntToInt<true, true, false>;
  t.core[uint32_t(Op::OpSatConvertSToU)] = &lowerIntToInt<true, false, true>;
  t.core[uint32_t(Op::OpSatConvertUToS)] = &lowerIntToInt<false, true, true>;
  t.core[uint32_t(Op::OpConvertPtrToU)] = &lowerPtrToU;
  t.core[uint32_t(Op::OpConvertUToPtr)] = &lowerUToPtr;
  t.core[uint32_t(Op::OpBitcast)] = &lowerCopy;
  t.core[uint32_t(Op::OpPtrCastToGeneric)] = &lowerCopy;
  t.core[uint32_t(Op::OpGenericCastToPtr)] = &lowerGenericCast;
  t.core[uint32_t(Op::OpGenericCastToPtrExplicit)] = &lowerGenericCast;
  t.core[uint32_t(Op::OpQuantizeToF16)] = &lowerQuantize;
  t.core[uint32_t(Op::OpGenericPtrMemSemantics)] = &lowerGenericSemantics;
}

}  // namespace spvsim
