#include "spirv/loader.h"

#include <gtest/gtest.h>

#include "spirv/disassembly.h"
#include "spirv/error.h"

namespace spvsim::spirv {
namespace {

// A minimal valid OpenCL kernel module in SPIRV-Tools assembly.
const char* kKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpExecutionMode %k LocalSize 8 4 1
       %file = OpString "k.cl"
               OpName %out "out"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %packed CPacked
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uchar = OpTypeInt 8 0
      %float = OpTypeFloat 32
     %float3 = OpTypeVector %float 3
    %ulong3 = OpTypeVector %ulong 3
     %mixed = OpTypeStruct %uchar %uint %float3
     %packed = OpTypeStruct %uchar %uint
  %ptr_uint = OpTypePointer CrossWorkgroup %uint
 %ptr_input = OpTypePointer Input %ulong3
     %fntype = OpTypeFunction %void %ptr_uint
      %uint_7 = OpConstant %uint 7
        %gid = OpVariable %ptr_input Input
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_uint
      %entry = OpLabel
               OpLine %file 12 3
         %ids = OpLoad %ulong3 %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
          %p = OpInBoundsPtrAccessChain %ptr_uint %out %i
               OpStore %p %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)";

TEST(Loader, DecodesEntryPointModesParamsAndLines) {
  Module m = loadModule(assemble(kKernel));
  ASSERT_EQ(m.entryPoints.size(), 1u);
  const EntryPoint& ep = m.entryPoints[0];
  EXPECT_EQ(ep.name, "k");
  const ExecutionMode* ls = ep.findMode(spv::ExecutionMode::LocalSize);
  ASSERT_NE(ls, nullptr);
  EXPECT_EQ(ls->literals, (std::vector<uint32_t>{8, 4, 1}));
  ASSERT_EQ(ep.signature.params.size(), 1u);
  EXPECT_EQ(ep.signature.params[0].name, "out");
  EXPECT_TRUE(ep.signature.params[0].isPointer());
  EXPECT_EQ(ep.signature.params[0].addressSpace, AddressSpace::Global);
  const Function* f = m.findFunction(ep.function);
  ASSERT_NE(f, nullptr);
  const Instruction& load = f->blocks[0].instructions[0];
  EXPECT_EQ(load.opcode, spv::Op::OpLoad);
  EXPECT_EQ(m.describeLine(load.line), "k.cl:12");
}

TEST(Loader, LaysOutTypesWithOpenCLCRules) {
  Module m = loadModule(assemble(kKernel));
  auto byName = [&](spv::Op op, uint64_t members) -> const Type* {
    for (const auto& [id, t] : m.types)
      if (t.opcode == op && t.members.size() == members) return &t;
    return nullptr;
  };
  // float3 occupies 16 bytes, aligned to 16.
  for (const auto& [id, t] : m.types)
    if (t.kind == TypeKind::Vector && t.count == 3 && m.type(t.element).kind == TypeKind::Float) {
      EXPECT_EQ(t.size, 16u);
      EXPECT_EQ(t.align, 16u);
    }
  // struct { uchar; uint; float3 } -> offsets 0, 4, 16; size 32.
  const Type* mixed = byName(spv::Op::OpTypeStruct, 3);
  ASSERT_NE(mixed, nullptr);
  EXPECT_EQ(mixed->memberOffsets, (std::vector<uint64_t>{0, 4, 16}));
  EXPECT_EQ(mixed->size, 32u);
  // CPacked struct { uchar; uint } -> offsets 0, 1; size 5.
  const Type* packed = byName(spv::Op::OpTypeStruct, 2);
  ASSERT_NE(packed, nullptr);
  EXPECT_EQ(packed->memberOffsets, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(packed->size, 5u);
}

TEST(Loader, RejectsBadMagic) {
  std::vector<uint32_t> words = assemble(kKernel);
  words[0] = 0x12345678;
  try {
    loadModule(words);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidModule);
    EXPECT_NE(std::string(e.what()).find("magic"), std::string::npos) << e.what();
  }
}

TEST(Loader, RejectsTruncatedModule) {
  std::vector<uint32_t> words = assemble(kKernel);
  words.resize(words.size() - 3);
  EXPECT_THROW(loadModule(words), Error);
  words.resize(3);
  EXPECT_THROW(loadModule(words), Error);
  EXPECT_THROW(loadModule({}), Error);
}

TEST(Loader, ReportsValidatorMessage) {
  std::string text = kKernel;
  // Storing a float constant through a uint pointer is invalid.
  text.replace(text.find("%uint_7 = OpConstant %uint 7"), 28, "%uint_7 = OpConstant %float 7");
  try {
    loadModule(assemble(text));
    FAIL() << "expected a validation error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidModule);
    EXPECT_NE(std::string(e.what()).find("validation failed"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
  }
}

TEST(Loader, NamesUnsupportedCapability) {
  std::string text = kKernel;
  text.insert(text.find("OpCapability Int64"), "OpCapability PipeStorage\n");
  try {
    loadModule(assemble(text));
    FAIL() << "expected an unsupported capability";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("PipeStorage"), std::string::npos) << e.what();
  }
}

// Messages name ids as `spvsim dis` does: the OpName of the constant, not its number.
TEST(Loader, UnsupportedSpecConstantOpNamesItsResult) {
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %sum "sum"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
        %sum = OpSpecConstantOp %uint IAdd %uint_1 %uint_2
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  try {
    loadModule(assemble(text));
    FAIL() << "expected an unsupported OpSpecConstantOp";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_EQ(std::string(e.what()),
              "unsupported SPIR-V instruction OpSpecConstantOp OpIAdd (%sum)");
  }
}

TEST(Loader, AssemblerErrorsNameTheLine) {
  try {
    assemble("OpCapability Kernel\n%x = OpBogus\n");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(Disassembly, NamesOpcodesFromTheGrammar) {
  EXPECT_EQ(opcodeName(spv::Op::OpIAdd), "OpIAdd");
  EXPECT_EQ(opcodeName(spv::Op::OpSubgroupShuffleINTEL), "OpSubgroupShuffleINTEL");
  EXPECT_EQ(openclStdName(19), "exp");  // OpenCL.std.h: exp = 19
}

TEST(Validator, WidensOddIntegerTypesOnlyForValidation) {
  std::string text = kKernel;
  text.insert(text.find("%float = OpTypeFloat"), "%u2 = OpTypeInt 2 0\n");
  text.insert(text.find("OpCapability Int64"),
              "OpCapability ArbitraryPrecisionIntegersINTEL\n"
              "OpExtension \"SPV_INTEL_arbitrary_precision_integers\"\n");
  // The extension must follow all capabilities.
  std::string ext = "OpExtension \"SPV_INTEL_arbitrary_precision_integers\"\n";
  text.erase(text.find(ext), ext.size());
  text.insert(text.find("OpMemoryModel"), ext);
  Module m = loadModule(assemble(text));
  bool found = false;
  for (const auto& [id, t] : m.types)
    if (t.kind == TypeKind::Int && t.width == 2) found = true;
  EXPECT_TRUE(found) << "the decoded module keeps the real width";
}

}  // namespace
}  // namespace spvsim::spirv
