// Device-side enqueue: the order enqueued kernels run in, the places they take in their
// queue, and spvsim's bound on a launch tree (src/exec/device_enqueue.h), at -O0 and -O2.
// A device queue of CL_QUEUE_SIZE S holds S / 128 commands, each from its enqueue until
// it has run. Expected values come from host models written here (plain recursion over
// the trees the kernels build) and from the OpenCL C 2.0 rules: a command whose wait
// list names an event runs after that event's command and all its children completed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
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

class DeviceEnqueueOrder : public ::testing::TestWithParam<const char*> {
 protected:
  std::shared_ptr<Program> load(const std::string& source) {
    return Program::load(
        testing::compileOpenCL(source, std::string("-cl-std=CL2.0 ") + GetParam()));
  }
  static LaunchOptions withQueue(uint64_t places) {
    LaunchOptions o;
    o.deviceQueues.queues = {DeviceQueue{1, places * kDeviceQueueCommandBytes}};
    o.deviceQueues.defaultQueue = 1;
    return o;
  }
};

// Every work-item of every launch enqueues a kernel of 4 work-items, down to level 0: a
// root of 64 work-items at level 4 makes 64 + 256 + 1024 + 4096 = 5440 enqueues, and
// level 1 alone has 4096 children waiting at once if levels run one after the other.
// Run depth first, the tree holds far fewer: it fits the default queue (16 KiB: 128
// places). hits[g] counts the work-items of global id g over the whole tree.
TEST_P(DeviceEnqueueOrder, FanOutTreeFitsTheDefaultQueue) {
  auto p = load(R"(
    void grow(global int* hits, global int* failed, int level) {
      atomic_inc(&hits[get_global_id(0)]);
      if (level == 0) return;
      int rc = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4),
                              ^{ grow(hits, failed, level - 1); });
      if (rc != CLK_SUCCESS) atomic_inc(failed);
    }
    kernel void tree(global int* hits, global int* failed, int level) {
      grow(hits, failed, level);
    })");
  // Host model: a launch of n work-items at level L adds 1 to hits[0..n-1], and each of
  // them enqueues a launch of 4 at level L - 1 when L > 0.
  std::vector<int> expected(64, 0);
  uint64_t launches = 0;
  std::function<void(int, int)> model = [&](int n, int level) {
    for (int g = 0; g < n; ++g) {
      ++expected[g];
      if (level > 0) ++launches, model(4, level - 1);
    }
  };
  model(64, 4);
  ASSERT_EQ(launches, 5440u);
  std::vector<int> hits(64, 0), failed(1, 0);
  LaunchResult r =
      p->launch("tree", range1(64, 64), {bufferOf(hits), bufferOf(failed), valueOf<int>(4)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(failed[0], 0);
  EXPECT_EQ(hits, expected);
  EXPECT_EQ(r.childLaunches, launches);
}

// Children of 1, 2 and 3 dimensions, with local sizes that do not divide the global size
// (non-uniform work-groups, OpenCL 2.0): each child checks the shape it was launched
// with, then enqueues in turn. hits[i] counts the work-items of linear global id i.
TEST_P(DeviceEnqueueOrder, WorkGroupSizesInATree) {
  auto p = load(R"(
    void node(global int* hits, global int* bad, int level) {
      size_t id = get_global_linear_id();
      atomic_inc(&hits[id]);
      if (level == 0) return;
      uint dim = (uint)((id + level) % 3);
      size_t ls = 1 + (id * 5 + level) % 4;
      ndrange_t r;
      if (dim == 0) {
        r = ndrange_1D(6, ls);
      } else if (dim == 1) {
        size_t g[2] = {2, 3}, l[2] = {1, ls};
        r = ndrange_2D(g, l);
      } else {
        size_t g[3] = {1, 2, 3}, l[3] = {1, 1, ls};
        r = ndrange_3D(g, l);
      }
      int rc = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, r, ^{
        uint d = get_work_dim() - 1;
        size_t gs = dim == 0 ? 6 : 3;
        size_t group = get_group_id(d), left = gs - group * ls;
        if (d != dim || get_global_size(d) != gs || get_enqueued_local_size(d) != ls ||
            get_local_size(d) != (left < ls ? left : ls) ||
            get_num_groups(d) != (gs + ls - 1) / ls)
          atomic_inc(&bad[0]);
        node(hits, bad, level - 1);
      });
      if (rc != CLK_SUCCESS) atomic_inc(&bad[1]);
    })"
                R"(
    kernel void tree(global int* hits, global int* bad, int levels) {
      node(hits, bad, levels);
    })");
  // Host model: the root's 8 work-items have linear ids 0..7, each child's 6 have 0..5.
  std::vector<int> expected(8, 0);
  uint64_t launches = 0;
  std::function<void(int, int)> model = [&](int n, int level) {
    for (int id = 0; id < n; ++id) {
      ++expected[id];
      if (level > 0) ++launches, model(6, level - 1);
    }
  };
  model(8, 3);
  std::vector<int> hits(8, 0), bad(2, 0);
  LaunchResult r =
      p->launch("tree", range1(8, 4), {bufferOf(hits), bufferOf(bad), valueOf<int>(3)});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(bad, (std::vector<int>{0, 0}));
  EXPECT_EQ(hits, expected);
  EXPECT_EQ(r.childLaunches, launches);
}

