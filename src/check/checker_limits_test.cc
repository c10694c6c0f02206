// The race checker's state grows within LaunchOptions::maxMemory (src/exec/memory_limit.h,
// LaunchContext::observerMemory).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "spirv/error.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;
using testing::valueOf;

LaunchOptions racesWithin(uint64_t maxMemory) {
  LaunchOptions o;
  o.observers = check::observersFor({.races = true});
  o.maxMemory = maxMemory;
  o.threads = 1;
  return o;
}

// Reads of memory nobody writes cost the race checker little (runs of reads per
// instruction and page, no per-byte state): 16 work-groups summing a 4 MiB input, every
// element read once, fit a 16 MiB limit with no warning (per-byte state would take
// 44 bytes per byte, 176 MiB).
TEST(CheckerLimits, ReadsOfMemoryNobodyWritesFitASmallLimit) {
  auto prog = Program::load(compileOpenCL(R"(
    kernel void sums(global const int* in, global int* out, int n) {
      int s = 0;
      for (int i = get_global_id(0); i < n; i += get_global_size(0)) s += in[i];
      out[get_global_id(0)] = s;
    })"));
  const int n = 1 << 20;
  std::vector<int> in(n), out(256, 0), want(256, 0);
  for (int i = 0; i < n; ++i) in[i] = i % 7;
  for (int i = 0; i < n; ++i) want[i % 256] += in[i];
  const LaunchResult r = prog->launch(
      "sums", range1(256, 16), {bufferOf(in), bufferOf(out), valueOf(n)}, racesWithin(16ull << 20));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, want);
}

// Writes that are not a sub-group's contiguous run keep an entry per word written (24
// bytes per 4): every other element of an 8 MiB buffer written past a 16 MiB limit
// gives one warning that names the limit's two spellings and how much more it needs,
// and the results stay the kernel's; with a limit that leaves room, no warning: the
// budget follows the limit.
TEST(CheckerLimits, TheStateFollowsTheLimitAndSaysWhatToRaise) {
  auto prog = Program::load(compileOpenCL(
      "kernel void fill(global int* a) { a[2 * get_global_id(0)] = get_global_id(0); }"));
  const int n = 1 << 20;
  std::vector<int> want(2 * n, -1);
  for (int i = 0; i < n; ++i) want[2 * i] = i;
  for (uint64_t limit : {16ull << 20, 512ull << 20}) {
    std::vector<int> a(2 * n, -1);
    const LaunchResult r = prog->launch("fill", range1(n, 256), {bufferOf(a)}, racesWithin(limit));
    EXPECT_EQ(a, want);
    if (limit > (256ull << 20)) {
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      continue;
    }
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::OutOfMemory);
    EXPECT_EQ(d.severity, Severity::Warning);
    EXPECT_EQ(d.repeats, 0u);
    for (const char* part : {"--max-memory", "SPVSIM_MAX_MEMORY", "races may be missed",
                             "raise the limit by about", " MiB"})
      EXPECT_NE(d.message.find(part), std::string::npos) << part << " in " << d.message;
  }
}

// Every element of a 4 MiB buffer written once, each sub-group's lanes contiguous: one
// write run per 64-byte block (src/check/race_memory.h), which fits the 16 MiB limit
// that an entry per word (96 MiB) did not.
TEST(CheckerLimits, OutputWrittenOnceFitsASmallLimit) {
  auto prog = Program::load(
      compileOpenCL("kernel void fill(global int* a) { a[get_global_id(0)] = get_global_id(0); }"));
  const int n = 1 << 20;
  std::vector<int> a(n, -1), want(n);
  for (int i = 0; i < n; ++i) want[i] = i;
  const LaunchResult r =
      prog->launch("fill", range1(n, 256), {bufferOf(a)}, racesWithin(16ull << 20));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(a, want);
}

}  // namespace
}  // namespace spvsim
