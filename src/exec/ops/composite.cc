// Composite values: extract, insert, construct, vector shuffles and dynamic
// extract/insert, copies (OpCopyObject, OpCopyLogical). Values use the memory layout, so every
// static composite op is a list of byte pieces copied per lane: as moves of whole elements
// where the pieces are made of them (nearly always), else a memcpy per piece.
#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "spirv/error.h"
#include "src/exec/ops/builtin_read.h"
#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/pointer32.h"

namespace spvsim {
namespace {

using spirv::Id;
using spirv::TypeKind;
using spv::Op;

struct Piece {
  uint32_t srcReg, srcLaneBytes, srcOffset, dstOffset, bytes;
};

// Element moves one instruction may take (more: copyPieces).
constexpr uint32_t kMaxElementMoves = 32;

// extra at in.aux: [count, (srcReg, srcLaneBytes, srcOffset, dstOffset, bytes)*];
// in.r: destination, in.n: destination bytes per lane.
void copyPieces(SubGroup& sg, const Inst& in) {
  const uint32_t* p = sg.extra + in.aux;
  const uint32_t count = p[0];
  uint8_t* dst = sg.regs + in.r;
  sg.forActive([&](uint32_t l) {
    const uint32_t* q = p + 1;
    for (uint32_t k = 0; k < count; ++k, q += 5)
      std::memcpy(dst + size_t(l) * in.n + q[3], sg.regs + q[0] + size_t(l) * q[1] + q[2], q[4]);
  });
}

// Handler<T, N>::run for the vector lengths with handlers of their own (2, 4, 8, 16
// elements per lane), or nullptr.
template <class T, template <class, uint32_t> class Handler>
ExecFn forElements(uint32_t elements) {
  switch (elements) {
    case 2:
      return &Handler<T, 2>::run;
    case 4:
      return &Handler<T, 4>::run;
    case 8:
      return &Handler<T, 8>::run;
    case 16:
      return &Handler<T, 16>::run;
    default:
      return nullptr;
  }
}

// Scalar extracted from a vector at a fixed component: the common case, kept tight.
// N: the vector's elements per lane where it is 2, 4, 8 or 16 (0: read from in.n), so that
// a full sub-group is blocks of 16 lanes of a known stride, unrolled by the compiler.
template <class T, uint32_t N>
struct ExtractElement {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const size_t n = N ? N : in.n;  // locals: the stores could alias `in` for the compiler
    const T* a = sg.reg<T>(in.a) + in.aux;
    if (N && sg.allActive) {
      uint32_t l = 0;
      for (; l + 16 <= sg.width; l += 16)
#pragma GCC unroll 16
        for (uint32_t i = 0; i < 16; ++i) r[l + i] = a[(l + i) * N];
      for (; l < sg.width; ++l) r[l] = a[l * N];
      return sg.setShape(in, [&] { return sg.shapeOf(in.a); });
    }
    sg.forActive([&](uint32_t l) { r[l] = a[l * n]; });
    sg.setShape(in, [&] { return sg.shapeOf(in.a); });
  }
};

template <class T>
ExecFn pickExtract(uint32_t elements) {
  ExecFn fn = forElements<T, ExtractElement>(elements);
  return fn ? fn : &ExtractElement<T, 0>::run;
}

// The pieces as moves of whole elements of E bytes (E the largest of 8, 4, 2, 1 dividing
// every register, offset and size), in the pieces' order: copyPieces with the same bytes
// copied in the same order, without a runtime-size memcpy per piece. A first piece that
// copies a whole value of the result's size (OpCompositeInsert's composite, copies) is one
// copy of the register. N: the move count (0: read from the table).
// extra at in.aux: [count, whole (1 + source register, or 0),
//                   (srcReg, srcLaneElems, srcElem, dstElem)*]; in.n: bytes per lane.
// Each element of a move's result is an element of one of its sources, of the same type:
// the result is as uniform or affine as all its sources are (src/exec/register_shape.h).
inline RegShape movedShape(const SubGroup& sg, const uint32_t* p, uint32_t count) {
  RegShape s = p[1] ? sg.shapeOf(p[1] - 1) : RegShape::Uniform;
  for (uint32_t k = 0; k < count && s != RegShape::Unknown; ++k)
    s = sumShape(s, sg.shapeOf(p[2 + 4 * k]));
  return s;
}

template <class T, uint32_t N>
void moveElements(SubGroup& sg, const Inst& in) {
  const uint32_t* p = sg.extra + in.aux;
  const uint32_t count = N ? N : p[0];
  const size_t n = in.n / sizeof(T), width = sg.width;
  T* dst = sg.reg<T>(in.r);
  sg.setShape(in, [&] { return movedShape(sg, p, count); });
  if (p[1]) {
    const T* whole = sg.reg<T>(p[1] - 1);
    if (sg.allActive)
      std::memcpy(dst, whole, n * width * sizeof(T));
    else
      sg.forActive([&](uint32_t l) { std::memcpy(dst + l * n, whole + l * n, n * sizeof(T)); });
  }
  // Move by move, lane by lane: each move's source, stride and place stay in registers.
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t* q = p + 2 + 4 * k;
    const T* src = sg.reg<T>(q[0]) + q[2];
    const size_t stride = q[1];
    T* d = dst + q[3];
    if (sg.allActive) {
      for (size_t l = 0; l < width; ++l, d += n, src += stride) *d = *src;
    } else {
      for (size_t l = 0; l < width; ++l, d += n, src += stride)
        if (sg.active[l]) *d = *src;
    }
  }
}

