// Modules that the loader repairs (spirv/normalize.h) run with the right results: the
// hand-written ones of spirv/repair_test_modules.h, and OpenCL C compiled at the
// optimisation levels where llvm-spirv-15 emits each defect, against host models. Also
// what the executor must do beyond the repairs: every SPIR-V 1.4 OpSelect form, and
// integers of odd widths wrapping at their width.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "spirv/repair_test_modules.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;
using testing::valueOf;

namespace tm = spirv::testmodules;
using testing::compileOpenCL;

// Loads `words`, expects exactly the repairs whose rule names start with `rules`.
std::shared_ptr<Program> loadRepaired(std::vector<uint32_t> words,
                                      const std::vector<std::string>& rules) {
  auto p = Program::load(std::move(words));
  const auto& repairs = p->module().repairs;
  EXPECT_EQ(repairs.size(), rules.size());
  for (size_t k = 0; k < std::min(repairs.size(), rules.size()); ++k)
    EXPECT_EQ(repairs[k].rule.rfind(rules[k], 0), 0u) << repairs[k].rule;
  return p;
}

uint32_t runScalar(Program& p, const std::string& kernel, uint32_t n) {
  std::vector<uint32_t> out(1, 0xdeadbeef);
  auto r = p.launch(kernel, range1(1, 1), {bufferOf(out), valueOf(n)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  return out[0];
}

TEST(RepairedModules, BlockOrder) {
  auto p = loadRepaired(spirv::assemble(tm::kBlockOrder), {"block order"});
  EXPECT_EQ(runScalar(*p, "count_to", 5), 5u);
  EXPECT_EQ(runScalar(*p, "count_to", 0), 1u);
}

TEST(RepairedModules, FunctionVariablesAreReinitialisedWhereTheyWere) {
  auto p = loadRepaired(spirv::assemble(tm::kFunctionVariables), {"function variables"});
  EXPECT_EQ(runScalar(*p, "sum_fresh", 4), 5u + 6 + 7 + 8);
  EXPECT_EQ(runScalar(*p, "sum_fresh", 1), 5u);
}

TEST(RepairedModules, EntryPointInterfaces) {
  auto p = loadRepaired(spirv::assemble(tm::kInterfaces), {"entry-point interfaces"});
  std::vector<uint32_t> out(8, 0);
  auto r = p->launch("offsets", range1(8, 4), {bufferOf(out)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], 40 + i);
}

TEST(RepairedModules, PhiPredecessorsListedOnce) {
  auto p = loadRepaired(spirv::assemble(tm::kPhiPredecessors), {"phi entries"});
  for (uint32_t n : {1u, 2u, 3u}) EXPECT_EQ(runScalar(*p, "shared_case", n), 7u) << n;
  for (uint32_t n : {0u, 4u}) EXPECT_EQ(runScalar(*p, "shared_case", n), 9u) << n;
}

TEST(RepairedModules, MergeInstructions) {
  auto p = loadRepaired(spirv::assemble(tm::kMergeInstructions), {"merge instructions"});
  EXPECT_EQ(runScalar(*p, "sum_below", 5), 0u + 1 + 2 + 3 + 4);
  EXPECT_EQ(runScalar(*p, "sum_below", 0), 0u);
}

TEST(RepairedModules, VectorSelectWithScalarConditionInSpirv10) {
  std::vector<uint32_t> words = spirv::assemble(tm::kVectorSelect);
  words[1] = 0x00010000;
  auto p = loadRepaired(words, {"vector OpSelect"});
  for (uint32_t c : {0u, 7u}) {
    std::vector<uint32_t> a4{1, 2, 3, 4}, b4{5, 6, 7, 8}, out4(4, 0);
    std::vector<uint32_t> a3{11, 12, 13, 0}, b3{15, 16, 17, 0}, out3(4, 0);
    auto r = p->launch("pick", range1(1, 1),
                       {bufferOf(a4), bufferOf(b4), bufferOf(out4), bufferOf(a3), bufferOf(b3),
                        bufferOf(out3), valueOf(c)});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(out4, c ? a4 : b4);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(out3[k], c ? a3[k] : b3[k]) << k;
  }
}

TEST(Select, WholeStructsArraysAndPerComponentVectors) {
  auto p = Program::load(spirv::assemble(tm::kCompositeSelect));
  EXPECT_TRUE(p->module().repairs.empty());
  struct S {
    uint32_t a;
    uint64_t b;
  };
  for (uint32_t c : {0u, 1u}) {
    std::vector<S> s{{1, 0x100000000ull}, {2, 0x200000000ull}, {0, 0}};
    std::vector<uint32_t> arrays{1, 2, 3, 4, 5, 6, 0, 0, 0};
    std::vector<uint32_t> vectors{1, 9, 5, 6, 0, 0};
    auto r = p->launch("pick_whole", range1(1, 1),
                       {bufferOf(s), bufferOf(arrays), bufferOf(vectors), valueOf(c)});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    const S& want = c ? s[0] : s[1];
    EXPECT_EQ(s[2].a, want.a);
    EXPECT_EQ(s[2].b, want.b);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(arrays[6 + k], c ? arrays[k] : arrays[3 + k]);
    // Component-wise: v0 = (1, 9), v1 = (5, 6) -> (min 1, min 6).
    EXPECT_EQ(vectors[4], 1u);
    EXPECT_EQ(vectors[5], 6u);
  }
}

TEST(OddWidths, FourBitIntegersWrapAtFourBits) {
  auto p = Program::load(spirv::assemble(tm::kOddWidths));
  std::vector<uint32_t> out(8, 0xdeadbeef);
  auto r = p->launch("nibbles", range1(1, 1), {bufferOf(out)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<uint32_t>{3, 4, 15, 0xffffffffu, 1, 13, 9, 15}));
  // Whole sub-groups mask and sign-extend whole registers at once (and a partial last
  // one lane by lane); every work-item stores the same values to the same places.
  std::vector<uint32_t> out2(8, 0xdeadbeef);
  LaunchOptions wide;
  wide.subGroupSize = 16;
  r = p->launch("nibbles", range1(40, 20), {bufferOf(out2)}, wide);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out2, out);
}

// Per-lane 4-bit arithmetic: each lane's value truncated to i4, plus 12 (wrapping at 16),
// then zero- and sign-extended back, in whole sub-groups (the masking and sign extension
// over whole registers) and a partial last one. Host model: (v + 12) mod 16, and that as
// a signed nibble.
TEST(OddWidths, PerLaneFourBitArithmeticInWholeAndPartialSubGroups) {
  auto p = Program::load(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpCapability ArbitraryPrecisionIntegersINTEL
               OpExtension "SPV_INTEL_arbitrary_precision_integers"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "nibbles" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
       %void = OpTypeVoid
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
         %u4 = OpTypeInt 4 0
      %v3ulong = OpTypeVector %ulong 3
  %ptr_in_v3 = OpTypePointer Input %v3ulong
        %gid = OpVariable %ptr_in_v3 Input
      %n4_12 = OpConstant %u4 12
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_g %ptr_g %ptr_g
          %k = OpFunction %void None %fntype
         %in = OpFunctionParameter %ptr_g
       %zext = OpFunctionParameter %ptr_g
       %sext = OpFunctionParameter %ptr_g
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %g = OpCompositeExtract %ulong %ids 0
        %pin = OpInBoundsPtrAccessChain %ptr_g %in %g
          %v = OpLoad %uint %pin Aligned 4
         %v4 = OpUConvert %u4 %v
        %sum = OpIAdd %u4 %v4 %n4_12
         %zu = OpUConvert %uint %sum
         %su = OpSConvert %uint %sum
         %pz = OpInBoundsPtrAccessChain %ptr_g %zext %g
         %ps = OpInBoundsPtrAccessChain %ptr_g %sext %g
               OpStore %pz %zu Aligned 4
               OpStore %ps %su Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  for (uint32_t width : {16u, 8u, 1u}) {
    std::vector<uint32_t> in(40), zext(40, 0xdeadbeef), sext(40, 0xdeadbeef);
    for (uint32_t g = 0; g < 40; ++g) in[g] = g * 37 + 5;
    LaunchOptions o;
    o.subGroupSize = width;
    auto r =
        p->launch("nibbles", range1(40, 20), {bufferOf(in), bufferOf(zext), bufferOf(sext)}, o);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    for (uint32_t g = 0; g < 40; ++g) {
      const uint32_t nibble = (in[g] + 12) % 16;
      EXPECT_EQ(zext[g], nibble) << width << " " << g;
      EXPECT_EQ(sext[g], nibble >= 8 ? nibble | 0xfffffff0u : nibble) << width << " " << g;
    }
  }
}

TEST(OddWidths, ClosedFormLoopSumsInI33) {
  // clang -O2 turns the loop into n(n-1)/2 computed in 33 bits: (n-1)(n-2) overflows 32
  // bits for n = 100000 and must wrap at 33, not 32 or 64 bits, for the right result.
  auto p = Program::load(compileOpenCL(R"(
kernel void tri(global uint* out, uint n) {
  uint s = 0;
  for (uint i = 0; i < n; ++i) s += i;
  out[get_global_id(0)] = s;
})"));
  bool i33 = false;
  for (const auto& [id, t] : p->module().types)
    i33 |= t.kind == spirv::TypeKind::Int && t.width == 33;
  EXPECT_TRUE(i33) << "clang no longer emits i33 here; the test needs another kernel";
  for (uint64_t n : {0ull, 1ull, 10ull, 100000ull, 4000000000ull}) {
    std::vector<uint32_t> out(1, 0);
    auto r = p->launch("tri", range1(1, 1), {bufferOf(out), valueOf(uint32_t(n))});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(out[0], uint32_t(n * (n ? n - 1 : 0) / 2)) << n;
    // Whole sub-groups (the masking runs over whole registers) and a partial last one.
    std::vector<uint32_t> many(40, 0);
    LaunchOptions wide;
    wide.subGroupSize = 16;
    r = p->launch("tri", range1(40, 20), {bufferOf(many), valueOf(uint32_t(n))}, wide);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(many, std::vector<uint32_t>(40, uint32_t(n * (n ? n - 1 : 0) / 2))) << n;
  }
}

// ---- OpenCL C at the levels where llvm-spirv-15 emits each defect ----

const char* kMatmul = R"(
kernel void matmul(global const float* A, global const float* B, global float* C, int N) {
  int r = get_global_id(1), c = get_global_id(0);
  float acc = 0;
  for (int k = 0; k < N; ++k) acc += A[r * N + k] * B[k * N + c];
  C[r * N + c] = acc;
})";

void checkMatmul(const std::string& flags, const std::vector<std::string>& rules) {
  SCOPED_TRACE(flags);
  auto p = loadRepaired(compileOpenCL(kMatmul, flags), rules);
  const int n = 6;
  std::vector<float> a(n * n), b(n * n), c(n * n, -1);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7);
    b[i] = float((i * 3) % 5);
  }
  NDRange range;
  range.dims = 2;
  range.global = {n, n, 1};
  range.local = {3, 2, 1};
  range.localGiven = true;
  auto r = p->launch("matmul", range, {bufferOf(a), bufferOf(b), bufferOf(c), valueOf(n)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      float want = 0;  // small integers: exact in float whatever the order
      for (int k = 0; k < n; ++k) want += a[row * n + k] * b[k * n + col];
      EXPECT_EQ(c[row * n + col], want) << row << "," << col;
    }
}

TEST(RepairedOpenCL, MatmulWithDebugInfoNeedsBlockOrder) {
  checkMatmul("-O2 -g", {"block order"});
  checkMatmul("-O3 -g", {"block order"});
}

TEST(RepairedOpenCL, MatmulAtO1NeedsMergesDroppedAndBlockOrder) {
  checkMatmul("-O1", {"merge instructions", "block order"});
}

TEST(RepairedOpenCL, PrivateArrayWithDebugInfo) {
  auto p = loadRepaired(compileOpenCL(R"(
kernel void priv(global int* out, int n) {
  int a[8];
  int i = get_global_id(0);
  for (int k = 0; k < 8; ++k) a[k] = i * k + n;
  int s = 0;
  for (int k = 0; k < n && k < 8; ++k) s += a[(k * 3 + i) & 7];
  out[i] = s;
})",
                                      "-O2 -g"),
                        {"block order"});
  for (int n : {0, 3, 8, 20}) {
    std::vector<int> out(16, -1);
    auto r = p->launch("priv", range1(16, 8), {bufferOf(out), valueOf(n)});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    for (int i = 0; i < 16; ++i) {
      int a[8], s = 0;
      for (int k = 0; k < 8; ++k) a[k] = i * k + n;
      for (int k = 0; k < n && k < 8; ++k) s += a[(k * 3 + i) & 7];
      EXPECT_EQ(out[i], s) << "n " << n << " i " << i;
    }
  }
}

