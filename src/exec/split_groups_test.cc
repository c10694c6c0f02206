// Work-groups split into sub-groups (src/DESIGN.md, "Work-groups split into sub-groups"):
// a launch of few work-groups whose sub-groups nothing ties together runs each sub-group
// as a unit of its own. Every built-in must read as in the whole work-group, results and
// diagnostics must not depend on the thread count, and whatever ties sub-groups together
// (or asks for their interleaving) must keep work-groups whole. Expected values are
// computed here from the NDRange.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "src/exec/observer.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;
using testing::range1;
using testing::valueOf;

// Each work-item writes 12 of its built-ins, at its global linear id.
const char* kIds = R"(
kernel void ids(global uint* out) {
  size_t gx = get_global_id(0) - get_global_offset(0), gy = get_global_id(1) - get_global_offset(1),
         gz = get_global_id(2) - get_global_offset(2);
  size_t i = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
  global uint* o = out + 12 * i;
  o[0] = get_sub_group_id();
  o[1] = get_num_sub_groups();
  o[2] = get_sub_group_local_id();
  o[3] = get_sub_group_size();
  o[4] = get_max_sub_group_size();
  o[5] = get_local_id(0);
  o[6] = get_local_id(1);
  o[7] = get_local_id(2);
  o[8] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
  o[9] = get_local_linear_id();
  o[10] = get_local_size(0) * get_local_size(1) * get_local_size(2);
  o[11] = get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2);
}
)";

// What kIds writes, from the NDRange alone (sub-group k of a work-group holds its local
// linear ids [k * width, (k + 1) * width), OpenCL's x-fastest order).
std::vector<uint32_t> idsModel(const NDRange& r, uint32_t width) {
  const auto& G = r.global;
  const auto& L = r.local;
  std::vector<uint32_t> out(12 * G[0] * G[1] * G[2]);
  for (uint64_t z = 0; z < G[2]; ++z)
    for (uint64_t y = 0; y < G[1]; ++y)
      for (uint64_t x = 0; x < G[0]; ++x) {
        const uint64_t g[3] = {x, y, z}, pos[3] = {x / L[0], y / L[1], z / L[2]};
        uint64_t size[3], local[3];
        for (int d = 0; d < 3; ++d) {
          size[d] = std::min(L[d], G[d] - pos[d] * L[d]);  // the last group may be smaller
          local[d] = g[d] - pos[d] * L[d];
        }
        const uint64_t items = size[0] * size[1] * size[2];
        const uint64_t linear = (local[2] * size[1] + local[1]) * size[0] + local[0];
        const uint64_t sg = linear / width, sgs = (items + width - 1) / width;
        uint32_t* o = &out[12 * ((z * G[1] + y) * G[0] + x)];
        o[0] = uint32_t(sg);
        o[1] = uint32_t(sgs);
        o[2] = uint32_t(linear % width);
        o[3] = uint32_t(std::min<uint64_t>(width, items - sg * width));
        o[4] = width;
        o[5] = uint32_t(local[0]), o[6] = uint32_t(local[1]), o[7] = uint32_t(local[2]);
        o[8] = uint32_t(pos[0] + 100 * pos[1] + 10000 * pos[2]);
        o[9] = uint32_t(linear);
        o[10] = uint32_t(items);
        const uint64_t off[3] = {r.offset[0], r.offset[1], r.offset[2]};
        o[11] = uint32_t(x + off[0] + 1000 * (y + off[1]) + 1000000 * (z + off[2]));
      }
  return out;
}

LaunchOptions options(uint32_t width, unsigned threads) {
  LaunchOptions o;
  o.subGroupSize = width;
  o.threads = threads;
  return o;
}

NDRange rangeOf(std::array<uint64_t, 3> global, std::array<uint64_t, 3> local, uint32_t dims,
                std::array<uint64_t, 3> offset = {0, 0, 0}) {
  NDRange r;
  r.dims = dims;
  r.global = global;
  r.local = local;
  r.offset = offset;
  r.localGiven = true;
  return r;
}

// 1-, 2- and 3-D ranges with smaller last work-groups, sub-groups that span rows and a
// partial last sub-group, at sub-group sizes that divide the work-group and that do not.
TEST(SplitGroups, BuiltinsReadAsInTheWholeWorkGroup) {
  auto program = loadOpenCl(kIds, "ids");
  const NDRange ranges[] = {
      rangeOf({100, 1, 1}, {40, 1, 1}, 1),
      rangeOf({30, 7, 1}, {12, 5, 1}, 2, {3, 4, 0}),
      rangeOf({9, 6, 5}, {4, 3, 2}, 3),
  };
  for (const NDRange& r : ranges)
    for (uint32_t width : {7u, 8u, 16u})
      for (unsigned threads : {1u, 3u}) {
        SCOPED_TRACE(::testing::Message()
                     << "global " << r.global[0] << "x" << r.global[1] << "x" << r.global[2]
                     << ", width " << width << ", " << threads << " threads");
        std::vector<uint32_t> out(12 * r.global[0] * r.global[1] * r.global[2], 0xdeadbeef);
        LaunchResult res = program->launch("ids", r, {bind(out)}, options(width, threads));
        ASSERT_TRUE(res.diagnostics.empty()) << describe(res);
        const uint64_t groups = [&] {
          uint64_t n = 1;
          for (int d = 0; d < 3; ++d) n *= (r.global[d] + r.local[d] - 1) / r.local[d];
          return n;
        }();
        const uint64_t perGroup = (r.local[0] * r.local[1] * r.local[2] + width - 1) / width;
        EXPECT_EQ(res.subGroupUnits, groups * perGroup);
        EXPECT_EQ(out, idsModel(r, width));
      }
}

