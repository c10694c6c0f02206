// The static call graph (OpFunctionCall edges) of a module and the OpenCL rule that it
// has no cycles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// A cycle of calls that an entry point reaches: `functions` in call order, the first
// one repeated at the end (f -> g -> f is {f, g, f}; f calling itself {f, f}).
struct CallCycle {
  const EntryPoint* entryPoint = nullptr;  // the first, in module order, that reaches it
  std::vector<Id> functions;
};

// The first cycle found from the entry points in module order (calls in binary order),
// or nullopt. A cycle that no entry point reaches is none: the rule is about an entry
// point's call graph, and such functions never run.
std::optional<CallCycle> findCallCycle(const Module& module);

// "recursion is not allowed (...): %sum -> %sum (kernel "k")": the rule, where the
// specifications state it, and the cycle with ids named as `spvsim dis` names them.
std::string recursionMessage(const Module& module, const CallCycle& cycle);

}  // namespace spvsim::spirv
