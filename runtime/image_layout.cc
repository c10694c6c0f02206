// What image commands share: valid format descriptors and their pixel sizes (the pixel
// codec's one table, src/exec/image_format.h), image coordinates as the API counts them,
// and box copies between pitched layouts.
#include <cstring>

#include "runtime/core_api.h"
#include "runtime/image.h"
#include "runtime/queue.h"
#include "src/exec/image_format.h"

namespace spvsim::rt {

std::optional<size_t> pixelBytes(const cl_image_format& f) {
  return imagefmt::elementSize({f.image_channel_order, f.image_channel_data_type});
}

cl_int checkImageCommand(cl_command_queue queue, cl_mem image) {
  _cl_command_queue* q = validQueue(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  _cl_mem* m = validImage(image);
  if (!m) return CL_INVALID_MEM_OBJECT;
  return m->context == q->context ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

std::array<size_t, 3> imageExtent(const ImageDesc& d) {
  switch (d.type) {
    case ImageType::Image1DArray:
      return {d.width, d.arraySize, 1};
    case ImageType::Image2DArray:
      return {d.width, d.height, d.arraySize};
    case ImageType::Image3D:
      return {d.width, d.height, d.depth};
    default:
      return {d.width, d.height, 1};
  }
}

std::array<size_t, 2> apiPitches(const ImageDesc& d) {
  // A 1-D array's layers are its slices, each one row.
  if (d.type == ImageType::Image1DArray) return {d.slicePitch, d.slicePitch};
  return {d.rowPitch, d.slicePitch};
}

size_t pixelOffset(const ImageDesc& d, const size_t* origin) {
  const auto pitch = apiPitches(d);
  return origin[0] * *pixelBytes({d.format.order, d.format.type}) + origin[1] * pitch[0] +
         origin[2] * pitch[1];
}

cl_int checkImageBox(const ImageDesc& d, const size_t* origin, const size_t* region) {
  if (!origin || !region) return CL_INVALID_VALUE;
  const auto extent = imageExtent(d);
  for (int i = 0; i < 3; ++i) {
    if (region[i] == 0 || origin[i] > extent[i] || region[i] > extent[i] - origin[i])
      return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

void copyPixels(uint8_t* dst, std::array<size_t, 2> dstPitch, const uint8_t* src,
                std::array<size_t, 2> srcPitch, const size_t* byteRegion) {
  for (size_t z = 0; z < byteRegion[2]; ++z)
    for (size_t y = 0; y < byteRegion[1]; ++y)
      std::memmove(dst + z * dstPitch[1] + y * dstPitch[0], src + z * srcPitch[1] + y * srcPitch[0],
                   byteRegion[0]);
}

bool hostMayRead(const _cl_mem* m) {
  return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
bool hostMayWrite(const _cl_mem* m) {
  return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

}  // namespace spvsim::rt
