#include "runtime/diagnostic_output.h"

#include <atomic>
#include <cstdio>
#include <mutex>

#include "runtime/knobs.h"

namespace spvsim::rt {
namespace {

// The process's count (an ICD is one per process: the loader loads it once).
std::atomic<uint64_t>& reported() {
  static std::atomic<uint64_t> count{0};
  return count;
}

}  // namespace

void writeDiagnosticText(const std::string& text) {
  const std::string& where = knobs().diagnostics;
  if (text.empty() || where == "none") return;
  static std::mutex mutex;  // one writer at a time: lines of concurrent launches stay whole
  std::lock_guard<std::mutex> lock(mutex);
  if (where == "stderr") {
    std::fwrite(text.data(), 1, text.size(), stderr);
    return;
  }
  if (FILE* f = std::fopen(where.c_str(), "a")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  } else {
    std::fprintf(stderr, "spvsim: cannot append diagnostics to %s\n%s", where.c_str(),
                 text.c_str());
  }
}

void countDiagnostics(uint64_t n) { reported() += n; }

uint64_t diagnosticsReported() { return reported().load(); }

}  // namespace spvsim::rt
