// The undefined-value checker (check::observersFor({.undefinedValues = true})): undefined
// bytes from OpUndef, memory never written and never-initialised buffers flow through
// registers and memory and are `uninitialized-value` errors only where they are used as a
// branch condition, an address, a divisor, or reach global memory. Expected diagnostics
// are worked by hand from the kernels (which lanes hold what).
#include <gtest/gtest.h>

#include <vector>

#include "spirv/loader.h"
#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;

std::vector<uint32_t> lanes(std::initializer_list<uint32_t> l) { return l; }

NDRange group(uint64_t items, uint64_t groups = 1) {
  NDRange r;
  r.global = {items * groups, 1, 1};
  r.local = {items, 1, 1};
  r.localGiven = true;
  return r;
}

LaunchOptions options(bool undefined, bool races = false) {
  LaunchOptions o;
  o.subGroupSize = 8;
  o.observers = check::observersFor({.races = races, .undefinedValues = undefined});
  return o;
}

size_t count(const LaunchResult& r, DiagnosticKind k) {
  size_t n = 0;
  for (const auto& d : r.diagnostics)
    if (d.kind == k) n += 1 + d.repeats;
  return n;
}

// Hand-written SPIR-V: OpUndef scalars, vectors and booleans, one kernel per use.
const char* kAssembled = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %add "add" %lid
               OpEntryPoint Kernel %partial "partial" %lid
               OpEntryPoint Kernel %branch "branch" %lid
               OpEntryPoint Kernel %phi "phi" %lid
               OpEntryPoint Kernel %select "select" %lid
               OpEntryPoint Kernel %vshuffle "vshuffle" %lid
               OpName %y "y"
               OpName %sv "sv"
               OpName %su "su"
               OpName %w "w"
               OpDecorate %lid BuiltIn SubgroupLocalInvocationId
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %v4uint = OpTypeVector %uint 4
         %pu = OpTypePointer CrossWorkgroup %uint
        %piu = OpTypePointer Input %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_5 = OpConstant %uint 5
         %uu = OpUndef %uint
         %ub = OpUndef %bool
         %uv = OpUndef %v4uint
        %lid = OpVariable %piu Input
       %fnty = OpTypeFunction %void %pu %pu
        %add = OpFunction %void None %fnty
        %out = OpFunctionParameter %pu
       %out2 = OpFunctionParameter %pu
         %e1 = OpLabel
         %l1 = OpLoad %uint %lid
         %s1 = OpIAdd %uint %uu %l1
         %p1 = OpInBoundsPtrAccessChain %pu %out %l1
               OpStore %p1 %s1
               OpReturn
               OpFunctionEnd
    %partial = OpFunction %void None %fnty
       %out3 = OpFunctionParameter %pu
       %out4 = OpFunctionParameter %pu
         %e2 = OpLabel
         %l2 = OpLoad %uint %lid
          %v = OpCompositeInsert %v4uint %uint_5 %uv 0
         %v2 = OpCompositeInsert %v4uint %l2 %v 2
          %x = OpCompositeExtract %uint %v2 0
          %z = OpCompositeExtract %uint %v2 2
         %xz = OpIAdd %uint %x %z
          %y = OpCompositeExtract %uint %v2 1
         %p2 = OpInBoundsPtrAccessChain %pu %out3 %l2
               OpStore %p2 %xz
         %p3 = OpInBoundsPtrAccessChain %pu %out4 %l2
               OpStore %p3 %y
               OpReturn
               OpFunctionEnd
     %branch = OpFunction %void None %fnty
       %out5 = OpFunctionParameter %pu
       %out6 = OpFunctionParameter %pu
         %e3 = OpLabel
         %l3 = OpLoad %uint %lid
         %p5 = OpInBoundsPtrAccessChain %pu %out5 %l3
               OpSelectionMerge %j3 None
               OpBranchConditional %ub %t3 %j3
         %t3 = OpLabel
               OpStore %p5 %uint_1
               OpBranch %j3
         %j3 = OpLabel
               OpReturn
               OpFunctionEnd
        %phi = OpFunction %void None %fnty
       %out7 = OpFunctionParameter %pu
       %out8 = OpFunctionParameter %pu
         %e4 = OpLabel
         %l4 = OpLoad %uint %lid
         %lo = OpULessThan %bool %l4 %uint_2
               OpSelectionMerge %j4 None
               OpBranchConditional %lo %t4 %j4
         %t4 = OpLabel
               OpBranch %j4
         %j4 = OpLabel
         %pv = OpPhi %uint %uu %t4 %l4 %e4
         %p7 = OpInBoundsPtrAccessChain %pu %out7 %l4
               OpStore %p7 %pv
               OpReturn
               OpFunctionEnd
     %select = OpFunction %void None %fnty
       %out9 = OpFunctionParameter %pu
      %out10 = OpFunctionParameter %pu
         %e5 = OpLabel
         %l5 = OpLoad %uint %lid
        %odd = OpBitwiseAnd %uint %l5 %uint_1
         %ob = OpINotEqual %bool %odd %uint_0
         %sv = OpSelect %uint %ob %uu %l5
         %p9 = OpInBoundsPtrAccessChain %pu %out9 %l5
               OpStore %p9 %sv
         %su = OpSelect %uint %ub %l5 %l5
        %p10 = OpInBoundsPtrAccessChain %pu %out10 %l5
               OpStore %p10 %su
               OpReturn
               OpFunctionEnd
   %vshuffle = OpFunction %void None %fnty
      %out11 = OpFunctionParameter %pu
      %out12 = OpFunctionParameter %pu
         %e6 = OpLabel
         %l6 = OpLoad %uint %lid
         %dv = OpCompositeConstruct %v4uint %l6 %l6 %l6 %l6
         %sh = OpVectorShuffle %v4uint %dv %dv 0 4294967295 2 3
         %v0 = OpCompositeExtract %uint %sh 0
          %w = OpCompositeExtract %uint %sh 1
        %p11 = OpInBoundsPtrAccessChain %pu %out11 %l6
               OpStore %p11 %v0
        %p12 = OpInBoundsPtrAccessChain %pu %out12 %l6
               OpStore %p12 %w
               OpReturn
               OpFunctionEnd
)";

