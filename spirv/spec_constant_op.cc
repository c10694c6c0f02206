#include "spirv/spec_constant_op.h"

#include <fmt/core.h>

#include <cstring>

#include "spirv/disassembly.h"
#include "spirv/error.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

[[noreturn]] void unsupported(const Module& m, Op op, const Instruction& inst,
                              const std::string& why = "") {
  throw Error(DiagnosticKind::Unsupported,
              fmt::format("unsupported SPIR-V instruction OpSpecConstantOp {} ({}){}",
                          opcodeName(op), idName(m, inst.result), why));
}

// A constant index, sign-extended from its type's width.
int64_t indexValue(const Module& m, Id id, Op op, const Instruction& inst) {
  auto it = m.constants.find(id);
  if (it == m.constants.end() || it->second.isUndef)
    unsupported(m, op, inst, ": an index is not a constant");
  const Constant& c = it->second;
  uint64_t v = 0;
  std::memcpy(&v, c.bytes.data(), std::min<size_t>(8, c.bytes.size()));
  const uint32_t bits = m.type(c.type).width;
  if (bits > 0 && bits < 64 && (v >> (bits - 1)) & 1) v |= ~uint64_t(0) << bits;
  return static_cast<int64_t>(v);
}

// a * b + c for byte offsets of constant access chains; a module's indices are arbitrary,
// so an offset beyond int64 is refused rather than overflowing.
int64_t offsetTerm(const Module& m, int64_t a, int64_t b, int64_t c, Op op,
                   const Instruction& inst) {
  int64_t product, sum;
  if (__builtin_mul_overflow(a, b, &product) || __builtin_add_overflow(product, c, &sum))
    unsupported(m, op, inst, ": the byte offset exceeds 64 bits");
  return sum;
}

// Byte offset of `indexes` into an object of type `type` (struct members, array and
// vector elements).
int64_t walk(const Module& m, Id type, const std::vector<int64_t>& indexes, Op op,
             const Instruction& inst) {
  int64_t offset = 0;
  for (int64_t index : indexes) {
    const Type& t = m.type(type);
    if (t.kind == TypeKind::Struct) {
      if (index < 0 || size_t(index) >= t.members.size()) unsupported(m, op, inst, ": bad member");
      offset = offsetTerm(m, 1, static_cast<int64_t>(t.memberOffsets[index]), offset, op, inst);
      type = t.members[index];
    } else if (t.kind == TypeKind::Array || t.kind == TypeKind::RuntimeArray ||
               t.kind == TypeKind::Vector) {
      offset = offsetTerm(m, index, static_cast<int64_t>(m.type(t.element).size), offset, op, inst);
      type = t.element;
    } else {
      unsupported(m, op, inst, ": indexes into a scalar");
    }
  }
  return offset;
}

// The single variable address a pointer constant holds.
Relocation addressOf(const Module& m, Id id, Op op, const Instruction& inst) {
  std::optional<Constant> base = m.constantValue(id);
  if (!base || base->relocations.size() != 1 || base->relocations[0].at != 0)
    unsupported(m, op, inst, ": the base is not the address of a program-scope variable");
  return base->relocations[0];
}

void accessChain(const Module& m, Op op, const Instruction& inst, Constant& c) {
  const auto& o = inst.operands;  // opcode, base, [element], indexes...
  if (o.size() < 2) unsupported(m, op, inst);
  Relocation r = addressOf(m, o[1], op, inst);
  const Type& pointer = m.type(m.constantValue(o[1])->type);
  const bool element = op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain;
  size_t first = 2;
  int64_t offset = 0;
  if (element) {
    if (o.size() < 3) unsupported(m, op, inst);
    offset = offsetTerm(m, indexValue(m, o[2], op, inst),
                        static_cast<int64_t>(m.type(pointer.element).size), 0, op, inst);
    first = 3;
  }
  std::vector<int64_t> indexes;
  for (size_t k = first; k < o.size(); ++k) indexes.push_back(indexValue(m, o[k], op, inst));
  offset = offsetTerm(m, 1, walk(m, pointer.element, indexes, op, inst), offset, op, inst);
  r.offset += static_cast<uint64_t>(offset);
  c.relocations = {r};
}

}  // namespace

void evaluateSpecConstantOp(const Module& m, const Instruction& inst, Constant& c) {
  if (inst.operands.empty()) unsupported(m, Op::OpNop, inst);
  const auto op = static_cast<Op>(inst.operands[0]);
  switch (op) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return accessChain(m, op, inst, c);
    case Op::OpBitcast:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr: {
      // The same bits: spvsim's pointers carry their address space.
      std::optional<Constant> v =
          inst.operands.size() > 1 ? m.constantValue(inst.operands[1]) : std::nullopt;
      if (!v || v->bytes.size() != c.bytes.size()) unsupported(m, op, inst);
      c.bytes = v->bytes;
      c.relocations = v->relocations;
      return;
    }
    default:
      unsupported(m, op, inst);
  }
}

}  // namespace spvsim::spirv
