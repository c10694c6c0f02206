// Buffers nothing in a launch writes (src/exec/pointer_params.h, LaunchContext::
// readOnlyGlobal): which parameters the analysis finds only read, at every optimisation
// level, and that the race checker, which keeps no reads of such buffers, still finds
// every race where the same memory is also reached through a parameter that writes.
// Expected sets are worked by hand from the kernels' sources.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "src/check/launch_configs.h"
#include "src/exec/lowered.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using check::testing::racesChecked;
using testing::bufferOf;
using testing::describe;
using testing::kinds;
using testing::range1;

const char* kKernels = R"(
kernel void copy(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2;
}
kernel void vectors(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, in) + 1.0f, i, out);
}
kernel void add(global int* sum, global const int* in) {
  atomic_add(sum, in[get_global_id(0)]);
}
kernel void chosen(global int* a, global int* b, global const int* c, int which) {
  global int* p = which ? a : b;
  p[get_global_id(0)] = c[0];
}
kernel void forged(global const int* a, global int* b, ulong address) {
  ((global int*)address)[0] = a[0];
  b[0] = 1;
}
__attribute__((noinline)) int first(global int* p) { return p[0]; }
kernel void called(global int* a, global int* b) {
  b[get_global_id(0)] = first(a);
}
kernel void staged(global const int* in, global int* out, local int* tmp) {
  event_t e = async_work_group_copy(tmp, in, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[get_local_id(0)];
}
// Work-item i writes element i; work-items 16..31 (work-group 1) then copy elements
// 0..15, which work-group 0 wrote, to 32..47: through `view` (read only) or through `out`.
kernel void shifted(global const int* view, global int* out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i >= 16) out[i - 16 + 32] = view[i - 16];
}
kernel void shifted_self(global int* out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i >= 16) out[i - 16 + 32] = out[i - 16];
}
)";

uint64_t writtenParams(Program& p, const std::string& kernel) {
  return p.lowered(p.kernel(kernel), 16).writtenParams;
}

class ReadOnlyBuffers : public ::testing::TestWithParam<const char*> {};

TEST_P(ReadOnlyBuffers, ParametersOnlyReadAreFound) {
  auto p = Program::load(testing::compileOpenCL(kKernels, GetParam()));
  EXPECT_EQ(writtenParams(*p, "copy"), 0b10u);
  EXPECT_EQ(writtenParams(*p, "vectors"), 0b10u);
  EXPECT_EQ(writtenParams(*p, "add"), 0b01u);               // the atomic's target
  EXPECT_EQ(writtenParams(*p, "chosen") & 0b111u, 0b011u);  // both candidates, not c
  EXPECT_EQ(writtenParams(*p, "forged"), ~uint64_t(0));     // a pointer made of an integer
  EXPECT_EQ(writtenParams(*p, "called") & 0b11u, 0b11u);    // passed to a call: not followed
  EXPECT_EQ(writtenParams(*p, "staged") & 0b11u, 0b10u);    // an async copy's source is read
}

// -O0 stores the parameters in private variables and loads them back: pointers the
// analysis cannot follow, so every parameter counts as written (nothing is skipped).
INSTANTIATE_TEST_SUITE_P(OptLevels, ReadOnlyBuffers, ::testing::Values("-O1", "-O2", "-O2 -g"));

TEST(ReadOnlyBuffersO0, EveryParameterCountsAsWritten) {
  auto p = Program::load(testing::compileOpenCL(kKernels, "-O0"));
  EXPECT_EQ(writtenParams(*p, "copy") & 0b11u, 0b11u);
}

// Reads of a buffer the kernel also writes are kept: work-group 1 reads what work-group 0
// wrote, unordered, a race at every level; read through a parameter only read, from a
// buffer of its own, nothing races (and nothing of it is kept).
TEST(ReadOnlyBuffersRaces, ReadsOfWrittenBuffersAreKept) {
  for (const char* opt : {"-O0", "-O2"}) {
    auto p = Program::load(testing::compileOpenCL(kKernels, opt));
    std::vector<int> out(64, 0);
    LaunchResult r = p->launch("shifted_self", range1(32, 16), {bufferOf(out)}, racesChecked());
    EXPECT_EQ(kinds(r).count("data-race"), 1u) << opt << describe(r);
    std::vector<int> view(64, 0);
    r = p->launch("shifted", range1(32, 16), {bufferOf(view), bufferOf(out)}, racesChecked());
    EXPECT_TRUE(r.diagnostics.empty()) << opt << describe(r);
  }
}

}  // namespace
}  // namespace spvsim
