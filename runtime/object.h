// The base of every OpenCL object the ICD hands out, handle validation, and the
// clGet*Info return protocol. Object layouts: the dispatch pointer comes first
// (CL/cl_icd.h), so no object type may have virtual functions.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/cell_pool.h"

namespace spvsim::rt {

enum class Kind : uint32_t {
  Platform = 1,
  Device,
  Context,
  Queue,
  Mem,
  Program,
  Kernel,
  Event,
  Sampler,
};

// The dispatch table every object points at (runtime/dispatch.cc).
const cl_icd_dispatch* dispatchTable();

// Reference counting. `refs` counts every reference, the application's and the
// runtime's own (a queued command's buffers and events, a queue's context, a kernel's
// program, a sub-buffer's parent): the object lives, and its handle stays valid, while
// any is held. Applications rely on that: a handle read back from CL_QUEUE_CONTEXT or
// CL_KERNEL_PROGRAM after they released their own reference is retained and used as
// on every other implementation. `appRefs` counts the application's references alone
// (creation, clRetain*, clRelease*), so that a release beyond them (a double release)
// is refused with CL_INVALID_<OBJECT> instead of dropping a reference the runtime
// holds and destroying the object under it.
//
// Objects are allocated in the registry's cells (runtime/cell_pool.h), which keep a
// released object's dispatch pointer readable: the loader reads it before spvsim can
// reject the handle.
struct Object {
  const cl_icd_dispatch* dispatch = dispatchTable();
  Kind kind;
  std::atomic<cl_uint> refs{1};        // CL_*_REFERENCE_COUNT
  std::atomic<cl_uint> appRefs{1};     // the application's part of refs
  void (*destroy)(Object*) = nullptr;  // deletes the concrete object; set by its creator

  explicit Object(Kind k) : kind(k) {}

  static void* operator new(size_t size);
  static void operator delete(void* p, size_t size);  // keeps a tombstone (registry.cc)
};

// Every live handle, so that an API call can reject a dangling or foreign pointer
// without dereferencing it ("never a crash on a bad call"), and the cells objects live
// in. Global because handles are: the loader hands any thread any handle of the process.
// It is the library's one piece of mutable global state besides the platform and device
// it registers and the settings read once (knobs.h).
class Registry {
 public:
  void add(const Object* o, Kind k);
  void remove(const Object* o);
  bool isLive(const void* handle, Kind k) const;
  CellPool& cells() { return cells_; }

 private:
  // Released cells of a size class wait this long before reuse (cell_pool.h): a stale
  // handle is recognised until 1024 later releases of objects of its size, at a cost
  // of at most 1024 idle cells (a few hundred bytes each) per size class.
  static constexpr size_t kQuarantine = 1024;

  mutable std::mutex mutex_;
  std::unordered_map<const void*, Kind> live_;
  CellPool cells_{kQuarantine};
};

// The one registry of this library (a process has one platform).
Registry& registry();

// Registers a new object (refcount 1, the application's) with its deleter.
template <class T>
T* registerObject(T* o) {
  o->destroy = [](Object* p) { delete static_cast<T*>(p); };
  registry().add(o, o->kind);
  return o;
}

// The handle as T when it is a live object of kind `k`, else nullptr.
template <class T>
T* checked(const void* handle, Kind k) {
  return registry().isLive(handle, k) ? static_cast<T*>(const_cast<void*>(handle)) : nullptr;
}

// A reference of the runtime's own to an object it knows to be alive.
inline void retain(Object* o) { o->refs.fetch_add(1, std::memory_order_relaxed); }

// Drops one reference; at zero the object leaves the registry and is deleted.
inline void release(Object* o) {
  if (o->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    registry().remove(o);
    o->destroy(o);
  }
}

// clRetain*: one more application reference; false when the object is already gone
// (its last reference dropped on another thread after the handle was checked).
bool retainHandle(Object* o);

// clRelease*: drops one application reference; false when the application holds none
// (a double release), which leaves the runtime's references alone.
bool releaseHandle(Object* o);

// clGet*Info: copies `bytes` of `data` to `value` when it is large enough; reports the
// size. CL_INVALID_VALUE when `value` is given but smaller than the result.
inline cl_int returnInfo(const void* data, size_t bytes, size_t valueSize, void* value,
                         size_t* sizeRet) {
  if (value) {
    if (valueSize < bytes) return CL_INVALID_VALUE;
    if (bytes) std::memcpy(value, data, bytes);
  }
  if (sizeRet) *sizeRet = bytes;
  return CL_SUCCESS;
}

template <class T>
cl_int returnValue(const T& v, size_t valueSize, void* value, size_t* sizeRet) {
  return returnInfo(&v, sizeof v, valueSize, value, sizeRet);
}

inline cl_int returnString(const std::string& s, size_t valueSize, void* value, size_t* sizeRet) {
  return returnInfo(s.c_str(), s.size() + 1, valueSize, value, sizeRet);
}

template <class T>
cl_int returnVector(const std::vector<T>& v, size_t valueSize, void* value, size_t* sizeRet) {
  return returnInfo(v.data(), v.size() * sizeof(T), valueSize, value, sizeRet);
}

// Stores `err` through an optional errcode_ret pointer and returns `result`.
template <class T>
T withError(cl_int* errcodeRet, cl_int err, T result) {
  if (errcodeRet) *errcodeRet = err;
  return result;
}

}  // namespace spvsim::rt
