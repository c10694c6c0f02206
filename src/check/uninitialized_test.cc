// The uninitialised-read checker (check::observersFor({.uninitialized = true})): reads of private
// or local memory that no write of this work-group initialised are `uninitialized-read`
// errors; copies carry initialisation without checking it; off, it reports nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;

const char* kKernels = R"(
typedef struct { char c; int x; short s; } S;  // padding after c and after s

// a[4..7] are never written.
__kernel void priv_read(__global int* out, __global const int* idx) {
  int a[8];
  int i = get_global_id(0);
  for (int k = 0; k < 4; ++k) a[k] = i + k;
  out[i] = a[idx[i]];
}

// Sub-group 0 writes buf[0..7]; every lane reads buf[(l + 4) % 16].
__kernel void local_read(__global int* out) {
  __local int buf[16];
  int l = get_local_id(0);
  if (l < 8) buf[l] = l * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[(l + 4) % 16];
}

// Only the second sub-group writes; after the barrier the first one reads it all.
__kernel void local_handoff(__global int* out) {
  __local int buf[8];
  int l = get_local_id(0);
  if (l >= 8) buf[l - 8] = l * 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 8) out[l] = buf[7 - l];
}

// Only work-group 0 writes buf.
__kernel void first_group_writes(__global int* out) {
  __local int buf[16];
  int l = get_local_id(0);
  if (get_group_id(0) == 0) buf[l] = l + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[15 - l];
}

// A struct whose member s and padding were never written, copied whole
// (OpCopyMemorySized through generic pointers), then read member by member.
__attribute__((noinline)) void copyS(S* d, const S* s) { *d = *s; }

__kernel void struct_copy(__global int* out, __global const int* sel) {
  S src[4], dst[4];
  int i = get_global_id(0);
  for (int k = 0; k < 4; ++k) { src[k].c = (char)k; src[k].x = i * k; }
  int j = sel[i] & 3;
  copyS(&dst[j], &src[i & 3]);
  out[i] = sel[i] & 4 ? dst[j].s : dst[j].x + dst[j].c;
}

// vstore then vload of the same private and local bytes.
__kernel void vector_io(__global float* out) {
  float p[8];
  __local ushort hs[64];  // half arrays need cl_khr_fp16; half pointers do not
  __local half* h = (__local half*)hs;
  int i = get_global_id(0), l = get_local_id(0);
  vstore4((float4)(i, i + 1, i + 2, i + 3), 0, p);
  vstore4((float4)(-i, -i - 1, -i - 2, -i - 3), 1, p);
  vstore_half2((float2)(i, 0.5f * i), l, h);
  float4 v = vload4(i & 1, p);
  float2 w = vload_half2(l, h);
  out[i] = v.x + v.w + w.x + w.y;
}

// Only p[0..3] are written: lanes with odd i read p[4..7].
__kernel void vector_io_bad(__global float* out) {
  float p[8];
  int i = get_global_id(0);
  vstore4((float4)(i, i + 1, i + 2, i + 3), 0, p);
  float4 v = vload4(i & 1, p);
  out[i] = v.x;
}

// Built-ins that write through pointer arguments (sincos, fract) initialise them.
__kernel void pointer_outputs(__global float* out) {
  float c[2];
  __local float fl[16];
  int i = get_global_id(0), l = get_local_id(0);
  float s = sincos(0.0f, &c[i & 1]);
  float f = fract(i + 0.25f, &fl[l]);
  out[i] = s + c[i & 1] + f + fl[l];
}

// Atomic writes initialise: an exchange into v, a successful compare-exchange into w
// (local memory starts zeroed: comparand 0), then plain reads after the barrier.
__kernel void atomic_writes(__global int* out) {
  __local int v[16], w[16];
  int l = get_local_id(0);
  atomic_xchg(&v[l], l * 3);
  atomic_cmpxchg(&w[l], 0, l + 100);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = v[15 - l] + w[15 - l];
}

// A compare-exchange that fails (comparand 7 against the zeroed, never written w) writes
// nothing: the later plain read of w is still uninitialised.
__kernel void failed_cmpxchg(__global int* out) {
  __local int w[16];
  int l = get_local_id(0);
  int old = atomic_cmpxchg(&w[l], 7, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = old + w[l];
}
)";

