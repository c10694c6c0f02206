#include "spirv/opcode.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "spirv/instruction_info.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

// The operation of each Atomic-class opcode: the one fact about atomics the grammar does
// not state. opcode_test.cc checks that every opcode of the grammar's Atomic class has one.
AtomicOperation operationOf(Op op) {
  switch (op) {
    case Op::OpAtomicLoad:
      return AtomicOperation::Load;
    case Op::OpAtomicStore:
      return AtomicOperation::Store;
    case Op::OpAtomicExchange:
      return AtomicOperation::Exchange;
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
      return AtomicOperation::CompareExchange;
    case Op::OpAtomicIIncrement:
      return AtomicOperation::IIncrement;
    case Op::OpAtomicIDecrement:
      return AtomicOperation::IDecrement;
    case Op::OpAtomicIAdd:
      return AtomicOperation::IAdd;
    case Op::OpAtomicISub:
      return AtomicOperation::ISub;
    case Op::OpAtomicSMin:
      return AtomicOperation::SMin;
    case Op::OpAtomicUMin:
      return AtomicOperation::UMin;
    case Op::OpAtomicSMax:
      return AtomicOperation::SMax;
    case Op::OpAtomicUMax:
      return AtomicOperation::UMax;
    case Op::OpAtomicAnd:
      return AtomicOperation::And;
    case Op::OpAtomicOr:
      return AtomicOperation::Or;
    case Op::OpAtomicXor:
      return AtomicOperation::Xor;
    case Op::OpAtomicFAddEXT:
      return AtomicOperation::FAdd;
    case Op::OpAtomicFMinEXT:
      return AtomicOperation::FMin;
    case Op::OpAtomicFMaxEXT:
      return AtomicOperation::FMax;
    case Op::OpAtomicFlagTestAndSet:
      return AtomicOperation::FlagTestAndSet;
    case Op::OpAtomicFlagClear:
      return AtomicOperation::FlagClear;
    default:  // an atomic opcode the grammar gained: executing it fails, naming it
      return AtomicOperation::Unknown;
  }
}

using AtomicForms = std::array<AtomicForm, std::size(grammar::kAtomicOperands)>;

// The generated operand positions (sorted by opcode) joined with operationOf.
AtomicForms makeAtomicForms() {
  AtomicForms forms{};
  for (size_t k = 0; k < forms.size(); ++k) {
    const grammar::AtomicOperandsRow& r = grammar::kAtomicOperands[k];
    const Op op = static_cast<Op>(r.opcode);
    forms[k] = {op,          operationOf(op), r.pointer, r.scope,
                r.semantics, r.unequal,       r.value,   r.comparator};
  }
  return forms;
}

const AtomicForms& atomicFormsTable() {
  static const AtomicForms forms = makeAtomicForms();  // immutable once built
  return forms;
}

bool inClass(Op op, InstructionClass c) { return instructionClass(op) == c; }

bool hasFlag(Op op, uint8_t flag) {
  const grammar::InstructionRow* row = findInstruction(op);
  return row && (row->flags & flag);
}

}  // namespace

InstructionClass instructionClass(Op op) {
  const grammar::InstructionRow* row = findInstruction(op);
  return row ? row->cls : InstructionClass::None;
}

std::span<const AtomicForm> atomicForms() { return atomicFormsTable(); }

const AtomicForm* atomicForm(Op op) {
  const AtomicForms& forms = atomicFormsTable();
  auto it = std::lower_bound(forms.begin(), forms.end(), op,
                             [](const AtomicForm& f, Op o) { return f.op < o; });
  return it != forms.end() && it->op == op ? &*it : nullptr;
}

bool isIntegerRmw(AtomicOperation operation) {
  return operation >= AtomicOperation::IIncrement && operation <= AtomicOperation::Xor;
}

bool isFloatRmw(AtomicOperation operation) {
  return operation >= AtomicOperation::FAdd && operation <= AtomicOperation::FMax;
}

