// withoutWarnings on clang-15's diagnostic output, in the layouts clang prints it.
#include "src/compiler/clang_log.h"

#include <gtest/gtest.h>

namespace spvsim::compiler {
namespace {

constexpr const char* kSubgroups = "unsupported OpenCL extension 'cl_khr_subgroups'";

TEST(WithoutWarnings, RemovesTheWarningItsLinesAndTheSummary) {
  const std::string log =
      "k.cl:1:26: warning: unsupported OpenCL extension 'cl_khr_subgroups' - ignoring "
      "[-Wignored-pragmas]\n"
      "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
      "                         ^\n"
      "1 warning generated.\n";
  EXPECT_EQ(withoutWarnings(log, kSubgroups), "");
}

TEST(WithoutWarnings, KeepsOtherDiagnosticsAndRecountsThem) {
  const std::string other =
      "k.cl:4:7: warning: unused variable 'x' [-Wunused-variable]\n"
      "  int x;\n"
      "      ^\n";
  const std::string pragma =
      "k.cl:2:26: warning: unsupported OpenCL extension 'cl_khr_subgroups' - ignoring "
      "[-Wignored-pragmas]\n"
      "#pragma OPENCL EXTENSION cl_khr_subgroups : disable\n"
      "                         ^\n";
  EXPECT_EQ(withoutWarnings(pragma + other + pragma + "3 warnings generated.\n", kSubgroups),
            other + "1 warning generated.\n");
  const std::string error =
      "k.cl:5:3: error: use of undeclared identifier 'y'\n"
      "  y = 1;\n"
      "  ^\n";
  EXPECT_EQ(withoutWarnings(pragma + error + "1 warning and 1 error generated.\n", kSubgroups),
            error + "1 error generated.\n");
  EXPECT_EQ(
      withoutWarnings(pragma + other + error + "2 warnings and 1 error generated.\n", kSubgroups),
      other + error + "1 warning and 1 error generated.\n");
}

TEST(WithoutWarnings, AWarningInAnIncludedFileAndNoCarets) {
  const std::string included =
      "In file included from k.cl:1:\n"
      "./h.h:1:26: warning: unsupported OpenCL extension 'cl_khr_subgroups' - ignoring "
      "[-Wignored-pragmas]\n";
  const std::string other = "k.cl:3:7: warning: unused variable 'x' [-Wunused-variable]\n";
  // The include stack clang prints before the warning goes with it.
  EXPECT_EQ(withoutWarnings(
                "In file included from k.cl:2:\n" + included + other + "2 warnings generated.\n",
                kSubgroups),
            other + "1 warning generated.\n");
}

TEST(WithoutWarnings, LeavesALogWithoutTheWarningAlone) {
  const std::string log = "k.cl:3:7: warning: unused variable 'x'\n1 warning generated.";
  EXPECT_EQ(withoutWarnings(log, kSubgroups), log);
  EXPECT_EQ(withoutWarnings("", kSubgroups), "");
}

}  // namespace
}  // namespace spvsim::compiler
