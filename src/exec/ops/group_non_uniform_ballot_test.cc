// cl_khr_subgroup_ballot end to end: sub_group_non_uniform_broadcast (scalars and
// vectors), sub_group_broadcast_first, sub_group_ballot, _inverse_ballot,
// _ballot_bit_extract, _bit_count, _inclusive_scan, _exclusive_scan, _find_lsb, _find_msb
// and get_sub_group_{eq,ge,gt,le,lt}_mask, at every sub-group size and NDRange shape,
// inside `if`s that the CTS lane masks select. Expected values come from a host model
// over partitionSubGroups and the extension's text (OpenCL C 3.0.9 and later: bit
// counts, LSB/MSB and the ge/gt masks stop at the maximum sub-group size).
#include <fmt/core.h>

#include <bit>
#include <cstring>
#include <functional>

#include "spirv/error.h"
#include "src/exec/ops/subgroup_test_util.h"

namespace spvsim {
namespace {

using testing::ctsLaneMasks;
using testing::laneSelected;
using testing::partitionSubGroups;
using testing::RangeCase;
using testing::rangeCases;
using testing::SubGroupModel;
using testing::subGroupSizes;

const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define GID get_global_linear_id()
#define SELECTED(m) (((m) >> (get_sub_group_local_id() % 32)) & 1)

kernel void ballot(global const int* pred, global uint4* out, uint mask) {
  if (SELECTED(mask)) out[GID] = sub_group_ballot(pred[GID]);
}
kernel void inverse_ballot(global const uint4* v, global int* out, uint mask) {
  if (SELECTED(mask)) out[GID] = sub_group_inverse_ballot(v[GID]);
}
kernel void bit_extract(global const uint4* v, global const uint* index, global int* out,
                        uint mask) {
  if (SELECTED(mask)) out[GID] = sub_group_ballot_bit_extract(v[GID], index[GID]);
}
kernel void bit_count(global const uint4* v, global uint* out, uint mask) {
  if (SELECTED(mask)) {
    uint4 b = v[GID];
    out[3 * GID] = sub_group_ballot_bit_count(b);
    out[3 * GID + 1] = sub_group_ballot_inclusive_scan(b);
    out[3 * GID + 2] = sub_group_ballot_exclusive_scan(b);
  }
}
kernel void find(global const uint4* v, global uint* out, uint mask) {
  if (SELECTED(mask)) {
    uint4 b = v[GID];
    out[2 * GID] = sub_group_ballot_find_lsb(b);
    out[2 * GID + 1] = sub_group_ballot_find_msb(b);
  }
}
kernel void masks(global uint4* out) {
  out[5 * GID] = get_sub_group_eq_mask();
  out[5 * GID + 1] = get_sub_group_ge_mask();
  out[5 * GID + 2] = get_sub_group_gt_mask();
  out[5 * GID + 3] = get_sub_group_le_mask();
  out[5 * GID + 4] = get_sub_group_lt_mask();
}

#define BROADCAST(T)                                                                    \
  kernel void broadcast_##T(global const T* in, global const uint* index, global T* out, \
                            uint mask) {                                                 \
    if (SELECTED(mask)) out[GID] = sub_group_non_uniform_broadcast(in[GID], index[GID]); \
  }
#define BROADCAST_FIRST(T)                                                        \
  kernel void broadcast_first_##T(global const T* in, global T* out, uint mask) { \
    if (SELECTED(mask)) out[GID] = sub_group_broadcast_first(in[GID]);            \
  }
#define BROADCAST_VECTORS(T) BROADCAST(T##2) BROADCAST(T##3) BROADCAST(T##4) BROADCAST(T##8) \
  BROADCAST(T##16)
#define TYPES(M) M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong) \
  M(half) M(float) M(double)
TYPES(BROADCAST)
TYPES(BROADCAST_FIRST)
TYPES(BROADCAST_VECTORS)
)";

Program& program() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kSource, "ballot kernels");
  return *p;
}

using Config = testing::SubGroupConfig;
using Expected = testing::ExpectedDiagnostic;
using testing::expectDiagnostics;
using testing::mix;
using testing::sameBits;
using testing::uintArg;

