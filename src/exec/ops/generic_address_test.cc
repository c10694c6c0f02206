// OpenCL C 2.0 generic address space end to end (-O0 and -O2): global, local and private
// pointers through generic functions, to_global / to_local / to_private (NULL when the
// pointer is in another space, OpenCL C 6.15.9), get_fence (OpGenericPtrMemSemantics),
// generic pointer comparisons and atomics through generic pointers; and program-scope
// variables whose initialisers hold addresses (single pointers, arrays of pointers with
// the variable itself as an element, constant arrays of constant pointers, structs).
// Expected values are worked by hand from the kernels below.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;

constexpr int kSlots = 12;

const char* kGeneric = R"(
int sum(generic const int* p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  return s;
}
void bump(generic atomic_int* a) {
  atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_device);
}
kernel void k(global int* out, global int* g, local int* lbuf, global atomic_int* gcount) {
  local atomic_int lcount;
  int l = (int)get_local_id(0), id = (int)get_global_id(0);
  global int* o = out + id * 12;
  if (l == 0) atomic_store_explicit(&lcount, 0, memory_order_relaxed, memory_scope_work_group);
  lbuf[l] = 10 * (l + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  int pv[3] = {id, 2 * id, 3 * id};
  o[0] = sum(g, 4);
  o[1] = sum(lbuf, 4);
  o[2] = sum(pv, 3);
  generic int* p = (l & 1) ? (generic int*)&lbuf[l] : (generic int*)&g[id];
  o[3] = to_global(p) != NULL;
  o[4] = to_local(p) != NULL;
  o[5] = to_private(p) != NULL;
  o[6] = get_fence(p);
  o[7] = (p == (generic int*)&lbuf[l]) + 2 * (p == (generic int*)&g[id]);
  generic int* q = pv;
  o[8] = (to_private(q) == pv) + 2 * (to_global(q) == NULL) + 4 * (to_local(q) == NULL);
  o[9] = get_fence(q);
  bump((generic atomic_int*)gcount);
  bump(&lcount);
  barrier(CLK_LOCAL_MEM_FENCE);
  local int* lp = to_local(p);
  if (lp) *lp = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[10] = lbuf[l];
  o[11] = atomic_load_explicit(&lcount, memory_order_relaxed, memory_scope_work_group);
})";

class Generic : public ::testing::TestWithParam<const char*> {};

TEST_P(Generic, PointersOfEverySpaceThroughGenericCode) {
  auto p = Program::load(compileOpenCL(kGeneric, std::string("-cl-std=CL2.0 ") + GetParam()));
  const uint64_t global = 8, local = 4;
  std::vector<int32_t> out(global * kSlots, 99), g{1, 2, 3, 4, 5, 6, 7, 8}, count{0};
  LaunchOptions o;
  o.subGroupSize = 2;
  LaunchResult r =
      p->launch("k", range1(global, local),
                {bufferOf(out), bufferOf(g), ArgBinding::local(local * 4), bufferOf(count)}, o);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int id = 0; id < int(global); ++id) {
    SCOPED_TRACE("work-item " + std::to_string(id));
    const int l = id % int(local);
    const bool odd = l & 1;  // odd: p is local, even: global
    const int32_t* s = &out[id * kSlots];
    EXPECT_EQ(s[0], 1 + 2 + 3 + 4);
    EXPECT_EQ(s[1], 10 + 20 + 30 + 40);
    EXPECT_EQ(s[2], 6 * id);
    EXPECT_EQ(s[3], odd ? 0 : 1);  // to_global
    EXPECT_EQ(s[4], odd ? 1 : 0);  // to_local
    EXPECT_EQ(s[5], 0);            // to_private of a global or local pointer: NULL
    EXPECT_EQ(s[6], odd ? 1 : 2);  // CLK_LOCAL_MEM_FENCE / CLK_GLOBAL_MEM_FENCE
    EXPECT_EQ(s[7], odd ? 1 : 2);
    EXPECT_EQ(s[8], 7);  // to_private keeps it; to_global and to_local give NULL
    EXPECT_EQ(s[9], 0);  // a private pointer: neither fence flag
    EXPECT_EQ(s[10], odd ? -1 : 10 * (l + 1));
    EXPECT_EQ(s[11], int(local));
  }
  EXPECT_EQ(count[0], int(global));
}

const char* kProgramScope = R"(
global int x = 5;
global int y[3] = {1, 2, 3};
global int* p = &x;
global int* q = &y[2];
global int* global ps[2] = {&x, &y[1]};
constant int c0 = 11;
constant int c[3] = {7, 8, 9};
constant int* constant cps[3] = {&c0, &c[0], &c[2]};
typedef struct { global int* p; int v; } S;
global S s = {&y[0], 4};
kernel void k(global int* out) {
  out[0] = *p;
  out[1] = *q;
  out[2] = *ps[0] * 10 + *ps[1];
  out[3] = *cps[0] + *cps[1] * 100 + *cps[2] * 10000;
  out[4] = *s.p + s.v;
  *ps[0] = 42;
  out[5] = x;
  ps[1] = &y[2];
  out[6] = *ps[1];
  out[7] = ps[0] == &x;
})";

TEST_P(Generic, ProgramScopePointerInitialisers) {
  auto p = Program::load(compileOpenCL(kProgramScope, std::string("-cl-std=CL2.0 ") + GetParam()));
  std::vector<int32_t> out(8, 0);
  LaunchResult r = p->launch("k", range1(1, 1), {bufferOf(out)}, LaunchOptions{});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<int32_t>{5, 3, 52, 11 + 700 + 90000, 1 + 4, 42, 3, 1}));
}

INSTANTIATE_TEST_SUITE_P(OptLevels, Generic, ::testing::Values("-O0", "-O2"),
                         [](const auto& info) { return std::string(info.param + 1); });

}  // namespace
}  // namespace spvsim
