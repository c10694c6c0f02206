// Which pointer parameters a kernel may write through (src/exec/pointer_params.h).
// Conservative: any use it does not recognise as a read counts as a write.
#include "src/exec/pointer_params.h"

#include <spirv/unified1/OpenCL.std.h>

#include "spirv/opcode.h"

namespace spvsim {
namespace {

using spirv::Id;
using spv::Op;

bool isPointer(const spirv::Module& m, Id type) {
  return type && m.type(type).kind == spirv::TypeKind::Pointer;
}

// Instructions whose pointer result comes from pointer operands only.
bool derives(const spirv::ModuleFacts& facts, const spirv::Instruction& in) {
  if (in.opcode == Op::OpBitcast)
    return isPointer(facts.module(), facts.valueType(in.operands.at(0)));
  return spirv::derivesPointer(in.opcode);
}

// OpenCL.std instructions that only read through their pointer operands.
bool readingExtInst(const spirv::Module& m, const spirv::Instruction& in) {
  auto set = m.extInstImports.find(in.extSet());
  if (set == m.extInstImports.end() || set->second != "OpenCL.std") return false;
  using namespace OpenCLLIB;
  switch (in.extOpcode()) {
    case Vloadn:
    case Vload_half:
    case Vload_halfn:
    case Vloada_halfn:
    case Prefetch:
    case Printf:
      return true;
    default:
      return false;
  }
}

// Whether operand `i` of `in`, a pointer, is only read through.
bool onlyRead(const spirv::Module& m, const spirv::Instruction& in, size_t i) {
  switch (in.opcode) {
    case Op::OpLoad:
    case Op::OpAtomicLoad:
    case Op::OpSubgroupBlockReadINTEL:
      return i == 0;
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized:
      return i == 1;
    case Op::OpGroupAsyncCopy:  // scope, destination, source, ...
      return i == 2;
    case Op::OpPtrEqual:
    case Op::OpPtrNotEqual:
    case Op::OpPtrDiff:
    case Op::OpConvertPtrToU:
      return true;
    case Op::OpExtInst:
      return i >= 2 && readingExtInst(m, in);
    default:
      return false;
  }
}

}  // namespace

ParamSources::ParamSources(const spirv::Module& m, const spirv::Function& body) {
  for (size_t k = 0; k < body.params.size() && k < 64; ++k) {
    const spirv::Type& t = m.type(body.paramTypes[k]);
    if (t.kind == spirv::TypeKind::Pointer && t.storage == spv::StorageClass::CrossWorkgroup)
      from_[body.params[k]] = uint64_t(1) << k;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& b : body.blocks)
      for (const auto& in : b.instructions) {
        if (!in.result || !isPointer(m, in.resultType)) continue;
        uint64_t mask = 0;
        for (size_t i = 0; i < in.operands.size(); ++i)
          if (spirv::passesPointerOperand(in.opcode, i)) mask |= of(in.operands[i]);
        uint64_t& to = from_[in.result];
        if ((to | mask) != to) to |= mask, changed = true;
      }
  }
}

bool forgesSharedPointers(const spirv::ModuleFacts& facts, const spirv::Function& fn) {
  const spirv::Module& m = facts.module();
  for (const auto& b : fn.blocks)
    for (const auto& in : b.instructions) {
      if (!in.result || !isPointer(m, in.resultType)) continue;
      const spv::StorageClass s = m.type(in.resultType).storage;
      if ((s == spv::StorageClass::CrossWorkgroup || s == spv::StorageClass::Generic) &&
          !derives(facts, in))
        return true;
    }
  return false;
}

uint64_t writtenParams(const spirv::ModuleFacts& facts, const spirv::KernelFacts& kernel,
                       const spirv::Function& body,
                       const std::function<bool(const spirv::Instruction&)>& isDebugInfo) {
  const spirv::Module& m = facts.module();
  for (Id f : kernel.functions)
    if (const spirv::Function* fn = m.findFunction(f); fn && forgesSharedPointers(facts, *fn))
      return kAllParams;
  const ParamSources sources(m, body);
  uint64_t written = 0;
  for (size_t k = 64; k < body.params.size(); ++k) {
    const spirv::Type& t = m.type(body.paramTypes[k]);
    if (t.kind == spirv::TypeKind::Pointer && t.storage == spv::StorageClass::CrossWorkgroup)
      written = kAllParams;  // past the bit set: not followed
  }
  for (const auto& b : body.blocks)
    for (const auto& in : b.instructions) {
      if (isDebugInfo(in)) continue;
      spirv::forEachIdOperand(in.opcode, in.operands.size(), [&](size_t i) {
        const uint64_t mask = sources.of(in.operands[i]);
        if (!mask) return;
        const bool passes =
            spirv::passesPointerOperand(in.opcode, i) && in.result && isPointer(m, in.resultType);
        if (!passes && !onlyRead(m, in, i)) written |= mask;
      });
    }
  return written;
}

}  // namespace spvsim
