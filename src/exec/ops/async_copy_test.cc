// Async work-group copies end to end (OpenCL C compiled at test time, -O0 and -O2):
// async_work_group_copy / async_work_group_strided_copy in both directions for scalar,
// vector and 3-component vector element types (a 3-component element is copied as the
// 4-component one, OpenCL C 6.15.10), wait_group_events, prefetch, and the undefined
// behaviour they report: arguments that differ between work-items, a copy reached by
// part of the work-group, elements out of bounds on either side (the others are copied),
// events no copy returned. Expected values come from a byte-level host model of the
// OpenCL C definitions.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/exec/observer.h"
#include "src/exec/program.h"
#include "src/exec/subgroup.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;
using testing::valueOf;

constexpr uint64_t kLocal = 8, kGroups = 2, kGlobal = kLocal * kGroups;

std::shared_ptr<Program> load(const std::string& source, const std::string& opt) {
  return Program::load(compileOpenCL(source, opt));
}

LaunchOptions options(uint32_t subGroupSize = 4) {
  LaunchOptions o;
  o.subGroupSize = subGroupSize;
  return o;
}

size_t count(const LaunchResult& r, DiagnosticKind kind) {
  size_t n = 0;
  for (const auto& d : r.diagnostics) n += d.kind == kind;
  return n;
}

// ---- Every element type, both directions, strided on either side ------------------

struct ElementType {
  const char* name;
  size_t bytes;  // sizeof in OpenCL C (3-component vectors take 4 components)
};

const ElementType kTypes[] = {
    {"char", 1},      {"uchar2", 2}, {"short3", 8},   {"ushort4", 8},  {"int", 4},
    {"int3", 16},     {"uint8", 32}, {"float3", 16},  {"float4", 16},  {"long", 8},
    {"ulong16", 128}, {"double", 8}, {"double3", 32}, {"uchar16", 16},
};

// Gathers every group's L elements from `in` with source stride S1 into local memory,
// then scatters them to `out` with destination stride S2.
const char* kStridedSource = R"(
kernel void k(global const T* in, global T* out, local T* tmp, uint s1, uint s2) {
  size_t L = get_local_size(0), g = get_group_id(0);
  prefetch(in + g * L * s1, L * s1);
  event_t e = async_work_group_strided_copy(tmp, in + g * L * s1, L, s1, 0);
  wait_group_events(1, &e);
  e = async_work_group_strided_copy(out + g * L * s2, tmp, L, s2, 0);
  wait_group_events(1, &e);
}
kernel void plain(global const T* in, global T* out, local T* tmp) {
  size_t L = get_local_size(0), g = get_group_id(0);
  event_t e = async_work_group_copy(tmp, in + g * L, L, 0);
  e = async_work_group_copy(out + g * L, tmp, L, e);
  wait_group_events(1, &e);
}
)";

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i * 7 + (i >> 8));
  return v;
}

class AsyncCopyTypes : public ::testing::TestWithParam<const char*> {};

TEST_P(AsyncCopyTypes, StridedBothDirectionsEveryType) {
  for (const ElementType& t : kTypes) {
    SCOPED_TRACE(t.name);
    auto p = load(std::string("#define T ") + t.name + "\n" + kStridedSource, GetParam());
    for (uint32_t s1 : {1u, 3u})
      for (uint32_t s2 : {1u, 2u}) {
        SCOPED_TRACE("strides " + std::to_string(s1) + "," + std::to_string(s2));
        std::vector<uint8_t> in = pattern(kGlobal * s1 * t.bytes, 3);
        std::vector<uint8_t> out(kGlobal * s2 * t.bytes, 0xab);
        std::vector<uint8_t> expect = out;
        for (uint64_t g = 0; g < kGroups; ++g)
          for (uint64_t i = 0; i < kLocal; ++i)
            std::memcpy(&expect[((g * kLocal) * s2 + i * s2) * t.bytes],
                        &in[((g * kLocal) * s1 + i * s1) * t.bytes], t.bytes);
        LaunchResult r = p->launch("k", range1(kGlobal, kLocal),
                                   {bufferOf(in), bufferOf(out),
                                    ArgBinding::local(kLocal * t.bytes), valueOf(s1), valueOf(s2)},
                                   options());
        ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
        EXPECT_EQ(out, expect);
      }
    std::vector<uint8_t> in = pattern(kGlobal * t.bytes, 11), out(kGlobal * t.bytes, 0);
    LaunchResult r =
        p->launch("plain", range1(kGlobal, kLocal),
                  {bufferOf(in), bufferOf(out), ArgBinding::local(kLocal * t.bytes)}, options());
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(out, in);
  }
}