TEST(RepairedOpenCL, VectorTernaryOnOrChainAtO1) {
  auto p = loadRepaired(compileOpenCL(R"(
kernel void sel(global int4* a, global int4* b, global int4* out) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  out[i] = (x.x > 0 || x.y > 0 || x.z > 0 || x.w > 0) ? x : y;
})",
                                      "-O1"),
                        {"vector OpSelect"});
  std::vector<int32_t> a{0, 0, 0, 0, 0, 0, 1, 0, -1, -2, -3, -4, 5, 5, 5, 5};
  std::vector<int32_t> b{9, 8, 7, 6, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 0, 0};
  std::vector<int32_t> out(16, 0);
  auto r = p->launch("sel", range1(4, 4), {bufferOf(a), bufferOf(b), bufferOf(out)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 4; ++i) {
    bool any = false;
    for (int k = 0; k < 4; ++k) any |= a[i * 4 + k] > 0;
    for (int k = 0; k < 4; ++k) EXPECT_EQ(out[i * 4 + k], any ? a[i * 4 + k] : b[i * 4 + k]);
  }
}

TEST(RepairedOpenCL, ProgramScopePointersToVariables) {
  // llvm-spirv lists p, tp and pair in the interfaces, but not counter and table, which
  // only their initializers use; p = &counter is the variable's address, tp = &table[2]
  // an OpSpecConstantOp access chain over table's, pair a composite of two.
  auto p = loadRepaired(compileOpenCL(R"(
global int counter = 5;
global int* global p = &counter;
constant int table[4] = {10, 20, 30, 40};
constant int* constant tp = &table[2];
constant int* constant pair[2] = {&table[3], &table[0]};
kernel void read(global int* out) {
  int i = get_global_id(0);
  out[i] = *p + *tp + *pair[i & 1] + i;
}
kernel void write(int v) { *p = v; })"),
                        {"entry-point interfaces"});
  std::vector<int> out(4, 0);
  auto r = p->launch("read", range1(4, 4), {bufferOf(out)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  // 5 + 30 + (40 or 10) + i.
  EXPECT_EQ(out, (std::vector<int>{75, 46, 77, 48}));
  // Program-scope variables persist across launches; p points at counter's storage.
  r = p->launch("write", range1(1, 1), {valueOf(9)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  r = p->launch("read", range1(4, 4), {bufferOf(out)});
  EXPECT_EQ(out, (std::vector<int>{79, 50, 81, 52}));
}

}  // namespace
}  // namespace spvsim
