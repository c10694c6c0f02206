// Settings of the ICD, read once from the environment (documented in README.md):
//   SPVSIM_SUB_GROUP_SIZE  sub-group size of kernels without intel_reqd_sub_group_size
//                          (default 16, 1..128)
//   SPVSIM_THREADS         host threads per kernel launch (default 0: all cores)
//   SPVSIM_DIAGNOSTICS     where kernel diagnostics go: "stderr" (default), "none", or a
//                          file path (appended, one line per diagnostic)
//   SPVSIM_INSTRUCTION_BUDGET  sub-group instructions per work-group (default 2^30)
//   SPVSIM_MAX_DEVICE_ENQUEUES  commands one host launch and the kernels it enqueues may
//                          enqueue in all (device-side enqueue; default 2^20); more stops
//                          the launch (CL_OUT_OF_RESOURCES) with a device-enqueue error
//   SPVSIM_CHECKS          checkers to run, comma-separated: "races" (data races and
//                          insufficient scope), "uninitialized" (default: none)
//   SPVSIM_MAX_MEMORY      bytes of memory the simulator may allocate for one launch
//                          (LaunchOptions::maxMemory), optionally with a K, M or G suffix
//                          (powers of 1024), e.g. 512M; default: the simulator's
//                          (spvsim::defaultMaxMemory()). A launch that needs more stops
//                          with its event at CL_OUT_OF_RESOURCES and the reason in the
//                          diagnostics (SPVSIM_DIAGNOSTICS).
//   SPVSIM_CAPTURE         a folder: every launch is written there as a replayable bundle
//                          (runtime/capture.h); SPVSIM_CAPTURE_FILTER a glob on kernel
//                          names (fnmatch), SPVSIM_CAPTURE_LIMIT the most bundles written
//   SPVSIM_IMAGE_FORMATS   "all": also report the x channel orders (CL_Rx, CL_RGx,
//                          CL_RGBx, CL_sRGBx), whose border colour the OpenCL C spec and
//                          the conformance suite disagree on (runtime/image_formats.cc);
//                          default "conformant": every other supported format
//   SPVSIM_RECONVERGENCE   "random[:SEED]": seeded reconvergence groups (default ipdom)
//   SPVSIM_FORWARD_PROGRESS  "occupancy[:N]": N work-groups resident at once, each keeping
//                          on making progress (default N: CL_DEVICE_MAX_COMPUTE_UNITS);
//                          default "none": a work-group waiting for another deadlocks
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/exec/device_queue.h"

namespace spvsim::rt {

struct Knobs {
  uint32_t subGroupSize = 16;
  unsigned threads = 0;
  std::string diagnostics = "stderr";
  uint64_t instructionBudget = 1ull << 30;
  uint64_t maxDeviceEnqueues = kMaxDeviceEnqueues;
  bool checkRaces = false;
  bool checkUninitialized = false;
  bool checkUndefined = false;    // SPVSIM_CHECKS=undefined: value-level undefinedness
  uint64_t maxMemory = 0;         // SPVSIM_MAX_MEMORY, or the simulator's default
  std::string captureDir;         // SPVSIM_CAPTURE; empty: no capture
  std::string captureFilter;      // SPVSIM_CAPTURE_FILTER; empty: every kernel
  uint64_t captureLimit = ~0ull;  // SPVSIM_CAPTURE_LIMIT; unset: no limit
  bool xChannelOrders = false;    // SPVSIM_IMAGE_FORMATS=all
  // SPVSIM_RECONVERGENCE=random[:SEED]; unset (or ipdom): ipdom.
  std::optional<uint64_t> reconvergenceSeed;
  // SPVSIM_MEMORY_MODEL=relaxed[:SEED] (seed 0 when none); unset (or sc): sequential
  // consistency.
  std::optional<uint64_t> relaxedSeed;
  // SPVSIM_FORWARD_PROGRESS=occupancy[:N]: N work-groups resident at once (0: the
  // device's compute units); unset (or none): no forward progress between work-groups.
  std::optional<uint64_t> residentGroups;
};

// Parsed on first use; a malformed value is reported once on stderr and ignored.
const Knobs& knobs();

}  // namespace spvsim::rt
