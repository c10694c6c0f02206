// Buffer objects as the core's command files use them.
#pragma once

#include "runtime/interfaces.h"
#include "runtime/queue.h"

namespace spvsim::rt {

// The handle as a live buffer (or sub-buffer), else nullptr.
_cl_mem* validBuffer(cl_mem mem);

// The checks every buffer command starts with: CL_INVALID_COMMAND_QUEUE,
// CL_INVALID_MEM_OBJECT, CL_INVALID_CONTEXT (queue and buffer from different contexts).
cl_int checkBufferCommand(cl_command_queue queue, cl_mem buffer);

// Whether the buffer's storage lies in an SVM allocation of its context
// (CL_MEM_USE_HOST_PTR of an SVM pointer: CL_MEM_USES_SVM_POINTER).
bool usesSvmPointer(const _cl_mem* m);

// The buffer a sub-buffer was created from (a buffer is its own root).
inline const _cl_mem* rootOf(const _cl_mem* m) { return m->parent ? m->parent : m; }

// Records that `m`'s contents (its root buffer's, for sub-buffers and images over a buffer)
// were given values (_cl_mem::contentsWritten).
inline void markContentsWritten(const _cl_mem* m) { rootOf(m)->contentsWritten.store(true); }

// Whether [offset, offset + size) lies inside a buffer of `total` bytes (no overflow).
inline bool inBounds(size_t offset, size_t size, size_t total) {
  return offset <= total && size <= total - offset;
}

// Mapping (runtime/map.cc; images too, runtime/image_map.cc): CL_INVALID_VALUE for
// invalid map flags; whether the CL_MEM_HOST_* flags allow the map; ending a mapping.
cl_int checkMapFlags(cl_map_flags f);
bool hostMayMap(const _cl_mem* m, cl_map_flags f);
void forgetMapping(_cl_mem* m, void* ptr);

}  // namespace spvsim::rt
