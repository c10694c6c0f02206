// The one clock of the device: profiling timestamps, clGetDeviceAndHostTimer and
// clGetHostTimer all read it, so their values are comparable (resolution 1 ns).
#pragma once

#include <chrono>
#include <cstdint>

namespace spvsim::rt {

inline uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace spvsim::rt
