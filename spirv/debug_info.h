// Source-level variables from OpenCL.DebugInfo.100: which SPIR-V id holds each named
// local variable, parameter or program-scope variable, so that a debugger can print
// variables by their OpenCL C names.
#pragma once

#include <string>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

struct DebugVariable {
  enum class Binding {
    Address,  // DebugDeclare / DebugGlobalVariable: `id` is the address of its storage
    Value,    // DebugValue: `id` is the variable's value from instruction `index` on
  };
  std::string name;
  Id function = 0;  // the OpFunction whose scope declares it; 0: module scope or unknown
  Id id = 0;
  Binding binding = Binding::Address;
  uint32_t index = 0;     // the binding instruction's Instruction::index
  bool isSigned = false;  // its (element, pointee) type is a signed integer in the source
  std::string typeName;   // the source type as debug info names it ("int", "uint4"), or ""
  // DebugLocalVariable's ArgNumber: which parameter of its function (from 1) the variable
  // is; 0 for other variables.
  uint32_t argNumber = 0;
};

// Every variable bound by DebugDeclare, DebugValue or DebugGlobalVariable, in binary
// order; empty when the module has no OpenCL.DebugInfo.100 instructions.
std::vector<DebugVariable> debugVariables(const Module& module);

}  // namespace spvsim::spirv
