// A launch on the application's device, shadowed: the inputs are read back through the
// driver's own queue, the device runs the kernel, its outputs are read back, and the
// same launch runs on spvsim (runtime/layer/replay.h) from the same inputs; every buffer
// the kernel may write is compared (runtime/layer/compare.h) and each difference is a
// `device-mismatch` diagnostic. The application always gets the device's results and
// its own status: whatever fails in the layer passes the call through and is said once.
//
// Cost: the launch becomes synchronous (the layer waits for the device to read the
// results back), plus a read of every buffer argument before and after, plus spvsim's
// run (README.md, "OpenCL layer").
#pragma once

#include <CL/cl_icd.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "runtime/layer/records.h"
#include "runtime/layer/replay.h"

namespace spvsim::layer {

// SPVSIM_SHADOW_FILTER (a glob on kernel names, fnmatch) and SPVSIM_SHADOW_LIMIT (the
// most launches shadowed), read once.
struct ShadowKnobs {
  std::string filter;
  uint64_t limit = UINT64_MAX;
  static ShadowKnobs fromEnvironment();
};

class Shadow {
 public:
  Shadow(const cl_icd_dispatch* target, ShadowKnobs knobs);

  Records& records() { return records_; }

  // clEnqueueNDRangeKernel through the layer: the device's status, always.
  cl_int enqueue(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* offset,
                 const size_t* global, const size_t* local, cl_uint numWait,
                 const cl_event* waitList, cl_event* event);

  // "spvsim layer: N launches shadowed, ..." (written at exit).
  std::string summary() const;

 private:
  cl_int passThrough(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* offset,
                     const size_t* global, const size_t* local, cl_uint numWait,
                     const cl_event* waitList, cl_event* event);
  void skipped(const std::string& kernel, const std::string& why);
  uint32_t deviceSubGroupSize(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
                              const size_t* local);
  bool readRoots(cl_command_queue queue, const LaunchRecord& launch, const std::set<cl_mem>& roots,
                 cl_uint numWait, const cl_event* waitList,
                 std::map<cl_mem, std::vector<uint8_t>>& out, std::string& why);
  void compare(const LaunchRecord& launch, uint64_t number, const LaunchShape& shape,
               const std::vector<BufferParam>& params,
               const std::map<cl_mem, std::vector<uint8_t>>& device,
               const std::map<cl_mem, std::vector<uint8_t>>& spvsim);

  const cl_icd_dispatch* target_;
  ShadowKnobs knobs_;
  Records records_;
  Replay replay_;
  std::atomic<uint64_t> launches_{0};  // numbered as the application enqueues them
  mutable std::mutex mutex_;           // guards the counts below
  uint64_t shadowed_ = 0, mismatchedLaunches_ = 0, mismatchedElements_ = 0;
  uint64_t allowedLaunches_ = 0;           // mismatched only within the built-ins' accuracy
  std::map<std::string, uint64_t> skips_;  // by reason
  std::set<std::pair<std::string, std::string>> said_;  // (kernel, reason) already reported
};

}  // namespace spvsim::layer
