#include "tools/cli/image_arg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#include "spirv/error.h"
#include "src/exec/image_format.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

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

// The element type one stored channel value reads as.
ElementType channelElement(uint32_t type) {
  using namespace imagefmt;
  switch (type) {
    case kSnormInt8:
    case kSignedInt8:
      return {Scalar::Char, 1};
    case kUnormInt8:
    case kUnsignedInt8:
      return {Scalar::UChar, 1};
    case kSnormInt16:
    case kSignedInt16:
      return {Scalar::Short, 1};
    case kUnormInt16:
    case kUnsignedInt16:
    case kUnormShort565:
    case kUnormShort555:
      return {Scalar::UShort, 1};
    case kSignedInt32:
      return {Scalar::Int, 1};
    case kHalfFloat:
      return {Scalar::Half, 1};
    case kFloat:
      return {Scalar::Float, 1};
    default:  // UNSIGNED_INT32, UNORM_INT_101010
      return {Scalar::UInt, 1};
  }
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

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool isImageHead(std::string_view head) { return findKind(head) != nullptr; }

ArgValue parseImageShape(std::string_view head, std::string_view shape) {
  const ImageKind* kind = findKind(head);
  if (!kind) fail(fmt::format("unknown image type '{}'", head));
  const size_t open = shape.find('['), close = shape.find(']');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    fail(fmt::format("expected {}:ORDER,TYPE[{}]=INIT, e.g. {}:RGBA,UNORM_INT8[{}]=zero",
                     kind->name, kind->extents, kind->name, kind->extents));
  if (!trim(shape.substr(close + 1)).empty())
    fail(fmt::format("unexpected '{}' after ']'", trim(shape.substr(close + 1))));
  ArgValue arg;
  arg.kind = ArgValue::Kind::Image;
  ImageDesc& d = arg.image;
  d.type = kind->type;
  d.format = parseFormat(trim(shape.substr(0, open)));
  setExtents(d, parseExtents(*kind, shape.substr(open + 1, close - open - 1)));
  const uint64_t pixel = imagefmt::bytesPerPixel(d.format);
  uint64_t bytes = pixel;  // checked at each step: no product may wrap
  for (uint64_t extent : {d.width, d.height, d.depth, d.arraySize}) {
    if (extent > kMaxBufferBytes / bytes)
      fail(fmt::format("the image is larger than {} bytes", kMaxBufferBytes));
    bytes *= extent;
  }
  const uint64_t pixels = bytes / pixel;
  d.rowPitch = d.width * pixel;
  d.slicePitch = d.rowPitch * d.height;
  arg.type = channelElement(d.format.type);
  arg.count = pixels * pixel / arg.type.size();
  arg.bytes.assign(pixels * pixel, 0);
  return arg;
}

ArgValue parseSampler(std::string_view body) {
  const auto parts = split(body, ',');
  if (parts.size() != 3)
    fail(
        "expected sampler:NORMALIZED|UNNORMALIZED,NONE|CLAMP|CLAMP_TO_EDGE|REPEAT|"
        "MIRRORED_REPEAT,NEAREST|LINEAR");
  ArgValue arg;
  arg.kind = ArgValue::Kind::Sampler;
  const std::string coords = upper(trim(parts[0])), address = upper(trim(parts[1])),
                    filter = upper(trim(parts[2]));
  if (coords != "NORMALIZED" && coords != "UNNORMALIZED")
    fail(fmt::format("sampler coordinates '{}': expected NORMALIZED or UNNORMALIZED", parts[0]));
  arg.sampler.normalizedCoords = coords == "NORMALIZED";
  const std::array<std::pair<const char*, uint32_t>, 5> modes = {{{"NONE", 0x1130},
                                                                  {"CLAMP_TO_EDGE", 0x1131},
                                                                  {"CLAMP", 0x1132},
                                                                  {"REPEAT", 0x1133},
                                                                  {"MIRRORED_REPEAT", 0x1134}}};
  auto mode = std::find_if(modes.begin(), modes.end(), [&](auto& m) { return address == m.first; });
  if (mode == modes.end())
    fail(
        fmt::format("sampler addressing mode '{}': expected NONE, CLAMP, CLAMP_TO_EDGE, REPEAT "
                    "or MIRRORED_REPEAT",
                    parts[1]));
  arg.sampler.addressing = mode->second;
  if (!arg.sampler.normalizedCoords && (mode->second == 0x1133 || mode->second == 0x1134))
    fail(fmt::format("sampler addressing mode {} needs NORMALIZED coordinates", address));
  if (filter != "NEAREST" && filter != "LINEAR")
    fail(fmt::format("sampler filter mode '{}': expected NEAREST or LINEAR", parts[2]));
  arg.sampler.filter = filter == "NEAREST" ? 0x1140 : 0x1141;
  return arg;
}

std::string imageHeader(const ArgValue& image) {
  const ImageDesc& d = image.image;
  const ImageKind& kind = kindOf(d.type);
  std::string extents = std::to_string(d.width);
  if (d.type == ImageType::Image1DArray) extents += fmt::format(",{}", d.arraySize);
  if (d.type == ImageType::Image2D) extents += fmt::format(",{}", d.height);
  if (d.type == ImageType::Image2DArray) extents += fmt::format(",{},{}", d.height, d.arraySize);
  if (d.type == ImageType::Image3D) extents += fmt::format(",{},{}", d.height, d.depth);
  return fmt::format("{} {}[{}]", kind.name, imagefmt::formatName(d.format), extents);
}

}  // namespace spvsim::tools
