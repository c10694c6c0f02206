// Intra-object bounds: array indices of access chains checked against the array's
// length, for arrays inside an object (a struct member, a row of a multi-dimensional
// array, an array reached through a cast pointer), where an index past the end still
// lands inside the object and SubGroup::locate's per-object bounds cannot see it.
//
// What is undefined (OpenCL C 6.0 follows C99 6.5.6p8): pointer arithmetic that leaves
// an array object, except to one past its last element, and dereferencing one past the
// end. SPIR-V's OpInBoundsAccessChain states the same of its result ("known to point
// within the base object"). So an index i into T[N] is reported when i < 0 or i > N,
// and when i == N unless the pointer formed is only compared or moved on (a pointer
// whose every use is a load, store, atomic or memory copy dereferences the element,
// Lowerer::onlyDereferenced) or further indices move it past the end again.
//
// Reported once: at the access chain when the pointer it forms is still inside the
// memory object (the object's own bounds check cannot catch it), and not there when it
// is outside the object, where the access through it is the one reported (as for every
// buffer). Only access chains that index arrays carry the check (decided at lowering);
// every other access chain runs the unchecked handlers unchanged.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "src/exec/lowering.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

// The checked array indices of one access chain, as lowering collects them. The words
// at Inst::aux2: [count, pointeeBytes, (indexReg, indexBytes, lengthLo, lengthHi,
// allowEnd, arrayType)*].
struct ArrayIndexChecks {
  struct Check {
    spirv::Id index = 0;
    spirv::Id arrayType = 0;
    uint64_t length = 0;
    bool last = false;  // no index after it moves the pointer (only constant zeros)
  };
  std::vector<Check> checks;

  // Records index `index` into the array type `arrayType` when it may be out of bounds
  // (a dynamic index, or a constant outside 0..length-1).
  void add(Lowerer& lw, spirv::Id index, spirv::Id arrayType);
  // Called for every index (struct member or array) before add(): one that moves the
  // pointer (a dynamic index, a non-zero offset) takes one past the end of an earlier
  // array further, which is then no longer just "the end".
  void moved(bool moves) {
    if (moves)
      for (Check& c : checks) c.last = false;
  }
  bool empty() const { return checks.empty(); }
  // The extra-pool index of the checks' words for `result` (the access chain's result
  // id); none when no index can fail.
  std::optional<uint32_t> emit(Lowerer& lw, spirv::Id result);
};

// Index register value of `bytes` bytes, sign-extended (SPIR-V indices are signed).
inline int64_t signedIndex(const uint8_t* at, uint32_t bytes) {
  switch (bytes) {
    case 1:
      return int8_t(at[0]);
    case 2: {
      int16_t v;
      std::memcpy(&v, at, 2);
      return v;
    }
    case 4: {
      int32_t v;
      std::memcpy(&v, at, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, at, 8);
      return v;
    }
  }
}

// Checks the active lanes' indices of a checked access chain whose result is computed.
void checkArrayIndices(SubGroup& sg, const Inst& in);

// The access chain handler `Base` followed by the index check.
template <ExecFn Base>
void checkedAccessChain(SubGroup& sg, const Inst& in) {
  Base(sg, in);
  checkArrayIndices(sg, in);
}

}  // namespace spvsim::ops