class Uninitialized : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { program_ = loadOpenCl(kKernels, "uninitialized kernels"); }
  static void TearDownTestSuite() { program_.reset(); }

  // One work-group of 16 work-items, sub-groups of 8.
  template <class... V>
  LaunchResult run(const std::string& kernel, bool check, std::vector<V>&... buffers) {
    NDRange range;
    range.global = {16, 1, 1};
    range.local = {16, 1, 1};
    range.localGiven = true;
    LaunchOptions options;
    options.subGroupSize = 8;
    options.observers = check::observersFor({.uninitialized = check});
    return program_->launch(kernel, range, {bind(buffers)...}, options);
  }

  static std::shared_ptr<Program> program_;
};

std::shared_ptr<Program> Uninitialized::program_;

std::vector<uint32_t> lanes(std::initializer_list<uint32_t> l) { return l; }

TEST_F(Uninitialized, PrivateArrayElementIsReported) {
  std::vector<int> out(16, -7), idx(16);
  for (int i = 0; i < 16; ++i) idx[i] = i % 2 ? 5 : 1;  // odd lanes read a[5]
  LaunchResult r = run("priv_read", true, out, idx);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedRead);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.subGroup, 0u);
  EXPECT_EQ(d.lanes, lanes({1, 3, 5, 7}));
  EXPECT_EQ(d.repeats, 1u);  // sub-group 1's odd lanes at the same instruction
  EXPECT_NE(d.instruction.find("OpLoad"), std::string::npos) << d.instruction;
  EXPECT_NE(d.message.find("private memory"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("byte offset 20"), std::string::npos) << d.message;
  // The kernel went on: initialised lanes have their values, the others read zeros.
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i % 2 ? 0 : i + 1) << i;
}

TEST_F(Uninitialized, LocalArrayElementIsReported) {
  std::vector<int> out(16, -7);
  LaunchResult r = run("local_read", true, out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedRead);
  // Sub-group 0: l = 4..7 read buf[8..11]; sub-group 1 (l = 8..11, lanes 0..3) repeats.
  EXPECT_EQ(d.subGroup, 0u);
  EXPECT_EQ(d.lanes, lanes({4, 5, 6, 7}));
  EXPECT_EQ(d.repeats, 1u);
  EXPECT_NE(d.instruction.find("OpLoad"), std::string::npos) << d.instruction;
  EXPECT_NE(d.message.find("local memory"), std::string::npos) << d.message;
  for (int l = 0; l < 16; ++l) {
    int k = (l + 4) % 16;
    EXPECT_EQ(out[l], k < 8 ? 3 * k : 0) << l;
  }
}

TEST_F(Uninitialized, AnotherSubGroupsWritesInitialiseLocalMemory) {
  std::vector<int> out(16, -7);
  LaunchResult r = run("local_handoff", true, out);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int l = 0; l < 8; ++l) EXPECT_EQ(out[l], (15 - l) * 5) << l;
}

TEST_F(Uninitialized, PartiallyInitialisedStructCopiedWholeIsNotARead) {
  std::vector<int> out(16, -7), sel(16);
  for (int i = 0; i < 16; ++i) sel[i] = (i * 5 + 2) % 4;  // bit 2 clear: read x and c
  LaunchResult r = run("struct_copy", true, out, sel);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i * (i & 3) + (i & 3)) << i;
}

TEST_F(Uninitialized, CopyCarriesUninitialisedBytesToTheTarget) {
  std::vector<int> out(16, -7), sel(16);
  for (int i = 0; i < 16; ++i) sel[i] = (i % 4 == 2 ? 4 : 0) | (i % 4);  // lanes 2, 6: s
  LaunchResult r = run("struct_copy", true, out, sel);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::UninitializedRead);
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({2, 6}));
  EXPECT_NE(r.diagnostics[0].instruction.find("OpLoad"), std::string::npos);
}