// Each work-item that is not a multiple of 5 reads one past the end of `in`: the
// out-of-bounds reports (first by work-group and sub-group) and the buffers equal at
// every thread count.
const char* kOutOfBounds = R"(
kernel void oob(global const int* in, global int* out, int n) {
  int i = get_global_id(0);
  out[i] = in[i % 5 == 0 ? i % n : n + i % 3];
}
)";

TEST(SplitGroups, DiagnosticsDoNotDependOnTheThreadCount) {
  auto program = loadOpenCl(kOutOfBounds, "oob");
  std::vector<std::string> first;
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    std::vector<int32_t> in(50, 7), out(200, -1);
    LaunchResult r = program->launch("oob", range1(200, 50), {bind(in), bind(out), valueOf(50)},
                                     options(8, threads));
    EXPECT_GT(r.subGroupUnits, 0u);
    ASSERT_FALSE(r.diagnostics.empty());
    std::vector<std::string> text;
    for (const Diagnostic& d : r.diagnostics) text.push_back(formatText(d));
    if (first.empty()) first = text;
    EXPECT_EQ(text, first);
    for (int i = 0; i < 200; i += 5) EXPECT_EQ(out[i], 7) << i;
  }
}

// Sub-group 1 of work-group 0 loops for ever: its own budget ends it, as a sub-group's;
// the units before it run, those after it are dropped, at every thread count.
const char* kForever = R"(
kernel void forever(global int* out, int stop) {
  int i = get_global_id(0);
  // k counts up (no state repeats): not a spin, so only the budget ends it.
  if (get_group_id(0) == 0 && get_sub_group_id() == 1)
    for (uint k = 0; out[i] != stop; ++k) out[i] = k & 7;
  out[i] = 5;
}
)";

TEST(SplitGroups, TheInstructionBudgetIsEachSubGroups) {
  auto program = loadOpenCl(kForever, "forever");
  for (unsigned threads : {1u, 4u}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    std::vector<int32_t> out(64, 0);
    LaunchOptions o = options(8, threads);
    o.instructionBudget = 20000;
    LaunchResult r = program->launch("forever", range1(64, 32), {bind(out), valueOf(9)}, o);
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::InstructionBudget);
    EXPECT_EQ(d.subGroup, 1u);
    EXPECT_EQ(d.workGroup, (std::array<uint64_t, 3>{0, 0, 0}));
    EXPECT_NE(d.message.find("sub-group exceeded the instruction budget of 20000"),
              std::string::npos)
        << d.message;
    EXPECT_TRUE(r.aborted);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 5) << i;  // sub-group 0 ran before it
  }
  // Whole work-groups: 4 sub-groups share the budget, and 4 x 4000 fits no loop of 8.
  std::vector<int32_t> out(64, 0);
  LaunchOptions o = options(8, 1);
  o.instructionBudget = 20000;
  o.quantum = 1000;  // a quantum of one's own keeps work-groups whole
  LaunchResult r = program->launch("forever", range1(64, 32), {bind(out), valueOf(9)}, o);
  EXPECT_EQ(r.subGroupUnits, 0u);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("work-group exceeded"), std::string::npos);
}

// Sub-group 0 waits for a plain flag that sub-group 1 sets: a data race, which split
// (one thread: sub-group 0 runs first) is a deadlock at the spin, with the reason.
const char* kPlainFlag = R"(
kernel void flag(global int* flag, global int* out) {
  if (get_sub_group_id() == 1) flag[0] = 1;
  else while (flag[0] == 0) {}
  out[get_global_id(0)] = 1;
}
)";

TEST(SplitGroups, APlainFlagBetweenSubGroupsIsReportedAsARace) {
  auto program = loadOpenCl(kPlainFlag, "flag");
  std::vector<int32_t> flag(1, 0), out(16, 0);
  LaunchResult r = program->launch("flag", range1(16, 16), {bind(flag), bind(out)}, options(8, 1));
  EXPECT_EQ(r.subGroupUnits, 2u);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::Deadlock);
  EXPECT_EQ(d.subGroup, 0u);
  EXPECT_NE(d.message.find("sub-group 0 spins without writing memory at"), std::string::npos);
  EXPECT_NE(d.message.find("runs apart from the other sub-groups"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("a data race"), std::string::npos) << d.message;
  EXPECT_EQ(flag[0], 0);  // sub-group 1, a later unit, was dropped
}

