// End-to-end executor tests: OpenCL C kernels compiled at test time, results checked
// against host models written here, diagnostics against their contract.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::valueOf;

using testing::bufferOf;
using testing::describe;
using testing::range1;

using testing::compileOpenCL;

const Diagnostic* find(const LaunchResult& r, const std::string& kind) {
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) return &d;
  return nullptr;
}

// Per-lane trip counts, a call inside divergent code, an early return and a switch.
const char* kDivergent = R"(
__attribute__((noinline)) int collatz(int n) {
  int steps = 0;
  while (n != 1) { n = (n & 1) ? 3 * n + 1 : n / 2; ++steps; }
  return steps;
}
__attribute__((noinline)) int classify(int v) {
  switch (v % 4) { case 0: return v * 10; case 1: return v + 1000; case 2: return -v; }
  return 7;
}
__kernel void k(__global int* out) {
  int i = get_global_id(0);
  if (i % 5 == 4) { out[i] = -1; return; }
  int r;
  if (i & 1) r = collatz(i + 1); else r = classify(i) + collatz(2 * i + 3);
  out[i] = r;
}
)";

int hostCollatz(int n) {
  int s = 0;
  while (n != 1) n = (n & 1) ? 3 * n + 1 : n / 2, ++s;
  return s;
}
int hostClassify(int v) {
  switch (v % 4) {
    case 0:
      return v * 10;
    case 1:
      return v + 1000;
    case 2:
      return -v;
  }
  return 7;
}

TEST(Executor, DivergenceCallsReturnsAndSwitch) {
  auto prog = Program::load(compileOpenCL(kDivergent));
  for (uint32_t sgSize : {1u, 4u, 16u, 32u}) {
    std::vector<int> out(75, 0);
    LaunchOptions o;
    o.subGroupSize = sgSize;
    auto res = prog->launch("k", range1(75, 25), {bufferOf(out)}, o);
    EXPECT_TRUE(res.diagnostics.empty()) << formatText(res.diagnostics[0]);
    for (int i = 0; i < 75; ++i) {
      int want = i % 5 == 4 ? -1
                 : (i & 1)  ? hostCollatz(i + 1)
                            : hostClassify(i) + hostCollatz(2 * i + 3);
      ASSERT_EQ(out[i], want) << "i=" << i << " sub-group size " << sgSize;
    }
  }
}

// A switch on a 64-bit value (case literals of two words) whose cases pick phi inputs,
// compiled with -g: llvm-spirv then puts a DebugScope before the OpPhi, which must not
// hide the phi from its incoming edges. out[i] = 10 * (group + 1) + 3 for groups 0..2.
TEST(Executor, SwitchOnLongAndPhisAfterDebugInfo) {
  const char* source = R"(
kernel void k(global int* out) {
  int v;
  switch (get_group_id(0)) {
    case 0: v = 10; break;
    case 1: v = 20; break;
    case 4294967296: v = -1; break;
    default: v = 30; break;
  }
  out[get_global_id(0)] = v + 3;
})";
  for (const char* flags : {"", "-g"}) {
    auto prog = Program::load(compileOpenCL(source, flags));
    std::vector<int> out(12, 0);
    auto res = prog->launch("k", range1(12, 4), {bufferOf(out)});
    EXPECT_TRUE(res.diagnostics.empty()) << formatText(res.diagnostics[0]);
    for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], 10 * (i / 4 + 1) + 3) << i << " " << flags;
  }
  // A phi joining a call's result and an addition: out[i] = 2 (i + 1) for even i,
  // i + 101 for odd i.
  const char* branchy = R"(
__attribute__((noinline)) uint twice(uint v) { return v * 2u; }
kernel void k(global uint* out) {
  uint i = get_global_id(0), x = i + 1u;
  if (i % 2u == 0u) x = twice(x); else x = x + 100u;
  out[i] = x;
})";
  for (const char* flags : {"", "-g"}) {
    auto prog = Program::load(compileOpenCL(branchy, flags));
    std::vector<int> out(8, 0);
    auto res = prog->launch("k", range1(8, 8), {bufferOf(out)});
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(out[i], i % 2 ? i + 101 : 2 * (i + 1)) << i << " " << flags;
  }
}

