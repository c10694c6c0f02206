// cl_khr_expect_assume: __builtin_expect gives its first operand; __builtin_assume with a
// false condition is undefined behaviour, reported for the lanes where it is false.
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

const char* kSource = R"(
  kernel void k(global int* a, global const int* limit) {
    int i = get_global_id(0), n = *limit;
    __builtin_assume(i < n);
    a[i] = __builtin_expect(a[i] * 3, 0) + n;
  })";

TEST(ExpectAssume, TrueAssumptionsRunSilently) {
  auto p = loadOpenCl(kSource, "ea");
  std::vector<int32_t> a = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<int32_t> n = {8};
  auto r = run(*p, "k", a.size(), a, n);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(a, (std::vector<int32_t>{8, 11, 14, 17, 20, 23, 26, 29}));
}

TEST(ExpectAssume, FalseAssumptionIsReportedForItsLanes) {
  auto p = loadOpenCl(kSource, "ea");
  std::vector<int32_t> a(8, 1);
  std::vector<int32_t> n = {5};
  auto r = run(*p, "k", a.size(), a, n);
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(kindName(r.diagnostics[0].kind), "assumption-violated");
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{5, 6, 7}));
}

}  // namespace
}  // namespace spvsim
