// Physical32 modules: the instructions where a pointer's 32 bits show (pointer32.h).
#include "src/exec/ops/pointer32.h"

#include <fmt/core.h>

#include <cstring>

#include "src/exec/address32.h"
#include "src/exec/ops/builtin_read.h"
#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/pointer_ops.h"

namespace spvsim::ops {
namespace {

using spirv::Id;
using spirv::TypeKind;

const Address32Map& addresses(const SubGroup& sg) { return *sg.wg->launch->memory->addresses32; }

// The undefined-value checker runs byte-moving instructions (bitcasts and composites)
// on its shadow register file (src/check/shadow_rules.h, moveBytes): there a converted
// pointer's bytes are all undefined if any byte it is converted from is.
bool onShadow(const SubGroup& sg) { return sg.regs == sg.shadow; }

uint64_t anyBytes(const uint8_t* p, uint32_t n) {
  uint8_t any = 0;
  for (uint32_t i = 0; i < n; ++i) any |= p[i];
  return any != 0;
}

// A shadow's `n` bytes at `to`, each 1 where any of the `from` bytes at `src` is.
void spreadShadow(uint8_t* to, uint32_t n, const uint8_t* src, uint32_t from) {
  std::memset(to, int(anyBytes(src, from)), n);
}

// ---- Loads and stores of pointers ---------------------------------------------------
// Inst: r result (8 bytes), a pointer, c a 4-byte scratch register, aux alignment
// (plus b the value, for stores). The memory access is the ordinary 4-byte one, with its
// checks and events; only the value is converted.

void loadPointer32(SubGroup& sg, const Inst& in) {
  Inst narrow = in;
  narrow.r = in.c;
  narrow.n = 4;
  narrow.shapeOut = kNoShapeSlot;
  loadThroughMemory(sg, narrow);
  const Address32Map& map = addresses(sg);
  const uint32_t* a = sg.reg<uint32_t>(in.c);
  uint64_t* r = sg.reg<uint64_t>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = map.toPointer(a[l]); });
}

void storePointer32(SubGroup& sg, const Inst& in) {
  AddressConversion conversion(sg);
  const uint64_t* v = sg.reg<uint64_t>(in.b);
  uint32_t* a = sg.reg<uint32_t>(in.c);
  sg.forActive([&](uint32_t l) { a[l] = conversion.convert(l, v[l]); });
  if (!conversion.report(in)) return;
  Inst narrow = in;
  narrow.b = in.c;
  narrow.n = 4;
  storeThroughMemory(sg, narrow);
}

// ---- Conversions ------------------------------------------------------------------

// OpConvertPtrToU (zero-extended or truncated to T), and OpBitcast to a 4-byte value.
template <class T>
void ptrToU32(SubGroup& sg, const Inst& in) {
  AddressConversion conversion(sg);
  const uint64_t* p = sg.reg<uint64_t>(in.a);
  T* r = sg.reg<T>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = T(conversion.convert(l, p[l])); });
  conversion.report(in);
}

// OpConvertUToPtr (the low 32 bits of a wider integer, zero-extended from a narrower one),
// and OpBitcast from a 4-byte value.
template <class T>
void uToPtr32(SubGroup& sg, const Inst& in) {
  const Address32Map& map = addresses(sg);
  const T* a = sg.reg<T>(in.a);
  uint64_t* r = sg.reg<uint64_t>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = map.toPointer(uint32_t(a[l])); });
}

template <class T>
struct PtrToU32 {
  static void run(SubGroup& sg, const Inst& in) {
    if (onShadow(sg)) [[unlikely]]
      return sg.forActive([&](uint32_t l) {
        spreadShadow(sg.regs + in.r + size_t(l) * sizeof(T), sizeof(T),
                     sg.regs + in.a + size_t(l) * 8, 8);
      });
    ptrToU32<T>(sg, in);
  }
};
template <class T>
struct UToPtr32 {
  static void run(SubGroup& sg, const Inst& in) {
    if (onShadow(sg)) [[unlikely]]
      return sg.forActive([&](uint32_t l) {
        spreadShadow(sg.regs + in.r + size_t(l) * 8, 8, sg.regs + in.a + size_t(l) * sizeof(T),
                     sizeof(T));
      });
    uToPtr32<T>(sg, in);
  }
};

// ---- Composites -------------------------------------------------------------------
// extra at in.aux: [count, (srcReg, srcLaneBytes, srcOffset, dstOffset, bytes, mode)*];
// in.r: destination, in.n: its bytes per lane. Modes: copy `bytes`; narrow an 8-byte
// register pointer to its 4-byte address; widen a 4-byte address to a register pointer.
enum PieceMode : uint32_t { kCopy = 0, kNarrow = 1, kWiden = 2 };
constexpr uint32_t kPieceWords = 6;

