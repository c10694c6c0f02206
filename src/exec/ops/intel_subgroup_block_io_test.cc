// cl_intel_subgroups buffer block reads and writes end to end: every element type
// (uint, ushort, uchar, ulong) and count the extensions define, on global and local
// memory, at every sub-group size and NDRange shape, against a host model of the
// strided layout (element k of lane l at p[l + k * max_sub_group_size]; in a partial
// sub-group only the lanes that exist take part). Then each diagnostic: a pointer that
// differs across lanes, a sub-group that reaches the call in part, misalignment, and
// out-of-bounds elements; and media block I/O lowering.
#include <algorithm>
#include <cstring>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/exec/ops/subgroup_test_util.h"

namespace spvsim {
namespace {

using testing::globalItems;
using testing::partitionSubGroups;
using testing::RangeCase;
using testing::rangeCases;
using testing::subGroupSizes;

// BLOCK(T, suffix, V, N, name): read_<name> reads the block at src + base[i] into out;
// write_<name> writes data at dst + base[i]; local_<name> stores data to local memory
// with plain stores in the strided layout and block-reads it back (out1), then
// block-writes data + 1 and reads that back with plain loads (out2). base is uniform
// per sub-group (the host picks it).
const char* kSource = R"(
#define OVL __attribute__((overloadable))
#define SELECTED(mask) (((mask) >> (get_sub_group_local_id() % 32)) & 1)
// cl_intel_subgroups_char/_long and cl_intel_subgroup_local_block_io overloads that
// clang-15's opencl-c.h lacks; llvm-spirv-15 maps them to the INTEL opcodes by name.
#define DECLARE(T, S, V) \
  V OVL intel_sub_group_block_read##S(const __global T*); \
  void OVL intel_sub_group_block_write##S(__global T*, V); \
  V OVL intel_sub_group_block_read##S(const __local T*); \
  void OVL intel_sub_group_block_write##S(__local T*, V);

#define BLOCK(T, S, V, N, NAME) \
  DECLARE(T, S, V) \
  kernel void read_##NAME(global const T* src, global const uint* base, global V* out) { \
    size_t i = get_global_linear_id(); \
    out[i] = intel_sub_group_block_read##S(src + base[i]); \
  } \
  kernel void write_##NAME(global T* dst, global const uint* base, global const V* data) { \
    size_t i = get_global_linear_id(); \
    intel_sub_group_block_write##S(dst + base[i], data[i]); \
  } \
  kernel void local_##NAME(global const V* data, global const uint* base, global V* out1, \
                           global T* out2, local T* scratch) { \
    size_t i = get_global_linear_id(); \
    uint l = get_sub_group_local_id(), max = get_max_sub_group_size(); \
    local T* p = scratch + base[i]; \
    V d = data[i]; \
    for (uint k = 0; k < N; ++k) p[l + k * max] = ((T*)&d)[k]; \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    out1[i] = intel_sub_group_block_read##S(p); \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    intel_sub_group_block_write##S(p, d + (T)1); \
    sub_group_barrier(CLK_LOCAL_MEM_FENCE); \
    for (uint k = 0; k < N; ++k) out2[i * N + k] = p[l + k * max]; \
  }

BLOCK(uint, , uint, 1, ui1)
BLOCK(uint, 2, uint2, 2, ui2)
BLOCK(uint, 4, uint4, 4, ui4)
BLOCK(uint, 8, uint8, 8, ui8)
BLOCK(ushort, _us, ushort, 1, us1)
BLOCK(ushort, _us2, ushort2, 2, us2)
BLOCK(ushort, _us4, ushort4, 4, us4)
BLOCK(ushort, _us8, ushort8, 8, us8)
BLOCK(uchar, _uc, uchar, 1, uc1)
BLOCK(uchar, _uc2, uchar2, 2, uc2)
BLOCK(uchar, _uc4, uchar4, 4, uc4)
BLOCK(uchar, _uc8, uchar8, 8, uc8)
BLOCK(uchar, _uc16, uchar16, 16, uc16)
BLOCK(ulong, _ul, ulong, 1, ul1)
BLOCK(ulong, _ul2, ulong2, 2, ul2)
BLOCK(ulong, _ul4, ulong4, 4, ul4)
BLOCK(ulong, _ul8, ulong8, 8, ul8)

// Reached only by the lanes `mask` selects.
kernel void div_read(global const uint* src, global const uint* base, global uint2* out,
                     uint mask) {
  size_t i = get_global_linear_id();
  if (SELECTED(mask)) out[i] = intel_sub_group_block_read2(src + base[i]);
}
kernel void div_write(global uint* dst, global const uint* base, global const uint2* data,
                      uint mask) {
  size_t i = get_global_linear_id();
  if (SELECTED(mask)) intel_sub_group_block_write2(dst + base[i], data[i]);
}
)";

