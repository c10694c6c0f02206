// Images and samplers as registers hold them during a launch (src/DESIGN.md, "Images
// and samplers"). An image value is a handle: a tag and an index into the launch's
// image table (LaunchContext::images); its pixels are a global memory region, so every
// pixel access is bounds-checked and seen by observers like a buffer access. A sampler
// value is the loader's OpConstantSampler encoding (addressing | normalized << 3 |
// filter << 4, SPIR-V enumerants); an OpSampledImage value is the image handle with the
// sampler's byte beside the index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "spirv/kernel_signature.h"
#include "spirv/module.h"
#include "src/exec/image.h"

namespace spvsim {

// One image argument of a launch.
struct LaunchImage {
  ImageDesc desc;  // pitches filled in (never 0)
  uint32_t bytesPerPixel = 0;
  uint32_t region = 0;  // index into MemoryMap::global
  spirv::AccessQualifier access = spirv::AccessQualifier::ReadOnly;
  std::string name;  // "argument 0 (src)"
};

// The ImageType of an OpTypeImage (Dim, Arrayed); nullopt for what OpenCL has no image
// type for (cube, rect, subpass, multisampled, depth).
std::optional<ImageType> imageTypeOf(const spirv::Type& t);
// Coordinates an image type takes (1D: 1, 2D and 1D array: 2, 3D and 2D array: 3).
uint32_t coordinateCount(ImageType t);
bool isArrayed(ImageType t);

namespace imagehandle {

inline constexpr uint64_t kTag = 0x494dull << 48;  // "IM"
inline constexpr uint64_t kTagMask = 0xffffull << 48;
inline constexpr uint64_t kHasSampler = 1ull << 40;

inline uint64_t image(uint32_t index) { return kTag | index; }
inline uint64_t sampled(uint64_t image, uint8_t sampler) {
  return (image & ~(0x1ffull << 32)) | kHasSampler | (uint64_t(sampler) << 32);
}
inline bool isImage(uint64_t v) { return (v & kTagMask) == kTag; }
inline uint32_t index(uint64_t v) { return static_cast<uint32_t>(v); }
inline uint8_t samplerOf(uint64_t sampledImage) { return static_cast<uint8_t>(sampledImage >> 32); }

}  // namespace imagehandle

namespace samplerbits {

// SPIR-V SamplerAddressingMode: None, ClampToEdge, Clamp, Repeat, RepeatMirrored (the
// OpenCL API's CL_ADDRESS_* minus 0x1130); filter: Nearest 0, Linear 1.
enum Addressing : uint8_t { None = 0, ClampToEdge = 1, Clamp = 2, Repeat = 3, Mirrored = 4 };

inline uint8_t encode(const SamplerDesc& s) {
  return static_cast<uint8_t>(((s.addressing - 0x1130) & 7) | (s.normalizedCoords ? 8 : 0) |
                              ((s.filter - 0x1140) & 1) << 4);
}
inline Addressing addressing(uint8_t b) { return static_cast<Addressing>(b & 7); }
inline bool normalized(uint8_t b) { return (b & 8) != 0; }
inline bool linear(uint8_t b) { return (b & 16) != 0; }
// A value no OpConstantSampler or sampler argument produces (uninitialised memory).
inline bool valid(uint64_t v) { return v <= 0x1f && (v & 7) <= 4; }
// "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR"
std::string describe(uint8_t b);

}  // namespace samplerbits

}  // namespace spvsim
