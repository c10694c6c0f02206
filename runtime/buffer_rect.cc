// The rectangular (2D/3D) read, write and copy commands on buffers.
#include <algorithm>
#include <array>
#include <cstring>

#include "runtime/core_api.h"
#include "runtime/mem.h"
#include "runtime/ref.h"

namespace spvsim::rt {
namespace {

// One side of a rectangular transfer: where the box starts and how rows and slices
// are laid out (pitches of 0 already replaced by their defaults).
struct Layout {
  size_t origin[3];
  size_t rowPitch, slicePitch;

  size_t offset(size_t y, size_t z) const {
    return (origin[2] + z) * slicePitch + (origin[1] + y) * rowPitch + origin[0];
  }
};

using Region = std::array<size_t, 3>;

// Resolves default pitches and checks them (CL_INVALID_VALUE rules of the spec).
cl_int makeLayout(const size_t* origin, const Region& region, size_t rowPitch, size_t slicePitch,
                  Layout& out) {
  if (!origin) return CL_INVALID_VALUE;
  if (rowPitch == 0) rowPitch = region[0];
  if (rowPitch < region[0]) return CL_INVALID_VALUE;
  if (slicePitch == 0) slicePitch = region[1] * rowPitch;
  if (slicePitch < region[1] * rowPitch || slicePitch % rowPitch) return CL_INVALID_VALUE;
  out = Layout{{origin[0], origin[1], origin[2]}, rowPitch, slicePitch};
  return CL_SUCCESS;
}

cl_int readRegion(const size_t* region, Region& out) {
  if (!region || !region[0] || !region[1] || !region[2]) return CL_INVALID_VALUE;
  out = {region[0], region[1], region[2]};
  return CL_SUCCESS;
}

// Whether the box lies inside a buffer of `size` bytes (exact, without overflow).
bool boxInBounds(const Layout& l, const Region& r, size_t size) {
  unsigned __int128 end = (unsigned __int128)(l.origin[2] + r[2] - 1) * l.slicePitch +
                          (unsigned __int128)(l.origin[1] + r[1] - 1) * l.rowPitch + l.origin[0] +
                          r[0];
  return end <= size;
}

// Copies the box row by row; each side's base pointer is where offset 0 lies.
void copyBox(uint8_t* dst, const Layout& d, const uint8_t* src, const Layout& s, const Region& r) {
  for (size_t z = 0; z < r[2]; ++z)
    for (size_t y = 0; y < r[1]; ++y)
      std::memmove(dst + d.offset(y, z), src + s.offset(y, z), r[0]);
}

// Whether any row of one box shares a byte with any row of the other (bases are the
// boxes' buffers' addresses): sorted row intervals, merged.
bool boxesOverlap(const uint8_t* a, const Layout& la, const uint8_t* b, const Layout& lb,
                  const Region& r) {
  auto rows = [&](const uint8_t* base, const Layout& l) {
    std::vector<uintptr_t> starts;
    for (size_t z = 0; z < r[2]; ++z)
      for (size_t y = 0; y < r[1]; ++y) starts.push_back(uintptr_t(base + l.offset(y, z)));
    std::sort(starts.begin(), starts.end());
    return starts;
  };
  std::vector<uintptr_t> ra = rows(a, la), rb = rows(b, lb);
  for (size_t i = 0, j = 0; i < ra.size() && j < rb.size();) {
    if (ra[i] < rb[j] + r[0] && rb[j] < ra[i] + r[0]) return true;
    ra[i] < rb[j] ? ++i : ++j;
  }
  return false;
}

// The checks shared by the read and write rect commands; fills both layouts.
cl_int checkHostRect(cl_command_queue queue, cl_mem buffer, const size_t* buffer_origin,
                     const size_t* host_origin, const size_t* region, size_t buffer_row_pitch,
                     size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                     const void* ptr, Region& r, Layout& b, Layout& h) {
  if (cl_int err = checkBufferCommand(queue, buffer)) return err;
  if (cl_int err = readRegion(region, r)) return err;
  if (cl_int err = makeLayout(buffer_origin, r, buffer_row_pitch, buffer_slice_pitch, b))
    return err;
  if (cl_int err = makeLayout(host_origin, r, host_row_pitch, host_slice_pitch, h)) return err;
  if (!ptr || !boxInBounds(b, r, validBuffer(buffer)->size)) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

}  // namespace

cl_int clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                               const size_t* buffer_origin, const size_t* host_origin,
                               const size_t* region, size_t buffer_row_pitch,
                               size_t buffer_slice_pitch, size_t host_row_pitch,
                               size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                               const cl_event* event_wait_list, cl_event* event) {
  Region r;
  Layout b, h;
  if (cl_int err =
          checkHostRect(command_queue, buffer, buffer_origin, host_origin, region, buffer_row_pitch,
                        buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, r, b, h))
    return err;
  _cl_mem* m = validBuffer(buffer);
  if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  auto run = [m = Ref(m), r, b, h, ptr] {
    copyBox(static_cast<uint8_t*>(ptr), h, m->data, b, r);
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_READ_BUFFER_RECT, num_events_in_wait_list,
                 event_wait_list, event, run, blocking_read);
}

cl_int clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                cl_bool blocking_write, const size_t* buffer_origin,
                                const size_t* host_origin, const size_t* region,
                                size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                cl_event* event) {
  Region r;
  Layout b, h;
  if (cl_int err =
          checkHostRect(command_queue, buffer, buffer_origin, host_origin, region, buffer_row_pitch,
                        buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, r, b, h))
    return err;
  _cl_mem* m = validBuffer(buffer);
  if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  auto run = [m = Ref(m), r, b, h, ptr] {
    copyBox(m->data, b, static_cast<const uint8_t*>(ptr), h, r);
    markContentsWritten(m.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_WRITE_BUFFER_RECT, num_events_in_wait_list,
                 event_wait_list, event, run, blocking_write);
}

cl_int clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                               const size_t* src_origin, const size_t* dst_origin,
                               const size_t* region, size_t src_row_pitch, size_t src_slice_pitch,
                               size_t dst_row_pitch, size_t dst_slice_pitch,
                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                               cl_event* event) {
  if (cl_int err = checkBufferCommand(command_queue, src_buffer)) return err;
  if (cl_int err = checkBufferCommand(command_queue, dst_buffer)) return err;
  _cl_mem* src = validBuffer(src_buffer);
  _cl_mem* dst = validBuffer(dst_buffer);
  Region r;
  Layout s, d;
  if (cl_int err = readRegion(region, r)) return err;
  if (cl_int err = makeLayout(src_origin, r, src_row_pitch, src_slice_pitch, s)) return err;
  if (cl_int err = makeLayout(dst_origin, r, dst_row_pitch, dst_slice_pitch, d)) return err;
  if (!boxInBounds(s, r, src->size) || !boxInBounds(d, r, dst->size)) return CL_INVALID_VALUE;
  if (src == dst && s.rowPitch != d.rowPitch && s.slicePitch != d.slicePitch)
    return CL_INVALID_VALUE;
  if (rootOf(src) == rootOf(dst) && boxesOverlap(src->data, s, dst->data, d, r))
    return CL_MEM_COPY_OVERLAP;
  auto run = [sm = Ref(src), dm = Ref(dst), r, s, d] {
    copyBox(dm->data, d, sm->data, s, r);
    markContentsWritten(dm.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list,
                 event_wait_list, event, run);
}

}  // namespace spvsim::rt
