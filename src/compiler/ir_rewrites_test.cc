// The IR rewrites on lines as clang-15 prints them; each expectation is the LLVM IR the
// rewrite must produce, worked out from the LLVM language reference.
#include "src/compiler/ir_rewrites.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "src/compiler/llvm_ir.h"

namespace spvsim::compiler {
namespace {

using Lines = std::vector<std::string>;

TEST(LlvmIr, TypeLengths) {
  EXPECT_EQ(ir::typeLength("i32 %x"), 3u);
  EXPECT_EQ(ir::typeLength("<4 x i1> %x"), 8u);
  EXPECT_EQ(ir::typeLength("float addrspace(1)* %p"), 19u);
  EXPECT_EQ(ir::typeLength("{ i32, i1 } %p"), 11u);
  EXPECT_EQ(ir::typeLength("%struct.S* %p"), 10u);
  EXPECT_EQ(ir::typeLength("i32 (i32)* @f"), 10u);
  EXPECT_EQ(ir::typeLength("%x"), 2u);  // a named type and a value look alike: callers know
  EXPECT_EQ(ir::typeLength("notatype"), 0u);
}

TEST(LlvmIr, MetadataSuffixAndUses) {
  EXPECT_EQ(ir::metadataSuffix("  %1 = add i32 %0, 1, !dbg !12, !tbaa !3"), ", !dbg !12, !tbaa !3");
  EXPECT_EQ(ir::metadataSuffix("  %1 = add i32 %0, 1"), "");
  const Lines f = {"  %1 = add i32 %10, %1x", "  %2 = mul i32 %1, %1", "  %3 = add i32 %11, 0"};
  EXPECT_EQ(ir::countUses(f, 0, f.size(), "%1"), 2);
  EXPECT_EQ(ir::splitTopLevel("i32 addrspace(1)* %p, <2 x i32> <i32 1, i32 2>, i32 3").size(), 3u);
}

TEST(RemoveFreeze, IntegersOrWithZero) {
  Lines l = {"  %11 = freeze i32 %10", "  %12 = freeze <4 x i1> %9, !dbg !7"};
  EXPECT_EQ(removeFreeze(l), 2);
  EXPECT_EQ(l, (Lines{"  %11 = or i32 %10, zeroinitializer",
                      "  %12 = or <4 x i1> %9, zeroinitializer, !dbg !7"}));
}

TEST(RemoveFreeze, FloatsAreNegatedTwice) {
  Lines l = {"  %x = freeze <2 x float> %v"};
  EXPECT_EQ(removeFreeze(l), 1);
  EXPECT_EQ(l, (Lines{"  %spvsim.unfrozen.0 = fneg <2 x float> %v",
                      "  %x = fneg <2 x float> %spvsim.unfrozen.0"}));
}

TEST(RemoveFreeze, PointersTakeAZeroOffset) {
  Lines l = {"  %q = freeze i32 addrspace(1)* %p"};
  EXPECT_EQ(removeFreeze(l), 1);
  EXPECT_EQ(l, (Lines{"  %q = getelementptr i32, i32 addrspace(1)* %p, i64 0"}));
}

TEST(RemoveFreeze, AggregatesAreLeftForTheTranslatorToReport) {
  Lines l = {"  %q = freeze { i32, i32 } %p", "  %r = add i32 %a, %b"};
  const Lines before = l;
  EXPECT_EQ(removeFreeze(l), 0);
  EXPECT_EQ(l, before);
}

TEST(LowerLegacyAtomics, IncrementOfAGlobalUint) {
  Lines l = {
      "define spir_kernel void @k(i32 addrspace(1)* %0) {",
      "  %10 = tail call spir_func i32 @_Z10atomic_incPU3AS1Vj(i32 addrspace(1)* noundef %9) "
      "#5, !dbg !34",
      "  ret void",
      "}",
      "declare spir_func i32 @_Z10atomic_incPU3AS1Vj(i32 addrspace(1)* noundef) #2",
  };
  EXPECT_EQ(lowerLegacyAtomics(l), 1);
  EXPECT_EQ(l, (Lines{"define spir_kernel void @k(i32 addrspace(1)* %0) {",
                      "  %10 = atomicrmw add i32 addrspace(1)* %9, i32 1 monotonic, !dbg !34",
                      "  ret void", "}"}));
}

TEST(LowerLegacyAtomics, EveryOperationAndType) {
  Lines l = {
      "  %1 = call spir_func i32 @_Z10atomic_addPU3AS3Vii(i32 addrspace(3)* %p, i32 %v)",
      "  %2 = call spir_func i32 @_Z10atomic_minPU3AS1Vjj(i32 addrspace(1)* %p, i32 %v)",
      "  %3 = call spir_func i32 @_Z10atomic_maxPU3AS1Vii(i32 addrspace(1)* %p, i32 7)",
      "  %4 = call spir_func i64 @_Z8atom_addPU3AS1Vll(i64 addrspace(1)* %q, i64 %w)",
      "  %5 = call spir_func i64 @_Z8atom_decPU3AS1Vm(i64 addrspace(1)* %q)",
      "  %6 = call spir_func float @_Z11atomic_xchgPU3AS1Vff(float addrspace(1)* %f, float "
      "1.000000e+00)",
      "  %7 = call spir_func i32 @_Z14atomic_cmpxchgPU3AS1Vjjj(i32 addrspace(1)* %p, i32 %a, i32 "
      "%b)",
      "  %8 = call spir_func i32 @_Z10atomic_xorPU3AS3Vjj(i32 addrspace(3)* %p, i32 %v)",
  };
  EXPECT_EQ(lowerLegacyAtomics(l), 8);
  EXPECT_EQ(l, (Lines{
                   "  %1 = atomicrmw add i32 addrspace(3)* %p, i32 %v monotonic",
                   "  %2 = atomicrmw umin i32 addrspace(1)* %p, i32 %v monotonic",
                   "  %3 = atomicrmw max i32 addrspace(1)* %p, i32 7 monotonic",
                   "  %4 = atomicrmw add i64 addrspace(1)* %q, i64 %w monotonic",
                   "  %5 = atomicrmw sub i64 addrspace(1)* %q, i64 1 monotonic",
                   "  %6 = atomicrmw xchg float addrspace(1)* %f, float 1.000000e+00 monotonic",
                   "  %spvsim.cmpxchg.6 = cmpxchg i32 addrspace(1)* %p, i32 %a, i32 %b "
                   "monotonic monotonic",
                   "  %7 = extractvalue { i32, i1 } %spvsim.cmpxchg.6, 0",
                   "  %8 = atomicrmw xor i32 addrspace(3)* %p, i32 %v monotonic",
               }));
}

TEST(LowerLegacyAtomics, KeepsTheDeclarationWhileACallRemains) {
  Lines l = {
      "  %1 = call spir_func i32 @_Z10atomic_incPU3AS1Vj(i32 addrspace(1)* %p)",
      "  %2 = call spir_func i32 @_Z10atomic_incPU3AS1Vj(i32 addrspace(1)* %p, i32 %x)",
      "declare spir_func i32 @_Z10atomic_incPU3AS1Vj(i32 addrspace(1)*)",
  };
  EXPECT_EQ(lowerLegacyAtomics(l), 1);
  EXPECT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2], "declare spir_func i32 @_Z10atomic_incPU3AS1Vj(i32 addrspace(1)*)");
}

