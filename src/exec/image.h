// Images and samplers as a launch sees them. The front ends build them: the ICD from
// cl_mem images and cl_sampler objects, the CLI and .sim files from image2d:... and
// sampler:... arguments (README.md). Channel orders, channel types, addressing and filter
// modes carry the OpenCL API's enumerant values (CL_RGBA = 0x10B5, CL_UNORM_INT8 = 0x10D2,
// CL_ADDRESS_CLAMP = 0x1132, CL_FILTER_LINEAR = 0x1141), so the ICD passes them through
// unchanged. See src/DESIGN.md, "Images and samplers".
#pragma once

#include <cstdint>

namespace spvsim {

enum class ImageType : uint8_t {
  Image1D,
  Image1DBuffer,
  Image1DArray,
  Image2D,
  Image2DArray,
  Image3D
};

// The OpenCL C type an image of this shape fits ("image2d_t"); depth images take the
// same shapes (image2d_depth_t: a 2-D image of CL_DEPTH).
inline const char* imageTypeName(ImageType t) {
  switch (t) {
    case ImageType::Image1D:
      return "image1d_t";
    case ImageType::Image1DBuffer:
      return "image1d_buffer_t";
    case ImageType::Image1DArray:
      return "image1d_array_t";
    case ImageType::Image2D:
      return "image2d_t";
    case ImageType::Image2DArray:
      return "image2d_array_t";
    case ImageType::Image3D:
      return "image3d_t";
  }
  return "image";
}

struct ImageFormat {
  uint32_t order = 0;  // cl_channel_order
  uint32_t type = 0;   // cl_channel_type
  friend bool operator==(const ImageFormat&, const ImageFormat&) = default;
};

// One image's storage and shape. Pixels are stored as the OpenCL API lays them out:
// rows of width pixels rowPitch bytes apart, slices (2-D array layers, 3-D depth
// planes, 1-D array rows) slicePitch bytes apart.
struct ImageDesc {
  ImageType type = ImageType::Image2D;
  ImageFormat format;
  uint64_t width = 1;
  uint64_t height = 1;      // 1 for 1-D types
  uint64_t depth = 1;       // 3-D only
  uint64_t arraySize = 1;   // array types only
  uint64_t rowPitch = 0;    // bytes
  uint64_t slicePitch = 0;  // bytes (1-D arrays: the row pitch)
  uint8_t* data = nullptr;  // owned by the front end; outlives the launch
  uint64_t bytes = 0;       // of data
};

// A sampler's state (OpenCL C's sampler_t; an OpConstantSampler or a sampler argument).
struct SamplerDesc {
  bool normalizedCoords = false;
  uint32_t addressing = 0x1130;  // cl_addressing_mode: CL_ADDRESS_NONE
  uint32_t filter = 0x1140;      // cl_filter_mode: CL_FILTER_NEAREST
  friend bool operator==(const SamplerDesc&, const SamplerDesc&) = default;
};

}  // namespace spvsim
