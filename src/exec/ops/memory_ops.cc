// The memory instructions' entries in the op table (src/exec/ops/memory_ops.h says which
// file lowers which).
#include "src/exec/ops/memory_ops.h"

namespace spvsim {

using spv::Op;

void registerMemoryOps(OpTable& t) {
  t.core[uint32_t(Op::OpLoad)] = &ops::lowerLoad;
  t.core[uint32_t(Op::OpStore)] = &ops::lowerStore;
  t.core[uint32_t(Op::OpVariable)] = &ops::lowerVariable;
  t.core[uint32_t(Op::OpAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    ops::lowerAccessChain(lw, i, false);
  };
  t.core[uint32_t(Op::OpInBoundsAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    ops::lowerAccessChain(lw, i, false);
  };
  t.core[uint32_t(Op::OpPtrAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    ops::lowerAccessChain(lw, i, true);
  };
  t.core[uint32_t(Op::OpInBoundsPtrAccessChain)] = [](Lowerer& lw, const spirv::Instruction& i) {
    ops::lowerAccessChain(lw, i, true);
  };
  t.core[uint32_t(Op::OpCopyMemory)] = &ops::lowerCopyMemory;
  t.core[uint32_t(Op::OpCopyMemorySized)] = &ops::lowerCopyMemorySized;
}

}  // namespace spvsim