// A binary tree of single work-items, leaves at depth D: each node enqueues two
// children. Depth first, a node at depth k runs holding its own place and those of the
// right siblings of its path (k + 1 with its own sibling), and takes 2 more: the peak is
// D + 2 places (at depth D - 1), where level by level it would be 2^D. With D + 2 places
// every node runs; with D + 1, some enqueue finds the queue full.
TEST_P(DeviceEnqueueOrder, QueueHoldsTheDepthNotALevel) {
  auto p = load(R"(
    void split(global int* count, global int* rc, int depth) {
      atomic_inc(&count[0]);
      if (depth == 0) return;
      for (int i = 0; i < 2; ++i) {
        int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                               ^{ split(count, rc, depth - 1); });
        atomic_inc(&rc[r == CLK_SUCCESS ? 0 : r == CLK_DEVICE_QUEUE_FULL ? 1 : 2]);
      }
    }
    kernel void binary(global int* count, global int* rc, int depth) { split(count, rc, depth); })");
  constexpr int kDepth = 8;
  const int nodes = (1 << (kDepth + 1)) - 1;  // the root launch and 2^(D+1) - 2 children
  std::vector<int> count(1, 0), rc(3, 0);
  LaunchResult r =
      p->launch("binary", range1(1, 1), {bufferOf(count), bufferOf(rc), valueOf<int>(kDepth)},
                withQueue(kDepth + 2));
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(count[0], nodes);
  EXPECT_EQ(rc, (std::vector<int>{nodes - 1, 0, 0}));
  EXPECT_EQ(r.childLaunches, uint64_t(nodes - 1));

  count = {0}, rc = {0, 0, 0};
  r = p->launch("binary", range1(1, 1), {bufferOf(count), bufferOf(rc), valueOf<int>(kDepth)},
                withQueue(kDepth + 1));
  EXPECT_GT(rc[1], 0) << "no CLK_DEVICE_QUEUE_FULL with one place less";
  EXPECT_EQ(rc[2], 0);
  EXPECT_EQ(count[0], 1 + rc[0]);  // every enqueued kernel ran
}

// Events order children; nothing else does. A enqueues A1 and A2; B waits for A's event
// (complete once A1 and A2 are); C waits for nothing; D waits for a marker on B's event.
// Each kernel takes the next number from `next`. Required (OpenCL C 2.0 "Execution
// model"): A before A1 and A2, B after both, D after B. spvsim's documented order (depth
// first: a command's children before its later siblings, siblings in enqueue order)
// gives A, A1, A2, B, C, D.
TEST_P(DeviceEnqueueOrder, EventsBetweenChildren) {
  auto p = load(R"(
    void take(global int* next, global int* seq, int k) { seq[k] = atomic_inc(next); }
    void a(global int* next, global int* seq) {
      take(next, seq, 0);
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                     ^{ take(next, seq, 1); });
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                     ^{ take(next, seq, 2); });
    }
    kernel void parent(global int* next, global int* seq) {
      queue_t q = get_default_queue();
      clk_event_t ea, eb, em;
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &ea, ^{ a(next, seq); });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &ea, &eb,
                     ^{ take(next, seq, 3); });
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ take(next, seq, 4); });
      enqueue_marker(q, 1, &eb, &em);
      enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &em, NULL,
                     ^{ take(next, seq, 5); });
      release_event(ea);
      release_event(eb);
      release_event(em);
    })");
  for (unsigned threads : {1u, 4u}) {
    std::vector<int> next(1, 0), seq(6, -1);
    LaunchOptions o;
    o.threads = threads;
    LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(next), bufferOf(seq)}, o);
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_LT(seq[0], seq[1]);
    EXPECT_LT(seq[0], seq[2]);
    EXPECT_GT(seq[3], std::max(seq[1], seq[2]));
    EXPECT_GT(seq[5], seq[3]);
    EXPECT_EQ(seq, (std::vector<int>{0, 1, 2, 3, 4, 5})) << threads << " threads";
  }
}

