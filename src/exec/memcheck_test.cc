// Intra-object array bounds (src/exec/ops/array_bounds.h) and out-of-bounds atomics: what
// is reported, where, and that valid code is not. Buffers whose creation flags forbid
// kernel accesses: access_flags_test.cc.
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

size_t count(const LaunchResult& r, DiagnosticKind kind) {
  size_t n = 0;
  for (const auto& d : r.diagnostics)
    if (d.kind == kind) n += 1 + d.repeats;
  return n;
}

// s.b[i] of char b[2] inside a struct of 8 bytes: i = 2 (one past the end, read) and
// i = 3 stay inside the struct and are reported at the subscript, naming the index;
// i = 0, 1 are fine.
TEST(ArrayBounds, SubscriptPastAStructMemberArrayAtO0) {
  auto prog = Program::load(compileOpenCL(R"(
struct S { int a; char b[2]; };
kernel void k(global char* out) {
  struct S s = {-1, {42, 7}};
  int i = get_global_id(0);
  out[i] = s.b[i];
})",
                                          "-O0"));
  std::vector<char> out(4, 0);
  auto r = prog->launch("k", range1(4, 4), {bufferOf(out)});
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::OutOfBounds);
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{2, 3}));
  EXPECT_NE(d.message.find("index 2 is one past the end of an array char[2]"), std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("byte offset 6 of variable"), std::string::npos) << d.message;
  EXPECT_EQ(out[0], 42);
  EXPECT_EQ(out[1], 7);
}

// A pointer one past the end may be formed and compared (C99 6.5.6p8), and in-range
// multi-dimensional indexing, whole-struct copies and byte views are valid: nothing is
// reported at any optimisation level.
TEST(ArrayBounds, ValidCodeIsQuietAtEveryLevel) {
  const char* source = R"(
struct T { int n; int a[4]; uchar f[1]; ulong g[2][3]; };
kernel void k(global int* out, int n) {
  int gid = get_global_id(0);
  struct T t;
  t.n = 1;
  for (int i = 0; i < 4; ++i) t.a[i] = gid + i;
  t.f[0] = 3;
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 3; ++j) t.g[i][j] = i * 3 + j;
  struct T u = t;
  int sum = 0;
  for (int* p = &u.a[0]; p != &u.a[n]; ++p) sum += *p;
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 3; ++j) sum += (int)u.g[i][j];
  const uchar* bytes = (const uchar*)&u;
  sum += bytes[(gid * 8 + 24) % sizeof(u)];
  out[gid] = sum + u.f[0];
})";
  for (const char* level : {"-O0", "-O2", "-O3"}) {
    auto prog = Program::load(compileOpenCL(source, level));
    std::vector<int> out(4, 0);
    auto r = prog->launch("k", range1(4, 4), {bufferOf(out), valueOf(4)});
    EXPECT_TRUE(r.diagnostics.empty()) << level << ": " << describe(r);
    // sum over a: 4 gid + 6; over g: 15; f: 3; the byte read is inside u (any value).
    for (int gid = 0; gid < 4; ++gid) EXPECT_GE(out[gid], 4 * gid + 6 + 15 + 3) << level;
  }
}

// An index past the row of a 2-D private array that leaves the whole array is the
// access's out-of-bounds (reported once, at the load), not the subscript's as well.
TEST(ArrayBounds, LeavingTheObjectIsReportedOnceAtTheAccess) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* out, int extra) {
  int grid[2][3];
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 3; ++j) grid[i][j] = i * 3 + j;
  int i = get_global_id(0);
  out[i] = grid[1][i + extra];
})",
                                          "-O0"));
  std::vector<int> out(4, 0);
  auto r = prog->launch("k", range1(4, 4), {bufferOf(out), valueOf(1)});
  // i + 1 = 3, 4 for i = 2, 3: bytes 24 and 28 of the 24-byte grid.
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("read of 4 bytes at byte offset 24"), std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{2, 3}));
}

// An out-of-bounds atomic is one diagnostic per work-group and instruction, folded over
// work-groups into one line (it once printed twice).
TEST(BufferAccess, OutOfBoundsAtomicIsOneDiagnostic) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* p) { atomic_inc(&p[100]); })"));
  for (uint64_t local : {1u, 4u, 8u}) {
    std::vector<int> p(4, 0);
    auto r = prog->launch("k", range1(8, local), {bufferOf(p)});
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
    EXPECT_EQ(1 + r.diagnostics[0].repeats, 8 / local) << describe(r);
    EXPECT_EQ(p, (std::vector<int>{0, 0, 0, 0}));
  }
}

}  // namespace
}  // namespace spvsim
