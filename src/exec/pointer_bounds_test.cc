// Out-of-bounds accesses are caught and blamed on the object the pointer was derived
// from, with the signed offset: pointer arithmetic never moves into another buffer or
// variable, however far it goes, and integers made into pointers never touch another
// object silently.
#include <gtest/gtest.h>

#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;
using testing::valueOf;

const Diagnostic* find(const LaunchResult& r, const std::string& kind) {
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) return &d;
  return nullptr;
}

// (Argument names are argN here: the test compiler discards value names.)
//
// a[i + (1 << 38)] is 2^40 bytes past a: that used to carry into the region bits and
// write the next buffer argument silently.
TEST(PointerBounds, FarIndexSaturatesAndNamesItsBuffer) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* a, global int* b) {
  size_t i = get_global_id(0);
  a[i + (1L << 38)] = 99;
})"));
  std::vector<int> a(4, 0), b(4, 0);
  auto res = prog->launch("k", range1(4, 4), {bufferOf(a), bufferOf(b)});
  const Diagnostic* d = find(res, "out-of-bounds");
  ASSERT_NE(d, nullptr) << describe(res);
  EXPECT_NE(d->message.find("write of 4 bytes at byte offset 274877906944 or more (out of the "
                            "representable range) of argument 0 ("),
            std::string::npos)
      << d->message;
  EXPECT_EQ(d->lanes, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(b, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(a, (std::vector<int>{0, 0, 0, 0}));
}

// in[i - 1] at i == 0 is 4 bytes before `in`: reported there, not as a huge offset of the
// argument before it.
TEST(PointerBounds, NegativeIndexIsASignedOffsetOfItsBuffer) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* out, global const int* in) {
  size_t i = get_global_id(0);
  out[i] = in[i - 1];
})"));
  std::vector<int> out(4, -1), in{10, 20, 30, 40};
  auto res = prog->launch("k", range1(4, 4), {bufferOf(out), bufferOf(in)});
  const Diagnostic* d = find(res, "out-of-bounds");
  ASSERT_NE(d, nullptr) << describe(res);
  EXPECT_NE(d->message.find("read of 4 bytes at byte offset -4 of argument 1 ("), std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("(global memory, 16 bytes)"), std::string::npos) << d->message;
  EXPECT_EQ(d->lanes, (std::vector<uint32_t>{0}));
  EXPECT_EQ(out, (std::vector<int>{0, 10, 20, 30}));  // the failed read gives 0
}

// The same in private memory: two arrays, the second indexed at -1.
TEST(PointerBounds, NegativeIndexIntoAPrivateArrayStaysInThatArray) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* out, int n) {
  volatile int x[4], y[4];
  for (int j = 0; j < 4; ++j) { x[j] = j; y[j] = 10 + j; }
  out[get_global_id(0)] = y[n];
})"));
  std::vector<int> out(2, -1);
  auto res = prog->launch("k", range1(2, 2), {bufferOf(out), valueOf<int>(-1)});
  const Diagnostic* d = find(res, "out-of-bounds");
  ASSERT_NE(d, nullptr) << describe(res);
  EXPECT_NE(d->message.find("at byte offset -4 of variable"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("(private memory, 16 bytes)"), std::string::npos) << d->message;
  EXPECT_EQ(out, (std::vector<int>{0, 0}));
}

// Integer arithmetic on a pointer: 2^40 bytes on carries into the region code, which then
// names no object (an invalid pointer, not the next argument); 4 bytes back stays with
// the object.
TEST(PointerBounds, IntegersMadePointersNeverTouchAnotherObject) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void far(global int* a, global int* b) {
  global int* p = (global int*)((ulong)a + (1UL << 40));
  p[get_global_id(0)] = 99;
}
kernel void before(global int* a, global int* b) {
  global int* p = (global int*)((ulong)a - 4);
  b[get_global_id(0)] = *p;
})"));
  std::vector<int> a(4, 0), b(4, 0);
  auto res = prog->launch("far", range1(4, 4), {bufferOf(a), bufferOf(b)});
  const Diagnostic* d = find(res, "out-of-bounds");
  ASSERT_NE(d, nullptr) << describe(res);
  EXPECT_NE(d->message.find("write of 4 bytes through an invalid pointer 0x"), std::string::npos)
      << d->message;
  EXPECT_EQ(b, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(a, (std::vector<int>{0, 0, 0, 0}));

  res = prog->launch("before", range1(4, 4), {bufferOf(a), bufferOf(b)});
  d = find(res, "out-of-bounds");
  ASSERT_NE(d, nullptr) << describe(res);
  EXPECT_NE(d->message.find("read of 4 bytes at byte offset -4 of argument 0 ("), std::string::npos)
      << d->message;
}

// A garbage integer as a pointer is an invalid pointer, whatever its bits.
TEST(PointerBounds, ArbitraryIntegersAreInvalidPointers) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* a, ulong bits) { *(global int*)bits = 1; })"));
  std::vector<int> a(4, 0);
  for (uint64_t bits :
       {uint64_t(0x1234), uint64_t(1) << 61, ~uint64_t(0), uint64_t(0x2000030000001234)}) {
    auto res = prog->launch("k", range1(1, 1), {bufferOf(a), valueOf<uint64_t>(bits)});
    const Diagnostic* d = find(res, "out-of-bounds");
    ASSERT_NE(d, nullptr) << describe(res);
    EXPECT_EQ(a, (std::vector<int>{0, 0, 0, 0})) << std::hex << bits;
  }
}

}  // namespace
}  // namespace spvsim
