#include "tools/run_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>

#include "spirv/error.h"
#include "src/diagnostics.h"
#include "src/program.h"
#include "tools/launch_setup.h"
#include "tools/output.h"

namespace spvsim::tools {
namespace {

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
  PreparedLaunch launch = prepareLaunch(options, err);
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
