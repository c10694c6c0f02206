// What OpPtrDiff's handlers (64-bit: pointer_ops.cc; 32-bit modules: pointer32.cc) share.
#pragma once

#include <cstdint>

#include "src/exec/memory.h"

namespace spvsim {

// Whether pointers `a` and `b` point into different memory objects, so that their
// difference is undefined (SPIR-V OpPtrDiff; C99 6.5.6p9). Two regions over one storage
// (a buffer bound to two arguments, a sub-buffer and its parent) are one object; raw SVM
// addresses count as their allocations.
bool intoDifferentObjects(const MemoryMap& memory, uint64_t a, uint64_t b);

}  // namespace spvsim
