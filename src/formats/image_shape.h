// The text of an image's shape, shared by every input that names one: the command line's
// image2d:ORDER,TYPE[W,H]=INIT (tools/cli/image_arg.h), .sim files' <image2d ORDER,TYPE[W,H]>
// and capture bundles' `shape=image2d:ORDER,TYPE[W,H]` (runtime/capture.cc writes it,
// bundle_manifest.h reads it); and the packed pixels those inputs hold (rows, then
// slices, no padding: the layout of the command line's buffers and of a bundle's image
// files).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/exec/image.h"

namespace spvsim::formats {

// The largest buffer or image an input may name (the command line's kMaxBufferBytes).
inline constexpr uint64_t kMaxInputBytes = uint64_t{1} << 32;

// Whether `head` names an image type: image1d, image1d_buffer, image1d_array, image2d,
// image2d_array, image3d.
bool isImageHead(std::string_view head);

// The image `head` names with the format and extents of `shape` ("RGBA,UNORM_INT8[4,2]"):
// type, format, extents and tight pitches set, no pixels. Throws
// Error(DiagnosticKind::InvalidArgument) naming what is wrong, also for an image larger
// than kMaxInputBytes.
ImageDesc parseImageShape(std::string_view head, std::string_view shape);

// "image2d RGBA,UNORM_INT8[4,2]" (`separator` ' ', as dumps and .sim headers print it) or
// "image2d:RGBA,UNORM_INT8[4,2]" (':', a bundle's shape=).
std::string imageShapeText(const ImageDesc& d, char separator);

// The bytes of the image's pixels packed tightly.
uint64_t packedImageBytes(const ImageDesc& d);

// The pixels of `d.data` (rows `rowPitch` apart, slices `slicePitch` apart) packed tightly.
std::vector<uint8_t> packedPixels(const ImageDesc& d);

}  // namespace spvsim::formats
