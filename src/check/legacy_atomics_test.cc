// OpenCL 1.x atomics in llvm-spirv modules (spirv/legacy_atomics.h): atomic_inc on global
// memory arrives as a Workgroup-scope atomic with semantics 0 (SPIRV-LLVM-Translator
// issue 934). OpenCL 1.2 makes it device-wide, so a histogram over several work-groups
// is race-free: --check-races warns about the translation instead of reporting an error.
// A module that carries the front end's marker, or that another producer made, means
// Workgroup scope: there the same atomics are an insufficient-scope error.
#include <gtest/gtest.h>

#include <cstring>

#include "spirv/loader.h"
#include "spirv/producer.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;

// Raw llvm-spirv-15 output (clang-15 -cl-std=CL3.0 -O2, the toolchain notes' command
// line) of: kernel void histogram(global const uint* in, global uint* bins) {
//             atomic_inc(&bins[in[get_global_id(0)] % 16]); }
const char* kRaw = "src/exec/testdata/legacy_histogram.spv";
// The same kernel by hand, with the "spvsim:legacy-atomics=device" marker.
const char* kMarked = "src/exec/testdata/legacy_histogram_marked.spvasm";

constexpr uint32_t kTranslatorGenerator = (spirv::kLlvmSpirvTranslator << 16) | 14;

struct Histogram {
  std::vector<uint32_t> bins;
  LaunchResult result;
};

// 64 work-items with in[i] = i, in work-groups of `local`: every bin gets 4.
Histogram run(Program& p, uint64_t local, bool checkRaces) {
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = i;
  Histogram h{std::vector<uint32_t>(16, 0), {}};
  NDRange range;
  range.global = {64, 1, 1};
  range.local = {local, 1, 1};
  range.localGiven = true;
  LaunchOptions o;
  o.observers = check::observersFor({.races = checkRaces});
  o.threads = 1;
  h.result = p.launch("histogram", range, {bufferOf(in), bufferOf(h.bins)}, o);
  return h;
}

std::vector<const Diagnostic*> ofKind(const LaunchResult& r, const std::string& kind) {
  std::vector<const Diagnostic*> out;
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) out.push_back(&d);
  return out;
}

TEST(LegacyAtomics, RawTranslatorOutputIsMarked) {
  auto p = Program::load(spirv::readBinaryFile(kRaw));
  EXPECT_EQ(spirv::generatorTool(p->module().generator), spirv::kLlvmSpirvTranslator);
  EXPECT_EQ(p->module().possiblyLegacyAtomics.size(), 1u);
}

TEST(LegacyAtomics, HistogramOverWorkGroupsWarnsInsteadOfFailing) {
  auto p = Program::load(spirv::readBinaryFile(kRaw));
  Histogram h = run(*p, 16, true);
  EXPECT_EQ(h.bins, std::vector<uint32_t>(16, 4));
  EXPECT_FALSE(hasErrors(h.result.diagnostics));
  auto warnings = ofKind(h.result, "insufficient-scope");
  ASSERT_FALSE(warnings.empty());
  for (const Diagnostic* d : warnings) {
    EXPECT_EQ(d->severity, Severity::Warning);
    EXPECT_NE(d->message.find("SPIRV-LLVM-Translator issue 934"), std::string::npos) << d->message;
    EXPECT_NE(d->message.find("treated as Device scope"), std::string::npos) << d->message;
  }
}

TEST(LegacyAtomics, OneWorkGroupNeedsNoWarning) {
  // Workgroup scope already includes every work-item that touches a bin.
  auto p = Program::load(spirv::readBinaryFile(kRaw));
  Histogram h = run(*p, 64, true);
  EXPECT_EQ(h.bins, std::vector<uint32_t>(16, 4));
  EXPECT_TRUE(h.result.diagnostics.empty());
}

TEST(LegacyAtomics, MarkedModuleKeepsWorkgroupScope) {
  std::vector<uint32_t> words = spirv::assemble(testing::readFile(kMarked));
  words[2] = kTranslatorGenerator;  // as llvm-spirv would: only the marker differs
  auto p = Program::load(words);
  EXPECT_TRUE(p->module().possiblyLegacyAtomics.empty());
  Histogram h = run(*p, 16, true);
  EXPECT_EQ(h.bins, std::vector<uint32_t>(16, 4));  // executed device-wide regardless
  auto errors = ofKind(h.result, "insufficient-scope");
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0]->severity, Severity::Error);
  EXPECT_EQ(errors[0]->message.find("issue 934"), std::string::npos) << errors[0]->message;
}

TEST(LegacyAtomics, OtherProducersKeepWorkgroupScope) {
  // The marked text minus its marker, assembled (generator: SPIR-V Tools Assembler).
  std::string text = testing::readFile(kMarked);
  const std::string marker = "OpSourceExtension \"spvsim:legacy-atomics=device\"";
  text.erase(text.find(marker), marker.size());
  auto p = Program::load(spirv::assemble(text));
  EXPECT_TRUE(p->module().possiblyLegacyAtomics.empty());
  EXPECT_TRUE(hasErrors(run(*p, 16, true).result.diagnostics));
}

TEST(LegacyAtomics, ExplicitWorkGroupScopeAtomicsAreNotLegacy) {
  // C11-style atomics name their scope; memory_order_relaxed with memory_scope_device
  // compiles to Device scope, which needs nothing, and the module marks nothing.
  auto p = Program::load(testing::compileOpenCL(R"(
kernel void histogram(global const uint* in, global atomic_uint* bins) {
  atomic_fetch_add_explicit(&bins[in[get_global_id(0)] % 16], 1u, memory_order_relaxed,
                            memory_scope_device);
})"));
  EXPECT_TRUE(p->module().possiblyLegacyAtomics.empty());
  Histogram h = run(*p, 16, true);
  EXPECT_EQ(h.bins, std::vector<uint32_t>(16, 4));
  EXPECT_TRUE(h.result.diagnostics.empty());
}

}  // namespace
}  // namespace spvsim
