// The build options `spvsim debug` compiles a .cl with.
#include "tools/cli/launch_setup.h"

#include <gtest/gtest.h>

namespace spvsim::tools {
namespace {

TEST(DebugSetup, DebugBuildOptionsAddDebugInfoAndKeepTheUsersLevel) {
  EXPECT_EQ(debugBuildOptions(""), "-g -O0 ");
  EXPECT_EQ(debugBuildOptions("-DN=4"), "-g -O0 -DN=4");
  EXPECT_EQ(debugBuildOptions("-DN=4 -O2"), "-g -DN=4 -O2");
  EXPECT_EQ(debugBuildOptions("-cl-std=CL2.0 -Os"), "-g -cl-std=CL2.0 -Os");
}

}  // namespace
}  // namespace spvsim::tools
