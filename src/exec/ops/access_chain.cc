// Loads, stores, variables, access chains and memory copies. Every access goes
// through SubGroup::resolve (bounds, address space, writability) and is alignment
// checked against the instruction's Aligned operand or the type's natural alignment.
#include <fmt/core.h>

#include <bit>
#include <cstring>
#include <limits>

#include "src/exec/ops/array_bounds.h"
#include "src/exec/ops/builtin_read.h"
#include "src/exec/ops/conversion.h"
#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/host_cpu.h"
#include "src/exec/ops/memory_copy.h"
#include "src/exec/ops/pointer32.h"

namespace spvsim {
namespace {

using spirv::Id;
using spirv::TypeKind;
using spv::Op;

// The fast paths of Load and Store: every lane active and inside one region
// (SubGroup::uniformRegionBase), so each lane's copy is exactly what the per-lane path
// does, only done for the whole sub-group at once where the addresses allow; with a
// partial mask, every active lane inside one region (SubGroup::activeRegionBase), each
// lane copied without resolving it.

// 16-byte blocks through named vector values (SSE registers, the x86-64 baseline): a
// memcpy of a known 64 or 128 bytes may instead become `rep movs` in a block GCC predicts
// cold, whose start-up costs more than the copy. Each value moves by a memcpy of its own
// size (no alignment assumed: a vector type's reduced alignment is a GCC reading, not
// Clang's).
using Bytes16 = uint8_t __attribute__((vector_size(16)));

template <uint32_t kBlocks>
[[gnu::always_inline]] inline void copyBlocks(void* to, const void* from) {
  const uint8_t* f = static_cast<const uint8_t*>(from);
  uint8_t* t = static_cast<uint8_t*>(to);
  for (uint32_t b = 0; b < kBlocks; b += 4) {
    Bytes16 v0, v1, v2, v3;
    std::memcpy(&v0, f + 16 * b, 16);
    std::memcpy(&v1, f + 16 * (b + 1), 16);
    std::memcpy(&v2, f + 16 * (b + 2), 16);
    std::memcpy(&v3, f + 16 * (b + 3), 16);
    std::memcpy(t + 16 * b, &v0, 16);
    std::memcpy(t + 16 * (b + 1), &v1, 16);
    std::memcpy(t + 16 * (b + 2), &v2, 16);
    std::memcpy(t + 16 * (b + 3), &v3, 16);
  }
}

// The lanes' values, `elementBytes` each, from `from` to `to` (no libc call for a
// sub-group of 16 of 4 or 8 bytes).
[[gnu::always_inline]] inline void copyLanes(void* to, const void* from, uint32_t width,
                                             uint32_t elementBytes) {
  if (width == 16 && elementBytes == 4)
    copyBlocks<4>(to, from);
  else if (width == 16 && elementBytes == 8)
    copyBlocks<8>(to, from);
  else
    std::memcpy(to, from, size_t(width) * elementBytes);
}

// 32 bytes of one lane value, as a vector type (GCC ignores vector_size on a dependent
// type, so one alias per element type).
using Splat32x8 = uint32_t __attribute__((vector_size(32)));
using Splat64x4 = uint64_t __attribute__((vector_size(32)));

template <class V, class T>
[[gnu::always_inline]] inline void splat16Lanes(uint8_t* r, const uint8_t* src) {
  T x;
  std::memcpy(&x, src, sizeof x);
  const V v = V{} + x;
  for (uint32_t k = 0; k < 16 * sizeof(T) / sizeof(V); ++k)
    std::memcpy(r + k * sizeof(V), &v, sizeof(V));
}

// The `bytes` at `src` into every lane's slot of register `r`: for the small sizes
// through a 16-byte pattern of the value (whole SSE stores, not a store per lane);
// for 16 lanes of 4 or 8 bytes, one splat stored whole.
template <uint32_t N>
void broadcast(const SubGroup& sg, const uint8_t* src, uint8_t* r, uint32_t bytes) {
  if constexpr (N == 4 || N == 8) {
    if (sg.width == 16) {  // the default sub-group size: two or four 32-byte stores
      if constexpr (N == 4)
        splat16Lanes<Splat32x8, uint32_t>(r, src);
      else
        splat16Lanes<Splat64x4, uint64_t>(r, src);
      return;
    }
  }
  const uint32_t size = N ? N : bytes;
  const size_t total = size_t(sg.width) * size;
  size_t i = 0;
  if constexpr (N == 1 || N == 2 || N == 4 || N == 8) {
    uint8_t pattern[16];
    for (uint32_t k = 0; k < 16; k += N) std::memcpy(pattern + k, src, N);
    for (; i + 16 <= total; i += 16) std::memcpy(r + i, pattern, 16);
  }
  for (; i < total; i += size) std::memcpy(r + i, src, size);
}

template <uint32_t N>
void loadLanes(const SubGroup& sg, const SubGroup::FastAccess& fast, const uint64_t* ptr,
               uint8_t* r, uint32_t bytes) {
  switch (fast.pattern) {
    case LanePattern::Uniform:
      broadcast<N>(sg, fast.at(ptr[0]), r, bytes);
      return;
    case LanePattern::Contiguous:
      copyLanes(r, fast.at(ptr[0]), sg.width, bytes);
      return;
    case LanePattern::Scattered:
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(r + size_t(l) * bytes, fast.at(ptr[l]), bytes);
      return;
  }
}

// Lanes store in lane order, so where lanes share an address the last lane's value is
// what memory holds: for a uniform address, the last lane's value alone.
inline void storeLanes(const SubGroup& sg, const SubGroup::FastAccess& fast, const uint64_t* ptr,
                       const uint8_t* v, uint32_t bytes) {
  switch (fast.pattern) {
    case LanePattern::Uniform:
      std::memcpy(fast.at(ptr[0]), v + size_t(sg.width - 1) * bytes, bytes);
      return;
    case LanePattern::Contiguous:
      copyLanes(fast.at(ptr[0]), v, sg.width, bytes);
      return;
    case LanePattern::Scattered:
      for (uint32_t l = 0; l < sg.width; ++l)
        std::memcpy(fast.at(ptr[l]), v + size_t(l) * bytes, bytes);
      return;
  }
}

// Failed lanes are reported once per instruction; their loaded value is 0.
template <uint32_t N>
struct Load {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t bytes = N ? N : in.n;
    const uint64_t* ptr = sg.reg<uint64_t>(in.a);
    uint8_t* r = sg.regs + in.r;
    if (const SubGroup::FastAccess fast =
            sg.uniformRegionBase(ptr, bytes, false, in.aux, sg.shapeOf(in.a))) {
      loadLanes<N>(sg, fast, ptr, r, bytes);
      // One address: every lane read the same bytes.
      return sg.setShape(
          in, fast.pattern == LanePattern::Uniform ? RegShape::Uniform : RegShape::Unknown);
    }
    sg.setShape(in, RegShape::Unknown);
    if (const SubGroup::FastAccess fast =
            sg.allActive ? SubGroup::FastAccess{} : sg.activeRegionBase(ptr, bytes, false, in.aux))
      return sg.forActive(
          [&](uint32_t l) { std::memcpy(r + size_t(l) * bytes, fast.at(ptr[l]), bytes); });
    LaneMask failed, misaligned;
    AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
    sg.forActive([&](uint32_t l) {
      const uint8_t* src = sg.resolve(ptr[l], l, bytes, false, err);
      if (!src) {
        failed.set(l);
        firstErr = err;
        std::memset(r + size_t(l) * bytes, 0, bytes);
        return;
      }
      if (ptr[l] & (in.aux - 1)) misaligned.set(l);  // the offset bias is aligned
      std::memcpy(r + size_t(l) * bytes, src, bytes);
    });
    if (failed.any()) sg.reportAccess(in, firstErr, failed, ptr, bytes, false);
    if (misaligned.any())
      sg.reportAccess(in, AccessError::Misaligned, misaligned, ptr, bytes, false);
  }
};

template <uint32_t N>
struct Store {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t bytes = N ? N : in.n;
    const uint64_t* ptr = sg.reg<uint64_t>(in.a);
    const uint8_t* v = sg.regs + in.b;
    if (const SubGroup::FastAccess fast =
            sg.uniformRegionBase(ptr, bytes, true, in.aux, sg.shapeOf(in.a))) {
      storeLanes(sg, fast, ptr, v, bytes);
      return;
    }
    if (const SubGroup::FastAccess fast =
            sg.allActive ? SubGroup::FastAccess{} : sg.activeRegionBase(ptr, bytes, true, in.aux))
      return sg.forActive([&](uint32_t l) {
        std::memcpy(fast.at(ptr[l]), v + size_t(l) * bytes, bytes);  // in lane order
      });
    LaneMask failed, misaligned;
    AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
    sg.forActive([&](uint32_t l) {
      uint8_t* dst = sg.resolve(ptr[l], l, bytes, true, err);
      if (!dst) {
        failed.set(l);
        firstErr = err;
        return;
      }
      if (ptr[l] & (in.aux - 1)) misaligned.set(l);    // the offset bias is aligned
      std::memcpy(dst, v + size_t(l) * bytes, bytes);  // resolve() marked it written
    });
    if (failed.any()) sg.reportAccess(in, firstErr, failed, ptr, bytes, true);
    if (misaligned.any())
      sg.reportAccess(in, AccessError::Misaligned, misaligned, ptr, bytes, true);
  }
};

