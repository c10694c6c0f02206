// cl_khr_subgroup_non_uniform_vote end to end: sub_group_elect, sub_group_non_uniform_all,
// _any and _all_equal at every sub-group size and NDRange shape, inside `if`s that the
// CTS lane masks select. Expected values come from a host model over
// partitionSubGroups: per sub-group, the lanes whose mask bit is set are the active ones.
#include <fmt/core.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

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

kernel void elect(global int* out, uint mask) {
  if (SELECTED(mask)) out[GID] = sub_group_elect();
}
kernel void vote_all(global const int* in, global int* out, uint mask) {
  if (SELECTED(mask)) out[GID] = sub_group_non_uniform_all(in[GID]);
}
kernel void vote_any(global const int* in, global int* out, uint mask) {
  if (SELECTED(mask)) out[GID] = sub_group_non_uniform_any(in[GID]);
}
#define ALL_EQUAL(T)                                                              \
  kernel void all_equal_##T(global const T* in, global int* out, uint mask) {     \
    if (SELECTED(mask)) out[GID] = sub_group_non_uniform_all_equal(in[GID]);      \
  }
ALL_EQUAL(char) ALL_EQUAL(uchar) ALL_EQUAL(short) ALL_EQUAL(ushort) ALL_EQUAL(int)
ALL_EQUAL(uint) ALL_EQUAL(long) ALL_EQUAL(ulong) ALL_EQUAL(half) ALL_EQUAL(float)
ALL_EQUAL(double)
)";

Program& program() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kSource, "vote kernels");
  return *p;
}

using Config = testing::SubGroupConfig;
using testing::uintArg;

inline void forEachConfig(const std::function<void(const Config&)>& f,
                          const std::vector<uint32_t>& masks = testing::ctsLaneMasks()) {
  testing::forEachSubGroupConfig(f, masks);
}

constexpr int32_t kUntouched = -7;  // what lanes that do not run the call keep

// Runs `kernel(args..., out, mask)` and checks out: each active lane's value as a
// boolean (the functions return non-zero for true), untouched elsewhere.
void expectVote(const Config& c, const std::string& kernel, std::vector<ArgBinding> args,
                const std::function<bool(const SubGroupModel&, uint32_t lane)>& model) {
  std::vector<int32_t> out(c.items(), kUntouched);
  args.push_back(testing::bind(out));
  args.push_back(uintArg(c.mask));
  LaunchOptions o;
  o.subGroupSize = c.width;
  auto r = program().launch(kernel, c.range->range, args, o);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (const SubGroupModel& sg : c.subGroups)
    for (uint32_t l = 0; l < sg.items.size(); ++l) {
      const int32_t got = out[sg.items[l]];
      if (!laneSelected(c.mask, l)) {
        ASSERT_EQ(got, kUntouched) << kernel << ": inactive lane " << l << " of work-group "
                                   << sg.workGroup << " sub-group " << sg.id << " was written";
        continue;
      }
      ASSERT_EQ(got != 0, model(sg, l))
          << kernel << ": lane " << l << " of work-group " << sg.workGroup << " sub-group " << sg.id
          << " (got " << got << ")";
    }
}

std::vector<uint32_t> activeLanes(const SubGroupModel& sg, uint32_t mask) {
  std::vector<uint32_t> lanes;
  for (uint32_t l = 0; l < sg.items.size(); ++l)
    if (laneSelected(mask, l)) lanes.push_back(l);
  return lanes;
}

TEST(NonUniformVote, Elect) {
  forEachConfig([](const Config& c) {
    expectVote(c, "elect", {}, [&](const SubGroupModel& sg, uint32_t l) {
      return l == activeLanes(sg, c.mask).front();
    });
  });
}