class UndefinedAssembled : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { program_ = Program::load(spirv::assemble(kAssembled)); }
  static void TearDownTestSuite() { program_.reset(); }

  LaunchResult run(const std::string& kernel, bool on = true) {
    a.assign(8, 0);
    b.assign(8, 0);
    return program_->launch(kernel, group(8), {bind(a), bind(b)}, options(on));
  }

  std::vector<uint32_t> a, b;
  static std::shared_ptr<Program> program_;
};

std::shared_ptr<Program> UndefinedAssembled::program_;

TEST_F(UndefinedAssembled, OpUndefStoredToGlobalMemoryIsReported) {
  LaunchResult r = run("add");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedValue);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(d.repeats, 0u);
  EXPECT_NE(d.instruction.find("OpStore"), std::string::npos) << d.instruction;
  EXPECT_NE(d.message.find("stored to global memory"), std::string::npos) << d.message;
}

TEST_F(UndefinedAssembled, OffReportsNothing) {
  LaunchResult r = run("add", false);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
}

// x and z are inserted into an undefined vector; y never is.
TEST_F(UndefinedAssembled, PartiallyWrittenVectorOnlyItsUnwrittenComponentIsUndefined) {
  LaunchResult r = run("partial");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedValue);
  EXPECT_NE(d.message.find("value %y "), std::string::npos) << d.message;
  EXPECT_EQ(d.lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
  for (uint32_t l = 0; l < 8; ++l) EXPECT_EQ(a[l], 5 + l) << l;  // x + z: defined, computed
}

TEST_F(UndefinedAssembled, BranchOnUndefinedIsReported) {
  LaunchResult r = run("branch");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_NE(d.instruction.find("OpBranchConditional"), std::string::npos) << d.instruction;
  EXPECT_NE(d.message.find("branch condition"), std::string::npos) << d.message;
  EXPECT_EQ(d.lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
}

// Lanes 0 and 1 come through %t4, whose phi operand is undefined; the others bring %l4.
TEST_F(UndefinedAssembled, PhiCarriesUndefinedOnlyAlongItsEdge) {
  LaunchResult r = run("phi");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({0, 1}));
  for (uint32_t l = 2; l < 8; ++l) EXPECT_EQ(a[l], l) << l;
}