// F<N>::run for accesses of N = 1, 2, 4, 8 or 16 bytes (the sizes with a Load<N> and a
// Store<N> of their own); nullptr for other sizes.
template <template <uint32_t> class F>
ExecFn bySizeOf(uint32_t bytes) {
  switch (bytes) {
    case 1:
      return &F<1>::run;
    case 2:
      return &F<2>::run;
    case 4:
      return &F<4>::run;
    case 8:
      return &F<8>::run;
    case 16:
      return &F<16>::run;
    default:
      return nullptr;
  }
}

// H<N>::run for those sizes, H<0>::run (the size from Inst::n) for the others.
template <template <uint32_t> class H>
ExecFn bySize(uint32_t bytes) {
  const ExecFn sized = bySizeOf<H>(bytes);
  return sized ? sized : &H<0>::run;
}

// Required alignment: the Aligned memory operand if present, else the natural
// alignment of the accessed type's scalar elements. Always a power of two.
uint32_t requiredAlignment(const Lowerer& lw, Id pointee, const spirv::Instruction& inst,
                           size_t memoryOperandIndex) {
  uint64_t a = lw.type(pointee).align;
  if (lw.type(pointee).kind == TypeKind::Struct || lw.type(pointee).kind == TypeKind::Array) a = 1;
  if (inst.operands.size() > memoryOperandIndex) {
    uint32_t mask = inst.operands[memoryOperandIndex];
    if (mask & uint32_t(spv::MemoryAccessMask::Aligned))
      a = inst.operands.at(memoryOperandIndex + 1);
  }
  if (a == 0 || (a & (a - 1))) a = 1;
  return static_cast<uint32_t>(a);
}

// A chain fused with the access that uses it (below); nothing where it does not apply.
template <bool Write>
void fuseWithChain(Lowerer& lw, spirv::Id pointer, uint32_t bytes);

void lowerLoad(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t bytes = static_cast<uint32_t>(lw.type(inst.resultType).size);
  uint32_t ptr = lw.reg(inst.operands.at(0));
  uint32_t align = requiredAlignment(lw, inst.resultType, inst, 1);
  if (ops::lowerBuiltinLoad(lw, inst, align)) return;
  if (lw.physical32() && lw.type(inst.resultType).kind == TypeKind::Pointer)
    return ops::lowerPointerLoad32(lw, inst, align);  // 4 bytes in memory
  fuseWithChain<false>(lw, inst.operands[0], bytes);
  Inst& in = lw.emit(inst, bySize<Load>(bytes));
  in.a = ptr;
  in.n = bytes;
  in.aux = align;
  lw.keepsShape(in, inst.result);
}

}  // namespace

void ops::loadThroughMemory(SubGroup& sg, const Inst& in) { Load<0>::run(sg, in); }
void ops::storeThroughMemory(SubGroup& sg, const Inst& in) { Store<0>::run(sg, in); }

namespace {

void lowerStore(Lowerer& lw, const spirv::Instruction& inst) {
  Id value = inst.operands.at(1);
  Id type = lw.typeIdOfValue(value);
  uint32_t bytes = static_cast<uint32_t>(lw.type(type).size);
  uint32_t ptr = lw.reg(inst.operands[0]), v = lw.reg(value);
  uint32_t align = requiredAlignment(lw, type, inst, 2);
  if (lw.physical32() && lw.type(type).kind == TypeKind::Pointer)
    return ops::lowerPointerStore32(lw, inst, align);  // 4 bytes in memory
  fuseWithChain<true>(lw, inst.operands[0], bytes);
  Inst& in = lw.emit(inst, bySize<Store>(bytes));
  in.a = ptr;
  in.b = v;
  in.n = bytes;
  in.aux = align;
}

// Function-scope variables have one static private slot each: the loader refuses
// recursion (spirv/call_graph.h), so a function has at most one live frame.
void lowerVariable(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Type& pt = lw.type(inst.resultType);
  const spirv::Type& pointee = lw.type(pt.element);
  uint32_t region =
      lw.allocatePrivate(pointee.size, pointee.align, "variable " + lw.module.nameOf(inst.result));
  uint64_t p = makePointer(Space::Private, region, 0);
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &p, 8);
  lw.setConstantRegister(inst.result, bytes);
  if (inst.operands.size() > 1) {
    spirv::Instruction store;
    store.opcode = Op::OpStore;
    store.index = inst.index;
    store.operands = {inst.result, inst.operands[1]};
    lowerStore(lw, store);
  }
}

// Access chains move a pointer within its object (src/exec/memory.h): the space and region
// bits never change, and offsets too far for the pointer saturate. The handlers add
// plainly per lane (the common case: a valid pointer moving a little) and check once per
// instruction, with plainSumsExact, that this equalled offsetPointer; otherwise they
// recompute every lane exactly, index times stride and sums clamped to kDeltaLimit.
//
// extra at in.aux: [count, (indexReg, indexBytes, strideLo, strideHi)*]; in.a: base;
// in.b, in.c: the low and high words of the constant byte offset (a clamped delta).
constexpr uint32_t kIndexWords = 4;
// A plain sum needs an exact delta below 2^63: the constant is within kDeltaLimit (2^61),
// and accessChain1 runs for strides below 2^31, where an index of up to 32 bits times
// the stride stays below 2^62 (64-bit indices are checked with the multiply's overflow).
constexpr uint64_t kPlainStrideLimit = uint64_t(1) << 31;

int64_t constantDelta(const Inst& in) { return int64_t(uint64_t(in.b) | (uint64_t(in.c) << 32)); }

// Index `k`'s register value of lane `l`, sign-extended (indices are signed).
int64_t indexValue(const SubGroup& sg, const uint32_t* q, uint32_t l) {
  return ops::signedIndex(sg.regs + q[0] + size_t(l) * q[1], q[1]);
}

// The exact byte delta of lane `l`'s dynamic indices plus the constant.
int64_t exactDelta(const SubGroup& sg, const Inst& in, uint32_t l) {
  const uint32_t* p = sg.extra + in.aux;
  int64_t delta = constantDelta(in);
  for (uint32_t k = 0; k < p[0]; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    const int64_t stride = int64_t(q[2] | (uint64_t(q[3]) << 32));
    delta = addDeltas(delta, scaledIndex(indexValue(sg, q, l), stride));
  }
  return delta;
}

// The slow path of every access chain: each active lane exactly.
void exactAccessChain(SubGroup& sg, const Inst& in, bool dynamic) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint64_t* base = sg.reg<uint64_t>(in.a);
  sg.forActive([&](uint32_t l) {
    r[l] = offsetPointer(base[l], dynamic ? exactDelta(sg, in, l) : constantDelta(in));
  });
}

