#include "runtime/layer/binary_sources.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace spvsim::layer {
namespace {

namespace fs = std::filesystem;

class BinarySourcesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = fs::path(tmp ? tmp : "/tmp") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
  }
  fs::path dir_;
  const std::vector<uint8_t> binary_ = {1, 2, 3, 4, 5, 0, 7};
};

ProgramRecord source(const std::string& text, const std::string& options) {
  ProgramRecord r;
  r.origin = ProgramRecord::Origin::Source;
  r.source = text;
  r.options = options;
  r.built = true;
  return r;
}

TEST_F(BinarySourcesTest, ABinaryRemembersItsSourceAndOptions) {
  const BinarySources sources(dir_.string());
  // Options and source with newlines and NULs: stored by length, not by line.
  const std::string text("kernel void k() {}\n// \0 after\n", 30);
  sources.remember(binary_.data(), binary_.size(), source(text, "-D A=1\n-cl-std=CL3.0"));
  const std::optional<ProgramRecord> back = sources.recall(binary_.data(), binary_.size());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->origin, ProgramRecord::Origin::Source);
  EXPECT_EQ(back->source, text);
  EXPECT_EQ(back->options, "-D A=1\n-cl-std=CL3.0");
  // Another binary (one byte differs, or one byte shorter) is not known.
  std::vector<uint8_t> other = binary_;
  other[6] = 8;
  EXPECT_FALSE(sources.recall(other.data(), other.size()));
  EXPECT_FALSE(sources.recall(binary_.data(), binary_.size() - 1));
}

TEST_F(BinarySourcesTest, IlAndOnlyBuiltProgramsFromSourceOrIl) {
  const BinarySources sources(dir_.string());
  ProgramRecord il;
  il.origin = ProgramRecord::Origin::IL;
  il.il = {0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0};
  il.built = true;
  sources.remember(binary_.data(), binary_.size(), il);
  const auto back = sources.recall(binary_.data(), binary_.size());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->origin, ProgramRecord::Origin::IL);
  EXPECT_EQ(back->il, il.il);

  const std::vector<uint8_t> second = {9, 9};
  ProgramRecord notBuilt = source("x", "");
  notBuilt.built = false;
  sources.remember(second.data(), second.size(), notBuilt);
  ProgramRecord fromBinary;
  fromBinary.origin = ProgramRecord::Origin::Other;
  fromBinary.built = true;
  sources.remember(second.data(), second.size(), fromBinary);
  EXPECT_FALSE(sources.recall(second.data(), second.size()));
}

TEST_F(BinarySourcesTest, MalformedEntriesAndNoFolderAreUnknown) {
  const BinarySources sources(dir_.string());
  sources.remember(binary_.data(), binary_.size(), source("k", "-O2"));
  ASSERT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
  const fs::path entry = fs::directory_iterator(dir_)->path();
  for (const std::string bad :
       {std::string(""), std::string("spvsim-layer-program 2\nsource\n0\nk"),
        std::string("spvsim-layer-program 1\nbinary\n0\nk"),
        std::string("spvsim-layer-program 1\nsource\n99\nk"),
        std::string("spvsim-layer-program 1\nsource\n-1\nk"),
        std::string("spvsim-layer-program 1\nsource\n18446744073709551615\nk")}) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << bad;
    EXPECT_FALSE(sources.recall(binary_.data(), binary_.size())) << bad;
  }
  const BinarySources off("");
  off.remember(binary_.data(), binary_.size(), source("k", ""));
  EXPECT_FALSE(off.recall(binary_.data(), binary_.size()));
}

}  // namespace
}  // namespace spvsim::layer
