// Hand-written modules that each need one repair of spirv/normalize.h (or that test
// what the executor must do with what a repair leaves), for the loader's tests
// (spirv/normalize_test.cc) and the simulator's, which run them (src/exec/repairs_test.cc).
// spvsim::spirv::assemble gives them SPIR-V 1.6 unless a test sets the version word.
#pragma once

namespace spvsim::spirv::testmodules {

// out[0] = the first count >= 1 that reaches n, i.e. max(n, 1). The loop exit block is
// laid out before the loop that dominates it (and uses %next, defined there).
inline constexpr const char* kBlockOrder = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "count_to"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_g %uint
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %exit = OpLabel
               OpStore %out %next Aligned 4
               OpReturn
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
               OpFunctionEnd
)";

// out[0] = sum over i < n (n >= 1) of (5 + i): each iteration's %v starts at 5 again,
// because its initializer applies each time control reaches it. Three variables are out
// of place: after an instruction of the first block, in the loop (with initializer) and
// in the exit block.
inline constexpr const char* kFunctionVariables = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "sum_fresh"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_5 = OpConstant %uint 5
      %ptr_g = OpTypePointer CrossWorkgroup %uint
      %ptr_f = OpTypePointer Function %uint
     %fntype = OpTypeFunction %void %ptr_g %uint
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
          %n = OpFunctionParameter %uint
      %entry = OpLabel
      %count = OpIAdd %uint %n %uint_0
        %acc = OpVariable %ptr_f Function
               OpStore %acc %uint_0
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %loop
          %v = OpVariable %ptr_f Function %uint_5
          %x = OpLoad %uint %v
          %y = OpIAdd %uint %x %i
               OpStore %v %y
         %a0 = OpLoad %uint %acc
         %a1 = OpIAdd %uint %a0 %y
               OpStore %acc %a1
      %inext = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %inext %count
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
          %t = OpVariable %ptr_f Function
      %final = OpLoad %uint %acc
               OpStore %t %final
          %r = OpLoad %uint %t
               OpStore %out %r Aligned 4
               OpReturn
               OpFunctionEnd
)";

// out[i] = 40 + i: a helper reads %counter (initialised to 40). The entry point lists
// neither %counter nor the GlobalInvocationId built-in.
inline constexpr const char* kInterfaces = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "offsets"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
    %uint_40 = OpConstant %uint 40
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %ptr_in = OpTypePointer Input %v3ulong
     %fntype = OpTypeFunction %void %ptr_g
   %fn_uint = OpTypeFunction %uint
    %counter = OpVariable %ptr_g CrossWorkgroup %uint_40
        %gid = OpVariable %ptr_in Input
     %helper = OpFunction %uint None %fn_uint
     %hentry = OpLabel
          %c = OpLoad %uint %counter Aligned 4
               OpReturnValue %c
               OpFunctionEnd
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
         %i4 = OpUConvert %uint %i
          %h = OpFunctionCall %uint %helper
          %s = OpIAdd %uint %h %i4
          %p = OpInBoundsPtrAccessChain %ptr_g %out %i
               OpStore %p %s Aligned 4
               OpReturn
               OpFunctionEnd
)";

// out[0] = sum over i < n of i (0 when n is 0). The OpLoopMerge is not the
// second-to-last instruction of its block, and %check's OpSelectionMerge names %exit,
// the merge block of the entry's: both are dropped; the entry's merge is valid and kept.
inline constexpr const char* kMergeInstructions = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "sum_below"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_g %uint
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
          %n = OpFunctionParameter %uint
      %entry = OpLabel
       %none = OpIEqual %bool %n %uint_0
               OpSelectionMerge %exit None
               OpBranchConditional %none %exit %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %check
          %s = OpPhi %uint %uint_0 %entry %s2 %check
               OpLoopMerge %exit %check None
         %s2 = OpIAdd %uint %s %i
      %inext = OpIAdd %uint %i %uint_1
               OpBranch %check
      %check = OpLabel
       %more = OpULessThan %bool %inext %n
               OpSelectionMerge %exit None
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
          %r = OpPhi %uint %uint_0 %entry %s2 %check
               OpStore %out %r Aligned 4
               OpReturn
               OpFunctionEnd
)";

