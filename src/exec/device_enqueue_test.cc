// Device-side enqueue end to end through Program::launch: kernels compiled from OpenCL C
// 2.0 at -O0 and -O2 enqueue blocks (src/exec/device_enqueue.h). Expected values are
// worked by hand from each kernel and the OpenCL C 2.0 specification (6.13.17): return
// codes, the order events impose, ndrange_* sizes, local-memory block arguments.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/exec/device_queue.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;
using testing::valueOf;

class DeviceEnqueue : public ::testing::TestWithParam<const char*> {
 protected:
  std::shared_ptr<Program> load(const std::string& source) {
    return Program::load(
        testing::compileOpenCL(source, std::string("-cl-std=CL2.0 ") + GetParam()));
  }
  static size_t count(const LaunchResult& r, DiagnosticKind kind, Severity s) {
    size_t n = 0;
    for (const auto& d : r.diagnostics) n += d.kind == kind && d.severity == s;
    return n;
  }
};

// Work-items 0, 4, 8, 12 each enqueue 4 work-items at global offset gid: the children
// cover 0..15 once, each writing i * k + 1.
TEST_P(DeviceEnqueue, ParentEnqueuesChildrenThatWriteABuffer) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* rc, int k) {
      size_t g = get_global_id(0);
      if (g % 4 == 0)
        rc[g / 4] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
            ndrange_1D(g, 4, 4), ^{ out[get_global_id(0)] = (int)get_global_id(0) * k + 1; });
    })");
  std::vector<int> out(16, 0), rc(4, 99);
  LaunchResult r =
      p->launch("parent", range1(16, 8), {bufferOf(out), bufferOf(rc), valueOf<int>(3)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i * 3 + 1) << i;
  EXPECT_EQ(rc, std::vector<int>(4, 0));  // CLK_SUCCESS
  EXPECT_EQ(r.childLaunches, 4u);
}

// A block that enqueues a block: depths 0..4 each write depth + 100 and run once.
TEST_P(DeviceEnqueue, NestedEnqueue) {
  auto p = load(R"(
    void spawn(global int* out, int depth) {
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                     ^{ out[depth] = depth + 100; if (depth < 4) spawn(out, depth + 1); });
    }
    kernel void nested(global int* out) { spawn(out, 0); })");
  std::vector<int> out(6, 0);
  LaunchResult r = p->launch("nested", range1(1, 1), {bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<int>{100, 101, 102, 103, 104, 0}));
  EXPECT_EQ(r.childLaunches, 5u);
}

// A waits for a user event the parent completes last; B waits for A, C for a marker on
// A and B: B sees A's 41, C sees 41 + 42. D waits for a user event set to an error and
// does not run (a warning); E waits for a user event never set: never runs (an error).
TEST_P(DeviceEnqueue, EventsOrderChildren) {
  auto p = load(R"(
    kernel void parent(global int* out) {
      queue_t q = get_default_queue();
      clk_event_t u = create_user_event(), ea, eb, em, bad = create_user_event();
      clk_event_t never = create_user_event();
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, &ea, ^{ out[0] = 41; });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &ea, &eb,
                     ^{ out[1] = out[0] + 1; });
      clk_event_t both[2] = {ea, eb};
      out[5] = enqueue_marker(q, 2, both, &em);
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &em, NULL,
                     ^{ out[2] = out[0] + out[1]; });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &bad, NULL,
                     ^{ out[3] = 1; });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &never, NULL,
                     ^{ out[4] = 1; });
      out[6] = is_valid_event(ea);
      retain_event(ea);
      release_event(ea);
      out[7] = is_valid_event(ea);  // still one reference
      release_event(ea);
      out[8] = is_valid_event(ea);  // released
      release_event(eb);
      release_event(em);
      set_user_event_status(bad, -5);
      set_user_event_status(u, CL_COMPLETE);
      release_event(u);
      release_event(bad);
    })");
  std::vector<int> out(9, -1);
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out)});
  EXPECT_EQ(out, (std::vector<int>{41, 42, 83, -1, -1, 0, 1, 1, 0})) << describe(r);
  EXPECT_EQ(r.childLaunches, 3u);
  EXPECT_EQ(count(r, DiagnosticKind::DeviceEnqueue, Severity::Warning), 1u) << describe(r);
  EXPECT_EQ(count(r, DiagnosticKind::DeviceEnqueue, Severity::Error), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics.size(), 2u) << describe(r);
}

