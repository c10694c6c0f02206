#include "tools/compile_cl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"

namespace spvsim::tools {
namespace {

using Strings = std::vector<std::string>;

TEST(SplitBuildOptions, LikeAShell) {
  EXPECT_EQ(splitBuildOptions(""), Strings{});
  EXPECT_EQ(splitBuildOptions("  -DN=4   -O0 "), (Strings{"-DN=4", "-O0"}));
  EXPECT_EQ(splitBuildOptions("-DMSG=\"a b\" -I'my dir'"), (Strings{"-DMSG=a b", "-Imy dir"}));
  EXPECT_EQ(splitBuildOptions("-DX=a\\ b \"\""), (Strings{"-DX=a b", ""}));
  EXPECT_EQ(splitBuildOptions("-DQ=\"\\\"\""), (Strings{"-DQ=\""}));
  EXPECT_THROW(splitBuildOptions("-DMSG=\"open"), Error);
}

TEST(ClangCommand, DefaultsThenUserOptions) {
  EXPECT_EQ(
      clangCommand("k.cl", "k.bc", {"-DN=4"}),
      (Strings{"clang-15", "-cl-std=CL3.0", "-cl-kernel-arg-info", "-target", "spir64", "-Xclang",
               "-no-opaque-pointers", "-cl-no-stdinc", "-Xclang", "-finclude-default-header", "-O2",
               "-DN=4", "-emit-llvm", "-c", "k.cl", "-o", "k.bc"}));
}

TEST(ClangCommand, ClStdInTheOptionsReplacesTheDefault) {
  const Strings argv = clangCommand("k.cl", "k.bc", {"-cl-std=CL2.0"});
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "-cl-std=CL3.0"), 0);
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "-cl-std=CL2.0"), 1);
}

TEST(FindOnPath, FindsExecutables) {
  EXPECT_TRUE(findOnPath("sh"));
  EXPECT_FALSE(findOnPath("spvsim-no-such-tool"));
}

class CompileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!findOnPath("clang-15") || !findOnPath("llvm-spirv-15"))
      GTEST_SKIP() << "clang-15 or llvm-spirv-15 not installed";
  }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::path(::testing::TempDir()) / name;
    std::ofstream(path) << text;
    return path.string();
  }
};

TEST_F(CompileTest, ProducesSpirv) {
  const std::string path = write("ok.cl", "kernel void k(global int* a) { a[0] = N; }\n");
  const CompiledProgram p = compileOpenCL(path, "-DN=3");
  ASSERT_GT(p.words.size(), 5u);
  EXPECT_EQ(p.words[0], 0x07230203u);  // SPIR-V magic
}

TEST_F(CompileTest, ShowsTheCompilersMessages) {
  const std::string path = write("bad.cl", "kernel void k(global int* a) { a[0] = oops; }\n");
  try {
    compileOpenCL(path, "");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "compile");
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("compiling '" + path + "' failed (clang-15 exited with status 1):\n", 0),
              0u)
        << what;
    EXPECT_NE(what.find("use of undeclared identifier 'oops'"), std::string::npos) << what;
  }
}

TEST_F(CompileTest, MissingSource) { EXPECT_THROW(compileOpenCL("/no/such/k.cl", ""), Error); }

TEST_F(CompileTest, SourceInMemoryWithHeaders) {
  const CompiledProgram p = compileOpenCLSource(
      "#include \"dir/n.h\"\nkernel void k(global int* a) { a[0] = N; }\n", "-DM=2",
      {{"dir/n.h", "#define N M\n"}, {"dir/n.h", "#error the first header of a name wins\n"}});
  ASSERT_GT(p.words.size(), 5u);
  EXPECT_EQ(p.words[0], 0x07230203u);
}

TEST_F(CompileTest, SourceErrorsAreJustTheCompilersMessages) {
  try {
    compileOpenCLSource("kernel void k(global int* a) { a[0] = oops; }\n", "");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "compile");
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("<stdin>:1:", 0), 0u) << what;
    EXPECT_NE(what.find("use of undeclared identifier 'oops'"), std::string::npos) << what;
  }
}

TEST_F(CompileTest, HeaderNamesStayInsideTheIncludeDirectory) {
  EXPECT_THROW(compileOpenCLSource("", "", {{"../x.h", ""}}), Error);
  EXPECT_THROW(compileOpenCLSource("", "", {{"/etc/x.h", ""}}), Error);
}

TEST(CompileOpenCL, NamesAMissingCompiler) {
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  setenv("PATH", "/spvsim-nonexistent", 1);
  try {
    compileOpenCL("k.cl", "");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "input");
    EXPECT_EQ(std::string(e.what()).rfind("clang-15 is not on PATH", 0), 0u) << e.what();
  }
  setenv("PATH", saved.c_str(), 1);
}

}  // namespace
}  // namespace spvsim::tools