Program& program() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kSource, "intel block I/O");
  return *p;
}

LaunchResult launch(const std::string& kernel, const NDRange& range, uint32_t width,
                    const std::vector<ArgBinding>& args) {
  LaunchOptions options;
  options.subGroupSize = width;
  return program().launch(kernel, range, args, options);
}

using testing::uintArg;

template <class E>
E makeValue(uint64_t k) {
  const uint64_t h = (k + 1) * 0x9E3779B97F4A7C15ull;
  return E(h ^ (h >> 31));
}

// Elements one sub-group's block takes: max * n, rounded up to 16 bytes so every
// block is aligned for writes.
template <class E>
uint32_t blockElements(uint32_t width, uint32_t n) {
  const uint32_t bytes = (width * n * sizeof(E) + 15) / 16 * 16;
  return bytes / sizeof(E);
}

// base[i] for every work-item: its sub-group's block, numbered over the whole launch.
template <class E>
std::vector<uint32_t> globalBases(const NDRange& range, uint32_t width, uint32_t n) {
  std::vector<uint32_t> base(globalItems(range));
  uint32_t k = 0;
  for (const auto& sg : partitionSubGroups(range, width)) {
    for (uint64_t item : sg.items) base[item] = k * blockElements<E>(width, n);
    ++k;
  }
  return base;
}

template <class E>
std::vector<E> makeData(uint64_t items, uint32_t n, uint64_t salt) {
  std::vector<E> data(items * n);
  for (uint64_t k = 0; k < data.size(); ++k) data[k] = makeValue<E>(k + salt);
  return data;
}