// A divergent switch on 64-bit keys that differ only in their high word (case literals
// of two words), with a fall-through, at -O0 (a real OpSwitch) and -O2; the lanes
// reconverge after it. By hand: key = i << 32; i = 1 adds 10 then 100 (v = 111), i = 2
// adds 100 (101), i = 3 sets -5, the others take the default 7; out = 2 v + i.
TEST(Executor, DivergentSwitchOnLongWithFallThrough) {
  const char* source = R"(
kernel void k(global long* out) {
  ulong i = get_global_id(0), key = i << 32;
  long v = 1;
  switch (key) {
    case 0x100000000UL: v += 10;  // falls through
    case 0x200000000UL: v += 100; break;
    case 0x300000000UL: v = -5; break;
    default: v = 7;
  }
  out[i] = 2 * v + (long)i;
})";
  const std::vector<int64_t> want{14, 223, 204, -7, 18, 19, 20, 21};
  for (const char* flags : {"-O0", "-O2"}) {
    auto prog = Program::load(compileOpenCL(source, flags));
    std::vector<int64_t> out(8, 0);
    auto res = prog->launch("k", range1(8, 8), {bufferOf(out)});
    EXPECT_TRUE(res.diagnostics.empty()) << formatText(res.diagnostics[0]);
    EXPECT_EQ(out, want) << flags;
  }
}

// The sub-group partition of src/DESIGN.md: by linear local id, all full but the last.
TEST(Executor, SubGroupBuiltinsFollowThePartition) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global uint* out) {
  size_t g = get_global_linear_id();
  out[4 * g + 0] = get_sub_group_id();
  out[4 * g + 1] = get_sub_group_local_id();
  out[4 * g + 2] = get_sub_group_size();
  out[4 * g + 3] = get_num_sub_groups() * 1000 + get_enqueued_num_sub_groups();
}
)",
                                          "-cl-ext=+cl_khr_subgroups"));
  // Global 13x6, local 5x3 (15 items, enqueued); the last group in x has 3x3 = 9 items.
  NDRange r;
  r.dims = 2;
  r.global = {13, 6, 1};
  r.local = {5, 3, 1};
  r.localGiven = true;
  std::vector<uint32_t> out(13 * 6 * 4, 0xdead);
  LaunchOptions o;
  o.subGroupSize = 4;
  auto res = prog->launch("k", r, {bufferOf(out)}, o);
  ASSERT_TRUE(res.diagnostics.empty()) << formatText(res.diagnostics[0]);
  for (uint32_t y = 0; y < 6; ++y)
    for (uint32_t x = 0; x < 13; ++x) {
      uint32_t lx = x % 5, ly = y % 3, groupX = x / 5;
      uint32_t sizeX = groupX == 2 ? 3 : 5;  // 13 = 5 + 5 + 3
      uint32_t items = sizeX * 3, linear = lx + ly * sizeX;
      uint32_t numSg = (items + 3) / 4, enqSg = (15 + 3) / 4;
      uint32_t sg = linear / 4;
      uint32_t sgSize = sg + 1 < numSg ? 4 : items - 4 * (numSg - 1);
      size_t g = x + 13 * y;
      EXPECT_EQ(out[4 * g + 0], sg) << x << "," << y;
      EXPECT_EQ(out[4 * g + 1], linear % 4) << x << "," << y;
      EXPECT_EQ(out[4 * g + 2], sgSize) << x << "," << y;
      EXPECT_EQ(out[4 * g + 3], numSg * 1000 + enqSg) << x << "," << y;
    }
}

TEST(Executor, ReqdSubGroupSizeOverridesLaunchSize) {
  auto prog = Program::load(compileOpenCL(
      R"(
__attribute__((intel_reqd_sub_group_size(8)))
__kernel void k(__global uint* out) { out[get_global_id(0)] = get_max_sub_group_size(); }
)",
      "-cl-ext=+cl_khr_subgroups,+cl_intel_subgroups,+cl_intel_required_subgroup_size"));
  std::vector<uint32_t> out(32, 0);
  LaunchOptions o;
  o.subGroupSize = 16;
  auto res = prog->launch("k", range1(32, 32), {bufferOf(out)}, o);
  EXPECT_EQ(res.subGroupSize, 8u);
  for (uint32_t v : out) EXPECT_EQ(v, 8u);
}

