#include "spirv/call_graph.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>

#include "spirv/disassembly.h"
#include "spirv/text.h"

namespace spvsim::spirv {
namespace {

// Each function's callees, once each, in the order of their first call; calls to ids
// that name no function are left out (lowering names them when a kernel reaches one).
std::vector<std::vector<size_t>> calleesOf(const Module& m) {
  std::vector<std::vector<size_t>> out(m.functions.size());
  std::vector<size_t> listedFor(m.functions.size(), SIZE_MAX);  // the caller it was listed for
  for (size_t f = 0; f < m.functions.size(); ++f)
    for (const Block& b : m.functions[f].blocks)
      for (const Instruction& i : b.instructions) {
        if (i.opcode != spv::Op::OpFunctionCall || i.operands.empty()) continue;
        auto callee = m.functionIndex.find(i.operands[0]);
        if (callee == m.functionIndex.end() || listedFor[callee->second] == f) continue;
        listedFor[callee->second] = f;
        out[f].push_back(callee->second);
      }
  return out;
}

}  // namespace

std::optional<CallCycle> findCallCycle(const Module& m) {
  const std::vector<std::vector<size_t>> callees = calleesOf(m);
  // Depth-first, with an explicit stack (a module may nest calls deeper than the host's
  // stack). A function left Done reaches no cycle, so later entry points skip it.
  enum class State : uint8_t { Unseen, OnPath, Done };
  std::vector<State> state(m.functions.size(), State::Unseen);
  struct Frame {
    size_t function;
    size_t next = 0;  // index into callees[function]
  };
  for (const EntryPoint& ep : m.entryPoints) {
    auto start = m.functionIndex.find(ep.function);
    if (start == m.functionIndex.end() || state[start->second] != State::Unseen) continue;
    std::vector<Frame> path{{start->second}};
    state[start->second] = State::OnPath;
    while (!path.empty()) {
      Frame& top = path.back();
      if (top.next == callees[top.function].size()) {
        state[top.function] = State::Done;
        path.pop_back();
        continue;
      }
      const size_t callee = callees[top.function][top.next++];
      if (state[callee] == State::Done) continue;
      if (state[callee] == State::OnPath) {
        CallCycle cycle{&ep, {}};
        auto from = std::find_if(path.begin(), path.end(),
                                 [&](const Frame& f) { return f.function == callee; });
        for (auto it = from; it != path.end(); ++it)
          cycle.functions.push_back(m.functions[it->function].id);
        cycle.functions.push_back(m.functions[callee].id);
        return cycle;
      }
      state[callee] = State::OnPath;
      path.push_back({callee});
    }
  }
  return std::nullopt;
}

std::string recursionMessage(const Module& m, const CallCycle& cycle) {
  const auto names = friendlyNames(m);
  std::string chain;
  for (Id id : cycle.functions) {
    auto it = names.find(id);
    chain +=
        (chain.empty() ? "%" : " -> %") + (it == names.end() ? std::to_string(id) : it->second);
  }
  return fmt::format(
      "recursion is not allowed (OpenCL C 6.11: \"Recursion is not supported\"; OpenCL SPIR-V "
      "Environment 4, Validation Rules: \"The static function call graph for an entry point "
      "must not contain cycles\"): {} (kernel {})",
      chain, escapeText(cycle.entryPoint->name, kQuotedNameBytes));
}

}  // namespace spvsim::spirv