// Moves that repeat one source element in all N elements of the result (a splat:
// `(float4)(x)`, clang's shufflevector with a zero mask): one read per lane. Same extra
// table as moveElements.
template <class T, uint32_t N>
struct SplatElement {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t* q = sg.extra + in.aux + 2;
    const T* src = sg.reg<T>(q[0]) + q[2];
    const size_t stride = q[1];
    T* dst = sg.reg<T>(in.r);
    sg.setShape(in, [&] { return sg.shapeOf(q[0]); });
    sg.forActive([&](uint32_t l) {
      const T v = src[l * stride];
#pragma GCC unroll 16
      for (uint32_t j = 0; j < N; ++j) dst[l * N + j] = v;
    });
  }
};

// Every element of an N-element result read from one source register, in any order (a
// swizzle: `v.wzyx`, `(uint4)(v.xy, v.yx)`): the source offsets are loop constants and
// each lane's elements one unrolled pass. Same extra table as moveElements.
template <class T, uint32_t N>
struct PermuteElements {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t* p = sg.extra + in.aux;
    const T* src = sg.reg<T>(p[2]);
    const size_t stride = p[3];
    uint32_t from[N];
    for (uint32_t k = 0; k < N; ++k) from[k] = p[2 + 4 * k + 2];
    T* dst = sg.reg<T>(in.r);
    sg.setShape(in, [&] { return sg.shapeOf(p[2]); });
    sg.forActive([&](uint32_t l) {
      const T* s = src + l * stride;
#pragma GCC unroll 16
      for (uint32_t k = 0; k < N; ++k) dst[l * N + k] = s[from[k]];
    });
  }
};

// A scalar moved into a copy of a whole N-element value (OpCompositeInsert of a scalar):
// the copy, then a full sub-group's elements in unrolled blocks of 16 lanes. Same extra
// table as moveElements.
template <class T, uint32_t N>
struct InsertScalar {
  static void run(SubGroup& sg, const Inst& in) {
    const uint32_t* p = sg.extra + in.aux;
    if (!sg.allActive) return moveElements<T, 1>(sg, in);
    sg.setShape(in, [&] { return movedShape(sg, p, 1); });
    T* dst = sg.reg<T>(in.r);
    std::memcpy(dst, sg.reg<T>(p[1] - 1), size_t(N) * sg.width * sizeof(T));
    const T* src = sg.reg<T>(p[2]) + p[4];
    T* d = dst + p[5];
    uint32_t l = 0;
    for (; l + 16 <= sg.width; l += 16)
#pragma GCC unroll 16
      for (uint32_t i = 0; i < 16; ++i) d[(l + i) * N] = src[l + i];
    for (; l < sg.width; ++l) d[l * N] = src[l];
  }
};

// The splat handler for moves `words` (moveElements' table) into `elements` elements per
// lane, or nullptr when they are not one.
template <class T>
ExecFn pickSplat(const std::vector<uint32_t>& words, uint32_t elements) {
  const uint32_t count = words[0];
  if (words[1] || count != elements) return nullptr;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t* q = words.data() + 2 + 4 * k;
    if (q[0] != words[2] || q[1] != words[3] || q[2] != words[4] || q[3] != k) return nullptr;
  }
  return forElements<T, SplatElement>(elements);
}