TEST(Executor, LocalMemoryAndBarriers) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global const int* in, __global int* out, __local int* tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
)"));
  std::vector<int> in(256), out(4, 0);
  std::iota(in.begin(), in.end(), 1);
  for (unsigned threads : {1u, 3u}) {
    LaunchOptions o;
    o.threads = threads;
    o.subGroupSize = 8;
    auto res = prog->launch("k", range1(256, 64),
                            {bufferOf(in), bufferOf(out), ArgBinding::local(64 * 4)}, o);
    ASSERT_TRUE(res.diagnostics.empty()) << formatText(res.diagnostics[0]);
    for (int g = 0; g < 4; ++g) {
      int want = 0;
      for (int i = 64 * g; i < 64 * (g + 1); ++i) want += i + 1;
      EXPECT_EQ(out[g], want) << "group " << g << " threads " << threads;
    }
  }
}

TEST(Executor, OutOfBoundsIsReportedWithLanes) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global const int* in, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i + 4];
}
)"));
  std::vector<int> in(16, 5), out(16, 0);
  LaunchOptions o;
  o.subGroupSize = 16;
  auto res = prog->launch("k", range1(16, 16), {bufferOf(in), bufferOf(out)}, o);
  const Diagnostic* d = find(res, "out-of-bounds");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->lanes, (std::vector<uint32_t>{12, 13, 14, 15}));
  EXPECT_NE(d->instruction.find("OpLoad"), std::string::npos) << d->instruction;
  EXPECT_NE(d->message.find("byte offset 64"), std::string::npos) << d->message;
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[12], 0);  // the failed load reads as 0
  EXPECT_TRUE(hasErrors(res.diagnostics));
}

TEST(Executor, BarrierDivergenceIsReported) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global int* out) {
  if (get_local_id(0) < 3) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}
)"));
  std::vector<int> out(8, 0);
  auto res = prog->launch("k", range1(8, 8), {bufferOf(out)});
  EXPECT_NE(find(res, "barrier-divergence"), nullptr);
  EXPECT_TRUE(res.aborted);
}

TEST(Executor, InfiniteLoopHitsTheInstructionBudget) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global volatile int* flag) { while (flag[0] == 0) {} }
)"));
  std::vector<int> flag(1, 0);
  LaunchOptions o;
  o.instructionBudget = 10000;
  auto res = prog->launch("k", range1(4, 4), {bufferOf(flag)}, o);
  EXPECT_NE(find(res, "instruction-budget"), nullptr);
}

// Work-groups go to host threads in runs (LaunchProgress::take); after a fatal one, every
// work-group before it still runs, on any number of threads, and the diagnostics are
// the same: the fatal group's alone (the later one's is dropped).
TEST(Executor, EveryWorkGroupBeforeAFatalOneRunsOnAnyThreadCount) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global int* seen, __global volatile int* flag, int bad) {
  size_t g = get_group_id(0);
  if (get_local_id(0) == 0) seen[g] = 1;
  if (g == bad || g == bad + 500) while (flag[0] == 0) {}
}
)"));
  constexpr int kGroups = 3000, kBad = 1777;
  std::string first;
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE(threads);
    std::vector<int> seen(kGroups, 0), flag(1, 0);
    LaunchOptions o;
    o.threads = threads;
    o.instructionBudget = 5000;
    auto res = prog->launch("k", range1(kGroups * 2, 2),
                            {bufferOf(seen), bufferOf(flag), valueOf<int>(kBad)}, o);
    EXPECT_TRUE(res.aborted);
    ASSERT_EQ(res.diagnostics.size(), 1u) << describe(res);
    EXPECT_NE(find(res, "instruction-budget"), nullptr);
    ASSERT_TRUE(res.diagnostics[0].workGroup);
    EXPECT_EQ((*res.diagnostics[0].workGroup)[0], uint64_t(kBad));
    for (int g = 0; g <= kBad; ++g) ASSERT_EQ(seen[g], 1) << "work-group " << g;
    if (first.empty()) first = describe(res);
    EXPECT_EQ(describe(res), first);
  }
}