template <class E>
void checkRead(const std::string& name, uint32_t n, uint32_t width, const RangeCase& rc) {
  const auto sgs = partitionSubGroups(rc.range, width);
  const uint64_t items = globalItems(rc.range);
  std::vector<E> src = makeData<E>(sgs.size() * blockElements<E>(width, n), 1, 7);
  std::vector<uint32_t> base = globalBases<E>(rc.range, width, n);
  std::vector<E> out(items * n, E(0x5a));
  auto r = launch("read_" + name, rc.range, width,
                  {testing::bind(src), testing::bind(base), testing::bind(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (const auto& sg : sgs)
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      for (uint32_t k = 0; k < n; ++k) {
        const uint64_t item = sg.items[l];
        ASSERT_EQ(out[item * n + k], src[base[item] + l + k * width])
            << "lane " << l << " element " << k << " of sub-group " << sg.id;
      }
}

// Writes touch exactly the elements of the lanes that exist.
template <class E>
void checkWrite(const std::string& name, uint32_t n, uint32_t width, const RangeCase& rc) {
  const auto sgs = partitionSubGroups(rc.range, width);
  const uint64_t items = globalItems(rc.range);
  const E sentinel = E(0xa5);
  std::vector<E> dst(sgs.size() * blockElements<E>(width, n), sentinel);
  std::vector<uint32_t> base = globalBases<E>(rc.range, width, n);
  std::vector<E> data = makeData<E>(items, n, 1000);
  auto r = launch("write_" + name, rc.range, width,
                  {testing::bind(dst), testing::bind(base), testing::bind(data)});
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  std::vector<E> want(dst.size(), sentinel);
  for (const auto& sg : sgs)
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      for (uint32_t k = 0; k < n; ++k)
        want[base[sg.items[l]] + l + k * width] = data[sg.items[l] * n + k];
  ASSERT_EQ(dst, want);
}

// Local memory: each sub-group of a work-group has its own block of the local array.
template <class E>
void checkLocal(const std::string& name, uint32_t n, uint32_t width, const RangeCase& rc) {
  const auto sgs = partitionSubGroups(rc.range, width);
  const uint64_t items = globalItems(rc.range);
  std::vector<uint32_t> base(items);
  uint32_t perGroup = 0;
  for (const auto& sg : sgs) {
    for (uint64_t item : sg.items) base[item] = sg.id * blockElements<E>(width, n);
    perGroup = std::max(perGroup, sg.id + 1);
  }
  std::vector<E> data = makeData<E>(items, n, 99);
  std::vector<E> out1(items * n, E(1)), out2(items * n, E(2));
  const uint64_t localBytes = uint64_t(perGroup) * blockElements<E>(width, n) * sizeof(E);
  auto r = launch("local_" + name, rc.range, width,
                  {testing::bind(data), testing::bind(base), testing::bind(out1),
                   testing::bind(out2), ArgBinding::local(localBytes)});
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (uint64_t k = 0; k < items * n; ++k) {
    ASSERT_EQ(out1[k], data[k]) << k;
    ASSERT_EQ(out2[k], E(data[k] + 1)) << k;
  }
}

template <class E>
void checkType(const std::string& prefix, std::initializer_list<uint32_t> counts) {
  for (uint32_t n : counts) {
    const std::string name = prefix + std::to_string(n);
    for (uint32_t width : subGroupSizes())
      for (const RangeCase& rc : rangeCases()) {
        SCOPED_TRACE(name + " " + rc.name + " width " + std::to_string(width));
        checkRead<E>(name, n, width, rc);
        checkWrite<E>(name, n, width, rc);
        checkLocal<E>(name, n, width, rc);
      }
  }
}

TEST(IntelBlockIo, Uint) { checkType<uint32_t>("ui", {1, 2, 4, 8}); }
TEST(IntelBlockIo, Ushort) { checkType<uint16_t>("us", {1, 2, 4, 8}); }
TEST(IntelBlockIo, Uchar) { checkType<uint8_t>("uc", {1, 2, 4, 8, 16}); }
TEST(IntelBlockIo, Ulong) { checkType<uint64_t>("ul", {1, 2, 4, 8}); }

const Diagnostic* find(const LaunchResult& r, const std::string& kind) {
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) return &d;
  return nullptr;
}

std::vector<uint32_t> allLanes(uint32_t width) {
  std::vector<uint32_t> v(width);
  for (uint32_t l = 0; l < width; ++l) v[l] = l;
  return v;
}

// A pointer that differs in lane 2: an error naming lane 2; every lane reads the block
// at the first active lane's pointer.
TEST(IntelBlockIo, NonUniformPointerIsReported) {
  const RangeCase rc = rangeCases()[2];
  const uint32_t width = 8, n = 2;
  const auto sgs = partitionSubGroups(rc.range, width);
  std::vector<uint32_t> src = makeData<uint32_t>(sgs.size() * 16 + 64, 1, 3);
  std::vector<uint32_t> base = globalBases<uint32_t>(rc.range, width, n);
  for (const auto& sg : sgs)
    if (sg.items.size() > 2) base[sg.items[2]] += 4;
  std::vector<uint32_t> out(globalItems(rc.range) * n);
  auto r = launch("read_ui2", rc.range, width,
                  {testing::bind(src), testing::bind(base), testing::bind(out)});
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::NonUniformArgument);
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.subGroup, 0u);
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{2}));
  EXPECT_NE(d.message.find("lane 2"), std::string::npos) << d.message;
  for (const auto& sg : sgs) {
    const uint32_t b = base[sg.items[0]];
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      for (uint32_t k = 0; k < n; ++k)
        ASSERT_EQ(out[sg.items[l] * n + k], src[b + l + k * width]) << l;
  }
}

// Reached by part of the sub-group: an error naming the lanes that reached it, which
// still read and write their own elements; the others touch nothing.
TEST(IntelBlockIo, PartialSubGroupIsReported) {
  const RangeCase rc = rangeCases()[0];
  const uint32_t width = 8, n = 2, mask = 0xf0f0f0f0u;  // lanes 4..7
  const auto sgs = partitionSubGroups(rc.range, width);
  const uint64_t items = globalItems(rc.range);
  std::vector<uint32_t> base = globalBases<uint32_t>(rc.range, width, n);
  std::vector<uint32_t> src = makeData<uint32_t>(sgs.size() * 16, 1, 5);
  std::vector<uint32_t> out(items * n, 9), dst(src.size(), 9);
  std::vector<uint32_t> data = makeData<uint32_t>(items, n, 77);
  auto read = launch("div_read", rc.range, width,
                     {testing::bind(src), testing::bind(base), testing::bind(out), uintArg(mask)});
  auto write =
      launch("div_write", rc.range, width,
             {testing::bind(dst), testing::bind(base), testing::bind(data), uintArg(mask)});
  for (const LaunchResult* r : {&read, &write}) {
    ASSERT_EQ(r->diagnostics.size(), 1u) << testing::describe(*r);
    const Diagnostic& d = r->diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::NonUniformCollective);
    EXPECT_EQ(d.severity, Severity::Error);
    EXPECT_EQ(d.lanes, (std::vector<uint32_t>{4, 5, 6, 7}));
  }
  std::vector<uint32_t> wantOut(out.size(), 9), wantDst(dst.size(), 9);
  for (const auto& sg : sgs)
    for (uint32_t l = 4; l < sg.items.size(); ++l)
      for (uint32_t k = 0; k < n; ++k) {
        const uint64_t item = sg.items[l];
        wantOut[item * n + k] = src[base[item] + l + k * width];
        wantDst[base[item] + l + k * width] = data[item * n + k];
      }
  EXPECT_EQ(out, wantOut);
  EXPECT_EQ(dst, wantDst);
}

