// The capture manifest's reader on malformed, incomplete and hostile bundles: every
// error names the manifest and its line (the arguments a bundle becomes are
// tools/cli/bundle_test.cc's; writing and reading back, bundle_manifest_test.cc).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"
#include "src/formats/bundle_manifest.h"
#include "src/formats/testing/bundle_folder.h"

namespace spvsim::formats {
namespace {

namespace fs = std::filesystem;

using BundleTest = testing::BundleFolderTest;

TEST_F(BundleTest, MalformedManifestsGiveClearErrors) {
  const std::string arg = "arg 0 buffer buffer=0 offset=0 size=32 type=int* access=rw\n";
  EXPECT_NE(error(std::string(kBuffer) + "arg 0 null colour=red\n")
                .find("launch.txt:12: unknown key 'colour'"),
            std::string::npos);
  EXPECT_NE(error("frobnicate 3\n").find("launch.txt:11: unknown key 'frobnicate'"),
            std::string::npos);
  EXPECT_NE(error("buffer 0 size=32 before=gone.bin after=b0.after\n").find("missing file"),
            std::string::npos);
  EXPECT_NE(error("buffer 0 size=40 before=b0.before after=b0.after\n" + arg)
                .find("holds 32 bytes but the manifest says 40"),
            std::string::npos);
  EXPECT_NE(error(std::string(kBuffer) + "arg 0 buffer buffer=0 offset=8 size=32 type=int*\n")
                .find("offset=8 size=32 lies outside buffer 0 of 32 bytes"),
            std::string::npos);
  EXPECT_NE(error("arg 0 buffer buffer=3 offset=0 size=4 type=int*\n").find("buffer=3"),
            std::string::npos);
  EXPECT_NE(error("arg 1 null\n").find("arg 1 out of order: expected arg 0"), std::string::npos);
  EXPECT_NE(error("arg 0 value size=4 type=int bytes=0500\n").find("4 hex digits, size=4 needs 8"),
            std::string::npos);
  EXPECT_NE(error("arg 0 value size=1 type=char bytes=zz\n").find("not hex"), std::string::npos);
  EXPECT_NE(error("arg 0 texture\n").find("unknown argument kind 'texture'"), std::string::npos);
  EXPECT_NE(error("arg 0 local\n").find("missing size="), std::string::npos);
  EXPECT_NE(error("work-dim 2\n").find("'work-dim' is given twice"), std::string::npos);
  EXPECT_NE(error("buffer 0 size=32 before=../b0.before after=b0.after\n")
                .find("not a file name inside the bundle"),
            std::string::npos);
  EXPECT_NE(error("arg 0 local size=abc\n").find("size 'abc' is not a number"), std::string::npos);
  EXPECT_NE(error("sub-group-size 200\n").find("'sub-group-size' is given twice"),
            std::string::npos);
  EXPECT_NE(error("arg 0 sampler normalized=1 addressing=0x1200 filter=0x1140\n")
                .find("addressing=0x1200 is not a cl_addressing_mode"),
            std::string::npos);
  EXPECT_NE(error("arg 0 sampler normalized=1 addressing=0x1130 filter=3\n")
                .find("filter=0x3 is not a cl_filter_mode"),
            std::string::npos);

  std::ofstream(dir_ / "launch.txt") << "kernel k\n";
  EXPECT_THROW(
      {
        try {
          readBundle(dir_.string());
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("not a capture manifest"), std::string::npos);
          throw;
        }
      },
      Error);
  std::ofstream(dir_ / "launch.txt") << "spvsim-capture 1\nkernel k\n";
  try {
    readBundle(dir_.string());
    ADD_FAILURE() << "an incomplete manifest was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing 'module' line"), std::string::npos) << e.what();
  }
  std::ofstream(dir_ / "launch.txt") << "spvsim-capture 2\n";
  EXPECT_THROW(readBundle(dir_.string()), Error);
  fs::remove(dir_ / "launch.txt");
  EXPECT_TRUE(isBundlePath(dir_.string()));  // module.spv: a bundle, but incomplete
  try {
    readBundle(dir_.string());
    ADD_FAILURE() << "a bundle without launch.txt was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is an incomplete capture bundle: it has no launch.txt"),
              std::string::npos)
        << e.what();
  }
  fs::remove(dir_ / "module.spv");
  EXPECT_FALSE(isBundlePath(dir_.string()));
}

