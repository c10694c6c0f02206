// spvsim: the command-line front end (src/DESIGN.md "Command line").
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <new>

#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/loader.h"
#include "spirv/text.h"
#include "tools/cli/check_command.h"
#include "tools/cli/compile_command.h"
#include "tools/cli/debug_command.h"
#include "tools/cli/error_text.h"
#include "tools/cli/help.h"
#include "tools/cli/info_command.h"
#include "tools/cli/info_json.h"
#include "tools/cli/kernel_input.h"
#include "tools/cli/options.h"
#include "tools/cli/output_files.h"
#include "tools/cli/run_command.h"
#include "tools/dap/dap_command.h"

namespace spvsim::tools {
namespace {

struct Inspected {
  compiler::CompileResult build;
  spirv::Module module;
};

Inspected loadForInspection(const RunOptions& o) {
  compiler::CompileResult build = readKernel(o.input, o.buildOptions, !o.noCache);
  std::cerr << build.log;
  spirv::Module module = spirv::loadModule(build.words);
  std::cerr << repairWarnings(module);
  return {std::move(build), std::move(module)};
}

int dispatch(const CommandLine& cl) {
  switch (cl.action) {
    case CommandLine::Action::Help:
      (cl.helpIsError ? std::cerr : std::cout) << helpText(cl.command);
      return cl.helpIsError ? 1 : 0;
    case CommandLine::Action::Version:
      std::cout << kVersion << '\n';
      return 0;
    case CommandLine::Action::Execute:
      break;
  }
  const RunOptions& o = cl.options;
  switch (*cl.command) {
    case Command::Run:
      return runCommand(o, std::cout, std::cerr);
    case Command::Debug:
      return debugCommand(o, std::cin, std::cout, std::cerr, isatty(STDIN_FILENO) != 0);
    case Command::Check:
      return checkCommand(o, std::cout, std::cerr);
    case Command::Dis:
      std::cout << spirv::disassembleWithLines(loadForInspection(o).module);
      return 0;
    case Command::Info: {
      const Inspected i = loadForInspection(o);
      if (o.infoJson) {
        std::cout << formatModuleInfoJson(i.module, o.kernel, i.build);
        return 0;
      }
      std::cout << formatModuleInfo(i.module, o.kernel) << formatBuildInfo(i.build, i.module);
      return 0;
    }
    case Command::Compile:
      return compileCommand(o, std::cerr);
  }
  return 1;
}

// "spvsim run --help" when the first word names a command, else "spvsim --help".
std::string helpHint(const std::vector<std::string>& args) {
  for (Command c : {Command::Run, Command::Check, Command::Debug, Command::Dis, Command::Info,
                    Command::Compile})
    if (!args.empty() && args[0] == commandName(c))
      return fmt::format(" (see 'spvsim {} --help')", commandName(c));
  return " (see 'spvsim --help')";
}

}  // namespace
}  // namespace spvsim::tools

int main(int argc, char** argv) {
  using namespace spvsim::tools;
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    // `spvsim dap` takes its own arguments (the launch's come in the DAP `launch` request).
    if (args.size() == 2 && args[0] == "help" && args[1] == "dap") {
      std::cout << dapHelp();
      return 0;
    }
    if (!args.empty() && args[0] == "dap")
      return dapCommand({args.begin() + 1, args.end()}, std::cout, std::cerr);
    const int status = dispatch(parseCommandLine(args));
    checkStandardOutput(std::cout);  // dis, info: output that was not written is an error
    return status;
  } catch (const spvsim::Error& e) {
    std::cerr << formatError(e.kind(), e.what())
              << (e.kind() == spvsim::DiagnosticKind::Usage ? helpHint(args) : "") << '\n';
  } catch (const std::bad_alloc&) {
    // The host could not allocate: the same kind as a launch over --max-memory.
    std::cerr << formatError(spvsim::DiagnosticKind::OutOfMemory, "the host ran out of memory")
              << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: internal error: " << spvsim::spirv::escapeText(e.what()) << '\n';
  }
  return 1;
}
