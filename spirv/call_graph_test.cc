#include "spirv/call_graph.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

// A module of void() functions: `calls` maps each function's name to the ones it calls
// (in order), `kernels` names the entry points (also functions of `calls`).
std::vector<uint32_t> moduleOf(const std::vector<std::string>& kernels,
                               const std::map<std::string, std::vector<std::string>>& calls) {
  std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
)";
  for (const std::string& k : kernels) text += "OpEntryPoint Kernel %" + k + " \"" + k + "\"\n";
  for (const auto& [f, callees] : calls) text += "OpName %" + f + " \"" + f + "\"\n";
  text += "%void = OpTypeVoid\n%vfn = OpTypeFunction %void\n";
  int label = 0;
  for (const auto& [f, callees] : calls) {
    text += "%" + f + " = OpFunction %void None %vfn\n";
    text += "%l" + std::to_string(label++) + " = OpLabel\n";
    int n = 0;
    for (const std::string& c : callees)
      text += "%" + f + "_c" + std::to_string(n++) + " = OpFunctionCall %void %" + c + "\n";
    text += "OpReturn\nOpFunctionEnd\n";
  }
  return assemble(text);
}

std::vector<std::string> namesOf(const Module& m, const CallCycle& c) {
  std::vector<std::string> out;
  for (Id id : c.functions) out.push_back(m.names.at(id));
  return out;
}

Module loadedAllowingRecursion(const std::vector<uint32_t>& words) {
  LoadOptions o;
  o.refuseRecursion = false;
  return loadModule(words, o);
}

TEST(CallGraph, DirectRecursionIsACycleOfOne) {
  const Module m = loadedAllowingRecursion(moduleOf({"k"}, {{"k", {"sum"}}, {"sum", {"sum"}}}));
  const std::optional<CallCycle> c = findCallCycle(m);
  ASSERT_TRUE(c);
  EXPECT_EQ(namesOf(m, *c), (std::vector<std::string>{"sum", "sum"}));
  EXPECT_EQ(c->entryPoint->name, "k");
}

TEST(CallGraph, MutualRecursionNamesTheCycleInCallOrder) {
  // k -> helper -> a -> b -> c -> a: the cycle is a, b, c (not the path into it).
  const Module m = loadedAllowingRecursion(moduleOf(
      {"k"}, {{"k", {"helper"}}, {"helper", {"a"}}, {"a", {"b"}}, {"b", {"c"}}, {"c", {"a"}}}));
  const std::optional<CallCycle> c = findCallCycle(m);
  ASSERT_TRUE(c);
  EXPECT_EQ(namesOf(m, *c), (std::vector<std::string>{"a", "b", "c", "a"}));
  EXPECT_EQ(recursionMessage(m, *c),
            "recursion is not allowed (OpenCL C 6.11: \"Recursion is not supported\"; OpenCL "
            "SPIR-V Environment 4, Validation Rules: \"The static function call graph for an "
            "entry point must not contain cycles\"): %a -> %b -> %c -> %a (kernel k)");
}

TEST(CallGraph, SharedCalleesAreNoCycle) {
  // A diamond, a function called twice, two kernels calling the same helpers.
  const Module m = loadedAllowingRecursion(moduleOf(
      {"k1", "k2"},
      {{"k1", {"a", "b", "a"}}, {"k2", {"b", "d"}}, {"a", {"d", "d"}}, {"b", {"d"}}, {"d", {}}}));
  EXPECT_FALSE(findCallCycle(m));
}

// The rule is about an entry point's call graph: functions no kernel reaches never run.
TEST(CallGraph, CyclesNoEntryPointReachesAreAllowed) {
  const auto words = moduleOf({"k"}, {{"k", {"a"}}, {"a", {}}, {"x", {"y"}}, {"y", {"x"}}});
  EXPECT_FALSE(findCallCycle(loadedAllowingRecursion(words)));
  EXPECT_NO_THROW(loadModule(words));
}

TEST(CallGraph, TheFirstKernelInModuleOrderThatReachesACycleIsNamed) {
  const Module m = loadedAllowingRecursion(
      moduleOf({"plain", "second", "third"},
               {{"plain", {"a"}}, {"second", {"r"}}, {"third", {"r"}}, {"a", {}}, {"r", {"r"}}}));
  const std::optional<CallCycle> c = findCallCycle(m);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entryPoint->name, "second");
}

// A chain k -> f1 -> ... -> f<depth>, decoded by hand (SPIRV-Tools' validator takes
// minutes over such a module: its own recursion check is quadratic); the last function
// calls `last` (0: nothing).
Module chainOf(uint32_t depth, Id last) {
  Module m;
  for (Id id = 0; id <= depth; ++id) {  // id 0 is the kernel: ids are 1 + index
    Function f;
    f.id = id + 1;
    Instruction call;
    call.opcode = spv::Op::OpFunctionCall;
    call.operands = {id < depth ? id + 2 : last};
    f.blocks.push_back(Block{1000000 + id, {call}});
    if (id == depth && !last) f.blocks[0].instructions.clear();
    m.functionIndex[f.id] = m.functions.size();
    m.functions.push_back(std::move(f));
  }
  EntryPoint k;
  k.name = "k";
  k.function = 1;
  m.entryPoints.push_back(k);
  return m;
}

// The search keeps its own stack: a chain far deeper than recursive C++ could walk on
// the host's stack, with and without a cycle at its end.
TEST(CallGraph, DeepChainsDoNotExhaustTheHostStack) {
  constexpr uint32_t kDepth = 1000000;
  EXPECT_FALSE(findCallCycle(chainOf(kDepth, 0)));
  const std::optional<CallCycle> c = findCallCycle(chainOf(kDepth, 2));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->functions.size(), size_t(kDepth) + 1);  // f1 .. f<depth>, f1
  EXPECT_EQ(c->functions.front(), 2u);
  EXPECT_EQ(c->functions.back(), 2u);
}

TEST(CallGraph, TheLoaderRefusesARecursiveModule) {
  const auto words =
      moduleOf({"k"}, {{"k", {"is_even"}}, {"is_even", {"is_odd"}}, {"is_odd", {"is_even"}}});
  try {
    loadModule(words);
    FAIL() << "a recursive module loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidModule);
    EXPECT_NE(std::string(e.what()).find(": %is_even -> %is_odd -> %is_even (kernel k)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace spvsim::spirv