// The insert handler for moves `words` (a whole copy, then one scalar) into `elements`
// elements per lane, or nullptr.
template <class T>
ExecFn pickInsertScalar(const std::vector<uint32_t>& words, uint32_t elements) {
  if (!words[1] || words[0] != 1 || words[3] != 1) return nullptr;
  return forElements<T, InsertScalar>(elements);
}

// The permute handler for moves `words` into `elements` elements per lane (every result
// element, in order, from one source register), or nullptr.
template <class T>
ExecFn pickPermute(const std::vector<uint32_t>& words, uint32_t elements) {
  const uint32_t count = words[0];
  if (words[1] || count != elements) return nullptr;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t* q = words.data() + 2 + 4 * k;
    if (q[0] != words[2] || q[1] != words[3] || q[3] != k) return nullptr;
  }
  return forElements<T, PermuteElements>(elements);
}

template <class T>
ExecFn pickSpecialMove(const std::vector<uint32_t>& words, uint32_t elements) {
  if (ExecFn fn = pickSplat<T>(words, elements)) return fn;
  if (ExecFn fn = pickPermute<T>(words, elements)) return fn;
  return pickInsertScalar<T>(words, elements);
}

template <class T, size_t... N>
ExecFn pickMove(uint32_t count, std::index_sequence<N...>) {
  ExecFn fn = &moveElements<T, 0>;
  if (count == 0) return fn;
  ((count == N + 1 ? (fn = &moveElements<T, N + 1>, 0) : 0), ...);
  return fn;
}

// The element size every piece (into `dstBytes` per lane at `dstReg`) is made of.
uint32_t elementBytes(const std::vector<Piece>& pieces, uint32_t dstReg, uint32_t dstBytes) {
  uint32_t all = dstReg | dstBytes;
  for (const auto& p : pieces)
    all |= p.srcReg | p.srcLaneBytes | p.srcOffset | p.dstOffset | p.bytes;
  for (uint32_t e : {8u, 4u, 2u})
    if (all % e == 0) return e;
  return 1;
}

// Whether the pieces write every byte of the result (an OpVectorShuffle's undefined
// components and vec3 padding keep the register's old bytes: then the result has no
// shape of its sources).
bool coversAll(const std::vector<Piece>& pieces, uint32_t dstBytes) {
  std::vector<bool> written(dstBytes, false);
  for (const Piece& p : pieces)
    for (uint32_t b = p.dstOffset; b < p.dstOffset + p.bytes && b < dstBytes; ++b)
      written[b] = true;
  return std::find(written.begin(), written.end(), false) == written.end();
}

// Emits the pieces as element moves when there are few enough; false otherwise.
bool emitElementMoves(Lowerer& lw, const spirv::Instruction& inst, const std::vector<Piece>& pieces,
                      uint32_t dstReg, uint32_t dstBytes) {
  if (pieces.empty()) return false;
  const uint32_t e = elementBytes(pieces, dstReg, dstBytes);
  std::vector<uint32_t> words{0, 0};
  size_t first = 0;
  if (const Piece& p = pieces.front();
      p.srcLaneBytes == dstBytes && p.bytes == dstBytes && p.srcOffset == 0 && p.dstOffset == 0) {
    words[1] = 1 + p.srcReg;
    first = 1;
  }
  for (size_t k = first; k < pieces.size(); ++k) {
    const Piece& p = pieces[k];
    for (uint32_t b = 0; b < p.bytes; b += e)
      words.insert(words.end(),
                   {p.srcReg, p.srcLaneBytes / e, (p.srcOffset + b) / e, (p.dstOffset + b) / e});
  }
  const uint32_t count = static_cast<uint32_t>((words.size() - 2) / 4);
  if ((count == 0 && !words[1]) || count > kMaxElementMoves) return false;
  words[0] = count;
  using Seq = std::make_index_sequence<16>;  // counts 1..16 unrolled
  const uint32_t elements = dstBytes / e;
  ExecFn fn = e == 8   ? pickSpecialMove<uint64_t>(words, elements)
              : e == 4 ? pickSpecialMove<uint32_t>(words, elements)
              : e == 2 ? pickSpecialMove<uint16_t>(words, elements)
                       : pickSpecialMove<uint8_t>(words, elements);
  if (!fn)
    fn = e == 8   ? pickMove<uint64_t>(count, Seq{})
         : e == 4 ? pickMove<uint32_t>(count, Seq{})
         : e == 2 ? pickMove<uint16_t>(count, Seq{})
                  : pickMove<uint8_t>(count, Seq{});
  uint32_t at = lw.addExtra(words);
  Inst& in = lw.emit(inst, fn);
  in.aux = at;
  in.r = dstReg;
  in.n = dstBytes;
  // Shapes describe scalars and vectors (at most 16 elements of 8 bytes): a larger value
  // (an array or a struct copied whole) needs no byte map at lowering.
  if (dstBytes <= 128 && coversAll(pieces, dstBytes)) lw.keepsShape(in, inst.result);
  return true;
}