// After the wait every work-item sees the whole copied tile, whichever sub-group it is
// in: each reads the element another sub-group's work-item would have loaded.
TEST_P(AsyncCopyTypes, CopiedTileVisibleToEveryWorkItemAfterWait) {
  auto p = load(R"(
kernel void k(global const int* in, global int* out, local int* tmp) {
  size_t L = get_local_size(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * L, L, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[L - 1 - l] * 10 + (int)l;
})",
                GetParam());
  std::vector<int32_t> in(kGlobal), out(kGlobal, -1);
  for (size_t i = 0; i < kGlobal; ++i) in[i] = int32_t(100 + i);
  for (uint32_t sg : {1u, 4u, 8u}) {
    LaunchResult r =
        p->launch("k", range1(kGlobal, kLocal),
                  {bufferOf(in), bufferOf(out), ArgBinding::local(kLocal * 4)}, options(sg));
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    for (size_t i = 0; i < kGlobal; ++i) {
      const size_t g = i / kLocal, l = i % kLocal;
      EXPECT_EQ(out[i], in[g * kLocal + kLocal - 1 - l] * 10 + int32_t(l)) << i;
    }
  }
}

// ---- Undefined behaviour ------------------------------------------------------------

// The element count differs between work-items: reported, and the copy goes on with
// work-item 0's arguments (count 1).
TEST_P(AsyncCopyTypes, DifferentArgumentsAreANonUniformCollective) {
  auto p = load(R"(
kernel void k(global const int* in, global int* out, local int* tmp) {
  size_t l = get_local_id(0);
  if (l < 4) tmp[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(tmp, in, l == 5 ? 4 : 1, 0);
  wait_group_events(1, &e);
  if (l < 4) out[l] = tmp[l];
})",
                GetParam());
  std::vector<int32_t> in{7, 8, 9, 10}, out(4, 0);
  LaunchResult r =
      p->launch("k", range1(8, 8), {bufferOf(in), bufferOf(out), ArgBinding::local(16)}, options());
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::NonUniformCollective);
  EXPECT_NE(r.diagnostics[0].message.find("element count 1 vs 4"), std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(r.diagnostics[0].subGroup, std::optional<uint32_t>(1));
  EXPECT_EQ(out, (std::vector<int32_t>{7, 0, 0, 0}));
}

// A copy (global -> global is not an async copy; local <- global here) reached by part
// of a sub-group is a non-uniform collective; by whole sub-groups only, the others
// finishing without it, barrier divergence.
TEST_P(AsyncCopyTypes, CopyReachedByPartOfTheWorkGroup) {
  auto p = load(R"(
kernel void k(global const int* in, global int* out, local int* tmp, uint limit) {
  if (get_local_id(0) < limit) {
    event_t e = async_work_group_copy(tmp, in, 4, 0);
    wait_group_events(1, &e);
  }
  out[get_global_id(0)] = 1;
})",
                GetParam());
  std::vector<int32_t> in(8, 1), out(8, 0);
  LaunchResult partial =
      p->launch("k", range1(8, 8),
                {bufferOf(in), bufferOf(out), ArgBinding::local(16), valueOf(2u)}, options());
  EXPECT_EQ(count(partial, DiagnosticKind::NonUniformCollective), 1u) << describe(partial);
  LaunchResult whole =
      p->launch("k", range1(8, 8),
                {bufferOf(in), bufferOf(out), ArgBinding::local(16), valueOf(4u)}, options());
  EXPECT_EQ(count(whole, DiagnosticKind::BarrierDivergence), 1u) << describe(whole);
}

