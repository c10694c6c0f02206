// The layer's reference: a launch the application's device ran, run again on spvsim's own
// ICD (linked into the layer, reached through its dispatch table as any host program
// reaches it) with the device's inputs. Programs are built once per application program
// and build options; a launch binds fresh buffers holding the device's "before"
// contents. Everything the ICD does for its own launches applies: the argument checks,
// SPVSIM_CHECKS, diagnostics to SPVSIM_DIAGNOSTICS, SPVSIM_CAPTURE (with the device's
// "after" contents, runtime/interfaces.h `capturedAfter`).
#pragma once

#include <CL/cl_icd.h>

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/layer/records.h"
#include "spirv/kernel_signature.h"

namespace spvsim::layer {

// One launch as the device ran it.
struct LaunchShape {
  cl_uint dims = 1;
  std::array<size_t, 3> offset{0, 0, 0}, global{1, 1, 1}, local{0, 0, 0};
  bool localGiven = false;
  uint32_t subGroupSize = 0;  // the device's, where it says; 0: spvsim's default
};

// A buffer or image argument of the kernel, by parameter.
struct BufferParam {
  cl_uint index = 0;
  std::string declaration;      // "global float* out", "write_only image2d_t img"
  std::string typeName;         // "float*"
  bool writable = true;         // not const-qualified; an image not read_only
  cl_mem mem = nullptr;         // the application's (null: a NULL pointer)
  cl_mem root = nullptr;        // its root allocation (an image is its own)
  size_t origin = 0, size = 0;  // its window of the root (an image: its packed pixels)
  bool image = false;
  cl_image_format format{};  // images
};

class Replay {
 public:
  Replay();
  ~Replay();
  Replay(const Replay&) = delete;
  Replay& operator=(const Replay&) = delete;

  // The kernel's buffer parameters as the record binds them; false with `why` when the
  // launch cannot be replayed (a program spvsim cannot build, an argument kind it does
  // not shadow, a memory object the layer did not see).
  bool plan(const LaunchRecord& launch, std::vector<BufferParam>& buffers, std::string& why);

  // Runs the launch on spvsim from `before` (each root allocation's contents, by the
  // application's handle); `deviceAfter` is what the device left (for capture). Fills
  // `after` with spvsim's contents of each root. False with `why` when spvsim refuses it.
  bool run(const LaunchRecord& launch, const LaunchShape& shape,
           const std::map<cl_mem, std::vector<uint8_t>>& before,
           const std::map<cl_mem, std::vector<uint8_t>>& deviceAfter,
           std::map<cl_mem, std::vector<uint8_t>>& after, std::string& why);

  // The floating-point built-ins the kernel's program calls (OpenCL.std names, "fdiv"
  // for divisions), for a mismatch's accuracy note.
  std::set<std::string> builtinsOf(const LaunchRecord& launch);

 private:
  struct Built {
    cl_program program = nullptr;
    std::string error;  // why it did not build
    std::set<std::string> builtins;
    bool builtinsKnown = false;
  };
  struct Made;  // what one replay made on spvsim (replay.cc)
  Built& build(const LaunchRecord& launch);
  bool copyRoots(const LaunchRecord& launch, const std::map<cl_mem, std::vector<uint8_t>>& before,
                 const std::map<cl_mem, std::vector<uint8_t>>& deviceAfter, Made& made,
                 std::string& why);
  cl_int bindArg(const LaunchRecord& launch, const spirv::ParamSignature& p, Made& made);
  bool readBack(const LaunchRecord& launch, const std::map<cl_mem, std::vector<uint8_t>>& before,
                const Made& made, std::map<cl_mem, std::vector<uint8_t>>& after, std::string& why);
  cl_kernel kernel(const LaunchRecord& launch, std::string& why);

  const cl_icd_dispatch* d_ = nullptr;
  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::string unavailable_;  // why spvsim's ICD could not be opened
  std::mutex mutex_;         // one replay at a time
  // By program text (source or IL) and build options.
  std::map<std::string, Built> built_;
};

}  // namespace spvsim::layer
