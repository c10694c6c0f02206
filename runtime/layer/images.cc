#include "runtime/layer/images.h"

#include "src/exec/image_format.h"

namespace spvsim::layer {

uint32_t pixelBytes(const cl_image_format& f) {
  // The ICD's own element sizes (CL_IMAGE_ELEMENT_SIZE), for every valid descriptor.
  return imagefmt::elementSize({f.image_channel_order, f.image_channel_data_type}).value_or(0);
}

std::array<size_t, 3> wholeRegion(const cl_image_desc& d) {
  switch (d.image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      return {d.image_width, 1, 1};
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return {d.image_width, d.image_array_size, 1};
    case CL_MEM_OBJECT_IMAGE2D:
      return {d.image_width, d.image_height, 1};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return {d.image_width, d.image_height, d.image_array_size};
    default:  // CL_MEM_OBJECT_IMAGE3D
      return {d.image_width, d.image_height, d.image_depth};
  }
}

size_t packedBytes(const cl_image_format& f, const cl_image_desc& d) {
  const std::array<size_t, 3> r = wholeRegion(d);
  return r[0] * r[1] * r[2] * pixelBytes(f);
}

std::string unshadowedImage(const cl_image_format& f, const cl_image_desc& d) {
  if (d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || d.mem_object)
    return "images over buffers are not shadowed yet";
  if (d.num_mip_levels > 1) return "mipmapped images are not shadowed yet";
  if (pixelBytes(f) == 0) return "an image of a format the layer does not know";
  return "";
}

ElementType pixelElement(const cl_image_format& f) {
  const uint32_t n = imagefmt::channelCount(f.image_channel_order);
  switch (f.image_channel_data_type) {
    case CL_FLOAT:
      return {ElementType::Scalar::Float, 4, n, "float pixel"};
    case CL_HALF_FLOAT:
      return {ElementType::Scalar::Float, 2, n, "half pixel"};
    case CL_SIGNED_INT8:
      return {ElementType::Scalar::Signed, 1, n, "char pixel"};
    case CL_SNORM_INT8:
      return {ElementType::Scalar::Signed, 1, n, "snorm8 pixel", true};
    case CL_UNSIGNED_INT8:
      return {ElementType::Scalar::Unsigned, 1, n, "uchar pixel"};
    case CL_UNORM_INT8:
      return {ElementType::Scalar::Unsigned, 1, n, "unorm8 pixel", true};
    case CL_SIGNED_INT16:
      return {ElementType::Scalar::Signed, 2, n, "short pixel"};
    case CL_SNORM_INT16:
      return {ElementType::Scalar::Signed, 2, n, "snorm16 pixel", true};
    case CL_UNSIGNED_INT16:
      return {ElementType::Scalar::Unsigned, 2, n, "ushort pixel"};
    case CL_UNORM_INT16:
      return {ElementType::Scalar::Unsigned, 2, n, "unorm16 pixel", true};
    case CL_SIGNED_INT32:
      return {ElementType::Scalar::Signed, 4, n, "int pixel"};
    case CL_UNSIGNED_INT32:
      return {ElementType::Scalar::Unsigned, 4, n, "uint pixel"};
    default:
      return {ElementType::Scalar::Bytes, 1, 1, "bytes"};
  }
}

}  // namespace spvsim::layer
