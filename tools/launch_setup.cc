#include "tools/launch_setup.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "spirv/error.h"
#include "tools/arg_spec.h"
#include "tools/compile_cl.h"
#include "tools/info_command.h"
#include "tools/kernel_input.h"
#include "tools/output.h"
#include "tools/params.h"
#include "tools/sim_file.h"
#include "tools/text_util.h"

namespace spvsim::tools {
namespace {

std::shared_ptr<Program> loadProgram(const std::string& path, const std::string& buildOptions,
                                     Compile compile, std::ostream& err) {
  const bool debug = compile == Compile::DebugInfo && endsWith(path, ".cl");
  CompiledProgram compiled =
      readKernel(path, debug ? debugBuildOptions(buildOptions) : buildOptions);
  err << compiled.log;
  return Program::load(std::move(compiled.words));
}

const spirv::EntryPoint& chooseKernel(const spirv::Module& module, const std::string& name) {
  if (!name.empty()) {
    if (const spirv::EntryPoint* ep = module.findEntryPoint(name)) return *ep;
    throw Error("usage", fmt::format("no kernel '{}' in the module (kernels: {})", name,
                                     kernelList(module)));
  }
  if (module.entryPoints.size() == 1) return module.entryPoints.front();
  if (module.entryPoints.empty()) throw Error("input", "the module has no kernels");
  throw Error("usage", fmt::format("the module has {} kernels ({}); choose one with --kernel",
                                   module.entryPoints.size(), kernelList(module)));
}

NDRange rangeFromOptions(const RunOptions& o) {
  NDRange range;
  range.dims = o.global->dims;
  range.global = o.global->values;
  if (o.offset) range.offset = o.offset->values;
  if (o.local) {
    range.local = o.local->values;
    range.localGiven = true;
  }
  return range;
}

PreparedLaunch prepareFromArgs(const RunOptions& o, std::ostream& err, Compile compile) {
  PreparedLaunch launch;
  for (const std::string& spec : o.args) launch.args.push_back(parseArgSpec(spec));
  launch.program = loadProgram(o.input, o.buildOptions, compile, err);
  const spirv::Module& module = launch.program->module();
  const spirv::EntryPoint& ep = chooseKernel(module, o.kernel);
  launch.kernel = ep.name;
  validateArgs(ep.name, describeParams(module, ep), launch.args);
  launch.range = rangeFromOptions(o);
  if (o.dump)
    for (ArgValue& a : launch.args) a.dump = a.kind == ArgValue::Kind::Buffer;
  return launch;
}

PreparedLaunch prepareFromSim(const RunOptions& o, std::ostream& err, Compile compile) {
  SimFile sim(readTextFile(o.input), o.input);
  const SimSetup setup = sim.readSetup();
  const std::filesystem::path program =
      std::filesystem::path(o.input).parent_path() / setup.program;
  PreparedLaunch launch;
  launch.program = loadProgram(program.string(), o.buildOptions, compile, err);
  const spirv::Module& module = launch.program->module();
  const spirv::EntryPoint& ep = chooseKernel(module, setup.kernel);
  launch.kernel = ep.name;
  const std::vector<ParamInfo> params = describeParams(module, ep);
  launch.args = sim.readArguments(params);
  validateArgs(ep.name, params, launch.args);
  launch.range.dims = 3;
  launch.range.global = setup.global;
  launch.range.local = setup.local;
  launch.range.localGiven = true;
  if (o.dump)
    for (ArgValue& a : launch.args) a.dump |= a.kind == ArgValue::Kind::Buffer;
  return launch;
}

}  // namespace

PreparedLaunch prepareLaunch(const RunOptions& options, std::ostream& err, Compile compile) {
  return options.isSim() ? prepareFromSim(options, err, compile)
                         : prepareFromArgs(options, err, compile);
}

std::string debugBuildOptions(std::string_view userOptions) {
  bool level = false;
  for (const std::string& o : splitBuildOptions(userOptions)) level |= o.rfind("-O", 0) == 0;
  return fmt::format("-g {}{}", level ? "" : "-O0 ", userOptions);
}

std::vector<ArgBinding> bindings(std::vector<ArgValue>& args) {
  std::vector<ArgBinding> out;
  for (ArgValue& a : args) {
    switch (a.kind) {
      case ArgValue::Kind::Value:
        out.push_back(ArgBinding::bytes(a.bytes));
        break;
      case ArgValue::Kind::Buffer:
        out.push_back(ArgBinding::buffer(a.bytes.data(), a.bytes.size()));
        break;
      case ArgValue::Kind::Local:
        out.push_back(ArgBinding::local(a.localBytes));
        break;
      case ArgValue::Kind::Null:
        out.push_back(ArgBinding::null());
        break;
    }
  }
  return out;
}

LaunchOptions launchOptions(const RunOptions& o) {
  LaunchOptions options;
  if (o.subGroupSize) options.subGroupSize = *o.subGroupSize;
  if (o.threads) options.threads = *o.threads;
  if (o.instructionBudget) options.instructionBudget = *o.instructionBudget;
  if (o.scheduleSeed) {
    options.schedule = LaunchOptions::Schedule::Random;
    options.scheduleSeed = *o.scheduleSeed;
  }
  options.checkUninitialized = o.checkUninitialized;
  options.checkRaces = o.checkRaces;
  return options;
}

JsonReport::JsonReport(const std::string& path) : path_(path) {
  if (path.empty()) return;
  file_.open(path, std::ios::binary | std::ios::trunc);
  if (!file_)
    throw Error("input", fmt::format("cannot write the JSON report to '{}': {}", path,
                                     std::strerror(errno)));
}

void JsonReport::write(const std::vector<std::string>& diagnostics,
                       const std::vector<ArgValue>& args) {
  if (!file_.is_open()) return;
  if (!(file_ << formatJsonReport(diagnostics, args)).flush())
    throw Error("input", fmt::format("cannot write the JSON report to '{}'", path_));
}

}  // namespace spvsim::tools
