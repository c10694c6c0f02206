// Launch configurations for tests of the executor's fast paths: a sub-group size, a
// work-group size and whether the checkers run (they run handlers on shadow registers and
// turn the fast paths off), so that one kernel is checked in full, partial, odd-sized and
// one-lane sub-groups.
#pragma once

#include <cstdint>
#include <string>

#include "src/check/observers.h"
#include "src/exec/program.h"

namespace spvsim::check::testing {

struct LaunchConfig {
  uint32_t subGroupSize;
  uint64_t local;
  bool checkers;
};

// One host thread, the sub-group size, and the race and undefined-value checkers if asked.
inline LaunchOptions optionsFor(const LaunchConfig& c) {
  LaunchOptions o;
  o.subGroupSize = c.subGroupSize;
  o.threads = 1;
  if (c.checkers) o.observers = observersFor({.races = true, .undefinedValues = true});
  return o;
}

// One host thread, the sub-group size, and the race checker alone.
inline LaunchOptions racesChecked(uint32_t subGroupSize = 16) {
  LaunchOptions o;
  o.subGroupSize = subGroupSize;
  o.threads = 1;
  o.observers = observersFor({.races = true});
  return o;
}

// "-O2 sub-group 16 local 20 checkers", for SCOPED_TRACE.
inline std::string configName(const LaunchConfig& c, const char* opt) {
  return std::string(opt) + " sub-group " + std::to_string(c.subGroupSize) + " local " +
         std::to_string(c.local) + (c.checkers ? " checkers" : "");
}

}  // namespace spvsim::check::testing