inline void forEachConfig(const std::function<void(const Config&)>& f,
                          const std::vector<uint32_t>& masks = testing::ctsLaneMasks()) {
  testing::forEachSubGroupConfig(f, masks);
}

LaunchResult launch(const Config& c, const std::string& kernel, std::vector<ArgBinding> args,
                    bool withMask = true) {
  if (withMask) args.push_back(uintArg(c.mask));
  LaunchOptions o;
  o.subGroupSize = c.width;
  return program().launch(kernel, c.range->range, args, o);
}

// Values whose bits come back unchanged: integers use every bit, floats are small
// integers (exact in half).
template <class T>
T valueAt(uint64_t k) {
  if constexpr (std::is_integral_v<T>)
    return T(mix(k));
  else
    return T(float(int(mix(k) % 1001) - 500));
}

template <class T>
T untouched() {
  T v;
  std::memset(&v, 0xa5, sizeof v);
  return v;
}

// ---------------------------------------------------------------------------------------
// Ballots.

using Ballot = std::array<uint32_t, 4>;

bool bitOf(const Ballot& b, uint32_t k) { return k < 128 && (b[k / 32] >> (k % 32)) & 1; }

Ballot randomBallot(uint64_t k) {
  return {uint32_t(mix(k)), uint32_t(mix(k) >> 32), uint32_t(mix(k + 1)),
          uint32_t(mix(k + 1) >> 32)};
}

uint32_t countBelow(const Ballot& b, uint32_t n) {
  uint32_t c = 0;
  for (uint32_t k = 0; k < n; ++k) c += bitOf(b, k);
  return c;
}

TEST(NonUniformBallot, Ballot) {
  forEachConfig([](const Config& c) {
    std::vector<int32_t> pred(c.items());
    for (uint64_t i = 0; i < pred.size(); ++i) pred[i] = mix(i + c.mask) % 3 ? int32_t(i) : 0;
    const Ballot untouchedBallot{7, 7, 7, 7};
    std::vector<Ballot> out(c.items(), untouchedBallot);
    auto r = launch(c, "ballot", {testing::bind(pred), testing::bind(out)});
    expectDiagnostics(r, c, {});
    for (const SubGroupModel& sg : c.subGroups) {
      Ballot expected{};
      for (uint32_t l : c.activeLanes(sg))
        if (pred[sg.items[l]]) expected[l / 32] |= 1u << (l % 32);
      for (uint32_t l = 0; l < sg.items.size(); ++l)
        ASSERT_EQ(out[sg.items[l]], c.active(l) ? expected : untouchedBallot)
            << "lane " << l << " of work-group " << sg.workGroup << " sub-group " << sg.id;
    }
  });
}

TEST(NonUniformBallot, InverseBallot) {
  forEachConfig([](const Config& c) {
    // The value must be the same in the sub-group: one random ballot per sub-group.
    std::vector<Ballot> in(c.items());
    for (size_t s = 0; s < c.subGroups.size(); ++s)
      for (uint64_t item : c.subGroups[s].items) in[item] = randomBallot(s * 2 + c.width);
    std::vector<int32_t> out(c.items(), -7);
    auto r = launch(c, "inverse_ballot", {testing::bind(in), testing::bind(out)});
    expectDiagnostics(r, c, {});
    for (const SubGroupModel& sg : c.subGroups)
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        const int32_t got = out[sg.items[l]];
        if (!c.active(l))
          ASSERT_EQ(got, -7) << "inactive lane " << l << " written";
        else
          ASSERT_EQ(got != 0, bitOf(in[sg.items[l]], l)) << "lane " << l;
      }
  });
}

TEST(NonUniformBallot, BitExtract) {
  forEachConfig([](const Config& c) {
    std::vector<Ballot> in(c.items());
    std::vector<uint32_t> index(c.items());
    for (const SubGroupModel& sg : c.subGroups)
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        const uint64_t i = sg.items[l];
        in[i] = randomBallot(i * 2);
        index[i] = uint32_t(mix(i) % sg.items.size());  // any lane of the sub-group
      }
    std::vector<int32_t> out(c.items(), -7);
    auto r =
        launch(c, "bit_extract", {testing::bind(in), testing::bind(index), testing::bind(out)});
    expectDiagnostics(r, c, {});
    for (const SubGroupModel& sg : c.subGroups)
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        const uint64_t i = sg.items[l];
        if (!c.active(l))
          ASSERT_EQ(out[i], -7);
        else
          ASSERT_EQ(out[i] != 0, bitOf(in[i], index[i])) << "lane " << l << " index " << index[i];
      }
  });
}