// Constant indices only (struct members, constant array indices).
void constantAccessChain(SubGroup& sg, const Inst& in) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint64_t* base = sg.reg<uint64_t>(in.a);
  const uint64_t constant = uint64_t(constantDelta(in));
  uint64_t moved = 0;
  sg.forActive([&](uint32_t l) {
    const uint64_t b = base[l], v = b + constant;
    moved |= b ^ v;
    r[l] = v;
  });
  const RegShape s = sg.shapeOf(in.a);
  if (plainSumsExact(moved)) [[likely]]
    return sg.setShape(in, s);  // each lane's pointer plus one constant
  exactAccessChain(sg, in, false);
  sg.setShape(in, lanewiseShape(s));
}

// Several dynamic indices, or a stride too large for accessChain1.
void dynamicAccessChain(SubGroup& sg, const Inst& in) {
  exactAccessChain(sg, in, true);
  sg.setShape(in, RegShape::Unknown);
}

// The common shape: one dynamic index, e.g. OpInBoundsPtrAccessChain %p %i, with a
// stride below kPlainStrideLimit.
//
// With every lane active and 32- or 64-bit indices, two lanes per SSE2 operation
// (vector types: -O2 leaves loops of a run-time trip count scalar): a power-of-two stride
// is a shift. 64-bit indices of 2^31 or more in magnitude go the exact way (the plain
// product is then not known to be exact without the multiply's overflow flag).
using U64x2 = uint64_t __attribute__((vector_size(16)));
using I64x2 = int64_t __attribute__((vector_size(16)));

template <class I>
I64x2 loadIndices2(const I* p) {
  return I64x2{int64_t(p[0]), int64_t(p[1])};
}

// Returns whether every plain sum was exact (else the caller recomputes exactly).
template <class I, class Scale>
bool plainChainAllLanes(uint64_t* r, const uint64_t* base, const I* idx, uint32_t width,
                        uint64_t constant, Scale scale) {
  U64x2 moved = {}, big = {};
  uint32_t l = 0;
  for (; l + 2 <= width; l += 2) {
    const I64x2 i = loadIndices2(idx + l);
    U64x2 b;
    std::memcpy(&b, base + l, sizeof b);
    const U64x2 v = b + constant + U64x2(scale(i));
    moved |= b ^ v;
    if constexpr (sizeof(I) == 8) big |= (U64x2(i) + (uint64_t(1) << 31)) >> 32;
    std::memcpy(r + l, &v, sizeof v);
  }
  uint64_t movedAll = moved[0] | moved[1], bigAll = big[0] | big[1];
  for (; l < width; ++l) {
    const int64_t i = int64_t(idx[l]);
    const uint64_t v = base[l] + constant + uint64_t(scale(I64x2{i, 0})[0]);
    movedAll |= base[l] ^ v;
    if constexpr (sizeof(I) == 8) bigAll |= (uint64_t(i) + (uint64_t(1) << 31)) >> 32;
    r[l] = v;
  }
  return plainSumsExact(movedAll) && bigAll == 0;
}

// The same four lanes per AVX2 operation, on CPUs that have it (hostHasAvx2Fma; the
// sums, and so the pointers, are the same).
using U64x4 = uint64_t __attribute__((vector_size(32)));
using I64x4 = int64_t __attribute__((vector_size(32)));
using I32x4 = int32_t __attribute__((vector_size(16)));

// Four lanes' indices of type I, sign-extended to 64 bits.
template <class I>
SPVSIM_HOST_TARGET("avx2,fma")
inline I64x4 fourIndices(const I* idx) {
  if constexpr (sizeof(I) == 8) {
    I64x4 v;
    std::memcpy(&v, idx, sizeof v);
    return v;
  } else {
    // Spelled out: GCC ignores vector_size on a dependent type.
    using I8x4 = int8_t __attribute__((vector_size(4)));
    using I16x4 = int16_t __attribute__((vector_size(8)));
    using Narrow =
        std::conditional_t<sizeof(I) == 1, I8x4, std::conditional_t<sizeof(I) == 2, I16x4, I32x4>>;
    Narrow n;
    std::memcpy(&n, idx, sizeof n);
    return __builtin_convertvector(n, I64x4);
  }
}

template <class I, bool kShift>
SPVSIM_HOST_TARGET("avx2,fma")
bool plainChainAllLanesAvx2(uint64_t* r, const uint64_t* base, const I* idx, uint32_t width,
                            uint64_t constant, int64_t scale) {
  U64x4 moved = {}, big = {};
  uint32_t l = 0;
  for (; l + 4 <= width; l += 4) {
    const I64x4 i = fourIndices(idx + l);
    U64x4 b;
    std::memcpy(&b, base + l, sizeof b);
    const U64x4 v = b + constant + U64x4(kShift ? i << scale : i * scale);
    moved |= b ^ v;
    if constexpr (sizeof(I) == 8) big |= (U64x4(i) + (uint64_t(1) << 31)) >> 32;
    std::memcpy(r + l, &v, sizeof v);
  }
  uint64_t movedAll = moved[0] | moved[1] | moved[2] | moved[3];
  uint64_t bigAll = big[0] | big[1] | big[2] | big[3];
  for (; l < width; ++l) {
    const int64_t i = int64_t(idx[l]);
    const uint64_t v = base[l] + constant + uint64_t(kShift ? i << scale : i * scale);
    movedAll |= base[l] ^ v;
    if constexpr (sizeof(I) == 8) bigAll |= (uint64_t(i) + (uint64_t(1) << 31)) >> 32;
    r[l] = v;
  }
  return plainSumsExact(movedAll) && bigAll == 0;
}

template <class I>
bool plainChainAllLanes(SubGroup& sg, const Inst& in, uint64_t* r, const uint64_t* base,
                        const I* idx, int64_t stride, uint64_t constant) {
  const bool power = stride != 0 && (stride & (stride - 1)) == 0;
  const int shift = std::countr_zero(uint64_t(stride));
  if (ops::hostHasAvx2Fma())
    return power ? plainChainAllLanesAvx2<I, true>(r, base, idx, sg.width, constant, shift)
                 : plainChainAllLanesAvx2<I, false>(r, base, idx, sg.width, constant, stride);
  return power ? plainChainAllLanes(r, base, idx, sg.width, constant,
                                    [shift](I64x2 i) { return i << shift; })
               : plainChainAllLanes(r, base, idx, sg.width, constant,
                                    [stride](I64x2 i) { return i * stride; });
}

// r[l] = v0 + l * d for every lane (the pointers of an affine chain): two lanes per SSE2
// store, unrolled for the common widths.
inline void fillAffine(uint64_t* r, uint64_t v0, uint64_t d, uint32_t width) {
  using U64x2 = uint64_t __attribute__((vector_size(16)));
  U64x2 v = {v0, v0 + d};
  const U64x2 advance = {2 * d, 2 * d};
  uint32_t l = 0;
  if (width % 8 == 0) {
    for (; l < width; l += 8) {
#pragma GCC unroll 4
      for (uint32_t k = 0; k < 8; k += 2, v += advance) std::memcpy(r + l + k, &v, sizeof v);
    }
    return;
  }
  for (; l + 2 <= width; l += 2, v += advance) std::memcpy(r + l, &v, sizeof v);
  if (l < width) r[l] = v[0];
}

// A uniform base and an affine index (src/exec/register_shape.h): every lane's plain sum
// is lane 0's plus l times one step. The exact sums are linear in l, so when both end
// points stay in the base's object (plainSumsExact) and the index within +-2^31 (as the
// plain path requires), every lane's does. affineAddresses1 gives lane 0's pointer `p0`
// and the step `d` from the index's lane 0 value `first` and its step; false where that
// does not hold (or the base is not uniform, or shapes are not kept).
[[gnu::always_inline]] inline bool affineAddresses1(const SubGroup& sg, const Inst& in,
                                                    int64_t first, int64_t step, uint64_t& p0,
                                                    uint64_t& d) {
  if (sg.shapeOf(in.a) != RegShape::Uniform || !sg.keepsShapes()) return false;
  const int64_t stride = sg.extra[in.aux + 3];
  const int64_t limit = int64_t(kPlainStrideLimit);
  // |first| < 2^31 and |step| < 2^32 first (a 64-bit index may have any step), then at
  // most 127 steps: no product here overflows.
  if (first < -limit || first >= limit || step <= -2 * limit || step >= 2 * limit) return false;
  const int64_t last = first + step * (sg.width - 1);
  if (last < -limit || last >= limit) return false;
  // b + delta keeps b's bits from 39 up exactly when its biased offset stays in range;
  // |index * stride| < 2^62 and |constant| <= 2^61.
  const uint64_t b = sg.reg<uint64_t>(in.a)[0];
  const int64_t offset = int64_t(b & kBiasedMask), c = constantDelta(in);
  const int64_t at0 = offset + c + first * stride, atLast = offset + c + last * stride;
  const int64_t end = int64_t(kBiasedMask);
  if (at0 < 0 || at0 > end || atLast < 0 || atLast > end) return false;
  p0 = b + uint64_t(c + first * stride);
  d = uint64_t(step * stride);
  return true;
}

