#include "tools/compile_cl.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "tools/text_util.h"

extern char** environ;

namespace spvsim::tools {
namespace {

namespace fs = std::filesystem;

constexpr const char* kClang = "clang-15";
constexpr const char* kTranslator = "llvm-spirv-15";

// A private directory (mode 0700 from mkdtemp), removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/spvsim-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(pattern.data()))
      throw Error("input",
                  fmt::format("cannot create a temporary directory in {}: {}",
                              fs::path(pattern).parent_path().string(), std::strerror(errno)));
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(std::string_view name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

struct ProcessResult {
  int status = 0;  // exit code, or 128 + signal
  std::string output;
};

// Runs argv (no shell) with stdout and stderr going to `logPath`.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& argv,
                         const std::string& logPath) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error("input", fmt::format("cannot start {}: {}", program, std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ProcessResult result;
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::error_code ec;
  if (fs::exists(logPath, ec)) result.output = readTextFile(logPath);
  return result;
}

std::string requireTool(const char* name) {
  if (auto path = findOnPath(name)) return *path;
  throw Error("input", fmt::format("{} is not on PATH; it is needed to compile OpenCL C (Debian "
                                   "package {}), or pass a .spv or .spvasm instead",
                                   name, name));
}

void runStep(const std::string& tool, const std::vector<std::string>& argv,
             const std::string& logPath, const std::string& source, std::string& log) {
  ProcessResult r = runProcess(tool, argv, logPath);
  if (r.status != 0)
    throw Error("compile", fmt::format("compiling '{}' failed ({} exited with status {}):\n{}",
                                       source, argv[0], r.status, trim(r.output)));
  log += r.output;
}

}  // namespace

std::vector<std::string> splitBuildOptions(std::string_view options) {
  std::vector<std::string> out;
  std::string current;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < options.size(); ++i) {
    const char c = options[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < options.size())
        current += options[++i];
      else
        current += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == '\\' && i + 1 < options.size()) {
      current += options[++i];
      inWord = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord) out.push_back(std::move(current));
      current.clear();
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw Error("usage", fmt::format("--build-options has an unclosed {} quote", quote));
  if (inWord) out.push_back(std::move(current));
  return out;
}

std::vector<std::string> clangCommand(const std::string& source, const std::string& bitcode,
                                      const std::vector<std::string>& userOptions) {
  std::vector<std::string> argv = {kClang};
  bool stdGiven = false;
  for (const std::string& o : userOptions) stdGiven |= o.rfind("-cl-std=", 0) == 0;
  if (!stdGiven) argv.push_back("-cl-std=CL3.0");
  for (const char* flag :
       {"-cl-kernel-arg-info", "-target", "spir64", "-Xclang", "-no-opaque-pointers",
        "-cl-no-stdinc", "-Xclang", "-finclude-default-header", "-O2"})
    argv.push_back(flag);
  argv.insert(argv.end(), userOptions.begin(), userOptions.end());
  for (const std::string& tail :
       {std::string("-emit-llvm"), std::string("-c"), source, std::string("-o"), bitcode})
    argv.push_back(tail);
  return argv;
}

std::optional<std::string> findOnPath(std::string_view program) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  for (std::string_view dir : split(path, ':')) {
    if (dir.empty()) dir = ".";
    const std::string candidate = fmt::format("{}/{}", dir, program);
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
  }
  return std::nullopt;
}

CompiledProgram compileOpenCL(const std::string& sourcePath, std::string_view buildOptions) {
  const std::vector<std::string> userOptions = splitBuildOptions(buildOptions);
  const std::string clang = requireTool(kClang), translator = requireTool(kTranslator);
  if (!fs::is_regular_file(sourcePath))
    throw Error("input", fmt::format("cannot open '{}': no such file", sourcePath));
  TempDir dir;
  const std::string bitcode = dir.file("kernel.bc"), spirv = dir.file("kernel.spv");
  CompiledProgram out;
  runStep(clang, clangCommand(sourcePath, bitcode, userOptions), dir.file("clang.log"), sourcePath,
          out.log);
  runStep(translator, {kTranslator, "--spirv-ext=+all", bitcode, "-o", spirv},
          dir.file("llvm-spirv.log"), sourcePath, out.log);
  out.words = spirv::readBinaryFile(spirv);
  return out;
}

}  // namespace spvsim::tools
