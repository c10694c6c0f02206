#include "tools/cli/launch_setup.h"

#include <fmt/format.h>

#include <filesystem>
#include <new>

#include "spirv/error.h"
#include "spirv/text.h"
#include "src/check/observers.h"
#include "src/compiler/build_options.h"
#include "src/exec/arg_check.h"
#include "src/exec/device_enqueue.h"
#include "src/exec/diagnostics.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/bundle.h"
#include "tools/cli/info_command.h"
#include "tools/cli/info_json.h"
#include "tools/cli/kernel_input.h"
#include "tools/cli/output.h"
#include "tools/cli/output_files.h"
#include "tools/cli/sim_file.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

// Loads (or compiles) the program into `launch`: its module, and how it was made.
void loadProgram(PreparedLaunch& launch, const std::string& path, const RunOptions& o,
                 Compile compile, std::ostream& err) {
  const bool debug = compile == Compile::DebugInfo && endsWith(path, ".cl");
  launch.build =
      readKernel(path, debug ? debugBuildOptions(o.buildOptions) : o.buildOptions, !o.noCache);
  err << launch.build.log;
  launch.program =
      Program::load(std::move(launch.build.words), {}, o.maxMemory.value_or(defaultMaxMemory()));
  launch.build.words.clear();
  err << repairWarnings(launch.program->module());
  if (endsWith(path, ".cl") && !isBundlePath(path)) launch.clSource = path;
}

