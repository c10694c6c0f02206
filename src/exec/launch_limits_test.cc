// Launch setup never runs less than asked for: NDRange arithmetic that would overflow is
// an invalid-argument error; memory a launch cannot have is an out-of-memory error before
// anything is allocated; exceptions in worker threads reach the caller; call depth is
// bounded.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <new>

#include "spirv/error.h"
#include "src/exec/launch.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;
using testing::valueOf;

// The Error's kind and message, or "no error".
template <class F>
std::pair<std::string, std::string> errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return {std::string(e.kindName()), e.what()};
  }
  return {"no error", ""};
}

const char* kStore = "kernel void k(global int* a) { a[0] = 1; }";

TEST(LaunchLimits, GlobalSizeOfSizeMaxIsNotSilentlyEmpty) {
  auto prog = Program::load(compileOpenCL(kStore));
  std::vector<int> a(1, 0);
  NDRange r;
  r.global = {~uint64_t(0), 1, 1};  // 2^64 - 1 = 3 x 5 x 17 x ...: local 255 chosen
  auto [kind, message] = errorOf([&] { prog->launch("k", r, {bufferOf(a)}); });
  EXPECT_EQ(kind, "invalid-argument");
  // (2^64 - 1) / 255 work-groups, far more than the 2^40 spvsim runs.
  EXPECT_NE(message.find("72340172838076673 work-groups"), std::string::npos) << message;
  EXPECT_EQ(a[0], 0);
}

TEST(LaunchLimits, WorkItemCountBeyondSizeMaxIsRefused) {
  auto prog = Program::load(compileOpenCL(kStore));
  std::vector<int> a(1, 0);
  NDRange r;
  r.dims = 3;
  r.global = {1ull << 32, 1ull << 32, 16};  // 2^68 work-items: the product wrapped to 0
  r.local = {1, 1, 1};
  r.localGiven = true;
  auto [kind, message] = errorOf([&] { prog->launch("k", r, {bufferOf(a)}); });
  EXPECT_EQ(kind, "invalid-argument");
  EXPECT_NE(message.find("more than 2^64 - 1 work-items"), std::string::npos) << message;
}

TEST(LaunchLimits, GlobalOffsetPlusSizeMustFitSizeT) {
  auto prog = Program::load(compileOpenCL(kStore));
  std::vector<int> a(1, 0);
  NDRange r = range1(4, 4);
  r.offset = {~uint64_t(0) - 2, 0, 0};  // + 4 > 2^64 - 1
  auto [kind, message] = errorOf([&] { prog->launch("k", r, {bufferOf(a)}); });
  EXPECT_EQ(kind, "invalid-argument");
  EXPECT_NE(message.find("global offset 18446744073709551613 + global size 4 in dimension 0"),
            std::string::npos)
      << message;
  r.offset = {~uint64_t(0) - 4, 0, 0};  // the last one that fits: ids up to 2^64 - 2
  auto res = prog->launch("k", r, {bufferOf(a)});
  EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
  EXPECT_EQ(a[0], 1);
}

TEST(LaunchLimits, HugeLocalSizesDoNotOverflowTheWorkGroupCheck) {
  auto prog = Program::load(compileOpenCL(kStore));
  std::vector<int> a(1, 0);
  NDRange r;
  r.dims = 2;
  r.global = {1ull << 33, 2, 1};
  r.local = {1ull << 32, 1ull << 32, 1};  // product 2^64 wraps to 0
  r.localGiven = true;
  auto [kind, message] = errorOf([&] { prog->launch("k", r, {bufferOf(a)}); });
  EXPECT_EQ(kind, "invalid-argument");
  EXPECT_NE(message.find("work-group size more than 2^64 - 1 (4294967296 x 4294967296 x 1) "
                         "exceeds the 2^32 - 1 work-items"),
            std::string::npos)
      << message;
}

// Diagnostics are ordered by work-group, then sub-group: a work-group of more than 2^16
// sub-groups (sub-group size 1, 65538 work-items) keeps its last sub-group's diagnostic
// before the next work-group's first. The two out-of-bounds writes are one instruction, so
// the one reported is the first in that order and the other is its repeat.
TEST(LaunchLimits, DiagnosticsOfWorkGroupsBeyond65536SubGroupsStayInOrder) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* a) {
  size_t l = get_local_id(0), g = get_group_id(0);
  if ((g == 0 && l == 65537) || (g == 1 && l == 0)) a[l + 1] = 1;
})"));
  std::vector<int> a(1, 0);
  LaunchOptions o;
  o.subGroupSize = 1;
  LaunchResult r = prog->launch("k", range1(2 * 65538, 65538), {bufferOf(a)}, o);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::OutOfBounds);
  EXPECT_EQ(d.repeats, 1u);
  EXPECT_EQ(d.workGroup, (std::array<uint64_t, 3>{0, 0, 0}));
  EXPECT_EQ(d.subGroup, std::optional<uint32_t>(65537));
}