TEST(LowerLegacyAtomics, LeavesOtherCallsAlone) {
  Lines l = {
      "  %1 = call spir_func i32 @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order("
      "i32 addrspace(4)* %p, i32 1, i32 0)",
      "  %2 = call spir_func i32 @_Z3maxii(i32 %a, i32 %b)",
      "  %3 = call spir_func i32 @_Z10atomic_addPU3AS1Vii(i32 addrspace(1)* %p)",  // wrong arity
  };
  const Lines before = l;
  EXPECT_EQ(lowerLegacyAtomics(l), 0);
  EXPECT_EQ(l, before);
}

TEST(WidenSwitches, TruncUsedOnlyByTheSwitchBecomesAMask) {
  Lines l = {
      "define spir_func void @f(i32 %7) {",
      "  %8 = trunc i32 %7 to i3",
      "  switch i3 %8, label %13 [",
      "    i3 0, label %14",
      "    i3 -3, label %12",
      "  ]",
      "}",
  };
  EXPECT_EQ(widenSwitches(l), 1);
  EXPECT_EQ(l, (Lines{"define spir_func void @f(i32 %7) {", "  %8 = and i32 %7, 7",
                      "  switch i32 %8, label %13 [", "    i32 0, label %14",
                      "    i32 5, label %12", "  ]", "}"}));
}

