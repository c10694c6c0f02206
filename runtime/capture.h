// SPVSIM_CAPTURE=DIR: every kernel launch written as a replayable bundle (src/DESIGN.md,
// "Capture and replay"; the manifest format is in README.md and
// src/formats/bundle_manifest.h, which writes and reads it). A bundle is a folder
// DIR/NNNN-KERNEL/ holding module.spv (the SPIR-V the ICD executed), the program's OpenCL C
// (APP.cl or program.cl, and headers/ for clCompileProgram's headers), one file per buffer
// allocation (and image argument, pixels packed) before the launch and one after it, and
// launch.txt tying them together.
// `spvsim run|debug|check BUNDLE` replays it.
//
// A bundle is written in a hidden temporary folder and renamed into place when complete,
// so DIR holds only complete bundles. Capturing never changes a launch or its status: a
// bundle that cannot be written is removed, reported on stderr, and capturing stops for
// the rest of the process (one message); the launches run as without capture.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/kernel.h"
#include "src/formats/bundle_manifest.h"

namespace spvsim::rt {

// What enqueue time fixes for a captured launch: the module as executed (without the
// ICD's binary markers), the program's build options (a linked program's: the link's) and
// the OpenCL C it was made from, when that was one source program.
struct CaptureSource {
  std::vector<uint32_t> words;
  std::string buildOptions;
  std::optional<ProgramSource> source;
  std::string sourceNote;  // why a program made from source has none here, or ""
};

// The source of a launch of `k` when SPVSIM_CAPTURE is set and the kernel's name
// matches SPVSIM_CAPTURE_FILTER; else null (nothing is copied).
std::shared_ptr<const CaptureSource> captureSourceFor(_cl_kernel* k);

// One bundle being written: begun before the launch runs (the module, the "before"
// contents), finished after it (the "after" contents, then the manifest).
class LaunchCapture {
 public:
  struct Input {
    const CaptureSource& source;
    Program& program;  // its program-scope variables are read
    const Program::Kernel& kernel;
    const NDRange& range;  // as enqueued
    const std::vector<KernelArg>& args;
    bool svm = false;            // the context has SVM allocations (not captured)
    uint32_t subGroupSize = 16;  // for a kernel without intel_reqd_sub_group_size
  };
  // Where a bundle is written: the temporary folder, and the number and kernel of its
  // name in `root` (DIR) once complete.
  struct Folder {
    std::string temporary, root, kernel;
    uint64_t number = 0;
  };
  // Null when SPVSIM_CAPTURE_LIMIT bundles were begun already, capturing has stopped, or
  // the bundle cannot be written (which stops it).
  static std::unique_ptr<LaunchCapture> begin(const Input& in);
  // `status` is the launch's event status (CL_COMPLETE or an error). Writes the "after"
  // contents and the manifest, then renames the folder into place.
  void finish(int status);

  LaunchCapture(Folder folder, formats::Bundle bundle, std::vector<const _cl_mem*> buffers,
                std::vector<std::pair<size_t, const _cl_mem*>> images);
  // Removes the temporary folder of a bundle that was not completed.
  ~LaunchCapture();
  LaunchCapture(const LaunchCapture&) = delete;
  LaunchCapture& operator=(const LaunchCapture&) = delete;

 private:
  Folder folder_;
  bool published_ = false;
  formats::Bundle bundle_;  // the manifest (src/formats/bundle_manifest.h) but its status
  std::vector<const _cl_mem*> buffers_;                    // root allocations, in manifest order
  std::vector<std::pair<size_t, const _cl_mem*>> images_;  // (argument, image)
};

// The launch as an Oclgrind .sim file (runtime/capture_sim.cc) with `local` the local
// size it ran with; "" and the reason in `why` when it does not fit that format.
std::string simFile(const LaunchCapture::Input& in, const std::array<uint64_t, 3>& local,
                    std::string& why);

}  // namespace spvsim::rt