// 1 GiB of private memory per work-item: 256 GiB for a work-group of 256.
const char* kBigPrivate = R"(
kernel void k(global int* out, int n) {
  volatile int big[1 << 28];
  big[n] = 7;
  out[get_global_id(0)] = big[n];
})";

TEST(LaunchLimits, PrivateMemoryBeyondTheLimitIsOutOfMemory) {
  auto prog = Program::load(compileOpenCL(kBigPrivate));
  std::vector<int> out(1024, 0);
  for (unsigned threads : {1u, 4u}) {
    LaunchOptions o;
    o.threads = threads;
    o.maxMemory = 64ull << 30;
    auto [kind, message] = errorOf([&] {
      prog->launch("k", range1(1024, 256), {bufferOf(out), valueOf<int>(3)}, o);
    });
    EXPECT_EQ(kind, "out-of-memory") << threads;
    EXPECT_NE(message.find("a work-group of 256 work-items (private memory 1 GiB per work-item"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("more than the memory limit of 68719476736 bytes (64 GiB)"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("--max-memory"), std::string::npos) << message;
  }
}

TEST(LaunchLimits, LocalMemoryBeyondTheLimitIsOutOfMemory) {
  auto prog = Program::load(
      compileOpenCL("kernel void k(global int* a, local int* t) { t[0] = 1; a[0] = t[0]; }"));
  std::vector<int> a(1, 0);
  LaunchOptions o;
  o.maxMemory = 1ull << 30;
  auto [kind, message] = errorOf([&] {
    prog->launch("k", range1(1, 1), {bufferOf(a), ArgBinding::local(16ull << 30)}, o);
  });
  EXPECT_EQ(kind, "out-of-memory");
  EXPECT_NE(message.find("local memory 16 GiB"), std::string::npos) << message;
  // Beyond the largest object spvsim places, whatever the limit.
  std::tie(kind, message) = errorOf([&] {
    prog->launch("k", range1(1, 1), {bufferOf(a), ArgBinding::local(1ull << 40)});
  });
  EXPECT_EQ(kind, "invalid-argument");
  // 2^37 bytes (memory.h), not the 2^38 the message once said.
  EXPECT_NE(message.find("(137438953472 bytes, 128 GiB)"), std::string::npos) << message;
}

// Each host thread holds one work-group's memory: with room for two, a launch asking for
// eight threads runs on two, with the same results.
TEST(LaunchLimits, FewerThreadsRunWhenAllWouldNotFit) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* out) {
  volatile int tmp[1 << 16];  // 256 KiB per work-item
  tmp[get_local_id(0)] = (int)get_global_id(0);
  out[get_global_id(0)] = tmp[get_local_id(0)] * 2;
})"));
  std::vector<int> out(64, 0);
  LaunchOptions o;
  o.threads = 8;
  o.subGroupSize = 4;
  // A work-group of 4 needs 1 MiB of private memory plus registers: two fit in 2.5 MiB.
  o.maxMemory = (5ull << 20) / 2;
  auto res = prog->launch("k", range1(64, 4), {bufferOf(out)}, o);
  EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], 2 * i) << i;
}

// What `spvsim run` has its host threads touch before a launch (Program::slotBytesEstimate)
// is the launch's own work-group slot without observers, and no less with local
// arguments (each counted with the alignment it may need).
TEST(LaunchLimits, TheSlotEstimateCoversTheLaunchsSlot) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* out, local int* scratch) {
  int tmp[40];
  local int tile[64];
  size_t l = get_local_id(0);
  tmp[l % 40] = (int)l;
  tile[l] = tmp[(l + 1) % 40];
  scratch[l] = tile[63 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[(l + 1) % 64];
})"));
  std::vector<int> out(256, 0);
  LaunchOptions o;
  o.subGroupSize = 16;
  for (uint64_t localArg : {uint64_t(256), uint64_t(1000)}) {
    const std::vector<ArgBinding> args = {bufferOf(out), ArgBinding::local(localArg)};
    const NDRange range = range1(256, 64);
    const LaunchState state(*prog, prog->kernel("k"), range, args, o);
    const uint64_t estimate = prog->slotBytesEstimate(prog->kernel("k"), 16, range, localArg + 128);
    EXPECT_GE(estimate, state.slotBytes()) << localArg;
    EXPECT_LE(estimate, state.slotBytes() + 256) << localArg;
  }
}

