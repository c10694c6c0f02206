// Facts about opcodes, as predicates (in the manner of SPIRV-Tools' source/opcode.h): what
// the rest of spvsim asks of an opcode is answered here, from the grammar where it says
// (instruction classes, operand names: spirv/gen_grammar_tables.py) and from the spec's
// text where it does not (which atomic operation an opcode performs, which operands a
// memory instruction dereferences). Nothing outside spirv/opcode.{h,cc} and the generated
// tables keeps a list of opcodes; a new opcode is classified by adding it here (see
// src/DESIGN.md, "Adding an opcode").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <spirv/unified1/spirv.hpp11>

#include "spirv/grammar_tables.inc"
#include "spirv/instruction_info.h"

namespace spvsim::spirv {

using grammar::InstructionClass;

// The grammar's class of `op`; InstructionClass::None for opcodes the grammar lacks.
InstructionClass instructionClass(spv::Op op);

// ---- Atomics (grammar class Atomic) ----

// What an atomic instruction does to the memory it names (SPIR-V 3.37.18).
enum class AtomicOperation : uint8_t {
  Load,
  Store,
  Exchange,
  CompareExchange,
  IIncrement,
  IDecrement,
  IAdd,
  ISub,
  SMin,
  UMin,
  SMax,
  UMax,
  And,
  Or,
  Xor,
  FAdd,
  FMin,
  FMax,
  FlagTestAndSet,
  FlagClear,
  Unknown,  // an atomic opcode the grammar gained and spvsim has not classified
};

// An atomic opcode: its operation and where its operands sit in Instruction::operands
// (after the result type and id; -1 where it has none). From the grammar's operand names.
struct AtomicForm {
  spv::Op op;
  AtomicOperation operation;
  int8_t pointer, scope, semantics, unequal, value, comparator;
};

// The form of atomic opcode `op`; nullptr for any other opcode.
const AtomicForm* atomicForm(spv::Op op);
inline bool isAtomic(spv::Op op) { return atomicForm(op) != nullptr; }
// Every atomic opcode the grammar knows, in opcode order.
std::span<const AtomicForm> atomicForms();

// An integer read-modify-write whose result is a combination of the old value and an
// operand (IIncrement..Xor: what a reduction through memory can be made of).
bool isIntegerRmw(AtomicOperation operation);
// The floating-point read-modify-writes (SPV_EXT_shader_atomic_float_add/_min_max).
bool isFloatRmw(AtomicOperation operation);

// ---- Memory ----

// How many leading operands of `op` are pointers it reads or writes through: 1 for loads,
// stores and atomics, 2 for memory copies, 0 for everything else.
size_t dereferencedPointers(spv::Op op);

// OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain, OpInBoundsPtrAccessChain.
bool isAccessChain(spv::Op op);

// Whether operand `operand` (an index into Instruction::operands) of `op` is a pointer
// that `op` passes on to its result, offset (access chains), cast (OpBitcast of a
// pointer, the generic casts), copied or chosen (OpSelect, OpPhi).
bool passesPointerOperand(spv::Op op, size_t operand);

// Instructions whose pointer result comes from pointer operands only (those of
// passesPointerOperand but OpBitcast, which may also make a pointer of an integer).
bool derivesPointer(spv::Op op);

// Calls f(i) for each operand i (an index into Instruction::operands, of which `count`)
// of `op` that may be an id, from the grammar's operand kinds, so that literals (`Aligned
// 32`, extract indices, an extended instruction's number) never pass for ids. Parameters
// of a bit-enum operand (memory access, image operands) are literals or ids that no
// pointer can be (scopes, coordinates): skipped. Where the grammar leaves the layout open
// (OpSwitch, unknown opcodes, kinds not listed), every remaining word counts as an id: a
// literal taken for an id only makes an analysis more careful.
template <class F>
void forEachIdOperand(spv::Op op, size_t count, F f) {
  auto rest = [&](size_t from) {
    for (size_t i = from; i < count; ++i) f(i);
  };
  const InstructionInfo info = instructionInfo(op);
  if (!info.row || op == spv::Op::OpSwitch) return rest(0);
  size_t i = 0;
  for (const OperandDesc& d : info.operands()) {
    using K = OperandKind;
    if (d.kind == K::IdResultType || d.kind == K::IdResult) continue;
    do {
      if (i >= count) return;
      if (isIdOperand(d.kind)) {
        f(i++);
      } else if (d.kind == K::PairIdRefIdRef) {
        f(i++);
        if (i < count) f(i++);
      } else if (isBitEnum(d.kind)) {
        return;
      } else if (d.kind == K::LiteralInteger || d.kind == K::LiteralExtInstInteger ||
                 isValueEnum(d.kind)) {
        ++i;
      } else {
        return rest(i);
      }
    } while (d.quantifier == Quantifier::Many);
  }
  rest(i);
}

// ---- Scopes and collectives ----

// The first operand (after result type and id) is the execution scope: barriers, group
// and non-uniform group operations, the group pipe operations, async copies.
bool hasExecutionScope(spv::Op op);

// Values move between the invocations of a group: the Group and Non-Uniform classes
// (shuffles, broadcasts, ballots, reductions, block reads), without the async copy and
// its wait, which move memory, and the group pipe reservations, whose result every
// invocation shares. Barriers are not: they move no value.
bool movesValuesBetweenLanes(spv::Op op);

// Instructions that order work across work-items through the device: pipes (their
// packets go to work-groups in order), device-side enqueue, named barriers.
bool ordersAcrossWorkItems(spv::Op op);

// ---- Arithmetic and data movement ----

// Integer division and remainder, whose zero divisor is undefined behaviour.
bool isIntegerDivision(spv::Op op);

// Operands read as signed integers (SPIR-V 2.16.2: "Signedness" of the opcode).
bool readsSignedOperands(spv::Op op);

// Copies bits from operands to the result without computing on them (composite
// extracts and inserts, shuffles, copies, bitcasts, OpExpectKHR).
bool copiesBits(spv::Op op);

// ---- Module layout ----

// The sections before debug information (SPIR-V 2.4: capabilities, extensions, imports,
// the memory model, entry points, execution modes).
bool precedesDebugSection(spv::Op op);

// The source instructions of the debug section: OpString, OpSource, OpSourceContinued,
// OpSourceExtension (what a producer's markers and a module's source text are).
bool isSourceInstruction(spv::Op op);

// Names and decorations: instructions that say something about an id, not define it.
bool annotatesId(spv::Op op);

// Types of which a module may declare only one with the same operands (SPIR-V 2.8:
// non-aggregate, non-pointer types); aliasing widths can make two of them equal.
bool mustBeUniqueType(spv::Op op);

// OpConstantComposite, OpSpecConstantComposite.
bool isConstantComposite(spv::Op op);

// OpSelectionMerge, OpLoopMerge.
bool isMergeInstruction(spv::Op op);

}  // namespace spvsim::spirv
