// Regression: atomics once bypassed the one place that told the checkers about writes.
// An atomic write to local memory, then a plain read of it, is no uninitialised read.
#include <gtest/gtest.h>

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

// Work-item 0 writes x through `WRITE`, every work-item then reads it plainly.
std::string kernelWith(const std::string& write) {
  return R"(
kernel void k(global int* out) {
  local atomic_int x;
  if (get_local_id(0) == 0) {
    )" + write +
         R"(;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = *(local int*)&x;
})";
}

LaunchResult runChecked(const std::string& source, std::vector<int>& out) {
  auto program = loadOpenCl(source, "k");
  LaunchOptions o;
  o.subGroupSize = 4;
  o.observers = check::observersFor({.uninitialized = true});
  return program->launch("k", range1(8, 8), {bind(out)}, o);
}

TEST(AtomicLocalWrite, AtomicStoreInitialisesLocalMemory) {
  std::vector<int> out(8, -1);
  auto r = runChecked(
      kernelWith("atomic_store_explicit(&x, 5, memory_order_relaxed, memory_scope_work_group)"),
      out);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, std::vector<int>(8, 5));
}

TEST(AtomicLocalWrite, AtomicExchangeInitialisesLocalMemory) {
  std::vector<int> out(8, -1);
  auto r = runChecked(kernelWith("atomic_exchange_explicit(&x, 6, memory_order_relaxed, "
                                 "memory_scope_work_group)"),
                      out);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, std::vector<int>(8, 6));
}

// The control: an atomic that only reads leaves x unwritten, and the plain reads of
// all 8 work-items (two sub-groups of 4) are reported.
TEST(AtomicLocalWrite, AtomicLoadDoesNotInitialise) {
  std::vector<int> out(8, -1);
  auto r = runChecked(
      kernelWith("(void)atomic_load_explicit(&x, memory_order_relaxed, memory_scope_work_group)"),
      out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::UninitializedRead);
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.diagnostics[0].repeats, 1u);  // the second sub-group's read
}

}  // namespace
}  // namespace spvsim
