// The formats the device supports (the executor's pixel codec decides) and fill colours
// encoded by the same codec as a kernel's write_image*.
#include <array>
#include <cstring>

#include "runtime/image.h"
#include "runtime/knobs.h"
#include "src/exec/image_format.h"

namespace spvsim::rt {

namespace {

// The x orders (CL_Rx, CL_RGx, CL_RGBx, CL_sRGBx) are optional formats whose border colour
// the two authorities disagree on: the OpenCL C spec ("Determining the Border Color or
// Value") makes it (0, 0, 0, 0), which the executor returns; the conformance suite's
// reference (test_image_streams, its has_alpha()) expects alpha 1. A reference cannot pass
// both, so the device reports them only when asked (SPVSIM_IMAGE_FORMATS=all), as PoCL
// leaves them out in its conformance mode; the command line always takes them.
bool xChannelOrder(cl_channel_order o) {
  return o == CL_Rx || o == CL_RGx || o == CL_RGBx || o == CL_sRGBx;
}

}  // namespace

std::vector<cl_image_format> supportedFormats(cl_mem_flags, cl_mem_object_type) {
  // Every supported format works for every image type and kernel access.
  const bool withX = knobs().xChannelOrders;
  std::vector<cl_image_format> out;
  for (const ImageFormat& f : imagefmt::supportedFormats())
    if (withX || !xChannelOrder(f.order)) out.push_back({f.order, f.type});
  return out;
}

void encodeFillColor(const ImageFormat& f, const void* color, uint8_t* pixel) {
  switch (imagefmt::kindOf(f.type)) {
    case imagefmt::Kind::Float: {
      std::array<float, 4> v;
      std::memcpy(v.data(), color, sizeof v);
      return imagefmt::encodeFloat(f, v, pixel);
    }
    case imagefmt::Kind::SignedInt: {
      std::array<int32_t, 4> v;
      std::memcpy(v.data(), color, sizeof v);
      return imagefmt::encodeInt(f, v, pixel);
    }
    case imagefmt::Kind::UnsignedInt: {
      std::array<uint32_t, 4> v;
      std::memcpy(v.data(), color, sizeof v);
      return imagefmt::encodeUint(f, v, pixel);
    }
  }
}

}  // namespace spvsim::rt
