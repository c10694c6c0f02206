// cl_khr_subgroup_shuffle, _shuffle_relative and _rotate end to end: sub_group_shuffle,
// _shuffle_xor, _shuffle_up, _shuffle_down, sub_group_rotate and
// sub_group_clustered_rotate for every scalar type, at every sub-group size and NDRange
// shape, inside `if`s that the CTS lane masks select. A host model over
// partitionSubGroups gives each lane's source lane per the extension text, the expected
// value, and which lanes must warn (source out of range or inactive: value 0).
#include <fmt/core.h>

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

#define SHUFFLE(T, F)                                                                     \
  kernel void F##_##T(global const T* in, global const uint* arg, global T* out, uint mask) { \
    if (SELECTED(mask)) out[GID] = sub_group_##F(in[GID], arg[GID]);                      \
  }
#define ROTATE(T)                                                                      \
  kernel void rotate_##T(global const T* in, global const int* arg, global T* out,     \
                         uint mask) {                                                  \
    if (SELECTED(mask)) out[GID] = sub_group_rotate(in[GID], arg[GID]);                \
  }
#define CLUSTERED(T, N)                                                                 \
  kernel void rotate_##T##_##N(global const T* in, global const int* arg, global T* out, \
                               uint mask) {                                             \
    if (SELECTED(mask)) out[GID] = sub_group_clustered_rotate(in[GID], arg[GID], N);    \
  }
#define ALL(T) SHUFFLE(T, shuffle) SHUFFLE(T, shuffle_xor) SHUFFLE(T, shuffle_up) \
  SHUFFLE(T, shuffle_down) ROTATE(T) CLUSTERED(T, 1) CLUSTERED(T, 2) CLUSTERED(T, 4) \
  CLUSTERED(T, 8) CLUSTERED(T, 16) CLUSTERED(T, 32) CLUSTERED(T, 64)
ALL(char) ALL(uchar) ALL(short) ALL(ushort) ALL(int) ALL(uint) ALL(long) ALL(ulong)
ALL(half) ALL(float) ALL(double)
)";

Program& program() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kSource, "shuffle kernels");
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

// Values whose bits come back unchanged: integers use every bit, floats are small
// non-zero integers (exact in half; never 0, so a zeroed lane shows).
template <class T>
T valueAt(uint64_t k) {
  if constexpr (std::is_integral_v<T>)
    return T(mix(k) | 1);
  else
    return T(float(int(mix(k) % 1000) + 1));
}

template <class T>
T untouched() {
  T v;
  std::memset(&v, 0xa5, sizeof v);
  return v;
}

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

// ---------------------------------------------------------------------------------------
// The model.

enum class Kind { Shuffle, Xor, Up, Down, Rotate };

const char* kernelPrefix(Kind k) {
  const char* names[] = {"shuffle", "shuffle_xor", "shuffle_up", "shuffle_down", "rotate"};
  return names[int(k)];
}

// The lane that lane l reads per the extension text, or -1 when the text calls it out of
// range (index >= the sub-group's size, or below lane 0). Rotation runs over the maximum
// sub-group size (or the cluster), so its source may be a lane a partial sub-group lacks.
int64_t sourceOf(Kind k, uint32_t l, uint32_t arg, uint32_t size, uint32_t width,
                 uint32_t cluster) {
  switch (k) {
    case Kind::Shuffle:
      return arg < size ? int64_t(arg) : -1;
    case Kind::Xor:
      return (l ^ arg) < size ? int64_t(l ^ arg) : -1;
    case Kind::Up:
      return arg <= l ? int64_t(l - arg) : -1;
    case Kind::Down:
      return uint64_t(l) + arg < size ? int64_t(l + arg) : -1;
    case Kind::Rotate: {
      const uint32_t g = cluster ? cluster : width;
      return l - l % g + (l + arg) % g;  // arg: the int delta as an unsigned 32-bit value
    }
  }
  return -1;
}