// affineAddresses1 of the index register `idx` (affine or uniform).
template <class I>
[[gnu::always_inline]] inline bool affineAddresses1Of(const SubGroup& sg, const Inst& in,
                                                      uint64_t& p0, uint64_t& d) {
  const uint32_t index = sg.extra[in.aux + 1];
  if (!affineOrUniform(sg.shapeOf(index)) || !sg.keepsShapes()) return false;
  const I* idx = sg.reg<I>(index);
  using U = std::make_unsigned_t<I>;
  return affineAddresses1(sg, in, idx[0], I(U(U(idx[1]) - U(idx[0]))), p0, d);
}

// The pointers written without reading the index register again, and affine. False:
// nothing written.
template <class I>
bool affineChain1(SubGroup& sg, const Inst& in) {
  uint64_t p0, d;
  if (!affineAddresses1Of<I>(sg, in, p0, d)) return false;
  fillAffine(sg.reg<uint64_t>(in.r), p0, d, sg.width);
  sg.setShape(in, RegShape::Affine);
  return true;
}

template <class I>
void accessChain1(SubGroup& sg, const Inst& in) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint64_t* base = sg.reg<uint64_t>(in.a);
  const uint32_t* p = sg.extra + in.aux;
  const I* idx = sg.reg<I>(p[1]);
  const int64_t stride = p[3];
  const uint64_t constant = uint64_t(constantDelta(in));
  if constexpr (sizeof(I) >= 4) {
    if (sg.allActive) {
      if (affineChain1<I>(sg, in)) return;
      if (!plainChainAllLanes(sg, in, r, base, idx, stride, constant)) [[unlikely]]
        exactAccessChain(sg, in, true);
      // The same base and index in every lane: the same pointer.
      return sg.setShape(in, [&] { return lanewiseShape(sg.shapeOf(in.a), sg.shapeOf(p[1])); });
    }
  }
  sg.setShape(in, RegShape::Unknown);
  uint64_t moved = 0;
  bool overflow = false;
  sg.forActive([&](uint32_t l) {
    const uint64_t b = base[l];
    int64_t scaled;
    if constexpr (sizeof(I) == 8) {
      if (__builtin_mul_overflow(int64_t(idx[l]), stride, &scaled)) [[unlikely]]
        overflow = true;
    } else {
      scaled = int64_t(idx[l]) * stride;  // exact: |idx| < 2^31, stride < kPlainStrideLimit
    }
    const uint64_t v = b + constant + uint64_t(scaled);
    moved |= b ^ v;
    r[l] = v;
  });
  if (!plainSumsExact(moved) || overflow) [[unlikely]]
    exactAccessChain(sg, in, true);
}

// Two to kMaxPlainIndices dynamic indices (a 2-D array `As[ly][k]` at -O0..-O3): each
// lane's delta as a plain sum. Lowering admits a chain only when the sum cannot reach
// kDeltaLimit: |constant| < kPlainMultiConstant and every stride < kPlainMultiStride, so
// with 32-bit indices (64-bit ones checked here) no partial sum saturates and the plain
// delta is the exact one; plainSumsExact then checks the pointer as accessChain1 does.
constexpr uint32_t kMaxPlainIndices = 4;
constexpr int64_t kPlainMultiConstant = int64_t(1) << 60;
constexpr uint64_t kPlainMultiStride = uint64_t(1) << 27;

// Adds index * stride to every lane's delta, in blocks of 16 that the compiler
// vectorises (unsigned: inactive lanes' registers may hold anything); returns nonzero
// when a 64-bit index of any lane is 2^31 or more in magnitude (then the caller goes the
// exact way, which only looks at active lanes).
constexpr uint32_t kLaneBlock = 16;  // blocks of a known trip count vectorise at -O2

// GCC's -O2 cost model ("very cheap") leaves loops that reduce (the `moved` and `big`
// bits) scalar; the multi-index access chain's loops are built with the cheap model
// (gemm: 1.33x at --threads 1). Integer loops only: results do not change.
#if defined(__clang__)
#define SPVSIM_VECTORISE_REDUCTIONS  // clang's own cost model vectorises them
#else
#define SPVSIM_VECTORISE_REDUCTIONS [[gnu::optimize("vect-cost-model=cheap")]]
#endif

// Whether every lane's index equals lane 0's (inactive lanes included: a mismatch there
// only costs the per-lane sum).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool uniformIndex(const I* __restrict idx, uint32_t width) {
  const I first = idx[0];
  I diff = 0;
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) diff |= idx[i] ^ first;
  for (uint32_t i = 0; i < width; ++i) diff |= idx[i] ^ first;
  return diff == 0;
}

// Adds index * stride to every lane's delta (unsigned: inactive lanes' registers may
// hold anything).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS void addScaledIndices(const I* __restrict idx, uint64_t stride,
                                                  uint64_t* __restrict delta, uint32_t width) {
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock, delta += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) delta[i] += uint64_t(int64_t(idx[i])) * stride;
  for (uint32_t i = 0; i < width; ++i) delta[i] += uint64_t(int64_t(idx[i])) * stride;
}

// Whether a 64-bit index of an active lane is 2^31 or more in magnitude (the plain sum is
// then not known to be exact: the caller goes the exact way).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool bigIndex(const SubGroup& sg, const I* idx) {
  if constexpr (sizeof(I) < 8) {
    return false;
  } else {
    uint64_t big = 0;
    sg.forActive([&](uint32_t l) { big |= (uint64_t(idx[l]) + (uint64_t(1) << 31)) >> 32; });
    return big != 0;
  }
}

// One dynamic index of accessChainN: folded into `constant` when uniform, else added to
// the lanes' deltas (`perLane` says some were). Returns false for a big index.
// With every lane active, bigIndex and uniformIndex in one pass over whole blocks:
// returns false for a big index, and says whether every index equals the first.
template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool scanAllIndices(const I* __restrict idx, uint32_t width,
                                                bool& uniform) {
  const I first = idx[0];
  I diff = 0;
  uint64_t big = 0;
  auto scan = [&](I v) {
    diff |= v ^ first;
    if constexpr (sizeof(I) == 8) big |= (uint64_t(v) + (uint64_t(1) << 31)) >> 32;
  };
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) scan(idx[i]);
  for (uint32_t i = 0; i < width; ++i) scan(idx[i]);
  uniform = diff == 0;
  return big == 0;
}

// addScaledIndices for a power-of-two stride: a shift (x86 has no 64-bit vector multiply
// before AVX-512).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS void addShiftedIndices(const I* __restrict idx, unsigned shift,
                                                   uint64_t* __restrict delta, uint32_t width) {
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock, delta += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) delta[i] += uint64_t(int64_t(idx[i])) << shift;
  for (uint32_t i = 0; i < width; ++i) delta[i] += uint64_t(int64_t(idx[i])) << shift;
}

template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool addIndex(const SubGroup& sg, const uint32_t* q, uint64_t& constant,
                                          uint64_t* delta, bool& perLane) {
  const I* idx = sg.reg<I>(q[0]);
  bool uniform;
  if (sg.allActive) {
    if (!scanAllIndices(idx, sg.width, uniform)) return false;
  } else {
    if (bigIndex(sg, idx)) return false;
    uniform = uniformIndex(idx, sg.width);
  }
  const uint64_t stride = q[2];
  if (uniform) {
    constant += uint64_t(int64_t(idx[0])) * stride;
    return true;
  }
  if (!perLane) std::fill_n(delta, sg.width, uint64_t(0));
  perLane = true;
  if ((stride & (stride - 1)) == 0)
    addShiftedIndices(idx, unsigned(std::countr_zero(stride | (uint64_t(1) << 63))), delta,
                      sg.width);
  else
    addScaledIndices(idx, stride, delta, sg.width);
  return true;
}