// Only what runtime/capture.cc writes: a manifest's status is the launch's outcome.
TEST_F(BundleTest, StatusIsCompleteOrFailed) {
  for (const char* status : {"maybe", "COMPLETE", "0"}) {
    std::ofstream(dir_ / "launch.txt") << kHead << "status " << status << "\n";
    try {
      readBundle(dir_.string());
      ADD_FAILURE() << "status " << status << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("launch.txt:11: status '" + std::string(status) +
                                           "' is neither 'complete' nor 'failed'"),
                std::string::npos)
          << e.what();
    }
  }
  std::ofstream(dir_ / "launch.txt") << kHead << "status failed\n";
  EXPECT_EQ(readBundle(dir_.string()).status, "failed");
}

// A bundle's files are regular files inside its folder: a FIFO would block the reader,
// and a symbolic link out of the folder would read (and --dump print) any file.
TEST_F(BundleTest, FilesAreRegularAndInside) {
  const std::string buffer = "buffer 0 size=32 before=b0.before after=b0.after initialized=1\n";
  const fs::path outside = dir_.parent_path() / (dir_.filename().string() + "_secret");
  write("../" + outside.filename().string(), std::vector<uint8_t>(32, 7));
  fs::remove(dir_ / "b0.before");
  fs::create_symlink(outside, dir_ / "b0.before");
  EXPECT_NE(error(buffer).find("b0.before' is a symbolic link that leads out of the bundle"),
            std::string::npos);
  fs::remove(dir_ / "b0.before");  // a link inside the folder is fine
  write("real.before", std::vector<uint8_t>(32, 1));
  fs::create_symlink("real.before", dir_ / "b0.before");
  manifest(buffer);
  EXPECT_EQ(readBundle(dir_.string()).buffers.at(0).before, (dir_ / "b0.before").string());

  fs::remove(dir_ / "b0.before");
  ASSERT_EQ(mkfifo((dir_ / "b0.before").c_str(), 0600), 0);
  EXPECT_NE(error(buffer).find("b0.before' is not a regular file (it is a FIFO)"),
            std::string::npos);
  fs::remove(dir_ / "b0.before");
  fs::create_directory(dir_ / "b0.before");
  EXPECT_NE(error(buffer).find("b0.before' is not a regular file (it is a directory)"),
            std::string::npos);
  fs::remove(dir_ / "b0.before");
  fs::create_symlink("/dev/zero", dir_ / "b0.before");
  EXPECT_NE(error(buffer).find("b0.before' is not a regular file (it is a character device)"),
            std::string::npos);

  // The manifest itself: a FIFO is refused, not waited on; a link out of the folder too.
  fs::remove(dir_ / "launch.txt");
  ASSERT_EQ(mkfifo((dir_ / "launch.txt").c_str(), 0600), 0);
  try {
    readBundle(dir_.string());
    ADD_FAILURE() << "a FIFO launch.txt was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("launch.txt' is not a regular file (it is a FIFO)"),
              std::string::npos)
        << e.what();
  }
  fs::remove(dir_ / "launch.txt");
  std::ofstream(outside) << kHead << "status complete\n";
  fs::create_symlink(outside, dir_ / "launch.txt");
  try {
    readBundle(dir_.string());
    ADD_FAILURE() << "a launch.txt outside the bundle was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is a symbolic link that leads out of the bundle"),
              std::string::npos)
        << e.what();
  }
  fs::remove(outside);
}

// The program's source, when the ICD built it from source: a data file like the others.
TEST_F(BundleTest, SourceLineNamesTheProgramsSource) {
  std::ofstream(dir_ / "program.cl") << "kernel void k() {}\n";
  manifest("source program.cl\n");
  EXPECT_EQ(readBundle(dir_.string()).source, (dir_ / "program.cl").string());
  fs::remove(dir_ / "program.cl");
  EXPECT_NE(error("source program.cl\n").find("missing file"), std::string::npos);
  EXPECT_NE(error("source ../program.cl\n").find("is not a file name inside the bundle"),
            std::string::npos);
}

