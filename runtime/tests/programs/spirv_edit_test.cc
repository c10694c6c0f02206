// Unit tests of runtime/spirv_edit.h: specialization, versions, binary markers. Every
// edited module must still pass SPIRV-Tools' validator (spirv::loadModule validates).
#include "runtime/spirv_edit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "spirv/error.h"
#include "spirv/legacy_atomics.h"
#include "spirv/loader.h"

namespace spvsim::rt {
namespace {

std::vector<uint32_t> specModule() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  std::ifstream in(std::string(srcdir ? srcdir : ".") +
                   "/spvsim/runtime/tests/programs/spec_constants.spvasm");
  std::stringstream s;
  s << in.rdbuf();
  return spirv::assemble(s.str());
}

// The literal words of the OpSpecConstant* whose result is `id` (opcode first).
std::vector<uint32_t> specInstruction(const std::vector<uint32_t>& w, uint32_t id) {
  for (size_t at = 5; at < w.size(); at += w[at] >> 16) {
    const uint32_t op = w[at] & 0xffff, count = w[at] >> 16;
    if ((op == 48 || op == 49 || op == 50) && count >= 3 && w[at + 2] == id) {
      std::vector<uint32_t> out{op};
      out.insert(out.end(), w.begin() + at + 3, w.begin() + at + count);
      return out;
    }
  }
  return {};
}

constexpr uint32_t kOpSpecConstantTrue = 48, kOpSpecConstantFalse = 49, kOpSpecConstant = 50;

TEST(SpecConstants, FindsScalarsBySpecId) {
  const auto specs = specConstants(specModule());
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs.at(3).bytes, 4u);
  EXPECT_TRUE(specs.at(4).isBool);
  EXPECT_EQ(specs.at(4).bytes, 1u);
  EXPECT_EQ(specs.at(5).bytes, 8u);
  EXPECT_EQ(specs.at(6).bytes, 2u);
  EXPECT_FALSE(specs.at(6).isSigned);
  EXPECT_TRUE(specConstants({1, 2, 3}).empty());  // malformed: nothing
}

TEST(SpecConstants, SpecializeReplacesDefaults) {
  const std::vector<uint32_t> w = specModule();
  const auto specs = specConstants(w);
  const std::vector<uint32_t> out = specialize(w, {{3, {0x78, 0x56, 0x34, 0x12}},
                                                   {4, {0}},
                                                   {5, {1, 0, 0, 0, 2, 0, 0, 0}},
                                                   {6, {0xff, 0xff}},
                                                   {99, {1}}});  // unknown ids are ignored
  EXPECT_EQ(specInstruction(out, specs.at(3).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 0x12345678}));
  EXPECT_EQ(specInstruction(out, specs.at(4).resultId),
            (std::vector<uint32_t>{kOpSpecConstantFalse}));
  EXPECT_EQ(specInstruction(out, specs.at(5).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 1, 2}));
  EXPECT_EQ(specInstruction(out, specs.at(6).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 0xffff}));  // unsigned: zero-extended
  EXPECT_NO_THROW(spirv::loadModule(out));
  const std::vector<uint32_t> back = specialize(out, {{4, {3}}});
  EXPECT_EQ(specInstruction(back, specs.at(4).resultId),
            (std::vector<uint32_t>{kOpSpecConstantTrue}));
}

TEST(SpecConstants, NarrowSignedLiteralsAreSignExtended) {
  const std::vector<uint32_t> w = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int16
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpDecorate %c SpecId 1
      %short = OpTypeInt 16 1
          %c = OpSpecConstant %short 5
)");
  const auto specs = specConstants(w);
  ASSERT_TRUE(specs.at(1).isSigned);
  const std::vector<uint32_t> out = specialize(w, {{1, {0xfe, 0xff}}});  // -2
  EXPECT_EQ(specInstruction(out, specs.at(1).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 0xfffffffe}));
}