TEST(Executor, DivisionByZeroIsReported) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global int* a, __global int* b) { size_t i = get_global_id(0); a[i] = a[i] / b[i]; }
)"));
  std::vector<int> a{10, 20, 30, 40}, b{2, 0, 3, 0};
  auto res = prog->launch("k", range1(4, 4), {bufferOf(a), bufferOf(b)});
  const Diagnostic* d = find(res, "division-by-zero");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->lanes, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(a[0], 5);
  EXPECT_EQ(a[2], 10);
}

TEST(Executor, ArgumentErrorsAreInvalidArgument) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global int* a, int n) { a[0] = n; }
)"));
  std::vector<int> a(1);
  EXPECT_THROW(prog->launch("k", range1(1, 1), {bufferOf(a)}), Error);
  EXPECT_THROW(prog->launch("k", range1(1, 1), {bufferOf(a), valueOf<int64_t>(3)}), Error);
  EXPECT_THROW(prog->launch("nope", range1(1, 1), {}), Error);
  NDRange bad = range1(1, 1);
  bad.local = {uint64_t(1) << 32, 1, 1};  // more work-items than 32-bit local ids count
  EXPECT_THROW(prog->launch("k", bad, {bufferOf(a), valueOf<int>(3)}), Error);
  auto res = prog->launch("k", range1(1, 1), {bufferOf(a), valueOf<int>(3)});
  EXPECT_TRUE(res.diagnostics.empty());
  EXPECT_EQ(a[0], 3);
}

// OpGroupAsyncCopy at Subgroup execution scope (valid SPIR-V; OpenCL C's async copies are
// Workgroup-scope, and only those run).
TEST(Executor, UnsupportedInstructionFailsLoudlyNamingIt) {
  auto prog = Program::load(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Groups
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_3 = OpConstant %uint 3
    %ulong_1 = OpConstant %ulong 1
    %ulong_4 = OpConstant %ulong 4
      %event = OpTypeEvent
       %noev = OpConstantNull %event
         %pg = OpTypePointer CrossWorkgroup %uint
         %pl = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %pg %pl
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %pg
          %t = OpFunctionParameter %pl
      %entry = OpLabel
          %e = OpGroupAsyncCopy %event %uint_3 %t %a %ulong_4 %ulong_1 %noev
               OpReturn
               OpFunctionEnd
)"));
  std::vector<int> a(4);
  try {
    prog->launch("k", range1(1, 1), {bufferOf(a), ArgBinding::local(16)});
    FAIL() << "expected unsupported";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("OpGroupAsyncCopy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("in kernel k"), std::string::npos) << e.what();
  }
}

// Results are identical for any host thread count.
TEST(Executor, DeterministicAcrossThreadCounts) {
  auto prog = Program::load(compileOpenCL(kDivergent));
  std::vector<int> first;
  for (unsigned threads : {1u, 2u, 5u}) {
    std::vector<int> out(300, 0);
    LaunchOptions o;
    o.threads = threads;
    auto res = prog->launch("k", range1(300, 20), {bufferOf(out)}, o);
    if (first.empty()) first = out;
    EXPECT_EQ(out, first) << threads << " threads";
  }
}

// Private memory a work-group never wrote must not show what an earlier work-group on
// the same host thread left there: every work-group starts with zeroed private memory
// (README, "Semantics"), so the result cannot depend on the thread count.
TEST(Executor, PrivateMemoryDoesNotLeakBetweenWorkGroups) {
  auto prog = Program::load(compileOpenCL(R"(
__kernel void k(__global int* out) {
  volatile int a[4];
  if (get_group_id(0) == 0) { a[0] = 7; a[1] = 7; a[2] = 7; a[3] = 7; }
  out[get_global_id(0)] = a[get_local_id(0) % 4];
}
)"));
  for (unsigned threads : {1u, 4u}) {
    std::vector<int> out(32, -1);
    LaunchOptions o;
    o.threads = threads;
    o.subGroupSize = 8;
    prog->launch("k", range1(32, 8), {bufferOf(out)}, o);
    for (int i = 0; i < 32; ++i)
      EXPECT_EQ(out[i], i < 8 ? 7 : 0) << "work-item " << i << ", " << threads << " thread(s)";
  }
}

}  // namespace
}  // namespace spvsim
