#include "tools/cli/output_files.h"

#include <fmt/format.h>
#include <signal.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "spirv/error.h"
#include "src/files/whole_file.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/bundle.h"
#include "tools/cli/sim_file.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

namespace fs = std::filesystem;

// A .sim file's program, when the file reads (its errors are prepareLaunch's to report).
void addSimProgram(const std::string& sim, std::vector<std::string>& files) {
  try {
    SimFile file(readTextFile(sim), sim);
    files.push_back((fs::path(sim).parent_path() / file.readSetup().program).string());
  } catch (const Error&) {
  }
}

// Every file of a bundle's folder and every file its manifest names.
void addBundleFiles(const std::string& bundle, std::vector<std::string>& files) {
  std::error_code ec;
  const fs::path folder =
      fs::is_directory(bundle, ec) ? fs::path(bundle) : fs::path(bundle).parent_path();
  for (const auto& entry : fs::directory_iterator(folder.empty() ? "." : folder, ec))
    files.push_back(entry.path().string());
  try {
    const Bundle b = readBundle(bundle);
    files.push_back(b.module);
    for (const BundleBuffer& buf : b.buffers) files.insert(files.end(), {buf.before, buf.after});
    for (const BundleGlobal& g : b.globals) files.push_back(g.before);
    for (const BundleArg& a : b.args) files.insert(files.end(), {a.before, a.after});
  } catch (const Error&) {
  }
}

// SIGINT, SIGTERM and SIGHUP recorded instead of acted on while a scope runs, and raised
// again at its end. The handler can reach only process-wide state: this flag.
volatile std::sig_atomic_t heldSignal = 0;

void holdSignal(int signal) {
  if (!heldSignal) heldSignal = signal;
}

class HeldSignals {
 public:
  HeldSignals() {
    heldSignal = 0;
    struct sigaction action {};
    action.sa_handler = holdSignal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous_[i]);
  }
  // Restores the previous handling, then delivers a signal that came meanwhile to it (by
  // default: the process ends as it would have, the new file in place).
  ~HeldSignals() {
    for (size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
    if (const int signal = heldSignal) {
      heldSignal = 0;
      raise(signal);
    }
  }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous_[std::size(kSignals)]{};
};

}  // namespace

std::vector<OutputFile> reportFiles(const RunOptions& o) {
  std::vector<OutputFile> out;
  if (!o.jsonPath.empty()) out.push_back({"--json", o.jsonPath});
  if (!o.profilePath.empty()) out.push_back({"--profile", o.profilePath});
  if (!o.profileJsonPath.empty()) out.push_back({"--profile-json", o.profileJsonPath});
  if (!o.profileTextPath.empty()) out.push_back({"--profile-text", o.profileTextPath});
  if (!o.junitPath.empty()) out.push_back({"--junit", o.junitPath});
  // Appended to rather than written whole, but never one of the inputs either.
  if (!o.resultsPath.empty()) out.push_back({"--results", o.resultsPath});
  return out;
}

std::vector<std::string> inputFiles(const RunOptions& o) {
  if (o.merge) return o.mergePaths;
  std::vector<std::string> files{o.input};
  if (!o.expectPath.empty()) files.push_back(o.expectPath);
  for (const std::string& spec : o.args)
    if (std::string path = fileInitializerPath(spec); !path.empty()) files.push_back(path);
  if (o.isSim()) addSimProgram(o.input, files);
  if (o.isBundle()) addBundleFiles(o.input, files);
  return files;
}

void checkOutputs(const std::vector<OutputFile>& outputs, const std::vector<std::string>& inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const OutputFile& o = outputs[i];
    for (const std::string& input : inputs)
      if (files::sameRegularFile(o.path, input))
        throw Error(DiagnosticKind::Usage,
                    fmt::format("{} '{}' is the input file '{}': writing it would replace the "
                                "input; give another path",
                                o.option, o.path, input));
    for (size_t j = 0; j < i; ++j)
      if (outputs[j].path == o.path || files::sameRegularFile(outputs[j].path, o.path))
        throw Error(DiagnosticKind::Usage, fmt::format("{} and {} name the same file '{}'",
                                                       outputs[j].option, o.option, o.path));
    if (const std::string why = files::unwritableReason(o.path); !why.empty())
      throw Error(DiagnosticKind::Input,
                  fmt::format("{}: cannot write '{}': {}", o.option, o.path, why));
  }
}

void writeOutput(std::string_view what, const std::string& path, std::string_view contents) {
  const HeldSignals held;
  try {
    files::writeFileWhole(path, contents);
  } catch (const Error& e) {
    throw Error(e.kind(), fmt::format("{}: {}", what, e.what()));
  }
}

void checkStandardOutput(std::ostream& out) {
  errno = 0;
  out.flush();
  if (out) return;
  const int e = errno;
  throw Error(DiagnosticKind::Input, fmt::format("cannot write the results to standard output{}",
                                                 e ? fmt::format(": {}", std::strerror(e)) : ""));
}

}  // namespace spvsim::tools
