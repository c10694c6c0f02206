// .sim files end to end through `spvsim run`: a struct passed by value in both of the
// file's forms, and size=0 buffers (a valid, empty object: any access is out of bounds).
// Expected dumps are worked by hand from the kernel.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "spirv/error.h"
#include "tools/cli/options.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

const char* kKernel = R"(
typedef struct { int a; float b; short c; } S;
kernel void k(S s, global float* out, global int* empty, int touch) {
  out[get_global_id(0)] = s.a + s.b * get_global_id(0) + s.c;
  if (touch) out[0] = empty[0];
}
)";

struct SimRun {
  int rc = 0;
  std::string out, err;
};

SimRun runSim(const std::string& name, const std::string& args) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/sim_struct.cl") << kKernel;
  std::ofstream(dir + "/" + name) << "sim_struct.cl\nk\n3 1 1\n1 1 1\n" << args;
  CommandLine cl = parseCommandLine({"run", dir + "/" + name});
  std::ostringstream out, err;
  SimRun r;
  r.rc = runCommand(cl.options, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// out[i] = 3 + 2.5 i + 7.
constexpr const char* kDump = "arg1 float[3] = 10 12.5 15\n";

TEST(SimFileRun, StructMemberByMember) {
  SimRun r = runSim("members.sim",
                    "<struct=int,float,short> 3 2.5 7\n<size=12 float fill=0 dump>\n"
                    "<size=0 int>\n<size=4 int> 0\n");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, kDump);
}

TEST(SimFileRun, StructAsOclgrindBytes) {
  // 1075838976 is 0x40200000, the bits of 2.5f; the last int holds c (7) and padding.
  SimRun r = runSim("bytes.sim",
                    "<size=12 int> 3 1075838976 7\n<size=12 float fill=0 dump>\n"
                    "<size=0 int>\n<size=4 int> 0\n");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, kDump);
}

TEST(SimFileRun, StructOfTheWrongSizeIsRefused) {
  try {
    runSim("short.sim",
           "<size=8 int> 3 7\n<size=12 float fill=0 dump>\n<size=0 int>\n<size=4 int> 0\n");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "argument 0 (s) is 'S s' (12 bytes) but '<size=8 int>' gives 8 bytes as int values");
  }
}

TEST(SimFileRun, EmptyBufferAccessIsOutOfBounds) {
  SimRun r = runSim("empty.sim",
                    "<struct=int,float,short> 3 2.5 7\n<size=12 float fill=0>\n"
                    "<size=0 int dump>\n<size=4 int> 1\n");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("out-of-bounds: read of 4 bytes at byte offset 0 of argument 2 (empty) "
                       "(global memory, 0 bytes)"),
            std::string::npos)
      << r.err;
}

// size=0 with fill=, range= or noinit runs as a plain empty buffer does (fill=0 crashed).
TEST(SimFileRun, EmptyBufferWithAnInitialiserRuns) {
  for (const char* header : {"<size=0 int fill=0 dump>", "<size=0 fill=5 dump>",
                             "<size=0 int range=1:1:0 dump>", "<size=0 int noinit dump>"}) {
    SCOPED_TRACE(header);
    SimRun r = runSim("empty_fill.sim", std::string("<struct=int,float,short> 3 2.5 7\n"
                                                    "<size=12 float fill=0 dump>\n") +
                                            header + "\n<size=4 int> 0\n");
    EXPECT_EQ(r.rc, 0) << r.err;
    // The header without a type takes the parameter's (int).
    EXPECT_EQ(r.out, std::string(kDump) + "arg2 int[0] = \n");
  }
}

}  // namespace
}  // namespace spvsim::tools
