// Pipe arguments on the command line (--arg pipe:TYPE[N]=INIT) and in .sim files
// (<pipe=N ...>), end to end through `spvsim run` with --dump showing the packets left.
// Expected packets follow the OpenCL C rules: read_pipe on an empty pipe and write_pipe
// on a full one fail (negative), so a copy kernel moves min(items, packets, room)
// packets, each multiplied by 10 here; packets keep their order through a single
// work-item's reads and writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "spirv/error.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/options.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

const char* kCopy = R"(
kernel void copy(__read_only pipe int in, __write_only pipe int out, global int* st) {
  for (int i = 0; i < 6; ++i) {
    int v;
    st[i] = read_pipe(in, &v);
    if (st[i] == 0) {
      v *= 10;
      st[i] = write_pipe(out, &v);
    }
  }
}
)";

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

int run(std::vector<std::string> args, std::string& out, std::string& err) {
  CommandLine cl = parseCommandLine(args);
  std::ostringstream o, e;
  const int rc = runCommand(cl.options, o, e);
  out = o.str();
  err = e.str();
  return rc;
}

TEST(PipeArgs, Parse) {
  ArgValue empty = parseArgSpec("pipe:float4[8]");
  EXPECT_EQ(empty.kind, ArgValue::Kind::Pipe);
  EXPECT_EQ(empty.maxPackets, 8u);
  EXPECT_EQ(empty.type.size(), 16u);
  EXPECT_TRUE(empty.bytes.empty());
  ArgValue some = parseArgSpec("pipe:short[5]=values(1,2,3)");
  EXPECT_EQ(some.bytes, (std::vector<uint8_t>{1, 0, 2, 0, 3, 0}));
  ArgValue full = parseArgSpec("pipe:uchar[4]=range(7)");
  EXPECT_EQ(full.bytes, (std::vector<uint8_t>{7, 8, 9, 10}));
  EXPECT_THROW(parseArgSpec("pipe:int[2]=values(1,2,3)"), Error);   // more than the pipe holds
  EXPECT_THROW(parseArgSpec("pipe:int2[4]=values(1,2,3)"), Error);  // not whole packets
  EXPECT_THROW(parseArgSpec("pipe:int[0]"), Error);
}

TEST(PipeArgs, RunDumpsThePacketsLeft) {
  const std::string cl = writeFile("copy.cl", kCopy);
  std::string out, err;
  // 4 packets in, room for 3 out: the 4th write fails, the 5th and 6th reads find none.
  ASSERT_EQ(run({"run", cl, "--build-options=-cl-std=CL2.0", "--global", "1", "--arg",
                 "pipe:int[8]=values(1,2,3,4)", "--arg", "pipe:int[3]", "--arg", "buffer:int[6]",
                 "--dump"},
                out, err),
            0)
      << err;
  EXPECT_NE(out.find("arg0 pipe int[8] = (0 packets)"), std::string::npos) << out;
  EXPECT_NE(out.find("arg1 pipe int[3] = 10 20 30 (3 packets)"), std::string::npos) << out;
  EXPECT_NE(out.find("arg2 int[6] = 0 0 0 -1 -1 -1"), std::string::npos) << out;
}

// The message of the error a run stops with ("" when it runs).
std::string runError(std::vector<std::string> args) {
  std::string out, err;
  try {
    if (run(args, out, err) != 0) return err;
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(PipeArgs, ArgumentChecks) {
  const std::string cl = writeFile("copy2.cl", kCopy);
  const std::vector<std::string> base = {"run", cl, "--build-options=-cl-std=CL2.0", "--global",
                                         "1"};
  auto with = [&](const char* a0) {
    std::vector<std::string> v = base;
    for (const char* a : {a0, "pipe:int[3]", "buffer:int[6]"}) {
      v.push_back("--arg");
      v.push_back(a);
    }
    return v;
  };
  EXPECT_NE(runError(with("pipe:short[8]"))
                .find("packets of 4 bytes, but 'pipe:short[8]' has packets of 2 bytes"),
            std::string::npos);
  EXPECT_NE(runError(with("buffer:int[8]")).find("give a pipe"), std::string::npos);
}

TEST(PipeArgs, SimFile) {
  writeFile("copy3.cl", kCopy);
  const std::string sim = writeFile("copy3.sim",
                                    "copy3.cl\ncopy\n1 1 1\n1 1 1\n"
                                    "<pipe=8 size=8>\n5 6\n"
                                    "<pipe=4 dump>\n"
                                    "<size=24 int fill=9 dump>\n");
  std::string out, err;
  ASSERT_EQ(run({"run", sim, "--build-options=-cl-std=CL2.0"}, out, err), 0) << err;
  EXPECT_NE(out.find("arg1 pipe int[4] = 50 60 (2 packets)"), std::string::npos) << out;
  EXPECT_NE(out.find("arg2 int[6] = 0 0 -1 -1 -1 -1"), std::string::npos) << out;
}

}  // namespace
}  // namespace spvsim::tools
