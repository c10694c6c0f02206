// Running the external compilers: a private scratch directory and a child process with
// its output captured. No shell is involved anywhere (arguments are passed as they are).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::compiler {

// A private directory (mode 0700 from mkdtemp) under $TMPDIR or /tmp, removed with
// everything in it. Throws Error(DiagnosticKind::Input) when it cannot be created.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(std::string_view name) const { return (path_ / name).string(); }
  // Writes `text` to `name` (a relative path; missing folders are created).
  void write(const std::filesystem::path& name, std::string_view text) const;

 private:
  std::filesystem::path path_;
};

struct ProcessResult {
  int status = 0;      // exit code, or 128 + signal
  std::string output;  // stdout and stderr together
};

// Runs argv[0] found as `program` (a full path) with stdout and stderr going to
// `logPath`, and standard input read from `stdinPath` when it is not empty.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& argv,
                         const std::string& logPath, const std::string& stdinPath = "");

// The full path of an executable found on PATH.
std::optional<std::string> findOnPath(std::string_view program);

// findOnPath, or Error(DiagnosticKind::Input) naming the Debian package that provides the tool.
std::string requireTool(std::string_view program, std::string_view package);

// argv as one line a POSIX shell would run as it is (for logs and `spvsim info`).
std::string shellQuoted(const std::vector<std::string>& argv);

// Reads a whole file; throws Error(DiagnosticKind::Input) naming the path and what failed.
std::string readFile(const std::string& path);

}  // namespace spvsim::compiler