// ndrange_2D with a local size: 6x4 work-items in 3x2 work-groups.
TEST_P(DeviceEnqueue, Ndrange2D) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* shape) {
      const size_t gs[2] = {6, 4}, ls[2] = {3, 2};
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(gs, ls), ^{
        size_t x = get_global_id(0), y = get_global_id(1);
        out[y * 6 + x] = (int)(y * 100 + x);
        if (x == 0 && y == 0)
          shape[0] = get_work_dim(), shape[1] = get_local_size(0), shape[2] = get_local_size(1),
          shape[3] = get_num_groups(0), shape[4] = get_num_groups(1);
      });
    })");
  std::vector<int> out(24, -1), shape(5, -1);
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(shape)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) EXPECT_EQ(out[y * 6 + x], y * 100 + x);
  EXPECT_EQ(shape, (std::vector<int>{2, 3, 2, 2, 2}));
}

// A block taking two local pointers, sized by the enqueue (4 * L and 8 * L bytes): each
// work-group reverses through a, and reads b's upper half. With L = 4, work-item g of
// group w (lane l) reads a[3 - l] = 4w + 3 - l and b[4 + 3 - l] = 3 - l.
TEST_P(DeviceEnqueue, LocalMemoryBlockArguments) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* rc) {
      rc[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
          ndrange_1D(8, 4), ^(local void* pa, local void* pb) {
            local int* a = (local int*)pa;
            local int* b = (local int*)pb;
            size_t l = get_local_id(0);
            a[l] = (int)get_global_id(0);
            b[l + 4] = (int)l;
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = a[3 - l] + 100 * b[4 + 3 - l];
          }, 16u, 32u);
      rc[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
          ndrange_1D(4), ^(local void* pa) { out[0] = -1; }, 0u);
    })");
  std::vector<int> out(8, -1), rc(2, 99);
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(rc)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<int>{303, 202, 101, 0, 307, 206, 105, 4}));
  EXPECT_EQ(rc, (std::vector<int>{0, kClkInvalidArgSize}));
}

// A child's local memory is bounded by the device's CL_DEVICE_LOCAL_MEM_SIZE (64 KiB):
// 4 GiB - 1 bytes, or 64 KiB + 1 bytes, fail with CLK_OUT_OF_RESOURCES and a warning and
// allocate nothing (4 GiB would pass a --max-memory of 1 MiB); exactly 64 KiB, as two
// arguments of 32 KiB, runs.
TEST_P(DeviceEnqueue, ChildLocalMemoryBeyondTheDeviceIsOutOfResources) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* rc) {
      queue_t q = get_default_queue();
      rc[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                             ^(local void* a) { out[0] = 1; }, 0xffffffffu);
      rc[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                             ^(local void* a, local void* b) { out[1] = 1; }, 32768u, 32769u);
      rc[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                             ^(local void* a, local void* b) {
                               ((local int*)b)[8191] = 5;
                               out[2] = ((local int*)b)[8191];
                             }, 32768u, 32768u);
    })");
  std::vector<int> out(3, 0), rc(3, 99);
  LaunchOptions o;
  o.maxMemory = 1 << 20;
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(rc)}, o);
  EXPECT_EQ(rc, (std::vector<int>{kClkOutOfResources, kClkOutOfResources, 0})) << describe(r);
  EXPECT_EQ(out, (std::vector<int>{0, 0, 5}));
  EXPECT_EQ(r.childLaunches, 1u);
  EXPECT_EQ(count(r, DiagnosticKind::DeviceEnqueue, Severity::Warning), r.diagnostics.size())
      << describe(r);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("more than the device's 64 KiB "
                                          "(CL_DEVICE_LOCAL_MEM_SIZE)"),
            std::string::npos)
      << describe(r);
}