TEST(NonUniformBallot, BitCountAndScans) {
  forEachConfig([](const Config& c) {
    std::vector<Ballot> in(c.items());
    for (uint64_t i = 0; i < in.size(); ++i) in[i] = randomBallot(i * 2 + 1);
    std::vector<uint32_t> out(3 * c.items(), 999);
    auto r = launch(c, "bit_count", {testing::bind(in), testing::bind(out)});
    expectDiagnostics(r, c, {});
    for (const SubGroupModel& sg : c.subGroups)
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        const uint64_t i = sg.items[l];
        // Bits of lanes a partial sub-group lacks still count (below the maximum size).
        const std::vector<uint32_t> expected =
            c.active(l) ? std::vector<uint32_t>{countBelow(in[i], c.width),
                                                countBelow(in[i], l + 1), countBelow(in[i], l)}
                        : std::vector<uint32_t>{999, 999, 999};
        ASSERT_EQ(std::vector<uint32_t>(out.begin() + 3 * i, out.begin() + 3 * i + 3), expected)
            << "lane " << l << " of work-group " << sg.workGroup << " sub-group " << sg.id;
      }
  });
}

TEST(NonUniformBallot, FindLsbMsb) {
  forEachConfig([](const Config& c) {
    std::vector<Ballot> in(c.items());
    for (uint64_t i = 0; i < in.size(); ++i) {
      // Sparse bits, some above the sub-group size (ignored), at least one below it.
      Ballot b = randomBallot(i * 2), m = randomBallot(i * 2 + 1);
      for (int k = 0; k < 4; ++k) b[k] &= m[k] & uint32_t(mix(i + k));
      const uint32_t lane = uint32_t(mix(i * 3) % c.width);
      b[lane / 32] |= 1u << (lane % 32);
      in[i] = b;
    }
    std::vector<uint32_t> out(2 * c.items(), 999);
    auto r = launch(c, "find", {testing::bind(in), testing::bind(out)});
    expectDiagnostics(r, c, {});
    for (const SubGroupModel& sg : c.subGroups)
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        const uint64_t i = sg.items[l];
        uint32_t lsb = 999, msb = 999;
        if (c.active(l)) {
          for (uint32_t k = c.width; k-- > 0;)
            if (bitOf(in[i], k)) lsb = k;
          for (uint32_t k = 0; k < c.width; ++k)
            if (bitOf(in[i], k)) msb = k;
        }
        ASSERT_EQ(out[2 * i], lsb) << "lsb, lane " << l;
        ASSERT_EQ(out[2 * i + 1], msb) << "msb, lane " << l;
      }
  });
}

// The spec leaves the value undefined when no considered bit is set; spvsim returns ~0
// (bits at or above the maximum sub-group size do not count).
TEST(NonUniformBallot, FindWithoutConsideredBits) {
  static const std::vector<RangeCase> cases = rangeCases();
  const Config c{16, &cases[0], 0xffffffffu, testing::partitionSubGroups(cases[0].range, 16)};
  std::vector<Ballot> in(c.items(), Ballot{0, 0, 0, 0x10});
  std::vector<uint32_t> out(2 * c.items(), 999);
  auto r = launch(c, "find", {testing::bind(in), testing::bind(out)});
  expectDiagnostics(r, c, {});
  EXPECT_EQ(out, std::vector<uint32_t>(2 * c.items(), 0xffffffffu));
}

