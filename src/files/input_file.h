// Input files read whole or in part: kernels, .sim files, `file(PATH)` initialisers,
// capture bundles. Only regular files are read: a FIFO blocks a reader until a writer
// comes, /dev/zero never ends, a directory has no bytes, so each is refused up front
// with what it is, and a name that leads nowhere is "missing".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/files/host_buffer.h"

namespace spvsim::files {

// What the file `path` names is, when it is not a regular file: "a directory", "a FIFO",
// "a character device", "a block device", "a socket", or "" for a regular file.
// Symbolic links are followed. Throws Error(DiagnosticKind::Input)
// "cannot open 'PATH': no such file" when nothing is there.
std::string specialFileKind(const std::string& path);

// Throws Error(DiagnosticKind::Input) "'PATH' is not a regular file (it is a FIFO)" for
// a special file and "cannot open 'PATH': no such file" for a missing one.
void requireRegularFile(const std::string& path);

// A regular file open for reading. The open does not wait for a FIFO's writer (it is
// made with O_NONBLOCK and the file's kind is checked on the open descriptor, so a file
// replaced between a check and the open cannot slip through).
class InputFile {
 public:
  // Throws Error(DiagnosticKind::Input) as requireRegularFile does, or "cannot open
  // 'PATH': REASON".
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The file's size when it was opened.
  uint64_t size() const { return size_; }
  // Every byte to the end of the file.
  std::string readAll();
  // `size` bytes from `offset`; throws "cannot read N bytes of 'PATH'" when the file
  // ends first.
  HostBytes readAt(uint64_t offset, uint64_t size);

 private:
  [[noreturn]] void fail(const std::string& why) const;
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// InputFile(path).readAll().
std::string readInputFile(const std::string& path);

}  // namespace spvsim::files
