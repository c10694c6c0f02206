// OpenCL C memory layout of SPIR-V types (sizes, alignments, struct member offsets).
#pragma once

#include "spirv/module.h"

namespace spvsim::spirv {

// Fills size/align/memberOffsets of `type`, whose constituents are already laid out.
void computeLayout(const Module& module, Type& type);

// Bytes of the container that holds an integer of `bits` bits (1, 2, 4 or 8).
uint32_t intContainerBytes(uint32_t bits);

}  // namespace spvsim::spirv