// Set to SPIR-V 1.0 by the tests: out4 = c ? a4 : b4 and out3 = c ? a3 : b3 with a scalar
// condition (valid from 1.4 on). %v4bool exists; a 3-component bool vector does not.
inline constexpr const char* kVectorSelect = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "pick"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %v4uint = OpTypeVector %uint 4
     %v3uint = OpTypeVector %uint 3
     %v4bool = OpTypeVector %bool 4
     %uint_0 = OpConstant %uint 0
      %ptr_4 = OpTypePointer CrossWorkgroup %v4uint
      %ptr_3 = OpTypePointer CrossWorkgroup %v3uint
     %fntype = OpTypeFunction %void %ptr_4 %ptr_4 %ptr_4 %ptr_3 %ptr_3 %ptr_3 %uint
          %k = OpFunction %void None %fntype
         %a4 = OpFunctionParameter %ptr_4
         %b4 = OpFunctionParameter %ptr_4
       %out4 = OpFunctionParameter %ptr_4
         %a3 = OpFunctionParameter %ptr_3
         %b3 = OpFunctionParameter %ptr_3
       %out3 = OpFunctionParameter %ptr_3
          %c = OpFunctionParameter %uint
      %entry = OpLabel
       %cond = OpINotEqual %bool %c %uint_0
        %x4 = OpLoad %v4uint %a4 Aligned 16
        %y4 = OpLoad %v4uint %b4 Aligned 16
        %r4 = OpSelect %v4uint %cond %x4 %y4
               OpStore %out4 %r4 Aligned 16
        %x3 = OpLoad %v3uint %a3 Aligned 16
        %y3 = OpLoad %v3uint %b3 Aligned 16
        %r3 = OpSelect %v3uint %cond %x3 %y3
               OpStore %out3 %r3 Aligned 16
               OpReturn
               OpFunctionEnd
)";

// SPIR-V 1.4 OpSelect forms, each over elements 0 and 1 of an argument, into element 2:
// a scalar condition (c != 0) picks a whole struct {uint, ulong} and a whole uint[3]; a
// bool vector (v[0] < v[1]) picks components of a uint2 (their minimum).
inline constexpr const char* kCompositeSelect = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "pick_whole"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %v2uint = OpTypeVector %uint 2
     %v2bool = OpTypeVector %bool 2
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
          %S = OpTypeStruct %uint %ulong
          %A = OpTypeArray %uint %uint_3
      %ptr_s = OpTypePointer CrossWorkgroup %S
      %ptr_a = OpTypePointer CrossWorkgroup %A
      %ptr_v = OpTypePointer CrossWorkgroup %v2uint
     %fntype = OpTypeFunction %void %ptr_s %ptr_a %ptr_v %uint
          %k = OpFunction %void None %fntype
         %ps = OpFunctionParameter %ptr_s
         %pa = OpFunctionParameter %ptr_a
         %pv = OpFunctionParameter %ptr_v
          %c = OpFunctionParameter %uint
      %entry = OpLabel
       %cond = OpINotEqual %bool %c %uint_0
        %ps1 = OpInBoundsPtrAccessChain %ptr_s %ps %uint_1
        %ps2 = OpInBoundsPtrAccessChain %ptr_s %ps %uint_2
         %s0 = OpLoad %S %ps Aligned 8
         %s1 = OpLoad %S %ps1 Aligned 8
         %ss = OpSelect %S %cond %s0 %s1
               OpStore %ps2 %ss Aligned 8
        %pa1 = OpInBoundsPtrAccessChain %ptr_a %pa %uint_1
        %pa2 = OpInBoundsPtrAccessChain %ptr_a %pa %uint_2
         %a0 = OpLoad %A %pa Aligned 4
         %a1 = OpLoad %A %pa1 Aligned 4
         %as = OpSelect %A %cond %a0 %a1
               OpStore %pa2 %as Aligned 4
        %pv1 = OpInBoundsPtrAccessChain %ptr_v %pv %uint_1
        %pv2 = OpInBoundsPtrAccessChain %ptr_v %pv %uint_2
         %v0 = OpLoad %v2uint %pv Aligned 8
         %v1 = OpLoad %v2uint %pv1 Aligned 8
      %lower = OpULessThan %v2bool %v0 %v1
         %vs = OpSelect %v2uint %lower %v0 %v1
               OpStore %pv2 %vs Aligned 8
               OpReturn
               OpFunctionEnd
)";