// Predicates per sub-group: all true, all false, one active lane false, one active
// lane true, one inactive lane false, and a mixed pattern; by sub-group index.
std::vector<int32_t> predicates(const Config& c) {
  std::vector<int32_t> in(c.items(), 0);
  for (size_t s = 0; s < c.subGroups.size(); ++s) {
    const SubGroupModel& sg = c.subGroups[s];
    const auto active = activeLanes(sg, c.mask);
    if (active.empty()) continue;  // no lane runs the call
    int32_t inactiveLane = -1;
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      if (!laneSelected(c.mask, l)) inactiveLane = int32_t(l);
    for (uint32_t l = 0; l < sg.items.size(); ++l) {
      const uint32_t odd = active[active.size() / 2];
      int32_t v = 0;
      switch (s % 6) {
        case 0:
          v = int32_t(l) * 3 + 1;  // non-zero, not just 1
          break;
        case 1:
          v = 0;
          break;
        case 2:
          v = l != odd;
          break;
        case 3:
          v = l == odd ? -5 : 0;
          break;
        case 4:
          v = int32_t(l) != inactiveLane;
          break;
        default:
          v = (sg.items[l] * 7) % 3 == 0;
      }
      in[sg.items[l]] = v;
    }
  }
  return in;
}

TEST(NonUniformVote, AllAndAny) {
  forEachConfig([](const Config& c) {
    std::vector<int32_t> in = predicates(c);
    auto over = [&](const SubGroupModel& sg, bool all) {
      bool any = false, every = true;
      for (uint32_t l : activeLanes(sg, c.mask)) {
        any |= in[sg.items[l]] != 0;
        every &= in[sg.items[l]] != 0;
      }
      return all ? every : any;
    };
    expectVote(c, "vote_all", {testing::bind(in)},
               [&](const SubGroupModel& sg, uint32_t) { return over(sg, true); });
    expectVote(c, "vote_any", {testing::bind(in)},
               [&](const SubGroupModel& sg, uint32_t) { return over(sg, false); });
  });
}

// Values per sub-group: all equal; one active lane differs (in the top bit for
// integers); only an inactive lane differs; all differ; a NaN in one active lane
// (floats); +0 and -0 mixed (floats: equal).
template <class T>
std::vector<T> allEqualInput(const Config& c) {
  std::vector<T> in(c.items());
  T topBit = T(1024);
  if constexpr (std::is_integral_v<T>) topBit = T(uint64_t(1) << (8 * sizeof(T) - 1));
  for (size_t s = 0; s < c.subGroups.size(); ++s) {
    const SubGroupModel& sg = c.subGroups[s];
    const auto active = activeLanes(sg, c.mask);
    if (active.empty()) continue;  // no lane runs the call
    const uint32_t odd = active.back();
    const T base = T(s % 50 + 3);
    for (uint32_t l = 0; l < sg.items.size(); ++l) {
      T v = base;
      switch (s % 6) {
        case 1:
          if (l == odd) v = T(base + topBit);
          break;
        case 2:
          if (!laneSelected(c.mask, l)) v = T(base + 1);
          break;
        case 3:
          v = T(l + 1);
          break;
        case 4:
          if constexpr (std::is_integral_v<T>)
            v = l == odd ? T(base ^ topBit) : base;
          else
            v = l == odd ? T(std::numeric_limits<float>::quiet_NaN()) : base;
          break;
        case 5:
          if constexpr (!std::is_integral_v<T>) v = l % 2 ? T(0.0f) : T(-0.0f);
          break;
      }
      in[sg.items[l]] = v;
    }
  }
  return in;
}

template <class T>
void checkAllEqual(const char* type) {
  SCOPED_TRACE(type);
  forEachConfig([&](const Config& c) {
    std::vector<T> in = allEqualInput<T>(c);
    expectVote(c, std::string("all_equal_") + type, {testing::bind(in)},
               [&](const SubGroupModel& sg, uint32_t) {
                 const auto active = activeLanes(sg, c.mask);
                 const T first = in[sg.items[active.front()]];
                 for (uint32_t l : active) {
                   const T v = in[sg.items[l]];
                   // Ordered float ==: a NaN anywhere makes it false.
                   if (!(v == first)) return false;
                 }
                 return true;
               });
  });
}