void copyPieces32(SubGroup& sg, const Inst& in) {
  const uint32_t* words = sg.extra + in.aux;
  if (onShadow(sg)) [[unlikely]]
    return sg.forActive([&](uint32_t l) {
      uint8_t* dst = sg.regs + in.r + size_t(l) * in.n;
      for (uint32_t k = 0; k < words[0]; ++k) {
        const uint32_t* w = words + 1 + kPieceWords * k;
        const uint8_t* src = sg.regs + w[0] + size_t(l) * w[1] + w[2];
        if (w[5] == kNarrow)
          spreadShadow(dst + w[3], 4, src, 8);
        else if (w[5] == kWiden)
          spreadShadow(dst + w[3], 8, src, 4);
        else
          std::memmove(dst + w[3], src, w[4]);
      }
    });
  const Address32Map& map = addresses(sg);
  AddressConversion conversion(sg);
  sg.forActive([&](uint32_t l) {
    uint8_t* dst = sg.regs + in.r + size_t(l) * in.n;
    for (uint32_t k = 0; k < words[0]; ++k) {
      const uint32_t* w = words + 1 + kPieceWords * k;
      const uint8_t* src = sg.regs + w[0] + size_t(l) * w[1] + w[2];
      if (w[5] == kNarrow) {
        uint64_t p;
        std::memcpy(&p, src, 8);
        const uint32_t a = conversion.convert(l, p);
        std::memcpy(dst + w[3], &a, 4);
      } else if (w[5] == kWiden) {
        uint32_t a;
        std::memcpy(&a, src, 4);
        const uint64_t p = map.toPointer(a);
        std::memcpy(dst + w[3], &p, 8);
      } else {
        std::memmove(dst + w[3], src, w[4]);
      }
    }
  });
  conversion.report(in);
}

struct Piece32 {
  uint32_t srcReg, srcLaneBytes, srcOffset, dstOffset, bytes, mode;
};

void emitPieces32(Lowerer& lw, const spirv::Instruction& inst, const std::vector<Piece32>& pieces) {
  std::vector<uint32_t> words{static_cast<uint32_t>(pieces.size())};
  for (const Piece32& p : pieces)
    words.insert(words.end(),
                 {p.srcReg, p.srcLaneBytes, p.srcOffset, p.dstOffset, p.bytes, p.mode});
  const uint32_t at = lw.addExtra(words);
  Inst& in = lw.emit(inst, &copyPieces32);
  in.aux = at;
  in.n = lw.valueBytes(inst.resultType);
}

// ---- OpPtrDiff ----------------------------------------------------------------------

template <class T>
struct PtrDiff32 {
  static void run(SubGroup& sg, const Inst& in) {
    AddressConversion conversion(sg);
    const uint64_t* a = sg.reg<uint64_t>(in.a);
    const uint64_t* b = sg.reg<uint64_t>(in.b);
    T* r = sg.reg<T>(in.r);
    const MemoryMap& memory = *sg.wg->launch->memory;
    LaneMask across;
    sg.forActive([&](uint32_t l) {
      const int32_t bytes = int32_t(conversion.convert(l, a[l]) - conversion.convert(l, b[l]));
      r[l] = T(int64_t(bytes) / int64_t(in.aux));
      if (intoDifferentObjects(memory, a[l], b[l])) across.set(l);
    });
    conversion.report(in);
    // As in 64-bit modules (pointer_ops.cc): undefined, reported, then the addresses'
    // difference.
    if (across.any())
      sg.report(in, DiagnosticKind::OutOfBounds,
                fmt::format("OpPtrDiff of pointers into different objects (undefined: both must "
                            "point into the same object); the result is the difference of their "
                            "32-bit addresses (lane {}: {} and {})",
                            across.first(), describeLocation(memory, a[across.first()]),
                            describeLocation(memory, b[across.first()])),
                across);
  }
};

}  // namespace

AddressConversion::AddressConversion(SubGroup& sg) : sg_(sg), map_(addresses(sg)) {}

uint32_t AddressConversion::convert(uint32_t lane, uint64_t p) {
  const Address32Map::Address a = map_.toAddress(p);
  if (a.status == Address32Map::Status::Inexact && !inexact_.test(lane)) {
    if (!inexact_.any()) inexactPointer_ = p, inexactValue_ = a.value;
    inexact_.set(lane);
  } else if (a.status == Address32Map::Status::Unplaced) {
    unplaced_.set(lane);
    unplacedPointer_ = p;
  }
  return a.value;
}

bool AddressConversion::report(const Inst& in) {
  const MemoryMap& mem = *sg_.wg->launch->memory;
  if (unplaced_.any()) {
    const Window32 w = window32(pointerSpace(unplacedPointer_));
    sg_.fatal(in, DiagnosticKind::Unsupported,
              fmt::format("unsupported: a pointer {} has no 32-bit address: the objects of the "
                          "{} memory window of the 32-bit address space ({} MiB) do not fit it",
                          describePlace(mem, unplacedPointer_),
                          spaceName(pointerSpace(unplacedPointer_)), (w.end - w.start) >> 20));
    return false;
  }
  if (inexact_.any())
    sg_.report(in, DiagnosticKind::PointerConversion,
               fmt::format("a pointer {} becomes the 32-bit address 0x{:08x}, which leads "
                           "elsewhere: to {}",
                           describePlace(mem, inexactPointer_), inexactValue_,
                           describeLocation(mem, map_.toPointer(inexactValue_))),
               inexact_, Severity::Warning);
  return true;
}

