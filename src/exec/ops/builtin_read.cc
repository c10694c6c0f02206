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

template <class T>
struct ReadBuiltin {
  static void run(SubGroup& sg, const Inst& in) {
    if (sg.wg->launch->builtinStorage) return loadThroughMemory(sg, in);
    uint64_t column[kMaxSubGroupSize];
    uint8_t* r = sg.regs + in.r;
    for (uint32_t k = 0; k < in.aux2; ++k) {
      builtinColumn(sg, static_cast<Builtin>(in.b), in.c + k, column);
      sg.forActive([&](uint32_t l) {
        const T v = static_cast<T>(column[l]);
        std::memcpy(r + size_t(l) * in.n + k * sizeof(T), &v, sizeof(T));
      });
    }
    // vec3's padding element: zero, as the private copy's cleared padding was.
    if (const uint32_t used = in.aux2 * sizeof(T); used < in.n)
      sg.forActive([&](uint32_t l) { std::memset(r + size_t(l) * in.n + used, 0, in.n - used); });
  }
};

}  // namespace

bool lowerBuiltinLoad(Lowerer& lw, const spirv::Instruction& inst, uint32_t align) {
  const Lowerer::BuiltinPointer* p = lw.builtinPointer(inst.operands.at(0));
  if (!p) return false;
  BuiltinSlot& slot = lw.out.builtins.at(p->slot);
  const uint64_t bytes = lw.type(inst.resultType).size;
  // A misaligned or differently typed load stays a load, with its diagnostics and bytes:
  // from the private copy, which the variable then needs.
  if (bytes < uint64_t(p->components) * slot.elementBytes ||
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
  return true;
}

}  // namespace spvsim::ops
