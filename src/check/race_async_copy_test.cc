// The race checker on async work-group copies (src/check/race_async_copies.cc). OpenCL C
// 6.15.11: a copy may complete at any time until a wait_group_events names its event, and
// the work-group performs it (any work-item may do any element). So an access between
// the issue and the wait is unordered with the copy whatever barriers come between, an
// access before the issue is ordered before it only by a work-group barrier, and an
// access after the wait is ordered after it (the wait orders the work-group's memory).
// Every expected count below is one report per conflicting access (a diagnostic and its
// repeats), worked from that rule.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;
using testing::range1;

const char* kCopies = R"(
// Work-group g copies in[g*n .. g*n+n) into its tile, then every work-item reads its
// neighbour's element, with the barrier and the wait in either order.
kernel void barrier_before_wait(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tile[(l + 1) % n];
  wait_group_events(1, &e);
  out[get_global_id(0)] = v;
}
kernel void wait_before_barrier(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * n, n, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(l + 1) % n];
}

// A copy to global memory, read back through global memory before the wait.
kernel void global_read_before_wait(global const int* in, global int* out, local int* tile,
                                    global int* seen) {
  size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  tile[l] = in[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + base, tile, n, 0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  seen[base + l] = out[base + (l + 1) % n];
  wait_group_events(1, &e);
}

// The tile the copy reads is written by each work-item, with or without a barrier
// before the copy.
#define WRITE_THEN_COPY(NAME, SYNC)                                                    \
  kernel void NAME(global const int* in, global int* out, local int* tile) {           \
    size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;     \
    tile[l] = in[base + l];                                                            \
    SYNC;                                                                              \
    event_t e = async_work_group_copy(out + base, tile, n, 0);                         \
    wait_group_events(1, &e);                                                          \
  }
WRITE_THEN_COPY(write_then_copy, (void)0)
WRITE_THEN_COPY(write_barrier_copy, barrier(CLK_LOCAL_MEM_FENCE))

// Two copies into one tile: unordered until the first one's wait.
kernel void two_copies_one_tile(global const int* in, global int* out, local int* tile,
                                int waitBetween) {
  size_t l = get_local_id(0), n = get_local_size(0);
  event_t e1 = async_work_group_copy(tile, in, n, 0);
  if (waitBetween) wait_group_events(1, &e1);
  event_t e2 = async_work_group_copy(tile, in + n, n, 0);
  if (!waitBetween) wait_group_events(1, &e1);
  wait_group_events(1, &e2);
  out[get_global_id(0)] = tile[l];
}

// Work-group 1 reads what work-group 0's copy wrote, after both waited: only device-scope
// synchronisation orders two work-groups.
kernel void other_group_reads_copy(global const int* in, global int* out, local int* tile,
                                   global int* seen) {
  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  tile[l] = in[g * n + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out + g * n, tile, n, 0);
  wait_group_events(1, &e);
  if (g == 1) seen[l] = out[l];
}
)";

LaunchOptions checking() {
  LaunchOptions o;
  o.subGroupSize = 4;
  o.threads = 1;
  o.observers = check::observersFor({.races = true});
  return o;
}

ArgBinding intArg(int v) {
  std::vector<uint8_t> b(4);
  std::memcpy(b.data(), &v, 4);
  return ArgBinding::bytes(b);
}

// Occurrences (a diagnostic and its repeats) of each kind.
std::multiset<std::string> occurrences(const LaunchResult& r) {
  std::multiset<std::string> out;
  for (const Diagnostic& d : r.diagnostics)
    for (uint64_t i = 0; i <= d.repeats; ++i) out.insert(std::string(kindName(d.kind)));
  return out;
}

std::multiset<std::string> races(size_t n, const char* kind = "data-race") {
  std::multiset<std::string> out;
  for (size_t i = 0; i < n; ++i) out.insert(kind);
  return out;
}

