// Read, write, copy and fill commands on images, and copies between images and buffers.
// Each command keeps its memory objects alive (Ref) until it has run on the queue's
// worker; pixels are copied row by row between the image's pitched storage and the
// other side's layout.
#include <vector>

#include "runtime/core_api.h"
#include "runtime/image.h"
#include "runtime/mem.h"
#include "runtime/ref.h"

namespace spvsim::rt {
namespace {

using Pitches = std::array<size_t, 2>;

size_t pixelOf(const _cl_mem* m) {
  return *pixelBytes({m->image.format.order, m->image.format.type});
}

bool isPlain(const ImageDesc& d) {
  return d.type == ImageType::Image1D || d.type == ImageType::Image1DBuffer ||
         d.type == ImageType::Image2D;
}

// The host memory's layout for a read or write: row and slice pitches in the API's
// coordinates (0: tightly packed), CL_INVALID_VALUE where the spec says so.
cl_int hostLayout(const ImageDesc& d, const size_t* region, size_t pixel, size_t row, size_t slice,
                  Pitches& out) {
  if (isPlain(d) && slice) return CL_INVALID_VALUE;
  if (d.type == ImageType::Image1DArray) {
    // Layers are one row each: the slice pitch steps them.
    if (row == 0) row = region[0] * pixel;
    if (row < region[0] * pixel) return CL_INVALID_VALUE;
    if (slice == 0) slice = row;
    if (slice < row) return CL_INVALID_VALUE;
    out = {slice, slice};
    return CL_SUCCESS;
  }
  if (row == 0) row = region[0] * pixel;
  if (row < region[0] * pixel) return CL_INVALID_VALUE;
  if (slice == 0) slice = row * region[1];
  if (slice < row * region[1]) return CL_INVALID_VALUE;
  out = {row, slice};
  return CL_SUCCESS;
}

// The checks of a read or write; fills the host layout and the byte region.
cl_int checkHostTransfer(cl_command_queue queue, cl_mem image, const size_t* origin,
                         const size_t* region, size_t row, size_t slice, const void* ptr,
                         Pitches& host, std::array<size_t, 3>& bytes) {
  if (cl_int err = checkImageCommand(queue, image)) return err;
  const _cl_mem* m = validImage(image);
  if (cl_int err = checkImageBox(m->image, origin, region)) return err;
  if (!ptr) return CL_INVALID_VALUE;
  if (cl_int err = hostLayout(m->image, region, pixelOf(m), row, slice, host)) return err;
  bytes = {region[0] * pixelOf(m), region[1], region[2]};
  return CL_SUCCESS;
}

// Whether two boxes of one image share a pixel.
bool boxesOverlap(const size_t* a, const size_t* b, const size_t* region) {
  for (int i = 0; i < 3; ++i)
    if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i]) return false;
  return true;
}

// Bytes a tightly packed box of `region` pixels takes.
size_t packedBytes(const size_t* region, size_t pixel) {
  return region[0] * pixel * region[1] * region[2];
}

cl_int checkBufferSide(cl_command_queue queue, cl_mem buffer, size_t offset, size_t bytes) {
  if (cl_int err = checkBufferCommand(queue, buffer)) return err;
  return inBounds(offset, bytes, validBuffer(buffer)->size) ? CL_SUCCESS : CL_INVALID_VALUE;
}

}  // namespace

cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                          const size_t* origin, const size_t* region, size_t row_pitch,
                          size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                          const cl_event* event_wait_list, cl_event* event) {
  Pitches host;
  std::array<size_t, 3> bytes;
  if (cl_int err = checkHostTransfer(command_queue, image, origin, region, row_pitch, slice_pitch,
                                     ptr, host, bytes))
    return err;
  _cl_mem* m = validImage(image);
  if (!hostMayRead(m)) return CL_INVALID_OPERATION;
  const size_t offset = pixelOffset(m->image, origin);
  auto run = [m = Ref(m), host, bytes, offset, ptr] {
    copyPixels(static_cast<uint8_t*>(ptr), host, m->data + offset, apiPitches(m->image),
               bytes.data());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_READ_IMAGE, num_events_in_wait_list, event_wait_list,
                 event, run, blocking_read);
}

cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                           const size_t* origin, const size_t* region, size_t input_row_pitch,
                           size_t input_slice_pitch, const void* ptr,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event) {
  Pitches host;
  std::array<size_t, 3> bytes;
  if (cl_int err = checkHostTransfer(command_queue, image, origin, region, input_row_pitch,
                                     input_slice_pitch, ptr, host, bytes))
    return err;
  _cl_mem* m = validImage(image);
  if (!hostMayWrite(m)) return CL_INVALID_OPERATION;
  const size_t offset = pixelOffset(m->image, origin);
  auto run = [m = Ref(m), host, bytes, offset, ptr] {
    copyPixels(m->data + offset, apiPitches(m->image), static_cast<const uint8_t*>(ptr), host,
               bytes.data());
    markContentsWritten(m.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_WRITE_IMAGE, num_events_in_wait_list, event_wait_list,
                 event, run, blocking_write);
}

cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                          const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                          cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                          cl_event* event) {
  if (cl_int err = checkImageCommand(command_queue, src_image)) return err;
  if (cl_int err = checkImageCommand(command_queue, dst_image)) return err;
  _cl_mem* src = validImage(src_image);
  _cl_mem* dst = validImage(dst_image);
  if (!(src->image.format == dst->image.format)) return CL_IMAGE_FORMAT_MISMATCH;
  if (cl_int err = checkImageBox(src->image, src_origin, region)) return err;
  if (cl_int err = checkImageBox(dst->image, dst_origin, region)) return err;
  if (src == dst && boxesOverlap(src_origin, dst_origin, region)) return CL_MEM_COPY_OVERLAP;
  const size_t from = pixelOffset(src->image, src_origin), to = pixelOffset(dst->image, dst_origin);
  const std::array<size_t, 3> bytes = {region[0] * pixelOf(src), region[1], region[2]};
  auto run = [s = Ref(src), d = Ref(dst), from, to, bytes] {
    copyPixels(d->data + to, apiPitches(d->image), s->data + from, apiPitches(s->image),
               bytes.data());
    markContentsWritten(d.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_COPY_IMAGE, num_events_in_wait_list, event_wait_list,
                 event, run);
}

cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                          const size_t* origin, const size_t* region,
                          cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                          cl_event* event) {
  if (cl_int err = checkImageCommand(command_queue, image)) return err;
  _cl_mem* m = validImage(image);
  if (!fill_color) return CL_INVALID_VALUE;
  if (cl_int err = checkImageBox(m->image, origin, region)) return err;
  const size_t pixel = pixelOf(m);
  // One row of the colour, encoded now: the application may reuse fill_color at once.
  std::vector<uint8_t> row(region[0] * pixel);
  encodeFillColor(m->image.format, fill_color, row.data());
  for (size_t x = 1; x < region[0]; ++x) std::copy_n(row.data(), pixel, row.data() + x * pixel);
  const size_t offset = pixelOffset(m->image, origin);
  const std::array<size_t, 3> bytes = {row.size(), region[1], region[2]};
  auto run = [m = Ref(m), row, offset, bytes] {
    copyPixels(m->data + offset, apiPitches(m->image), row.data(), {0, 0}, bytes.data());
    markContentsWritten(m.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_FILL_IMAGE, num_events_in_wait_list, event_wait_list,
                 event, run);
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                  cl_mem dst_buffer, const size_t* src_origin, const size_t* region,
                                  size_t dst_offset, cl_uint num_events_in_wait_list,
                                  const cl_event* event_wait_list, cl_event* event) {
  if (cl_int err = checkImageCommand(command_queue, src_image)) return err;
  _cl_mem* src = validImage(src_image);
  if (cl_int err = checkImageBox(src->image, src_origin, region)) return err;
  const size_t pixel = pixelOf(src);
  if (cl_int err =
          checkBufferSide(command_queue, dst_buffer, dst_offset, packedBytes(region, pixel)))
    return err;
  _cl_mem* dst = validBuffer(dst_buffer);
  const size_t from = pixelOffset(src->image, src_origin);
  const std::array<size_t, 3> bytes = {region[0] * pixel, region[1], region[2]};
  auto run = [s = Ref(src), d = Ref(dst), from, dst_offset, bytes] {
    copyPixels(d->data + dst_offset, {bytes[0], bytes[0] * bytes[1]}, s->data + from,
               apiPitches(s->image), bytes.data());
    markContentsWritten(d.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_COPY_IMAGE_TO_BUFFER, num_events_in_wait_list,
                 event_wait_list, event, run);
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                  cl_mem dst_image, size_t src_offset, const size_t* dst_origin,
                                  const size_t* region, cl_uint num_events_in_wait_list,
                                  const cl_event* event_wait_list, cl_event* event) {
  if (cl_int err = checkImageCommand(command_queue, dst_image)) return err;
  _cl_mem* dst = validImage(dst_image);
  if (cl_int err = checkImageBox(dst->image, dst_origin, region)) return err;
  const size_t pixel = pixelOf(dst);
  if (cl_int err =
          checkBufferSide(command_queue, src_buffer, src_offset, packedBytes(region, pixel)))
    return err;
  _cl_mem* src = validBuffer(src_buffer);
  const size_t to = pixelOffset(dst->image, dst_origin);
  const std::array<size_t, 3> bytes = {region[0] * pixel, region[1], region[2]};
  auto run = [s = Ref(src), d = Ref(dst), src_offset, to, bytes] {
    copyPixels(d->data + to, apiPitches(d->image), s->data + src_offset,
               {bytes[0], bytes[0] * bytes[1]}, bytes.data());
    markContentsWritten(d.get());
    return CL_COMPLETE;
  };
  return enqueue(command_queue, CL_COMMAND_COPY_BUFFER_TO_IMAGE, num_events_in_wait_list,
                 event_wait_list, event, run);
}

}  // namespace spvsim::rt