// 64 work-groups of 16 work-items each enqueue one child, into a queue of 500 places:
// the first 500 work-items in work-group order get CLK_SUCCESS, the rest
// CLK_DEVICE_QUEUE_FULL, at every host thread count (a launch that enqueues runs its
// work-groups in order on one thread; in parallel, which one finds the queue full would
// depend on timing).
TEST_P(DeviceEnqueueOrder, WhichEnqueueFindsTheQueueFullDoesNotDependOnThreads) {
  auto p = load(R"(
    kernel void parent(global int* out, global int* rc) {
      size_t g = get_global_id(0);
      rc[g] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                             ^{ out[g] = 1; });
    })");
  constexpr int kItems = 64 * 16, kPlaces = 500;
  std::vector<int> expectedOut(kItems, 0), expectedRc(kItems, kClkDeviceQueueFull);
  for (int g = 0; g < kPlaces; ++g) expectedOut[g] = 1, expectedRc[g] = kClkSuccess;
  for (unsigned threads : {1u, 8u}) {
    std::vector<int> out(kItems, 0), rc(kItems, 99);
    LaunchOptions o = withQueue(kPlaces);
    o.threads = threads;
    LaunchResult r = p->launch("parent", range1(kItems, 16), {bufferOf(out), bufferOf(rc)}, o);
    EXPECT_EQ(rc, expectedRc) << threads << " threads";
    EXPECT_EQ(out, expectedOut) << threads << " threads";
    EXPECT_EQ(r.childLaunches, uint64_t(kPlaces));
  }
}

// A block that enqueues itself forever stops at the launch tree's bound (5 here): the
// sixth enqueue is a fatal device-enqueue error naming the bound and how to raise it;
// the work-group that made it stops there (its rc is not written), the launch aborts.
TEST_P(DeviceEnqueueOrder, EndlessRecursionStopsAtTheBound) {
  auto p = load(R"(
    void spawn(global int* out, global int* rc, int depth) {
      rc[depth] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
          ndrange_1D(1), ^{ out[depth] = depth; spawn(out, rc, depth + 1); });
    }
    kernel void parent(global int* out, global int* rc) { spawn(out, rc, 0); })");
  std::vector<int> out(8, -1), rc(8, 99);
  LaunchOptions o;
  o.deviceQueues.maxEnqueues = 5;
  LaunchResult r = p->launch("parent", range1(1, 1), {bufferOf(out), bufferOf(rc)}, o);
  EXPECT_EQ(out, (std::vector<int>{0, 1, 2, 3, 4, -1, -1, -1}));
  EXPECT_EQ(rc, (std::vector<int>{0, 0, 0, 0, 0, 99, 99, 99}));
  EXPECT_EQ(r.childLaunches, 5u);
  EXPECT_TRUE(r.aborted);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::DeviceEnqueue);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_NE(d.message.find("have enqueued 5 commands, spvsim's bound"), std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("--max-device-enqueues"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("SPVSIM_MAX_DEVICE_ENQUEUES"), std::string::npos) << d.message;
}

INSTANTIATE_TEST_SUITE_P(Levels, DeviceEnqueueOrder, ::testing::Values("-O0", "-O2"),
                         [](const auto& info) { return std::string(info.param + 1); });

}  // namespace
}  // namespace spvsim