TEST_F(Uninitialized, VstoreThenVloadIsInitialised) {
  std::vector<float> out(16, -7);
  LaunchResult r = run("vector_io", true, out);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 16; ++i) {
    float v = i & 1 ? float(-i) + float(-i - 3) : float(i) + float(i + 3);
    EXPECT_EQ(out[i], v + float(i) + 0.5f * float(i)) << i;
  }
}

TEST_F(Uninitialized, VloadOfUnwrittenBytesIsReported) {
  std::vector<float> out(16, -7);
  LaunchResult r = run("vector_io_bad", true, out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedRead);
  EXPECT_EQ(d.lanes, lanes({1, 3, 5, 7}));
  EXPECT_NE(d.instruction.find("vload"), std::string::npos) << d.instruction;
}

// Off: the same launches report nothing and compute the same buffers.
TEST_F(Uninitialized, OffReportsNothingAndComputesTheSame) {
  std::vector<int> idx(16), sel(16);
  for (int i = 0; i < 16; ++i) {
    idx[i] = i % 2 ? 5 : 1;
    sel[i] = (i % 4 == 2 ? 4 : 0) | (i % 4);
  }
  for (const char* k : {"priv_read", "struct_copy"}) {
    std::vector<int> on(16, -7), off(16, -7);
    std::vector<int>& arg = std::string(k) == "priv_read" ? idx : sel;
    EXPECT_FALSE(run(k, true, on, arg).diagnostics.empty()) << k;
    LaunchResult r = run(k, false, off, arg);
    EXPECT_TRUE(r.diagnostics.empty()) << k << ": " << describe(r);
    EXPECT_EQ(on, off) << k;
  }
  std::vector<int> on(16, -7), off(16, -7);
  EXPECT_FALSE(run("local_read", true, on).diagnostics.empty());
  LaunchResult r = run("local_read", false, off);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(on, off);
  std::vector<float> fon(16, -7), foff(16, -7);
  EXPECT_FALSE(run("vector_io_bad", true, fon).diagnostics.empty());
  r = run("vector_io_bad", false, foff);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(fon, foff);
}

// The shadow is reset per work-group: what work-group 0 wrote is not initialised for
// work-group 1 run after it on the same host thread.
TEST_F(Uninitialized, ShadowIsPerWorkGroup) {
  std::vector<int> out(32, -7);
  NDRange range;
  range.global = {32, 1, 1};
  range.local = {16, 1, 1};
  range.localGiven = true;
  LaunchOptions options;
  options.subGroupSize = 8;
  options.observers = check::observersFor({.uninitialized = true});
  options.threads = 1;
  LaunchResult r = program_->launch("first_group_writes", range, {bind(out)}, options);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedRead);
  EXPECT_EQ(d.workGroup, (std::array<uint64_t, 3>{1, 0, 0}));
  EXPECT_EQ(d.lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(d.repeats, 1u);  // work-group 1's other sub-group
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], i < 16 ? 16 - i : 0) << i;
}

TEST_F(Uninitialized, BuiltinPointerOutputsInitialise) {
  std::vector<float> out(16, -1.0f);
  LaunchResult r = run("pointer_outputs", true, out);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  // sin 0 + cos 0 + fract(i + 0.25) + floor(i + 0.25) = 0 + 1 + 0.25 + i.
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], 1.25f + i) << i;
}

TEST_F(Uninitialized, AtomicWritesInitialiseLocalMemory) {
  std::vector<int> out(16, -7);
  LaunchResult r = run("atomic_writes", true, out);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(out[l], (15 - l) * 3 + (15 - l) + 100) << l;
}

TEST_F(Uninitialized, AFailedCompareExchangeDoesNotInitialise) {
  std::vector<int> out(16, -7);
  LaunchResult r = run("failed_cmpxchg", true, out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::UninitializedRead);
  EXPECT_NE(r.diagnostics[0].instruction.find("OpLoad"), std::string::npos)
      << r.diagnostics[0].instruction;
  EXPECT_EQ(r.diagnostics[0].lanes, lanes({0, 1, 2, 3, 4, 5, 6, 7}));
  for (int l = 0; l < 16; ++l) EXPECT_EQ(out[l], 0) << l;
}

}  // namespace
}  // namespace spvsim
