// Read, write, copy, fill and migrate commands on buffers. Each command keeps its
// buffers alive (Ref) until it has run on the queue's worker.
#include <cstring>

#include "runtime/core_api.h"
#include "runtime/mem.h"
#include "runtime/ref.h"

namespace spvsim::rt {
namespace {

bool hostMayRead(const _cl_mem* m) {
  return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
bool hostMayWrite(const _cl_mem* m) {
  return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

// Whether two byte ranges of one buffer, or of sub-buffers of one buffer, overlap.
bool overlaps(const _cl_mem* a, size_t aOffset, const _cl_mem* b, size_t bOffset, size_t size) {
  if (rootOf(a) != rootOf(b)) return false;
  const uint8_t* pa = a->data + aOffset;
  const uint8_t* pb = b->data + bOffset;
  return size && pa < pb + size && pb < pa + size;
}

bool validPatternSize(size_t n) { return n && n <= 128 && (n & (n - 1)) == 0; }

}  // namespace

cl_int clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                           size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event) {
  if (cl_int err = checkBufferCommand(command_queue, buffer)) return err;
  _cl_mem* m = validBuffer(buffer);
  if (!ptr || size == 0 || !inBounds(offset, size, m->size)) return CL_INVALID_VALUE;
  if (!hostMayRead(m)) return CL_INVALID_OPERATION;
  auto run = [b = Ref(m), offset, size, ptr] {
    std::memcpy(ptr, b->data + offset, size);
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_READ_BUFFER, num_events_in_wait_list, event_wait_list,
                 event, run, blocking_read);
}

cl_int clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                            size_t offset, size_t size, const void* ptr,
                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                            cl_event* event) {
  if (cl_int err = checkBufferCommand(command_queue, buffer)) return err;
  _cl_mem* m = validBuffer(buffer);
  if (!ptr || size == 0 || !inBounds(offset, size, m->size)) return CL_INVALID_VALUE;
  if (!hostMayWrite(m)) return CL_INVALID_OPERATION;
  auto run = [b = Ref(m), offset, size, ptr] {
    std::memmove(b->data + offset, ptr, size);  // ptr may be the buffer's own host memory
    markContentsWritten(b.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_WRITE_BUFFER, num_events_in_wait_list, event_wait_list,
                 event, run, blocking_write);
}

cl_int clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                           size_t src_offset, size_t dst_offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event) {
  if (cl_int err = checkBufferCommand(command_queue, src_buffer)) return err;
  if (cl_int err = checkBufferCommand(command_queue, dst_buffer)) return err;
  _cl_mem* src = validBuffer(src_buffer);
  _cl_mem* dst = validBuffer(dst_buffer);
  if (!inBounds(src_offset, size, src->size) || !inBounds(dst_offset, size, dst->size))
    return CL_INVALID_VALUE;
  if (overlaps(src, src_offset, dst, dst_offset, size)) return CL_MEM_COPY_OVERLAP;
  auto run = [s = Ref(src), d = Ref(dst), src_offset, dst_offset, size] {
    if (size) std::memcpy(d->data + dst_offset, s->data + src_offset, size);
    markContentsWritten(d.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list, event_wait_list,
                 event, run);
}

cl_int clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                           size_t pattern_size, size_t offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event) {
  if (cl_int err = checkBufferCommand(command_queue, buffer)) return err;
  _cl_mem* m = validBuffer(buffer);
  if (!pattern || !validPatternSize(pattern_size) || offset % pattern_size || size % pattern_size ||
      !inBounds(offset, size, m->size))
    return CL_INVALID_VALUE;
  // The pattern may be reused by the application as soon as this call returns.
  std::vector<uint8_t> bytes(static_cast<const uint8_t*>(pattern),
                             static_cast<const uint8_t*>(pattern) + pattern_size);
  auto run = [b = Ref(m), bytes, offset, size] {
    for (size_t at = 0; at < size; at += bytes.size())
      std::memcpy(b->data + offset + at, bytes.data(), bytes.size());
    markContentsWritten(b.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list,
                 event, run);
}

// Host and device share memory: migration only orders the command with the others.
cl_int clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                  const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                  cl_event* event) {
  _cl_command_queue* q = validQueue(command_queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  if (num_mem_objects == 0 || !mem_objects) return CL_INVALID_VALUE;
  if (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    _cl_mem* m = checked<_cl_mem>(mem_objects[i], Kind::Mem);
    if (!m) return CL_INVALID_MEM_OBJECT;
    if (m->context != q->context) return CL_INVALID_CONTEXT;
  }
  return enqueue(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list,
                 event_wait_list, event, nullptr);
}

}  // namespace spvsim::rt
