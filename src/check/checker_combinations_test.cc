// The uninitialised-read and undefined-value checkers together report exactly what each
// reports alone. They answer different questions about the same private and local
// memory (which bytes were never written; which hold undefined values), so each keeps its
// own shadow: a byte written with an undefined value is written (issue 33: with both on,
// the undefined-value checker's shadow of such a store made the other report a read of
// "never written" bytes). Each kernel runs at -O0 and -O2 with each checker alone and
// with both; the expected reports of the single runs are worked by hand below.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/compiler/compile_driver.h"
#include "src/exec/program.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;

const char* kKernels = R"(
// Oclgrind's bugs/gvn_arbitrary_integers shape: a 3-component vector, all of it written
// (16 bytes with its padding), one component replaced, stored with vstore3 (12 bytes).
kernel void third_component(global const int* in, global int* out) {
  size_t g = get_global_id(0);
  int3 v = (int3)(0);
  v.z = in[g];
  vstore3(v, g, out);
}

// x is written only where in[g] > 100. At -O0, `y = x` reads x from private memory
// (unwritten on the other lanes) and writes the undefined value into y, which is then
// read back (written, so no uninitialised read) and stored to global memory.
kernel void maybe_set(global const int* in, global int* out) {
  size_t g = get_global_id(0);
  int x;
  int y;
  if (in[g] > 100) x = in[g];
  y = x;
  out[g] = y + 1;
}

// Lanes 0..7 write tile[0..7]; after the barrier lane l reads tile[15 - l]: lanes 0..7
// read the half nobody wrote and store it to global memory.
kernel void local_half(global int* out) {
  local int tile[16];
  int l = get_local_id(0);
  if (l < 8) tile[l] = l * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[15 - l];
}

// A struct with padding copied whole, then read member by member: the copy carries the
// padding's state without reading it.
typedef struct { char c; int x; } Padded;
__attribute__((noinline)) void copyPadded(Padded* d, const Padded* s) { *d = *s; }
kernel void padded_copy(global const int* in, global int* out) {
  size_t g = get_global_id(0);
  Padded s, t;
  s.c = 1;
  s.x = in[g];
  copyPadded(&t, &s);
  out[g] = t.x + t.c;
}
)";

constexpr uint64_t kItems = 16;

// One diagnostic as text, every field a report carries.
std::string text(const Diagnostic& d) {
  std::string lanes;
  for (uint32_t l : d.lanes) lanes += std::to_string(l) + ",";
  return std::string(d.severity == Severity::Error ? "error " : "warning ") +
         std::string(kindName(d.kind)) + " sg " + std::to_string(d.subGroup.value_or(~0u)) +
         " lanes " + lanes + " x" + std::to_string(1 + d.repeats) + " at " + d.instruction + ": " +
         d.message;
}

struct Reports {
  std::vector<std::string> all;
  LaunchResult result;
};

Reports run(Program& p, const char* kernel, check::Checks checks) {
  std::vector<int> in(kItems), out(3 * kItems, -1);
  for (uint64_t i = 0; i < kItems; ++i) in[i] = i % 3 == 0 ? int(200 + i) : int(i);
  LaunchOptions o;
  o.subGroupSize = 16;
  o.threads = 1;
  o.observers = check::observersFor(checks);
  std::vector<ArgBinding> args;
  if (std::string(kernel) != "local_half") args.push_back(bufferOf(in));
  args.push_back(bufferOf(out));
  Reports r;
  r.result = p.launch(kernel, range1(kItems, kItems), args, o);
  for (const Diagnostic& d : r.result.diagnostics) r.all.push_back(text(d));
  std::sort(r.all.begin(), r.all.end());
  return r;
}

// The lanes of the one diagnostic of kind `k` (none: empty).
std::vector<uint32_t> lanesOf(const LaunchResult& r, DiagnosticKind k) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.kind == k) return d.lanes;
  return {};
}