// A queue of 4 * 128 bytes holds 4 outstanding commands: the fifth and sixth enqueue
// return CLK_DEVICE_QUEUE_FULL, with a warning (one per enqueue instruction: -O2 unrolls).
TEST_P(DeviceEnqueue, QueueFull) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* rc) {
      for (int i = 0; i < 6; ++i)
        rc[i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
                               ndrange_1D(1), ^{ out[i] = 1; });
    })");
  std::vector<int> out(6, 0), rc(6, 99);
  LaunchOptions o;
  o.deviceQueues.queues = {DeviceQueue{1, 4 * kDeviceQueueCommandBytes}};
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(rc)}, o);
  EXPECT_EQ(out, (std::vector<int>{1, 1, 1, 1, 0, 0}));
  EXPECT_EQ(rc, (std::vector<int>{0, 0, 0, 0, kClkDeviceQueueFull, kClkDeviceQueueFull}));
  EXPECT_EQ(r.childLaunches, 4u);
  EXPECT_GE(count(r, DiagnosticKind::DeviceEnqueue, Severity::Warning), 1u) << describe(r);
  EXPECT_EQ(count(r, DiagnosticKind::DeviceEnqueue, Severity::Warning), r.diagnostics.size());
}

// Return codes: no default queue (CLK_NULL_QUEUE), a work-group above 1024, a wait list
// count without a list.
TEST_P(DeviceEnqueue, ErrorCodes) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* rc) {
      rc[0] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                             ^{ out[0] = 1; });
    }
    kernel void invalid(global int* out, global int* rc) {
      queue_t q = get_default_queue();
      rc[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2048, 2048),
                             ^{ out[0] = 1; });
      clk_event_t e;
      rc[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), 1, NULL, &e,
                             ^{ out[1] = 1; });
    })");
  std::vector<int> out(2, 0), rc(2, 99);
  LaunchOptions none;
  none.deviceQueues = DeviceQueueOptions{};
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(rc)}, none);
  EXPECT_EQ(rc, (std::vector<int>{kClkInvalidQueue, 99})) << describe(r);
  r = p->launch("invalid", range1(1, 1), {bufferOf(out), bufferOf(rc)});
  EXPECT_EQ(rc, (std::vector<int>{kClkInvalidNdrange, kClkInvalidEventWaitList})) << describe(r);
  EXPECT_EQ(out, (std::vector<int>{0, 0}));
  EXPECT_EQ(r.childLaunches, 0u);
}

// Kernel queries at sub-group size 8: the device's 1024, whole sub-groups of 8, 20
// work-items in ceil(20 / 8) = 3 sub-groups; children run at the parent's size.
TEST_P(DeviceEnqueue, KernelQueriesAndChildSubGroupSize) {
  auto p = load(R"(
    kernel void parent(global uint* out) {
      void (^blk)(void) = ^{ out[4] = get_max_sub_group_size(); out[5] = get_num_sub_groups(); };
      out[0] = get_kernel_work_group_size(blk);
      out[1] = get_kernel_preferred_work_group_size_multiple(blk);
      out[2] = get_kernel_sub_group_count_for_ndrange(ndrange_1D(64, 20), blk);
      out[3] = get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(64, 20), blk);
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(20, 20), blk);
    })");
  std::vector<uint32_t> out(6, 0);
  LaunchOptions o;
  o.subGroupSize = 8;
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out)}, o);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<uint32_t>{1024, 8, 3, 8, 8, 3}));
}

// capture_event_profiling_info writes the child's execution and completion times (ns)
// once it has run; an event the kernel released is no longer valid (a diagnostic).
TEST_P(DeviceEnqueue, ProfilingInfoAndReleasedEvents) {
  auto p = load(R"(
    kernel void parent(global int* out, global ulong* times) {
      clk_event_t e;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(64), 0, NULL,
                     &e, ^{ out[get_global_id(0)] = 1; });
      capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, times);
      release_event(e);
      release_event(e);
    })");
  std::vector<int> out(64, 0);
  std::vector<uint64_t> times(2, 0);
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(times)});
  EXPECT_GT(times[0], 0u);
  EXPECT_GE(times[1], times[0]);
  EXPECT_EQ(out, std::vector<int>(64, 1));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::DeviceEnqueue);
  EXPECT_NE(r.diagnostics[0].message.find("release_event"), std::string::npos);
}

