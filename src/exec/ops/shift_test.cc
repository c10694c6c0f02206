// Shifts by >= the bit width are undefined in SPIR-V: reported as shift-out-of-range
// (with the lanes), the result taken with the count modulo the width. OpenCL C's `<<`
// and `>>` mask the count themselves (clang emits the `and`), so they never report.
#include <gtest/gtest.h>

#include "spirv/loader.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;

// out[i] = OP(a[i], n[i]) for 32-bit a and n; wide[i] = (ulong)a[i] << n[i] with a
// 64-bit base and a 32-bit count (SPIR-V allows different widths).
std::string shiftModule(const char* op) {
  return std::string(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong3 = OpTypeVector %ulong 3
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
  %ptr_ulong = OpTypePointer CrossWorkgroup %ulong
 %ptr_input = OpTypePointer Input %ulong3
         %fn = OpTypeFunction %void %ptr_uint %ptr_uint %ptr_uint %ptr_ulong
        %gid = OpVariable %ptr_input Input
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_uint
          %n = OpFunctionParameter %ptr_uint
        %out = OpFunctionParameter %ptr_uint
       %wide = OpFunctionParameter %ptr_ulong
      %entry = OpLabel
        %ids = OpLoad %ulong3 %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
         %pa = OpInBoundsPtrAccessChain %ptr_uint %a %i
         %pn = OpInBoundsPtrAccessChain %ptr_uint %n %i
         %po = OpInBoundsPtrAccessChain %ptr_uint %out %i
         %pw = OpInBoundsPtrAccessChain %ptr_ulong %wide %i
         %va = OpLoad %uint %pa Aligned 4
         %vn = OpLoad %uint %pn Aligned 4
          %r = )") +
         op + R"( %uint %va %vn
               OpStore %po %r Aligned 4
         %wa = OpUConvert %ulong %va
         %wr = OpShiftLeftLogical %ulong %wa %vn
               OpStore %pw %wr Aligned 8
               OpReturn
               OpFunctionEnd
)";
}

struct ShiftRun {
  LaunchResult result;
  std::vector<uint32_t> out;
  std::vector<uint64_t> wide;
};

ShiftRun shiftRun(const char* op, std::vector<uint32_t> a, std::vector<uint32_t> n) {
  auto prog = Program::load(spirv::assemble(shiftModule(op)));
  ShiftRun r;
  r.out.assign(a.size(), 0xdead);
  r.wide.assign(a.size(), 0);
  r.result = prog->launch("k", range1(a.size(), a.size()),
                          {bufferOf(a), bufferOf(n), bufferOf(r.out), bufferOf(r.wide)});
  return r;
}

TEST(Shift, CountsBelowTheWidthAreNotReported) {
  ShiftRun r = shiftRun("OpShiftLeftLogical", {1, 3, 0x80000000u, 5}, {0, 4, 31, 2});
  EXPECT_TRUE(r.result.diagnostics.empty()) << describe(r.result);
  EXPECT_EQ(r.out, (std::vector<uint32_t>{1, 48, 0, 20}));
  // The 64-bit base shifted by the 32-bit count.
  EXPECT_EQ(r.wide, (std::vector<uint64_t>{1, 48, 0x4000000000000000ull, 20}));
}

TEST(Shift, CountsOfTheWidthOrMoreAreReportedWithTheirLanes) {
  // Lanes 1 and 3 shift a 32-bit value by 32 and 33: undefined; the count is taken
  // modulo 32 (1 << 0, 0x10 << 1).
  ShiftRun r = shiftRun("OpShiftLeftLogical", {7, 1, 2, 0x10}, {1, 32, 3, 33});
  ASSERT_EQ(r.result.diagnostics.size(), 1u) << describe(r.result);
  const Diagnostic& d = r.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::ShiftOutOfRange);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(d.message,
            "shift by 32 is not less than the 32-bit width of the shifted value (undefined; the "
            "count is taken modulo 32)");
  EXPECT_NE(d.instruction.find("OpShiftLeftLogical"), std::string::npos) << d.instruction;
  EXPECT_EQ(r.out, (std::vector<uint32_t>{14, 1, 16, 0x20}));
  // The same counts are in range for the 64-bit shift.
  EXPECT_EQ(r.wide, (std::vector<uint64_t>{14, 1ull << 32, 16, 0x10ull << 33}));
}

