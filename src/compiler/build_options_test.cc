// The allow-list of OpenCL build options (requireOpenCLBuildOptions): what clBuildProgram
// documents passes; what would load code into clang or give it another input is refused
// with a message naming the option.
#include "src/compiler/build_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spirv/error.h"

namespace spvsim::compiler {
namespace {

// The message requireOpenCLBuildOptions throws for `options`, "" when it accepts them.
std::string refusal(const std::string& options) {
  try {
    requireOpenCLBuildOptions(splitBuildOptions(options));
    return "";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Usage) << options;
    return e.what();
  }
}

TEST(RequireOpenCLBuildOptions, TakesTheDocumentedOptions) {
  for (const char* ok :
       {"",
        "-DN=4",
        "-D N=4",
        "-D MSG=\"a b\"",
        "-DX",
        "-I include",
        "-I'my dir'",
        "-Iinc",
        "-cl-std=CL2.0",
        "-cl-std=CL3.0 -cl-ext=+cl_khr_fp64",
        "-cl-opt-disable",
        "-cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations",
        "-cl-finite-math-only -cl-fast-relaxed-math -cl-denorms-are-zero",
        "-cl-single-precision-constant -cl-fp32-correctly-rounded-divide-sqrt",
        "-cl-uniform-work-group-size -cl-no-subgroup-ifp -cl-kernel-arg-info -cl-strict-aliasing",
        "-O",
        "-O0",
        "-O1",
        "-O2",
        "-O3",
        "-Os",
        "-Oz",
        "-Ofast",
        "-g",
        "-g -O0",
        "-w",
        "-Werror",
        "-Wall",
        "-Wno-unused-variable",
        "-Werror=implicit-function-declaration",
        "-Wno-error=unused-variable"})
    EXPECT_EQ(refusal(ok), "") << ok;
}

TEST(RequireOpenCLBuildOptions, RefusesWhatLoadsCodeIntoTheCompiler) {
  for (const char* bad :
       {"-Xclang -load -Xclang /tmp/x.so", "-fplugin=/tmp/x.so", "-fpass-plugin=/tmp/x.so",
        "-mllvm -load=/tmp/x.so", "-mllvm -load /tmp/x.so", "-Xclang -plugin -Xclang x",
        "-Xpreprocessor -load", "-Wp,-load,/tmp/x.so", "-B/tmp/evil", "--config=/tmp/x.cfg",
        "@/tmp/options.rsp"}) {
    const std::string message = refusal(bad);
    const std::string first = splitBuildOptions(bad).front();
    EXPECT_NE(message.find("'" + first + "'"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("load code into the compiler"), std::string::npos) << message;
  }
}

TEST(RequireOpenCLBuildOptions, RefusesOtherOptionsAndInputs) {
  // -o writes anywhere, -Wl/-Wa pass arguments to other tools, a bare word is an input.
  for (const char* bad : {"-o /tmp/out", "-Wl,-rpath,x", "-Wa,x", "-include /etc/passwd",
                          "-MF /tmp/deps", "-save-temps", "-x spir", "/tmp/x.so",
                          "-cl-std=", "-Werror=", "-W", "-Wframe-larger-than=1", "-fsyntax-only"}) {
    const std::string message = refusal(bad);
    const std::string first = splitBuildOptions(bad).front();
    EXPECT_NE(message.find("'" + first + "' is refused"), std::string::npos)
        << bad << ": " << message;
    EXPECT_EQ(message.find("load code"), std::string::npos) << message;
  }
}

TEST(RequireOpenCLBuildOptions, DAndINeedAValueThatIsNotAnOption) {
  EXPECT_NE(refusal("-DX -D").find("'-D' wants a value"), std::string::npos);
  EXPECT_NE(refusal("-I").find("'-I' wants a value"), std::string::npos);
  // The driver drops -O words before clang runs: "-D -O2 -I x" would reach clang as
  // "-D -I x", making x an input file.
  EXPECT_NE(refusal("-D -O2 -I x").find("'-D' wants a macro after it, not '-O2'"),
            std::string::npos);
  EXPECT_NE(refusal("-I -fplugin=x.so").find("wants a directory after it"), std::string::npos);
  // A joined value is one argument to clang, whatever it says.
  EXPECT_EQ(refusal("-D-fplugin=x -I-x"), "");
}

}  // namespace
}  // namespace spvsim::compiler