// capture_event_profiling_info on an event whose command already completed (the
// conformance suite's enqueue_block "after execution" case): the values are there at
// once, so the block reads them right after the call. OpenCL C "Built-in Event
// Functions": the first is END - START, the second COMPLETE - START, both in ns; a
// kernel runs for more than 0 ns, and COMPLETE comes no earlier than END.
TEST_P(DeviceEnqueue, ProfilingInfoOfACompletedEvent) {
  auto p = load(R"(
    global ulong value[2];
    void check(clk_event_t e, global ulong* out) {
      capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, value);
      out[0] = value[0];
      out[1] = value[1];
      release_event(e);
    }
    kernel void parent(global int* ran, global ulong* out) {
      clk_event_t done;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &done,
                     ^{ ran[0] = 1; });
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &done, NULL,
                     ^{ check(done, out); });
    })");
  std::vector<int> ran(1, 0);
  std::vector<uint64_t> out(2, 0);
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(ran), bufferOf(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(ran[0], 1);
  EXPECT_GT(out[0], 0u);
  EXPECT_GE(out[1], out[0]);
}

// A command's event completes when it and all its children have (OpenCL C, "Execution
// model": a parent kernel is complete when it and all its child kernels are), so
//  - a command waiting for child A's event runs after A's own child G: it sees G's write;
//  - A's COMPLETE - START covers A's run and then G's: at least A's END - START plus G's.
TEST_P(DeviceEnqueue, EventsCompleteAfterTheirChildren) {
  auto p = load(R"(
    void grandchild(global int* out) {
      for (int i = 0; i < 200; ++i) out[2] += i;  // takes some time
      out[0] = 1;
    }
    void child(global int* out, global ulong* times) {
      clk_event_t g;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &g,
                     ^{ grandchild(out); });
      capture_event_profiling_info(g, CLK_PROFILING_COMMAND_EXEC_TIME, times + 2);
      release_event(g);
    }
    kernel void parent(global int* out, global ulong* times) {
      clk_event_t a;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &a,
                     ^{ child(out, times); });
      capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, times);
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, NULL,
                     ^{ out[1] = out[0] + 10; });
      release_event(a);
    })");
  std::vector<int> out(3, 0);
  std::vector<uint64_t> times(4, 0);  // A: END-START, COMPLETE-START; G: the same
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(times)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 11);  // ran after the grandchild
  EXPECT_EQ(out[2], 199 * 200 / 2);
  EXPECT_GT(times[0], 0u);
  EXPECT_GT(times[2], 0u);
  EXPECT_GE(times[3], times[2]);
  EXPECT_GE(times[1], times[0] + times[2]);
}

// A parent's event ends with an error when a child of it does (OpenCL C, "Execution
// model"): child A enqueues G waiting on a user event A sets to -5, so G does not run
// and ends with -5, A's event with it, and C, waiting on A's event, does not run either
// (a warning each).
TEST_P(DeviceEnqueue, AChildsErrorIsItsParentsError) {
  auto p = load(R"(
    void child(global int* out) {
      clk_event_t u = create_user_event();
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, NULL,
                     ^{ out[1] = 1; });
      set_user_event_status(u, -5);
      release_event(u);
      out[0] = 1;
    }
    kernel void parent(global int* out) {
      clk_event_t a;
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &a,
                     ^{ child(out); });
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, NULL,
                     ^{ out[2] = 1; });
      release_event(a);
    })");
  std::vector<int> out(3, 0);
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out)});
  EXPECT_EQ(out, (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(count(r, DiagnosticKind::DeviceEnqueue, Severity::Warning), 2u) << describe(r);
  for (const auto& d : r.diagnostics) EXPECT_NE(d.message.find("status -5"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Levels, DeviceEnqueue, ::testing::Values("-O0", "-O2"),
                         [](const auto& info) { return std::string(info.param + 1); });

}  // namespace
}  // namespace spvsim
