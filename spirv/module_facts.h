// Facts about a loaded module that every kernel's lowering and the front ends need,
// computed once per module so that preparing N kernels costs O(N), not O(N^2): which
// functions and module-scope variables each kernel's call tree uses, the type of every
// value, debug-info variables, and (on first use) the text of every instruction.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "spirv/debug_info.h"
#include "spirv/module.h"

namespace spvsim::spirv {

// What one kernel's call tree uses.
struct KernelFacts {
  // The entry function first, then every function it reaches through OpFunctionCall
  // (each once, in the order a depth-first walk finds them).
  std::vector<Id> functions;
  // Module-scope variables the call tree names, or whose addresses the constants it
  // names and those variables' initializers hold; in declaration order.
  std::vector<Id> variables;
  // Those of `variables` in Workgroup storage (OpenCL C `__local` variables).
  std::vector<Id> workgroupVariables;
  uint64_t workgroupBytes = 0;  // their pointee sizes, summed (no alignment padding)
  // The pointee sizes of the call tree's Function variables, summed: an upper bound on
  // a work-item's private memory.
  uint64_t functionVariableBytes = 0;
};

class ModuleFacts {
 public:
  // `module` must outlive the facts. Throws Error(DiagnosticKind::InvalidModule) for words the
  // binary parser rejects (a loaded module never has them).
  explicit ModuleFacts(const Module& module);
  ModuleFacts(const ModuleFacts&) = delete;
  ModuleFacts& operator=(const ModuleFacts&) = delete;

  const Module& module() const { return module_; }

  // The entry point named `name`, or nullptr.
  const EntryPoint* findEntryPoint(std::string_view name) const;
  // Facts of an entry point of this module (one of module().entryPoints).
  const KernelFacts& kernel(const EntryPoint& entry) const;

  // The type id of a value: a constant, module-scope variable, function parameter or
  // instruction result; 0 for ids that have no type.
  Id valueType(Id id) const {
    auto it = valueTypes_.find(id);
    return it == valueTypes_.end() ? 0 : it->second;
  }

  // Every debug-info variable (spirv/debug_info.h), in binary order.
  const std::vector<DebugVariable>& debugVariables() const { return debugVariables_; }
  // Indices into debugVariables() of those bound to `id` (ascending).
  const std::vector<uint32_t>& debugVariablesOf(Id id) const;

  // By Instruction::index: the instruction's disassembly (ids named as `spvsim dis` names
  // them) and its source position "file:line"; "" where there is none. Computed for the
  // whole module on first use (thread-safe): only messages and the debugger need them.
  const std::string& instructionText(uint32_t index) const;
  const std::string& instructionLine(uint32_t index) const;

  // Whether the OpLoad at Instruction::index `index` only reads back what it stores
  // again (spirv/read_back_loads.h). Computed for the whole module on first use
  // (thread-safe): only the report of a read the creation flags forbid asks.
  bool readsBack(uint32_t index) const;

  // An id as messages name it, the way `spvsim dis` does: "%uint", "%in", or "%42" for an
  // id without a friendly name (src/DESIGN.md "Names of ids").
  std::string idName(Id id) const;
  // The id `spvsim dis` names "%NAME" (`name` without '%'), or 0.
  Id idNamed(std::string_view name) const;

 private:
  // What one function uses directly.
  struct FunctionUses {
    std::vector<Id> callees;
    std::vector<Id> variables;  // module-scope variables, incl. through constants' addresses
    uint64_t functionVariableBytes = 0;
  };

  void collectValueTypes();
  void collectFunctionUses();
  void noteUse(Id id, FunctionUses& uses) const;
  KernelFacts kernelFacts(const EntryPoint& entry) const;
  void addVariableClosure(Id variable, std::unordered_map<Id, bool>& seen,
                          std::vector<Id>& out) const;
  void computeText() const;

  const Module& module_;
  std::unordered_map<Id, Id> valueTypes_;
  std::unordered_map<Id, FunctionUses> functionUses_;
  std::unordered_map<std::string, size_t> entryPointByName_;
  std::vector<KernelFacts> kernels_;  // by index into module().entryPoints
  std::vector<DebugVariable> debugVariables_;
  std::unordered_map<Id, std::vector<uint32_t>> debugVariablesById_;

  mutable std::once_flag readBacksOnce_;
  mutable std::vector<uint32_t> readBacks_;  // sorted instruction indices
  mutable std::once_flag textOnce_;
  mutable std::vector<std::string> text_;
  mutable std::vector<std::string> lines_;
  mutable std::unordered_map<Id, std::string> names_;  // friendlyNames(), by id
  mutable std::unordered_map<std::string, Id> ids_;    // and by name
};

}  // namespace spvsim::spirv