const spirv::EntryPoint& chooseKernel(const spirv::Module& module, const std::string& name) {
  if (!name.empty()) {
    if (const spirv::EntryPoint* ep = module.findEntryPoint(name)) return *ep;
    throw Error(DiagnosticKind::Usage, fmt::format("no kernel '{}' in the module (kernels: {})",
                                                   name, kernelList(module)));
  }
  if (module.entryPoints.size() == 1) return module.entryPoints.front();
  // Kernels that run enqueued blocks (device-side enqueue) are not the user's choice.
  std::vector<const spirv::EntryPoint*> user;
  for (const auto& ep : module.entryPoints)
    if (!isBlockInvokeKernel(module, ep)) user.push_back(&ep);
  if (user.size() == 1) return *user.front();
  if (module.entryPoints.empty()) throw Error(DiagnosticKind::Input, "the module has no kernels");
  throw Error(DiagnosticKind::Usage,
              fmt::format("the module has {} kernels ({}); choose one with --kernel",
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

// Checks the arguments against the kernel's signature (src/exec/arg_check.h): a misfit
// throws ArgumentError; buffers of another element type than the pointee's warn.
void checkArguments(PreparedLaunch& launch, std::ostream& err) {
  const std::vector<ArgBinding> args = bindings(launch.args);
  validateArguments(launch.kernel.signature(), args);
  err << argumentWarnings(launch.kernel.signature(), args);
}

PreparedLaunch prepareFromArgs(const RunOptions& o, std::ostream& err, Compile compile) {
  PreparedLaunch launch;
  ArgMemory memory{o.maxMemory.value_or(defaultMaxMemory())};
  for (const std::string& spec : o.args) launch.args.push_back(parseArgSpec(spec, &memory));
  launch.maxMemory = memory.limit;
  launch.argumentBytes = memory.used;
  loadProgram(launch, o.input, o, compile, err);
  const spirv::Module& module = launch.program->module();
  launch.kernel = launch.program->kernel(chooseKernel(module, o.kernel).name);
  checkArguments(launch, err);
  launch.range = rangeFromOptions(o);
  if (o.dump)
    for (ArgValue& a : launch.args) a.dump = a.holdsData() || a.kind == ArgValue::Kind::Pipe;
  return launch;
}

PreparedLaunch prepareFromSim(const RunOptions& o, std::ostream& err, Compile compile) {
  SimFile sim(readTextFile(o.input), o.input);
  const SimSetup setup = sim.readSetup();
  const std::filesystem::path program =
      std::filesystem::path(o.input).parent_path() / setup.program;
  PreparedLaunch launch;
  loadProgram(launch, program.string(), o, compile, err);
  const spirv::Module& module = launch.program->module();
  launch.kernel = launch.program->kernel(chooseKernel(module, setup.kernel).name);
  ArgMemory memory{o.maxMemory.value_or(defaultMaxMemory())};
  launch.args = sim.readArguments(launch.kernel.signature().params, &memory);
  launch.maxMemory = memory.limit;
  launch.argumentBytes = memory.used;
  checkArguments(launch, err);
  launch.range.dims = 3;
  launch.range.global = setup.global;
  launch.range.local = setup.local;
  launch.range.localGiven = true;
  if (o.dump)
    for (ArgValue& a : launch.args) a.dump |= a.holdsData() || a.kind == ArgValue::Kind::Pipe;
  return launch;
}

// Program-scope variables as the captured launch found them.
void restoreGlobals(Program& program, const Bundle& bundle) {
  for (const BundleGlobal& g : bundle.globals) {
    auto& vars = program.globalVariables();
    auto it = std::find_if(vars.begin(), vars.end(),
                           [&](const Program::ProgramVariable& v) { return v.id == g.id; });
    if (it == vars.end() || it->storage.size() != g.size)
      throw Error(DiagnosticKind::Input,
                  fmt::format("{}: the module has no program-scope variable %{} of {} bytes",
                              bundle.manifest, g.id, g.size));
    const files::HostBytes before = readBundleBytes(g.before, 0, g.size);
    std::copy(before.begin(), before.end(), it->storage.begin());
  }
}

// The bundle's program as the ICD compiled it: the source with the options of its build
// or compile (OpenCL C 1.2 where they name none, as the API says) and its headers.
compiler::CompileRequest capturedRequest(const Bundle& bundle) {
  compiler::CompileRequest r;
  r.source = readTextFile(bundle.source);
  r.options = bundle.compiled ? bundle.compileOptions : bundle.buildOptions;
  r.defaultStd = compiler::kApiDefaultStd;
  for (const BundleHeader& h : bundle.headers) r.headers.push_back({h.name, readTextFile(h.file)});
  return r;
}

PreparedLaunch prepareFromBundle(const RunOptions& o, std::ostream& err, Compile compile) {
  const Bundle bundle = readBundle(o.input);
  if (bundle.status != "complete")
    err << fmt::format(
        "warning: {}: the captured launch ended with status '{}': its \"after\" "
        "contents may be partial\n",
        spirv::escapeText(bundle.manifest), spirv::escapeText(bundle.status));
  // Manifest text is a file's: escaped so that it cannot split or colour the line.
  for (const std::string& w : bundle.warnings)
    err << fmt::format("warning: {}: {}\n", spirv::escapeText(bundle.manifest),
                       spirv::escapeText(w));
  PreparedLaunch launch;
  loadProgram(launch, bundle.module, o, compile, err);
  launch.kernel =
      launch.program->kernel(chooseKernel(launch.program->module(), bundle.kernel).name);
  restoreGlobals(*launch.program, bundle);
  ArgMemory memory{o.maxMemory.value_or(defaultMaxMemory())};
  launch.args = bundleArguments(bundle, launch.kernel.signature().params, memory);
  launch.maxMemory = memory.limit;
  launch.argumentBytes = memory.used;
  checkArguments(launch, err);
  launch.range.dims = bundle.dims;
  launch.range.global = bundle.global;
  launch.range.offset = bundle.offset;
  launch.range.local = bundle.local;
  launch.range.localGiven = true;
  launch.subGroupSize = bundle.subGroupSize;
  launch.captured = bundleExpectations(bundle, launch.args);
  if (!bundle.source.empty()) {
    launch.sources.addProgram(std::filesystem::path(bundle.source).filename().string(),
                              bundle.source);
    for (const BundleHeader& h : bundle.headers) launch.sources.addHeader(h.name, h.file);
    // Program-scope variables keep their captured values by result id, which another
    // build numbers its own way: no -O0 build of those.
    if (bundle.globals.empty()) launch.capturedSource = capturedRequest(bundle);
    launch.capturedSourcePath = bundle.source;
  }
  if (o.dump)
    for (ArgValue& a : launch.args) a.dump = a.holdsData();
  return launch;
}

}  // namespace

PreparedLaunch prepareLaunch(const RunOptions& options, std::ostream& err, Compile compile) {
  if (options.isBundle()) return prepareFromBundle(options, err, compile);
  return options.isSim() ? prepareFromSim(options, err, compile)
                         : prepareFromArgs(options, err, compile);
}

std::string debugBuildOptions(std::string_view userOptions) {
  bool level = false;
  for (const std::string& o : compiler::splitBuildOptions(userOptions))
    level |= o.rfind("-O", 0) == 0 || o == "-cl-opt-disable";
  return fmt::format("-g {}{}", level ? "" : "-O0 ", userOptions);
}

LaunchOptions launchOptions(const RunOptions& o, const PreparedLaunch& launch) {
  LaunchOptions options;
  options.maxMemory = launch.maxMemory;
  options.argumentMemory = launch.argumentBytes;
  if (o.subGroupSize)
    options.subGroupSize = *o.subGroupSize;
  else if (launch.subGroupSize)
    options.subGroupSize = *launch.subGroupSize;
  if (o.threads) options.threads = *o.threads;
  if (o.instructionBudget) options.instructionBudget = *o.instructionBudget;
  if (o.maxDeviceEnqueues) options.deviceQueues.maxEnqueues = *o.maxDeviceEnqueues;
  if (o.scheduleSeed) {
    options.schedule = LaunchOptions::Schedule::Random;
    options.scheduleSeed = *o.scheduleSeed;
  }
  if (o.reconvergenceSeed) {
    options.reconvergence = LaunchOptions::Reconvergence::Random;
    options.reconvergenceSeed = *o.reconvergenceSeed;
  }
  if (o.relaxed) {
    options.memoryModel = LaunchOptions::MemoryModel::Relaxed;
    options.memoryModelSeed = o.memoryModelSeed.value_or(o.scheduleSeed.value_or(0));
  }
  if (o.residentGroups) {
    options.forwardProgress = LaunchOptions::ForwardProgress::Occupancy;
    options.residentGroups = *o.residentGroups;
  }
  options.observers = check::observersFor({.races = o.checkRaces,
                                           .uninitialized = o.checkUninitialized,
                                           .undefinedValues = o.checkUndefined});
  return options;
}

void JsonReport::write(const std::vector<std::string>& diagnostics, const PreparedLaunch& launch,
                       const std::vector<ArgValue>& args, const std::string& check) {
  if (path_.empty()) return;
  attempted_ = true;
  writeOutput("--json", path_,
              formatJsonReport(diagnostics, args, buildJson(launch.build, launch.program->module()),
                               check));
}

void JsonReport::writeError(std::string_view kind, std::string_view message, std::ostream& err) {
  if (path_.empty() || attempted_) return;
  try {
    writeOutput("--json", path_,
                fmt::format("{{\"error\": {{\"kind\": {}, \"message\": {}}},\n\"diagnostics\": "
                            "[],\n\"buffers\": {{}}}}\n",
                            jsonQuote(std::string(kind)), jsonQuote(std::string(message))));
  } catch (const std::exception& e) {
    err << "error: " << spirv::escapeText(e.what()) << '\n';
  }
}

int withErrorReport(JsonReport& report, std::ostream& err, const std::function<int()>& command) {
  try {
    return command();
  } catch (const Error& e) {
    report.writeError(e.kindName(), e.what(), err);
    throw;
  } catch (const std::bad_alloc&) {
    report.writeError(kindName(DiagnosticKind::OutOfMemory), "the host ran out of memory", err);
    throw;
  } catch (const std::exception& e) {
    report.writeError(kindName(DiagnosticKind::Internal), e.what(), err);
    throw;
  }
}

}  // namespace spvsim::tools