TEST(WidenSwitches, OtherwiseTheConditionIsZeroExtended) {
  Lines l = {
      "define spir_func void @f(i64 %7) {",
      "  %8 = trunc i64 %7 to i33",
      "  %9 = add i33 %8, 1",
      "  switch i33 %8, label %13 [",
      "    i33 -1, label %14",
      "  ]",
      "}",
  };
  EXPECT_EQ(widenSwitches(l), 1);
  EXPECT_EQ(l, (Lines{"define spir_func void @f(i64 %7) {", "  %8 = trunc i64 %7 to i33",
                      "  %9 = add i33 %8, 1", "  %spvsim.switch.0 = zext i33 %8 to i64",
                      "  switch i64 %spvsim.switch.0, label %13 [", "    i64 8589934591, label %14",
                      "  ]", "}"}));
}

TEST(WidenSwitches, StandardWidthsAreLeftAlone) {
  Lines l = {"define void @f(i32 %x) {", "  switch i32 %x, label %1 [", "    i32 -3, label %2",
             "  ]", "}"};
  const Lines before = l;
  EXPECT_EQ(widenSwitches(l), 0);
  EXPECT_EQ(l, before);
}

TEST(DropUntranslatableDebugValues, ConvertsBecomeOptimisedOut) {
  Lines l = {
      "  call void @llvm.dbg.value(metadata i64 %3, metadata !20, metadata "
      "!DIExpression(DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_LLVM_convert, 32, "
      "DW_ATE_unsigned, DW_OP_stack_value)), !dbg !25",
      "  call void @llvm.dbg.value(metadata i32 addrspace(1)* %0, metadata !18, metadata "
      "!DIExpression(DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef)), !dbg !25",
      "  call void @llvm.dbg.value(metadata i32 %5, metadata !21, metadata !40), !dbg !26",
      "!40 = !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_stack_value)",
  };
  EXPECT_EQ(dropUntranslatableDebugValues(l), 2);
  EXPECT_EQ(l[0],
            "  call void @llvm.dbg.value(metadata i64 undef, metadata !20, metadata "
            "!DIExpression()), !dbg !25");
  EXPECT_EQ(l[1],
            "  call void @llvm.dbg.value(metadata i32 addrspace(1)* %0, metadata !18, metadata "
            "!DIExpression(DW_OP_constu, 0, DW_OP_swap, DW_OP_xderef)), !dbg !25");
  EXPECT_EQ(l[2],
            "  call void @llvm.dbg.value(metadata i32 undef, metadata !21, metadata "
            "!DIExpression()), !dbg !26");
}

TEST(ExpandBoolVectorBitcasts, PacksLaneIIntoBitI) {
  Lines l = {"  %12 = bitcast <3 x i1> %11 to i3, !dbg !3"};
  EXPECT_EQ(expandBoolVectorBitcasts(l), 1);
  EXPECT_EQ(l, (Lines{
                   "  %spvsim.bits.0.l0 = extractelement <3 x i1> %11, i32 0, !dbg !3",
                   "  %spvsim.bits.0.z0 = zext i1 %spvsim.bits.0.l0 to i3, !dbg !3",
                   "  %spvsim.bits.0.l1 = extractelement <3 x i1> %11, i32 1, !dbg !3",
                   "  %spvsim.bits.0.z1 = zext i1 %spvsim.bits.0.l1 to i3, !dbg !3",
                   "  %spvsim.bits.0.s1 = shl i3 %spvsim.bits.0.z1, 1, !dbg !3",
                   "  %spvsim.bits.0.o1 = or i3 %spvsim.bits.0.z0, %spvsim.bits.0.s1, !dbg !3",
                   "  %spvsim.bits.0.l2 = extractelement <3 x i1> %11, i32 2, !dbg !3",
                   "  %spvsim.bits.0.z2 = zext i1 %spvsim.bits.0.l2 to i3, !dbg !3",
                   "  %spvsim.bits.0.s2 = shl i3 %spvsim.bits.0.z2, 2, !dbg !3",
                   "  %12 = or i3 %spvsim.bits.0.o1, %spvsim.bits.0.s2, !dbg !3",
               }));
}