struct AsyncCopyRaces : ::testing::Test {
  static std::shared_ptr<Program> program() {
    static auto p = loadOpenCl(kCopies, "async copies");
    return p;
  }
  // 2 work-groups of 8 (sub-groups of 4).
  std::vector<int> in = std::vector<int>(16), out = std::vector<int>(16, -1),
                   seen = std::vector<int>(16, -1);
  AsyncCopyRaces() {
    for (int i = 0; i < 16; ++i) in[i] = 100 + i;
  }
  LaunchResult run(const char* kernel, bool withSeen = false) {
    std::vector<ArgBinding> args{bind(in), bind(out), ArgBinding::local(8 * 4)};
    if (withSeen) args.push_back(bind(seen));
    return program()->launch(kernel, range1(16, 8), args, checking());
  }
};

// The barrier between the issue and the wait orders nothing with the copy: each of the
// 8 work-items of each work-group reads an element the copy writes, 16 reads reported,
// at the read.
TEST_F(AsyncCopyRaces, BarrierBeforeTheWaitHidesNothing) {
  const LaunchResult r = run("barrier_before_wait");
  EXPECT_EQ(occurrences(r), races(16)) << describe(r);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_NE(d.instruction.find("OpLoad"), std::string::npos) << d.instruction;
    EXPECT_NE(d.message.find("not yet waited for"), std::string::npos) << d.message;
  }
}

// The wait completes the copy and acts as a work-group barrier: no race, and each
// work-item sees the copied neighbour.
TEST_F(AsyncCopyRaces, WaitBeforeTheBarrierOrdersTheCopy) {
  const LaunchResult r = run("wait_before_barrier");
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], 100 + i / 8 * 8 + (i % 8 + 1) % 8) << i;
}

// Reading global memory the copy writes, after a global barrier but before the wait:
// 8 reads per work-group.
TEST_F(AsyncCopyRaces, GlobalDestinationReadBeforeTheWait) {
  const LaunchResult r = run("global_read_before_wait", true);
  EXPECT_EQ(occurrences(r), races(16)) << describe(r);
}

// Without a barrier, work-item j's write of tile[j] is unordered with the copy's read of
// it (another work-item may perform that element): the copy's 8 reads per work-group are
// reported at the copy. A barrier before the copy orders every write before it.
TEST_F(AsyncCopyRaces, WritesBeforeTheCopyNeedABarrier) {
  const LaunchResult racy = run("write_then_copy");
  EXPECT_EQ(occurrences(racy), races(16)) << describe(racy);
  for (const Diagnostic& d : racy.diagnostics)
    EXPECT_NE(d.instruction.find("OpGroupAsyncCopy"), std::string::npos) << d.instruction;
  const LaunchResult ok = run("write_barrier_copy");
  EXPECT_TRUE(ok.diagnostics.empty()) << describe(ok);
  EXPECT_EQ(out, in);
}

// The second copy writes the 8 elements the first, not yet waited for, writes: 8 per
// work-group. With the first one's wait between them, none.
TEST_F(AsyncCopyRaces, TwoPendingCopiesOfOneTileRace) {
  for (int waitBetween : {0, 1}) {
    const LaunchResult r = program()->launch(
        "two_copies_one_tile", range1(16, 8),
        {bind(in), bind(out), ArgBinding::local(8 * 4), intArg(waitBetween)}, checking());
    EXPECT_EQ(occurrences(r), races(waitBetween ? 0 : 16)) << describe(r);
  }
}

// Work-group 0's copy is recorded when its wait completes it: work-group 1's 8 plain
// reads of those elements are unordered with it (different work-groups). Both
// work-groups passed a work-group barrier over global memory (the waits), so the checker
// words them as `insufficient-scope` (README: the barrier heuristic; both are errors).
TEST_F(AsyncCopyRaces, AnotherWorkGroupReadsTheCopiedElements) {
  const LaunchResult r = run("other_group_reads_copy", true);
  EXPECT_EQ(occurrences(r), races(8, "insufficient-scope")) << describe(r);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.workGroup, (std::array<uint64_t, 3>{1, 0, 0}));
    EXPECT_NE(d.message.find("OpGroupAsyncCopy"), std::string::npos) << d.message;
  }
  for (int l = 0; l < 8; ++l) EXPECT_EQ(seen[l], 100 + l) << l;
}

}  // namespace
}  // namespace spvsim
