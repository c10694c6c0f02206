// Built-in reads: a load of a built-in variable computes each active lane's value into
// the result register (src/exec/builtins.h), with no private-memory round trip. With
// LaunchContext::builtinStorage (observers, the debugger) it is the load it replaces,
// through the private copy every built-in then has, so checkers see the same reads.
//
// Inst: r = result, a = the pointer's register (for the load), n = bytes per lane,
// aux = required alignment, b = the Builtin, c = first component, aux2 = components.
#include "src/exec/ops/builtin_read.h"

#include <cstring>

#include "src/exec/builtins.h"

namespace spvsim::ops {
namespace {

// Each active lane l's value: element k is base[k] + l * step[k], k < S.
// All lanes active: each lane's S elements are one vector of S * sizeof(T) bytes (GCC
// vector types: SSE2 at -O2, where the plain loop stays scalar), the running values one
// vector too. Keep this file at -O2 (src/exec/BUILD): GCC 12.2's -O3 loop vectoriser
// miscompiled the plain loop's S interleaved running values for uint64_t and S = 4,
// storing elements 0-1's vector induction into elements 2-3 too (get_global_id(2) read
// as dimension 0's); the vector type leaves it no loop to vectorise.
// 16 bytes of T (GCC ignores vector_size on a dependent type: one alias per type).
template <class T>
struct Vec16Of;
template <>
struct Vec16Of<uint32_t> {
  using type = uint32_t __attribute__((vector_size(16)));
};
template <>
struct Vec16Of<uint64_t> {
  using type = uint64_t __attribute__((vector_size(16)));
};
template <class T>
using Vec16 = typename Vec16Of<T>::type;

// A vector store to r, of a by-value copy: a memcpy from the loop's running value itself
// kept that value in memory (a store and a reload per vector, each waiting on the last).
template <class T>
[[gnu::always_inline]] inline void store16(T* r, Vec16<T> v) {
  std::memcpy(r, &v, 16);
}

template <class T, uint32_t S>
void putAffine(SubGroup& sg, T* r, const uint64_t* base, const uint64_t* step) {
  if constexpr (S == 1) {
    if (sg.allActive) {  // one element per lane: 16 / sizeof(T) lanes per vector store
      constexpr uint32_t kPer = 16 / sizeof(T);
      Vec16<T> v, d;
      for (uint32_t k = 0; k < kPer; ++k)
        v[k] = static_cast<T>(base[0] + k * step[0]), d[k] = static_cast<T>(kPer * step[0]);
      const uint32_t width = sg.width;  // a local: the stores may alias sg for GCC
      if (width == 16) {                // the default sub-group size: straight-line stores
#pragma GCC unroll 8
        for (uint32_t l = 0; l < 16; l += kPer, v += d) store16<T>(r + l, v);
        return;
      }
      uint32_t l = 0;
#pragma GCC unroll 8
      for (; l + kPer <= width; l += kPer, v += d) store16<T>(r + l, v);
      for (uint32_t k = 0; l < width; ++l, ++k) r[l] = v[k];
      return;
    }
  }
  if constexpr (S * sizeof(T) < 16) {
    T v[S], d[S];  // modulo 2^bits, as the conversion of each sum would give
    for (uint32_t k = 0; k < S; ++k) v[k] = static_cast<T>(base[k]), d[k] = static_cast<T>(step[k]);
    for (uint32_t l = 0; l < sg.width; ++l, r += S)
      for (uint32_t k = 0; k < S; ++k) {
        if (sg.active[l]) r[k] = v[k];
        v[k] += d[k];
      }
  } else {
    // One or two 16-byte halves, in named variables: GCC keeps an array of vectors in
    // memory, a store and a load per lane.
    constexpr uint32_t kPer = 16 / sizeof(T), kHalves = S / kPer;
    static_assert(kHalves == 1 || kHalves == 2);
    Vec16<T> v0, d0, v1 = {}, d1 = {};
    for (uint32_t k = 0; k < kPer; ++k) {
      v0[k] = static_cast<T>(base[k]), d0[k] = static_cast<T>(step[k]);
      if constexpr (kHalves == 2)
        v1[k] = static_cast<T>(base[kPer + k]), d1[k] = static_cast<T>(step[kPer + k]);
    }
    auto put = [&](bool all) {  // with `all` constant, each loop is branch-free
      for (uint32_t l = 0; l < sg.width; ++l, r += S) {
        if (all || sg.active[l]) {
          std::memcpy(r, &v0, 16);
          if constexpr (kHalves == 2) std::memcpy(r + kPer, &v1, 16);
        }
        v0 += d0;
        if constexpr (kHalves == 2) v1 += d1;
      }
    };
    sg.allActive ? put(true) : put(false);
  }
}

// S = 3 (never a register layout: vec3 has a fourth, padding element): plain loop.
template <class T>
void putAffine3(SubGroup& sg, T* r, const uint64_t* base, const uint64_t* step) {
  T v[3], d[3];
  for (uint32_t k = 0; k < 3; ++k) v[k] = static_cast<T>(base[k]), d[k] = static_cast<T>(step[k]);
  for (uint32_t l = 0; l < sg.width; ++l, r += 3)
    for (uint32_t k = 0; k < 3; ++k) {
      if (sg.active[l]) r[k] = v[k];
      v[k] += d[k];
    }
}

template <class T>
void putAffine(SubGroup& sg, T* r, uint32_t stride, const uint64_t* base, const uint64_t* step) {
  switch (stride) {
    case 1:
      return putAffine<T, 1>(sg, r, base, step);
    case 2:
      return putAffine<T, 2>(sg, r, base, step);
    case 3:
      return putAffine3<T>(sg, r, base, step);
    default:
      return putAffine<T, 4>(sg, r, base, step);
  }
}

template <class T>
struct ReadBuiltin {
  static void run(SubGroup& sg, const Inst& in) {
    if (sg.wg->launch->builtinStorage) {
      sg.setShape(in, RegShape::Unknown);
      return loadThroughMemory(sg, in);
    }
    T* r = sg.reg<T>(in.r);
    const Builtin b = static_cast<Builtin>(in.b);
    const uint32_t stride = in.n / sizeof(T);  // elements per lane, at most 4
    // Elements past the components (vec3 padding) are 0, as in the cleared private copy.
    uint64_t base[4] = {}, step[4] = {};
    if (builtinAffine(sg, b, in.c, in.aux2, base, step)) {
      sg.setShape(in, RegShape::Affine);  // each element's base + l * step
      return putAffine(sg, r, stride, base, step);
    }
    sg.setShape(in, RegShape::Unknown);
    putAffine(sg, r, stride, base, step);  // then the columns
    uint64_t column[kMaxSubGroupSize];
    for (uint32_t k = 0; k < in.aux2; ++k) {
      builtinColumn(sg, b, in.c + k, column);
      sg.forActive([&](uint32_t l) { r[l * stride + k] = static_cast<T>(column[l]); });
    }
  }
};

// A built-in vector read whose only use is the extract of one component right after it
// (`get_global_id(0)`: a vec3 load, then element 0). Where the work-group fuses and the
// stretch has room for both (SubGroup::fuseBefore; see "Fused chain and access" in
// src/DESIGN.md), it writes that component straight into the extract's result, as the
// extract would copy it, and counts both instructions; the vector register, which nothing
// else reads, is not written. Otherwise it is ReadBuiltin, and the extract runs next.
template <class T>
struct ReadBuiltinComponent {
  static void run(SubGroup& sg, const Inst& in) {
    if (sg.steps < sg.fuseBefore && !sg.wg->launch->builtinStorage) {
      const Inst& extract = sg.code[sg.pc];
      uint64_t base = 0, step = 0;
      if (extract.aux < in.aux2 &&
          builtinAffine(sg, static_cast<Builtin>(in.b), in.c + extract.aux, base, step)) {
        ++sg.pc;  // first: the next dispatch reads it (see fusedAccess)
        ++sg.steps;
        putAffine<T, 1>(sg, sg.reg<T>(extract.r), &base, &step);
        sg.setShape(extract, RegShape::Affine);  // the extract keeps its vector's shape
        return;
      }
    }
    ReadBuiltin<T>::run(sg, in);
  }
};

// A fused read and extract (ReadBuiltinComponent<uint64_t>) whose component only the
// 64- to 32-bit conversion right after the extract uses (`int x = get_global_id(0)`:
// read, extract, OpUConvert). Where the stretch has room for all three, it writes the
// component modulo 2^32 straight into the conversion's result, affine as IntToInt keeps
// a narrowed affine value, and counts the three; the extract's register, which nothing
// else reads, is not written. Otherwise it is ReadBuiltinComponent, and the conversion
// runs next.
struct ReadBuiltinComponentNarrowed {
  static void run(SubGroup& sg, const Inst& in) {
    if (sg.steps + 1 < sg.fuseBefore && !sg.wg->launch->builtinStorage) {
      const Inst& extract = sg.code[sg.pc];
      const Inst& narrow = sg.code[sg.pc + 1];
      uint64_t base = 0, step = 0;
      if (extract.aux < in.aux2 &&
          builtinAffine(sg, static_cast<Builtin>(in.b), in.c + extract.aux, base, step)) {
        sg.pc += 2;  // first: the next dispatch reads it (see fusedAccess)
        sg.steps += 2;
        putAffine<uint32_t, 1>(sg, sg.reg<uint32_t>(narrow.r), &base, &step);
        sg.setShape(narrow, RegShape::Affine);
        return;
      }
    }
    ReadBuiltinComponent<uint64_t>::run(sg, in);
  }
};

}  // namespace

void fuseBuiltinNarrow(Lowerer& lw, const spirv::Instruction& inst) {
  auto& code = lw.out.code;
  const spirv::Id component = Lowerer::operand(inst, 0);
  const Shape to = lw.shape(inst.resultType), from = lw.shapeOfValue(component);
  if (to.components != 1 || to.bytes != 4 || to.bits != 32 || from.components != 1 ||
      from.bytes != 8 || !to.isInt() || !from.isInt() ||
      lw.module.hasDecoration(inst.result, spv::Decoration::SaturatedConversion))
    return;
  const spirv::Instruction* extract = lw.definitionInCurrentBlock(component);
  if (!extract || extract->opcode != spv::Op::OpCompositeExtract || code.size() < 2 ||
      !lw.usedOnce(component))
    return;
  Inst& read = code[code.size() - 2];
  if (code.back().r != lw.reg(component) || code.back().src != extract->index ||
      read.fn != &ReadBuiltinComponent<uint64_t>::run)
    return;
  lw.out.noteFusion(code.size() - 2, read.fn, 2);
  read.fn = &ReadBuiltinComponentNarrowed::run;
}

bool fuseBuiltinExtract(Lowerer& lw, spirv::Id composite, uint32_t elementBytes) {
  auto& code = lw.out.code;
  if (code.empty() || code.back().r != lw.reg(composite) || !lw.definedInCurrentBlock(composite) ||
      !lw.usedOnce(composite))
    return false;
  Inst& read = code.back();
  const ExecFn unfused = read.fn;
  if (read.fn == &ReadBuiltin<uint64_t>::run && elementBytes == 8)
    read.fn = &ReadBuiltinComponent<uint64_t>::run;
  else if (read.fn == &ReadBuiltin<uint32_t>::run && elementBytes == 4)
    read.fn = &ReadBuiltinComponent<uint32_t>::run;
  else
    return false;
  lw.out.noteFusion(code.size() - 1, unfused, 1);
  return true;
}

bool lowerBuiltinLoad(Lowerer& lw, const spirv::Instruction& inst, uint32_t align) {
  const Lowerer::BuiltinPointer* p = lw.builtinPointer(inst.operands.at(0));
  if (!p) return false;
  BuiltinSlot& slot = lw.out.builtins.at(p->slot);
  const uint64_t bytes = lw.type(inst.resultType).size;
  // A misaligned or differently typed load stays a load, with its diagnostics and bytes:
  // from the private copy, which the variable then needs.
  if (bytes < uint64_t(p->components) * slot.elementBytes || bytes % slot.elementBytes ||
      bytes > 4ull * slot.elementBytes ||
      ((uint64_t(p->first) * slot.elementBytes) & (align - 1))) {
    slot.inMemory = true;
    return false;
  }
  const uint32_t ptr = lw.reg(inst.operands[0]);
  Inst& in = lw.emit(
      inst, slot.elementBytes == 4 ? &ReadBuiltin<uint32_t>::run : &ReadBuiltin<uint64_t>::run);
  in.a = ptr;
  in.n = static_cast<uint32_t>(bytes);
  in.aux = align;
  in.b = static_cast<uint32_t>(slot.builtin);
  in.c = p->first;
  in.aux2 = p->components;
  lw.keepsShape(in, inst.result);
  return true;
}

}  // namespace spvsim::ops