// Each active lane's pointer moved by `constant` plus its delta (none: `delta` null);
// returns the bits the moves changed.
SPVSIM_VECTORISE_REDUCTIONS uint64_t movePointers(const SubGroup& sg,
                                                  const uint64_t* __restrict base,
                                                  uint64_t constant,
                                                  const uint64_t* __restrict delta,
                                                  uint64_t* __restrict r) {
  uint64_t moved = 0;
  if (!sg.allActive) {
    sg.forActive([&](uint32_t l) {
      r[l] = base[l] + constant + (delta ? delta[l] : 0);
      moved |= base[l] ^ r[l];
    });
    return moved;
  }
  uint32_t width = sg.width;
  if (!delta) {
    for (; width >= kLaneBlock; width -= kLaneBlock, base += kLaneBlock, r += kLaneBlock)
      for (uint32_t i = 0; i < kLaneBlock; ++i) {
        r[i] = base[i] + constant;
        moved |= base[i] ^ r[i];
      }
    for (uint32_t i = 0; i < width; ++i) {
      r[i] = base[i] + constant;
      moved |= base[i] ^ r[i];
    }
    return moved;
  }
  for (; width >= kLaneBlock;
       width -= kLaneBlock, base += kLaneBlock, delta += kLaneBlock, r += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) {
      r[i] = base[i] + constant + delta[i];
      moved |= base[i] ^ r[i];
    }
  for (uint32_t i = 0; i < width; ++i) {
    r[i] = base[i] + constant + delta[i];
    moved |= base[i] ^ r[i];
  }
  return moved;
}

bool affineChainN(SubGroup& sg, const Inst& in);

SPVSIM_VECTORISE_REDUCTIONS void accessChainN(SubGroup& sg, const Inst& in) {
  if (sg.allActive && affineChainN(sg, in)) return;
  sg.setShape(in, RegShape::Unknown);
  const uint32_t* p = sg.extra + in.aux;
  uint64_t delta[kMaxSubGroupSize];
  uint64_t constant = uint64_t(constantDelta(in));
  bool perLane = false, plain = true;
  for (uint32_t k = 0; k < p[0] && plain; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    switch (q[1]) {
      case 1:
        plain = addIndex<int8_t>(sg, q, constant, delta, perLane);
        break;
      case 2:
        plain = addIndex<int16_t>(sg, q, constant, delta, perLane);
        break;
      case 4:
        plain = addIndex<int32_t>(sg, q, constant, delta, perLane);
        break;
      default:
        plain = addIndex<int64_t>(sg, q, constant, delta, perLane);
        break;
    }
  }
  if (plain) {
    const uint64_t moved = movePointers(sg, sg.reg<uint64_t>(in.a), constant,
                                        perLane ? delta : nullptr, sg.reg<uint64_t>(in.r));
    if (plainSumsExact(moved)) [[likely]]
      return;
  }
  exactAccessChain(sg, in, true);
}

using U64Block = uint64_t __attribute__((vector_size(32), aligned(8)));  // may be unaligned

// Adds each lane's index times `stride` to its sum, 4 lanes a block; a 64-bit index of 2^31
// or more in magnitude sets `big` (as accessChainN's bigIndex).

template <class I>
SPVSIM_HOST_TARGET("avx2,fma")
inline void addIndexBlocks(U64x4* sum, const I* idx, uint64_t stride, uint32_t blocks, U64x4& big) {
  const bool power = stride != 0 && (stride & (stride - 1)) == 0;
  const int shift = std::countr_zero(stride | (uint64_t(1) << 63));
  for (uint32_t b = 0; b < blocks; ++b) {
    const I64x4 i = fourIndices(idx + 4 * b);
    sum[b] += power ? U64x4(i << shift) : U64x4(i) * stride;
    if constexpr (sizeof(I) == 8) big |= (U64x4(i) + (uint64_t(1) << 31)) >> 32;
  }
}

// accessChainN for a full sub-group of a multiple of 4 lanes, built for AVX2: each lane's
// sum (base + constant + each index times its stride) in 4-lane vectors, without the
// uniformity scan (the sums are the same), with accessChainN's big-index and exactness
// tests. False: the exact path must redo the chain.
SPVSIM_HOST_TARGET("avx2,fma")
bool plainChainNAllLanesAvx2(SubGroup& sg, const Inst& in) {
  const uint32_t* p = sg.extra + in.aux;
  const uint32_t blocks = sg.width / 4;
  const U64Block* base = reinterpret_cast<const U64Block*>(sg.reg<uint64_t>(in.a));
  const uint64_t constant = uint64_t(constantDelta(in));
  U64x4 sum[kMaxSubGroupSize / 4];
  for (uint32_t b = 0; b < blocks; ++b) sum[b] = base[b] + constant;
  U64x4 big = {};
  for (uint32_t k = 0; k < p[0]; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    switch (q[1]) {
      case 1:
        addIndexBlocks(sum, sg.reg<int8_t>(q[0]), q[2], blocks, big);
        break;
      case 2:
        addIndexBlocks(sum, sg.reg<int16_t>(q[0]), q[2], blocks, big);
        break;
      case 4:
        addIndexBlocks(sum, sg.reg<int32_t>(q[0]), q[2], blocks, big);
        break;
      default:
        addIndexBlocks(sum, sg.reg<int64_t>(q[0]), q[2], blocks, big);
        break;
    }
  }
  U64Block* r = reinterpret_cast<U64Block*>(sg.reg<uint64_t>(in.r));
  U64x4 moved = {};
  for (uint32_t b = 0; b < blocks; ++b) {
    moved |= base[b] ^ sum[b];
    r[b] = sum[b];
  }
  return plainSumsExact(moved[0] | moved[1] | moved[2] | moved[3]) &&
         (big[0] | big[1] | big[2] | big[3]) == 0;
}

// affineChain1 for two to four indices (a chain that accessChainN takes: strides below
// 2^27, the constant below 2^60): a uniform base and affine indices, each within +-2^31
// and its own type's range at both end points, give exact sums linear in l.

// Whether -top <= v < top (top <= 2^32), as one unsigned comparison.
inline bool within(int64_t v, int64_t top) {
  return uint64_t(v) + uint64_t(top) < 2 * uint64_t(top);
}

// One index of type I: lanes 0 and 1 give lane 0's index and the step (modulo 2^bits);
// adds index * stride of lane 0 and of the last lane to `first` and `last`, and the
// step's to `step`. False where the index is not affine or leaves its range.
template <class I>
[[gnu::always_inline]] inline bool addAffineIndex(const SubGroup& sg, const uint32_t* q,
                                                  int64_t lanes, int64_t& first, int64_t& last,
                                                  int64_t& step) {
  if (!affineOrUniform(sg.shapeOf(q[0]))) return false;
  using U = std::make_unsigned_t<I>;
  const I* reg = sg.reg<I>(q[0]);
  const int64_t i0 = reg[0], di = I(U(U(reg[1]) - U(reg[0])));
  constexpr int64_t top =
      sizeof(I) >= 4 ? int64_t(kPlainStrideLimit) : int64_t(1) << (8 * sizeof(I) - 1);
  // Narrower indices are in range by their type, and so are their steps.
  if constexpr (sizeof(I) == 8)
    if (!within(i0, top) || !within(di, 2 * top)) return false;  // then |di| <= 2^32
  const int64_t iLast = i0 + di * lanes;                         // exact
  if (!within(iLast, top)) return false;
  const int64_t stride = int64_t(q[2]);
  first += i0 * stride, last += iLast * stride, step += di * stride;
  return true;
}

