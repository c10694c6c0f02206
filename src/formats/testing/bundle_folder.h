// Test support: a capture bundle folder in the test's temporary directory, written file by
// file, with a manifest head and one buffer the reader's and the command line's bundle
// tests share (src/formats/bundle_reader_test.cc, tools/cli/bundle_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "src/formats/bundle_manifest.h"

namespace spvsim::formats::testing {

// Little-endian bytes of a sequence of values of one type.
template <typename T>
std::vector<uint8_t> bytesOf(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  size_t i = 0;
  for (T v : values) std::memcpy(out.data() + sizeof(T) * i++, &v, sizeof(T));
  return out;
}

// A bundle folder in the test's temporary directory, written file by file.
class BundleFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = std::filesystem::path(tmp ? tmp : "/tmp") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    write("module.spv", std::vector<uint8_t>(20, 0));
    // 8 ints, before 0..7, after 10..17.
    write("b0.before", bytesOf<int32_t>({0, 1, 2, 3, 4, 5, 6, 7}));
    write("b0.after", bytesOf<int32_t>({10, 11, 12, 13, 14, 15, 16, 17}));
  }
  void write(const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  void manifest(const std::string& body) {
    std::ofstream(dir_ / "launch.txt") << kHead << body << "status complete\n";
  }
  // The message readBundle throws for `body`.
  std::string error(const std::string& body) {
    manifest(body);
    try {
      readBundle(dir_.string());
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), DiagnosticKind::Input);
      return e.what();
    }
    ADD_FAILURE() << "no error for:\n" << body;
    return "";
  }

  static constexpr const char* kHead =
      "spvsim-capture 1\n# a comment\nkernel k\nmodule module.spv\nbuild-options -cl-std=CL2.0 "
      "-O0\nwork-dim 2\nglobal-offset 1 2 0\nglobal-size 8 4 1\nlocal-size 4 2 1\n"
      "sub-group-size 8\n";
  static constexpr const char* kBuffer =
      "buffer 0 size=32 before=b0.before after=b0.after initialized=1\n";
  std::filesystem::path dir_;
};

}  // namespace spvsim::formats::testing