// clCompileProgram's headers: each under its include name in headers/, read with the
// source's compile options.
TEST_F(BundleTest, HeaderLinesNameHeadersInsideTheBundle) {
  std::ofstream(dir_ / "app.cl") << "#include \"inc/util.h\"\n";
  fs::create_directories(dir_ / "headers/inc");
  std::ofstream(dir_ / "headers/inc/util.h") << "#define N 3\n";
  manifest(
      "source app.cl\ncompile-options -DX=%231 -g\n"
      "header name=inc/util.h file=headers/inc/util.h\n");
  const Bundle b = readBundle(dir_.string());
  EXPECT_TRUE(b.compiled);
  EXPECT_EQ(b.compileOptions, "-DX=#1 -g");  // '#' escaped: not a comment
  ASSERT_EQ(b.headers.size(), 1u);
  EXPECT_EQ(b.headers[0].name, "inc/util.h");
  EXPECT_EQ(b.headers[0].file, (dir_ / "headers/inc/util.h").string());

  EXPECT_NE(error("header name=inc/util.h file=headers/inc/util.h\n")
                .find("launch.txt:11: a 'header' line describes the program's source, but the "
                      "manifest has no 'source' line"),
            std::string::npos);
  EXPECT_NE(error("source app.cl\nheader name=inc/util.h file=headers/inc/util.h\n"
                  "header name=inc/util.h file=headers/inc/util.h\n")
                .find("launch.txt:13: header name=inc/util.h is given twice"),
            std::string::npos);
  EXPECT_NE(
      error("source app.cl\nheader name=inc/gone.h file=headers/inc/gone.h\n").find("missing file"),
      std::string::npos);
}

// A bundle may come from elsewhere: a header's name and file stay inside the bundle, and
// reading it looks at nothing outside (the names are checked before any file is).
TEST_F(BundleTest, HeadersThatLeaveTheBundleAreRefused) {
  std::ofstream(dir_ / "app.cl") << "kernel void k() {}\n";
  fs::create_directories(dir_ / "headers");
  std::ofstream(dir_ / "headers/h.h") << "\n";
  const std::string source = "source app.cl\n";
  for (const auto& [name, why] :
       std::vector<std::pair<std::string, std::string>>{{"../h.h", "has a '..' component"},
                                                        {"inc/../../h.h", "has a '..' component"},
                                                        {"..", "has a '..' component"},
                                                        {"/etc/passwd", "is absolute"},
                                                        {"h%00.h", "holds control characters"},
                                                        {"h%0A.h", "holds control characters"},
                                                        {"-", "is empty"}}) {
    const std::string message = error(source + "header name=" + name + " file=headers/h.h\n");
    EXPECT_NE(message.find("launch.txt:12: header name=" + name), std::string::npos) << message;
    EXPECT_NE(message.find(why + ": not an include name inside the bundle"), std::string::npos)
        << message;
    EXPECT_EQ(message.find('\0'), std::string::npos);
  }
  for (const std::string file : {"../h.h", "headers/../../h.h", "/etc/passwd"})
    EXPECT_NE(error(source + "header name=h.h file=" + file + "\n")
                  .find("is not a file name inside the bundle"),
              std::string::npos)
        << file;
  // A folder of the bundle that is a link out of it: the file behind it is outside.
  const fs::path outside = dir_.parent_path() / (dir_.filename().string() + "_headers");
  fs::create_directories(outside);
  std::ofstream(outside / "h.h") << "secret\n";
  fs::create_directory_symlink(outside, dir_ / "linked");
  EXPECT_NE(error(source + "header name=h.h file=linked/h.h\n")
                .find("is a symbolic link that leads out of the bundle"),
            std::string::npos);
  fs::remove_all(outside);
}

// A NUL ends a name for the system: "b0.after<NUL>x" would read b0.after while the manifest
// names another file (found by fuzz_bundle). Control characters are in no name either.
TEST_F(BundleTest, FileNamesWithControlCharactersAreRefused) {
  for (const std::string name : {std::string("b0.after\0x", 10), std::string("b0.after\0", 9),
                                 std::string("b0\x01"
                                             "after")}) {
    const std::string message =
        error("buffer 0 size=32 before=b0.before after=" + name + " initialized=1\n");
    EXPECT_NE(message.find("is not a file name inside the bundle"), std::string::npos) << message;
    EXPECT_EQ(message.find('\0'), std::string::npos);  // escaped in the message
  }
}

TEST_F(BundleTest, LaunchShapeOutOfRange) {
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = std::string(kHead) + "status complete\n";
    text.replace(text.find(from), from.size(), to);
    std::ofstream(dir_ / "launch.txt") << text;
    try {
      readBundle(dir_.string());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(replaced("sub-group-size 8", "sub-group-size 999999999999")
                .find("launch.txt:10: sub-group-size 999999999999 is outside 1..128"),
            std::string::npos);
  EXPECT_NE(replaced("global-size 8 4 1", "global-size 8 4 2")
                .find("work-dim is 2 but dimension 2 has global size 2"),
            std::string::npos);
  EXPECT_NE(replaced("work-dim 2", "work-dim 0").find("work-dim must be 1, 2 or 3"),
            std::string::npos);
  EXPECT_NE(replaced("global-offset 1 2 0", "global-offset 1 2").find("needs three numbers"),
            std::string::npos);
}

}  // namespace
}  // namespace spvsim::formats