// Either side out of bounds: the elements both of whose sides are inside their objects
// are copied, as a device's copy would; the others are reported once, by the standard
// out-of-bounds diagnostic of the first, naming it and how many were not copied.
TEST_P(AsyncCopyTypes, OutOfBoundsElementsAreReportedTheOthersCopied) {
  auto p = load(R"(
kernel void in_global(global const int* in, global int* out, local int* tmp, long n, uint s,
                      int shift) {
  tmp[get_local_id(0)] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(tmp, in + shift, n, s, 0);
  wait_group_events(1, &e);
  out[get_local_id(0)] = tmp[get_local_id(0)];
}
kernel void in_local(global const int* in, global int* out, local int* tmp, long n, uint s,
                     int shift) {
  tmp[get_local_id(0)] = 5 + get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(out + shift, tmp, n, s, 0);
  wait_group_events(1, &e);
})",
                GetParam());
  struct Case {
    const char* kernel;
    int64_t n;
    uint32_t s;
    int32_t shift;
    bool write;      // the first element not copied fails on its write
    int64_t offset;  // ... at this byte offset of its object
    uint64_t first, uncopied;
    std::vector<int32_t> out;  // by hand from the OpenCL C definitions
  };
  // in: 1..8; out: 8 ints of -1; tmp: 4 ints (one per work-item).
  const Case cases[] = {
      // Source (global) in[0], in[3], in[6], in[9]: the last is past in's 8 elements.
      {"in_global", 4, 3, 0, false, 36, 3, 1, {1, 4, 7, -1, -1, -1, -1, -1}},
      // Destination (local) tmp[4]: past tmp's 4 elements.
      {"in_global", 5, 1, 0, true, 16, 4, 1, {1, 2, 3, 4, -1, -1, -1, -1}},
      // Source in[-2], in[-1], in[0], in[1]: the first two lie before in.
      {"in_global", 4, 1, -2, false, -8, 0, 2, {-1, -1, 1, 2, -1, -1, -1, -1}},
      // A count no object holds: the 4 elements inside are copied at once, not visited
      // one by one with the 2^40 - 4 outside.
      {"in_global",
       int64_t(1) << 40,
       1,
       4,
       false,
       32,
       4,
       (uint64_t(1) << 40) - 4,
       {5, 6, 7, 8, -1, -1, -1, -1}},
      {"in_local", 5, 1, 0, false, 16, 4, 1, {5, 6, 7, 8, -1, -1, -1, -1}},  // reads tmp[4]
      // Destination (global) out[0], out[3], out[6], out[9]: the last past out's 8.
      {"in_local", 4, 3, 0, true, 36, 3, 1, {5, -1, -1, 6, -1, -1, 7, -1}},
      // Destination out[7], out[8], ...: only out[7] is inside.
      {"in_local", 4, 1, 7, true, 32, 1, 3, {-1, -1, -1, -1, -1, -1, -1, 5}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.kernel) + " n=" + std::to_string(c.n) + " s=" + std::to_string(c.s) +
                 " shift=" + std::to_string(c.shift));
    std::vector<int32_t> in{1, 2, 3, 4, 5, 6, 7, 8}, out(8, -1);
    LaunchResult r = p->launch(c.kernel, range1(4, 4),
                               {bufferOf(in), bufferOf(out), ArgBinding::local(16), valueOf(c.n),
                                valueOf(c.s), valueOf(c.shift)},
                               options());
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::OutOfBounds) << describe(r);
    EXPECT_NE(d.message.find(fmt::format("{} of 4 bytes at byte offset {} of",
                                         c.write ? "write" : "read", c.offset)),
              std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find(fmt::format(": element {} of an async copy of {}; {} of its elements",
                                         c.first, c.n, c.uncopied)),
              std::string::npos)
        << d.message;
    EXPECT_NE(d.instruction.find("OpGroupAsyncCopy"), std::string::npos) << d.instruction;
    EXPECT_EQ(out, c.out);
  }
}