constexpr const char* kLocalArray10 = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_4 = OpConstant %uint 4
     %uint_0 = OpConstant %uint 0
        %arr = OpTypeArray %uint %uint_4
    %ptr_arr = OpTypePointer Workgroup %arr
   %ptr_uint = OpTypePointer Workgroup %uint
          %t = OpVariable %ptr_arr Workgroup
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
          %p = OpInBoundsAccessChain %ptr_uint %t %uint_0
               OpStore %p %uint_0
               OpReturn
               OpFunctionEnd
)";

// kLocalArray10 as SPIR-V 1.0 (the assembler writes its newest version).
std::vector<uint32_t> localArray10() {
  std::vector<uint32_t> w = spirv::assemble(kLocalArray10);
  w[1] = 0x00010000;
  return w;
}

TEST(WithVersion, ListsModuleVariablesInInterfacesFrom14) {
  const std::vector<uint32_t> w = localArray10();
  ASSERT_NO_THROW(spirv::loadModule(w));
  std::vector<uint32_t> v = w;
  v[1] = 0x00010400;  // the bare version word: %t is missing from the interface
  EXPECT_EQ(spirv::loadModule(v).repairs.size(), 1u);  // which the loader has to repair
  const std::vector<uint32_t> out = withVersion(w, 0x00010400);
  EXPECT_EQ(out[1], 0x00010400u);
  const spirv::Module m = spirv::loadModule(out);
  EXPECT_TRUE(m.repairs.empty());
  EXPECT_EQ(m.entryPoints.at(0).interface.size(), 1u);
  EXPECT_EQ(withVersion(out, 0x00010500), [&] {  // already 1.4: only the version changes
    std::vector<uint32_t> x = out;
    x[1] = 0x00010500;
    return x;
  }());
}

TEST(Markers, RoundTripAndStayValid) {
  const std::vector<uint32_t> w = localArray10();
  EXPECT_FALSE(readMarkers(w).kind);
  const std::vector<uint32_t> marked = withMarkers(w, {BinaryKind::Library, true});
  const BinaryMarkers m = readMarkers(marked);
  EXPECT_EQ(m.kind, BinaryKind::Library);
  EXPECT_TRUE(m.uniformWorkGroups);
  EXPECT_NO_THROW(spirv::loadModule(marked));
  EXPECT_EQ(withoutMarkers(marked), w);
  const std::vector<uint32_t> remarked = withMarkers(marked, {BinaryKind::Executable, false});
  EXPECT_EQ(readMarkers(remarked).kind, BinaryKind::Executable);
  EXPECT_FALSE(readMarkers(remarked).uniformWorkGroups);
}

// The compile driver's legacy-atomics marker is the module's, not the binary's: a
// program binary that goes out through CL_PROGRAM_BINARIES and back keeps it.
TEST(Markers, TheLegacyAtomicsMarkerIsKept) {
  const std::vector<uint32_t> w = spirv::withLegacyAtomicsMarker(localArray10());
  const std::vector<uint32_t> back =
      withoutMarkers(withMarkers(w, {BinaryKind::Executable, false}));
  EXPECT_EQ(back, w);
  const auto& texts = spirv::loadModule(back).sourceExtensions;
  EXPECT_NE(std::find(texts.begin(), texts.end(), spirv::kLegacyAtomicsMarker), texts.end());
}

TEST(WithLinkage, OnlyForModulesWithoutEntryPoints) {
  const std::vector<uint32_t> kernels = localArray10();
  EXPECT_EQ(withLinkageIfNoEntryPoints(kernels), kernels);
  const std::vector<uint32_t> none = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
       %uint = OpTypeInt 32 0
)");
  EXPECT_THROW(spirv::loadModule(none), Error);
  const std::vector<uint32_t> out = withLinkageIfNoEntryPoints(none);
  EXPECT_NO_THROW(spirv::loadModule(out));
  EXPECT_EQ(withLinkageIfNoEntryPoints(out), out);
}

}  // namespace
}  // namespace spvsim::rt
