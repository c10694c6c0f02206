#include "tools/cli/image_arg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#include "spirv/error.h"
#include "src/exec/image_format.h"
#include "src/files/host_buffer.h"
#include "src/formats/image_shape.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(DiagnosticKind::InvalidArgument, message);
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

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool isImageHead(std::string_view head) { return formats::isImageHead(head); }

ArgValue parseImageShape(std::string_view head, std::string_view shape) {
  ArgValue arg;
  arg.kind = ArgValue::Kind::Image;
  arg.image = formats::parseImageShape(head, shape);
  const uint64_t bytes = formats::packedImageBytes(arg.image);
  arg.type = channelElement(arg.image.format.type);
  arg.count = bytes / arg.type.size();
  files::zeroedBytes(arg.bytes, bytes);
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

std::string imageHeader(const ArgValue& image) { return formats::imageShapeText(image.image, ' '); }

}  // namespace spvsim::tools
