// SPVSIM_CHECKS=races under SPVSIM_MAX_MEMORY: the race checker's state grows within the
// limit. Reads of buffers nobody writes fit a small limit; per-word state for writes
// past it gives one out-of-memory warning that names SPVSIM_MAX_MEMORY, and the kernel's
// results are unchanged. The knobs are read once, so this binary sets them first.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)
#include <cstdlib>

namespace spvsim::rt::test {
namespace {

std::string diagnosticsPath() { return ::testing::TempDir() + "/race_budget_test.diagnostics"; }

const bool kKnobsSet = [] {
  setenv("SPVSIM_MAX_MEMORY", "16M", 1);
  setenv("SPVSIM_CHECKS", "races", 1);
  setenv("SPVSIM_DIAGNOSTICS", diagnosticsPath().c_str(), 1);
  return true;
}();

constexpr const char* kKernels = R"(
kernel void sums(global const int* in, global int* out, int n) {
  int s = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) s += in[i];
  out[get_global_id(0)] = s;
}
kernel void fill(global int* a) { a[2 * get_global_id(0)] = get_global_id(0); }
)";

class RaceBudget : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    std::remove(diagnosticsPath().c_str());
    program = built(kKernels);
  }
  cl_program program = nullptr;
};

// 256 work-items read each element of a 4 MiB buffer once.
TEST_F(RaceBudget, ReadsOfABufferNobodyWritesFitTheLimit) {
  const int n = 1 << 20;
  std::vector<int> in(n), want(256, 0);
  for (int i = 0; i < n; ++i) in[i] = i % 5;
  for (int i = 0; i < n; ++i) want[i % 256] += in[i];
  cl_kernel k = kernel(program, "sums");
  cl_mem input = bufferOf(in), out = buffer(256 * sizeof(int));
  setArg(k, 0, input);
  setArg(k, 1, out);
  setArg(k, 2, cl_int{n});
  run(k, 256, 16);
  EXPECT_EQ(read<int>(out, 256), want);
  EXPECT_EQ(readFile(diagnosticsPath()), "");
}

// Every other element of an 8 MiB buffer written (not a contiguous run: an entry per word,
// 24 bytes per 4, plus the blocks'), past the limit.
TEST_F(RaceBudget, WritesPastTheLimitWarnOnceNamingIt) {
  const int n = 1 << 20;
  cl_kernel k = kernel(program, "fill");
  cl_mem a = bufferOf(std::vector<int>(2 * n, -1));
  setArg(k, 0, a);
  run(k, n, 256);
  std::vector<int> want(2 * n, -1);
  for (int i = 0; i < n; ++i) want[2 * i] = i;
  EXPECT_EQ(read<int>(a, 2 * n), want);
  const std::string log = readFile(diagnosticsPath());
  EXPECT_EQ(log.rfind("warning: out-of-memory: the race checker's state", 0), 0u) << log;
  EXPECT_NE(log.find("SPVSIM_MAX_MEMORY"), std::string::npos) << log;
  EXPECT_EQ(log.find("warning: out-of-memory", 1), std::string::npos) << log;  // once
  EXPECT_EQ(log.find("error:"), std::string::npos) << log;
}

}  // namespace
}  // namespace spvsim::rt::test
