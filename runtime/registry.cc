// The handle registry: every live object the ICD handed out, so that a call with a
// stale, foreign or garbage handle gets its CL_INVALID_* code instead of a crash.
#include "runtime/object.h"

namespace spvsim::rt {

void Registry::add(const Object* o, Kind k) {
  std::lock_guard lock(mutex_);
  live_[o] = k;
}

void Registry::remove(const Object* o) {
  std::lock_guard lock(mutex_);
  live_.erase(o);
}

bool Registry::isLive(const void* handle, Kind k) const {
  if (!handle) return false;
  std::lock_guard lock(mutex_);
  auto it = live_.find(handle);
  return it != live_.end() && it->second == k;
}

Registry& registry() {
  // Never destroyed: queue worker threads may still release objects while the process
  // runs its static destructors.
  static Registry* r = new Registry;
  return *r;
}

}  // namespace spvsim::rt
