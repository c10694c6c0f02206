#include "src/files/whole_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "spirv/error.h"

namespace spvsim::files {
namespace {

namespace fs = std::filesystem;

class WholeFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void put(const std::string& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
  }
  // The folder's entries: no temporary file may be left behind.
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path dir_;
};

TEST_F(WholeFileTest, CreatesAndReplaces) {
  writeFileWhole(path("r.json"), "first\n");
  EXPECT_EQ(read(path("r.json")), "first\n");
  writeFileWhole(path("r.json"), "second, longer\n");
  EXPECT_EQ(read(path("r.json")), "second, longer\n");
  writeFileWhole(path("r.json"), "");
  EXPECT_EQ(read(path("r.json")), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"r.json"});
}

TEST_F(WholeFileTest, KeepsTheOldFilesPermissions) {
  put(path("private"), "old");
  ASSERT_EQ(chmod(path("private").c_str(), 0600), 0);
  writeFileWhole(path("private"), "new");
  struct stat st {};
  ASSERT_EQ(stat(path("private").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// Writes `contents` to `path` with files past `limit` bytes refused (RLIMIT_FSIZE, with
// SIGXFSZ ignored so that write returns EFBIG, as on a full disk): exits 3 with the error
// on stderr, 0 when the write succeeded. Run in a death-test child: the limit is its own.
[[noreturn]] void writeWithSizeLimit(const std::string& path, const std::string& contents,
                                     rlim_t limit) {
  signal(SIGXFSZ, SIG_IGN);
  const rlimit fsize{limit, limit};
  setrlimit(RLIMIT_FSIZE, &fsize);
  try {
    writeFileWhole(path, contents);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::_Exit(3);
  }
  std::_Exit(0);
}

// A write that fails part-way leaves the old file whole and no temporary file.
TEST_F(WholeFileTest, FailedWriteLeavesTheOldFile) {
  put(path("r.json"), "old report\n");
  EXPECT_EXIT(writeWithSizeLimit(path("r.json"), std::string(64 * 1024, 'x'), 4096),
              ::testing::ExitedWithCode(3), "cannot write '.*r.json': File too large");
  EXPECT_EQ(read(path("r.json")), "old report\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"r.json"});
}

TEST_F(WholeFileTest, MissingFolderFails) {
  try {
    writeFileWhole(path("no/such/r.json"), "x");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Input);
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(WholeFileTest, ADirectoryIsRefused) {
  fs::create_directory(path("d"));
  EXPECT_THROW(writeFileWhole(path("d"), "x"), Error);
  EXPECT_EQ(unwritableReason(path("d")), "it is a directory");
  EXPECT_TRUE(fs::is_directory(path("d")));
}

TEST_F(WholeFileTest, ALinkIsFollowed) {
  put(path("target"), "old");
  fs::create_symlink("target", path("link"));
  writeFileWhole(path("link"), "new");
  EXPECT_TRUE(fs::is_symlink(path("link")));
  EXPECT_EQ(read(path("target")), "new");
  EXPECT_EQ(entries(), (std::vector<std::string>{"link", "target"}));
}

TEST_F(WholeFileTest, DevicesAreWrittenInPlace) {
  writeFileWhole("/dev/null", "discarded");
  EXPECT_EQ(unwritableReason("/dev/null"), "");
  try {
    writeFileWhole("/dev/full", "no room");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write '/dev/full': No space left on device");
  }
}

TEST_F(WholeFileTest, UnwritableReasons) {
  EXPECT_EQ(unwritableReason(path("new.json")), "");
  put(path("old.json"), "x");
  EXPECT_EQ(unwritableReason(path("old.json")), "");
  EXPECT_NE(unwritableReason(path("missing/new.json")).find("cannot use the folder"),
            std::string::npos);
  EXPECT_NE(unwritableReason(path("old.json/new.json")).find("is not a folder"), std::string::npos);
}

TEST_F(WholeFileTest, SameRegularFileByInode) {
  put(path("a"), "x");
  put(path("b"), "x");
  fs::create_hard_link(path("a"), path("hard"));
  EXPECT_TRUE(sameRegularFile(path("a"), path("a")));
  EXPECT_TRUE(sameRegularFile(path("a"), path("hard")));
  EXPECT_TRUE(sameRegularFile(path("a"), (dir_ / "." / "a").string()));
  EXPECT_FALSE(sameRegularFile(path("a"), path("b")));
  EXPECT_FALSE(sameRegularFile(path("a"), path("missing")));
  EXPECT_FALSE(sameRegularFile("/dev/null", "/dev/null"));  // not a file that can be lost
}

TEST_F(WholeFileTest, TemporarySiblingsAreUniqueAndBeside) {
  const std::string a = temporarySibling(path("r.json")), b = temporarySibling(path("r.json"));
  EXPECT_NE(a, b);
  EXPECT_EQ(a.rfind(path("r.json.tmp."), 0), 0u) << a;
  const std::string hidden = temporarySibling(path("0001-k"), ".tmp-");
  EXPECT_EQ(hidden.rfind(path(".tmp-0001-k."), 0), 0u) << hidden;
}

TEST_F(WholeFileTest, RenameNoReplaceKeepsAnExistingFolder) {
  fs::create_directory(path("new"));
  put(path("new/f"), "new");
  fs::create_directory(path("taken"));
  put(path("taken/f"), "taken");
  EXPECT_FALSE(renameNoReplace(path("new"), path("taken")));
  EXPECT_EQ(read(path("taken/f")), "taken");
  EXPECT_TRUE(renameNoReplace(path("new"), path("free")));
  EXPECT_EQ(read(path("free/f")), "new");
  EXPECT_FALSE(fs::exists(path("new")));
  EXPECT_THROW(renameNoReplace(path("gone"), path("other")), Error);
}

}  // namespace
}  // namespace spvsim::files
