// Mapping images into host memory: as for buffers (runtime/map.cc) the map returns the
// image's own pixels with its row and slice pitches and copies nothing;
// clEnqueueUnmapMemObject ends it.
#include <algorithm>

#include "runtime/core_api.h"
#include "runtime/image.h"
#include "runtime/mem.h"
#include "runtime/ref.h"

namespace spvsim::rt {
namespace {

bool needsSlicePitch(const ImageDesc& d) {
  return d.type == ImageType::Image3D || d.type == ImageType::Image1DArray ||
         d.type == ImageType::Image2DArray;
}

cl_int checkMap(cl_command_queue queue, cl_mem image, cl_map_flags flags, const size_t* origin,
                const size_t* region, size_t* rowPitch, size_t* slicePitch) {
  if (cl_int err = checkImageCommand(queue, image)) return err;
  const _cl_mem* m = validImage(image);
  if (cl_int err = checkMapFlags(flags)) return err;
  if (cl_int err = checkImageBox(m->image, origin, region)) return err;
  if (!rowPitch || (needsSlicePitch(m->image) && !slicePitch)) return CL_INVALID_VALUE;
  return hostMayMap(m, flags) ? CL_SUCCESS : CL_INVALID_OPERATION;
}

}  // namespace

void* clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                        cl_map_flags map_flags, const size_t* origin, const size_t* region,
                        size_t* image_row_pitch, size_t* image_slice_pitch,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                        cl_event* event, cl_int* errcode_ret) {
  if (cl_int err = checkMap(command_queue, image, map_flags, origin, region, image_row_pitch,
                            image_slice_pitch))
    return withError<void*>(errcode_ret, err, nullptr);
  _cl_mem* m = validImage(image);
  void* ptr = m->data + pixelOffset(m->image, origin);
  *image_row_pitch = m->image.rowPitch;
  if (image_slice_pitch) *image_slice_pitch = needsSlicePitch(m->image) ? m->image.slicePitch : 0;
  {
    std::lock_guard lock(m->mutex);
    m->mappings.push_back(ptr);
    if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) markContentsWritten(m);
  }
  cl_int err = enqueue(
      command_queue, CL_COMMAND_MAP_IMAGE, num_events_in_wait_list, event_wait_list, event,
      [i = Ref(m)] { return CL_COMPLETE; }, blocking_map);
  if (err != CL_SUCCESS) {
    forgetMapping(m, ptr);
    return withError<void*>(errcode_ret, err, nullptr);
  }
  return withError(errcode_ret, CL_SUCCESS, ptr);
}

}  // namespace spvsim::rt
