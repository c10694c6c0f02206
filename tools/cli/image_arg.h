// Image and sampler arguments of the command line and .sim files (src/DESIGN.md,
// "Command line"): image2d:ORDER,TYPE[W,H]=INIT and the other image types,
// sampler:NORMALIZED|UNNORMALIZED,ADDRESSING,FILTER, and how --dump prints an image.
#pragma once

#include <string_view>

#include "tools/cli/arg_value.h"

namespace spvsim::tools {

// Whether `head` (the text before ':') names an image type: image1d, image1d_buffer,
// image1d_array, image2d, image2d_array, image3d.
bool isImageHead(std::string_view head);

// The image `head` names with the format and extents of `shape` ("RGBA,UNORM_INT8[4,2]"),
// pixels zeroed: `type` is one stored channel value's type (normalized channels as their
// stored integers, packed formats one value per pixel), `count` the values. Throws
// Error(DiagnosticKind::InvalidArgument) naming what is wrong.
ArgValue parseImageShape(std::string_view head, std::string_view shape);

// sampler:NORMALIZED|UNNORMALIZED,NONE|CLAMP|CLAMP_TO_EDGE|REPEAT|MIRRORED_REPEAT,NEAREST|LINEAR
// (the body after "sampler:"; case-insensitive).
ArgValue parseSampler(std::string_view body);

// "image2d RGBA,UNORM_INT8[4,2]", as dumps print it.
std::string imageHeader(const ArgValue& image);

}  // namespace spvsim::tools