TEST(NonUniformBallot, MaskBuiltins) {
  forEachConfig(
      [](const Config& c) {
        std::vector<Ballot> out(5 * c.items());
        auto r = launch(c, "masks", {testing::bind(out)}, false);
        expectDiagnostics(r, c, {});
        for (const SubGroupModel& sg : c.subGroups)
          for (uint32_t l = 0; l < sg.items.size(); ++l) {
            const uint64_t i = sg.items[l];
            // eq: k == l; ge: l <= k < max size; gt: l < k < max size; le: k <= l; lt: k < l.
            std::array<std::function<bool(uint32_t)>, 5> rule = {
                [&](uint32_t k) { return k == l; },
                [&](uint32_t k) { return k >= l && k < c.width; },
                [&](uint32_t k) { return k > l && k < c.width; },
                [&](uint32_t k) { return k <= l; }, [&](uint32_t k) { return k < l; }};
            for (int m = 0; m < 5; ++m) {
              Ballot expected{};
              for (uint32_t k = 0; k < 128; ++k)
                if (rule[m](k)) expected[k / 32] |= 1u << (k % 32);
              ASSERT_EQ(out[5 * i + m], expected)
                  << "mask " << m << ", lane " << l << " of a sub-group of " << sg.items.size();
            }
          }
      },
      {0xffffffffu});
}

// ---------------------------------------------------------------------------------------
// Broadcasts.

template <class F>
void forEachScalarType(F&& f) {
  f.template operator()<int8_t>("char");
  f.template operator()<uint8_t>("uchar");
  f.template operator()<int16_t>("short");
  f.template operator()<uint16_t>("ushort");
  f.template operator()<int32_t>("int");
  f.template operator()<uint32_t>("uint");
  f.template operator()<int64_t>("long");
  f.template operator()<uint64_t>("ulong");
  f.template operator()<_Float16>("half");
  f.template operator()<float>("float");
  f.template operator()<double>("double");
}

// Runs a broadcast kernel whose values are `n` components of T (`stride` in memory) per
// work-item and checks each active lane's real components against lane `source(sg)`
// (-1: no lane runs), untouched elsewhere.
template <class T>
void checkBroadcast(const Config& c, const std::string& kernel, uint32_t n, uint32_t stride,
                    bool withIndex, const std::function<int(size_t s)>& source) {
  std::vector<T> in(c.items() * stride), out(c.items() * stride, untouched<T>());
  for (size_t k = 0; k < in.size(); ++k) in[k] = valueAt<T>(k + c.width * 1000);
  std::vector<uint32_t> index(c.items());
  for (size_t s = 0; s < c.subGroups.size(); ++s)
    for (uint64_t item : c.subGroups[s].items) index[item] = uint32_t(source(s));
  std::vector<ArgBinding> args{testing::bind(in)};
  if (withIndex) args.push_back(testing::bind(index));
  args.push_back(testing::bind(out));
  auto r = launch(c, kernel, args);
  expectDiagnostics(r, c, {});
  for (size_t s = 0; s < c.subGroups.size(); ++s) {
    const SubGroupModel& sg = c.subGroups[s];
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      for (uint32_t e = 0; e < n; ++e) {
        const T got = out[sg.items[l] * stride + e];
        const T want = c.active(l) ? in[sg.items[source(s)] * stride + e] : untouched<T>();
        ASSERT_TRUE(sameBits(got, want))
            << kernel << ": lane " << l << " component " << e << " of work-group " << sg.workGroup
            << " sub-group " << sg.id;
      }
  }
}

// A uniform index per sub-group: one of its active lanes, chosen to vary (and to reach
// lanes at and above 32).
int chosenLane(const Config& c, size_t s) {
  const auto active = c.activeLanes(c.subGroups[s]);
  return active.empty() ? 0 : int(active[(s * 7 + 3) % active.size()]);
}

TEST(NonUniformBallot, BroadcastScalars) {
  forEachScalarType([]<class T>(const char* type) {
    SCOPED_TRACE(type);
    forEachConfig([&](const Config& c) {
      checkBroadcast<T>(c, std::string("broadcast_") + type, 1, 1, true,
                        [&](size_t s) { return chosenLane(c, s); });
    });
  });
}

