// Physical32 modules: where a pointer's 32 bits show (src/exec/address32.h). Registers
// hold pointers in the 64-bit encoding in every module; lowering routes only these
// instructions of Physical32 modules here, so the handlers of 64-bit modules (and every
// other instruction of 32-bit ones) are unchanged.
#pragma once

#include "src/exec/lane_mask.h"
#include "src/exec/lowering.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

// OpLoad of a pointer (4 bytes of memory into an encoded register) and OpStore of one.
void lowerPointerLoad32(Lowerer& lw, const spirv::Instruction& inst, uint32_t align);
void lowerPointerStore32(Lowerer& lw, const spirv::Instruction& inst, uint32_t align);

// OpConvertPtrToU, OpConvertUToPtr; OpBitcast between a pointer and an integer.
void lowerPtrToU32(Lowerer& lw, const spirv::Instruction& inst);
void lowerUToPtr32(Lowerer& lw, const spirv::Instruction& inst);
// Whether `inst` is an OpBitcast between a pointer and a non-pointer (then lowered here).
bool lowerPointerBitcast32(Lowerer& lw, const spirv::Instruction& inst);

// Composite instructions that move a pointer into or out of a struct or array value
// (whose register holds the memory layout, pointers as 32-bit addresses): the pointer
// member at byte `offset` of the composite.
void lowerPointerExtract32(Lowerer& lw, const spirv::Instruction& inst, uint64_t offset);
void lowerPointerInsert32(Lowerer& lw, const spirv::Instruction& inst, uint64_t offset);
// OpCompositeConstruct; false where no constituent is a pointer (the ordinary lowering).
bool lowerConstruct32(Lowerer& lw, const spirv::Instruction& inst);

// OpPtrDiff: the difference of the two 32-bit addresses, in elements.
void lowerPtrDiff32(Lowerer& lw, const spirv::Instruction& inst);

// A store's own handler, run by the pointer store above (src/exec/ops/load_store.cc).
void storeThroughMemory(SubGroup& sg, const Inst& in);

// One instruction's pointer -> 32-bit address conversions: lanes whose address does not
// lead back to their pointer are reported once (a `pointer-conversion` warning); a
// pointer whose object has no 32-bit address stops the work-group (`unsupported`).
class AddressConversion {
 public:
  explicit AddressConversion(SubGroup& sg);
  uint32_t convert(uint32_t lane, uint64_t p);
  // Reports; false when the work-group was stopped (the result must not be used).
  bool report(const Inst& in);

 private:
  SubGroup& sg_;
  const Address32Map& map_;
  LaneMask inexact_, unplaced_;
  uint64_t inexactPointer_ = 0, unplacedPointer_ = 0;
  uint32_t inexactValue_ = 0;
};

}  // namespace spvsim::ops
