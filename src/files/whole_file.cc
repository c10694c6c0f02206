#include "src/files/whole_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>

#include "spirv/error.h"

namespace spvsim::files {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw Error(DiagnosticKind::Input, fmt::format("cannot write '{}': {}", path, why));
}

uint32_t randomWord() {
  try {
    return std::random_device{}();
  } catch (const std::exception&) {  // no entropy source: the clock still differs per call
    return uint32_t(std::chrono::steady_clock::now().time_since_epoch().count());
  }
}

// Where a write to `path` lands: a symbolic link's target, so that writing a report
// through a link updates the file it names rather than replacing the link.
std::string resolved(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(path, ec);
  return ec ? path : target.string();
}

// Every byte of `contents` to `fd` (write may take less than asked, or be interrupted).
// Returns 0 or the errno of the failure.
int writeAll(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    contents.remove_prefix(size_t(n));
  }
  return 0;
}

// Writes and closes `fd`; the errno of the first failure, or 0.
int writeAndClose(int fd, std::string_view contents) {
  const int writeError = writeAll(fd, contents);
  const int closeError = ::close(fd) == 0 ? 0 : errno;
  return writeError ? writeError : closeError;
}

// A device, FIFO or socket cannot be replaced by rename: it gets the bytes directly.
void writeInPlace(const std::string& path, std::string_view contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::strerror(errno));
  if (const int e = writeAndClose(fd, contents)) fail(path, std::strerror(e));
}

// Creates a fresh temporary file beside `target`: its name and descriptor.
std::pair<std::string, int> createTemporary(const std::string& target) {
  for (int tries = 0;; ++tries) {
    std::string temp = temporarySibling(target);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return {std::move(temp), fd};
    if (errno != EEXIST || tries == 100)
      fail(target, fmt::format("cannot create '{}': {}", temp, std::strerror(errno)));
  }
}

}  // namespace

std::string temporarySibling(const std::string& path, std::string_view prefix) {
  const std::string unique = fmt::format("{}.{:08x}", getpid(), randomWord());
  if (prefix.empty()) return fmt::format("{}.tmp.{}", path, unique);
  const fs::path p(path);
  return (p.parent_path() / fmt::format("{}{}.{}", prefix, p.filename().string(), unique)).string();
}

void writeFile(const std::string& path, std::string_view contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, std::strerror(errno));
  if (const int e = writeAndClose(fd, contents)) fail(path, std::strerror(e));
}

void writeFileWhole(const std::string& path, std::string_view contents) {
  const std::string target = resolved(path);
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(path, "it is a directory");
  if (exists && !S_ISREG(st.st_mode)) return writeInPlace(target, contents);
  const auto [temp, fd] = createTemporary(target);
  if (exists) fchmod(fd, st.st_mode & 07777);  // the report keeps the old file's permissions
  int error = writeAndClose(fd, contents);
  if (!error && ::rename(temp.c_str(), target.c_str()) != 0) error = errno;
  if (error) {
    ::unlink(temp.c_str());
    fail(path, std::strerror(error));
  }
}

std::string unwritableReason(const std::string& path) {
  const std::string target = resolved(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "it is a directory";
    if (!S_ISREG(st.st_mode))
      return ::access(target.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  }
  // A new file (or the temporary one that replaces it) is created in the folder.
  const fs::path parent = fs::path(target).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (::stat(folder.c_str(), &st) != 0)
    return fmt::format("cannot use the folder '{}': {}", folder, std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return fmt::format("'{}' is not a folder", folder);
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return fmt::format("cannot create files in '{}': {}", folder, std::strerror(errno));
  return "";
}

bool sameRegularFile(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode) && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

bool renameNoReplace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return true;
  if (errno == EEXIST) return false;
  // A file system without RENAME_NOREPLACE: rename still refuses a non-empty folder.
  if ((errno == EINVAL || errno == ENOSYS) && ::rename(from.c_str(), to.c_str()) == 0) return true;
  if (errno == EEXIST || errno == ENOTEMPTY) return false;
  throw Error(DiagnosticKind::Input,
              fmt::format("cannot rename '{}' to '{}': {}", from, to, std::strerror(errno)));
}

}  // namespace spvsim::files
