// Preparing one launch from the command line (KERNEL + --arg specs, a .sim file or a
// capture bundle):
// shared by `spvsim run` and `spvsim debug`.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "src/compiler/compile_driver.h"
#include "src/exec/program.h"
#include "src/files/source_copies.h"
#include "tools/cli/arg_value.h"
#include "tools/cli/check_expect.h"
#include "tools/cli/options.h"

namespace spvsim::tools {

struct PreparedLaunch {
  std::shared_ptr<Program> program;
  compiler::CompileResult build;  // how the module was made (its words moved to `program`)
  Program::Kernel kernel;
  NDRange range;
  std::vector<ArgValue> args;  // buffers hold the storage the launch reads and writes
  uint64_t maxMemory = 0;      // --max-memory, or the default: the buffers and the launch
  uint64_t argumentBytes = 0;  // what the buffers in `args` take of it
  // A capture bundle's sub-group size (unless --sub-group-size) and "after" contents
  // (spvsim check's reference unless --expect).
  std::optional<uint32_t> subGroupSize;
  std::vector<ExpectedArg> captured;
  // A capture bundle's copies of the program's source and headers: where the debugger and
  // the profile find the sources that the module's line information names.
  files::SourceCopies sources;
  // A capture bundle's OpenCL C as the application compiled it (source, headers, options,
  // the API's default OpenCL C version), and the source's path for messages: what spvsim
  // check builds again at -O0, as it does a .cl file (clSource).
  std::optional<compiler::CompileRequest> capturedSource;
  std::string capturedSourcePath;
  // The OpenCL C file the module was compiled from (a .cl KERNEL, or a .sim file's .cl
  // program), else "": spvsim check builds it again at -O0.
  std::string clSource;
};

// How the kernel is compiled when it is OpenCL C.
enum class Compile {
  AsGiven,    // the user's --build-options only (spvsim run)
  DebugInfo,  // also -g, and -O0 unless the options choose an -O level (spvsim debug)
};

// Loads or compiles the kernel (compiler warnings go to `err`), picks the kernel and
// checks the arguments against its parameters. Throws Error like `spvsim run`.
PreparedLaunch prepareLaunch(const RunOptions& options, std::ostream& err,
                             Compile compile = Compile::AsGiven);

// The build options used for Compile::DebugInfo: "-g -O0 " before the user's options,
// or "-g " when they contain an -O option (the user's choice wins).
std::string debugBuildOptions(std::string_view userOptions);

// The --json report, written whole (tools/output_files.h) when the command ends: with
// its results, or with the error that stopped it. Nothing is opened before, so a run that
// is interrupted or refused leaves an earlier report as it was; the path's folder is
// checked first (checkOutputs). An empty path means no report.
class JsonReport {
 public:
  explicit JsonReport(std::string path) : path_(std::move(path)) {}
  // `diagnostics` are JSON objects (formatJson); `launch.build` and the loader's repairs
  // become the "build" object; `check` (JSON, spvsim check) the "check" object when not
  // empty. Throws Error(DiagnosticKind::Input) if writing fails.
  void write(const std::vector<std::string>& diagnostics, const PreparedLaunch& launch,
             const std::vector<ArgValue>& args, const std::string& check = "");
  // {"error": {"kind": K, "message": M}, "diagnostics": [], "buffers": {}}: the command
  // failed before it produced a result (it exits 1); `kind` is a DiagnosticKind's name
  // (kindName). Best effort: a failure to write is reported on `err` only.
  void writeError(std::string_view kind, std::string_view message, std::ostream& err);

 private:
  std::string path_;
  // write() ran: the results are in place, or writing them failed (and said so); an
  // error report would only replace them or fail again.
  bool attempted_ = false;
};

// Runs `command` (spvsim run or check) with `report`: any exception that ends it (Error,
// std::bad_alloc, any other std::exception) is written to the report as its error kind
// ("out-of-memory", "internal") and rethrown for main to print.
int withErrorReport(JsonReport& report, std::ostream& err, const std::function<int()>& command);

// The launch's options from the command line; the argument buffers count against its
// memory limit (--max-memory).
LaunchOptions launchOptions(const RunOptions& options, const PreparedLaunch& launch);

}  // namespace spvsim::tools
