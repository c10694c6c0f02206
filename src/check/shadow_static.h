// Which values of a launch can never be undefined (`--check-undefined`), worked out once
// before it runs, so that instrumentKernel (src/check/shadow_kernel.h) leaves the handlers
// of instructions whose rules could only ever write zero shadows and report nothing as
// lowered. Most of a typical kernel computes on built-ins, arguments and buffers the host
// initialised: its instructions then run at the executor's speed with the checker on.
//
// A value may be undefined ("maybe") where its rule could make it so from defined operands
// (OpUndef constants and composites with undefined parts, OpVectorShuffle's 0xFFFFFFFF
// components, sub-group shuffles and broadcasts, whose source lane may be inactive or out of
// range), where it is read from memory that has a shadow (private, local and generic
// memory; global and constant memory only where the launch binds a buffer the host never
// initialised: Region::uninitialized; built-ins never), or where an operand it depends on
// may be: through rules::propagate and friends, phis, call arguments and return values.
// The analysis covers the functions the launch runs (its entry, and what that calls): the
// entry's parameters are defined (the host's arguments). The analysis is a fixed point over the
// module's functions, monotone (a value only ever becomes "maybe"), so it ends.
//
// Skipping a rule is exact, not an approximation: a value's shadow register is only written
// by its own instruction (one register per id, zeroed at each work-group start), so a rule
// that would only ever write zeroes and find nothing to report changes nothing when left out.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spirv/module.h"
#include "spirv/module_facts.h"
#include "src/check/shadow_kernel.h"

namespace spvsim::check {

class MaybeUndefined {
 public:
  struct Launch {
    spirv::Id entry = 0;          // the launch's entry function
    bool globalShadow = false;    // a global buffer the host never initialised is bound
    bool constantShadow = false;  // the same for constant memory
    std::unordered_set<spirv::Id> undefinedConstants;  // constants with undefined bytes
  };
  // `rules`: the rule built for each instruction (by Instruction::index) of the lowered
  // kernel, before any is left out.
  MaybeUndefined(const spirv::Module& m, const spirv::ModuleFacts& facts, Launch launch,
                 const std::unordered_map<uint32_t, const ShadowRule*>& rules);

  // Whether `inst`'s rule `r` can change a shadow or report anything in this launch.
  bool needed(const spirv::Instruction& inst, const ShadowRule& r) const;

  bool value(spirv::Id id) const { return id < maybe_.size() && maybe_[id]; }
  // Whether the memory pointer `id` names may hold undefined bytes, by its storage class.
  bool memory(spirv::Id pointer) const;

 private:
  bool set(spirv::Id id, bool maybe);
  bool result(const spirv::Instruction& inst, const ShadowRule* r) const;
  bool anyOperand(const ShadowRule& r) const;
  bool anyUse(const ShadowRule& r) const;
  bool edgesNeeded(const spirv::Instruction& inst) const;
  bool sweep(const std::unordered_map<uint32_t, const ShadowRule*>& rules);

  const spirv::Module& m_;
  const spirv::ModuleFacts& facts_;
  Launch launch_;
  std::vector<uint8_t> maybe_;                        // by id
  std::unordered_set<spirv::Id> reached_;             // the entry and what it calls
  std::unordered_map<spirv::Id, bool> returns_;       // function -> a return value may be
  std::unordered_map<spirv::Id, bool> phis_;          // block label -> a phi of it may be
  std::unordered_map<uint32_t, spirv::Id> function_;  // Instruction::index -> its function
};

}  // namespace spvsim::check
