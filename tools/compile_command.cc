#include "tools/compile_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "spirv/normalize.h"
#include "tools/kernel_input.h"

namespace spvsim::tools {
namespace {

namespace fs = std::filesystem;

std::string outputPath(const RunOptions& o) {
  const std::string out =
      o.outputPath.empty() ? fs::path(o.input).stem().string() + ".spv" : o.outputPath;
  std::error_code ec;
  if (fs::equivalent(out, o.input, ec))
    throw Error(DiagnosticKind::Usage,
                fmt::format("the output '{}' is the input; give another with -o", out));
  return out;
}

void writeWords(const std::string& path, const std::vector<uint32_t>& words) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(words.data()),
             static_cast<std::streamsize>(words.size() * sizeof(uint32_t)));
  if (!file.flush())
    throw Error(DiagnosticKind::Input,
                fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
}

}  // namespace

int compileCommand(const RunOptions& o, std::ostream& err) {
  const std::string path = outputPath(o);
  compiler::CompileResult build = readKernel(o.input, o.buildOptions, !o.noCache);
  err << build.log;
  // A module from elsewhere is written as the loader repairs it, so other tools accept it.
  spirv::NormalizedModule n = spirv::normalizeModule(std::move(build.words));
  const spirv::Module module = spirv::loadModule(n.words);
  err << repairWarnings(module);
  writeWords(path, n.words);
  return 0;
}

}  // namespace spvsim::tools