// Lane 0's pointer from its delta `first`, once both end points (`first` and the last
// lane's `last`) lie in the (uniform) base's object.
[[gnu::always_inline]] inline bool affineStart(const SubGroup& sg, const Inst& in, int64_t first,
                                               int64_t last, uint64_t& p0) {
  const uint64_t b = sg.reg<uint64_t>(in.a)[0];
  const int64_t offset = int64_t(b & kBiasedMask), end = int64_t(kBiasedMask);
  if (offset + first < 0 || offset + first > end || offset + last < 0 || offset + last > end)
    return false;
  p0 = b + uint64_t(first);
  return true;
}

// The pointers from lane 0's delta `first`, the last lane's `last` and the step.
[[gnu::always_inline]] inline bool fillAffineChain(SubGroup& sg, const Inst& in, int64_t first,
                                                   int64_t last, int64_t step) {
  uint64_t p0;
  if (!affineStart(sg, in, first, last, p0)) return false;
  fillAffine(sg.reg<uint64_t>(in.r), p0, uint64_t(step), sg.width);
  sg.setShape(in, RegShape::Affine);
  return true;
}

bool affineChainN(SubGroup& sg, const Inst& in) {
  if (sg.shapeOf(in.a) != RegShape::Uniform || !sg.keepsShapes()) return false;
  const uint32_t* p = sg.extra + in.aux;
  const int64_t lanes = sg.width - 1;
  int64_t first = constantDelta(in), last = first, step = 0;
  for (uint32_t k = 0; k < p[0]; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    const bool ok = q[1] == 1   ? addAffineIndex<int8_t>(sg, q, lanes, first, last, step)
                    : q[1] == 2 ? addAffineIndex<int16_t>(sg, q, lanes, first, last, step)
                    : q[1] == 4 ? addAffineIndex<int32_t>(sg, q, lanes, first, last, step)
                                : addAffineIndex<int64_t>(sg, q, lanes, first, last, step);
    if (!ok) return false;
  }
  return fillAffineChain(sg, in, first, last, step);
}

// affineChainN's lane 0 pointer `p0` and step `d` for kCount indices of type I, without
// writing them.
template <uint32_t kCount, class I>
[[gnu::always_inline]] inline bool affineAddressesN(const SubGroup& sg, const Inst& in,
                                                    uint64_t& p0, uint64_t& d) {
  if (sg.shapeOf(in.a) != RegShape::Uniform || !sg.keepsShapes()) return false;
  const uint32_t* p = sg.extra + in.aux + 1;
  const int64_t lanes = sg.width - 1;
  int64_t first = constantDelta(in), last = first, step = 0;
  for (uint32_t k = 0; k < kCount; ++k)
    if (!addAffineIndex<I>(sg, p + kIndexWords * k, lanes, first, last, step)) return false;
  d = uint64_t(step);
  return affineStart(sg, in, first, last, p0);
}

// affineChainN for kCount indices of type I (lowering picks it where every index is one).
template <uint32_t kCount, class I>
bool affineChainNOf(SubGroup& sg, const Inst& in) {
  uint64_t p0, d;
  if (!affineAddressesN<kCount, I>(sg, in, p0, d)) return false;
  fillAffine(sg.reg<uint64_t>(in.r), p0, d, sg.width);
  sg.setShape(in, RegShape::Affine);
  return true;
}

// accessChainNAvx2 after its affine attempt.
void plainChainNAvx2(SubGroup& sg, const Inst& in) {
  sg.setShape(in, RegShape::Unknown);
  if (!plainChainNAllLanesAvx2(sg, in)) [[unlikely]]
    exactAccessChain(sg, in, true);
}

void accessChainNAvx2(SubGroup& sg, const Inst& in) {
  if (!sg.allActive || sg.width % 4 != 0) return accessChainN(sg, in);
  if (affineChainN(sg, in)) return;
  plainChainNAvx2(sg, in);
}

template <uint32_t kCount, class I>
void accessChainNAvx2Of(SubGroup& sg, const Inst& in) {
  if (!sg.allActive || sg.width % 4 != 0) return accessChainN(sg, in);
  if (affineChainNOf<kCount, I>(sg, in)) return;
  plainChainNAvx2(sg, in);
}

// accessChainNAvx2, specialised where every index has one type of 4 or 8 bytes and there
// are two or three of them (2-D and 3-D arrays); nullptr otherwise.
ExecFn specialisedChainNAvx2(const std::vector<uint32_t>& dynamic) {
  const uint32_t count = dynamic[0], bytes = dynamic[2];
  for (uint32_t k = 0; k < count; ++k)
    if (dynamic[2 + kIndexWords * k] != bytes) return nullptr;
  if (bytes == 4)
    return count == 2   ? &accessChainNAvx2Of<2, int32_t>
           : count == 3 ? &accessChainNAvx2Of<3, int32_t>
                        : nullptr;
  if (bytes == 8)
    return count == 2   ? &accessChainNAvx2Of<2, int64_t>
           : count == 3 ? &accessChainNAvx2Of<3, int64_t>
                        : nullptr;
  return nullptr;
}

// ---- A chain fused with the load or store that uses it ----
//
// `a[i]` and `m[y][x]` are chains whose only use is the access right after them. Where
// the work-group fuses (WorkGroupContext::fuse: no observers, no debugger) and the stretch
// has room for two instructions (SubGroup::fuseBefore), one handler does both for a
// uniform base and affine indices: the lanes' addresses p0 + l * d from lane 0's and the
// step, exactly as the chain's affine path would write them, then the access when every
// lane is in bounds, aligned and allowed (the checks of uniformRegionBase). The pointer
// register, which nothing else reads, is not written. Both count as executed
// instructions, so budgets, quanta and `--stats` are those of the unfused pair. Anything
// else runs the chain's own handler and the access as the next instruction, with its
// diagnostics. See src/DESIGN.md, "Fused chain and access".

// A chain's affine addresses, from the same computation as its own affine path.
template <class I>
struct OneIndex {
  static constexpr ExecFn kChain = &accessChain1<I>;
  static bool addresses(const SubGroup& sg, const Inst& in, uint64_t& p0, uint64_t& d) {
    return affineAddresses1Of<I>(sg, in, p0, d);
  }
};

template <uint32_t kCount, class I>
struct SeveralIndices {
  static constexpr ExecFn kChain = &accessChainNAvx2Of<kCount, I>;
  static bool addresses(const SubGroup& sg, const Inst& in, uint64_t& p0, uint64_t& d) {
    return affineAddressesN<kCount, I>(sg, in, p0, d);
  }
};

// The access `next` of lanes at p0 + l * d where they allow the fast path; then also
// moves pc and steps past the kTaken fused instructions, before the copy: the instruction
// loop's next dispatch reads pc (src/DESIGN.md, "Latency on the hot path"). `base`: the
// chain's base pointer, whose space and region bits every lane's address keeps (the
// affine paths check that its offsets stay in range).
template <bool Write, uint32_t N, uint32_t kTaken>
[[gnu::always_inline]] inline bool fusedAccess(SubGroup& sg, const Inst& next, uint64_t base,
                                               uint64_t p0, uint64_t d) {
  const Space s = pointerSpace(base);
  if (s != Space::Global && s != Space::Constant && s != Space::Local) return false;
  if (sg.wg->observers.spaces & spaceBit(s)) return false;
  const std::optional<LaneAddresses> lanes = affineLanesOf(p0, int64_t(d), sg.width, N);
  if (!lanes) return false;
  const SubGroup::FastAccess fast =
      sg.regionSpanning(*lanes, s, N, Write, next.aux, sg.width, base);
  if (!fast) return false;
  sg.pc += kTaken;
  sg.steps += kTaken;
  if constexpr (Write) {
    const uint8_t* v = sg.regs + next.b;
    switch (fast.pattern) {
      case LanePattern::Uniform:  // in lane order: the last lane's value stays
        std::memcpy(fast.at(p0), v + size_t(sg.width - 1) * N, N);
        break;
      case LanePattern::Contiguous:
        copyLanes(fast.at(p0), v, sg.width, N);
        break;
      case LanePattern::Scattered:
        for (uint32_t l = 0; l < sg.width; ++l)
          std::memcpy(fast.at(p0 + l * d), v + size_t(l) * N, N);
        break;
    }
  } else {
    uint8_t* r = sg.regs + next.r;
    switch (fast.pattern) {
      case LanePattern::Uniform:
        broadcast<N>(sg, fast.at(p0), r, N);
        break;
      case LanePattern::Contiguous:
        copyLanes(r, fast.at(p0), sg.width, N);
        break;
      case LanePattern::Scattered:
        for (uint32_t l = 0; l < sg.width; ++l)
          std::memcpy(r + size_t(l) * N, fast.at(p0 + l * d), N);
        break;
    }
    sg.setShape(next, fast.pattern == LanePattern::Uniform ? RegShape::Uniform : RegShape::Unknown);
  }
  return true;
}

