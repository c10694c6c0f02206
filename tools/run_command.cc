#include "tools/run_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "spirv/error.h"
#include "src/diagnostics.h"
#include "src/program.h"
#include "tools/arg_spec.h"
#include "tools/info_command.h"
#include "tools/kernel_input.h"
#include "tools/output.h"
#include "tools/params.h"
#include "tools/sim_file.h"
#include "tools/text_util.h"

namespace spvsim::tools {
namespace {

struct Launch {
  std::shared_ptr<Program> program;
  std::string kernel;
  NDRange range;
  std::vector<ArgValue> args;
};

std::shared_ptr<Program> loadProgram(const std::string& path, const std::string& buildOptions,
                                     std::ostream& err) {
  CompiledProgram compiled = readKernel(path, buildOptions);
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

Launch prepareFromArgs(const RunOptions& o, std::ostream& err) {
  Launch launch;
  for (const std::string& spec : o.args) launch.args.push_back(parseArgSpec(spec));
  launch.program = loadProgram(o.input, o.buildOptions, err);
  const spirv::Module& module = launch.program->module();
  const spirv::EntryPoint& ep = chooseKernel(module, o.kernel);
  launch.kernel = ep.name;
  validateArgs(ep.name, describeParams(module, ep), launch.args);
  launch.range = rangeFromOptions(o);
  if (o.dump)
    for (ArgValue& a : launch.args) a.dump = a.kind == ArgValue::Kind::Buffer;
  return launch;
}

Launch prepareFromSim(const RunOptions& o, std::ostream& err) {
  SimFile sim(readTextFile(o.input), o.input);
  const SimSetup setup = sim.readSetup();
  const std::filesystem::path program =
      std::filesystem::path(o.input).parent_path() / setup.program;
  Launch launch;
  launch.program = loadProgram(program.string(), o.buildOptions, err);
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
  return options;
}

// Opened before the launch, so that an unwritable path fails before the kernel runs.
std::unique_ptr<std::ofstream> openJson(const std::string& path) {
  if (path.empty()) return nullptr;
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file)
    throw Error("input", fmt::format("cannot write the JSON report to '{}': {}", path,
                                     std::strerror(errno)));
  return file;
}

void writeJson(std::ofstream& file, const std::string& path, const LaunchResult& result,
               const std::vector<ArgValue>& args) {
  std::vector<std::string> diagnostics;
  for (const Diagnostic& d : result.diagnostics) diagnostics.push_back(formatJson(d));
  file << formatJsonReport(diagnostics, args);
  if (!file.flush())
    throw Error("input", fmt::format("cannot write the JSON report to '{}'", path));
}

}  // namespace

std::string formatStats(const LaunchResult& r, double seconds) {
  return fmt::format(
      "stats: launch {:.6f} s, sub-group size {}, {} sub-group instructions, {} lane "
      "instructions, {:.3g} lane instructions/s",
      seconds, r.subGroupSize, r.subGroupSteps, r.laneInstructions,
      seconds > 0 ? double(r.laneInstructions) / seconds : 0.0);
}

int runCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  Launch launch = options.isSim() ? prepareFromSim(options, err) : prepareFromArgs(options, err);
  const std::unique_ptr<std::ofstream> json = openJson(options.jsonPath);
  const auto start = std::chrono::steady_clock::now();
  const LaunchResult result = launch.program->launch(launch.kernel, launch.range,
                                                     bindings(launch.args), launchOptions(options));
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  if (options.stats) err << formatStats(result, seconds.count()) << '\n';
  out << result.printfOutput;
  for (const Diagnostic& d : result.diagnostics) {
    std::string text = formatText(d);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    err << text << '\n';
  }
  for (size_t i = 0; i < launch.args.size(); ++i)
    if (launch.args[i].dump) out << formatDumpLine(i, launch.args[i]) << '\n';
  out.flush();
  if (json) writeJson(*json, options.jsonPath, result, launch.args);
  return hasErrors(result.diagnostics) || result.aborted ? 2 : 0;
}

}  // namespace spvsim::tools