// Runs kernel `name` with per-item `arg` and checks values and diagnostics against the
// model.
template <class T>
void checkShuffle(const Config& c, Kind k, const std::string& name, uint32_t cluster,
                  const std::vector<uint32_t>& arg) {
  std::vector<T> in(c.items()), out(c.items(), untouched<T>());
  for (uint64_t i = 0; i < in.size(); ++i) in[i] = valueAt<T>(i + 977 * c.width);
  std::vector<uint32_t> args = arg;
  LaunchOptions o;
  o.subGroupSize = c.width;
  auto r = program().launch(
      name, c.range->range,
      {testing::bind(in), testing::bind(args), testing::bind(out), uintArg(c.mask)}, o);
  Expected outside{"shuffle-out-of-range", Severity::Warning, {}};
  Expected inactive{"inactive-lane-read", Severity::Warning, {}};
  for (const SubGroupModel& sg : c.subGroups) {
    outside.lanes.emplace_back();
    inactive.lanes.emplace_back();
    const uint32_t size = uint32_t(sg.items.size());
    for (uint32_t l = 0; l < size; ++l) {
      const uint64_t i = sg.items[l];
      T want = untouched<T>();
      if (c.active(l)) {
        const int64_t src = sourceOf(k, l, arg[i], size, c.width, cluster);
        want = T(0);
        if (src < 0)
          outside.lanes.back().push_back(l);
        else if (src >= size || !c.active(uint32_t(src)))
          inactive.lanes.back().push_back(l);
        else
          want = in[sg.items[src]];
      }
      ASSERT_TRUE(sameBits(out[i], want))
          << name << ": lane " << l << " of work-group " << sg.workGroup << " sub-group " << sg.id
          << " (arg " << arg[i] << ")";
    }
  }
  expectDiagnostics(r, c, {outside, inactive});
}

// Per-lane arguments that read an active lane of the sub-group (any lane for shuffle and
// xor, one at or below for up, at or above for down): correct code, no diagnostics.
std::vector<uint32_t> validArgs(const Config& c, Kind k) {
  std::vector<uint32_t> arg(c.items(), 0);
  for (const SubGroupModel& sg : c.subGroups) {
    const auto active = c.activeLanes(sg);
    for (uint32_t l : active) {
      const uint64_t i = sg.items[l];
      std::vector<uint32_t> targets;
      for (uint32_t t : active)
        if ((k != Kind::Up || t <= l) && (k != Kind::Down || t >= l)) targets.push_back(t);
      const uint32_t t = targets[mix(i) % targets.size()];
      arg[i] = k == Kind::Shuffle ? t : k == Kind::Xor ? l ^ t : k == Kind::Up ? l - t : t - l;
    }
  }
  return arg;
}

// The same argument in every lane of a sub-group, varying by sub-group: the usual
// shuffle_xor(x, 1), shuffle_up(x, 1) ... that warn where the source is missing.
std::vector<uint32_t> uniformArgs(const Config& c, Kind k) {
  const uint32_t choices[] = {1, 2, 3, 5, c.width / 2, c.width - 1, c.width, 0};
  std::vector<uint32_t> arg(c.items(), 0);
  for (size_t s = 0; s < c.subGroups.size(); ++s)
    for (uint64_t i : c.subGroups[s].items) arg[i] = choices[(s + uint32_t(k)) % 8];
  return arg;
}

const Kind kShuffles[] = {Kind::Shuffle, Kind::Xor, Kind::Up, Kind::Down};

TEST(NonUniformShuffle, ValidSources) {
  forEachScalarType([]<class T>(const char* type) {
    SCOPED_TRACE(type);
    forEachConfig([&](const Config& c) {
      for (Kind k : kShuffles)
        checkShuffle<T>(c, k, fmt::format("{}_{}", kernelPrefix(k), type), 0, validArgs(c, k));
    });
  });
}

TEST(NonUniformShuffle, UniformArgumentsWarnExactlyWhereTheSourceIsMissing) {
  forEachScalarType([]<class T>(const char* type) {
    SCOPED_TRACE(type);
    forEachConfig([&](const Config& c) {
      for (Kind k : kShuffles)
        checkShuffle<T>(c, k, fmt::format("{}_{}", kernelPrefix(k), type), 0, uniformArgs(c, k));
    });
  });
}

// Deltas per sub-group, including negative ones (rotating up) and ones past the size.
std::vector<uint32_t> rotateDeltas(const Config& c) {
  const int32_t choices[] = {0, 1, 2, 3, -1, -3, int32_t(c.width) + 1, 1000, -1000};
  std::vector<uint32_t> arg(c.items(), 0);
  for (size_t s = 0; s < c.subGroups.size(); ++s)
    for (uint64_t i : c.subGroups[s].items) arg[i] = uint32_t(choices[(s + c.width) % 9]);
  return arg;
}

TEST(NonUniformShuffle, Rotate) {
  forEachScalarType([]<class T>(const char* type) {
    SCOPED_TRACE(type);
    forEachConfig([&](const Config& c) {
      checkShuffle<T>(c, Kind::Rotate, fmt::format("rotate_{}", type), 0, rotateDeltas(c));
    });
  });
}