size_t count(const LaunchResult& r, DiagnosticKind k) {
  return std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                       [&](const Diagnostic& d) { return d.kind == k; });
}

// Lanes whose in[g] <= 100 (x never written): g % 3 != 0.
const std::vector<uint32_t> kUnset{1, 2, 4, 5, 7, 8, 10, 11, 13, 14};
const std::vector<uint32_t> kLowHalf{0, 1, 2, 3, 4, 5, 6, 7};

TEST(CheckerCombinations, BothReportWhatEachReportsAlone) {
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(
        compiler::compileOpenCL({.source = kKernels, .options = opt, .useCache = false}).words);
    for (const char* kernel : {"third_component", "maybe_set", "local_half", "padded_copy"}) {
      SCOPED_TRACE(std::string(kernel) + " " + opt);
      const Reports reads = run(*prog, kernel, {.uninitialized = true});
      const Reports values = run(*prog, kernel, {.undefinedValues = true});
      const Reports both = run(*prog, kernel, {.uninitialized = true, .undefinedValues = true});
      std::vector<std::string> either = reads.all;
      either.insert(either.end(), values.all.begin(), values.all.end());
      std::sort(either.begin(), either.end());
      EXPECT_EQ(both.all, either) << "both:\n"
                                  << describe(both.result) << "alone:\n"
                                  << describe(reads.result) << describe(values.result);

      const std::string k = kernel;
      // padded_copy at -O2: the copy becomes one 8-byte load and store, and the
      // read-level checker reports the load's 3 padding bytes (not this test's concern).
      if (k == "third_component" || (k == "padded_copy" && std::string(opt) == "-O0")) {
        EXPECT_TRUE(reads.all.empty()) << describe(reads.result);
        EXPECT_TRUE(values.all.empty()) << describe(values.result);
      } else if (k == "local_half") {
        EXPECT_EQ(count(reads.result, DiagnosticKind::UninitializedRead), 1u);
        EXPECT_EQ(lanesOf(reads.result, DiagnosticKind::UninitializedRead), kLowHalf);
        EXPECT_EQ(count(values.result, DiagnosticKind::UninitializedValue), 1u);
        EXPECT_EQ(lanesOf(values.result, DiagnosticKind::UninitializedValue), kLowHalf);
      } else if (std::string(opt) == "-O0") {  // maybe_set; -O2 keeps x in a register
        EXPECT_EQ(reads.all.size(), 1u) << describe(reads.result);
        EXPECT_EQ(lanesOf(reads.result, DiagnosticKind::UninitializedRead), kUnset);
        EXPECT_EQ(count(values.result, DiagnosticKind::UninitializedValue), 1u);
        EXPECT_EQ(lanesOf(values.result, DiagnosticKind::UninitializedValue), kUnset);
      }
    }
  }
}

// Two observers that each rewrite the kernel (the undefined-value checker, a profile,
// spvsim check's tangle recorder; here the checker twice) cannot share a launch: each
// finds its rules by casting the launch's kernel to its own type. The launch refuses,
// loudly, before running.
TEST(CheckerCombinations, TwoKernelRewritersInOneLaunchAreRefused) {
  auto prog = Program::load(
      compiler::compileOpenCL({.source = kKernels, .options = "-O2", .useCache = false}).words);
  std::vector<int> in(kItems, 1), out(kItems * 4, 0);
  LaunchOptions o;
  o.threads = 1;
  o.observers = check::observersFor({.undefinedValues = true});
  o.observers.push_back(o.observers.back());
  try {
    prog->launch("maybe_set", range1(kItems, kItems), {bufferOf(in), bufferOf(out)}, o);
    FAIL() << "expected an internal error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Internal);
    EXPECT_NE(std::string(e.what()).find("rewrite its kernel"), std::string::npos) << e.what();
  }
  EXPECT_EQ(out, std::vector<int>(kItems * 4, 0));  // nothing ran
}

}  // namespace
}  // namespace spvsim
