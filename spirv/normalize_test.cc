// spirv/normalize.h: each repair rule on a module that needs it (the validator refuses the
// module as written, accepts it repaired, and the repair is reported once), clean modules
// untouched, and arbitrary words never crashing the repairs. Running the repaired modules
// is src/exec/repairs_test.cc's part.
#include "spirv/normalize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "spirv/binary.h"
#include "spirv/error.h"
#include "spirv/loader.h"
#include "spirv/producer.h"
#include "spirv/repair_test_modules.h"
#include "spirv/validator.h"

namespace spvsim::spirv {
namespace {

namespace tm = testmodules;

constexpr uint32_t kVersion10 = 0x00010000;
constexpr const char* kAssembler = "Khronos SPIR-V Tools Assembler";

std::string ruleStartingWith(const std::string& prefix) {
  for (const std::string& r : repairRuleNames())
    if (r.rfind(prefix, 0) == 0) return r;
  ADD_FAILURE() << "no rule " << prefix;
  return "";
}

std::string validationError(const std::vector<uint32_t>& words) {
  try {
    validate(words);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The module as written is refused with `why`, repaired by exactly `rule` (count times),
// then valid; loadModule reports the same repair.
Module expectRepaired(const std::vector<uint32_t>& words, const std::string& rule, uint32_t count,
                      const std::string& why) {
  EXPECT_NE(validationError(words).find(why), std::string::npos) << validationError(words);
  NormalizedModule n = normalizeModule(words);
  EXPECT_EQ(validationError(n.words), "");
  EXPECT_EQ(n.repairs.size(), 1u);
  if (!n.repairs.empty()) {
    EXPECT_EQ(n.repairs[0].rule, rule);
    EXPECT_EQ(n.repairs[0].count, count);
    EXPECT_EQ(n.repairs[0].producer, kAssembler);
  }
  Module m = loadModule(words);
  EXPECT_EQ(m.repairs.size(), 1u);
  return m;
}

TEST(RepairBlockOrder, LaysTheExitOutAfterTheLoopThatDominatesIt) {
  std::vector<uint32_t> words = assemble(tm::kBlockOrder);
  Module m = expectRepaired(words, ruleStartingWith("block order"), 1, "has not been defined");
  // entry, then the loop (it starts with its phi), then the exit (it returns).
  const Function& f = *m.findFunction(m.entryPoints[0].function);
  ASSERT_EQ(f.blocks.size(), 3u);
  EXPECT_EQ(f.blocks[1].instructions.front().opcode, spv::Op::OpPhi);
  EXPECT_EQ(f.blocks[2].instructions.back().opcode, spv::Op::OpReturn);
}

// `global int* ps[2] = {&x, &x};` as llvm-spirv-15 writes it: the variable itself as a
// constituent of the array's constant initialiser.
TEST(RepairConstantVariablePointers, VariableConstituentsBecomeConstantBitcasts) {
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_5 = OpConstant %uint 5
    %ulong_2 = OpConstant %ulong 2
         %pg = OpTypePointer CrossWorkgroup %uint
        %arr = OpTypeArray %pg %ulong_2
       %parr = OpTypePointer CrossWorkgroup %arr
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %x = OpVariable %pg CrossWorkgroup %uint_5
       %init = OpConstantComposite %arr %x %x
         %ps = OpVariable %parr CrossWorkgroup %init
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)";
  expectRepaired(assemble(text), ruleStartingWith("constant composites"), 2,
                 "is not a constant or undef");
}

TEST(RepairPhiPredecessors, OneEntryPerPredecessorBlock) {
  Module m =
      expectRepaired(assemble(tm::kPhiPredecessors), ruleStartingWith("phi entries"), 1, "OpPhi");
  const Function& f = *m.findFunction(m.entryPoints[0].function);
  const Instruction& phi = f.blocks.back().instructions.front();
  ASSERT_EQ(phi.opcode, spv::Op::OpPhi);
  EXPECT_EQ(phi.operands.size(), 4u);  // (7, entry), (9, other)
}

TEST(RepairFunctionVariables, MovesVariablesFirstAndKeepsInitialisersInPlace) {
  std::vector<uint32_t> words = assemble(tm::kFunctionVariables);
  Module m = expectRepaired(words, ruleStartingWith("function variables"), 3, "Variable");
  const Function& f = *m.findFunction(m.entryPoints[0].function);
  const auto& first = f.blocks[0].instructions;
  ASSERT_GE(first.size(), 4u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(first[k].opcode, spv::Op::OpVariable) << k;
    EXPECT_EQ(first[k].operands.size(), 1u) << "no initializer left on the variable";
  }
  // The loop block begins with its phi, then stores the initializer where %v was.
  const auto& loop = f.blocks[1].instructions;
  ASSERT_GE(loop.size(), 3u);
  EXPECT_EQ(loop[0].opcode, spv::Op::OpPhi);
  EXPECT_EQ(loop[1].opcode, spv::Op::OpStore);
  EXPECT_EQ(loop[2].opcode, spv::Op::OpLoad);
}

TEST(RepairEntryPointInterfaces, ListsEveryVariableTheCallTreeUses) {
  std::vector<uint32_t> words = assemble(tm::kInterfaces);  // SPIR-V 1.6: all variables
  Module m = expectRepaired(words, ruleStartingWith("entry-point interfaces"), 2,
                            "is not listed as an interface");
  std::vector<Id> listed = m.entryPoints[0].interface;
  std::sort(listed.begin(), listed.end());
  std::vector<Id> all;
  for (const Variable& v : m.globalVariables) all.push_back(v.id);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(listed, all);
}

TEST(RepairEntryPointInterfaces, BeforeSpirv14OnlyInputAndOutputVariables) {
  std::vector<uint32_t> words = assemble(tm::kInterfaces);
  words[1] = kVersion10;
  Module m = expectRepaired(words, ruleStartingWith("entry-point interfaces"), 1,
                            "is not listed as an interface");
  ASSERT_EQ(m.entryPoints[0].interface.size(), 1u);
  EXPECT_EQ(m.variables.at(m.entryPoints[0].interface[0]).storage, spv::StorageClass::Input);
}

TEST(RepairEntryPointInterfaces, ReusableOnWords) {
  std::vector<uint32_t> words = assemble(tm::kInterfaces);
  uint32_t added = 0;
  std::vector<uint32_t> fixed = withEntryPointInterfaces(words, &added);
  EXPECT_EQ(added, 2u);
  EXPECT_EQ(validationError(fixed), "");
  withEntryPointInterfaces(fixed, &added);
  EXPECT_EQ(added, 0u);
  EXPECT_EQ(withEntryPointInterfaces({1, 2, 3}, &added), (std::vector<uint32_t>{1, 2, 3}));
}

TEST(RepairMergeInstructions, DropsMisplacedAndConflictingMergesOnly) {
  std::vector<uint32_t> words = assemble(tm::kMergeInstructions);
  Module m = expectRepaired(words, ruleStartingWith("merge instructions"), 2,
                            "is already a merge block for another header");
  size_t merges = 0;
  for (const Block& b : m.functions[0].blocks)
    for (const Instruction& i : b.instructions)
      if (i.opcode == spv::Op::OpLoopMerge || i.opcode == spv::Op::OpSelectionMerge) ++merges;
  EXPECT_EQ(merges, 1u) << "the entry's valid OpSelectionMerge stays";
}

TEST(RepairMergeInstructions, ShaderModulesKeepTheirMerges) {
  // Structured control flow is meaningful there: no repair, the validator decides.
  std::string text = tm::kMergeInstructions;
  text.replace(text.find("OpCapability Kernel"), 19, "OpCapability Shader");
  for (const Repair& r : normalizeModule(assemble(text)).repairs)
    EXPECT_NE(r.rule, ruleStartingWith("merge instructions"));
}

TEST(RepairVectorSelect, SplatsScalarConditionsBeforeSpirv14) {
  std::vector<uint32_t> words = assemble(tm::kVectorSelect);
  words[1] = kVersion10;
  Module m = expectRepaired(words, ruleStartingWith("vector OpSelect"), 2,
                            "Expected vector sizes of Result Type and the condition to be equal");
  // The existing bool4 is reused; one bool3 is added.
  int bool4 = 0, bool3 = 0;
  for (const auto& [id, t] : m.types)
    if (t.kind == TypeKind::Vector && m.type(t.element).kind == TypeKind::Bool)
      (t.count == 4 ? bool4 : bool3) += 1;
  EXPECT_EQ(bool4, 1);
  EXPECT_EQ(bool3, 1);
}

TEST(RepairVectorSelect, ValidFromSpirv14AsWritten) {
  std::vector<uint32_t> words = assemble(tm::kVectorSelect);
  words[1] = 0x00010400;
  EXPECT_EQ(validationError(words), "");
  EXPECT_TRUE(normalizeModule(words).repairs.empty());
}

TEST(Select, CompositesNeedSpirv14) {
  // Whole structs and arrays are valid OpSelect objects from 1.4 on; before, the
  // validator refuses them and no rule repairs that.
  std::vector<uint32_t> words = assemble(tm::kCompositeSelect);
  EXPECT_EQ(validationError(words), "");
  words[1] = kVersion10;
  EXPECT_TRUE(normalizeModule(words).repairs.empty());
  EXPECT_NE(validationError(words).find("Expected"), std::string::npos) << validationError(words);
}

const char* kClean = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
       %void = OpTypeVoid
     %ptr_in = OpTypePointer Input %v3ulong
      %ptr_g = OpTypePointer CrossWorkgroup %ulong
      %ptr_f = OpTypePointer Function %ulong
     %fntype = OpTypeFunction %void %ptr_g
        %gid = OpVariable %ptr_in Input
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_g
      %entry = OpLabel
          %v = OpVariable %ptr_f Function
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
               OpStore %v %i
               OpBranch %next
       %next = OpLabel
          %x = OpLoad %ulong %v
          %p = OpInBoundsPtrAccessChain %ptr_g %out %i
               OpStore %p %x Aligned 8
               OpReturn
               OpFunctionEnd
)";

TEST(Normalize, CleanModulesComeBackUnchanged) {
  for (uint32_t version : {0x00010000u, 0x00010300u, 0x00010400u, 0x00010600u}) {
    std::vector<uint32_t> words = assemble(kClean);
    words[1] = version;
    NormalizedModule n = normalizeModule(words);
    EXPECT_TRUE(n.repairs.empty()) << std::hex << version;
    EXPECT_EQ(n.words, words);
    EXPECT_TRUE(loadModule(words).repairs.empty());
  }
}

TEST(Normalize, ProducerComesFromTheGeneratorWord) {
  EXPECT_EQ(producerName((6u << 16) | 14), "Khronos LLVM/SPIR-V Translator");
  EXPECT_EQ(producerName(7u << 16), kAssembler);
  EXPECT_EQ(producerName(21u << 16), "Google Clspv");
  EXPECT_EQ(producerName(999u << 16), "generator 999");
  std::vector<uint32_t> words = assemble(tm::kBlockOrder);
  words[2] = (6u << 16) | 14;
  NormalizedModule n = normalizeModule(words);
  ASSERT_EQ(n.repairs.size(), 1u);
  EXPECT_EQ(n.repairs[0].producer, "Khronos LLVM/SPIR-V Translator");
}

TEST(Normalize, SeveralRulesReportOnceEachInOrder) {
  // The merge module with %check laid out before %loop, its dominator, needs two rules.
  std::string text = tm::kMergeInstructions;
  const size_t check = text.find("      %check = OpLabel");
  const std::string checkBlock = text.substr(check, text.find("       %exit = OpLabel") - check);
  text.erase(check, checkBlock.size());
  text.insert(text.find("       %loop = OpLabel"), checkBlock);
  NormalizedModule n = normalizeModule(assemble(text));
  ASSERT_EQ(n.repairs.size(), 2u);
  EXPECT_EQ(n.repairs[0].rule, ruleStartingWith("merge instructions"));
  EXPECT_EQ(n.repairs[1].rule, ruleStartingWith("block order"));
  EXPECT_EQ(validationError(n.words), "");
}

TEST(Normalize, ArbitraryWordsNeverCrashTheRepairs) {
  // Every module above, with words replaced, truncated or their counts broken: the
  // repairs either understand the result or leave it for the validator.
  const char* modules[] = {
      tm::kBlockOrder,   tm::kFunctionVariables, tm::kInterfaces, tm::kMergeInstructions,
      tm::kVectorSelect, tm::kCompositeSelect,   tm::kOddWidths,  kClean};
  std::mt19937 rng(1234);
  for (const char* text : modules) {
    const std::vector<uint32_t> original = assemble(text);
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<uint32_t> words = original;
      const int edits = 1 + trial % 3;
      for (int e = 0; e < edits; ++e) {
        const size_t at = 5 + rng() % (words.size() - 5);
        switch (rng() % 4) {
          case 0:
            words[at] = rng();
            break;
          case 1:
            words[at] = (words[at] & 0xffff0000u) | (rng() % 400);
            break;  // opcode
          case 2:
            words[at] = words[at] % 64;
            break;  // small ids and counts
          default:
            words.resize(at);
            break;
        }
        if (words.size() <= 5) break;
      }
      NormalizedModule n = normalizeModule(words);
      if (n.repairs.empty()) {
        EXPECT_EQ(n.words, words);
      }
      try {
        loadModule(words);
      } catch (const Error&) {
      }
    }
  }
}

TEST(Validator, UniversalEnvironmentOfTheModulesVersion) {
  EXPECT_EQ(targetEnvironmentName(0x00010000), "SPIR-V 1.0");
  EXPECT_EQ(targetEnvironmentName(0x00010200), "SPIR-V 1.2");
  EXPECT_EQ(targetEnvironmentName(0x00010500), "SPIR-V 1.5");
}

TEST(Validator, Int64AtomicsAndFloat16InSpirv10) {
  // cl_khr_int64_base_atomics and cl_khr_fp16 kernels (the OpenCL 2.2 environment
  // refuses these capabilities).
  std::string text = kClean;
  text.insert(text.find("OpMemoryModel"), "OpCapability Int64Atomics\nOpCapability Float16\n");
  text.insert(text.find("       %void"), "%half = OpTypeFloat 16\n");
  text.insert(text.find("               OpReturn"),
              "%old = OpAtomicIIncrement %ulong %out %uint_1 %uint_0\n");
  text.insert(text.find("       %void"),
              "%uint = OpTypeInt 32 0\n%uint_0 = OpConstant %uint 0\n"
              "%uint_1 = OpConstant %uint 1\n");
  std::vector<uint32_t> words = assemble(text);
  words[1] = kVersion10;
  EXPECT_EQ(validationError(words), "");
  Module m = loadModule(words);
  EXPECT_NE(std::find(m.capabilities.begin(), m.capabilities.end(), spv::Capability::Int64Atomics),
            m.capabilities.end());
}

TEST(Validator, OddIntegerWidthsValidateAsStandardOnes) {
  // i4 with i8/i16/i32 declared: the validated copy aliases it to i8 and turns the
  // i4 -> i8 conversion that becomes i8 -> i8 into a copy.
  std::vector<uint32_t> words = assemble(tm::kOddWidths);
  EXPECT_EQ(validationError(words), "");
  std::optional<Binary> copy = parseBinary(validationCopy(words));
  ASSERT_TRUE(copy);
  for (const BinaryInstruction& i : copy->code)
    if (i.op == spv::Op::OpTypeInt) {
      EXPECT_NE(i.word(2), 4u);
    }
  Module m = loadModule(words);
  bool four = false;
  for (const auto& [id, t] : m.types) four |= t.kind == TypeKind::Int && t.width == 4;
  EXPECT_TRUE(four) << "the decoded module keeps the real width";
}

TEST(Validator, WiderThan64BitsIsUnsupportedByName) {
  std::string text = tm::kOddWidths;
  text.insert(text.find("       %void"), "%u128 = OpTypeInt 128 0\n");
  try {
    loadModule(assemble(text));
    FAIL() << "a 128-bit integer type was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("128-bit integers"), std::string::npos) << e.what();
  }
}

TEST(Parser, OtherSpecConstantOpsAreUnsupportedByName) {
  std::string text = kClean;
  text.insert(text.find("       %void"),
              "%c1 = OpConstant %ulong 1\n%sum = OpSpecConstantOp %ulong IAdd %c1 %c1\n");
  try {
    loadModule(assemble(text));
    FAIL() << "OpSpecConstantOp IAdd accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("OpSpecConstantOp OpIAdd"), std::string::npos) << e.what();
  }
}

TEST(Parser, DecorateStringUniformAndOptNone) {
  std::string text = kClean;
  text.insert(text.find("OpMemoryModel"),
              "OpCapability UniformDecoration\nOpCapability OptNoneINTEL\n"
              "OpExtension \"SPV_INTEL_optnone\"\n");
  text.insert(text.find("      %ulong"),
              "OpDecorateString %out UserSemantic \"weights\"\n"
              "OpMemberDecorateString %pair 0 UserSemantic \"first\"\n"
              "OpDecorate %i Uniform\nOpDecorateId %x UniformId %scope\n");
  text.insert(text.find("       %void"),
              "%uint = OpTypeInt 32 0\n%scope = OpConstant %uint 3\n"
              "%pair = OpTypeStruct %ulong %ulong\n");
  text.replace(text.find("OpFunction %void None"), 21, "OpFunction %void OptNoneINTEL");
  Module m = loadModule(assemble(text));
  const Function& f = *m.findFunction(m.entryPoints[0].function);
  const Decoration* d = m.findDecoration(f.params[0], spv::Decoration::UserSemantic);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->text, "weights");
  bool member = false;
  for (const auto& [key, ds] : m.memberDecorations)
    for (const Decoration& md : ds) member |= md.text == "first";
  EXPECT_TRUE(member);
}

}  // namespace
}  // namespace spvsim::spirv