void emitPieces(Lowerer& lw, const spirv::Instruction& inst, const std::vector<Piece>& pieces) {
  const uint32_t dstBytes = lw.valueBytes(inst.resultType);
  if (emitElementMoves(lw, inst, pieces, lw.reg(inst.result), dstBytes)) return;
  std::vector<uint32_t> words{static_cast<uint32_t>(pieces.size())};
  for (const auto& p : pieces)
    words.insert(words.end(), {p.srcReg, p.srcLaneBytes, p.srcOffset, p.dstOffset, p.bytes});
  uint32_t at = lw.addExtra(words);
  Inst& in = lw.emit(inst, &copyPieces);
  in.aux = at;
  in.n = dstBytes;
}

// Byte offset and type of a member path inside a composite type.
std::pair<uint64_t, Id> memberOffset(const Lowerer& lw, Id type, const uint32_t* idx,
                                     size_t count) {
  uint64_t offset = 0;
  for (size_t k = 0; k < count; ++k) {
    const spirv::Type& t = lw.type(type);
    if (t.kind == TypeKind::Struct) {
      offset += t.memberOffsets.at(idx[k]);
      type = t.members.at(idx[k]);
    } else {
      type = t.element;
      offset += uint64_t(idx[k]) * lw.type(type).size;
    }
  }
  return {offset, type};
}

void lowerExtract(Lowerer& lw, const spirv::Instruction& inst) {
  Id composite = inst.operands.at(0);
  const spirv::Type& ct = lw.typeOfValue(composite);
  auto [offset, type] = memberOffset(lw, lw.typeIdOfValue(composite), inst.operands.data() + 1,
                                     inst.operands.size() - 1);
  uint32_t bytes = static_cast<uint32_t>(lw.type(type).size);
  if (lw.physical32() && lw.type(type).kind == TypeKind::Pointer)  // a 32-bit address
    return ops::lowerPointerExtract32(lw, inst, offset);
  if (ct.kind == TypeKind::Vector && inst.operands.size() == 2) {
    Shape s = lw.shape(inst.resultType);
    const auto elements = static_cast<uint32_t>(ct.size / bytes);
    ExecFn fn = s.scalar == Scalar::Bool ? pickExtract<uint8_t>(elements)
                : bytes == 1             ? pickExtract<uint8_t>(elements)
                : bytes == 2             ? pickExtract<uint16_t>(elements)
                : bytes == 4             ? pickExtract<uint32_t>(elements)
                                         : pickExtract<uint64_t>(elements);
    uint32_t src = lw.reg(composite);
    if (s.scalar != Scalar::Bool) ops::fuseBuiltinExtract(lw, composite, bytes);
    Inst& in = lw.emit(inst, fn);
    in.a = src;
    in.n = elements;
    in.aux = inst.operands[1];
    lw.keepsShape(in, inst.result);
    return;
  }
  emitPieces(lw, inst,
             {{lw.reg(composite), static_cast<uint32_t>(ct.size), static_cast<uint32_t>(offset), 0,
               bytes}});
}

void lowerInsert(Lowerer& lw, const spirv::Instruction& inst) {
  Id object = inst.operands.at(0), composite = inst.operands.at(1);
  auto [offset, type] =
      memberOffset(lw, inst.resultType, inst.operands.data() + 2, inst.operands.size() - 2);
  if (lw.physical32() && lw.type(type).kind == TypeKind::Pointer)
    return ops::lowerPointerInsert32(lw, inst, offset);
  uint32_t size = static_cast<uint32_t>(lw.type(inst.resultType).size);
  emitPieces(lw, inst,
             {{lw.reg(composite), size, 0, 0, size},
              {lw.reg(object), static_cast<uint32_t>(lw.type(type).size), 0,
               static_cast<uint32_t>(offset), static_cast<uint32_t>(lw.type(type).size)}});
}

