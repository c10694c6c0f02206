#include "tools/profile_output.h"

#include <fmt/format.h>

#include <sstream>

#include "spirv/error.h"
#include "src/profile/profile_report.h"

namespace spvsim::tools {
namespace {

void open(std::ofstream& file, const std::string& path) {
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file) throw Error(DiagnosticKind::Input, fmt::format("cannot write the profile {}", path));
}

// A kernel's source file by the name its line info gives, for the source view; "" where
// it cannot be read (or is unreasonably large for a page).
std::string readSource(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  return s.size() <= (8u << 20) ? s : "";
}

void finish(std::ofstream& file, const std::string& path, const std::string& text) {
  if (!(file << text).flush())
    throw Error(DiagnosticKind::Input, fmt::format("cannot write the profile {}", path));
}

}  // namespace

ProfileOutput::ProfileOutput(const RunOptions& options)
    : htmlPath_(options.profilePath), jsonPath_(options.profileJsonPath) {
  if (htmlPath_.empty() && jsonPath_.empty()) return;
  factory_ = std::make_shared<profile::ProfilerFactory>();
  if (!htmlPath_.empty()) open(html_, htmlPath_);
  if (!jsonPath_.empty()) open(json_, jsonPath_);
}

void ProfileOutput::attach(LaunchOptions& options) const {
  if (factory_) options.observers.push_back(factory_);
}

void ProfileOutput::write() {
  if (!factory_) return;
  std::vector<const profile::LaunchProfile*> launches;
  for (const auto& p : factory_->launches()) launches.push_back(p.get());
  if (!htmlPath_.empty()) finish(html_, htmlPath_, profile::profileHtml(launches, &readSource));
  if (!jsonPath_.empty()) finish(json_, jsonPath_, profile::profileJson(launches));
}

}  // namespace spvsim::tools
