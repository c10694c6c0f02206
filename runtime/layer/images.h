// Images as the layer reads them back and compares them: pixels packed tightly (rows,
// then slices or array layers), as clEnqueueReadImage gives them with zero pitches.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <string>

#include "runtime/layer/compare.h"

namespace spvsim::layer {

// Bytes of one pixel of `format` (0 for an order or type the layer does not know).
uint32_t pixelBytes(const cl_image_format& format);

// The region clEnqueueReadImage covers for the whole image (width, height or layers,
// depth or layers).
std::array<size_t, 3> wholeRegion(const cl_image_desc& desc);

// Bytes of all its pixels, packed.
size_t packedBytes(const cl_image_format& format, const cl_image_desc& desc);

// Why the layer does not shadow launches with this image ("" when it does): images over
// buffers (1-D buffer images, 2-D images from buffers) and mipmapped ones.
std::string unshadowedImage(const cl_image_format& format, const cl_image_desc& desc);

// The element a pixel is compared as: one component per channel of the channel type
// (normalized types as their integers), bytes for packed types (565, 555, 101010).
ElementType pixelElement(const cl_image_format& format);

}  // namespace spvsim::layer
