#include "src/compiler/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "spirv/error.h"

extern char** environ;

namespace spvsim::compiler {

namespace fs = std::filesystem;

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = fmt::format("{}/spvsim-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(pattern.data()))
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot create a temporary directory in {}: {}",
                            fs::path(pattern).parent_path().string(), std::strerror(errno)));
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void TempDir::write(const fs::path& name, std::string_view text) const {
  const fs::path target = path_ / name;
  fs::create_directories(target.parent_path());
  std::ofstream out(target, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out.flush())
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot write '{}': {}", target.string(), std::strerror(errno)));
}

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& argv,
                         const std::string& logPath, const std::string& stdinPath) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdinPath.empty())
    posix_spawn_file_actions_addopen(&actions, 0, stdinPath.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot start {}: {}", program, std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ProcessResult result;
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::error_code ec;
  if (fs::exists(logPath, ec)) result.output = readFile(logPath);
  return result;
}

std::optional<std::string> findOnPath(std::string_view program) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string_view rest = path;
  while (true) {
    const size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (dir.empty()) dir = ".";
    const std::string candidate = fmt::format("{}/{}", dir, program);
    std::error_code ec;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate, ec)) return candidate;
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

std::string requireTool(std::string_view program, std::string_view package) {
  if (auto path = findOnPath(program)) return *path;
  throw Error(DiagnosticKind::Input,
              fmt::format("{} is not on PATH; it is needed to compile OpenCL C (Debian "
                          "package {}), or pass a .spv or .spvasm instead",
                          program, package));
}

std::string shellQuoted(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789-_=+,./:@%") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string readFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw Error(DiagnosticKind::Input, fmt::format("cannot read '{}': it is a directory", path));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(DiagnosticKind::Input, fmt::format("cannot read '{}'", path));
  return text.str();
}

}  // namespace spvsim::compiler