// %sv picks the undefined operand in odd lanes only; %su has an undefined condition.
TEST_F(UndefinedAssembled, SelectTakesTheChosenOperandsShadow) {
  LaunchResult r = run("select");
  ASSERT_EQ(r.diagnostics.size(), 2u) << describe(r);
  for (const Diagnostic& d : r.diagnostics) {
    const bool sv = d.message.find("value %sv ") != std::string::npos;
    EXPECT_TRUE(sv || d.message.find("value %su ") != std::string::npos) << d.message;
    EXPECT_EQ(d.lanes, sv ? lanes({1, 3, 5, 7}) : lanes({0, 1, 2, 3, 4, 5, 6, 7})) << d.message;
  }
}

// Component 1 of %sh is the literal 0xFFFFFFFF: no value (SPIR-V OpVectorShuffle).
TEST_F(UndefinedAssembled, VectorShuffleUndefinedComponentIsUndefined) {
  LaunchResult r = run("vshuffle");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("value %w "), std::string::npos) << describe(r);
  for (uint32_t l = 0; l < 8; ++l) EXPECT_EQ(a[l], l) << l;
}

const char* kKernels = R"(
typedef struct { char c; int x; short s; } S;  // padding after c and after s

// Every member written; the copies carry padding that was never written.
__kernel void padded_copy(__local S* scratch, __global S* out, __global const int* in) {
  int l = get_local_id(0);
  S s;
  s.c = 1; s.x = in[l]; s.s = 3;
  if (l == 0) *scratch = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  S t = *scratch;
  out[l] = t;
}

// Only even elements are written; every work-item sums all 16.
__kernel void local_sum(__global int* out) {
  __local int buf[16];
  int l = get_local_id(0);
  if ((l & 1) == 0) buf[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k < 16; ++k) s += buf[k];
  out[l] = s;
}

// idx[2], idx[3] never written: lanes with (l & 3) >= 2 load at an undefined address.
__kernel void bad_address(__global const int* in, __global int* out) {
  int idx[4];
  int l = get_local_id(0);
  idx[0] = 1; idx[1] = 0;
  out[l] = in[idx[l & 3]];
}

// `in` may be a buffer the host never initialised; `scratch` is written first.
__kernel void copy_in(__global const int* in, __global int* out, __global int* scratch) {
  int l = get_local_id(0);
  scratch[l] = l * 2;
  out[l] = in[l] + scratch[l];
}

__kernel void add_pair(__global const int* a, __global const int* b, __global int* out) {
  int l = get_local_id(0);
  out[l] = a[l] + b[l];
}

// A divisor from local memory nobody wrote (lanes >= 4 only).
__kernel void divide(__global int* out) {
  __local int d[8];
  int l = get_local_id(0);
  if (l < 4) d[l] = l + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = 100 / d[l];
}