// Global reads need 4-byte alignment, global writes and all local accesses 16 bytes;
// a misaligned access is an error and still happens.
TEST(IntelBlockIo, MisalignmentIsReported) {
  const RangeCase rc = rangeCases()[0];
  const uint32_t width = 16;
  const auto sgs = partitionSubGroups(rc.range, width);
  const uint64_t items = globalItems(rc.range);
  auto shifted = [&](uint32_t elements, uint32_t n, uint32_t elemBytes) {
    std::vector<uint32_t> base(items);
    uint32_t k = 0;
    for (const auto& sg : sgs) {
      for (uint64_t item : sg.items)
        base[item] = k * ((width * n * elemBytes + 15) / 16 * 16 / elemBytes + 16) + elements;
      ++k;
    }
    return base;
  };
  auto expectMisaligned = [&](const LaunchResult& r, const char* what) {
    const Diagnostic* d = find(r, "misaligned-block-io");
    ASSERT_NE(d, nullptr) << what << "\n" << testing::describe(r);
    EXPECT_EQ(r.diagnostics.size(), 1u) << what << "\n" << testing::describe(r);
    EXPECT_EQ(d->severity, Severity::Error);
    EXPECT_EQ(d->lanes, allLanes(width));
  };
  {  // uchar read at byte 1: misaligned; the data is still read
    std::vector<uint8_t> src = makeData<uint8_t>(sgs.size() * 64, 1, 1), out(items, 0);
    std::vector<uint32_t> base = shifted(1, 1, 1);
    auto r = launch("read_uc1", rc.range, width,
                    {testing::bind(src), testing::bind(base), testing::bind(out)});
    expectMisaligned(r, "read_uc1 at byte 1");
    EXPECT_NE(r.diagnostics[0].message.find("4-byte"), std::string::npos);
    for (const auto& sg : sgs)
      for (uint32_t l = 0; l < sg.items.size(); ++l)
        ASSERT_EQ(out[sg.items[l]], src[base[sg.items[l]] + l]);
  }
  {  // uint read at byte 4: aligned enough for a read
    std::vector<uint32_t> src = makeData<uint32_t>(sgs.size() * 64, 1, 1), out(items, 0);
    std::vector<uint32_t> base = shifted(1, 1, 4);
    auto r = launch("read_ui1", rc.range, width,
                    {testing::bind(src), testing::bind(base), testing::bind(out)});
    EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  }
  {  // uint write at byte 4: misaligned for a write; the data is still written
    std::vector<uint32_t> dst(sgs.size() * 64, 0), data = makeData<uint32_t>(items, 1, 4);
    std::vector<uint32_t> base = shifted(1, 1, 4);
    auto r = launch("write_ui1", rc.range, width,
                    {testing::bind(dst), testing::bind(base), testing::bind(data)});
    expectMisaligned(r, "write_ui1 at byte 4");
    EXPECT_NE(r.diagnostics[0].message.find("16-byte"), std::string::npos);
    for (const auto& sg : sgs)
      for (uint32_t l = 0; l < sg.items.size(); ++l)
        ASSERT_EQ(dst[base[sg.items[l]] + l], data[sg.items[l]]);
  }
  {  // local at byte 4: misaligned for the block read and the block write
    std::vector<uint32_t> base(items);
    for (const auto& sg : sgs)
      for (uint64_t item : sg.items) base[item] = sg.id * 32 + 1;
    std::vector<uint32_t> data = makeData<uint32_t>(items, 1, 8), out1(items), out2(items);
    auto r = launch("local_ui1", rc.range, width,
                    {testing::bind(data), testing::bind(base), testing::bind(out1),
                     testing::bind(out2), ArgBinding::local(32 * 4 * 8)});
    ASSERT_EQ(r.diagnostics.size(), 2u) << testing::describe(r);
    for (const Diagnostic& d : r.diagnostics) {
      EXPECT_EQ(d.kind, DiagnosticKind::MisalignedBlockIo);
      EXPECT_NE(d.message.find("local"), std::string::npos) << d.message;
    }
    EXPECT_EQ(out1, data);
    for (uint64_t i = 0; i < items; ++i) ASSERT_EQ(out2[i], data[i] + 1);
  }
}

