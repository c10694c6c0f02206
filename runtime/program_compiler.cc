#include "runtime/program_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <spirv-tools/linker.hpp>

#include "runtime/knobs.h"
#include "runtime/spirv_edit.h"
#include "spirv/error.h"
#include "src/compiler/build_options.h"
#include "src/compiler/opencl_c_support.h"

namespace spvsim::rt {
namespace {

constexpr const char* kDefaultStd = compiler::kApiDefaultStd;
constexpr uint32_t kVersion14 = 0x00010400;

// The error codes of the API call a step runs for.
struct Codes {
  cl_int failure;     // CL_BUILD_PROGRAM_FAILURE, CL_COMPILE_PROGRAM_FAILURE, ...
  cl_int badOptions;  // CL_INVALID_BUILD_OPTIONS, CL_INVALID_COMPILER_OPTIONS, ...
};
constexpr Codes kBuild{CL_BUILD_PROGRAM_FAILURE, CL_INVALID_BUILD_OPTIONS};
constexpr Codes kCompile{CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS};
constexpr Codes kLink{CL_LINK_PROGRAM_FAILURE, CL_INVALID_LINKER_OPTIONS};

BuildResult failed(cl_int error, std::string log, ParseCount parses = {}) {
  BuildResult r;
  r.error = error;
  r.parses = parses;
  r.log = std::move(log);
  if (!r.log.empty() && r.log.back() != '\n') r.log += '\n';
  return r;
}

// "error: KIND: message" for the build log.
std::string logLine(const Error& e) {
  const std::string message = e.what();
  if (message.rfind(std::string(e.kindName()) + ":", 0) == 0) return "error: " + message;
  return fmt::format("error: {}: {}", e.kind(), message);
}

// What the application's options mean beyond the compiler's: whether the kernels only
// support uniform work-groups. Throws Error(DiagnosticKind::Usage) for an unclosed quote.
bool uniformWorkGroupsOnly(const std::string& options) {
  const std::vector<std::string> args = compiler::splitBuildOptions(options);
  const std::string std = compiler::openclCStandard(args, kDefaultStd);
  // Non-uniform work-groups need OpenCL C 2.0 or later (clEnqueueNDRangeKernel).
  return std::find(args.begin(), args.end(), "-cl-uniform-work-group-size") != args.end() ||
         compiler::openclCVersion(std) < 200;
}

// A failure whose messages name no source position is about the options:
// "clang: error: unknown argument: '-foo'", "error: invalid value 'CL9.9' in ...".
bool isOptionError(const std::string& log) {
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string_view line(log.data() + start, end - start);
    for (std::string_view prefix : {"error: ", "clang: error: ", "clang-15: error: "})
      if (line.substr(0, prefix.size()) == prefix) return true;
    start = end + 1;
  }
  return false;
}

// A compiled object of `words`: the compile driver validated them (or program creation
// loaded them), so nothing needs to read them here.
BuildResult compiledObject(std::vector<uint32_t> words, bool uniform) {
  BuildResult r;
  r.facts.binaryType = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  r.facts.uniformWorkGroups = uniform;
  r.facts.version = words.size() > 1 ? words[1] : 0;
  r.binary = std::move(words);
  return r;
}

// OpenCL C -> a compiled object. The options go
// to the compile driver as they are: OpenCL C 1.2 when they name no version (the API
// spec's default); the driver maps -cl-opt-disable and drops -cl-no-subgroup-ifp.
BuildResult compile(const std::string& source, const std::string& options,
                    const std::vector<compiler::SourceHeader>& headers, Codes codes) {
  bool uniform = false;
  try {
    uniform = uniformWorkGroupsOnly(options);
  } catch (const Error& e) {
    return failed(codes.badOptions, logLine(e));
  }
  try {
    compiler::CompileRequest request;
    request.source = source;
    request.options = options;
    request.headers = headers;
    request.defaultStd = kDefaultStd;
    compiler::CompileResult c = compiler::compileOpenCL(request);
    BuildResult r = compiledObject(std::move(c.words), uniform);
    r.log = std::move(c.log);
    return r;
  } catch (const Error& e) {
    if (e.kind() == DiagnosticKind::Input) return failed(CL_COMPILER_NOT_AVAILABLE, logLine(e));
    if (e.kind() == DiagnosticKind::Usage) return failed(codes.badOptions, logLine(e));
    const std::string log = e.what();
    return failed(isOptionError(log) ? codes.badOptions : codes.failure, log);
  }
}

// Options of a SPIR-V program: only -cl-uniform-work-group-size matters (the language
// options are "ignored for programs created with IL").
bool ilUniformWorkGroups(const std::string& options, BuildResult& error, Codes codes) {
  try {
    const std::vector<std::string> args = compiler::splitBuildOptions(options);
    return std::find(args.begin(), args.end(), "-cl-uniform-work-group-size") != args.end();
  } catch (const Error& e) {
    error = failed(codes.badOptions, logLine(e));
    return false;
  }
}

// The facts of a loaded executable: it is the one pass over the module's words.
ProgramFacts executableFacts(const Program& program, bool uniform) {
  ProgramFacts f;
  f.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  f.uniformWorkGroups = uniform;
  f.version = program.module().version;
  for (const auto& ep : program.module().entryPoints) f.kernelNames.push_back(ep.name);
  return f;
}

// Loads a linked module (without markers) and lowers every kernel at the sub-group size
// it will run with; the build's one load.
BuildResult load(std::vector<uint32_t> words, bool uniform, cl_int failure,
                 ParseCount parses = {}) {
  try {
    ++parses.loads;
    std::shared_ptr<Program> program = Program::load(std::move(words), {}, knobs().maxMemory);
    // The device has 64-bit addresses (CL_DEVICE_ADDRESS_BITS): a 32-bit module is not
    // for it, as on any 64-bit device (`spvsim run` executes it as a 32-bit device would).
    if (program->module().addressing == spv::AddressingModel::Physical32)
      return failed(failure,
                    "error: the module uses the Physical32 addressing model (32-bit pointers), "
                    "but this device's CL_DEVICE_ADDRESS_BITS is 64: use a Physical64 module "
                    "(-target spir64); `spvsim run` executes Physical32 modules",
                    parses);
    for (const auto& ep : program->module().entryPoints) {
      const Program::Kernel kernel = program->kernel(ep.name);
      program->lowered(kernel, program->subGroupSizeFor(kernel, knobs().subGroupSize));
    }
    BuildResult r;
    r.binary = program->module().words;  // as loaded: repairs, if any, included
    r.facts = executableFacts(*program, uniform);
    r.parses = parses;
    r.executable = std::move(program);
    return r;
  } catch (const Error& e) {
    // Program-scope variables beyond the memory limit: device memory the build cannot
    // allocate, "CL_OUT_OF_RESOURCES if there is a failure to allocate resources
    // required by the OpenCL implementation on the device" (clBuildProgram, clLinkProgram).
    return failed(e.kind() == DiagnosticKind::OutOfMemory ? CL_OUT_OF_RESOURCES : failure,
                  logLine(e), parses);
  }
}

// SPIRV-Tools' linker over modules brought to one SPIR-V version (it requires that).
BuildResult link(const std::vector<std::vector<uint32_t>>& modules, bool library, cl_int failure) {
  uint32_t version = 0;
  for (const auto& m : modules) version = std::max(version, m.size() > 1 ? m[1] : 0u);
  BuildResult r;
  std::vector<std::vector<uint32_t>> inputs;
  for (const auto& m : modules) {
    // Raising a module to 1.4 decodes it to list its variables in the interfaces.
    if (m.size() > 1 && m[1] < kVersion14 && version >= kVersion14) ++r.parses.decodes;
    inputs.push_back(withVersion(m, version));
  }
  spvtools::Context context(SPV_ENV_UNIVERSAL_1_6);
  std::string log;
  context.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        log += fmt::format("error: link: {}\n", message);
      });
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(library);
  options.SetAllowPartialLinkage(library);  // a library may import what others export
  if (spvtools::Link(context, inputs, &r.binary, options) != SPV_SUCCESS)
    return failed(failure, log.empty() ? "error: link: the modules cannot be linked" : log,
                  r.parses);
  r.facts.version = version;
  return r;
}