TEST(NonUniformBallot, BroadcastVectors) {
  forEachScalarType([]<class T>(const char* type) {
    for (uint32_t n : {2, 3, 4, 8, 16}) {
      SCOPED_TRACE(fmt::format("{}{}", type, n));
      forEachConfig([&](const Config& c) {
        checkBroadcast<T>(c, fmt::format("broadcast_{}{}", type, n), n, n == 3 ? 4 : n, true,
                          [&](size_t s) { return chosenLane(c, s); });
      });
    }
  });
}

TEST(NonUniformBallot, BroadcastFirst) {
  forEachScalarType([]<class T>(const char* type) {
    SCOPED_TRACE(type);
    forEachConfig([&](const Config& c) {
      checkBroadcast<T>(c, std::string("broadcast_first_") + type, 1, 1, false, [&](size_t s) {
        const auto active = c.activeLanes(c.subGroups[s]);
        return active.empty() ? 0 : int(active.front());
      });
    });
  });
}

// ---------------------------------------------------------------------------------------
// Diagnostics: each configuration's model says which lanes of which sub-group report.

// Broadcast from index(s, lane) with the first active lane's index used when it differs.
void checkBroadcastDiagnostics(const Config& c,
                               const std::function<uint32_t(size_t s, uint32_t lane)>& index) {
  std::vector<int32_t> in(c.items()), out(c.items(), -7);
  std::vector<uint32_t> idx(c.items());
  for (uint64_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 3 + 1);
  Expected nonUniform{"non-uniform-argument", Severity::Error, {}};
  Expected outside{"shuffle-out-of-range", Severity::Warning, {}};
  Expected inactive{"inactive-lane-read", Severity::Warning, {}};
  for (size_t s = 0; s < c.subGroups.size(); ++s) {
    const SubGroupModel& sg = c.subGroups[s];
    for (auto* e : {&nonUniform, &outside, &inactive}) e->lanes.emplace_back();
    const auto active = c.activeLanes(sg);
    for (uint32_t l = 0; l < sg.items.size(); ++l) idx[sg.items[l]] = index(s, l);
    if (active.empty()) continue;
    const uint32_t used = idx[sg.items[active.front()]];
    for (uint32_t l : active)
      if (idx[sg.items[l]] != used) nonUniform.lanes.back().push_back(l);
    if (used >= sg.items.size())
      outside.lanes.back() = active;
    else if (!c.active(used))
      inactive.lanes.back() = active;
  }
  auto r = launch(c, "broadcast_int", {testing::bind(in), testing::bind(idx), testing::bind(out)});
  expectDiagnostics(r, c, {nonUniform, outside, inactive});
  for (const SubGroupModel& sg : c.subGroups) {
    const auto active = c.activeLanes(sg);
    if (active.empty()) continue;
    const uint32_t used = idx[sg.items[active.front()]];
    const bool valid = used < sg.items.size() && c.active(used);
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      ASSERT_EQ(out[sg.items[l]], !c.active(l) ? -7
                                  : valid      ? in[sg.items[used]]
                                               : 0)
          << "lane " << l << " of work-group " << sg.workGroup << " sub-group " << sg.id;
  }
}

TEST(NonUniformBallotDiagnostics, BroadcastNonUniformIndex) {
  forEachConfig([](const Config& c) {
    // Half the lanes name lane 0, the others lane 1: the first active lane's wins.
    checkBroadcastDiagnostics(c, [&](size_t, uint32_t l) { return l % 4 == 3 ? 1u : 0u; });
  });
}

TEST(NonUniformBallotDiagnostics, BroadcastOutOfRange) {
  forEachConfig(
      [](const Config& c) {
        // Lane `size` (just past the sub-group: inside the maximum size for a partial
        // one), and lane 200 (past 128).
        checkBroadcastDiagnostics(c, [&](size_t s, uint32_t) {
          return s % 2 ? 200u : uint32_t(c.subGroups[s].items.size());
        });
      },
      {0xffffffffu, 0x5555aaaau});
}

TEST(NonUniformBallotDiagnostics, BroadcastInactiveLane) {
  forEachConfig(
      [](const Config& c) {
        checkBroadcastDiagnostics(c, [&](size_t s, uint32_t) {
          const SubGroupModel& sg = c.subGroups[s];
          for (uint32_t l = 0; l < sg.items.size(); ++l)
            if (!c.active(l)) return l;
          return 0u;  // all active: a correct broadcast
        });
      },
      {0xf0f0f0f0u, 0x5555aaaau, 0x0000ffffu, 0xffffffffu});
}

