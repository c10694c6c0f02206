// Buffers whose creation flags forbid kernel reads or writes (CL_MEM_READ_ONLY /
// CL_MEM_WRITE_ONLY, .sim ro / wo: ArgBinding::readable / writable). The OpenCL API spec
// makes such an access undefined; a device performs it on the memory it names. spvsim
// reports it (`access-violation`) and performs it, so that every value afterwards is the
// device's; a read the compiler makes for a partial store (load, insert, store back) is
// no read of the kernel's and is not reported. Expected values are worked by hand.
#include <gtest/gtest.h>

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

const char* const kLevels[] = {"-O0", "-O1", "-O2", "-O3", "-O2 -g"};

ArgBinding readOnly(ArgBinding b) {
  b.writable = false;
  return b;
}
ArgBinding writeOnly(ArgBinding b) {
  b.readable = false;
  return b;
}

std::vector<const Diagnostic*> violations(const LaunchResult& r) {
  std::vector<const Diagnostic*> out;
  for (const auto& d : r.diagnostics)
    if (d.kind == DiagnosticKind::AccessViolation) out.push_back(&d);
  return out;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// in is read-only, out write-only: the store to `in` and the atomic on `out` (which reads
// it) are reported, each once with every lane, and both happen: the results are those of
// read-write buffers (out[0] = in[0] + 4 increments).
TEST(AccessFlags, ForbiddenAccessesAreReportedAndPerformed) {
  for (const char* level : kLevels) {
    SCOPED_TRACE(level);
    auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
  in[i] = 5;
  atomic_add(&out[0], 1);
})",
                                            level));
    std::vector<int> in{1, 2, 3, 4}, out(4, 0);
    auto r = prog->launch("k", range1(4, 4), {readOnly(bufferOf(in)), writeOnly(bufferOf(out))});
    const auto v = violations(r);
    ASSERT_EQ(v.size(), 2u) << describe(r);
    EXPECT_EQ(r.diagnostics.size(), 2u) << describe(r);
    int writes = 0, reads = 0;
    for (const Diagnostic* d : v) {
      EXPECT_EQ(d->lanes, (std::vector<uint32_t>{0, 1, 2, 3})) << d->message;
      EXPECT_EQ(d->repeats, 0u) << d->message;
      EXPECT_NE(d->message.find("performed"), std::string::npos) << d->message;
      if (startsWith(d->message, "write of 4 bytes to a read-only buffer")) {
        ++writes;
        EXPECT_NE(d->message.find("of argument 0"), std::string::npos) << d->message;
      } else if (startsWith(d->message, "read of 4 bytes from a write-only buffer")) {
        ++reads;
        EXPECT_NE(d->message.find("of argument 1"), std::string::npos) << d->message;
      }
    }
    EXPECT_EQ(writes, 1);
    EXPECT_EQ(reads, 1);
    EXPECT_EQ(in, (std::vector<int>{5, 5, 5, 5}));
    EXPECT_EQ(out, (std::vector<int>{5, 2, 3, 4}));

    std::vector<int> in2{1, 2, 3, 4}, out2(4, 0);  // the same without flags: clean
    r = prog->launch("k", range1(4, 4), {bufferOf(in2), bufferOf(out2)});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(in2, in);
    EXPECT_EQ(out2, out);
  }
}