// vload2 (OpenCL.std vloadn) of local memory written only by work-items 0-7 of 8:
// work-item l reads buf[2l], buf[2l + 1], unwritten for l >= 4.
__kernel void vload_partial(__global int* out) {
  __local int buf[16];
  int l = get_local_id(0);
  buf[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int2 v = vload2(l, buf);
  out[l] = v.x + v.y;
}

// Only lane 0's x is defined (the other local slots are never written). A broadcast of
// lane 0 is defined everywhere; a shuffle with lane l ^ 1 is defined in lane 1 only.
__kernel void moves(__global int* bcast, __global int* xor1) {
  __local int u[8];
  int l = get_local_id(0);
  if (l == 0) u[0] = 42;
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = u[l];
  bcast[l] = sub_group_broadcast(x, 0);
  xor1[l] = intel_sub_group_shuffle_xor(x, 1u);
}

// Lanes 4-7 read local slots nobody wrote, then keep the low 32 bits sign-extended (clang
// at -O1 and above: shl 32; ashr 32, a pair the executor runs as one handler): the
// undefined value must still reach the store.
__kernel void sign_extend(__global long* out) {
  __local long t[8];
  int l = get_local_id(0);
  if (l < 4) t[l] = (long)l - 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  long x = t[l];
  out[l] = (long)(int)x;
}

// Work-group 0 leaves the odd slots unwritten, work-group 1 writes every slot: lanes 0, 2,
// 4 and 6 of work-group 0 only read an undefined value (l ^ 1 odd).
__kernel void first_group_only(__global int* out) {
  __local int t[8];
  int l = get_local_id(0);
  if (get_group_id(0) == 1 || (l & 1) == 0) t[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[l ^ 1];
}

// The first undefined values of these work-groups come from lanes and from an atomic, not
// from a load: a shuffle from lane 7 while only lanes 0-3 are active, and an atomic add on
// local memory nobody wrote (its result is the old, undefined value).
__kernel void shuffle_inactive(__global int* out) {
  int l = get_local_id(0);
  if (l < 4) out[l] = intel_sub_group_shuffle(l, 7u);
}
__kernel void atomic_unwritten(__global int* out) {
  __local int c[8];
  int l = get_local_id(0);
  out[l] = atomic_add(&c[l], 1);
}

// A race (every work-item writes out[0]) of values from a never-initialised buffer.
__kernel void race_and_undefined(__global const int* in, __global int* out) {
  out[0] = in[get_global_id(0)];
}
)";

class UndefinedOpenCl : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { program_ = testing::loadOpenCl(kKernels, "undefined kernels"); }
  static void TearDownTestSuite() { program_.reset(); }
  static std::shared_ptr<Program> program_;
};

std::shared_ptr<Program> UndefinedOpenCl::program_;

TEST_F(UndefinedOpenCl, PaddedStructCopiesAreClean) {
  std::vector<int> out(8 * 3, 0), in(8);
  for (int i = 0; i < 8; ++i) in[i] = 10 + i;
  LaunchResult r = program_->launch("padded_copy", group(8),
                                    {ArgBinding::local(12), bind(out), bind(in)}, options(true));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(out[3 * l + 1], 10) << l;  // work-item 0's x
}

TEST_F(UndefinedOpenCl, UninitialisedLocalArraySummedIntoTheResult) {
  std::vector<int> out(16, -1);
  LaunchResult r = program_->launch("local_sum", group(16), {bind(out)}, options(true));
  // Two sub-groups of 8, each storing undefined sums once: one diagnostic, one repeat.
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedValue);
  EXPECT_EQ(d.lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(d.repeats, 1u);
  EXPECT_NE(d.instruction.find("OpStore"), std::string::npos) << d.instruction;
}