TEST(NonUniformVote, AllEqualIntegers) {
  checkAllEqual<int8_t>("char");
  checkAllEqual<uint8_t>("uchar");
  checkAllEqual<int16_t>("short");
  checkAllEqual<uint16_t>("ushort");
  checkAllEqual<int32_t>("int");
  checkAllEqual<uint32_t>("uint");
  checkAllEqual<int64_t>("long");
  checkAllEqual<uint64_t>("ulong");
}

TEST(NonUniformVote, AllEqualFloats) {
  checkAllEqual<_Float16>("half");
  checkAllEqual<float>("float");
  checkAllEqual<double>("double");
}

// What OpenCL C cannot express: AllEqual on bool and on a 3-vector (every component,
// not the padding), and Workgroup scope, which OpenCL lacks.
const char* kAssembled = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformVote
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %lid
               OpEntryPoint Kernel %w "w" %lid
               OpDecorate %lid BuiltIn SubgroupLocalInvocationId
               OpDecorate %lid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %v3uint = OpTypeVector %uint 3
         %pu = OpTypePointer CrossWorkgroup %uint
        %pv3 = OpTypePointer CrossWorkgroup %v3uint
        %piu = OpTypePointer Input %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
        %lid = OpVariable %piu Input
       %fnty = OpTypeFunction %void %pv3 %pu %pu
          %k = OpFunction %void None %fnty
         %in = OpFunctionParameter %pv3
       %pred = OpFunctionParameter %pu
        %out = OpFunctionParameter %pu
      %entry = OpLabel
          %l = OpLoad %uint %lid
         %pa = OpInBoundsPtrAccessChain %pv3 %in %l
          %v = OpLoad %v3uint %pa Aligned 16
         %eq = OpGroupNonUniformAllEqual %bool %uint_3 %v
         %pp = OpInBoundsPtrAccessChain %pu %pred %l
         %pv = OpLoad %uint %pp Aligned 4
          %b = OpINotEqual %bool %pv %uint_0
        %beq = OpGroupNonUniformAllEqual %bool %uint_3 %b
         %e1 = OpSelect %uint %eq %uint_1 %uint_0
         %e2 = OpSelect %uint %beq %uint_2 %uint_0
        %sum = OpIAdd %uint %e1 %e2
         %po = OpInBoundsPtrAccessChain %pu %out %l
               OpStore %po %sum Aligned 4
               OpReturn
               OpFunctionEnd
          %w = OpFunction %void None %fnty
        %win = OpFunctionParameter %pv3
      %wpred = OpFunctionParameter %pu
       %wout = OpFunctionParameter %pu
     %wentry = OpLabel
         %we = OpGroupNonUniformElect %bool %uint_2
         %ws = OpSelect %uint %we %uint_1 %uint_0
               OpStore %wout %ws Aligned 4
               OpReturn
               OpFunctionEnd
)";

TEST(NonUniformVote, AssembledBoolAndVector) {
  auto p = Program::load(spirv::assemble(kAssembled));
  NDRange range;
  range.global[0] = 8;
  range.local[0] = 8;
  range.localGiven = true;
  LaunchOptions o;
  o.subGroupSize = 8;
  // Vectors equal in x, y, z but not in the padding element; predicates all true.
  std::vector<uint32_t> in(32), pred(8, 5), out(8);
  for (uint32_t l = 0; l < 8; ++l) in[l * 4 + 0] = 7, in[l * 4 + 1] = 8, in[l * 4 + 2] = 9;
  for (uint32_t l = 0; l < 8; ++l) in[l * 4 + 3] = l;
  auto r = p->launch("k", range, {testing::bind(in), testing::bind(pred), testing::bind(out)}, o);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(out, std::vector<uint32_t>(8, 3));
  // One z differs, one predicate is false.
  in[6 * 4 + 2] = 10;
  pred[3] = 0;
  r = p->launch("k", range, {testing::bind(in), testing::bind(pred), testing::bind(out)}, o);
  EXPECT_EQ(out, std::vector<uint32_t>(8, 0));
  try {
    p->launch("w", range, {testing::bind(in), testing::bind(pred), testing::bind(out)}, o);
    ADD_FAILURE() << "Workgroup-scope OpGroupNonUniformElect was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("Workgroup"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spvsim