// Each kernel has something that ties its work-group's sub-groups together (or runs
// within one sub-group only: those split).
struct Case {
  const char* name;
  const char* source;
  bool splits;
};

const Case kCases[] = {
    {"plain", "kernel void k(global int* p) { p[get_global_id(0)] += 1; }", true},
    {"sub_group_barrier",
     "kernel void k(global int* p) { int v = p[get_global_id(0)]; sub_group_barrier("
     "CLK_GLOBAL_MEM_FENCE); p[get_global_id(0)] = sub_group_reduce_add(v); }",
     true},
    {"barrier",
     "kernel void k(global int* p) { int v = p[get_global_id(0)]; "
     "barrier(CLK_GLOBAL_MEM_FENCE); p[get_global_id(0)] = v + 1; }",
     false},
    {"work_group_reduce",
     "kernel void k(global int* p) { p[get_global_id(0)] = work_group_reduce_add(1); }", false},
    {"local_variable",
     "kernel void k(global int* p) { local int t[64]; t[get_local_id(0)] = p[get_global_id(0)]; "
     "p[get_global_id(0)] = t[63 - get_local_id(0)]; }",
     false},
    {"atomic", "kernel void k(global int* p) { atomic_inc(p); }", false},
    {"volatile",
     "kernel void k(volatile global int* p) { while (p[0] == 0) {} p[get_global_id(0) + 1] = 1; }",
     false},
    {"printf", "kernel void k(global int* p) { if (get_global_id(0) == 99) printf(\"x\"); }",
     false},
    {"async_copy",
     "kernel void k(global int* p) { local int t[64]; event_t e = async_work_group_copy(t, p, "
     "64, 0); wait_group_events(1, &e); }",
     false},
};

TEST(SplitGroups, WhatTiesSubGroupsKeepsWorkGroupsWhole) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    auto program = loadOpenCl(c.source, c.name);
    std::vector<int32_t> p(129, 1);
    LaunchResult r = program->launch("k", range1(128, 64), {bind(p)}, options(16, 2));
    EXPECT_EQ(r.subGroupUnits, c.splits ? 8u : 0u) << describe(r);
  }
}

// Local memory passed as an argument, a random schedule, an observer: whole work-groups.
class QuietObserver : public ExecutionObserver {};
class QuietFactory : public ObserverFactory {
 public:
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<QuietObserver>();
  }
};

TEST(SplitGroups, LaunchOptionsThatWatchOrInterleaveKeepWorkGroupsWhole) {
  auto program = loadOpenCl(
      "kernel void k(global int* p, local int* t) { p[get_global_id(0)] += 1; }\n"
      "kernel void m(global int* p) { p[get_global_id(0)] += 1; }",
      "options");
  std::vector<int32_t> p(128, 1);
  LaunchResult local =
      program->launch("k", range1(128, 64), {bind(p), ArgBinding::local(64)}, options(16, 2));
  EXPECT_EQ(local.subGroupUnits, 0u);
  LaunchOptions random = options(16, 2);
  random.schedule = LaunchOptions::Schedule::Random;
  EXPECT_EQ(program->launch("m", range1(128, 64), {bind(p)}, random).subGroupUnits, 0u);
  LaunchOptions watched = options(16, 2);
  watched.observers.push_back(std::make_shared<QuietFactory>());
  EXPECT_EQ(program->launch("m", range1(128, 64), {bind(p)}, watched).subGroupUnits, 0u);
  // 256 work-groups are enough to share out whole.
  std::vector<int32_t> big(256 * 32, 1);
  EXPECT_EQ(program->launch("m", range1(256 * 32, 32), {bind(big)}, options(16, 2)).subGroupUnits,
            0u);
  EXPECT_EQ(program->launch("m", range1(255 * 32, 32), {bind(big)}, options(16, 2)).subGroupUnits,
            255u * 2);
  for (int32_t v : p) EXPECT_EQ(v, 4);
}

// The progress counters count a work-group once all its sub-groups are done.
TEST(SplitGroups, ProgressCountsWorkGroups) {
  auto program = loadOpenCl(kIds, "ids");
  LaunchCounters counters;
  LaunchOptions o = options(8, 4);
  o.counters = &counters;
  const NDRange r = rangeOf({100, 1, 1}, {40, 1, 1}, 1);
  std::vector<uint32_t> out(12 * 100);
  LaunchResult res = program->launch("ids", r, {bind(out)}, o);
  EXPECT_EQ(res.subGroupUnits, 15u);
  EXPECT_EQ(counters.groupsTotal.load(), 3u);
  EXPECT_EQ(counters.groupsDone.load(), 3u);
  EXPECT_EQ(counters.laneInstructions.load(), res.laneInstructions);
}

}  // namespace
}  // namespace spvsim
