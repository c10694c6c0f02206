// The device's image support as clGetDeviceInfo reports it: the limits clCreateImage
// enforces (runtime/image.h), at least the OpenCL 3.0 full profile's minimums.
#include "runtime/image.h"

namespace spvsim::rt {

cl_int imageInfo(cl_device_info param, const InfoReply& r, bool& known) {
  using L = ImageLimits;
  switch (param) {
    case CL_DEVICE_IMAGE_SUPPORT:
      return r.boolean(true);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
      return r.scalar(L::kReadArgs);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
      return r.scalar(L::kWriteArgs);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
      return r.scalar(L::kReadWriteArgs);
    case CL_DEVICE_MAX_SAMPLERS:
      return r.scalar(L::kSamplers);
    // Both are about 2-D images created from buffers (cl_khr_image2d_from_buffer), which
    // this device does not support: the spec requires 0 then.
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
      return r.scalar(cl_uint{0});
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
      return r.scalar(L::k2dMax);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
      return r.scalar(L::k3dMax);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
      return r.scalar(L::kBufferMax);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
      return r.scalar(L::kArrayMax);
  }
  known = false;
  return CL_INVALID_VALUE;
}

}  // namespace spvsim::rt
