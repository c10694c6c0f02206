// Unit tests of runtime/spirv_edit.h: specialization, versions, the Linkage capability,
// binary markers. Every edited module must still pass SPIRV-Tools' validator
// (spirv::loadModule validates).
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

constexpr uint32_t kOpSpecConstantTrue = 48, kOpSpecConstantFalse = 49, kOpSpecConstant = 50;

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

TEST(SpecConstants, FindsScalarsBySpecIdInTheLoadedModule) {
  const spirv::Module m = spirv::loadModule(specModule());
  const auto specs = specConstants(m);
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs.at(3).bytes, 4u);
  EXPECT_TRUE(specs.at(4).isBool);
  EXPECT_EQ(specs.at(4).bytes, 1u);
  EXPECT_EQ(specs.at(5).bytes, 8u);
  EXPECT_EQ(specs.at(6).bytes, 2u);
  EXPECT_FALSE(specs.at(6).isSigned);
  for (const auto& [specId, info] : specs) {  // where the instructions are in m.words
    const uint32_t op = m.words.at(info.offset) & 0xffff;
    EXPECT_TRUE(op == kOpSpecConstant || op == kOpSpecConstantTrue) << specId;
    EXPECT_EQ(m.words.at(info.offset + 2), info.resultId) << specId;
  }
}

TEST(SpecConstants, SpecializeReplacesDefaults) {
  const spirv::Module m = spirv::loadModule(specModule());
  const auto specs = specConstants(m);
  const std::vector<uint32_t> out = specialize(m.words, specs,
                                               {{3, {0x78, 0x56, 0x34, 0x12}},
                                                {4, {0}},
                                                {5, {1, 0, 0, 0, 2, 0, 0, 0}},
                                                {6, {0xff, 0xff}},
                                                {99, {1}}});  // unknown ids are ignored
  EXPECT_EQ(out.size(), m.words.size());
  EXPECT_EQ(specInstruction(out, specs.at(3).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 0x12345678}));
  EXPECT_EQ(specInstruction(out, specs.at(4).resultId),
            (std::vector<uint32_t>{kOpSpecConstantFalse}));
  EXPECT_EQ(specInstruction(out, specs.at(5).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 1, 2}));
  EXPECT_EQ(specInstruction(out, specs.at(6).resultId),
            (std::vector<uint32_t>{kOpSpecConstant, 0xffff}));  // unsigned: zero-extended
  EXPECT_NO_THROW(spirv::loadModule(out));
  const std::vector<uint32_t> back = specialize(out, specs, {{4, {3}}});  // same offsets
  EXPECT_EQ(specInstruction(back, specs.at(4).resultId),
            (std::vector<uint32_t>{kOpSpecConstantTrue}));
  EXPECT_EQ(specialize(m.words, specs, {}), m.words);
}

TEST(SpecConstants, OffsetsOfAnotherModuleAreRefused) {
  const spirv::Module m = spirv::loadModule(specModule());
  std::vector<uint32_t> shifted = m.words;                 // a module whose instructions moved
  shifted.insert(shifted.begin() + 5, {(1u << 16) | 0u});  // OpNop
  EXPECT_THROW(specialize(shifted, specConstants(m), {{3, {1, 0, 0, 0}}}), Error);
}

TEST(SpecConstants, NarrowSignedLiteralsAreSignExtended) {
  const spirv::Module m = spirv::loadModule(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int16
               OpCapability Int64
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpDecorate %c SpecId 1
      %short = OpTypeInt 16 1
          %c = OpSpecConstant %short 5
)"));
  const auto specs = specConstants(m);
  ASSERT_TRUE(specs.at(1).isSigned);
  const std::vector<uint32_t> out = specialize(m.words, specs, {{1, {0xfe, 0xff}}});  // -2
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

TEST(Markers, SplitReadsAndRemovesThem) {
  const std::vector<uint32_t> w = localArray10();
  const BinaryMarkers m{BinaryKind::CompiledObject, true};
  const std::vector<uint32_t> marked = withMarkers(w, m);
  EXPECT_EQ(marked.size(), w.size() + markerWordCount(m));
  EXPECT_EQ(markerWordCount({}), 0u);
  const MarkedModule split = splitMarkers(marked);
  EXPECT_EQ(split.words, w);
  EXPECT_EQ(split.markers.kind, BinaryKind::CompiledObject);
  EXPECT_TRUE(split.markers.uniformWorkGroups);
  const std::vector<uint32_t> junk = {1, 2, 3};  // malformed: unchanged, no markers
  EXPECT_EQ(splitMarkers(junk).words, junk);
  EXPECT_FALSE(splitMarkers(junk).markers.kind);
}

// Binaries that this ICD wrote before markers became facts put them in the same place:
// they read back with their kind (each kind, with and without the uniform marker).
TEST(Markers, EveryKindRoundTrips) {
  const std::vector<uint32_t> w = localArray10();
  for (BinaryKind k : {BinaryKind::CompiledObject, BinaryKind::Library, BinaryKind::Executable})
    for (bool uniform : {false, true}) {
      const MarkedModule back = splitMarkers(withMarkers(w, {k, uniform}));
      EXPECT_EQ(back.markers.kind, k);
      EXPECT_EQ(back.markers.uniformWorkGroups, uniform);
      EXPECT_EQ(back.words, w);
    }
}

// A binary as the ICD wrote it before markers became facts (the markers first in the
// debug section, before the module's own OpSource and OpSourceExtension): its kind and
// uniform requirement read back, and the module's own instructions stay.
TEST(Markers, EarlierBinariesReadBack) {
  const std::vector<uint32_t> w = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpSourceExtension "spvsim:binary-type=library"
               OpSourceExtension "spvsim:uniform-work-group-size"
               OpSource OpenCL_C 120
               OpSourceExtension "spvsim:legacy-atomics=device"
               OpName %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)");
  const MarkedModule split = splitMarkers(w);
  EXPECT_EQ(split.markers.kind, BinaryKind::Library);
  EXPECT_TRUE(split.markers.uniformWorkGroups);
  const spirv::Module m = spirv::loadModule(split.words);
  EXPECT_EQ(m.sourceExtensions, (std::vector<std::string>{"spvsim:legacy-atomics=device"}));
  EXPECT_EQ(withMarkers(split.words, split.markers), w);  // written back the same way
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
  EXPECT_EQ(out.size(), none.size() + 2);  // one OpCapability, right after the header
  EXPECT_EQ(out[5], (2u << 16) | 17u);     // OpCapability
  EXPECT_EQ(out[6], 5u);                   // Linkage
}

}  // namespace
}  // namespace spvsim::rt
