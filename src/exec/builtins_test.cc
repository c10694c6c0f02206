// Built-in variables end to end: every OpenCL C work-item function and SPIR-V BuiltIn
// spvsim provides, in 1, 2 and 3 dimensions with non-zero global offsets, smaller last
// work-groups, partial last sub-groups and each sub-group size, at -O0, -O2 and -g,
// against a host model of src/DESIGN.md's partition. Also the two ways lowering reads a
// built-in (src/exec/builtins.h): a built-in read into the register, and the private
// copy kept where a kernel uses a built-in variable's pointer otherwise.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "spirv/loader.h"
#include "src/exec/lowered.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;

constexpr int kRecord = 40;  // ulongs per work-item
constexpr int kMasks = 20;   // uints per work-item: eq, ge, gt, le, lt masks (uint4 each)

// Loads in a divergent branch and through a dynamic component index too.
const char* kSource = R"(
kernel void k(global ulong* out, global uint* masks) {
  size_t g = get_global_linear_id();
  global ulong* o = out + g * 40;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d);
    o[6 + d] = get_group_id(d);
    o[9 + d] = get_local_size(d);
    o[12 + d] = get_enqueued_local_size(d);
    o[15 + d] = get_num_groups(d);
    o[18 + d] = get_global_size(d);
    o[21 + d] = get_global_offset(d);
  }
  o[24] = get_local_linear_id();
  o[25] = g;
  o[26] = get_work_dim();
  o[27] = get_sub_group_size();
  o[28] = get_max_sub_group_size();
  o[29] = get_num_sub_groups();
  o[30] = get_enqueued_num_sub_groups();
  o[31] = get_sub_group_id();
  o[32] = get_sub_group_local_id();
  uint s = get_sub_group_local_id();
  o[33] = get_global_id(s % 3) * 7 + get_local_id((s + 1) % 3);
  if (s & 1)
    o[34] = get_global_id(1) * 3 + get_sub_group_id();
  else
    o[34] = get_local_id(0) + 1000 * get_group_id(2);
  if (get_local_id(0) == 0) o[35] = get_global_id(2) + 5;
  else o[35] = get_sub_group_size();
  global uint4* m = (global uint4*)(masks + g * 20);
  m[0] = get_sub_group_eq_mask();
  m[1] = get_sub_group_ge_mask();
  m[2] = get_sub_group_gt_mask();
  m[3] = get_sub_group_le_mask();
  m[4] = get_sub_group_lt_mask();
}
)";

NDRange makeRange(uint32_t dims, std::array<uint64_t, 3> global, std::array<uint64_t, 3> local,
                  std::array<uint64_t, 3> offset) {
  NDRange r;
  r.dims = dims;
  r.global = global;
  r.local = local;
  r.offset = offset;
  r.localGiven = true;
  return r;
}

// Each dimension in use has a smaller last work-group; offsets are non-zero.
std::vector<NDRange> ranges() {
  return {
      makeRange(1, {75, 1, 1}, {20, 1, 1}, {7, 0, 0}),
      makeRange(2, {11, 7, 1}, {4, 3, 1}, {3, 100, 0}),
      makeRange(3, {7, 5, 3}, {3, 2, 2}, {5, 9, 11}),
  };
}

// Bits [lo, hi) of a 128-bit mask, as four 32-bit words.
std::array<uint32_t, 4> maskBits(uint64_t lo, uint64_t hi) {
  std::array<uint32_t, 4> w{};
  for (uint64_t k = lo; k < hi && k < 128; ++k) w[k / 32] |= 1u << (k % 32);
  return w;
}

// What work-item `gid` (without the offset) must see, from the OpenCL C spec's
// definitions and the partition by linear local id (all sub-groups full but the last).
struct Expected {
  std::array<uint64_t, kRecord> record{};
  std::array<uint32_t, kMasks> masks{};
};