TEST(NonUniformShuffle, ClusteredRotate) {
  forEachScalarType([]<class T>(const char* type) {
    SCOPED_TRACE(type);
    forEachConfig([&](const Config& c) {
      for (uint32_t cluster = 1; cluster <= c.width; cluster *= 2)
        checkShuffle<T>(c, Kind::Rotate, fmt::format("rotate_{}_{}", type, cluster), cluster,
                        rotateDeltas(c));
    });
  });
}

// ---------------------------------------------------------------------------------------
// Diagnostics beyond the model runs above.

NDRange oneGroup(uint64_t items) {
  NDRange r;
  r.global[0] = items;
  r.local[0] = items;
  r.localGiven = true;
  return r;
}

LaunchResult runInt(const std::string& kernel, uint64_t items, uint32_t width,
                    std::vector<uint32_t> arg, std::vector<int32_t>& out, uint32_t mask = ~0u) {
  std::vector<int32_t> in(items);
  for (uint64_t i = 0; i < items; ++i) in[i] = int32_t(100 + i);
  out.assign(items, -7);
  LaunchOptions o;
  o.subGroupSize = width;
  return program().launch(
      kernel, oneGroup(items),
      {testing::bind(in), testing::bind(arg), testing::bind(out), uintArg(mask)}, o);
}

TEST(NonUniformShuffleDiagnostics, MessagesNameTheLanes) {
  std::vector<int32_t> out;
  auto r = runInt("shuffle_int", 16, 16, std::vector<uint32_t>(16, 17), out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::ShuffleOutOfRange);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Warning);
  EXPECT_NE(r.diagnostics[0].message.find("reads lane 17, but the sub-group has 16 lanes"),
            std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_FALSE(hasErrors(r.diagnostics));
  EXPECT_EQ(out, std::vector<int32_t>(16, 0));

  // shuffle_up(x, 2) over 8 lanes: lanes 0 and 1 have no source.
  std::vector<uint32_t> two(8, 2);
  r = runInt("shuffle_up_int", 8, 8, two, out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{0, 1}));
  EXPECT_NE(r.diagnostics[0].message.find("lane 0 reads lane 0 - 2, below lane 0"),
            std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(out, (std::vector<int32_t>{0, 0, 100, 101, 102, 103, 104, 105}));

  // Rotation in a partial sub-group of 6 (maximum 8): lanes 4 and 5 read lanes 6 and 7,
  // which do not exist.
  r = runInt("rotate_int", 6, 8, std::vector<uint32_t>(6, 2), out);
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::InactiveLaneRead);
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{4, 5}));
  EXPECT_NE(r.diagnostics[0].message.find("does not exist"), std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(out, (std::vector<int32_t>{102, 103, 104, 105, 0, 0}));
}

TEST(NonUniformShuffleDiagnostics, RotateDeltaMustBeUniform) {
  forEachConfig(
      [](const Config& c) {
        // Every fourth active lane asks for another delta; the first active lane's is used.
        std::vector<uint32_t> arg(c.items(), 1);
        Expected nonUniform{"non-uniform-argument", Severity::Error, {}};
        for (const SubGroupModel& sg : c.subGroups) {
          nonUniform.lanes.emplace_back();
          const auto active = c.activeLanes(sg);
          for (size_t k = 3; k < active.size(); k += 4) {
            arg[sg.items[active[k]]] = 5;
            nonUniform.lanes.back().push_back(active[k]);
          }
        }
        std::vector<int32_t> in(c.items()), out(c.items(), -7);
        for (uint64_t i = 0; i < in.size(); ++i) in[i] = int32_t(i + 1);
        LaunchOptions o;
        o.subGroupSize = c.width;
        auto r = program().launch(
            "rotate_int", c.range->range,
            {testing::bind(in), testing::bind(arg), testing::bind(out), uintArg(c.mask)}, o);
        // Rotation by 1 in full sub-groups reads only existing lanes; the partial ones
        // read one missing lane (inactive-lane-read, checked by the model tests).
        std::vector<const Diagnostic*> found;
        for (const auto& d : r.diagnostics)
          if (d.kind == DiagnosticKind::NonUniformArgument) found.push_back(&d);
        size_t count = 0, first = c.subGroups.size();
        for (size_t s = 0; s < nonUniform.lanes.size(); ++s)
          if (!nonUniform.lanes[s].empty()) first = std::min(first, s), ++count;
        ASSERT_EQ(found.size(), count ? 1u : 0u) << testing::describe(r);
        if (!count) return;
        EXPECT_EQ(found[0]->severity, Severity::Error);
        EXPECT_EQ(found[0]->lanes, nonUniform.lanes[first]);
        EXPECT_EQ(found[0]->repeats, count - 1);
        EXPECT_TRUE(hasErrors(r.diagnostics));
        for (const SubGroupModel& sg : c.subGroups) {
          const uint32_t size = uint32_t(sg.items.size());
          for (uint32_t l : c.activeLanes(sg)) {
            const uint32_t src = (l + 1) % c.width;
            const int32_t want = src < size && c.active(src) ? in[sg.items[src]] : 0;
            ASSERT_EQ(out[sg.items[l]], want) << "lane " << l;
          }
        }
      },
      {0xffffffffu, 0x5555aaaau});
}

