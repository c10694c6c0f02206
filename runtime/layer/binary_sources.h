// Where a device binary came from, remembered across processes: applications cache the
// binaries their driver built (PyOpenCL does by default) and later create programs from
// them, which spvsim cannot replay. When the application reads a program's binaries
// (clGetProgramInfo CL_PROGRAM_BINARIES) the layer stores the program's source or IL and
// build options under a hash of each binary, in the compile cache's folder
// (SPVSIM_CACHE_DIR, ... : src/compiler/compile_cache.h) under layer-programs/; a program
// made from such a binary is then recorded as made from that source.
//
// The entries are the user's own (a cache folder only they write); a binary whose entry
// is missing, unreadable or malformed stays "a device binary" (not shadowed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/layer/records.h"

namespace spvsim::layer {

class BinarySources {
 public:
  // In `directory` (created when needed); empty: nothing is remembered.
  explicit BinarySources(std::string directory) : dir_(std::move(directory)) {}
  // The compile cache's folder + "/layer-programs", or empty when the cache is off.
  static std::string defaultDirectory();

  // Best effort: a folder that cannot be written only means the binary is not known later.
  void remember(const uint8_t* binary, size_t size, const ProgramRecord& program) const;
  std::optional<ProgramRecord> recall(const uint8_t* binary, size_t size) const;

 private:
  std::string path(const uint8_t* binary, size_t size) const;
  std::string dir_;
};

}  // namespace spvsim::layer
