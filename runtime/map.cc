// Mapping buffers into host memory. The device's memory is host memory, so a map
// returns the buffer's own bytes (the application's host_ptr region for
// CL_MEM_USE_HOST_PTR, as the spec requires) and map/unmap copy nothing; they still
// run as commands so that wait lists and events order them.
#include <algorithm>

#include "runtime/core_api.h"
#include "runtime/mem.h"
#include "runtime/ref.h"

namespace spvsim::rt {
cl_int checkMapFlags(cl_map_flags f) {
  if (f & ~(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) return CL_INVALID_VALUE;
  if ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

// CL_MEM_HOST_* flags forbid some maps.
bool hostMayMap(const _cl_mem* m, cl_map_flags f) {
  if (m->flags & CL_MEM_HOST_NO_ACCESS) return false;
  if ((m->flags & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MAP_READ)) return false;
  if ((m->flags & CL_MEM_HOST_READ_ONLY) && (f & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
    return false;
  return true;
}

void forgetMapping(_cl_mem* m, void* ptr) {
  std::lock_guard lock(m->mutex);
  auto it = std::find(m->mappings.begin(), m->mappings.end(), ptr);
  if (it != m->mappings.end()) m->mappings.erase(it);
}

void* clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                         cl_map_flags map_flags, size_t offset, size_t size,
                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                         cl_event* event, cl_int* errcode_ret) {
  if (cl_int err = checkBufferCommand(command_queue, buffer))
    return withError<void*>(errcode_ret, err, nullptr);
  _cl_mem* m = validBuffer(buffer);
  if (cl_int err = checkMapFlags(map_flags)) return withError<void*>(errcode_ret, err, nullptr);
  if (size == 0 || !inBounds(offset, size, m->size))
    return withError<void*>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (!hostMayMap(m, map_flags))
    return withError<void*>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  void* ptr = m->data + offset;
  if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) markContentsWritten(m);
  {
    std::lock_guard lock(m->mutex);
    m->mappings.push_back(ptr);
  }
  cl_int err = enqueue(
      command_queue, CL_COMMAND_MAP_BUFFER, num_events_in_wait_list, event_wait_list, event,
      [b = Ref(m)] { return CL_COMPLETE; }, blocking_map);
  if (err != CL_SUCCESS) {
    forgetMapping(m, ptr);
    return withError<void*>(errcode_ret, err, nullptr);
  }
  return withError(errcode_ret, CL_SUCCESS, ptr);
}

cl_int clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                               cl_event* event) {
  _cl_command_queue* q = validQueue(command_queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  _cl_mem* m = checked<_cl_mem>(memobj, Kind::Mem);
  if (!m) return CL_INVALID_MEM_OBJECT;
  if (m->context != q->context) return CL_INVALID_CONTEXT;
  {
    std::lock_guard lock(m->mutex);
    if (std::find(m->mappings.begin(), m->mappings.end(), mapped_ptr) == m->mappings.end())
      return CL_INVALID_VALUE;
  }
  cl_int err = checkWaitList(q->context, num_events_in_wait_list, event_wait_list);
  if (err != CL_SUCCESS) return err;
  forgetMapping(m, mapped_ptr);
  return enqueue(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list,
                 event_wait_list, event, [b = Ref(m)] { return CL_COMPLETE; });
}

}  // namespace spvsim::rt
