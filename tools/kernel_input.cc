#include "tools/kernel_input.h"

#include <fmt/format.h>

#include <filesystem>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "tools/text_util.h"

namespace spvsim::tools {

CompiledProgram readKernel(const std::string& path, std::string_view buildOptions) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw Error("input", fmt::format("cannot open '{}': no such file", path));
  if (endsWith(path, ".cl")) return compileOpenCL(path, buildOptions);
  CompiledProgram out;
  if (endsWith(path, ".spv"))
    out.words = spirv::readBinaryFile(path);
  else if (endsWith(path, ".spvasm"))
    out.words = spirv::assemble(readTextFile(path));
  else
    throw Error("input", fmt::format("'{}': unknown kernel file type; expected .spv, .spvasm or "
                                     ".cl (or .sim for spvsim run)",
                                     path));
  if (!trim(buildOptions).empty())
    out.log = fmt::format(
        "warning: --build-options only applies to .cl kernels; ignored for '{}'\n", path);
  return out;
}

}  // namespace spvsim::tools