void lowerConstruct(Lowerer& lw, const spirv::Instruction& inst) {
  if (lw.physical32() && ops::lowerConstruct32(lw, inst)) return;
  const spirv::Type& t = lw.type(inst.resultType);
  std::vector<Piece> pieces;
  uint64_t offset = 0;
  for (size_t k = 0; k < inst.operands.size(); ++k) {
    Id part = inst.operands[k];
    const spirv::Type& pt = lw.typeOfValue(part);
    if (t.kind == TypeKind::Struct) offset = t.memberOffsets.at(k);
    // A vector constituent of a vector contributes its real components, not padding.
    uint64_t bytes = pt.size;
    if (t.kind == TypeKind::Vector && pt.kind == TypeKind::Vector)
      bytes = lw.type(pt.element).size * pt.count;
    pieces.push_back({lw.reg(part), static_cast<uint32_t>(pt.size), 0,
                      static_cast<uint32_t>(offset), static_cast<uint32_t>(bytes)});
    offset += bytes;
  }
  emitPieces(lw, inst, pieces);
}

void lowerShuffle(Lowerer& lw, const spirv::Instruction& inst) {
  Id v1 = inst.operands.at(0), v2 = inst.operands.at(1);
  const spirv::Type& t1 = lw.typeOfValue(v1);
  const spirv::Type& t2 = lw.typeOfValue(v2);
  uint32_t e = static_cast<uint32_t>(lw.type(t1.element).size);
  std::vector<Piece> pieces;
  for (size_t k = 2; k < inst.operands.size(); ++k) {
    uint32_t c = inst.operands[k];
    if (c == 0xffffffffu) continue;  // undefined component: left as is
    uint32_t dst = static_cast<uint32_t>((k - 2) * e);
    if (c < t1.count)
      pieces.push_back({lw.reg(v1), static_cast<uint32_t>(t1.size), c * e, dst, e});
    else
      pieces.push_back({lw.reg(v2), static_cast<uint32_t>(t2.size),
                        static_cast<uint32_t>((c - t1.count) * e), dst, e});
  }
  emitPieces(lw, inst, pieces);
}

void lowerCopy(Lowerer& lw, const spirv::Instruction& inst) {
  uint32_t size = lw.valueBytes(inst.resultType);
  emitPieces(lw, inst, {{lw.reg(inst.operands.at(0)), size, 0, 0, size}});
}

// The pieces copying a `src`-typed value into the layout of a logically matching `dst`
// type (same members, recursively, but possibly other layouts: CPacked is a decoration),
// leaf by leaf; runs contiguous in both layouts become one piece.
void logicalPieces(const Lowerer& lw, Id src, Id dst, uint32_t reg, uint32_t laneBytes,
                   uint64_t from, uint64_t to, std::vector<Piece>& out) {
  const spirv::Type& s = lw.type(src);
  const spirv::Type& d = lw.type(dst);
  if (s.kind == TypeKind::Struct) {
    for (size_t m = 0; m < s.members.size(); ++m)
      logicalPieces(lw, s.members[m], d.members.at(m), reg, laneBytes, from + s.memberOffsets[m],
                    to + d.memberOffsets.at(m), out);
    return;
  }
  if (s.kind == TypeKind::Array) {
    const uint64_t sStride = lw.type(s.element).size, dStride = lw.type(d.element).size;
    for (uint64_t i = 0; i < s.count; ++i)
      logicalPieces(lw, s.element, d.element, reg, laneBytes, from + i * sStride, to + i * dStride,
                    out);
    return;
  }
  if (!out.empty()) {
    Piece& last = out.back();
    if (last.srcOffset + last.bytes == from && last.dstOffset + last.bytes == to) {
      last.bytes += static_cast<uint32_t>(s.size);
      return;
    }
  }
  out.push_back({reg, laneBytes, static_cast<uint32_t>(from), static_cast<uint32_t>(to),
                 static_cast<uint32_t>(s.size)});
}

void lowerCopyLogical(Lowerer& lw, const spirv::Instruction& inst) {
  const Id operand = inst.operands.at(0);
  std::vector<Piece> pieces;
  logicalPieces(lw, lw.typeIdOfValue(operand), inst.resultType, lw.reg(operand),
                static_cast<uint32_t>(lw.typeOfValue(operand).size), 0, 0, pieces);
  emitPieces(lw, inst, pieces);
}