template <class Chain, bool Write, uint32_t N>
void fusedChainAccess(SubGroup& sg, const Inst& in) {
  uint64_t p0, d;
  if (sg.steps < sg.fuseBefore && sg.allActive && Chain::addresses(sg, in, p0, d) &&
      fusedAccess<Write, N, 1>(sg, sg.code[sg.pc], sg.reg<uint64_t>(in.a)[0], p0, d))
    return;  // the access, done
  Chain::kChain(sg, in);
}

template <class Chain, bool Write>
struct FusedChain {
  template <uint32_t N>
  struct Of {
    static void run(SubGroup& sg, const Inst& in) { fusedChainAccess<Chain, Write, N>(sg, in); }
  };
};

template <class Chain, bool Write>
ExecFn fusedBySize(uint32_t bytes) {
  return bySizeOf<FusedChain<Chain, Write>::template Of>(bytes);
}

template <bool Write>
ExecFn fusedChain(ExecFn chain, uint32_t bytes) {
  if (chain == OneIndex<int32_t>::kChain) return fusedBySize<OneIndex<int32_t>, Write>(bytes);
  if (chain == OneIndex<int64_t>::kChain) return fusedBySize<OneIndex<int64_t>, Write>(bytes);
  if (chain == SeveralIndices<2, int32_t>::kChain)
    return fusedBySize<SeveralIndices<2, int32_t>, Write>(bytes);
  if (chain == SeveralIndices<2, int64_t>::kChain)
    return fusedBySize<SeveralIndices<2, int64_t>, Write>(bytes);
  if (chain == SeveralIndices<3, int32_t>::kChain)
    return fusedBySize<SeveralIndices<3, int32_t>, Write>(bytes);
  if (chain == SeveralIndices<3, int64_t>::kChain)
    return fusedBySize<SeveralIndices<3, int64_t>, Write>(bytes);
  return nullptr;
}

// A 32- to 64-bit extension (From: int32_t for OpSConvert, uint32_t for OpUConvert)
// whose only use is the index of a fused one-index chain right after it (`a[i]` of an
// int i, with the access after the chain): the three as one handler where the stretch has
// room for three instructions. The index values are the extension's: affine exactly
// where no lane's value wrapped around in From (IntToInt's shape rule), with lane 0's
// value and the step of the source; the extension's register is not written either.
template <class From, bool Write, uint32_t N>
void fusedExtendChainAccess(SubGroup& sg, const Inst& in) {
  if (sg.steps + 1 < sg.fuseBefore && sg.allActive && sg.keepsShapes()) {
    const RegShape shape = sg.shapeOf(in.a);
    const From* x = sg.reg<From>(in.a);
    const int64_t first = x[0];
    int64_t step = 0;
    bool affine = shape == RegShape::Uniform;
    if (shape == RegShape::Affine) {
      using U = std::make_unsigned_t<From>;
      step = std::make_signed_t<From>(U(U(x[1]) - U(x[0])));
      const int64_t last = first + step * int64_t(sg.width - 1);
      affine = last >= int64_t(std::numeric_limits<From>::min()) &&
               last <= int64_t(std::numeric_limits<From>::max());
    }
    uint64_t p0, d;
    if (affine && affineAddresses1(sg, sg.code[sg.pc], first, step, p0, d) &&
        fusedAccess<Write, N, 2>(sg, sg.code[sg.pc + 1], sg.reg<uint64_t>(sg.code[sg.pc].a)[0], p0,
                                 d))
      return;  // the chain and the access, done
  }
  if constexpr (std::is_signed_v<From>)
    ops::signExtend32To64(sg, in);
  else
    ops::zeroExtend32To64(sg, in);
}

template <class From, bool Write>
struct FusedExtend {
  template <uint32_t N>
  struct Of {
    static void run(SubGroup& sg, const Inst& in) {
      fusedExtendChainAccess<From, Write, N>(sg, in);
    }
  };
};

// Where the fused chain `chain` (of `pointer`) has one dynamic index that a scalar 32- to
// 64-bit OpSConvert / OpUConvert, emitted right before the chain in this block, computes
// for the chain alone: makes that conversion the first of the three.
template <bool Write>
void fuseExtendWithChain(Lowerer& lw, spirv::Id pointer, uint32_t bytes) {
  auto& code = lw.out.code;
  const spirv::Instruction* chain = lw.definitionInCurrentBlock(pointer);
  if (!chain || code.size() < 2) return;
  spirv::Id index = 0;
  for (size_t k = 1; k < chain->operands.size(); ++k) {
    if (lw.isConstant(chain->operands[k])) continue;
    if (index) return;  // several dynamic indices
    index = chain->operands[k];
  }
  const spirv::Instruction* ext = index ? lw.definitionInCurrentBlock(index) : nullptr;
  if (!ext || (ext->opcode != Op::OpSConvert && ext->opcode != Op::OpUConvert) ||
      !lw.usedOnce(index))
    return;
  const Shape to = lw.shape(ext->resultType), from = lw.shapeOfValue(ext->operands.at(0));
  if (to.components != 1 || to.bytes != 8 || from.components != 1 || from.bytes != 4 ||
      !to.isInt() || !from.isInt())
    return;
  Inst& conversion = code[code.size() - 2];
  if (conversion.r != lw.reg(index) || conversion.src != ext->index) return;
  ExecFn fused = ext->opcode == Op::OpSConvert
                     ? bySizeOf<FusedExtend<int32_t, Write>::template Of>(bytes)
                     : bySizeOf<FusedExtend<uint32_t, Write>::template Of>(bytes);
  if (fused) conversion.fn = fused;
}

// Makes the chain that computes `pointer` a fused chain + access where it is the
// instruction emitted last, in this block, for this access alone, and an unchecked chain
// with an affine path (accessChain1, accessChainNAvx2Of).
template <bool Write>
void fuseWithChain(Lowerer& lw, spirv::Id pointer, uint32_t bytes) {
  auto& code = lw.out.code;
  if (code.empty() || code.back().r != lw.reg(pointer) || !lw.definedInCurrentBlock(pointer) ||
      !lw.usedOnce(pointer))
    return;
  ExecFn fused = fusedChain<Write>(code.back().fn, bytes);
  if (!fused) return;
  const bool oneIndex64 = code.back().fn == OneIndex<int64_t>::kChain;
  code.back().fn = fused;
  if (oneIndex64) fuseExtendWithChain<Write>(lw, pointer, bytes);
}

// Whether accessChainN computes this chain exactly (see there).
bool fitsPlainMultiIndex(const std::vector<uint32_t>& dynamic, int64_t constant) {
  if (dynamic[0] < 2 || dynamic[0] > kMaxPlainIndices) return false;
  if (constant <= -kPlainMultiConstant || constant >= kPlainMultiConstant) return false;
  for (uint32_t k = 0; k < dynamic[0]; ++k) {
    const uint32_t* q = dynamic.data() + 1 + kIndexWords * k;
    const uint32_t size = q[1];
    if (q[3] != 0 || q[2] >= kPlainMultiStride) return false;
    if (size != 1 && size != 2 && size != 4 && size != 8) return false;
  }
  return true;
}

// `F`, or `F` followed by the array index check (src/exec/ops/array_bounds.h).
template <ExecFn F>
ExecFn withChecks(bool checked) {
  return checked ? &ops::checkedAccessChain<F> : F;
}

