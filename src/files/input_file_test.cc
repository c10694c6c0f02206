// InputFile: regular files are read whole or in part; FIFOs (which would block the open
// or the read), devices (/dev/zero never ends), sockets and directories are refused
// with what they are, missing files as missing.
#include "src/files/input_file.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"

namespace spvsim::files {
namespace {

namespace fs = std::filesystem;

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // The message readInputFile throws for `p`.
  static std::string errorOf(const std::string& p) {
    try {
      readInputFile(p);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), DiagnosticKind::Input);
      return e.what();
    }
    return "no error";
  }
  fs::path dir_;
};

TEST_F(InputFileTest, ReadsRegularFilesWholeAndInPart) {
  std::ofstream(path("a.bin"), std::ios::binary) << "0123456789";
  EXPECT_EQ(readInputFile(path("a.bin")), "0123456789");
  InputFile f(path("a.bin"));
  EXPECT_EQ(f.readAt(3, 4), (std::vector<uint8_t>{'3', '4', '5', '6'}));
  try {
    f.readAt(8, 4);
    ADD_FAILURE() << "read past the end";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read 4 bytes of '" + path("a.bin") + "'");
  }
  fs::create_symlink("a.bin", path("link.bin"));  // links are followed
  EXPECT_EQ(readInputFile(path("link.bin")), "0123456789");
  std::ofstream(path("empty"));
  EXPECT_EQ(readInputFile(path("empty")), "");
}

TEST_F(InputFileTest, RefusesWhatIsNotARegularFile) {
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_EQ(errorOf(path("fifo")), "'" + path("fifo") + "' is not a regular file (it is a FIFO)");
  EXPECT_EQ(errorOf("/dev/zero"), "'/dev/zero' is not a regular file (it is a character device)");
  EXPECT_EQ(errorOf(dir_.string()),
            "'" + dir_.string() + "' is not a regular file (it is a directory)");
  EXPECT_EQ(errorOf(path("gone")), "cannot open '" + path("gone") + "': no such file");
  EXPECT_EQ(errorOf(path("gone/x")), "cannot open '" + path("gone/x") + "': no such file");

  const int s = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  // A short folder of its own: a socket's path must fit sun_path (108 bytes).
  char folder[] = "/tmp/spvsim-input-XXXXXX";
  ASSERT_NE(mkdtemp(folder), nullptr);
  const std::string sock = std::string(folder) + "/sock";
  ASSERT_LT(sock.size(), sizeof addr.sun_path);
  std::strcpy(addr.sun_path, sock.c_str());
  ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(specialFileKind(sock), "a socket");
  try {
    requireRegularFile(sock);
    ADD_FAILURE() << "a socket was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "'" + sock + "' is not a regular file (it is a socket)");
  }
  close(s);
  fs::remove_all(folder);
  EXPECT_EQ(specialFileKind("/dev/null"), "a character device");
  std::ofstream(path("plain"));
  EXPECT_EQ(specialFileKind(path("plain")), "");
}

}  // namespace
}  // namespace spvsim::files
