// The checkers as the front ends ask for them: observers of the execution events
// (src/exec/observer.h) to put in LaunchOptions::observers.
#pragma once

#include <memory>
#include <vector>

#include "src/exec/observer.h"

namespace spvsim::check {

struct Checks {
  bool races = false;          // data races and insufficient-scope synchronisation
  bool uninitialized = false;  // reads of private or local memory never written
  // Undefined values used where they matter (value-level tracking, src/check/shadow_kernel.h).
  bool undefinedValues = false;
};

using ObserverList = std::vector<std::shared_ptr<const ObserverFactory>>;

// The factories of the checkers `checks` turns on (none: an empty list).
ObserverList observersFor(const Checks& checks);

std::shared_ptr<const ObserverFactory> raceCheckerFactory();
std::shared_ptr<const ObserverFactory> uninitializedCheckerFactory();
std::shared_ptr<const ObserverFactory> undefinedValueCheckerFactory();

}  // namespace spvsim::check
