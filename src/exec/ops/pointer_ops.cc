// Pointer comparison and difference (SPIR-V 1.4: OpPtrEqual, OpPtrNotEqual, OpPtrDiff).
//
// Two pointers are equal when they hold one address: spvsim gives each kernel argument
// its own region, so one buffer bound to two arguments yields two encodings of one
// address, which compare by address (as a raw SVM address and its region's encoding do).
//
// OpPtrDiff is defined only for two pointers into one object (SPIR-V: "the two pointers
// must point into the same object"; OpenCL C follows C99 6.5.6p9). Across objects the
// difference is reported (`out-of-bounds`: pointer arithmetic that leaves its object, as
// the array-index check of access chains reports) and then computed as a device with one
// flat address space computes it: from the addresses the launch gave the two objects
// (the host addresses of buffers, SVM allocations and program-scope variables, of the
// work-group's local arena and of the lane's private arena, plus each pointer's offset).
// spvsim's pointers keep their object in their bits (src/exec/memory.h), so subtracting
// their encodings would give a number no device produces. Two regions over the same
// storage (a buffer bound to two arguments, a sub-buffer and its parent) are one object:
// their address difference, and no report.
#include "src/exec/ops/pointer_ops.h"

#include <fmt/core.h>

#include "src/exec/lowering.h"
#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/pointer32.h"
#include "src/exec/subgroup.h"

namespace spvsim {

// The object a pointer names: its space and region bits once a raw SVM address is
// mapped to its allocation's region (null and pointers made from integers: space and
// region 0, one "object" whose differences are plain integer differences).
static uint64_t objectOf(uint64_t canonical) { return canonical & ~kOffsetMask; }

// Whether two regions are one memory object bound twice: a buffer passed as two
// arguments, a sub-buffer and its parent. Their storage overlaps.
static bool sameStorage(const MemoryMap& memory, uint64_t a, uint64_t b) {
  const Region* ra = memory.regionOf(a);
  const Region* rb = memory.regionOf(b);
  if (!ra || !rb || !ra->base || !rb->base) return false;  // local and private: arenas
  return ra->base < rb->base + rb->size && rb->base < ra->base + ra->size;
}

bool intoDifferentObjects(const MemoryMap& memory, uint64_t a, uint64_t b) {
  const uint64_t ca = memory.canonical(a), cb = memory.canonical(b);
  return objectOf(ca) != objectOf(cb) && !sameStorage(memory, ca, cb);
}

namespace {

using spv::Op;

// The address `p` (canonical) has in the launch's memory as `lane` sees it: the host
// address of its object's storage plus its offset; the value itself for null-derived,
// raw and garbage pointers (they name no storage).
uint64_t addressOf(const SubGroup& sg, uint32_t lane, uint64_t raw, uint64_t p) {
  const Region* r = sg.wg->launch->memory->regionOf(p);
  if (!r) return raw;
  const uint8_t* base = r->base;
  if (pointerSpace(p) == Space::Local) base = sg.wg->localArena + r->arenaOffset;
  if (pointerSpace(p) == Space::Private) base = sg.priv + lane * sg.privateBytes + r->arenaOffset;
  return uint64_t(uintptr_t(base)) + uint64_t(pointerOffset(p));
}

// Whether two pointers hold one address: the same bits, or (a raw SVM address and its
// region's encoding, two regions over one storage: a buffer bound to two arguments)
// the same address in the launch's memory, as a flat address space compares them.
bool sameAddress(const SubGroup& sg, uint32_t lane, uint64_t a, uint64_t b) {
  if (a == b) return true;
  const MemoryMap& memory = *sg.wg->launch->memory;
  return addressOf(sg, lane, a, memory.canonical(a)) == addressOf(sg, lane, b, memory.canonical(b));
}

template <bool Equal>
void pointerCompare(SubGroup& sg, const Inst& in) {
  uint8_t* r = sg.reg<uint8_t>(in.r);
  const uint64_t* a = sg.reg<uint64_t>(in.a);
  const uint64_t* b = sg.reg<uint64_t>(in.b);
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < in.n; ++c) {
      const uint32_t i = l * in.n + c;
      r[i] = uint8_t(sameAddress(sg, l, a[i], b[i]) == Equal);
    }
  });
}

// Inst: r = a - b in elements of in.aux bytes; in.n components per lane.
void pointerDiff(SubGroup& sg, const Inst& in) {
  const int64_t size = in.aux;
  const MemoryMap& memory = *sg.wg->launch->memory;
  int64_t* r = sg.reg<int64_t>(in.r);
  const uint64_t* a = sg.reg<uint64_t>(in.a);
  const uint64_t* b = sg.reg<uint64_t>(in.b);
  LaneMask across;
  std::string example;
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < in.n; ++c) {
      const uint32_t i = l * in.n + c;
      const uint64_t ca = memory.canonical(a[i]), cb = memory.canonical(b[i]);
      if (objectOf(ca) == objectOf(cb)) {
        r[i] = int64_t(ca - cb) / size;  // the offsets' difference: the bias cancels
        continue;
      }
      const int64_t bytes = int64_t(addressOf(sg, l, a[i], ca) - addressOf(sg, l, b[i], cb));
      r[i] = bytes / size;
      if (sameStorage(memory, ca, cb)) continue;
      if (example.empty())
        example = fmt::format("lane {}: {} and {}: {} bytes apart, {} elements of {} bytes", l,
                              describeLocation(memory, a[i]), describeLocation(memory, b[i]), bytes,
                              r[i], size);
      across.set(l);
    }
  });
  if (across.any())
    sg.report(in, DiagnosticKind::OutOfBounds,
              "OpPtrDiff of pointers into different objects (undefined: both must point into "
              "the same object); the result is the difference of their addresses in the "
              "launch's memory (" +
                  example + ")",
              across);
}

}  // namespace

void registerPointerOps(OpTable& t) {
  t.core[uint32_t(Op::OpPtrEqual)] = [](Lowerer& lw, const spirv::Instruction& i) {
    ops::emitElementwise(lw, i, &pointerCompare<true>, 2);
  };
  t.core[uint32_t(Op::OpPtrNotEqual)] = [](Lowerer& lw, const spirv::Instruction& i) {
    ops::emitElementwise(lw, i, &pointerCompare<false>, 2);
  };
  t.core[uint32_t(Op::OpPtrDiff)] = [](Lowerer& lw, const spirv::Instruction& i) {
    if (lw.physical32()) return ops::lowerPtrDiff32(lw, i);
    const uint64_t size = lw.type(lw.typeOfValue(i.operands[0]).element).size;
    if (size == 0) lw.unsupported(i, "OpPtrDiff of pointers to a type without a size");
    Inst& in = ops::emitElementwise(lw, i, &pointerDiff, 2);
    in.aux = static_cast<uint32_t>(size);
  };
}

}  // namespace spvsim