TEST(NonUniformBallotDiagnostics, InverseBallotNonUniformValue) {
  forEachConfig(
      [](const Config& c) {
        std::vector<Ballot> in(c.items());
        Expected nonUniform{"non-uniform-argument", Severity::Error, {}};
        for (size_t s = 0; s < c.subGroups.size(); ++s) {
          const SubGroupModel& sg = c.subGroups[s];
          nonUniform.lanes.emplace_back();
          // Lanes at odd positions among the active ones see another value, in word w.
          const auto active = c.activeLanes(sg);
          for (uint32_t l = 0; l < sg.items.size(); ++l) in[sg.items[l]] = randomBallot(s);
          for (size_t k = 1; k < active.size(); k += 2) {
            in[sg.items[active[k]]][k % 4] ^= 1u << (k % 32);
            nonUniform.lanes.back().push_back(active[k]);
          }
        }
        std::vector<int32_t> out(c.items(), -7);
        auto r = launch(c, "inverse_ballot", {testing::bind(in), testing::bind(out)});
        expectDiagnostics(r, c, {nonUniform});
        for (const SubGroupModel& sg : c.subGroups) {
          const auto active = c.activeLanes(sg);
          for (uint32_t l : active)  // every lane uses the first active lane's value
            ASSERT_EQ(out[sg.items[l]] != 0, bitOf(in[sg.items[active.front()]], l)) << l;
        }
      },
      {0xffffffffu, 0x5555aaaau});
}

TEST(NonUniformBallotDiagnostics, BitExtractOutOfRange) {
  forEachConfig(
      [](const Config& c) {
        std::vector<Ballot> in(c.items(), Ballot{~0u, ~0u, ~0u, ~0u});
        std::vector<uint32_t> index(c.items());
        Expected outside{"shuffle-out-of-range", Severity::Warning, {}};
        for (const SubGroupModel& sg : c.subGroups) {
          outside.lanes.emplace_back();
          for (uint32_t l = 0; l < sg.items.size(); ++l) {
            // Every third lane asks for the bit just past the sub-group's size.
            const bool past = l % 3 == 1;
            index[sg.items[l]] = past ? uint32_t(sg.items.size()) : l;
            if (past && c.active(l)) outside.lanes.back().push_back(l);
          }
        }
        std::vector<int32_t> out(c.items(), -7);
        auto r =
            launch(c, "bit_extract", {testing::bind(in), testing::bind(index), testing::bind(out)});
        expectDiagnostics(r, c, {outside});
        for (const SubGroupModel& sg : c.subGroups)
          for (uint32_t l = 0; l < sg.items.size(); ++l)
            ASSERT_EQ(out[sg.items[l]], !c.active(l) ? -7 : l % 3 == 1 ? 0 : 1) << l;
      },
      {0xffffffffu, 0xf0f0f0f0u});
}

// Workgroup scope does not exist for OpenCL's non-uniform operations.
TEST(NonUniformBallotDiagnostics, WorkgroupScopeIsUnsupported) {
  auto p = Program::load(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformBallot
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %b "bcast"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
         %pu = OpTypePointer CrossWorkgroup %uint
     %uint_2 = OpConstant %uint 2
       %fnty = OpTypeFunction %void %pu
          %k = OpFunction %void None %fnty
        %out = OpFunctionParameter %pu
      %entry = OpLabel
          %v = OpLoad %uint %out Aligned 4
          %b = OpGroupNonUniformBroadcastFirst %uint %uint_2 %v
               OpStore %out %b Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  std::vector<uint32_t> out(4);
  NDRange range;
  range.global[0] = 4;
  try {
    p->launch("k", range, {testing::bind(out)});
    ADD_FAILURE() << "Workgroup-scope OpGroupNonUniformBroadcastFirst was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported) << e.what();
    // Named as `spvsim dis` names the result: its OpName, not its number.
    EXPECT_NE(std::string(e.what()).find(" at %bcast in kernel k"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spvsim