// Observers see one Copy access per element copied, none for the others.
TEST_P(AsyncCopyTypes, ObserversSeeOnlyTheElementsCopied) {
  auto p = load(R"(
kernel void k(global const int* in, local int* tmp) {
  event_t e = async_work_group_copy(tmp, in + 5, 4, 0);
  wait_group_events(1, &e);
})",
                GetParam());
  std::vector<int32_t> in(8, 1);
  struct Count : ExecutionObserver {
    explicit Count(size_t& n) : n(n) {}
    void access(SubGroup&, const MemoryAccess& a) override { n += a.kind == AccessKind::Copy; }
    size_t& n;
  };
  struct Factory : ObserverFactory {
    explicit Factory(size_t& n) : n(n) {}
    bool serial() const override { return true; }
    std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
      return std::make_unique<Count>(n);
    }
    size_t& n;
  };
  size_t copies = 0;
  LaunchOptions o = options();
  o.observers.push_back(std::make_shared<Factory>(copies));
  LaunchResult r = p->launch("k", range1(4, 4), {bufferOf(in), ArgBinding::local(16)}, o);
  EXPECT_EQ(count(r, DiagnosticKind::OutOfBounds), 1u) << describe(r);
  EXPECT_EQ(copies, 3u);  // in[5], in[6], in[7]
}

// wait_group_events may only wait for events copies of the work-group returned and no
// wait released yet (OpenCL C: the events "will be released after the wait is
// performed"): anything else is `invalid-event`, reported with the event and the lanes,
// and the wait still orders memory as a work-group barrier.
TEST_P(AsyncCopyTypes, WaitForAnEventNoCopyReturnedIsAnInvalidEvent) {
  auto p = load(R"(
kernel void twice(global const int* in, global int* out, local int* tmp) {
  event_t e = async_work_group_copy(tmp, in, 4, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[3 - get_local_id(0)];
}
kernel void unset(global const int* in, global int* out, local int* tmp) {
  event_t e[2];
  e[0] = async_work_group_copy(tmp, in, 4, 0);
  wait_group_events(2, e);
  out[get_global_id(0)] = tmp[3 - get_local_id(0)];
}
kernel void chained(global const int* in, global int* out, local int* tmp) {
  event_t e = async_work_group_copy(tmp, in, 2, 0);
  e = async_work_group_copy(tmp + 2, in + 2, 2, e);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[3 - get_local_id(0)];
})",
                GetParam());
  const std::vector<int32_t> in{1, 2, 3, 4}, reversed{4, 3, 2, 1, 4, 3, 2, 1};
  struct Case {
    const char* kernel;
    const char* message;  // "" for none
  };
  const Case cases[] = {
      {"twice",
       "(element 0 of the event list), which an earlier wait_group_events already waited for "
       "and released"},
      {"unset", "(element 1 of the event list), which no async copy of the work-group returned"},
      {"chained", ""},  // the second copy joins the first's event: one wait for both
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.kernel);
    std::vector<int32_t> out(8, 0), input = in;
    LaunchResult r = p->launch(c.kernel, range1(8, 4),
                               {bufferOf(input), bufferOf(out), ArgBinding::local(16)}, options());
    EXPECT_EQ(out, reversed);
    if (!*c.message) {
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      continue;
    }
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::InvalidEvent);
    EXPECT_EQ(d.repeats, 1u);  // the second work-group's
    EXPECT_EQ(d.lanes, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_NE(d.message.find("wait_group_events waits for event 0x"), std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find(c.message), std::string::npos) << d.message;
    EXPECT_NE(d.instruction.find("OpGroupWaitEvents"), std::string::npos) << d.instruction;
  }
}
// wait_group_events with event lists that differ between work-items.
TEST_P(AsyncCopyTypes, WaitWithDifferentEventLists) {
  auto p = load(R"(
kernel void k(global const int* in, global int* out, local int* tmp) {
  event_t e[2];
  e[0] = async_work_group_copy(tmp, in, 2, 0);
  e[1] = async_work_group_copy(tmp + 2, in + 2, 2, 0);
  wait_group_events(get_local_id(0) == 6 ? 1 : 2, e);
  out[get_local_id(0)] = tmp[get_local_id(0) & 3];
})",
                GetParam());
  std::vector<int32_t> in{1, 2, 3, 4}, out(8, 0);
  LaunchResult r =
      p->launch("k", range1(8, 8), {bufferOf(in), bufferOf(out), ArgBinding::local(16)}, options());
  ASSERT_EQ(count(r, DiagnosticKind::NonUniformCollective), 1u) << describe(r);
  EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3, 4, 1, 2, 3, 4}));
}

