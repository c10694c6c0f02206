#include "src/formats/image_shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "spirv/error.h"
#include "src/exec/image_format.h"
#include "src/values/text_util.h"

namespace spvsim::formats {
namespace {

using values::parseUnsigned;
using values::split;
using values::trim;

[[noreturn]] void fail(const std::string& message) {
  throw Error(DiagnosticKind::InvalidArgument, message);
}

struct ImageKind {
  const char* name;
  ImageType type;
  const char* extents;  // how the [..] list reads, for messages
};

constexpr std::array<ImageKind, 6> kKinds = {{
    {"image1d", ImageType::Image1D, "W"},
    {"image1d_buffer", ImageType::Image1DBuffer, "W"},
    {"image1d_array", ImageType::Image1DArray, "W,N"},
    {"image2d", ImageType::Image2D, "W,H"},
    {"image2d_array", ImageType::Image2DArray, "W,H,N"},
    {"image3d", ImageType::Image3D, "W,H,D"},
}};

const ImageKind* findKind(std::string_view head) {
  for (const ImageKind& k : kKinds)
    if (head == k.name) return &k;
  return nullptr;
}

const ImageKind& kindOf(ImageType t) {
  for (const ImageKind& k : kKinds)
    if (k.type == t) return k;
  return kKinds[3];
}

ImageFormat parseFormat(std::string_view text) {
  const auto parts = split(text, ',');
  if (parts.size() != 2)
    fail(fmt::format("expected ORDER,TYPE such as RGBA,UNORM_INT8, not '{}'", text));
  const auto order = imagefmt::parseOrder(trim(parts[0]));
  if (!order)
    fail(
        fmt::format("unknown channel order '{}' (R, A, RG, RA, RGB, RGBA, BGRA, ARGB, ABGR, "
                    "INTENSITY, LUMINANCE, sRGBA, ...)",
                    trim(parts[0])));
  const auto type = imagefmt::parseType(trim(parts[1]));
  if (!type)
    fail(
        fmt::format("unknown channel type '{}' (UNORM_INT8, SNORM_INT16, SIGNED_INT32, "
                    "UNSIGNED_INT8, HALF_FLOAT, FLOAT, ...)",
                    trim(parts[1])));
  const ImageFormat f{*order, *type};
  if (!imagefmt::isSupported(f))
    fail(
        fmt::format("image format {} is not supported (the OpenCL spec does not allow the pair, "
                    "or spvsim does not implement it)",
                    imagefmt::formatName(f)));
  return f;
}

// The extents between '[' and ']', as many as the image type takes, each positive.
std::vector<uint64_t> parseExtents(const ImageKind& kind, std::string_view text) {
  const auto parts = split(text, ',');
  const size_t want = std::count(kind.extents, kind.extents + std::strlen(kind.extents), ',') + 1;
  if (parts.size() != want)
    fail(fmt::format("{} takes [{}], not [{}]", kind.name, kind.extents, text));
  std::vector<uint64_t> out;
  for (std::string_view p : parts) {
    uint64_t n = 0;
    if (!parseUnsigned(trim(p), n) || n == 0)
      fail(fmt::format("image extent '{}' is not a positive number", trim(p)));
    out.push_back(n);
  }
  return out;
}

void setExtents(ImageDesc& d, const std::vector<uint64_t>& e) {
  d.width = e[0];
  switch (d.type) {
    case ImageType::Image1DArray:
      d.arraySize = e[1];
      break;
    case ImageType::Image2D:
      d.height = e[1];
      break;
    case ImageType::Image2DArray:
      d.height = e[1];
      d.arraySize = e[2];
      break;
    case ImageType::Image3D:
      d.height = e[1];
      d.depth = e[2];
      break;
    default:
      break;
  }
}

// Slices: 3-D depth planes, array layers (1-D arrays: rows); 1 otherwise.
uint64_t sliceCount(const ImageDesc& d) {
  return d.type == ImageType::Image3D                                             ? d.depth
         : d.type == ImageType::Image2DArray || d.type == ImageType::Image1DArray ? d.arraySize
                                                                                  : 1;
}

}  // namespace

bool isImageHead(std::string_view head) { return findKind(head) != nullptr; }

ImageDesc parseImageShape(std::string_view head, std::string_view shape) {
  const ImageKind* kind = findKind(head);
  if (!kind) fail(fmt::format("unknown image type '{}'", head));
  const size_t open = shape.find('['), close = shape.find(']');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    fail(fmt::format("expected {}:ORDER,TYPE[{}]=INIT, e.g. {}:RGBA,UNORM_INT8[{}]=zero",
                     kind->name, kind->extents, kind->name, kind->extents));
  if (!trim(shape.substr(close + 1)).empty())
    fail(fmt::format("unexpected '{}' after ']'", trim(shape.substr(close + 1))));
  ImageDesc d;
  d.type = kind->type;
  d.format = parseFormat(trim(shape.substr(0, open)));
  setExtents(d, parseExtents(*kind, shape.substr(open + 1, close - open - 1)));
  const uint64_t pixel = imagefmt::bytesPerPixel(d.format);
  uint64_t bytes = pixel;  // checked at each step: no product may wrap
  for (uint64_t extent : {d.width, d.height, d.depth, d.arraySize}) {
    if (extent > kMaxInputBytes / bytes)
      fail(fmt::format("the image is larger than {} bytes", kMaxInputBytes));
    bytes *= extent;
  }
  d.rowPitch = d.width * pixel;
  d.slicePitch = d.rowPitch * d.height;
  return d;
}

std::string imageShapeText(const ImageDesc& d, char separator) {
  std::string extents = std::to_string(d.width);
  if (d.type == ImageType::Image1DArray) extents += fmt::format(",{}", d.arraySize);
  if (d.type == ImageType::Image2D) extents += fmt::format(",{}", d.height);
  if (d.type == ImageType::Image2DArray) extents += fmt::format(",{},{}", d.height, d.arraySize);
  if (d.type == ImageType::Image3D) extents += fmt::format(",{},{}", d.height, d.depth);
  return fmt::format("{}{}{}[{}]", kindOf(d.type).name, separator, imagefmt::formatName(d.format),
                     extents);
}

uint64_t packedImageBytes(const ImageDesc& d) {
  return imagefmt::bytesPerPixel(d.format) * d.width * d.height * d.depth * d.arraySize;
}

std::vector<uint8_t> packedPixels(const ImageDesc& d) {
  const uint64_t rowBytes = d.width * imagefmt::bytesPerPixel(d.format);
  const uint64_t slices = sliceCount(d);
  std::vector<uint8_t> out;
  out.reserve(rowBytes * d.height * slices);
  for (uint64_t s = 0; s < slices; ++s)
    for (uint64_t y = 0; y < d.height; ++y) {
      const uint8_t* row = d.data + s * d.slicePitch + y * d.rowPitch;
      out.insert(out.end(), row, row + rowBytes);
    }
  return out;
}

}  // namespace spvsim::formats