TEST(Shift, RightShiftsReportToo) {
  ShiftRun logical = shiftRun("OpShiftRightLogical", {0x80000000u, 0x80000000u}, {31, 40});
  ASSERT_EQ(logical.result.diagnostics.size(), 1u) << describe(logical.result);
  EXPECT_EQ(logical.result.diagnostics[0].lanes, (std::vector<uint32_t>{1}));
  EXPECT_EQ(logical.out, (std::vector<uint32_t>{1, 0x00800000u}));  // 40 mod 32 = 8
  ShiftRun arithmetic = shiftRun("OpShiftRightArithmetic", {0x80000000u, 0x80000000u}, {31, 63});
  ASSERT_EQ(arithmetic.result.diagnostics.size(), 1u) << describe(arithmetic.result);
  EXPECT_EQ(arithmetic.result.diagnostics[0].lanes, (std::vector<uint32_t>{1}));
  EXPECT_EQ(arithmetic.out, (std::vector<uint32_t>{0xffffffffu, 0xffffffffu}));
}

// OpenCL C 6.15.6: the count is taken modulo the width, so x << 40 on an int is x << 8;
// clang emits the mask, and nothing is undefined.
TEST(Shift, OpenClShiftsMaskTheCountAndDoNotReport) {
  auto prog = Program::load(testing::compileOpenCL(R"(
kernel void k(global uint* x, global uint* n) {
  size_t i = get_global_id(0);
  x[i] = (x[i] << n[i]) | (x[i] >> (n[i] + 4));
})"));
  std::vector<uint32_t> x{1, 0x100, 3, 0x80000000u}, n{40, 32, 1, 60};
  auto res = prog->launch("k", range1(4, 4), {bufferOf(x), bufferOf(n)});
  EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
  // (x << n % 32) | (x >> (n + 4) % 32)
  EXPECT_EQ(x, (std::vector<uint32_t>{(1u << 8) | (1u >> 12), 0x100u | (0x100u >> 4),
                                      (3u << 1) | (3u >> 5), 0x80000000u}));
}

// Constant counts (their own handler, ShiftByConstant): every width, each kind, scalar
// and vector, on all lanes, on odd lanes only (a partly active sub-group) and in a
// partial last sub-group; the host computes the same expressions.
TEST(Shift, ConstantCountsOfEveryWidthAndKind) {
  const char* source = R"(
kernel void k(global ulong* v, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = v[i];
  ulong r = (uchar)((uchar)x << 3) ^ ((ulong)(ushort)((ushort)x >> 5) << 8) ^
            ((ulong)((uint)x << 7) << 16) ^ ((ulong)x >> 13) ^ (ulong)((long)x >> 41);
  r ^= (ulong)(uint)((int)x >> 3) ^ (ulong)(ushort)((short)x >> 2) ^ (ulong)(uchar)((char)x >> 1);
  if (i & 1) {
    uint4 w = (uint4)((uint)x, (uint)(x >> 32), (uint)i, 7u) << 5;
    r += w.x ^ w.y ^ w.z ^ w.w;
    r += (x << 63) | (x << 1);
  }
  out[i] = r;
})";
  auto model = [](uint64_t x, uint64_t i) {
    uint64_t r = uint8_t(uint8_t(x) << 3) ^ (uint64_t(uint16_t(uint16_t(x) >> 5)) << 8) ^
                 (uint64_t(uint32_t(uint32_t(x) << 7)) << 16) ^ (x >> 13) ^
                 uint64_t(int64_t(x) >> 41);
    r ^= uint64_t(uint32_t(int32_t(uint32_t(x)) >> 3)) ^
         uint64_t(uint16_t(int16_t(uint16_t(x)) >> 2)) ^ uint64_t(uint8_t(int8_t(uint8_t(x)) >> 1));
    if (i & 1) {
      const uint32_t w[4] = {uint32_t(x) << 5, uint32_t(x >> 32) << 5, uint32_t(i) << 5, 7u << 5};
      r += w[0] ^ w[1] ^ w[2] ^ w[3];
      r += (x << 63) | (x << 1);
    }
    return r;
  };
  const size_t n = 13;  // sub-groups of 8: the second has 5 lanes
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0x9e3779b97f4a7c15ull * (i + 1) ^ (i << 60);
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(source, opt));
    std::vector<uint64_t> in = v, out(n, 0);
    LaunchOptions o;
    o.subGroupSize = 8;
    auto res = prog->launch("k", range1(n, n), {bufferOf(in), bufferOf(out)}, o);
    EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], model(v[i], i)) << opt << " item " << i;
  }
}

}  // namespace
}  // namespace spvsim
