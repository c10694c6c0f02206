// Read-only and write-only buffers end to end through `spvsim run`: `.sim` `ro` / `wo`
// and `--arg buffer:ro:` / `buffer:wo:`. A forbidden access is reported as an
// `access-violation` (exit 2) and performed, as on a device; a component store to a
// write-only vector buffer reports nothing and keeps the other components. Expected
// dumps are worked by hand from the kernels.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/cli/options.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

const char* kKernels = R"(
// data[i] doubled in place, then data[0] counted up: both writes to a read-only buffer.
kernel void twice(global int* data, global int* out) {
  size_t i = get_global_id(0);
  out[i] = data[i];
  data[i] = 2 * out[i];
  atomic_add(&data[0], 1);
}
// Two component stores to a write-only float4 buffer: no read of the kernel's.
kernel void parts(global float4* out) {
  size_t i = get_global_id(0);
  out[i].y = 42.0f;
  out[i].z = 7.0f;
}
)";

struct RunResult {
  int rc = 0;
  std::string out, err;
};

std::string kernelFile() {
  const std::string path = ::testing::TempDir() + "/access_flags.cl";
  std::ofstream(path) << kKernels;
  return path;
}

RunResult runSpvsim(std::vector<std::string> args) {
  CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  RunResult r;
  r.rc = runCommand(cl.options, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(AccessFlagsRun, SimFileReadOnlyWritesArePerformed) {
  kernelFile();
  for (const char* level : {"-O0", "-O2"}) {
    SCOPED_TRACE(level);
    const std::string sim = ::testing::TempDir() + "/twice.sim";
    std::ofstream(sim) << "access_flags.cl\ntwice\n4 1 1\n4 1 1\n"
                       << "<size=16 int range=1:1:4 ro dump>\n<size=16 int fill=0 dump>\n";
    RunResult r = runSpvsim({"run", sim, "--build-options", level});
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_EQ(occurrences(r.err, "error: access-violation: write of 4 bytes to a read-only buffer"),
              2u)
        << r.err;
    // 2 4 6 8, then data[0] + 4.
    EXPECT_EQ(r.out, "arg0 int[4] = 6 4 6 8\narg1 int[4] = 1 2 3 4\n") << r.err;
  }
}

TEST(AccessFlagsRun, ArgComponentStoresToWriteOnlyAreNoRead) {
  const std::string cl = kernelFile();
  for (const char* level : {"-O0", "-O2", "-O2 -g"}) {
    SCOPED_TRACE(level);
    RunResult r =
        runSpvsim({"run", cl, "--kernel", "parts", "--global", "2", "--build-options", level,
                   "--arg", "buffer:wo:float4[2]=values(1,2,3,4,5,6,7,8)", "--dump"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err.find("access-violation"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "arg0 float4[2] = (1,42,7,4) (5,42,7,8)\n") << r.err;
  }
}

TEST(AccessFlagsRun, SimFileComponentStoresToWriteOnlyAreNoRead) {
  kernelFile();
  const std::string sim = ::testing::TempDir() + "/parts.sim";
  std::ofstream(sim) << "access_flags.cl\nparts\n2 1 1\n2 1 1\n"
                     << "<size=32 float wo dump> 1 2 3 4 5 6 7 8\n";
  for (const char* level : {"-O0", "-O2"}) {
    SCOPED_TRACE(level);
    RunResult r = runSpvsim({"run", sim, "--build-options", level});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err.find("access-violation"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "arg0 float[8] = 1 42 7 4 5 42 7 8\n") << r.err;
  }
}

TEST(AccessFlagsRun, ArgWriteOnlyReadIsPerformed) {
  const std::string cl = kernelFile();
  // `twice` with data write-only: the two reads of it (line 4's load, the atomic) are
  // reported and read the values the buffer holds.
  RunResult r =
      runSpvsim({"run", cl, "--kernel", "twice", "--global", "4", "--local", "4", "--arg",
                 "buffer:wo:int[4]=values(1,2,3,4)", "--arg", "buffer:int[4]=zero", "--dump"});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("error: access-violation: read of 4 bytes from a write-only buffer"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "arg0 int[4] = 6 4 6 8\narg1 int[4] = 1 2 3 4\n") << r.err;
}

}  // namespace
}  // namespace spvsim::tools