// Integers of 4 bits (SPV_INTEL_arbitrary_precision_integers), with 8-, 16- and 32-bit
// ones declared, so the validator sees i4 as an alias of i8. Results, as uint:
// out[0] = 7 + 12 = 19 mod 16 = 3; out[1] = 7 * 12 = 84 mod 16 = 4;
// out[2] = -6 / 4 = -1 (truncated), zero-extended: 15; out[3] = the same sign-extended:
// 0xffffffff; out[4] = (-1 < 1 signed) = 1; out[5] = -6 >> 1 (arithmetic) = -3 = 13;
// out[6] = -7 = 9; out[7] = (uchar)(-1 as i4) = 15.
inline constexpr const char* kOddWidths = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpCapability Int16
               OpCapability ArbitraryPrecisionIntegersINTEL
               OpExtension "SPV_INTEL_arbitrary_precision_integers"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "nibbles"
       %void = OpTypeVoid
       %bool = OpTypeBool
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
         %u4 = OpTypeInt 4 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
     %uint_5 = OpConstant %uint 5
     %uint_6 = OpConstant %uint 6
     %uint_7 = OpConstant %uint 7
       %n4_1 = OpConstant %u4 1
       %n4_4 = OpConstant %u4 4
       %n4_7 = OpConstant %u4 7
      %n4_12 = OpConstant %u4 12
   %n4_neg6 = OpConstant %u4 10
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_g
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
      %entry = OpLabel
        %sum = OpIAdd %u4 %n4_7 %n4_12
       %prod = OpIMul %u4 %n4_7 %n4_12
          %q = OpSDiv %u4 %n4_neg6 %n4_4
         %lt = OpSLessThan %bool %q %n4_1
         %sh = OpShiftRightArithmetic %u4 %n4_neg6 %n4_1
        %neg = OpSNegate %u4 %n4_7
         %r0 = OpUConvert %uint %sum
         %r1 = OpUConvert %uint %prod
         %r2 = OpUConvert %uint %q
         %r3 = OpSConvert %uint %q
         %r4 = OpSelect %uint %lt %uint_1 %uint_0
         %r5 = OpUConvert %uint %sh
         %r6 = OpUConvert %uint %neg
         %q8 = OpUConvert %uchar %q
         %r7 = OpUConvert %uint %q8
         %p1 = OpInBoundsPtrAccessChain %ptr_g %out %uint_1
         %p2 = OpInBoundsPtrAccessChain %ptr_g %out %uint_2
         %p3 = OpInBoundsPtrAccessChain %ptr_g %out %uint_3
         %p4 = OpInBoundsPtrAccessChain %ptr_g %out %uint_4
         %p5 = OpInBoundsPtrAccessChain %ptr_g %out %uint_5
         %p6 = OpInBoundsPtrAccessChain %ptr_g %out %uint_6
         %p7 = OpInBoundsPtrAccessChain %ptr_g %out %uint_7
               OpStore %out %r0 Aligned 4
               OpStore %p1 %r1 Aligned 4
               OpStore %p2 %r2 Aligned 4
               OpStore %p3 %r3 Aligned 4
               OpStore %p4 %r4 Aligned 4
               OpStore %p5 %r5 Aligned 4
               OpStore %p6 %r6 Aligned 4
               OpStore %p7 %r7 Aligned 4
               OpReturn
               OpFunctionEnd
)";

// out[0] = 7 for n in {1, 2, 3}, else 9. Cases 1, 2 and 3 share their target, so the
// phi lists the switch's block three times, one entry per edge, as llvm-spirv-15 writes it.
inline constexpr const char* kPhiPredecessors = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "shared_case"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_7 = OpConstant %uint 7
     %uint_9 = OpConstant %uint 9
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_g %uint
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpSwitch %n %other 1 %join 2 %join 3 %join
      %other = OpLabel
               OpBranch %join
       %join = OpLabel
          %v = OpPhi %uint %uint_7 %entry %uint_7 %entry %uint_7 %entry %uint_9 %other
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)";

}  // namespace spvsim::spirv::testmodules
