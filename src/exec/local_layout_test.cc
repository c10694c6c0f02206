// A kernel's local-memory layout holds only the __local arrays of its own call tree, so
// a launch of one kernel does not pay for (or run out of memory on) another kernel's
// arrays in the same module.
#include <gtest/gtest.h>

#include "spirv/error.h"
#include "src/exec/lowered.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;

// small: float[16] (64 bytes); big: float[100000] (400000 bytes). Each work-item of a
// 16-item group writes its array element, then reads its mirror: out[i] = 15 - i.
const char* kTwoKernels = R"(
kernel void small(global float* out) {
  local float t[16];
  t[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[15 - get_local_id(0)];
}
kernel void big(global float* out) {
  local float b[100000];
  b[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b[15 - get_local_id(0)];
}
)";

uint64_t roundUp(uint64_t n, uint64_t align) { return (n + align - 1) / align * align; }

TEST(LocalLayout, HoldsOnlyTheKernelsOwnArrays) {
  auto program = Program::load(compileOpenCL(kTwoKernels));
  const LoweredKernel& small = program->lowered(program->kernel("small"), 16);
  EXPECT_EQ(roundUp(small.localBytes, kLocalVariableAlign), 64u);
  ASSERT_EQ(small.localRegions.size(), 2u);  // region 0 is the null region
  EXPECT_EQ(small.localRegions[1].size, 64u);
  const LoweredKernel& big = program->lowered(program->kernel("big"), 16);
  EXPECT_EQ(roundUp(big.localBytes, kLocalVariableAlign), 400000u);
}

TEST(LocalLayout, LaunchFitsInMemoryTheOtherKernelsArrayWouldExceed) {
  auto program = Program::load(compileOpenCL(kTwoKernels));
  LaunchOptions options;
  options.threads = 1;
  options.maxMemory = 256u << 10;  // less than big's 400000-byte array
  std::vector<float> out(16, -1.0f);
  LaunchResult r = program->launch("small", range1(16, 16), {bufferOf(out)}, options);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], float(15 - i)) << i;
  // The limit binds: big's own array does not fit.
  try {
    program->launch("big", range1(16, 16), {bufferOf(out)}, options);
    ADD_FAILURE() << "big launched within 256 KiB";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory) << e.what();
  }
}

}  // namespace
}  // namespace spvsim
