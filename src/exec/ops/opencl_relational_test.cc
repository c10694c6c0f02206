// OpenCL.std bitselect and select end to end (kernels compiled at test time); expected
// values from the OpenCL C definitions, worked out by hand.
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

TEST(OpenclRelational, BitselectOnIntegersAndFloats) {
  std::vector<uint32_t> u = {0xffff0000u, 0x12345678u, 0x00ff00ffu}, o(2);
  std::vector<float> f = {1.0f, -2.0f}, fo(1);
  auto p = loadOpenCl(
      "kernel void k(global const uint* u, global uint* o, global const float* f,"
      " global float* fo) {\n"
      "  o[0] = bitselect(u[0], u[1], u[2]);\n"
      "  o[1] = as_uint(bitselect(as_float(u[0]), as_float(u[1]), as_float(u[2])));\n"
      "  fo[0] = bitselect(f[0], f[1], as_float(0x80000000u)); }\n",
      "bitselect");
  auto r = run(*p, "k", 1, u, o, f, fo);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  // (a & ~c) | (b & c): ff ff 00 00 / 12 34 56 78 / mask 00 ff 00 ff -> ff 34 00 78
  EXPECT_EQ(0xff340078u, o[0]);
  EXPECT_EQ(0xff340078u, o[1]);
  EXPECT_EQ(-1.0f, fo[0]);  // the sign bit of -2, the rest of 1
}

// Scalar select tests c != 0; vector select tests the most significant bit of each c.
TEST(OpenclRelational, SelectScalarAndVector) {
  std::vector<int> c = {0, 1, -1, 2};
  std::vector<int> so(4), vo(4);
  std::vector<float> fo(4);
  auto p = loadOpenCl(
      "kernel void k(global const int* c, global int* so, global int4* vo, global float4* fo) {\n"
      "  size_t i = get_global_id(0); so[i] = select(10, 20, c[i]);\n"
      "  if (i == 0) { int4 cv = *(global const int4*)c; *vo = select((int4)(10), (int4)(20), "
      "cv);\n"
      "    *fo = select((float4)(1.5f), (float4)(-2.5f), cv); } }\n",
      "select");
  auto r = run(*p, "k", 4, c, so, vo, fo);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ((std::vector<int>{10, 20, 20, 20}), so);
  EXPECT_EQ((std::vector<int>{10, 10, 20, 10}), vo);  // only -1 has its MSB set
  EXPECT_EQ((std::vector<float>{1.5f, 1.5f, -2.5f, 1.5f}), fo);
}

}  // namespace
}  // namespace spvsim
