// spirv::readBackLoads: which loads only put their components back where they came from
// (the compiler's half of a component store), and which are reads of the kernel's.
#include "spirv/read_back_loads.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

// One kernel per case; each case's load is named after it (%back_*: read back, %read_*:
// a read of the kernel's).
const char* kCases = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %back_insert "back_insert"
               OpName %back_shuffle "back_shuffle"
               OpName %back_phi "back_phi"
               OpName %back_recast "back_recast"
               OpName %back_select "back_select"
               OpName %read_elsewhere "read_elsewhere"
               OpName %read_extract "read_extract"
               OpName %read_moved "read_moved"
               OpName %read_phi_in_loop "read_phi_in_loop"
               OpName %read_dead "read_dead"
               OpName %read_inserted "read_inserted"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %float4 = OpTypeVector %float 4
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
   %float_42 = OpConstant %float 42
  %undef4 = OpUndef %float4
       %ptr4 = OpTypePointer CrossWorkgroup %float4
      %ptrf = OpTypePointer CrossWorkgroup %float
     %kernel = OpTypeFunction %void %ptr4 %ptr4 %bool %uint
          %k = OpFunction %void None %kernel
          %p = OpFunctionParameter %ptr4
          %q = OpFunctionParameter %ptr4
          %c = OpFunctionParameter %bool
          %n = OpFunctionParameter %uint
      %entry = OpLabel
; v.x = 42: load, insert, store back.
%back_insert = OpLoad %float4 %p
         %i1 = OpCompositeInsert %float4 %float_42 %back_insert 0
               OpStore %p %i1
; v.yz = (42, 42) as a shuffle with a constant, in place.
%back_shuffle = OpLoad %float4 %p
         %s1 = OpVectorShuffle %float4 %back_shuffle %undef4 0 5 6 3
               OpStore %p %s1
; The pointer computed twice from the same operands (clang -O0's two casts).
        %pa = OpInBoundsPtrAccessChain %ptr4 %p %ulong_1
        %pb = OpInBoundsPtrAccessChain %ptr4 %p %ulong_1
%back_recast = OpLoad %float4 %pa
         %r1 = OpCompositeInsert %float4 %float_42 %back_recast 1
               OpStore %pb %r1
; Chosen against another value: observes nothing.
%back_select = OpLoad %float4 %p
         %c1 = OpSelect %float4 %c %back_select %undef4
               OpStore %p %c1
; Stored somewhere else: a copy, the kernel's read.
%read_elsewhere = OpLoad %float4 %p
               OpStore %q %read_elsewhere
; A component used.
%read_extract = OpLoad %float4 %p
         %e1 = OpCompositeExtract %float %read_extract 1
         %e2 = OpCompositeInsert %float4 %e1 %read_extract 0
               OpStore %p %e2
; Components moved: y to x.
%read_moved = OpLoad %float4 %p
         %m1 = OpVectorShuffle %float4 %read_moved %undef4 1 1 2 3
               OpStore %p %m1
; Loaded but never stored: not a read-back (nothing to exempt).
  %read_dead = OpLoad %float4 %p
; Put back in place, and also copied elsewhere: the copy is a read.
%read_inserted = OpLoad %float4 %p
         %w1 = OpCompositeInsert %float4 %float_42 %read_inserted 0
               OpStore %p %w1
          %x = OpCopyObject %float4 %read_inserted
               OpStore %q %x
               OpBranch %loop_pre
; A loop carrying the vector in a phi, pointer computed before it (clang -O2).
   %loop_pre = OpLabel
   %back_phi = OpLoad %float4 %p
               OpBranch %loop
       %loop = OpLabel
         %v = OpPhi %float4 %back_phi %loop_pre %v2 %loop
         %j = OpPhi %uint %uint_0 %loop_pre %j2 %loop
        %v2 = OpCompositeInsert %float4 %float_42 %v 2
        %j2 = OpIAdd %uint %j %uint_1
       %more = OpULessThan %bool %j2 %n
               OpBranchConditional %more %loop %after
      %after = OpLabel
               OpStore %p %v2
               OpBranch %loop2
; A phi around a loop that recomputes the pointer: one iteration's vector would go to the
; next iteration's address.
      %loop2 = OpLabel
        %pp = OpPhi %ptr4 %p %after %pnext %loop2
        %old = OpPhi %float4 %undef4 %after %read_phi_in_loop %loop2
%read_phi_in_loop = OpLoad %float4 %pp
        %t = OpCompositeInsert %float4 %float_42 %old 3
               OpStore %pp %t
     %pnext = OpInBoundsPtrAccessChain %ptr4 %pp %ulong_1
       %more2 = OpULessThan %bool %uint_0 %n
               OpBranchConditional %more2 %loop2 %end
        %end = OpLabel
               OpReturn
               OpFunctionEnd
)";

uint32_t indexOf(const Module& m, const std::string& name) {
  Id id = 0;
  for (const auto& [i, n] : m.names)
    if (n == name) id = i;
  EXPECT_NE(id, 0u) << name;
  for (const Function& f : m.functions)
    for (const Block& b : f.blocks)
      for (const Instruction& in : b.instructions)
        if (in.result == id) return in.index;
  ADD_FAILURE() << "no instruction defines " << name;
  return 0;
}

TEST(ReadBackLoads, OnlyLoadsWhoseComponentsGoBackInPlace) {
  const Module m = loadModule(assemble(kCases));
  const std::vector<uint32_t> found = readBackLoads(m);
  EXPECT_TRUE(std::is_sorted(found.begin(), found.end()));
  auto has = [&](const std::string& name) {
    return std::binary_search(found.begin(), found.end(), indexOf(m, name));
  };
  for (const char* name : {"back_insert", "back_shuffle", "back_recast", "back_select", "back_phi"})
    EXPECT_TRUE(has(name)) << name;
  for (const char* name : {"read_elsewhere", "read_extract", "read_moved", "read_phi_in_loop",
                           "read_dead", "read_inserted"})
    EXPECT_FALSE(has(name)) << name;
  EXPECT_EQ(found.size(), 5u);
}

}  // namespace
}  // namespace spvsim::spirv
