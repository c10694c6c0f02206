#include "tools/cli/kernel_input.h"

#include <fmt/format.h>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/files/input_file.h"
#include "tools/cli/bundle.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {

compiler::CompileResult readKernel(const std::string& path, std::string_view buildOptions,
                                   bool useCache) {
  // A capture bundle stands for its module (spvsim dis|info BUNDLE).
  if (isBundlePath(path)) return readKernel(readBundle(path).module, buildOptions, useCache);
  // Checked before the compiler opens a .cl file, which would wait on a FIFO.
  files::requireRegularFile(path);
  if (endsWith(path, ".cl")) return compiler::compileOpenCLFile(path, buildOptions, useCache);
  compiler::CompileResult out;
  if (endsWith(path, ".spv"))
    out.words = spirv::wordsFromBytes(files::readInputFile(path), path);
  else if (endsWith(path, ".spvasm"))
    out.words = spirv::assemble(std::string(withoutUtf8Bom(readTextFile(path))));
  else
    throw Error(DiagnosticKind::Input,
                fmt::format("'{}': unknown kernel file type; expected .spv, .spvasm or "
                            ".cl (or .sim for spvsim run)",
                            path));
  if (!trim(buildOptions).empty())
    out.log = fmt::format(
        "warning: --build-options only applies to .cl kernels; ignored for '{}'\n", path);
  return out;
}

std::string repairWarnings(const spirv::Module& module) {
  std::string out;
  for (const spirv::Repair& r : module.repairs)
    out += fmt::format("warning: repaired: {} ({})\n", r.rule, r.producer);
  return out;
}

std::string formatBuildInfo(const compiler::CompileResult& build, const spirv::Module& module) {
  std::string out;
  if (!build.commands.empty()) {
    out += fmt::format("Compiled{}:\n", build.fromCache ? " (from the compile cache)" : "");
    for (const std::string& c : build.commands) out += "  " + c + "\n";
  }
  for (const std::string& n : build.notes) out += "  " + n + "\n";
  for (const spirv::Repair& r : module.repairs)
    out += fmt::format("  SPIR-V: repaired: {} ({}, {}x)\n", r.rule, r.producer, r.count);
  return out;
}

}  // namespace spvsim::tools
