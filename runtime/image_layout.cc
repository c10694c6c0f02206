// What image commands share: valid format descriptors and their pixel sizes (the API
// spec's channel order and channel type tables), image coordinates as the API counts
// them, and box copies between pitched layouts.
#include <cstring>

#include "runtime/core_api.h"
#include "runtime/image.h"
#include "runtime/queue.h"

namespace spvsim::rt {
namespace {

bool isPacked(cl_channel_type t) {
  return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010 ||
         t == CL_UNORM_INT_101010_2;
}

// Bytes of one channel (packed types: of the whole pixel), 0 for an unknown type.
size_t typeBytes(cl_channel_type t) {
  switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555:
      return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
    case CL_UNORM_INT_101010:
    case CL_UNORM_INT_101010_2:
      return 4;
    default:
      return 0;
  }
}

size_t channelCount(cl_channel_order o) {
  switch (o) {
    case CL_R:
    case CL_A:
    case CL_INTENSITY:
    case CL_LUMINANCE:
    case CL_DEPTH:
      return 1;
    case CL_RG:
    case CL_RA:
    case CL_Rx:
      return 2;
    case CL_RGB:
    case CL_RGx:
    case CL_sRGB:
      return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
    case CL_RGBx:
    case CL_sRGBA:
    case CL_sBGRA:
    case CL_sRGBx:
      return 4;
    default:
      return 0;
  }
}

// The spec's restrictions of orders to channel types.
bool validPair(cl_channel_order o, cl_channel_type t) {
  switch (o) {
    case CL_INTENSITY:
    case CL_LUMINANCE:
      return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 ||
             t == CL_SNORM_INT16 || t == CL_HALF_FLOAT || t == CL_FLOAT;
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
      return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 ||
             t == CL_UNSIGNED_INT8;
    case CL_RGB:
    case CL_RGBx:
      return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
    case CL_sRGB:
    case CL_sRGBA:
    case CL_sBGRA:
    case CL_sRGBx:
      return t == CL_UNORM_INT8;
    case CL_DEPTH:
      return t == CL_UNORM_INT16 || t == CL_FLOAT;
    case CL_RGBA:
      return !isPacked(t) || t == CL_UNORM_INT_101010_2;
    default:
      return !isPacked(t);
  }
}

}  // namespace

std::optional<size_t> pixelBytes(const cl_image_format& f) {
  const size_t channels = channelCount(f.image_channel_order);
  const size_t bytes = typeBytes(f.image_channel_data_type);
  if (!channels || !bytes || !validPair(f.image_channel_order, f.image_channel_data_type))
    return std::nullopt;
  return isPacked(f.image_channel_data_type) ? bytes : channels * bytes;
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