// Elements past the end of the buffer: an out-of-bounds error naming the lanes that
// had one; those lanes read 0 there, the rest read normally.
TEST(IntelBlockIo, OutOfBoundsIsReported) {
  const uint32_t width = 16, n = 2;
  const NDRange range = testing::makeRange(1, {16, 1, 1}, {16, 1, 1});
  std::vector<uint32_t> src = makeData<uint32_t>(width + 12, 1, 2);  // lanes 12..15 overflow
  std::vector<uint32_t> base(width, 0), out(width * n, 9);
  auto r = launch("read_ui2", range, width,
                  {testing::bind(src), testing::bind(base), testing::bind(out)});
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{12, 13, 14, 15}));
  for (uint32_t l = 0; l < width; ++l) {
    EXPECT_EQ(out[l * n], src[l]);
    EXPECT_EQ(out[l * n + 1], l < 12 ? src[width + l] : 0u) << l;
  }
}

// ushort16 (cl_intel_subgroups_short 1.1), which llvm-spirv-15 cannot produce: a block
// copy from src to dst in hand-written SPIR-V, one work-group of one sub-group.
TEST(IntelBlockIo, Ushort16FromAssembly) {
  auto p = Program::load(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int16
               OpCapability Vector16
               OpCapability SubgroupBufferBlockIOINTEL
               OpExtension "SPV_INTEL_subgroups"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
     %ushort = OpTypeInt 16 0
   %v16short = OpTypeVector %ushort 16
        %ptr = OpTypePointer CrossWorkgroup %ushort
         %fn = OpTypeFunction %void %ptr %ptr
          %k = OpFunction %void None %fn
        %src = OpFunctionParameter %ptr
        %dst = OpFunctionParameter %ptr
      %entry = OpLabel
          %v = OpSubgroupBlockReadINTEL %v16short %src
               OpSubgroupBlockWriteINTEL %dst %v
               OpReturn
               OpFunctionEnd
)"));
  for (uint32_t width : subGroupSizes())
    for (uint32_t live : {width, width - 3}) {  // full, then partial
      std::vector<uint16_t> src = makeData<uint16_t>(width * 16, 1, width), dst(width * 16, 0xeeee);
      LaunchOptions options;
      options.subGroupSize = width;
      auto r = p->launch("k", testing::makeRange(1, {live, 1, 1}, {live, 1, 1}),
                         {testing::bind(src), testing::bind(dst)}, options);
      ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
      for (uint32_t k = 0; k < 16; ++k)
        for (uint32_t l = 0; l < width; ++l)
          ASSERT_EQ(dst[k * width + l], l < live ? src[k * width + l] : 0xeeee)
              << "width " << width << " live " << live << " lane " << l << " element " << k;
    }
}

// Media block I/O (cl_intel_media_block_io) lowers on image2d_t with integer data
// (semantics: src/exec/ops/intel_media_block_io_test.cc); float data, which the
// extension does not define, is refused naming the instruction.
TEST(IntelBlockIo, MediaBlockIoLowersIntegerData) {
  struct Case {
    const char* op;
    bool supported;
  } cases[] = {
      {"%v = OpSubgroupImageMediaBlockReadINTEL %uint %img %coord %c4 %c1", true},
      {"OpSubgroupImageMediaBlockWriteINTEL %img %coord %c4 %c1 %c0", true},
      {"%v = OpSubgroupImageMediaBlockReadINTEL %float %img %coord %c4 %c1", false},
  };
  for (const Case& c : cases) {
    const std::string text = std::string(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v2uint = OpTypeVector %uint 2
        %c0 = OpConstant %uint 0
        %c1 = OpConstant %uint 1
        %c4 = OpConstant %uint 4
      %coord = OpConstantComposite %v2uint %c0 %c0
      %image = OpTypeImage %void 2D 0 0 0 0 Unknown ReadWrite
         %fn = OpTypeFunction %void %image
          %k = OpFunction %void None %fn
        %img = OpFunctionParameter %image
      %entry = OpLabel
               )") + c.op + R"(
               OpReturn
               OpFunctionEnd
)";
    spirv::LoadOptions options;
    options.validate = false;  // no image capabilities: only the lowering decides
    auto p = Program::load(spirv::assemble(text), options);
    try {
      p->lowered(p->kernel("k"), 16);
      EXPECT_TRUE(c.supported) << "expected unsupported for " << c.op;
    } catch (const Error& e) {
      EXPECT_FALSE(c.supported) << c.op << ": " << e.what();
      EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
      EXPECT_NE(std::string(e.what()).find("OpSubgroupImageMediaBlockReadINTEL"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace spvsim