Expected model(const NDRange& r, uint32_t width, std::array<uint64_t, 3> gid) {
  Expected e;
  auto& o = e.record;
  std::array<uint64_t, 3> lid{}, group{}, size{}, groups{};
  for (int d = 0; d < 3; ++d) {
    group[d] = gid[d] / r.local[d];
    lid[d] = gid[d] % r.local[d];
    groups[d] = (r.global[d] + r.local[d] - 1) / r.local[d];
    size[d] = std::min(r.local[d], r.global[d] - group[d] * r.local[d]);
    o[d] = gid[d] + r.offset[d];
    o[3 + d] = lid[d];
    o[6 + d] = group[d];
    o[9 + d] = size[d];
    o[12 + d] = r.local[d];
    o[15 + d] = groups[d];
    o[18 + d] = r.global[d];
    o[21 + d] = r.offset[d];
  }
  const uint64_t linear = lid[0] + lid[1] * size[0] + lid[2] * size[0] * size[1];
  const uint64_t items = size[0] * size[1] * size[2];
  const uint64_t enqueued = r.local[0] * r.local[1] * r.local[2];
  const uint64_t sg = linear / width, lane = linear % width;
  o[24] = linear;
  o[25] = gid[0] + gid[1] * r.global[0] + gid[2] * r.global[0] * r.global[1];
  o[26] = r.dims;
  o[27] = std::min<uint64_t>(width, items - sg * width);
  o[28] = width;
  o[29] = (items + width - 1) / width;
  o[30] = (enqueued + width - 1) / width;
  o[31] = sg;
  o[32] = lane;
  o[33] = o[lane % 3] * 7 + lid[(lane + 1) % 3];
  o[34] = (lane & 1) ? o[1] * 3 + sg : lid[0] + 1000 * group[2];
  o[35] = lid[0] == 0 ? o[2] + 5 : o[27];
  const std::array<std::array<uint32_t, 4>, 5> m{maskBits(lane, lane + 1), maskBits(lane, width),
                                                 maskBits(lane + 1, width), maskBits(0, lane + 1),
                                                 maskBits(0, lane)};
  for (int i = 0; i < 5; ++i)
    for (int w = 0; w < 4; ++w) e.masks[4 * i + w] = m[i][w];
  return e;
}

void expectModel(const NDRange& r, uint32_t width, const std::vector<uint64_t>& out,
                 const std::vector<uint32_t>& masks, const std::string& what) {
  int failures = 0;
  for (uint64_t z = 0; z < r.global[2]; ++z)
    for (uint64_t y = 0; y < r.global[1]; ++y)
      for (uint64_t x = 0; x < r.global[0]; ++x) {
        const Expected e = model(r, width, {x, y, z});
        const uint64_t g = x + y * r.global[0] + z * r.global[0] * r.global[1];
        for (int i = 0; i < 36 && failures < 10; ++i)
          if (out[g * kRecord + i] != e.record[i]) {
            ++failures;
            ADD_FAILURE() << what << " item (" << x << "," << y << "," << z << ") field " << i
                          << ": " << out[g * kRecord + i] << ", want " << e.record[i];
          }
        for (int i = 0; i < kMasks && failures < 10; ++i)
          if (masks[g * kMasks + i] != e.masks[i]) {
            ++failures;
            ADD_FAILURE() << what << " item (" << x << "," << y << "," << z << ") mask word " << i
                          << ": " << masks[g * kMasks + i] << ", want " << e.masks[i];
          }
      }
}

TEST(Builtins, EveryValueMatchesTheHostModel) {
  for (const char* flags : {"-O0", "-O2", "-O0 -g"}) {
    auto program = Program::load(compileOpenCL(kSource, flags));
    for (const NDRange& r : ranges())
      for (uint32_t width : {1u, 4u, 7u, 16u, 32u, 64u})
        // builtinStorage: the private copies and loads through them (observers, debugger).
        for (bool storage : {false, true}) {
          const uint64_t items = r.global[0] * r.global[1] * r.global[2];
          std::vector<uint64_t> out(items * kRecord, 0xdead);
          std::vector<uint32_t> masks(items * kMasks, 0xdead);
          LaunchOptions o;
          o.subGroupSize = width;
          o.threads = 1;
          o.builtinStorage = storage;
          auto res = program->launch("k", r, {bufferOf(out), bufferOf(masks)}, o);
          const std::string what = std::string(flags) + " dims " + std::to_string(r.dims) +
                                   " width " + std::to_string(width) + (storage ? " storage" : "");
          ASSERT_TRUE(res.diagnostics.empty()) << what << ": " << describe(res);
          expectModel(r, width, out, masks, what);
        }
  }
}

