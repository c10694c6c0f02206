#include "tools/cli/profile_output.h"

#include "spirv/error.h"
#include "src/files/input_file.h"
#include "src/profile/profile_report.h"
#include "tools/cli/output_files.h"

namespace spvsim::tools {
namespace {

// A kernel's source file by the name its line info gives, for the source view; "" where
// it cannot be read, is not a regular file (a FIFO would block) or is unreasonably
// large for a page.
std::string readSource(const std::string& path) {
  try {
    std::string s = files::readInputFile(path);
    return s.size() <= (8u << 20) ? s : "";
  } catch (const Error&) {
    return "";
  }
}

// The same, from a copy where `copies` has one for the path (a capture bundle's program
// and headers).
std::string readSourceIn(const files::SourceCopies& copies, const std::string& path) {
  const files::SourceCopy* copy = copies.find(path);
  return readSource(copy ? copy->path : path);
}

}  // namespace

ProfileOutput::ProfileOutput(const RunOptions& options)
    : htmlPath_(options.profilePath),
      jsonPath_(options.profileJsonPath),
      textPath_(options.profileTextPath) {
  if (!options.profiling()) return;
  factory_ = std::make_shared<profile::ProfilerFactory>(options.profileBanks.value_or(32));
}

void ProfileOutput::attach(LaunchOptions& options) const {
  if (factory_) options.observers.push_back(factory_);
}

void ProfileOutput::write() {
  if (!factory_) return;
  std::vector<const profile::LaunchProfile*> launches;
  for (const auto& p : factory_->launches()) launches.push_back(p.get());
  if (!htmlPath_.empty())
    writeOutput("--profile", htmlPath_,
                profile::profileHtml(launches, [this](const std::string& file) {
                  return readSourceIn(copies_, file);
                }));
  if (!jsonPath_.empty()) writeOutput("--profile-json", jsonPath_, profile::profileJson(launches));
  if (!textPath_.empty()) writeOutput("--profile-text", textPath_, profile::profileText(launches));
}

}  // namespace spvsim::tools