void lowerPointerLoad32(Lowerer& lw, const spirv::Instruction& inst, uint32_t align) {
  const uint32_t ptr = lw.reg(inst.operands.at(0));
  Inst& in = lw.emit(inst, &loadPointer32);
  in.a = ptr;
  in.c = lw.scratch(4);
  in.n = 4;
  in.aux = align;
}

void lowerPointerStore32(Lowerer& lw, const spirv::Instruction& inst, uint32_t align) {
  const uint32_t ptr = lw.reg(inst.operands.at(0)), value = lw.reg(inst.operands.at(1));
  Inst& in = lw.emit(inst, &storePointer32);
  in.a = ptr;
  in.b = value;
  in.c = lw.scratch(4);
  in.n = 4;
  in.aux = align;
}

void lowerPtrToU32(Lowerer& lw, const spirv::Instruction& inst) {
  const Shape to = lw.shape(inst.resultType);
  if (!to.isInt() || to.components != 1) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, pickByBytes<PtrToU32>(to.bytes));
  in.a = lw.reg(Lowerer::operand(inst, 0));
}

void lowerUToPtr32(Lowerer& lw, const spirv::Instruction& inst) {
  const Shape from = lw.shapeOfValue(Lowerer::operand(inst, 0));
  if (!from.isInt() || from.components != 1) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, pickByBytes<UToPtr32>(from.bytes));
  in.a = lw.reg(Lowerer::operand(inst, 0));
}

bool lowerPointerBitcast32(Lowerer& lw, const spirv::Instruction& inst) {
  const Id operand = Lowerer::operand(inst, 0);
  const spirv::Type& to = lw.type(inst.resultType);
  const spirv::Type& from = lw.typeOfValue(operand);
  const bool toPointer = to.kind == TypeKind::Pointer, fromPointer = from.kind == TypeKind::Pointer;
  if (toPointer == fromPointer) return false;
  // The validator requires the other type to have the pointer's 32 bits.
  if ((toPointer ? from : to).size != 4) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, toPointer ? &UToPtr32<uint32_t>::run : &PtrToU32<uint32_t>::run);
  in.a = lw.reg(operand);
  return true;
}

void lowerPointerExtract32(Lowerer& lw, const spirv::Instruction& inst, uint64_t offset) {
  const Id composite = inst.operands.at(0);
  emitPieces32(lw, inst,
               {{lw.reg(composite), lw.valueBytes(lw.typeIdOfValue(composite)),
                 static_cast<uint32_t>(offset), 0, 4, kWiden}});
}

void lowerPointerInsert32(Lowerer& lw, const spirv::Instruction& inst, uint64_t offset) {
  const Id object = inst.operands.at(0), composite = inst.operands.at(1);
  const uint32_t size = lw.valueBytes(inst.resultType);
  emitPieces32(lw, inst,
               {{lw.reg(composite), size, 0, 0, size, kCopy},
                {lw.reg(object), 8, 0, static_cast<uint32_t>(offset), 4, kNarrow}});
}

bool lowerConstruct32(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Type& t = lw.type(inst.resultType);
  if (t.kind != TypeKind::Struct && t.kind != TypeKind::Array) return false;
  bool pointers = false;
  std::vector<Piece32> pieces;
  for (size_t k = 0; k < inst.operands.size(); ++k) {
    const Id part = inst.operands[k];
    const spirv::Type& pt = lw.typeOfValue(part);
    const uint64_t offset = t.kind == TypeKind::Struct ? t.memberOffsets.at(k) : k * pt.size;
    const bool pointer = pt.kind == TypeKind::Pointer;
    pointers = pointers || pointer;
    pieces.push_back({lw.reg(part), lw.valueBytes(lw.typeIdOfValue(part)), 0,
                      static_cast<uint32_t>(offset), static_cast<uint32_t>(pt.size),
                      pointer ? kNarrow : kCopy});
  }
  if (!pointers) return false;
  emitPieces32(lw, inst, pieces);
  return true;
}

void lowerPtrDiff32(Lowerer& lw, const spirv::Instruction& inst) {
  const Shape to = lw.shape(inst.resultType);
  if (!to.isInt() || to.components != 1) lw.unsupported(inst, lw.describeWithType(inst));
  ExecFn fn = to.bytes == 4   ? &PtrDiff32<int32_t>::run
              : to.bytes == 8 ? &PtrDiff32<int64_t>::run
                              : nullptr;
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, fn);
  in.a = lw.reg(Lowerer::operand(inst, 0));
  in.b = lw.reg(Lowerer::operand(inst, 1));
  const uint64_t element = lw.type(lw.typeOfValue(Lowerer::operand(inst, 0)).element).size;
  in.aux = static_cast<uint32_t>(std::max<uint64_t>(element, 1));
}

}  // namespace spvsim::ops
