// Image objects as the runtime's image files use them: a _cl_mem whose `image` holds
// the shape, format, pitches and storage that kernels see (src/exec/image.h).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "runtime/info_reply.h"
#include "runtime/interfaces.h"
#include "src/exec/image.h"

namespace spvsim::rt {

// The device's image limits (CL_DEVICE_IMAGE*), checked by clCreateImage.
struct ImageLimits {
  static constexpr size_t k2dMax = 16384;         // IMAGE2D_MAX_WIDTH/HEIGHT
  static constexpr size_t k3dMax = 2048;          // IMAGE3D_MAX_WIDTH/HEIGHT/DEPTH
  static constexpr size_t kArrayMax = 2048;       // IMAGE_MAX_ARRAY_SIZE
  static constexpr size_t kBufferMax = 1u << 27;  // IMAGE_MAX_BUFFER_SIZE, pixels
  static constexpr cl_uint kReadArgs = 128;       // MAX_READ_IMAGE_ARGS
  static constexpr cl_uint kWriteArgs = 64;       // MAX_WRITE_IMAGE_ARGS
  static constexpr cl_uint kReadWriteArgs = 64;   // MAX_READ_WRITE_IMAGE_ARGS
  static constexpr cl_uint kSamplers = 16;        // MAX_SAMPLERS
};

// clGetDeviceInfo's image answers (CL_DEVICE_IMAGE_SUPPORT and the limits above);
// `known` false for other parameters.
cl_int imageInfo(cl_device_info param, const InfoReply& r, bool& known);

// Bytes of one pixel of a valid format (the spec's channel order and type tables), or
// nothing when the pair is not a valid image format descriptor.
std::optional<size_t> pixelBytes(const cl_image_format& f);

// The formats clGetSupportedImageFormats lists for these flags and image type.
std::vector<cl_image_format> supportedFormats(cl_mem_flags flags, cl_mem_object_type type);

// Encodes clEnqueueFillImage's colour (float4, int4 or uint4 by the channel type) into
// one pixel, as write_imagef/i/ui would store it.
void encodeFillColor(const ImageFormat& f, const void* color, uint8_t* pixel);

// The handle as a live image, else nullptr.
_cl_mem* validImage(cl_mem mem);

// The checks every image command starts with: CL_INVALID_COMMAND_QUEUE,
// CL_INVALID_MEM_OBJECT (not an image), CL_INVALID_CONTEXT.
cl_int checkImageCommand(cl_command_queue queue, cl_mem image);

// An image's extent along the API's three origin/region coordinates: (width, height or
// array size for 1-D arrays, depth or array size for 2-D arrays); 1 where unused.
std::array<size_t, 3> imageExtent(const ImageDesc& d);

// Byte offset of pixel `origin` (API coordinates) and the pitches that step the API's
// second and third coordinates.
size_t pixelOffset(const ImageDesc& d, const size_t* origin);
std::array<size_t, 2> apiPitches(const ImageDesc& d);

// CL_INVALID_VALUE unless origin and region are given, region has no zero extent,
// the box lies inside the image, and unused coordinates are 0 (origin) and 1 (region).
cl_int checkImageBox(const ImageDesc& d, const size_t* origin, const size_t* region);

// Copies a box of `region` pixels (region[0] in bytes already) between two layouts
// given by base pointers and (row, slice) pitches.
void copyPixels(uint8_t* dst, std::array<size_t, 2> dstPitch, const uint8_t* src,
                std::array<size_t, 2> srcPitch, const size_t* byteRegion);

bool hostMayRead(const _cl_mem* m);
bool hostMayWrite(const _cl_mem* m);

}  // namespace spvsim::rt