BuildResult linkAndLoad(const std::vector<std::vector<uint32_t>>& modules, bool uniform,
                        cl_int failure) {
  // One module needs no linking; the linker would also merge its identical struct types,
  // which breaks OpCopyLogical between them. It was validated when it was made.
  if (modules.size() == 1) return load(modules.front(), uniform, failure);
  BuildResult linked = link(modules, false, failure);
  if (linked.error != CL_SUCCESS) return linked;
  // The linker drops Linkage from an executable, which SPIR-V requires without kernels.
  ++linked.parses.leading;
  return load(withLinkageIfNoEntryPoints(std::move(linked.binary)), uniform, failure,
              linked.parses);
}

}  // namespace

BuildResult buildSource(const std::string& source, const std::string& options) {
  BuildResult compiled = compile(source, options, {}, kBuild);
  if (compiled.error != CL_SUCCESS) return compiled;
  BuildResult r =
      load(std::move(compiled.binary), compiled.facts.uniformWorkGroups, kBuild.failure);
  r.log = compiled.log + r.log;
  return r;
}

BuildResult buildIL(std::vector<uint32_t> words, const std::string& options) {
  BuildResult error;
  const bool uniform = ilUniformWorkGroups(options, error, kBuild);
  if (error.error != CL_SUCCESS) return error;
  return load(std::move(words), uniform, kBuild.failure);
}