ExecFn pickAccessChain(const std::vector<uint32_t>& dynamic, int64_t constant, bool checked) {
  if (dynamic[0] == 0) return withChecks<&constantAccessChain>(checked);
  if (fitsPlainMultiIndex(dynamic, constant)) {
    if (!ops::hostHasAvx2Fma()) return withChecks<&accessChainN>(checked);
    if (ExecFn f = specialisedChainNAvx2(dynamic); f && !checked) return f;
    return withChecks<&accessChainNAvx2>(checked);
  }
  const uint64_t stride = dynamic[3] | (uint64_t(dynamic[4]) << 32);
  if (dynamic[0] > 1 || stride >= kPlainStrideLimit)
    return withChecks<&dynamicAccessChain>(checked);
  switch (dynamic[2]) {
    case 1:
      return withChecks<&accessChain1<int8_t>>(checked);
    case 2:
      return withChecks<&accessChain1<int16_t>>(checked);
    case 4:
      return withChecks<&accessChain1<int32_t>>(checked);
    case 8:
      return withChecks<&accessChain1<int64_t>>(checked);
    default:
      return withChecks<&dynamicAccessChain>(checked);
  }
}

// Walks the indices of (Ptr)AccessChain: constant indices fold into one offset. Indices
// into arrays (not the Element operand, whose base may be any element of an array the
// chain cannot see) are checked against the array's length (src/exec/ops/array_bounds.h).
void lowerAccessChain(Lowerer& lw, const spirv::Instruction& inst, bool hasElement) {
  Id base = inst.operands.at(0);
  Id type = lw.type(lw.typeIdOfValue(base)).element;
  int64_t constant = 0;
  std::vector<uint32_t> dynamic{0};
  ops::ArrayIndexChecks checks;
  auto addIndex = [&](Id index, uint64_t stride) {
    checks.moved(!lw.isConstant(index) || lw.constantValue(index) != 0);
    if (lw.isConstant(index)) {
      const spirv::Type& it = lw.typeOfValue(index);
      uint64_t v = lw.constantValue(index);
      int64_t s = it.size == 4   ? int32_t(v)
                  : it.size == 2 ? int16_t(v)
                  : it.size == 1 ? int8_t(v)
                                 : int64_t(v);
      constant = addDeltas(constant, scaledIndex(s, int64_t(stride)));
      return;
    }
    dynamic.insert(dynamic.end(), {lw.reg(index), uint32_t(lw.typeOfValue(index).size),
                                   uint32_t(stride), uint32_t(stride >> 32)});
    ++dynamic[0];
  };
  size_t first = 1;
  if (hasElement) {
    addIndex(inst.operands.at(1), lw.type(type).size);
    first = 2;
  }
  for (size_t k = first; k < inst.operands.size(); ++k) {
    const spirv::Type& t = lw.type(type);
    if (t.kind == TypeKind::Struct) {
      uint64_t member = lw.constantValue(inst.operands[k]);
      checks.moved(t.memberOffsets.at(member) != 0);
      constant = addDeltas(constant, int64_t(t.memberOffsets.at(member)));
      type = t.members.at(member);
    } else {
      const Id array = t.kind == TypeKind::Array ? type : 0;
      type = t.element;
      addIndex(inst.operands[k], lw.type(type).size);
      if (array) checks.add(lw, inst.operands[k], array);
    }
  }
  uint32_t b = lw.reg(base);
  uint32_t at = dynamic[0] ? lw.addExtra(dynamic) : 0;
  // Only a chain of one array index (after the Element operand) is a source subscript
  // `a[i]` as clang emits it at -O0; LLVM's optimisers merge pointer arithmetic into the
  // last index of longer chains (a byte view of a struct becomes an index into its first
  // char array), where the index may validly exceed that array's length.
  const bool subscript = inst.operands.size() == first + 1;
  const std::optional<uint32_t> checked =
      checks.empty() || !subscript ? std::nullopt : checks.emit(lw, inst.result);
  Inst& in = lw.emit(inst, pickAccessChain(dynamic, constant, checked.has_value()));
  lw.keepsShape(in, inst.result);  // every chain handler records its result's shape
  in.a = b;
  in.b = uint32_t(uint64_t(constant));
  in.c = uint32_t(uint64_t(constant) >> 32);
  in.aux = at;
  in.aux2 = checked.value_or(0);
}

// OpCopyMemory / OpCopyMemorySized: in.a target, in.b source, bytes in.n or from in.c.
// Each lane's copy is one Copy access for observers (not a read and a write: copying a
// struct with padding or unwritten members reads nothing the kernel uses).
template <bool Sized>
void copyMemory(SubGroup& sg, const Inst& in) {
  const uint64_t* dst = sg.reg<uint64_t>(in.a);
  const uint64_t* src = sg.reg<uint64_t>(in.b);
  LaneMask failed;
  AccessError err = AccessError::Ok, firstErr = AccessError::Ok;
  bool failedWrite = false;
  uint64_t failedBytes = 0;
  sg.forActive([&](uint32_t l) {
    uint64_t bytes = in.n;
    if constexpr (Sized) {
      bytes = 0;
      std::memcpy(&bytes, sg.regs + in.c + size_t(l) * in.aux2, in.aux2);
    }
    if (bytes == 0) return;
    AccessError readErr = AccessError::Ok;
    const uint8_t* s = sg.locate(src[l], l, bytes, false, readErr);
    uint8_t* d = s ? sg.locate(dst[l], l, bytes, true, err) : nullptr;
    if (!s || !d) {
      failed.set(l);
      firstErr = s ? err : readErr;
      failedWrite = s != nullptr;
      failedBytes = bytes;
      return;
    }
    // What the creation flags forbid is performed and reported (Region).
    if (readErr != AccessError::Ok) sg.reportForbiddenByFlags(in, l, src[l], bytes, false);
    if (err != AccessError::Ok) sg.reportForbiddenByFlags(in, l, dst[l], bytes, true);
    ++sg.wg->writes;
    if (sg.wg->observers.any()) [[unlikely]]
      sg.notify(MemoryAccess{AccessKind::Copy, l, dst[l], d, bytes, 0, 0, src[l], s});
    std::memmove(d, s, bytes);
  });
  if (failed.any())
    sg.reportAccess(in, firstErr, failed, failedWrite ? dst : src, failedBytes, failedWrite);
}

void lowerCopyMemory(Lowerer& lw, const spirv::Instruction& inst) {
  Id target = inst.operands.at(0);
  uint32_t t = lw.reg(target), s = lw.reg(inst.operands.at(1));
  Inst& in = lw.emit(inst, &copyMemory<false>);
  in.a = t;
  in.b = s;
  in.n = static_cast<uint32_t>(lw.type(lw.typeOfValue(target).element).size);
}

void lowerCopyMemorySized(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t t = lw.reg(inst.operands.at(0)), s = lw.reg(inst.operands.at(1));
  Id size = inst.operands.at(2);
  uint32_t sizeReg = lw.reg(size);
  uint32_t sizeBytes = static_cast<uint32_t>(lw.typeOfValue(size).size);
  Inst& in = lw.emit(inst, &copyMemory<true>);
  in.a = t;
  in.b = s;
  in.c = sizeReg;
  in.aux2 = sizeBytes;
}

}  // namespace

void ops::copyMemoryBytes(SubGroup& sg, const Inst& in) { copyMemory<false>(sg, in); }

void registerMemoryOps(OpTable& t) {
  t.core[uint32_t(Op::OpLoad)] = &lowerLoad;
  t.core[uint32_t(Op::OpStore)] = &lowerStore;
  t.core[uint32_t(Op::OpVariable)] = &lowerVariable;
  t.core[uint32_t(Op::OpAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerAccessChain(lw, i, false);
  };
  t.core[uint32_t(Op::OpInBoundsAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerAccessChain(lw, i, false);
  };
  t.core[uint32_t(Op::OpPtrAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerAccessChain(lw, i, true);
  };
  t.core[uint32_t(Op::OpInBoundsPtrAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerAccessChain(lw, i, true);
  };
  t.core[uint32_t(Op::OpCopyMemory)] = &lowerCopyMemory;
  t.core[uint32_t(Op::OpCopyMemorySized)] = &lowerCopyMemorySized;
}

}  // namespace spvsim
