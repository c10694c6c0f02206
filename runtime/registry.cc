// The handle registry: every live object the ICD handed out, so that a call with a
// stale, foreign or garbage handle gets its CL_INVALID_* code instead of a crash; and
// the cells objects live in, which keep released handles readable by the loader.
#include <type_traits>

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
  // runs its static destructors, and the loader may read released handles until exit.
  static Registry* r = new Registry;
  return *r;
}

void* Object::operator new(size_t size) { return registry().cells().allocate(size); }

// Object's members are trivially destructible and no destructor writes them, so what a
// deleted object leaves in its cell is its tombstone: the dispatch pointer the loader
// reads of a released handle, and both counts at zero, which a clRetain*/clRelease*
// racing with the last release reads (retainHandle, releaseHandle). The registry
// rejects the handle before anything else is read.
static_assert(std::is_trivially_destructible_v<Object>);

void Object::operator delete(void* p, size_t size) {
  registry().cells().recycle(p, size, sizeof(Object));
}

bool retainHandle(Object* o) {
  cl_uint n = o->refs.load(std::memory_order_relaxed);
  do {
    if (n == 0) return false;  // never resurrect an object being destroyed
  } while (!o->refs.compare_exchange_weak(n, n + 1, std::memory_order_relaxed));
  o->appRefs.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool releaseHandle(Object* o) {
  cl_uint n = o->appRefs.load(std::memory_order_relaxed);
  do {
    if (n == 0) return false;
  } while (!o->appRefs.compare_exchange_weak(n, n - 1, std::memory_order_relaxed));
  release(o);
  return true;
}

}  // namespace spvsim::rt
