// The race checker over arguments that alias: one buffer passed as two arguments, or two
// overlapping windows of one buffer (what the ICD's sub-buffers and the command line's
// shared storage give). Their accesses are to the same bytes, so they race, and
// synchronise, as they would through one argument. Expected verdicts are worked by hand
// from the kernels below and the OpenCL memory model.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "src/check/launch_configs.h"
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
// Work-item i writes element i; work-items 16..31 (work-group 1) then copy elements
// 0..15, which work-group 0 wrote, to 32..47, reading them through `view`.
kernel void shifted(global const int* view, global int* out) {
  size_t i = get_global_id(0);
  out[i] = 1;
  if (i >= 16) out[i - 16 + 32] = view[i - 16];
}
// Message passing: work-item 0 writes data[0] and releases through `raise`; work-item 1
// acquires through `see` and reads data[0] when it saw the flag.
kernel void message(global int* data, global atomic_int* raise, global atomic_int* see,
                    global int* out) {
  size_t id = get_global_id(0);
  if (id == 0) {
    data[0] = 42;
    atomic_store_explicit(raise, 1, memory_order_release, memory_scope_device);
  } else if (id == 1) {
    out[0] = atomic_load_explicit(see, memory_order_acquire, memory_scope_device) ? data[0] : -1;
  }
}
)";

template <class T>
ArgBinding window(std::vector<T>& v, size_t first, size_t count) {
  return ArgBinding::buffer(reinterpret_cast<uint8_t*>(v.data() + first), count * sizeof(T));
}

class RaceAliasing : public ::testing::TestWithParam<const char*> {
 protected:
  std::shared_ptr<Program> program() {
    return Program::load(testing::compileOpenCL(kKernels, GetParam()));
  }
};

// `shifted` with view == out: work-group 1 reads what work-group 0 wrote, unordered.
TEST_P(RaceAliasing, ABufferPassedTwiceRacesWithItself) {
  auto p = program();
  std::vector<int> out(64, 0);
  LaunchResult r =
      p->launch("shifted", range1(32, 16), {bufferOf(out), bufferOf(out)}, racesChecked());
  EXPECT_EQ(kinds(r).count("data-race"), 1u) << describe(r);
  // Through two buffers of their own, nothing races.
  std::vector<int> view(64, 0);
  r = p->launch("shifted", range1(32, 16), {bufferOf(view), bufferOf(out)}, racesChecked());
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
}

// `copy` with in == out: each work-item reads and writes its own element only.
TEST_P(RaceAliasing, ItsOwnElementThroughBothIsNoRace) {
  std::vector<int> data(32, 1);
  LaunchResult r = program()->launch("copy", range1(32, 16),
                                     {window(data, 0, 32), window(data, 0, 32)}, racesChecked());
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(data, std::vector<int>(32, 2));
}

// `copy` with `in` one element past `out` (overlapping windows at different offsets):
// work-item i reads element i + 1 of the buffer, which work-item i + 1 writes, unordered.
TEST_P(RaceAliasing, OverlappingWindowsRaceAtTheirOffsets) {
  std::vector<int> data(33, 1);
  LaunchResult r = program()->launch("copy", range1(32, 16),
                                     {window(data, 1, 32), window(data, 0, 32)}, racesChecked());
  EXPECT_EQ(kinds(r).count("data-race"), 1u) << describe(r);
  // Windows side by side share no byte: no race.
  r = program()->launch("copy", range1(16, 16), {window(data, 0, 16), window(data, 16, 16)},
                        racesChecked());
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
}

// The flag passed twice: the release through `raise` and the acquire through `see` are at
// one location, so the data read is ordered after the write (work-group 0 runs first, so
// the consumer sees the flag: out = 42).
TEST_P(RaceAliasing, ReleaseAndAcquireThroughAliasesSynchronise) {
  std::vector<int> data(1, 0), flag(1, 0), out(1, 0);
  LaunchResult r = program()->launch(
      "message", range1(2, 1), {bufferOf(data), bufferOf(flag), bufferOf(flag), bufferOf(out)},
      racesChecked());
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out[0], 42);
}

INSTANTIATE_TEST_SUITE_P(OptLevels, RaceAliasing, ::testing::Values("-O0", "-O2", "-O2 -g"));

}  // namespace
}  // namespace spvsim