BuildResult buildBinary(std::vector<uint32_t> binary, bool uniform) {
  if (binary.empty()) return failed(CL_INVALID_BINARY, "error: the program has no binary");
  return load(std::move(binary), uniform, kBuild.failure);
}

BuildResult compileSource(const std::string& source, const std::string& options,
                          const std::vector<compiler::SourceHeader>& headers) {
  return compile(source, options, headers, kCompile);
}

BuildResult compileIL(std::vector<uint32_t> words, const std::string& options) {
  BuildResult error;
  const bool uniform = ilUniformWorkGroups(options, error, kCompile);
  if (error.error != CL_SUCCESS) return error;
  return compiledObject(std::move(words), uniform);
}

bool parseLinkOptions(const std::string& options, LinkOptions& out) {
  static const std::set<std::string> kMathOptions = {
      "-cl-denorms-are-zero", "-cl-no-signed-zeros",           "-cl-no-signed-zeroes",
      "-cl-finite-math-only", "-cl-unsafe-math-optimizations", "-cl-fast-relaxed-math",
      "-cl-no-subgroup-ifp"};
  std::vector<std::string> args;
  try {
    args = compiler::splitBuildOptions(options);
  } catch (const Error&) {
    return false;
  }
  bool enableLinkOptions = false;
  for (const std::string& a : args) {
    if (a == "-create-library")
      out.createLibrary = true;
    else if (a == "-enable-link-options")
      enableLinkOptions = true;
    else if (!kMathOptions.count(a))
      return false;
  }
  // -enable-link-options "must be specified with the create-library option".
  return !enableLinkOptions || out.createLibrary;
}

BuildResult linkPrograms(const std::vector<LinkInput>& inputs, const LinkOptions& options) {
  std::vector<std::vector<uint32_t>> modules;
  bool uniform = false;
  for (const LinkInput& in : inputs) {
    modules.push_back(in.binary);
    uniform |= in.uniformWorkGroups;  // any uniform-only input makes the result so
  }
  if (!options.createLibrary) return linkAndLoad(modules, uniform, kLink.failure);
  BuildResult r = link(modules, true, kLink.failure);
  if (r.error != CL_SUCCESS) return r;
  r.facts.binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
  r.facts.uniformWorkGroups = uniform;
  return r;
}

}  // namespace spvsim::rt