// The kernel must wait for its copies before it exits: a copy never waited for is
// reported once per work-group, naming the copy; copies waited in a loop are not.
TEST_P(AsyncCopyTypes, UnwaitedCopyIsReported) {
  auto p = load(R"(
kernel void unwaited(global const int* in, global int* out, local int* tmp) {
  event_t e = async_work_group_copy(tmp, in, 4, 0);
  e = async_work_group_copy(out, tmp, 4, 0);
}
kernel void waited_in_loop(global const int* in, global int* out, local int* tmp) {
  for (int i = 0; i < 2; ++i) {
    event_t e = async_work_group_copy(tmp, in + 4 * i, 4, 0);
    wait_group_events(1, &e);
    e = async_work_group_copy(out + 4 * i, tmp, 4, 0);
    wait_group_events(1, &e);
  }
})",
                GetParam());
  std::vector<int32_t> in{1, 2, 3, 4, 5, 6, 7, 8}, out(8, 0);
  LaunchResult r = p->launch("unwaited", range1(8, 4),
                             {bufferOf(in), bufferOf(out), ArgBinding::local(16)}, options());
  // One per work-group: the second folded into the first as a repeat.
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.kind, DiagnosticKind::UnwaitedAsyncCopy);
    EXPECT_EQ(d.repeats, 1u);
    EXPECT_NE(d.message.find("for 2 async copies"), std::string::npos) << d.message;
    EXPECT_NE(d.instruction.find("OpGroupAsyncCopy"), std::string::npos) << d.instruction;
  }
  LaunchResult ok = p->launch("waited_in_loop", range1(8, 4),
                              {bufferOf(in), bufferOf(out), ArgBinding::local(16)}, options());
  EXPECT_TRUE(ok.diagnostics.empty()) << describe(ok);
  EXPECT_EQ(out, in);
}

// A copy given a non-zero event no copy returned (OpenCL C: the event argument is 0 or
// a previous copy's) is `invalid-event`; the copy is made and returns that event, as the
// spec says. -O0 only: llvm-spirv-15 translates the integer-to-event conversion at -O1
// and above into invalid SPIR-V (OpConvertUToPtr to an event).
TEST(AsyncCopyEvents, CopyGivenAnEventNoCopyReturnedIsAnInvalidEvent) {
  auto p = load(R"(
kernel void k(global const int* in, global int* out, local int* tmp) {
  event_t e[1];
  ((private ulong*)e)[0] = 77;
  event_t f = async_work_group_copy(tmp, in, 4, e[0]);
  wait_group_events(1, &f);
  out[get_local_id(0)] = tmp[get_local_id(0)];
})",
                "-O0");
  std::vector<int32_t> in{1, 2, 3, 4}, out(4, 0);
  LaunchResult r =
      p->launch("k", range1(4, 4), {bufferOf(in), bufferOf(out), ArgBinding::local(16)}, options());
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::InvalidEvent);
  EXPECT_NE(r.diagnostics[0].message.find("async copy given event 0x4d, which no earlier async "
                                          "copy of the work-group returned"),
            std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(out, in);  // and the wait for the event it returned (77) is valid
}