size_t dereferencedPointers(Op op) {
  if (op == Op::OpLoad || op == Op::OpStore) return 1;
  if (op == Op::OpCopyMemory || op == Op::OpCopyMemorySized) return 2;
  const AtomicForm* atomic = atomicForm(op);
  return atomic && atomic->pointer == 0 ? 1 : 0;
}

bool isAccessChain(Op op) {
  return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain || op == Op::OpPtrAccessChain ||
         op == Op::OpInBoundsPtrAccessChain;
}

bool passesPointerOperand(Op op, size_t operand) {
  if (isAccessChain(op)) return operand == 0;
  switch (op) {
    case Op::OpBitcast:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit:
    case Op::OpCopyObject:
      return operand == 0;
    case Op::OpSelect:
      return operand == 1 || operand == 2;
    case Op::OpPhi:
      return operand % 2 == 0;
    default:
      return false;
  }
}

bool derivesPointer(Op op) {
  return op == Op::OpSelect || (op != Op::OpBitcast && passesPointerOperand(op, 0));
}

bool hasExecutionScope(Op op) { return hasFlag(op, grammar::kExecutionScope); }

bool movesValuesBetweenLanes(Op op) {
  if (op == Op::OpGroupAsyncCopy || op == Op::OpGroupWaitEvents) return false;
  const InstructionClass c = instructionClass(op);
  if (c == InstructionClass::Group || c == InstructionClass::NonUniform) return true;
  return c == InstructionClass::Pipe && hasExecutionScope(op);
}

bool ordersAcrossWorkItems(Op op) {
  const InstructionClass c = instructionClass(op);
  return c == InstructionClass::Pipe || c == InstructionClass::DeviceSideEnqueue ||
         op == Op::OpNamedBarrierInitialize || op == Op::OpMemoryNamedBarrier;
}

bool isIntegerDivision(Op op) {
  return op == Op::OpSDiv || op == Op::OpUDiv || op == Op::OpSRem || op == Op::OpSMod ||
         op == Op::OpUMod;
}

bool readsSignedOperands(Op op) {
  switch (op) {
    case Op::OpSConvert:
    case Op::OpSDiv:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpSLessThan:
    case Op::OpSLessThanEqual:
    case Op::OpSGreaterThan:
    case Op::OpSGreaterThanEqual:
    case Op::OpShiftRightArithmetic:
    case Op::OpConvertSToF:
    case Op::OpSatConvertSToU:
      return true;
    default:
      return false;
  }
}

bool copiesBits(Op op) {
  switch (op) {
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpCompositeConstruct:
    case Op::OpVectorShuffle:
    case Op::OpCopyObject:
    case Op::OpCopyLogical:
    case Op::OpExpectKHR:
    case Op::OpBitcast:
      return true;
    default:
      return false;
  }
}

bool precedesDebugSection(Op op) {
  if (op == Op::OpExtInst) return false;  // class Extension too, but inside functions
  return inClass(op, InstructionClass::ModeSetting) || inClass(op, InstructionClass::Extension);
}

bool isSourceInstruction(Op op) {
  return op == Op::OpString || op == Op::OpSource || op == Op::OpSourceContinued ||
         op == Op::OpSourceExtension;
}

bool annotatesId(Op op) {
  if (op == Op::OpName || op == Op::OpMemberName) return true;  // class Debug
  return inClass(op, InstructionClass::Annotation) && op != Op::OpDecorationGroup &&
         op != Op::OpGroupDecorate && op != Op::OpGroupMemberDecorate;
}

bool mustBeUniqueType(Op op) {
  switch (op) {
    case Op::OpTypeVoid:
    case Op::OpTypeBool:
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
    case Op::OpTypeVector:
    case Op::OpTypeFunction:
      return true;
    default:
      return false;
  }
}

bool isConstantComposite(Op op) {
  return op == Op::OpConstantComposite || op == Op::OpSpecConstantComposite;
}

bool isMergeInstruction(Op op) { return op == Op::OpLoopMerge || op == Op::OpSelectionMerge; }

}  // namespace spvsim::spirv