// GlobalInvocationId's pointer is passed to a function (and used by an access chain):
// it keeps its private copy. WorkgroupId is read through a constant access chain only and
// SubgroupLocalInvocationId loaded only: built-in reads alone. What lowering decides, and
// the values either way.
// Kernel `mis` loads WorkgroupId.y with `Aligned 16`: misaligned (it is 8 bytes into the
// variable), so it stays a load through the private copy and reports it.
const char* kAssembled = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid %grp %sgl
               OpEntryPoint Kernel %mis "mis" %grp
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %grp BuiltIn WorkgroupId
               OpDecorate %sgl BuiltIn SubgroupLocalInvocationId
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
        %pin = OpTypePointer Input %v3ulong
       %pinu = OpTypePointer Input %ulong
      %pinsg = OpTypePointer Input %uint
        %pcw = OpTypePointer CrossWorkgroup %ulong
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_3 = OpConstant %ulong 3
    %ulong_8 = OpConstant %ulong 8
        %gid = OpVariable %pin Input
        %grp = OpVariable %pin Input
        %sgl = OpVariable %pinsg Input
     %helpty = OpTypeFunction %ulong %pin
       %kty = OpTypeFunction %void %pcw
       %help = OpFunction %ulong None %helpty
         %hp = OpFunctionParameter %pin
         %hb = OpLabel
         %hv = OpLoad %v3ulong %hp Aligned 32
         %hx = OpCompositeExtract %ulong %hv 0
               OpReturnValue %hx
               OpFunctionEnd
          %k = OpFunction %void None %kty
        %out = OpFunctionParameter %pcw
      %entry = OpLabel
          %x = OpFunctionCall %ulong %help %gid
         %py = OpInBoundsAccessChain %pinu %gid %uint_1
          %y = OpLoad %ulong %py Aligned 8
         %pg = OpInBoundsAccessChain %pinu %grp %uint_0
          %g = OpLoad %ulong %pg Aligned 8
         %sv = OpLoad %uint %sgl Aligned 4
          %s = OpUConvert %ulong %sv
        %row = OpIMul %ulong %y %ulong_8
       %item = OpIAdd %ulong %x %row
       %base = OpIMul %ulong %item %ulong_3
         %p0 = OpInBoundsPtrAccessChain %pcw %out %base
               OpStore %p0 %y Aligned 8
      %base1 = OpIAdd %ulong %base %ulong_1_
         %p1 = OpInBoundsPtrAccessChain %pcw %out %base1
               OpStore %p1 %g Aligned 8
      %base2 = OpIAdd %ulong %base1 %ulong_1_
         %p2 = OpInBoundsPtrAccessChain %pcw %out %base2
               OpStore %p2 %s Aligned 8
               OpReturn
               OpFunctionEnd
        %mis = OpFunction %void None %kty
       %mout = OpFunctionParameter %pcw
     %mentry = OpLabel
        %pgy = OpInBoundsAccessChain %pinu %grp %uint_1
         %gy = OpLoad %ulong %pgy Aligned 16
               OpStore %mout %gy Aligned 8
               OpReturn
               OpFunctionEnd
)";

TEST(Builtins, APointerUsedOtherwiseKeepsThePrivateCopy) {
  std::string text = kAssembled;
  // One more constant, declared with the others.
  text.insert(text.find("        %gid = OpVariable"), "   %ulong_1_ = OpConstant %ulong 1\n");
  auto program = Program::load(spirv::assemble(text));
  const LoweredKernel& k = program->lowered(program->kernel("k"), 4);
  ASSERT_EQ(k.builtins.size(), 3u);
  for (const BuiltinSlot& slot : k.builtins)
    EXPECT_EQ(slot.inMemory, slot.builtin == Builtin::GlobalInvocationId) << int(slot.builtin);
  // 2-D, offset (2, 10), local 3x2, global 5x2: the second work-group in x has 2x2 items.
  NDRange r = makeRange(2, {5, 2, 1}, {3, 2, 1}, {2, 10, 0});
  for (bool storage : {false, true}) {
    std::vector<uint64_t> out(3 * 8 * 12, 0xdead);
    LaunchOptions o;
    o.subGroupSize = 4;
    o.builtinStorage = storage;
    auto res = program->launch("k", r, {bufferOf(out)}, o);
    ASSERT_TRUE(res.diagnostics.empty()) << describe(res);
    for (uint64_t y = 0; y < 2; ++y)
      for (uint64_t x = 0; x < 5; ++x) {
        const uint64_t at = 3 * ((x + 2) + 8 * (y + 10)), group = x / 3, size = group ? 2 : 3;
        const uint64_t linear = x % 3 + y * size;
        EXPECT_EQ(out[at + 0], y + 10) << x << "," << y;
        EXPECT_EQ(out[at + 1], group) << x << "," << y;
        EXPECT_EQ(out[at + 2], linear % 4) << x << "," << y;
      }
  }
}

TEST(Builtins, AMisalignedLoadStaysALoadOfThePrivateCopy) {
  std::string text = kAssembled;
  text.insert(text.find("        %gid = OpVariable"), "   %ulong_1_ = OpConstant %ulong 1\n");
  auto program = Program::load(spirv::assemble(text));
  const LoweredKernel& k = program->lowered(program->kernel("mis"), 4);
  ASSERT_EQ(k.builtins.size(), 1u);
  EXPECT_TRUE(k.builtins[0].inMemory);
  // One work-group (0, 3, 0) of one item: the work-group id's y is 3.
  NDRange r = makeRange(2, {1, 4, 1}, {1, 1, 1}, {0, 0, 0});
  std::vector<uint64_t> out(1, 0xdead);
  LaunchOptions o;
  o.subGroupSize = 4;
  o.threads = 1;
  auto res = program->launch("mis", r, {bufferOf(out)}, o);
  ASSERT_FALSE(res.diagnostics.empty());
  EXPECT_EQ(res.diagnostics[0].kind, DiagnosticKind::MisalignedAccess) << describe(res);
  EXPECT_EQ(out[0], 3u);  // the last work-group's store lands last (one host thread)
}

}  // namespace
}  // namespace spvsim