// Lowers this process's address-space limit to its current size plus `headroom` while
// it lives, so that a huge allocation fails at once whatever the overcommit policy.
class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(uint64_t headroom) {
    getrlimit(RLIMIT_AS, &saved_);
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    rlimit lowered = saved_;
    lowered.rlim_cur = pages * uint64_t(sysconf(_SC_PAGE_SIZE)) + headroom;
    setrlimit(RLIMIT_AS, &lowered);
  }
  ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &saved_); }

 private:
  rlimit saved_{};
};

// An exception in a worker thread (here std::bad_alloc: 2 x 2^37 bytes of private memory
// per work-item, 2 TiB per work-group of 8, with no memory limit) stops the other
// workers and reaches the caller instead of terminating the process.
TEST(LaunchLimits, WorkerExceptionsReachTheCaller) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // ASan and TSan end the process on an allocation they cannot make instead of throwing,
  // and their shadow memory does not fit under an address-space limit.
  GTEST_SKIP() << "needs std::bad_alloc from operator new, which ASan and TSan do not throw";
#endif
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* out, long n) {
  volatile int x[1L << 35], y[1L << 35];
  x[n] = 1;
  y[n] = 2;
  out[get_global_id(0)] = x[n] + y[n];
})"));
  std::vector<int> out(64, 0);
  for (unsigned threads : {4u, 1u}) {
    LaunchOptions o;
    o.threads = threads;
    o.subGroupSize = 8;
    o.maxMemory = ~uint64_t(0);
    AddressSpaceLimit limit(4ull << 30);
    EXPECT_THROW(prog->launch("k", range1(64, 8), {bufferOf(out), valueOf<int64_t>(1)}, o),
                 std::bad_alloc)
        << threads << " threads";
  }
}

// Calls nested deeper than kMaxCallDepth (distinct functions: the loader refuses
// recursion) stop with a fatal diagnostic instead of growing the call stack further.
TEST(LaunchLimits, CallsNestedTooDeeplyAreAStackOverflow) {
  constexpr int kFunctions = 1100;
  std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
      %kfunc = OpTypeFunction %void %ptr_uint
      %ffunc = OpTypeFunction %uint %uint
)";
  // f<i>(n) = f<i+1>(n + 1); the last returns n.
  for (int i = 0; i < kFunctions; ++i) {
    const std::string f = "%f" + std::to_string(i), n = "%n" + std::to_string(i);
    text += f + " = OpFunction %uint None %ffunc\n" + n + " = OpFunctionParameter %uint\n%e" +
            std::to_string(i) + " = OpLabel\n";
    if (i + 1 == kFunctions) {
      text += "OpReturnValue " + n + "\nOpFunctionEnd\n";
      continue;
    }
    text += "%a" + std::to_string(i) + " = OpIAdd %uint " + n + " %uint_1\n%r" + std::to_string(i) +
            " = OpFunctionCall %uint %f" + std::to_string(i + 1) + " %a" + std::to_string(i) +
            "\nOpReturnValue %r" + std::to_string(i) + "\nOpFunctionEnd\n";
  }
  text += R"(
          %k = OpFunction %void None %kfunc
        %out = OpFunctionParameter %ptr_uint
         %ke = OpLabel
          %v = OpFunctionCall %uint %f0 %uint_1
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)";
  auto prog = Program::load(spirv::assemble(text));
  std::vector<uint32_t> out(1, 0);
  for (unsigned threads : {1u, 3u}) {
    LaunchOptions o;
    o.threads = threads;
    auto res = prog->launch("k", range1(6, 2), {bufferOf(out)}, o);
    ASSERT_EQ(res.diagnostics.size(), 1u) << describe(res);
    EXPECT_EQ(res.diagnostics[0].kind, DiagnosticKind::StackOverflow);
    EXPECT_EQ(res.diagnostics[0].message, "call depth exceeds 1024 nested calls");
    EXPECT_TRUE(res.aborted);
  }
}

// Program-scope variables are allocated at load: their total is checked first.
TEST(LaunchLimits, ProgramScopeVariablesBeyondTheLimitAreOutOfMemory) {
  const auto words = compileOpenCL(R"(
global int table[1 << 30];  // 4 GiB, zero-initialised
kernel void k(global int* a) { a[0] = table[a[1]]; })",
                                   "-cl-std=CL2.0");
  auto [kind, message] = errorOf([&] { Program::load(words, {}, 1ull << 30); });
  EXPECT_EQ(kind, "out-of-memory");
  EXPECT_NE(message.find("the program-scope variables of the module would take 4294967296 bytes"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace spvsim
