#include "src/exec/image_table.h"

#include <fmt/format.h>

namespace spvsim {

std::optional<ImageType> imageTypeOf(const spirv::Type& t) {
  if (t.opcode != spv::Op::OpTypeImage || t.operands.size() < 6) return std::nullopt;
  const auto dim = static_cast<spv::Dim>(t.operands[1]);
  const bool depth = t.operands[2] == 1, arrayed = t.operands[3] != 0, ms = t.operands[4] != 0;
  if (depth || ms) return std::nullopt;
  switch (dim) {
    case spv::Dim::Dim1D:
      return arrayed ? ImageType::Image1DArray : ImageType::Image1D;
    case spv::Dim::Dim2D:
      return arrayed ? ImageType::Image2DArray : ImageType::Image2D;
    case spv::Dim::Dim3D:
      return arrayed ? std::nullopt : std::optional(ImageType::Image3D);
    case spv::Dim::Buffer:
      return arrayed ? std::nullopt : std::optional(ImageType::Image1DBuffer);
    default:
      return std::nullopt;
  }
}

uint32_t coordinateCount(ImageType t) {
  switch (t) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return 1;
    case ImageType::Image1DArray:
    case ImageType::Image2D:
      return 2;
    default:
      return 3;
  }
}

bool isArrayed(ImageType t) { return t == ImageType::Image1DArray || t == ImageType::Image2DArray; }

namespace samplerbits {

std::string describe(uint8_t b) {
  static const char* const kModes[] = {"CLK_ADDRESS_NONE", "CLK_ADDRESS_CLAMP_TO_EDGE",
                                       "CLK_ADDRESS_CLAMP", "CLK_ADDRESS_REPEAT",
                                       "CLK_ADDRESS_MIRRORED_REPEAT"};
  return fmt::format("CLK_NORMALIZED_COORDS_{} | {} | CLK_FILTER_{}",
                     normalized(b) ? "TRUE" : "FALSE",
                     addressing(b) <= Mirrored ? kModes[addressing(b)] : "CLK_ADDRESS_?",
                     linear(b) ? "LINEAR" : "NEAREST");
}

}  // namespace samplerbits
}  // namespace spvsim