TEST_F(UndefinedOpenCl, UninitialisedAddressIsReportedAtTheLoad) {
  std::vector<int> in{5, 6, 7, 8}, out(8, -1);
  LaunchResult r = program_->launch("bad_address", group(8), {bind(in), bind(out)}, options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_NE(d.message.find("address of a load"), std::string::npos) << d.message;
  EXPECT_EQ(d.lanes, lanes({2, 3, 6, 7}));
  for (int l : {0, 1, 4, 5}) EXPECT_EQ(out[l], (l & 3) == 0 ? 6 : 5) << l;
}

TEST_F(UndefinedOpenCl, NoinitBufferReadThenStoredIsReported) {
  std::vector<int> in(8, 1), out(8), scratch(8);
  ArgBinding noinit = bind(in);
  noinit.uninitialized = true;
  LaunchResult r =
      program_->launch("copy_in", group(8), {noinit, bind(out), bind(scratch)}, options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_NE(r.diagnostics[0].message.find("stored to global memory"), std::string::npos);
  // An initialised buffer: clean; the computed values are the same either way.
  std::vector<int> out2(8);
  LaunchResult clean =
      program_->launch("copy_in", group(8), {bind(in), bind(out2), bind(scratch)}, options(true));
  EXPECT_TRUE(clean.diagnostics.empty()) << describe(clean);
  EXPECT_EQ(out, out2);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(out2[l], 1 + 2 * l) << l;
}

// One never-initialised buffer passed as `in` and as `scratch`: each lane writes
// scratch[l] and then reads in[l], the same bytes, so the value is defined (out[l] = 4l).
TEST_F(UndefinedOpenCl, ABufferPassedTwiceSharesItsShadow) {
  std::vector<int> buffer(16, 1), out(8);
  auto window = [&](size_t first, size_t count, bool uninitialized) {
    ArgBinding b =
        ArgBinding::buffer(reinterpret_cast<uint8_t*>(buffer.data() + first), count * sizeof(int));
    b.uninitialized = uninitialized;
    return b;
  };
  LaunchResult r = program_->launch(
      "copy_in", group(8), {window(0, 8, true), bind(out), window(0, 8, true)}, options(true));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(out[l], 4 * l) << l;
  // Windows at different offsets: `in` is elements 4..11, `scratch` 8..15. Lanes 4..7
  // read elements 8..11, which lanes 0..3 wrote through `scratch`; lanes 0..3 read
  // elements 4..7, which nothing wrote: theirs are the undefined values stored.
  r = program_->launch("copy_in", group(8), {window(4, 8, true), bind(out), window(8, 8, true)},
                       options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({0, 1, 2, 3}));
  // A window the host initialised is defined where it lies, whichever argument reads it:
  // `a` is elements 0..7, never initialised, `b` elements 4..11, written by the host, so
  // a[l] is undefined for lanes 0..3 only.
  r = program_->launch("add_pair", group(8), {window(0, 8, true), window(4, 8, false), bind(out)},
                       options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({0, 1, 2, 3}));
}

// The shadow of a never-initialised buffer (a byte per byte) counts against the launch's
// memory limit before it is allocated.
TEST_F(UndefinedOpenCl, NoinitBufferShadowCountsAgainstTheMemoryLimit) {
  std::vector<int> in(1 << 18, 1), out(8), scratch(8);  // 1 MiB never initialised
  ArgBinding noinit = bind(in);
  noinit.uninitialized = true;
  LaunchOptions o = options(true);
  o.argumentMemory = 1 << 20;
  o.maxMemory = (1 << 20) + (1 << 19);  // the buffer fits, buffer + shadow does not
  try {
    program_->launch("copy_in", group(8), {noinit, bind(out), bind(scratch)}, o);
    FAIL() << "expected an out-of-memory error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("never-initialised buffers"), std::string::npos)
        << e.what();
  }
  o.maxMemory = 3 << 20;
  EXPECT_EQ(program_->launch("copy_in", group(8), {noinit, bind(out), bind(scratch)}, o)
                .diagnostics.size(),
            1u);
}

// Lanes 4-7 divide by undefined values, and store the undefined quotients.
TEST_F(UndefinedOpenCl, UndefinedDivisorIsReported) {
  std::vector<int> out(8, -1);
  LaunchResult r = program_->launch("divide", group(8), {bind(out)}, options(true));
  // The unwritten divisors hold 0 in the simulator: also a division-by-zero.
  std::vector<Diagnostic> undefined;
  for (const Diagnostic& d : r.diagnostics)
    if (d.kind == DiagnosticKind::UninitializedValue) undefined.push_back(d);
  ASSERT_EQ(undefined.size(), 2u) << describe(r);
  EXPECT_NE(undefined[0].message.find("divisor"), std::string::npos) << describe(r);
  EXPECT_EQ(undefined[0].lanes, lanes({4, 5, 6, 7}));
  EXPECT_NE(undefined[1].message.find("stored to global memory"), std::string::npos);
  EXPECT_EQ(undefined[1].lanes, lanes({4, 5, 6, 7}));
  EXPECT_EQ(count(r, DiagnosticKind::DivisionByZero), 1u) << describe(r);
  for (int l = 0; l < 4; ++l) EXPECT_EQ(out[l], 100 / (l + 1)) << l;
}

TEST_F(UndefinedOpenCl, VloadOfUnwrittenMemoryGivesAnUndefinedValue) {
  std::vector<int> out(8, -1);
  LaunchResult r = program_->launch("vload_partial", group(8), {bind(out)}, options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("stored to global memory"), std::string::npos);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({4, 5, 6, 7}));
  for (int l = 0; l < 4; ++l) EXPECT_EQ(out[l], 4 * l + 1) << l;
}

TEST_F(UndefinedOpenCl, ShufflesAndBroadcastsMoveShadowsBetweenLanes) {
  std::vector<int> bcast(8, -1), xor1(8, -1);
  LaunchResult r = program_->launch("moves", group(8), {bind(bcast), bind(xor1)}, options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({0, 2, 3, 4, 5, 6, 7}));
  for (int l = 0; l < 8; ++l) EXPECT_EQ(bcast[l], 42) << l;
  EXPECT_EQ(xor1[1], 42);
}

// Instructions that the executor fuses run one by one where the checker follows a value
// through them (LoweredKernel::unfuseWhere): lanes 4-7 store undefined values.
TEST_F(UndefinedOpenCl, FusedPairsCarryTheShadowThroughThem) {
  std::vector<int64_t> out(8, -100);
  LaunchResult r = program_->launch("sign_extend", group(8), {bind(out)}, options(true));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::UninitializedValue);
  EXPECT_NE(r.diagnostics[0].message.find("stored to global memory"), std::string::npos);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({4, 5, 6, 7}));
  for (int l = 0; l < 4; ++l) EXPECT_EQ(out[l], l - 2) << l;
}