// What OpenCL C cannot express: vectors (componentwise, vec3 included), bool, a 64-bit
// index (not truncated), a cluster larger than the sub-group, and Workgroup scope.
const char* kAssembled = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformShuffle
               OpCapability GroupNonUniformShuffleRelative
               OpCapability GroupNonUniformRotateKHR
               OpExtension "SPV_KHR_subgroup_rotate"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %lid
               OpEntryPoint Kernel %big "big" %lid
               OpEntryPoint Kernel %wg "wg" %lid
               OpEntryPoint Kernel %guarded "guarded" %lid
               OpDecorate %lid BuiltIn SubgroupLocalInvocationId
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
     %v3uint = OpTypeVector %uint 3
        %pu = OpTypePointer CrossWorkgroup %uint
       %pv3 = OpTypePointer CrossWorkgroup %v3uint
       %piu = OpTypePointer Input %uint
    %uint_0 = OpConstant %uint 0
    %uint_1 = OpConstant %uint 1
    %uint_2 = OpConstant %uint 2
    %uint_3 = OpConstant %uint 3
   %uint_16 = OpConstant %uint 16
  %uint_100 = OpConstant %uint 100
   %ulong_1 = OpConstant %ulong 1
  %ulong_big = OpConstant %ulong 4294967297
       %lid = OpVariable %piu Input
      %fnty = OpTypeFunction %void %pv3 %pv3 %pu %pu
         %k = OpFunction %void None %fnty
        %in = OpFunctionParameter %pv3
       %vout = OpFunctionParameter %pv3
      %bout = OpFunctionParameter %pu
      %wout = OpFunctionParameter %pu
     %entry = OpLabel
         %l = OpLoad %uint %lid
        %pa = OpInBoundsPtrAccessChain %pv3 %in %l
         %v = OpLoad %v3uint %pa Aligned 16
        %sv = OpGroupNonUniformShuffleXor %v3uint %uint_3 %v %uint_1
        %po = OpInBoundsPtrAccessChain %pv3 %vout %l
              OpStore %po %sv Aligned 16
       %odd = OpBitwiseAnd %uint %l %uint_1
         %b = OpINotEqual %bool %odd %uint_0
        %sb = OpGroupNonUniformShuffleDown %bool %uint_3 %b %uint_1
        %bi = OpSelect %uint %sb %uint_1 %uint_0
       %pbo = OpInBoundsPtrAccessChain %pu %bout %l
              OpStore %pbo %bi Aligned 4
        %lw = OpUConvert %ulong %l
        %id = OpIAdd %ulong %lw %ulong_big
        %sw = OpGroupNonUniformShuffle %uint %uint_3 %l %id
       %pwo = OpInBoundsPtrAccessChain %pu %wout %l
              OpStore %pwo %sw Aligned 4
              OpReturn
              OpFunctionEnd
       %big = OpFunction %void None %fnty
       %in2 = OpFunctionParameter %pv3
     %vout2 = OpFunctionParameter %pv3
     %bout2 = OpFunctionParameter %pu
     %wout2 = OpFunctionParameter %pu
    %entry2 = OpLabel
        %l2 = OpLoad %uint %lid
        %r2 = OpGroupNonUniformRotateKHR %uint %uint_3 %l2 %uint_1 %uint_16
       %pw2 = OpInBoundsPtrAccessChain %pu %wout2 %l2
              OpStore %pw2 %r2 Aligned 4
              OpReturn
              OpFunctionEnd
   %guarded = OpFunction %void None %fnty
       %in4 = OpFunctionParameter %pv3
     %vout4 = OpFunctionParameter %pv3
     %bout4 = OpFunctionParameter %pu
     %wout4 = OpFunctionParameter %pu
    %entry4 = OpLabel
        %l4 = OpLoad %uint %lid
     %never = OpIEqual %bool %l4 %uint_100
              OpBranchConditional %never %then4 %join4
     %then4 = OpLabel
        %r4 = OpGroupNonUniformRotateKHR %uint %uint_3 %l4 %uint_1 %uint_16
              OpBranch %join4
     %join4 = OpLabel
        %v4 = OpPhi %uint %l4 %entry4 %r4 %then4
       %pw4 = OpInBoundsPtrAccessChain %pu %wout4 %l4
              OpStore %pw4 %v4 Aligned 4
              OpReturn
              OpFunctionEnd
        %wg = OpFunction %void None %fnty
       %in3 = OpFunctionParameter %pv3
     %vout3 = OpFunctionParameter %pv3
     %bout3 = OpFunctionParameter %pu
     %wout3 = OpFunctionParameter %pu
    %entry3 = OpLabel
        %l3 = OpLoad %uint %lid
        %r3 = OpGroupNonUniformShuffleUp %uint %uint_2 %l3 %uint_1
              OpStore %wout3 %r3 Aligned 4
              OpReturn
              OpFunctionEnd
)";

