// Capture bundles (written by the ICD with SPVSIM_CAPTURE, runtime/capture.h) as an input
// of `spvsim run|debug|check`: BUNDLE is the bundle's folder or its launch.txt. The
// manifest is line-based ("KEY VALUE..." or "KEY INDEX NAME=VALUE..."; '#' comments),
// documented in README.md ("Capture and replay"):
//
//   spvsim-capture 1                   format version (first line)
//   kernel NAME / module FILE / build-options TEXT (rest of the line)
//   source FILE                        the program's OpenCL C (program.cl), when built from source
//   work-dim N / global-offset X Y Z / global-size X Y Z / local-size X Y Z
//   sub-group-size N
//   buffer I size=BYTES before=FILE after=FILE initialized=0|1   one per allocation
//   global-variable id=ID size=BYTES before=FILE                  program-scope variables
//   arg I value size=BYTES type=TYPE bytes=HEX
//   arg I buffer buffer=I offset=BYTES size=BYTES type=TYPE access=rw|r|w|-
//   arg I local size=BYTES | arg I null
//   arg I sampler normalized=0|1 addressing=N filter=N   (cl_addressing_mode, cl_filter_mode)
//   arg I image shape=image2d:ORDER,TYPE[W,H] before=FILE after=FILE   (pixels packed)
//   arg I not-captured WHAT            (pipes, ...: replay refuses the bundle)
//   warning TEXT                       what the capture could not hold (printed by replay)
//   status complete|failed
//
// Several arguments naming one buffer (sub-buffers, one buffer passed twice) share its
// storage in the replay, as they did in the application.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spirv/kernel_signature.h"
#include "tools/cli/arg_value.h"
#include "tools/cli/check_expect.h"

namespace spvsim::tools {

struct BundleBuffer {
  uint64_t size = 0;
  std::string before, after;  // paths
  bool initialized = true;
};

struct BundleGlobal {
  uint32_t id = 0;
  uint64_t size = 0;
  std::string before;  // path
};

struct BundleArg {
  enum class Kind { Value, Buffer, Local, Null, Sampler, Image, NotCaptured };
  Kind kind = Kind::Value;
  size_t line = 0;
  std::string type;            // Value, Buffer: the parameter's OpenCL C type ("float*")
  std::vector<uint8_t> bytes;  // Value
  uint64_t size = 0;           // Value, Buffer, Local: bytes
  uint64_t offset = 0;         // Buffer: in its allocation
  size_t buffer = 0;           // Buffer: index into Bundle::buffers
  bool readable = true, writable = true;
  SamplerDesc sampler;
  std::string shape;          // Image: "image2d:RGBA,UNORM_INT8[4,2]"
  std::string before, after;  // Image: paths of the packed pixels (`size` bytes each)
  std::string notCaptured;    // NotCaptured: what ("pipes")
};

struct Bundle {
  std::string manifest;  // the launch.txt path, for messages
  std::string module;    // path
  std::string source;    // path of the program's source, or "" (programs from IL)
  std::string kernel, buildOptions, status;
  uint32_t dims = 1;
  std::array<uint64_t, 3> offset{0, 0, 0}, global{1, 1, 1}, local{1, 1, 1};
  uint32_t subGroupSize = 16;
  std::vector<BundleBuffer> buffers;
  std::vector<BundleGlobal> globals;
  std::vector<BundleArg> args;
  std::vector<std::string> warnings;
};

// Whether `path` names a bundle: a folder holding launch.txt (or module.spv: an incomplete
// bundle, which readBundle refuses), or a file named launch.txt.
bool isBundlePath(const std::string& path);

// Reads the manifest and checks it: every key known, every required one present, the
// arguments numbered 0..N-1, every file it names present with the size it says.
// Throws Error(DiagnosticKind::Input) "MANIFEST:LINE: message".
Bundle readBundle(const std::string& path);

// The launch's arguments for the kernel's parameters: buffers hold the "before" contents
// (ArgValue::storageArg where several share one allocation). An argument the ICD could not
// capture throws Error(DiagnosticKind::Unsupported) naming it; buffers are counted in
// `memory` before they are read.
std::vector<ArgValue> bundleArguments(const Bundle& bundle,
                                      const std::vector<spirv::ParamSignature>& params,
                                      ArgMemory& memory);

// `size` bytes at `offset` of a bundle's data file (checked by readBundle).
std::vector<uint8_t> readBundleBytes(const std::string& path, uint64_t offset, uint64_t size);

// Each buffer and image argument's "after" contents, as `spvsim check`'s reference.
std::vector<ExpectedArg> bundleExpectations(const Bundle& bundle,
                                            const std::vector<ArgValue>& args);

}  // namespace spvsim::tools