TEST(ExpandBoolVectorBitcasts, PacksFourLanesByOneMultiplication) {
  Lines l = {"  %12 = bitcast <4 x i1> %11 to i4, !dbg !3"};
  EXPECT_EQ(expandBoolVectorBitcasts(l), 1);
  EXPECT_EQ(l, (Lines{
                   "  %spvsim.bits.0.w = zext <4 x i1> %11 to <4 x i8>, !dbg !3",
                   "  %spvsim.bits.0.b = bitcast <4 x i8> %spvsim.bits.0.w to i32, !dbg !3",
                   "  %spvsim.bits.0.m = mul i32 %spvsim.bits.0.b, 16909320, !dbg !3",
                   "  %spvsim.bits.0.s = lshr i32 %spvsim.bits.0.m, 24, !dbg !3",
                   "  %12 = trunc i32 %spvsim.bits.0.s to i4, !dbg !3",
               }));
}

// The multiplication's arithmetic, for every lane pattern of 2, 4 and 8 lanes: the
// multiplier and shift are read from the rewritten lines and applied to the lanes as
// little-endian bytes (what the zext and bitcast make of them).
TEST(ExpandBoolVectorBitcasts, MultiplicationPutsLaneIAtBitI) {
  for (unsigned n : {2u, 4u, 8u}) {
    Lines l = {fmt::format("  %p = bitcast <{} x i1> %v to i{}", n, n)};
    ASSERT_EQ(expandBoolVectorBitcasts(l), 1);
    ASSERT_EQ(l.size(), 5u);
    const std::string mulPrefix =
        fmt::format("  %spvsim.bits.0.m = mul i{} %spvsim.bits.0.b, ", 8 * n);
    const std::string shiftPrefix =
        fmt::format("  %spvsim.bits.0.s = lshr i{} %spvsim.bits.0.m, ", 8 * n);
    ASSERT_EQ(l[2].rfind(mulPrefix, 0), 0u) << l[2];
    ASSERT_EQ(l[3].rfind(shiftPrefix, 0), 0u) << l[3];
    const uint64_t multiplier = std::stoull(l[2].substr(mulPrefix.size()));
    const unsigned shift = unsigned(std::stoul(l[3].substr(shiftPrefix.size())));
    const uint64_t widthMask = n == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * n)) - 1;
    for (uint64_t lanes = 0; lanes < (uint64_t(1) << n); ++lanes) {
      uint64_t bytes = 0;
      for (unsigned i = 0; i < n; ++i) bytes |= (lanes >> i & 1) << (8 * i);
      const uint64_t packed = ((bytes * multiplier) & widthMask) >> shift & ((1u << n) - 1);
      EXPECT_EQ(packed, lanes) << n << " lanes";
    }
  }
}

TEST(ExpandBoolVectorBitcasts, UnpacksBitIIntoLaneI) {
  Lines l = {"  %m = bitcast i2 %x to <2 x i1>"};
  EXPECT_EQ(expandBoolVectorBitcasts(l), 1);
  EXPECT_EQ(l,
            (Lines{
                "  %spvsim.bits.0.s0 = lshr i2 %x, 0",
                "  %spvsim.bits.0.b0 = trunc i2 %spvsim.bits.0.s0 to i1",
                "  %spvsim.bits.0.v0 = insertelement <2 x i1> poison, i1 %spvsim.bits.0.b0, i32 0",
                "  %spvsim.bits.0.s1 = lshr i2 %x, 1",
                "  %spvsim.bits.0.b1 = trunc i2 %spvsim.bits.0.s1 to i1",
                "  %m = insertelement <2 x i1> %spvsim.bits.0.v0, i1 %spvsim.bits.0.b1, i32 1",
            }));
  Lines other = {"  %p = bitcast <2 x i32> %x to i64", "  %q = bitcast <4 x i1> %y to i8"};
  const Lines before = other;
  EXPECT_EQ(expandBoolVectorBitcasts(other), 0);
  EXPECT_EQ(other, before);
}

}  // namespace
}  // namespace spvsim::compiler
