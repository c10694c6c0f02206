#include "tools/compile_cl.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "tools/arg_info_strings.h"
#include "tools/text_util.h"

extern char** environ;

namespace spvsim::tools {
namespace {

namespace fs = std::filesystem;

constexpr const char* kClang = "clang-15";
constexpr const char* kTranslator = "llvm-spirv-15";
constexpr const char* kDisassembler = "llvm-dis-15";
// Every extension but two whose capabilities the SPIR-V validator refuses for OpenCL and
// which only carry hints: SPV_INTEL_optnone (-O0 marks functions optnone) and
// SPV_INTEL_fp_fast_math_mode (fast-math options; core FPFastMathMode is used instead).
constexpr const char* kTranslatorExtensions =
    "--spirv-ext=+all,-SPV_INTEL_optnone,-SPV_INTEL_fp_fast_math_mode";

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

  // Writes `text` to `name` (a relative path; missing folders are created).
  void write(const fs::path& name, std::string_view text) const {
    const fs::path target = path_ / name;
    fs::create_directories(target.parent_path());
    std::ofstream out(target, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush())
      throw Error("input",
                  fmt::format("cannot write '{}': {}", target.string(), std::strerror(errno)));
  }

 private:
  fs::path path_;
};

struct ProcessResult {
  int status = 0;  // exit code, or 128 + signal
  std::string output;
};

// Runs argv (no shell) with stdout and stderr going to `logPath` and, when `stdinPath` is
// not empty, standard input read from it.
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

// One tool run of a compilation. On failure the message names `source` and the tool, or
// is just the tool's output when `source` is empty (a build log wants only that).
void runStep(const std::string& tool, const std::vector<std::string>& argv,
             const std::string& logPath, const std::string& source, std::string& log,
             const std::string& stdinPath = "") {
  ProcessResult r = runProcess(tool, argv, logPath, stdinPath);
  if (r.status != 0) {
    if (source.empty())
      throw Error("compile", r.output.empty()
                                 ? fmt::format("{} exited with status {}", argv[0], r.status)
                                 : std::string(trim(r.output)));
    throw Error("compile", fmt::format("compiling '{}' failed ({} exited with status {}):\n{}",
                                       source, argv[0], r.status, trim(r.output)));
  }
  log += r.output;
}

// A header include name must stay inside the temporary directory.
fs::path headerPath(const std::string& name) {
  const fs::path p = fs::path(name).lexically_normal();
  if (name.empty() || p.is_absolute() || *p.begin() == "..")
    throw Error("usage", fmt::format("header include name '{}' is not a relative path inside "
                                     "the include directory",
                                     name));
  return p;
}

// The kernel argument info strings of the bitcode (tools/arg_info_strings.h), from
// llvm-dis-15's output; none when llvm-dis-15 is missing or fails (only
// clGetKernelArgInfo's type names and qualifiers lose precision then).
std::vector<std::string> argInfoStrings(const TempDir& dir, const std::string& bitcode) {
  const std::optional<std::string> disassembler = findOnPath(kDisassembler);
  if (!disassembler) return {};
  const std::string ir = dir.file("kernel.ll");
  const ProcessResult r =
      runProcess(*disassembler, {kDisassembler, bitcode, "-o", ir}, dir.file("llvm-dis.log"), "");
  if (r.status != 0) return {};
  return kernelArgStrings(readTextFile(ir));
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

CompiledProgram compileOpenCLSource(std::string_view source, std::string_view buildOptions,
                                    const std::vector<SourceHeader>& headers) {
  std::vector<std::string> options = splitBuildOptions(buildOptions);
  const std::string clang = requireTool(kClang), translator = requireTool(kTranslator);
  TempDir dir;
  dir.write("source.cl", source);
  if (!headers.empty()) {
    // The first of several headers with one name wins (clCompileProgram).
    std::vector<fs::path> seen;
    for (const SourceHeader& h : headers) {
      const fs::path p = headerPath(h.name);
      if (std::find(seen.begin(), seen.end(), p) != seen.end()) continue;
      seen.push_back(p);
      dir.write(fs::path("include") / p, h.text);
    }
    options.insert(options.begin(), {"-I", dir.file("include")});
  }
  options.insert(options.end(), {"-x", "cl"});  // stdin has no extension to go by
  const std::string bitcode = dir.file("kernel.bc"), spirv = dir.file("kernel.spv");
  CompiledProgram out;
  runStep(clang, clangCommand("-", bitcode, options), dir.file("clang.log"), "", out.log,
          dir.file("source.cl"));
  runStep(translator, {kTranslator, kTranslatorExtensions, bitcode, "-o", spirv},
          dir.file("llvm-spirv.log"), "", out.log);
  out.words = withOpStrings(spirv::readBinaryFile(spirv), argInfoStrings(dir, bitcode));
  return out;
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
  runStep(translator, {kTranslator, kTranslatorExtensions, bitcode, "-o", spirv},
          dir.file("llvm-spirv.log"), sourcePath, out.log);
  out.words = spirv::readBinaryFile(spirv);
  return out;
}

}  // namespace spvsim::tools