// Dynamic component index: out-of-range indices are undefined; reported, result 0.
template <class T, class I>
struct ExtractDynamic {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* v = sg.reg<T>(in.a);
    const I* idx = sg.reg<I>(in.b);
    LaneMask bad;
    sg.forActive([&](uint32_t l) {
      uint64_t i = uint64_t(idx[l]);
      if (i >= in.aux) {
        bad.set(l);
        r[l] = 0;
      } else {
        r[l] = v[l * in.n + i];
      }
    });
    if (bad.any())
      sg.report(in, DiagnosticKind::OutOfBounds,
                fmt::format("vector component index out of range "
                            "(vector of {})",
                            in.aux),
                bad);
  }
};

template <class T, class I>
struct InsertDynamic {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* v = sg.reg<T>(in.a);
    const T* x = sg.reg<T>(in.c);
    const I* idx = sg.reg<I>(in.b);
    LaneMask bad;
    sg.forActive([&](uint32_t l) {
      for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = v[l * in.n + c];
      uint64_t i = uint64_t(idx[l]);
      if (i >= in.aux)
        bad.set(l);
      else
        r[l * in.n + i] = x[l];
    });
    if (bad.any())
      sg.report(in, DiagnosticKind::OutOfBounds,
                fmt::format("vector component index out of range "
                            "(vector of {})",
                            in.aux),
                bad);
  }
};

template <template <class, class> class H, class T>
ExecFn byIndex(uint32_t indexBytes) {
  switch (indexBytes) {
    case 1:
      return &H<T, uint8_t>::run;
    case 2:
      return &H<T, uint16_t>::run;
    case 4:
      return &H<T, uint32_t>::run;
    default:
      return &H<T, uint64_t>::run;
  }
}

template <template <class, class> class H>
ExecFn pickDynamic(uint32_t elementBytes, uint32_t indexBytes) {
  switch (elementBytes) {
    case 1:
      return byIndex<H, uint8_t>(indexBytes);
    case 2:
      return byIndex<H, uint16_t>(indexBytes);
    case 4:
      return byIndex<H, uint32_t>(indexBytes);
    default:
      return byIndex<H, uint64_t>(indexBytes);
  }
}

void lowerExtractDynamic(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Type& vt = lw.typeOfValue(inst.operands.at(0));
  uint32_t e = static_cast<uint32_t>(lw.type(vt.element).size);
  uint32_t ib = static_cast<uint32_t>(lw.typeOfValue(inst.operands.at(1)).size);
  uint32_t v = lw.reg(inst.operands[0]), i = lw.reg(inst.operands[1]);
  Inst& in = lw.emit(inst, pickDynamic<ExtractDynamic>(e, ib));
  in.a = v;
  in.b = i;
  in.n = static_cast<uint32_t>(vt.size / e);
  in.aux = static_cast<uint32_t>(vt.count);
}

void lowerInsertDynamic(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Type& vt = lw.type(inst.resultType);
  uint32_t e = static_cast<uint32_t>(lw.type(vt.element).size);
  uint32_t ib = static_cast<uint32_t>(lw.typeOfValue(inst.operands.at(2)).size);
  uint32_t v = lw.reg(inst.operands[0]), x = lw.reg(inst.operands[1]), i = lw.reg(inst.operands[2]);
  Inst& in = lw.emit(inst, pickDynamic<InsertDynamic>(e, ib));
  in.a = v;
  in.c = x;
  in.b = i;
  in.n = static_cast<uint32_t>(vt.size / e);
  in.aux = static_cast<uint32_t>(vt.count);
}

}  // namespace

void registerCompositeOps(OpTable& t) {
  t.core[uint32_t(Op::OpCompositeExtract)] = &lowerExtract;
  t.core[uint32_t(Op::OpCompositeInsert)] = &lowerInsert;
  t.core[uint32_t(Op::OpCompositeConstruct)] = &lowerConstruct;
  t.core[uint32_t(Op::OpVectorShuffle)] = &lowerShuffle;
  t.core[uint32_t(Op::OpCopyObject)] = &lowerCopy;
  t.core[uint32_t(Op::OpCopyLogical)] = &lowerCopyLogical;
  t.core[uint32_t(Op::OpExpectKHR)] = &lowerCopy;
  t.core[uint32_t(Op::OpVectorExtractDynamic)] = &lowerExtractDynamic;
  t.core[uint32_t(Op::OpVectorInsertDynamic)] = &lowerInsertDynamic;
}

}  // namespace spvsim
