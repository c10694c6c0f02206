// OpenCL.std printf end to end, compiled at test time. Expected text follows C99 printf
// (floats reach printf as double) plus the OpenCL C vector rules; output comes per
// lane in lane order, sub-groups and work-groups in order.
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

// The kernels of testdata/printf.cl.
const char* kPrintfKernels = R"(
// printf of integers, floats, strings, characters and vectors.
__kernel void print_one(__global int *data) {
  int i = data[0];
  float f = 1.5f;
  printf("int %d neg %d uint %u hex %x HEX %X oct %o\n", i, -i, 4000000000u, 255, 48879, 8);
  printf("pad [%5d] [%-5d] [%05d] [%+d]\n", i, i, i, i);
  printf("long %ld ulong %lu\n", -1234567890123L, 18446744073709551615UL);
  printf("float %f %.2f %e %g %g\n", f, 3.14159f, 1250.0f, 0.0001f, 100000.0f);
  printf("string [%s] [%10s] char %c%c\n", "hello", "right", 'o', 'k');
  printf("int4 %v4d\n", (int4)(1, -2, 3, -4));
  printf("float4 %v4hlf\n", (float4)(0.5f, 1.0f, -2.25f, 8.0f));
  printf("uchar2 %v2hhu percent %%\n", (uchar2)(7, 250));
  data[0] = i * 2;
}

// One line per work-item; lines of different work-items may come in any order.
__kernel void print_each(__global const float *x) {
  size_t i = get_global_id(0);
  printf("wi %u: x=%.3f sq=%d %s\n", (uint)i, x[i], (int)(i * i), (i & 1) ? "odd" : "even");
}
)";

TEST(Printf, PrintOne) {
  auto p = loadOpenCl(kPrintfKernels, "printf_one");
  std::vector<int32_t> data = {42};
  auto r = run(*p, "print_one", 1, data);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(r.printfOutput,
            "int 42 neg -42 uint 4000000000 hex ff HEX BEEF oct 10\n"
            "pad [   42] [42   ] [00042] [+42]\n"
            "long -1234567890123 ulong 18446744073709551615\n"
            "float 1.500000 3.14 1.250000e+03 0.0001 100000\n"
            "string [hello] [     right] char ok\n"
            "int4 1,-2,3,-4\n"
            "float4 0.500000,1.000000,-2.250000,8.000000\n"
            "uchar2 7,250 percent %\n");
  EXPECT_EQ(data[0], 84);
}

TEST(Printf, PrintEachInLaneOrder) {
  auto p = loadOpenCl(kPrintfKernels, "printf_each");
  std::vector<float> x = {0.5f, 1.25f, -2.0f, 3.14159f};
  auto r = run(*p, "print_each", 4, x);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(r.printfOutput,
            "wi 0: x=0.500 sq=0 even\n"
            "wi 1: x=1.250 sq=1 odd\n"
            "wi 2: x=-2.000 sq=4 even\n"
            "wi 3: x=3.142 sq=9 odd\n");
}

TEST(Printf, DivergentLanesResultAndStrings) {
  auto p = loadOpenCl(R"(
    constant char names[2][6] = {"alpha", "beta"};
    kernel void k(global int* rc) {
      size_t i = get_global_id(0);
      if (i % 3 == 1) printf("[%u:%s]", (uint)i, names[i & 1]);
      rc[i] = printf((i & 1) ? "%d|" : "%q|", (int)i);
    })",
                      "printf_div");
  std::vector<int32_t> rc(6, 7);
  NDRange range;
  range.global[0] = 6;
  range.local[0] = 3;  // two work-groups, output in work-group order
  range.localGiven = true;
  LaunchOptions options;
  options.subGroupSize = 2;  // two sub-groups per work-group (2 + 1 lanes)
  auto r = p->launch("k", range, {testing::bind(rc)}, options);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  // Work-group 0: lanes 0,1 then lane 2; work-group 1: items 3,4 then 5.
  EXPECT_EQ(r.printfOutput, "[1:beta]1|[4:alpha]3|5|");
  // "%q" is not a conversion: printf returns -1 and prints nothing.
  EXPECT_EQ(rc, (std::vector<int32_t>{-1, 0, -1, 0, -1, 0}));
}

TEST(Printf, VectorsAndLengthModifiers) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int* in) {
      int x = in[get_global_id(0)];
      printf("%v3hd;%#v2hhx;%v2lu;%.1v4hlf;%hhd;%hd;%5.2s|\n", (short3)(x, -x, 32767),
             (uchar2)(x, 255), (ulong2)(x, 18446744073709551615ul),
             (float4)(0.25f, 0.75f, -1.5f, 2.0f), x * 100, x * 10000, "abc");
    })",
                      "printf_vec");
  std::vector<int32_t> in = {3};
  auto r = run(*p, "k", 1, in);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  // 300 as char = 44; 30000 as short stays 30000; %.1f ties to even: 0.2, 0.8 (0.75 is
  // exact, rounds to even 0.8), -1.5, 2.0.
  EXPECT_EQ(r.printfOutput,
            "3,-3,32767;0x3,0xff;3,18446744073709551615;0.2,0.8,-1.5,2.0;44;30000;   ab|\n");
}

}  // namespace
}  // namespace spvsim