TEST(NonUniformShuffleDiagnostics, AssembledForms) {
  auto p = Program::load(spirv::assemble(kAssembled));
  LaunchOptions o;
  o.subGroupSize = 8;
  std::vector<uint32_t> in(32), vout(32, 7), bout(8, 7), wout(16, 7);
  for (uint32_t k = 0; k < 32; ++k) in[k] = 1000 + k;
  auto args = [&] {
    return std::vector<ArgBinding>{testing::bind(in), testing::bind(vout), testing::bind(bout),
                                   testing::bind(wout)};
  };
  auto r = p->launch("k", oneGroup(8), args(), o);
  // shuffle_xor(v, 1) on uint3: lane l gets lane l^1's x, y, z (padding not checked).
  for (uint32_t l = 0; l < 8; ++l)
    for (uint32_t e = 0; e < 3; ++e) EXPECT_EQ(vout[l * 4 + e], in[(l ^ 1) * 4 + e]) << l;
  // shuffle_down(odd, 1) on bool: lane l gets lane l+1's oddness; lane 7 has no source.
  EXPECT_EQ(bout, (std::vector<uint32_t>{1, 0, 1, 0, 1, 0, 1, 0}));
  // A 64-bit index of 2^32 + 1 + l is out of range, not lane l + 1.
  EXPECT_EQ(std::vector<uint32_t>(wout.begin(), wout.begin() + 8), std::vector<uint32_t>(8, 0));
  ASSERT_EQ(r.diagnostics.size(), 2u) << testing::describe(r);
  for (const auto& d : r.diagnostics) {
    EXPECT_EQ(d.kind, DiagnosticKind::ShuffleOutOfRange);
    const std::vector<uint32_t> lastLane{7}, allLanes{0, 1, 2, 3, 4, 5, 6, 7};
    const bool down = d.message.find("shuffle_down") != std::string::npos;
    EXPECT_EQ(d.lanes, down ? lastLane : allLanes) << d.message;
  }

  // ClusterSize 16 is fine at sub-group size 16: lane l reads lane (l + 1) % 16.
  o.subGroupSize = 16;
  r = p->launch("big", oneGroup(16), args(), o);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (uint32_t l = 0; l < 16; ++l) EXPECT_EQ(wout[l], (l + 1) % 16) << l;
  // At sub-group size 8 it is undefined when executed (as a clustered reduce): reported
  // once per execution, rotating within the sub-group: lane l reads (l + 1) % 8.
  o.subGroupSize = 8;
  r = p->launch("big", oneGroup(8), args(), o);
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::ShuffleOutOfRange);
  EXPECT_NE(r.diagnostics[0].message.find("ClusterSize 16"), std::string::npos);
  for (uint32_t l = 0; l < 8; ++l) EXPECT_EQ(wout[l], (l + 1) % 8) << l;
  // Where it never executes, nothing is reported and the kernel runs.
  r = p->launch("guarded", oneGroup(8), args(), o);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (uint32_t l = 0; l < 8; ++l) EXPECT_EQ(wout[l], l) << l;
  try {
    p->launch("wg", oneGroup(8), args(), o);
    ADD_FAILURE() << "Workgroup-scope OpGroupNonUniformShuffleUp accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported) << e.what();
  }
}

}  // namespace
}  // namespace spvsim