// Component stores to a write-only vector buffer: clang loads the whole vector, inserts
// the new components and stores it back. The other components keep their values and
// nothing is reported, at every level.
TEST(AccessFlags, ComponentStoresToAWriteOnlyBufferKeepTheOtherComponents) {
  const char* source = R"(
kernel void one(global float4* out) { out[get_global_id(0)].x = 42.0f; }
kernel void two(global float4* out) {
  size_t i = get_global_id(0);
  out[i].y = 42.0f;
  out[i].z = 7.0f;
}
kernel void swizzle(global int4* out) { out[get_global_id(0)].wy = (int2)(-1, -2); }
kernel void three(global float3* out) { out[get_global_id(0)].y = 9.0f; }
kernel void member(global int2* out, int n) {
  size_t i = get_global_id(0);
  for (int k = 0; k < n; ++k) out[i].y = k;
})";
  for (const char* level : kLevels) {
    SCOPED_TRACE(level);
    auto prog = Program::load(compileOpenCL(source, level));
    auto run = [&](const char* kernel, std::vector<float>& data, std::vector<ArgBinding> extra) {
      std::vector<ArgBinding> args{writeOnly(bufferOf(data))};
      args.insert(args.end(), extra.begin(), extra.end());
      auto r = prog->launch(kernel, range1(2, 2), args);
      EXPECT_TRUE(r.diagnostics.empty()) << kernel << ": " << describe(r);
    };
    std::vector<float> a{1, 2, 3, 4, 5, 6, 7, 8};
    run("one", a, {});
    EXPECT_EQ(a, (std::vector<float>{42, 2, 3, 4, 42, 6, 7, 8}));
    std::vector<float> b{1, 2, 3, 4, 5, 6, 7, 8};
    run("two", b, {});
    EXPECT_EQ(b, (std::vector<float>{1, 42, 7, 4, 5, 42, 7, 8}));
    std::vector<float> c{1, 2, 3, 0, 5, 6, 7, 0};  // float3 occupies 16 bytes
    run("three", c, {});
    EXPECT_EQ(c[0], 1);
    EXPECT_EQ(c[1], 9);
    EXPECT_EQ(c[2], 3);
    EXPECT_EQ(c[4], 5);
    EXPECT_EQ(c[5], 9);
    EXPECT_EQ(c[6], 7);

    std::vector<int> d{1, 2, 3, 4, 5, 6, 7, 8};
    auto r = prog->launch("swizzle", range1(2, 2), {writeOnly(bufferOf(d))});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(d, (std::vector<int>{1, -2, 3, -1, 5, -2, 7, -1}));

    std::vector<int> e{1, 2, 3, 4};
    r = prog->launch("member", range1(2, 2), {writeOnly(bufferOf(e)), testing::valueOf(3)});
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(e, (std::vector<int>{1, 2, 3, 2}));
  }
}

// A component the kernel copies from another component is a real read: reported, and
// performed with the value memory holds.
TEST(AccessFlags, AReadOfAComponentIsReported) {
  for (const char* level : kLevels) {
    SCOPED_TRACE(level);
    auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int4* out) {
  size_t i = get_global_id(0);
  out[i].x = out[i].y;
})",
                                            level));
    std::vector<int> out{1, 2, 3, 4, 5, 6, 7, 8};
    auto r = prog->launch("k", range1(2, 2), {writeOnly(bufferOf(out))});
    const auto v = violations(r);
    ASSERT_FALSE(v.empty()) << describe(r);
    for (const Diagnostic* d : v) EXPECT_TRUE(startsWith(d->message, "read of ")) << d->message;
    EXPECT_EQ(out, (std::vector<int>{2, 2, 3, 4, 6, 6, 7, 8}));
  }
}

// Lanes: those that made the access in the instruction's first execution; later
// executions (a loop, another sub-group, another work-group) are repeats.
TEST(AccessFlags, ReportedLanesAreThoseOfTheFirstExecution) {
  auto prog = Program::load(compileOpenCL(R"(
kernel void k(global int* ro, int n) {
  size_t i = get_global_id(0);
  if (i % 2 == 1)
    for (int k = 0; k < n; ++k) ro[i] += k;
})",
                                          "-O2"));
  std::vector<int> ro(8, 10);
  auto r = prog->launch("k", range1(8, 4), {readOnly(bufferOf(ro)), testing::valueOf(3)});
  const auto v = violations(r);
  ASSERT_EQ(v.size(), 1u) << describe(r);
  EXPECT_EQ(v[0]->lanes, (std::vector<uint32_t>{1, 3}));
  EXPECT_TRUE(startsWith(v[0]->message, "write of 4 bytes to a read-only buffer")) << v[0]->message;
  EXPECT_GE(v[0]->repeats, 1u);  // the second work-group at least
  EXPECT_EQ(ro, (std::vector<int>{10, 13, 10, 13, 10, 13, 10, 13}));
}

