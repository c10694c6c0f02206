#include "src/files/input_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "spirv/error.h"
#include "src/files/host_buffer.h"

namespace spvsim::files {

namespace {

std::string kindOf(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

[[noreturn]] void missing(const std::string& path) {
  throw Error(DiagnosticKind::Input, fmt::format("cannot open '{}': no such file", path));
}

[[noreturn]] void notRegular(const std::string& path, const std::string& kind) {
  throw Error(DiagnosticKind::Input,
              fmt::format("'{}' is not a regular file (it is {})", path, kind));
}

}  // namespace

std::string specialFileKind(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) missing(path);
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  }
  return kindOf(st.st_mode);
}

void requireRegularFile(const std::string& path) {
  if (const std::string kind = specialFileKind(path); !kind.empty()) notRegular(path, kind);
}

InputFile::InputFile(const std::string& path) : path_(path) {
  // O_NONBLOCK: opening a FIFO without a writer would wait for one.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) {
    if (errno == ENOENT || errno == ENOTDIR) missing(path);
    fail(std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd_, &st) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    fail(std::strerror(error));
  }
  if (const std::string kind = kindOf(st.st_mode); !kind.empty()) {
    ::close(fd_);
    fd_ = -1;
    notRegular(path, kind);
  }
  size_ = uint64_t(st.st_size);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::fail(const std::string& why) const {
  throw Error(DiagnosticKind::Input, fmt::format("cannot open '{}': {}", path_, why));
}

std::string InputFile::readAll() {
  std::string out;
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n == 0) return out;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(DiagnosticKind::Input,
                  fmt::format("cannot read '{}': {}", path_, std::strerror(errno)));
    }
    out.append(chunk, size_t(n));
  }
}

HostBytes InputFile::readAt(uint64_t offset, uint64_t size) {
  HostBytes out = zeroedBytes(size);
  uint64_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, out.data() + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error(DiagnosticKind::Input, fmt::format("cannot read {} bytes of '{}'", size, path_));
    done += uint64_t(n);
  }
  return out;
}

std::string readInputFile(const std::string& path) { return InputFile(path).readAll(); }

}  // namespace spvsim::files
