// The manifest written by manifestText (the ICD's writer, runtime/capture.cc) and read back
// by readBundle (the command line's reader): every kind of line, with expected values
// worked by hand from the format (README.md "Capture and replay", bundle_manifest.h).
#include "src/formats/bundle_manifest.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"

namespace spvsim::formats {
namespace {

namespace fs = std::filesystem;
using Kind = BundleArg::Kind;

std::vector<uint8_t> floats(std::initializer_list<float> values) {
  std::vector<uint8_t> out(values.size() * 4);
  size_t i = 0;
  for (float v : values) std::memcpy(out.data() + 4 * i++, &v, 4);
  return out;
}

class BundleManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = fs::path(tmp ? tmp : "/tmp") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void write(const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

BundleArg arg(Kind kind) {
  BundleArg a;
  a.kind = kind;
  return a;
}

// A launch with one argument of every kind, two of them sharing a buffer.
Bundle everyKind() {
  Bundle b;
  b.kernel = "k";
  b.module = kModuleName;
  b.source = kSourceName;
  b.buildOptions = "-cl-std=CL2.0\n-DN=4";  // written on one line, the newline escaped
  b.dims = 2;
  b.offset = {1, 2, 0};
  b.global = {8, 4, 1};
  b.local = {4, 2, 1};
  b.subGroupSize = 8;
  b.warnings = {"the context has SVM allocations"};
  b.buffers = {{32, bufferFileName(0, "before"), bufferFileName(0, "after"), true},
               {8, bufferFileName(1, "before"), bufferFileName(1, "after"), false}};
  b.globals = {{7, 4, globalFileName(0)}};
  BundleArg value = arg(Kind::Value);
  value.type = "float";
  value.bytes = floats({2.5f});
  value.size = 4;
  BundleArg in = arg(Kind::Buffer);
  in.buffer = 0;
  in.size = 32;
  in.type = "const float*";
  in.writable = false;
  BundleArg out = arg(Kind::Buffer);  // the second half of buffer 0 (a sub-buffer)
  out.buffer = 0;
  out.offset = 16;
  out.size = 16;
  out.type = "float*";
  out.readable = false;
  BundleArg odd = arg(Kind::Buffer);
  odd.buffer = 1;
  odd.size = 8;
  odd.type = "struct 100%*";
  BundleArg local = arg(Kind::Local);
  local.size = 64;
  BundleArg sampler = arg(Kind::Sampler);
  sampler.sampler = {true, 0x1132, 0x1141};  // CL_ADDRESS_CLAMP, CL_FILTER_LINEAR
  BundleArg image = arg(Kind::Image);
  image.shape = "image2d:RGBA,UNORM_INT8[2,1]";
  image.size = 8;
  image.before = imageFileName(7, "before");
  image.after = imageFileName(7, "after");
  BundleArg pair = arg(Kind::Value);
  pair.type = "struct pair";
  pair.bytes = {1, 2, 3};
  pair.size = 3;
  BundleArg pipe = arg(Kind::NotCaptured);
  pipe.notCaptured = "SVM pointers";
  b.args = {value, in, out, odd, local, arg(Kind::Null), sampler, image, pair, pipe};
  b.notes = {"no launch.sim: a global offset does not fit Oclgrind's format"};
  b.status = "failed";
  return b;
}

TEST(BundleManifest, WriterTextByHand) {
  EXPECT_EQ(manifestText(everyKind()),
            "spvsim-capture 1\n"
            "kernel k\n"
            "module module.spv\n"
            "source program.cl\n"
            "build-options -cl-std=CL2.0%0A-DN=4\n"  // the newline kept, escaped
            "work-dim 2\n"
            "global-offset 1 2 0\n"
            "global-size 8 4 1\n"
            "local-size 4 2 1\n"
            "sub-group-size 8\n"
            "warning the context has SVM allocations\n"
            "buffer 0 size=32 before=buffer0.before.bin after=buffer0.after.bin initialized=1\n"
            "buffer 1 size=8 before=buffer1.before.bin after=buffer1.after.bin initialized=0\n"
            "global-variable id=7 size=4 before=global0.before.bin\n"
            "arg 0 value size=4 type=float bytes=00002040\n"
            "arg 1 buffer buffer=0 offset=0 size=32 type=const%20float* access=r\n"
            "arg 2 buffer buffer=0 offset=16 size=16 type=float* access=w\n"
            "arg 3 buffer buffer=1 offset=0 size=8 type=struct%20100%25* access=rw\n"
            "arg 4 local size=64\n"
            "arg 5 null\n"
            "arg 6 sampler normalized=1 addressing=0x1132 filter=0x1141\n"
            "arg 7 image shape=image2d:RGBA,UNORM_INT8[2,1] before=image7.before.bin "
            "after=image7.after.bin\n"
            "arg 8 value size=3 type=struct%20pair bytes=010203\n"
            "arg 9 not-captured SVM%20pointers\n"
            "# no launch.sim: a global offset does not fit Oclgrind's format\n"
            "status failed\n");
}

TEST_F(BundleManifestTest, RoundTripsEveryKindOfLine) {
  const Bundle written = everyKind();
  const std::vector<uint8_t> before0 = floats({0, 1, 2, 3, 4, 5, 6, 7});
  const std::vector<uint8_t> after0 = floats({0, 1, 2, 3, 0, 2, 4, 6});  // out = 2 * in
  write(kModuleName, std::vector<uint8_t>(20, 0));
  write(kSourceName, std::string("kernel void k(float a) {}\n"));
  write("buffer0.before.bin", before0);
  write("buffer0.after.bin", after0);
  write("buffer1.before.bin", std::vector<uint8_t>(8, 0));
  write("buffer1.after.bin", std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8});
  write("global0.before.bin", std::vector<uint8_t>{9, 0, 0, 0});
  write("image7.before.bin", std::vector<uint8_t>{10, 20, 30, 40, 50, 60, 70, 80});
  write("image7.after.bin", std::vector<uint8_t>{255, 0, 0, 255, 0, 255, 0, 255});
  write(kManifestName, manifestText(written));

  ASSERT_TRUE(isBundlePath(dir_.string()));
  const Bundle b = readBundle(dir_.string());
  EXPECT_EQ(b.manifest, path(kManifestName));
  EXPECT_EQ(b.module, path(kModuleName));
  EXPECT_EQ(b.source, path(kSourceName));
  EXPECT_EQ(b.kernel, "k");
  EXPECT_EQ(b.buildOptions, "-cl-std=CL2.0\n-DN=4");
  EXPECT_EQ(b.dims, 2u);
  EXPECT_EQ(b.offset, (std::array<uint64_t, 3>{1, 2, 0}));
  EXPECT_EQ(b.global, (std::array<uint64_t, 3>{8, 4, 1}));
  EXPECT_EQ(b.local, (std::array<uint64_t, 3>{4, 2, 1}));
  EXPECT_EQ(b.subGroupSize, 8u);
  EXPECT_EQ(b.warnings, written.warnings);
  EXPECT_EQ(b.status, "failed");
  EXPECT_TRUE(b.notes.empty());  // comments are not read

  ASSERT_EQ(b.buffers.size(), 2u);
  EXPECT_EQ(b.buffers[0].size, 32u);
  EXPECT_TRUE(b.buffers[0].initialized);
  EXPECT_FALSE(b.buffers[1].initialized);
  EXPECT_EQ(readBundleBytes(b.buffers[0].before, 0, 32), before0);
  EXPECT_EQ(readBundleBytes(b.buffers[0].after, 0, 32), after0);
  // The sub-buffer's expected output: the second half of the allocation's "after".
  EXPECT_EQ(readBundleBytes(b.buffers[0].after, 16, 16), floats({0, 2, 4, 6}));
  EXPECT_EQ(readBundleBytes(b.buffers[1].after, 0, 8),
            (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));

  ASSERT_EQ(b.globals.size(), 1u);
  EXPECT_EQ(b.globals[0].id, 7u);
  EXPECT_EQ(b.globals[0].size, 4u);
  EXPECT_EQ(readBundleBytes(b.globals[0].before, 0, 4), (std::vector<uint8_t>{9, 0, 0, 0}));

  ASSERT_EQ(b.args.size(), 10u);
  for (size_t i = 0; i < b.args.size(); ++i) {
    SCOPED_TRACE("argument " + std::to_string(i));
    EXPECT_EQ(b.args[i].kind, written.args[i].kind);
    EXPECT_EQ(b.args[i].line, 15 + i);  // arg 0 is the manifest's 15th line
  }
  EXPECT_EQ(b.args[0].type, "float");
  EXPECT_EQ(b.args[0].size, 4u);
  EXPECT_EQ(b.args[0].bytes, floats({2.5f}));
  EXPECT_EQ(b.args[1].type, "const float*");  // the space escaped and back
  EXPECT_EQ(b.args[1].buffer, 0u);
  EXPECT_EQ(b.args[1].offset, 0u);
  EXPECT_EQ(b.args[1].size, 32u);
  EXPECT_TRUE(b.args[1].readable);
  EXPECT_FALSE(b.args[1].writable);
  EXPECT_EQ(b.args[2].buffer, 0u);
  EXPECT_EQ(b.args[2].offset, 16u);
  EXPECT_EQ(b.args[2].size, 16u);
  EXPECT_FALSE(b.args[2].readable);
  EXPECT_TRUE(b.args[2].writable);
  EXPECT_EQ(b.args[3].type, "struct 100%*");  // '%' escaped and back
  EXPECT_TRUE(b.args[3].readable && b.args[3].writable);
  EXPECT_EQ(b.args[4].size, 64u);
  EXPECT_EQ(b.args[6].sampler, (SamplerDesc{true, 0x1132, 0x1141}));
  EXPECT_EQ(b.args[7].shape, "image2d:RGBA,UNORM_INT8[2,1]");
  EXPECT_EQ(b.args[7].size, 8u);  // 2 pixels of 4 bytes
  EXPECT_EQ(readBundleBytes(b.args[7].before, 0, 8),
            (std::vector<uint8_t>{10, 20, 30, 40, 50, 60, 70, 80}));
  EXPECT_EQ(readBundleBytes(b.args[7].after, 4, 4), (std::vector<uint8_t>{0, 255, 0, 255}));
  EXPECT_EQ(b.args[8].type, "struct pair");
  EXPECT_EQ(b.args[8].bytes, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(b.args[9].notCaptured, "SVM pointers");

  // The program's source travels with the bundle.
  std::ifstream source(b.source);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(source), {}), "kernel void k(float a) {}\n");
}

TEST_F(BundleManifestTest, MinimalLaunchRoundTrips) {
  // A program from IL (no source), no build options, no arguments, a complete launch.
  Bundle written;
  written.kernel = "empty";
  written.module = kModuleName;
  written.status = "complete";
  EXPECT_EQ(manifestText(written),
            "spvsim-capture 1\nkernel empty\nmodule module.spv\nbuild-options \nwork-dim 1\n"
            "global-offset 0 0 0\nglobal-size 1 1 1\nlocal-size 1 1 1\nsub-group-size 16\n"
            "status complete\n");
  write(kModuleName, std::vector<uint8_t>(8, 0));
  write(kManifestName, manifestText(written));
  const Bundle b = readBundle(path(kManifestName));  // the manifest's path names it too
  EXPECT_EQ(b.kernel, "empty");
  EXPECT_EQ(b.source, "");
  EXPECT_EQ(b.buildOptions, "");
  EXPECT_EQ(b.subGroupSize, 16u);
  EXPECT_TRUE(b.args.empty() && b.buffers.empty() && b.globals.empty());
  EXPECT_EQ(b.status, "complete");
}

TEST_F(BundleManifestTest, BufferNeitherReadableNorWritableRoundTrips) {
  Bundle written;
  written.kernel = "k";
  written.module = kModuleName;
  written.status = "complete";
  written.buffers = {{4, "b.before", "b.after", true}};
  BundleArg none = arg(Kind::Buffer);
  none.size = 4;
  none.type = "int*";
  none.readable = none.writable = false;
  written.args = {none};
  EXPECT_NE(manifestText(written).find(" access=-\n"), std::string::npos);
  write(kModuleName, std::vector<uint8_t>(4, 0));
  write("b.before", std::vector<uint8_t>(4, 0));
  write("b.after", std::vector<uint8_t>(4, 0));
  write(kManifestName, manifestText(written));
  const Bundle b = readBundle(dir_.string());
  ASSERT_EQ(b.args.size(), 1u);
  EXPECT_FALSE(b.args[0].readable);
  EXPECT_FALSE(b.args[0].writable);
}

TEST(BundleManifest, TokenEscaping) {
  EXPECT_EQ(escapeToken("unsigned int*"), "unsigned%20int*");
  EXPECT_EQ(escapeToken("a%20b"), "a%2520b");  // a literal %20 is not a space
  EXPECT_EQ(escapeToken(""), "-");
  EXPECT_EQ(escapeToken("-"), "%2D");  // not ""
  EXPECT_EQ(escapeToken("a#b\n"), "a%23b%0A");
  for (const char* text :
       {"unsigned int*", "a%20b", "", "-", "%", " lead and trail ", "100%%", "#", "a\tb\r\n"})
    EXPECT_EQ(unescapeToken(escapeToken(text)), text) << text;
  EXPECT_EQ(unescapeToken("50%"), "50%");  // a '%' without two hex digits stays
  EXPECT_EQ(unescapeToken("%zz%4"), "%zz%4");
  EXPECT_EQ(escapeText("-DX=\"a b\" # c 5%\n"), "-DX=\"a b\" %23 c 5%25%0A");
  for (const char* text : {"", "-g -DN=4", "#", "%41", " x ", "a\nb"})
    EXPECT_EQ(unescapeText(escapeText(text)), text) << text;
}

// A program compiled with clCompileProgram, two embedded headers, then linked: the
// source, its compile options and headers after the source line, the link's options as
// build-options; every option character survives.
TEST_F(BundleManifestTest, CompiledSourceWithHeadersRoundTrips) {
  Bundle written;
  written.kernel = "k";
  written.module = kModuleName;
  written.source = "app.cl";
  written.compiled = true;
  written.compileOptions = "-DGREETING=\"a #1 100%\"\n-g";
  written.headers = {{"inc/util.h", headerFileName("inc/util.h")},
                     {"my header.h", headerFileName("my header.h")}};
  written.buildOptions = "-cl-denorms-are-zero";
  written.status = "complete";
  const std::string text = manifestText(written);
  EXPECT_EQ(text,
            "spvsim-capture 1\nkernel k\nmodule module.spv\nsource app.cl\n"
            "compile-options -DGREETING=\"a %231 100%25\"%0A-g\n"
            "header name=inc/util.h file=headers/inc/util.h\n"
            "header name=my%20header.h file=headers/my%20header.h\n"
            "build-options -cl-denorms-are-zero\nwork-dim 1\nglobal-offset 0 0 0\n"
            "global-size 1 1 1\nlocal-size 1 1 1\nsub-group-size 16\nstatus complete\n");
  write(kModuleName, std::vector<uint8_t>(4, 0));
  write("app.cl", std::string("#include \"inc/util.h\"\n"));
  fs::create_directories(dir_ / "headers/inc");
  write("headers/inc/util.h", std::string("#define N 1\n"));
  write("headers/my%20header.h", std::string("\n"));
  write(kManifestName, text);
  const Bundle b = readBundle(dir_.string());
  EXPECT_EQ(b.source, path("app.cl"));
  EXPECT_TRUE(b.compiled);
  EXPECT_EQ(b.compileOptions, written.compileOptions);
  EXPECT_EQ(b.buildOptions, "-cl-denorms-are-zero");
  ASSERT_EQ(b.headers.size(), 2u);
  EXPECT_EQ(b.headers[0].name, "inc/util.h");
  EXPECT_EQ(b.headers[0].file, path("headers/inc/util.h"));
  EXPECT_EQ(b.headers[1].name, "my header.h");
  EXPECT_EQ(b.headers[1].file, path("headers/my%20header.h"));

  // Built with clBuildProgram: no compile-options line, and the reader says not compiled.
  written.compiled = false;
  written.headers.clear();
  EXPECT_EQ(manifestText(written).find("compile-options"), std::string::npos);
  write(kManifestName, manifestText(written));
  EXPECT_FALSE(readBundle(dir_.string()).compiled);
}

// Header files: under headers/, normalised, escaped so that no include name reaches out of
// the folder or collides with another.
TEST(BundleManifest, HeaderFileNames) {
  EXPECT_EQ(headerFileName("util.h"), "headers/util.h");
  EXPECT_EQ(headerFileName("inc/util.h"), "headers/inc/util.h");
  EXPECT_EQ(headerFileName("./inc//util.h"), "headers/inc/util.h");
  EXPECT_EQ(headerFileName("a/../b.h"), "headers/b.h");
  EXPECT_EQ(headerFileName("../b.h"), "");
  EXPECT_EQ(headerFileName("a/../../b.h"), "");
  EXPECT_EQ(headerFileName(""), "");
  EXPECT_EQ(headerFileName("."), "");
  EXPECT_EQ(headerFileName("/abs/x.h"), "headers/abs/x.h");  // never given: badIncludeName
  EXPECT_EQ(headerFileName("a b%#.h"), "headers/a%20b%25%23.h");
  EXPECT_EQ(headerFileName("x...h"), "headers/x.%2E%2Eh");  // no ".." in a file name
  EXPECT_EQ(headerFileName(std::string("n\0l\n.h", 6)), "headers/n%00l%0A.h");
  EXPECT_EQ(headerFileName("\xc3\xa9.h"), "headers/%C3%A9.h");
  for (const char* name : {"util.h", "inc/util.h", "a b.h", "x...h", "-", ".hidden.h"}) {
    const std::string file = headerFileName(name);
    EXPECT_EQ(file.find(".."), std::string::npos) << name;
    EXPECT_EQ(badIncludeName(name), "") << name;
  }
  EXPECT_EQ(badIncludeName("../x.h"), "has a '..' component");
  EXPECT_EQ(badIncludeName("a/.."), "has a '..' component");
  EXPECT_EQ(badIncludeName("a..b/c.h"), "");
  EXPECT_EQ(badIncludeName("/x.h"), "is absolute");
  EXPECT_EQ(badIncludeName(""), "is empty");
  EXPECT_EQ(badIncludeName(std::string("a\0b", 3)), "holds control characters");
}

// The program's file: named after the application where its command line tells it.
TEST(BundleManifest, SourceFileNames) {
  using V = std::vector<std::string>;
  EXPECT_EQ(sourceFileName(V{"./saxpy"}), "saxpy.cl");
  EXPECT_EQ(sourceFileName(V{"/opt/bin/my app", "--size", "4"}), "my_app.cl");
  EXPECT_EQ(sourceFileName(V{"/usr/bin/python3", "tools/run.py", "x.py"}), "run.cl");
  EXPECT_EQ(sourceFileName(V{"python3.11", "-u", "-W", "ignore", "app.py"}), "app.cl");
  EXPECT_EQ(sourceFileName(V{"python3", "-m", "pkg.bench"}), "bench.cl");
  EXPECT_EQ(sourceFileName(V{"python3", "-c", "import app"}), "program.cl");
  EXPECT_EQ(sourceFileName(V{"python3"}), "program.cl");
  EXPECT_EQ(sourceFileName(V{"node", "main.js"}), "main.cl");
  EXPECT_EQ(sourceFileName(V{}), "program.cl");
  EXPECT_EQ(sourceFileName(V{"..."}), "program.cl");
  EXPECT_EQ(sourceFileName(V{"/bin/\xc3\xa9\xc3\xa9"}),
            "program.cl");  // nothing of [A-Za-z0-9] left
}

TEST(BundleManifest, FileNames) {
  EXPECT_EQ(bufferFileName(3, "after"), "buffer3.after.bin");
  EXPECT_EQ(imageFileName(0, "before"), "image0.before.bin");
  EXPECT_EQ(globalFileName(2), "global2.before.bin");
}

}  // namespace
}  // namespace spvsim::formats