// One host thread runs both work-groups in one slot, whose sub-groups keep their shadow
// registers from work-group 0 to 1 (UndefinedValueChecker::workGroupBegin): nothing
// undefined of work-group 0 may show in work-group 1.
TEST_F(UndefinedOpenCl, AWorkGroupsUndefinedValuesStayInIt) {
  std::vector<int> out(16, -1);
  LaunchOptions o = options(true);
  o.threads = 1;
  LaunchResult r = program_->launch("first_group_only", group(8, 2), {bind(out)}, o);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedValue);
  EXPECT_EQ(d.lanes, lanes({0, 2, 4, 6}));
  ASSERT_TRUE(d.workGroup.has_value());
  EXPECT_EQ((*d.workGroup)[0], 0u);
  EXPECT_EQ(d.repeats, 0u);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(out[8 + l], l ^ 1) << l;
}

// With every shadow register clean, rules that only move shadows do nothing
// (SubGroup::shadowClean): a shuffle of inactive lanes and an atomic's read of unwritten
// memory must still make their results undefined, and the stores report them.
TEST_F(UndefinedOpenCl, UndefinedValuesFromLanesAndAtomicsOnACleanFile) {
  for (const char* kernel : {"shuffle_inactive", "atomic_unwritten"}) {
    std::vector<int> out(8, -1);
    LaunchResult r = program_->launch(kernel, group(8), {bind(out)}, options(true));
    std::vector<Diagnostic> undefined;
    for (const Diagnostic& d : r.diagnostics)
      if (d.kind == DiagnosticKind::UninitializedValue) undefined.push_back(d);
    ASSERT_EQ(undefined.size(), 1u) << kernel << ": " << describe(r);
    EXPECT_NE(undefined[0].message.find("stored to global memory"), std::string::npos)
        << undefined[0].message;
    EXPECT_EQ(undefined[0].lanes, std::string(kernel) == "shuffle_inactive"
                                      ? lanes({0, 1, 2, 3})
                                      : lanes({0, 1, 2, 3, 4, 5, 6, 7}))
        << kernel;
  }
}

TEST_F(UndefinedOpenCl, RaceCheckerKeepsWorkingBesideIt) {
  std::vector<int> in(16), out(1, 0);
  for (int i = 0; i < 16; ++i) in[i] = i;
  ArgBinding noinit = bind(in);
  noinit.uninitialized = true;
  LaunchResult r =
      program_->launch("race_and_undefined", group(8, 2), {noinit, bind(out)}, options(true, true));
  EXPECT_GE(count(r, DiagnosticKind::DataRace), 1u) << describe(r);
  // One undefined store per work-group (one sub-group each).
  EXPECT_EQ(count(r, DiagnosticKind::UninitializedValue), 2u) << describe(r);
}

}  // namespace
}  // namespace spvsim
