#include "src/compiler/compile_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "src/compiler/compile_driver.h"
#include "src/compiler/prelude.h"
#include "src/compiler/process.h"

namespace spvsim::compiler {
namespace {

namespace fs = std::filesystem;

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    setenv("SPVSIM_CACHE_DIR", (dir_ / "cache").c_str(), 1);
    unsetenv("SPVSIM_CACHE");
  }
  void TearDown() override { unsetenv("SPVSIM_CACHE_DIR"); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

  fs::path dir_;
};

CachedCompile entry(std::vector<std::string> dependencies) {
  return CachedCompile{
      {0x07230203, 1, 2, 3}, "warning: w\n", {"clang-15 x"}, {"note"}, std::move(dependencies)};
}

TEST_F(CacheTest, FindsWhatWasStoredUnderAnEqualKey) {
  const auto cache = CompileCache::open();
  ASSERT_TRUE(cache);
  EXPECT_EQ(cache->directory(), (dir_ / "cache").string());
  const std::string header = write("h.h", "#define N 1\n");
  cache->store("key\nwith lines", entry({header}));
  const auto hit = cache->find("key\nwith lines");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->words, (std::vector<uint32_t>{0x07230203, 1, 2, 3}));
  EXPECT_EQ(hit->log, "warning: w\n");
  EXPECT_EQ(hit->commands, std::vector<std::string>{"clang-15 x"});
  EXPECT_EQ(hit->notes, std::vector<std::string>{"note"});
  EXPECT_FALSE(cache->find("another key"));
}

TEST_F(CacheTest, AChangedOrMissingDependencyIsAMiss) {
  const auto cache = CompileCache::open();
  const std::string header = write("h.h", "#define N 1\n");
  cache->store("k", entry({header}));
  ASSERT_TRUE(cache->find("k"));
  write("h.h", "#define N 2\n");  // same size, other content
  EXPECT_FALSE(cache->find("k"));
  fs::remove(header);
  EXPECT_FALSE(cache->find("k"));
}

// A dependency that had settled when the entry was written is trusted by its identity on
// disk while that holds, and a write after it is still a miss (the change time moves).
TEST_F(CacheTest, SettledDependenciesAreCheckedByIdentity) {
  const auto cache = CompileCache::open();
  const std::string header = write("settled.h", "#define N 1\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));  // older than 2 s
  cache->store("k", entry({header}));
  ASSERT_TRUE(cache->find("k"));
  ASSERT_TRUE(cache->find("k"));
  write("settled.h", "#define N 2\n");  // same size, other content
  EXPECT_FALSE(cache->find("k"));
}

TEST_F(CacheTest, CorruptEntriesAreMisses) {
  const auto cache = CompileCache::open();
  cache->store("k", entry({}));
  for (const auto& e : fs::directory_iterator(dir_ / "cache")) {
    std::string data = readFile(e.path().string());
    std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << data.substr(0, data.size() / 2);
  }
  EXPECT_FALSE(cache->find("k"));
}

TEST_F(CacheTest, CanBeTurnedOff) {
  setenv("SPVSIM_CACHE", "off", 1);
  EXPECT_FALSE(CompileCache::open());
  setenv("SPVSIM_CACHE", "0", 1);
  EXPECT_FALSE(CompileCache::open());
  unsetenv("SPVSIM_CACHE");
  EXPECT_TRUE(CompileCache::open());
}

TEST_F(CacheTest, KeepsTheMostRecentlyUsedEntries) {
  const CompileCache cache((dir_ / "small").string());
  fs::create_directories(dir_ / "small");
  for (size_t i = 0; i < CompileCache::kMaxEntries + 3; ++i)
    cache.store("key " + std::to_string(i), entry({}));
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "small"))
    entries += e.path().extension() == ".entry";
  EXPECT_EQ(entries, CompileCache::kMaxEntries);
  EXPECT_TRUE(cache.find("key " + std::to_string(CompileCache::kMaxEntries + 2)));
}

// The driver: the second compilation of unchanged inputs is a hit; editing an included
// header or the options compiles again.
TEST_F(CacheTest, TheDriverCompilesOnceUntilAnInputChanges) {
  for (const char* tool : {"clang-15", "opt-15", "llvm-spirv-15"})
    if (!findOnPath(tool)) GTEST_SKIP() << tool << " is not installed";
  write("n.h", "#define N 3\n");
  const std::string kernel =
      write("k.cl", "#include \"n.h\"\nkernel void k(global int* a) { a[0] = N; }\n");
  const CompileResult first = compileOpenCLFile(kernel, "");
  EXPECT_FALSE(first.fromCache);
  const CompileResult second = compileOpenCLFile(kernel, "");
  EXPECT_TRUE(second.fromCache);
  EXPECT_EQ(second.words, first.words);
  EXPECT_EQ(second.commands, first.commands);
  EXPECT_FALSE(compileOpenCLFile(kernel, "-DM=1").fromCache);
  write("n.h", "#define N 4\n");
  const CompileResult edited = compileOpenCLFile(kernel, "");
  EXPECT_FALSE(edited.fromCache);
  EXPECT_NE(edited.words, first.words);
  EXPECT_FALSE(compileOpenCLFile(kernel, "", /*useCache=*/false).fromCache);
}

// The prelude the driver includes is part of every key: a changed prelude compiles again
// even where spvsim's binary kept its size and time.
TEST_F(CacheTest, TheKeyHoldsThePrelude) {
  for (const char* tool : {"clang-15", "opt-15", "llvm-spirv-15"})
    if (!findOnPath(tool)) GTEST_SKIP() << tool << " is not installed";
  const std::string kernel = write("k.cl", "kernel void k(global int* a) { a[0] = 1; }\n");
  ASSERT_FALSE(compileOpenCLFile(kernel, "").fromCache);
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir_ / "cache"))
    if (e.path().extension() == ".entry") entries.push_back(readFile(e.path().string()));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_NE(entries[0].find(preludeText()), std::string::npos);
}

}  // namespace
}  // namespace spvsim::compiler
