// The formats the device supports (the executor's pixel codec decides) and fill colours
// encoded by the same codec as a kernel's write_image*.
#include <array>
#include <cstring>

#include "runtime/image.h"
#include "src/exec/image_format.h"

namespace spvsim::rt {

std::vector<cl_image_format> supportedFormats(cl_mem_flags, cl_mem_object_type) {
  // Every supported format works for every image type and kernel access.
  std::vector<cl_image_format> out;
  for (const ImageFormat& f : imagefmt::supportedFormats()) out.push_back({f.order, f.type});
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