// Every path that touches memory performs what the flags forbid: vector stores, block
// copies of structs, read-modify-write atomics, atomic stores, vload.
TEST(AccessFlags, OtherAccessPathsPerformAndReport) {
  for (const char* level : {"-O0", "-O2"}) {
    SCOPED_TRACE(level);
    auto prog = Program::load(compileOpenCL(R"(
typedef struct { int v[6]; } S;
kernel void vec(global int* ro) { vstore4((int4)(7, 8, 9, 10), get_global_id(0), ro); }
kernel void copy(global S* wo, global S* out) { out[get_global_id(0)] = wo[get_global_id(0)]; }
kernel void rmw(global int* ro) { atomic_add(ro, 2); }
kernel void xchg(global atomic_int* ro) {
  atomic_store_explicit(ro, 6, memory_order_relaxed, memory_scope_device);
}
kernel void load(global int* wo, global int4* out) { out[get_global_id(0)] = vload4(get_global_id(0), wo); }
)",
                                            std::string(level) + " -cl-std=CL2.0"));
    std::vector<int> a(8, 0);
    auto r = prog->launch("vec", range1(2, 2), {readOnly(bufferOf(a))});
    EXPECT_EQ(violations(r).size(), 1u) << describe(r);
    EXPECT_EQ(a, (std::vector<int>{7, 8, 9, 10, 7, 8, 9, 10}));

    std::vector<int> s(12), out(12, 0);
    for (int k = 0; k < 12; ++k) s[k] = 100 + k;
    r = prog->launch("copy", range1(2, 2), {writeOnly(bufferOf(s)), bufferOf(out)});
    ASSERT_FALSE(violations(r).empty()) << describe(r);  // one copy, or one load per piece
    for (const Diagnostic* d : violations(r)) EXPECT_TRUE(startsWith(d->message, "read of "));
    EXPECT_EQ(out, s);

    std::vector<int> c{1};
    r = prog->launch("rmw", range1(4, 4), {readOnly(bufferOf(c))});
    EXPECT_EQ(violations(r).size(), 1u) << describe(r);
    EXPECT_EQ(c[0], 9);

    std::vector<int> x{1};
    r = prog->launch("xchg", range1(1, 1), {readOnly(bufferOf(x))});
    EXPECT_EQ(violations(r).size(), 1u) << describe(r);
    EXPECT_EQ(x[0], 6);

    std::vector<int> w{1, 2, 3, 4, 5, 6, 7, 8}, o(8, 0);
    r = prog->launch("load", range1(2, 2), {writeOnly(bufferOf(w)), bufferOf(o)});
    EXPECT_EQ(violations(r).size(), 1u) << describe(r);
    EXPECT_EQ(o, w);
  }
}

// Async copies between local memory and a restricted buffer: the copy happens, and each
// side the flags forbid is reported once, naming the buffer.
TEST(AccessFlags, AsyncCopiesPerformAndReport) {
  for (const char* level : {"-O0", "-O2"}) {
    SCOPED_TRACE(level);
    auto prog = Program::load(compileOpenCL(R"(
kernel void k(global const int* wo, global int* ro) {
  local int tile[8];
  event_t e = async_work_group_copy(tile, wo, 8, 0);
  wait_group_events(1, &e);
  tile[get_local_id(0)] *= 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(ro, tile, 8, 0);
  wait_group_events(1, &e);
})",
                                            level));
    std::vector<int> wo{1, 2, 3, 4, 5, 6, 7, 8}, ro(8, 0);
    auto r = prog->launch("k", range1(8, 8), {writeOnly(bufferOf(wo)), readOnly(bufferOf(ro))});
    const auto v = violations(r);
    ASSERT_EQ(v.size(), 2u) << describe(r);
    EXPECT_EQ(r.diagnostics.size(), 2u) << describe(r);
    EXPECT_TRUE(startsWith(v[0]->message, "read of 4 bytes from a write-only buffer") ||
                startsWith(v[1]->message, "read of 4 bytes from a write-only buffer"))
        << describe(r);
    EXPECT_TRUE(startsWith(v[0]->message, "write of 4 bytes to a read-only buffer") ||
                startsWith(v[1]->message, "write of 4 bytes to a read-only buffer"))
        << describe(r);
    EXPECT_EQ(ro, (std::vector<int>{10, 20, 30, 40, 50, 60, 70, 80}));
  }
}

}  // namespace
}  // namespace spvsim