INSTANTIATE_TEST_SUITE_P(OptLevels, AsyncCopyTypes, ::testing::Values("-O0", "-O2"),
                         [](const auto& info) { return std::string(info.param + 1); });

// ---- Observers see the copies --------------------------------------------------------

struct Seen {
  std::vector<MemoryAccess> copies;
  int groupBarriers = 0;
  std::string order;  // b(egin), c(opy element), e(nd), w(aited), B(arrier)
  std::vector<uint64_t> begun, waited;
};

class CopyObserver : public ExecutionObserver {
 public:
  explicit CopyObserver(Seen& s) : s_(s) {}
  void access(SubGroup&, const MemoryAccess& a) override {
    if (a.kind != AccessKind::Copy) return;
    s_.copies.push_back(a);
    s_.order += 'c';
  }
  void asyncCopyBegin(SubGroup&, const Inst&, uint64_t event) override {
    s_.begun.push_back(event);
    s_.order += 'b';
  }
  void asyncCopyEnd(SubGroup&) override { s_.order += 'e'; }
  void asyncCopiesWaited(SubGroup&, const std::vector<uint64_t>& events) override {
    s_.waited.insert(s_.waited.end(), events.begin(), events.end());
    s_.order += 'w';
  }
  void workGroupBarrier(SubGroup*, size_t, uint32_t, uint32_t) override {
    ++s_.groupBarriers;
    s_.order += 'B';
  }

 private:
  Seen& s_;
};

class CopyObserverFactory : public ObserverFactory {
 public:
  explicit CopyObserverFactory(Seen& s) : s_(s) {}
  bool serial() const override { return true; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<CopyObserver>(s_);
  }

 private:
  Seen& s_;
};

// One Copy access per element (global source, local destination, then back), between
// the copy's begin and end, and per wait the copies it completed (the event each copy
// began with), then one work-group-wide ordering event.
TEST(AsyncCopyObservers, SeeEachElementCopiedAndEachWait) {
  auto p = load(R"(
kernel void k(global const float4* in, global float4* out, local float4* tmp) {
  event_t e = async_work_group_strided_copy(tmp, in, 3, 2, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(out, tmp, 3, 0);
  wait_group_events(1, &e);
})",
                "-O2");
  std::vector<float> in(4 * 8, 1.f), out(4 * 8, 0.f);
  Seen seen;
  LaunchOptions o = options();
  o.observers.push_back(std::make_shared<CopyObserverFactory>(seen));
  LaunchResult r =
      p->launch("k", range1(8, 8), {bufferOf(in), bufferOf(out), ArgBinding::local(48)}, o);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  ASSERT_EQ(seen.copies.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    const MemoryAccess& a = seen.copies[i];
    EXPECT_EQ(a.bytes, 16u);
    EXPECT_EQ(pointerSpace(a.source), i < 3 ? Space::Global : Space::Local);
    EXPECT_EQ(pointerSpace(a.pointer), i < 3 ? Space::Local : Space::Global);
    const uint64_t srcStride = i < 3 ? 32 : 16;
    EXPECT_EQ(pointerOffset(a.source), int64_t((i % 3) * srcStride));
    EXPECT_EQ(pointerOffset(a.pointer), int64_t((i % 3) * 16));
  }
  EXPECT_EQ(seen.groupBarriers, 2);
  EXPECT_EQ(seen.order, "bcccewBbcccewB");
  EXPECT_EQ(seen.waited, seen.begun);
  ASSERT_EQ(seen.begun.size(), 2u);
  EXPECT_NE(seen.begun[0], 0u);  // an event passed as 0 becomes one naming the copy
}

}  // namespace
}  // namespace spvsim
