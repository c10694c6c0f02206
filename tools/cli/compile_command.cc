#include "tools/cli/compile_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <string_view>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "spirv/normalize.h"
#include "src/files/whole_file.h"
#include "tools/cli/kernel_input.h"
#include "tools/cli/output_files.h"

namespace spvsim::tools {
namespace {

namespace fs = std::filesystem;

std::string outputPath(const RunOptions& o) {
  const std::string out =
      o.outputPath.empty() ? fs::path(o.input).stem().string() + ".spv" : o.outputPath;
  if (out == o.input || files::sameRegularFile(out, o.input))
    throw Error(DiagnosticKind::Usage,
                fmt::format("the output '{}' is the input; give another with -o", out));
  checkOutputs({{"-o", out}}, {o.input});  // fails before compiling
  return out;
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
  writeOutput("-o", path,
              std::string_view(reinterpret_cast<const char*>(n.words.data()),
                               n.words.size() * sizeof(uint32_t)));
  return 0;
}

}  // namespace spvsim::tools
