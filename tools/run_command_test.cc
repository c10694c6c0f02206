#include "tools/run_command.h"

#include <gtest/gtest.h>

#include "tools/options.h"

namespace spvsim::tools {
namespace {

TEST(Stats, LineReportsCountsAndRate) {
  LaunchResult r;
  r.subGroupSize = 16;
  r.subGroupSteps = 1000;
  r.laneInstructions = 16000;
  // 16000 lane instructions in 0.5 s = 32000 per second.
  EXPECT_EQ(formatStats(r, 0.5),
            "stats: launch 0.500000 s, sub-group size 16, 1000 sub-group instructions, "
            "16000 lane instructions, 3.2e+04 lane instructions/s");
}

TEST(Stats, OptionIsParsed) {
  CommandLine cl = parseCommandLine({"run", "k.cl", "--global", "4", "--arg", "int:1", "--stats"});
  EXPECT_TRUE(cl.options.stats);
}

}  // namespace
}  // namespace spvsim::tools
