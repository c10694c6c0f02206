// Image formats: which (channel order, channel type) pairs spvsim supports, their names
// and sizes, and the pixel codec that turns a stored pixel into the float4/int4/uint4 a
// kernel reads and back, by the OpenCL conversion rules (OpenCL C "Conversion Rules" for
// normalized, half, integer and sRGB channels; the channel-order mapping of
// read_image*). Used by the executor's image ops, the ICD and the command line; needs
// no simulator. See src/DESIGN.md, "Images and samplers".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/exec/image.h"

namespace spvsim::imagefmt {

// cl_channel_order (the OpenCL API's values; SPIR-V's ImageChannelOrder is these
// minus 0x10B0).
inline constexpr uint32_t kR = 0x10B0, kA = 0x10B1, kRG = 0x10B2, kRA = 0x10B3, kRGB = 0x10B4,
                          kRGBA = 0x10B5, kBGRA = 0x10B6, kARGB = 0x10B7, kIntensity = 0x10B8,
                          kLuminance = 0x10B9, kRx = 0x10BA, kRGx = 0x10BB, kRGBx = 0x10BC,
                          kDepth = 0x10BD, kSRGB = 0x10BF, kSRGBx = 0x10C0, kSRGBA = 0x10C1,
                          kSBGRA = 0x10C2, kABGR = 0x10C3;
inline constexpr uint32_t kOrderBase = 0x10B0;

// cl_channel_type (SPIR-V's ImageChannelDataType is these minus 0x10D0).
inline constexpr uint32_t kSnormInt8 = 0x10D0, kSnormInt16 = 0x10D1, kUnormInt8 = 0x10D2,
                          kUnormInt16 = 0x10D3, kUnormShort565 = 0x10D4, kUnormShort555 = 0x10D5,
                          kUnormInt101010 = 0x10D6, kSignedInt8 = 0x10D7, kSignedInt16 = 0x10D8,
                          kSignedInt32 = 0x10D9, kUnsignedInt8 = 0x10DA, kUnsignedInt16 = 0x10DB,
                          kUnsignedInt32 = 0x10DC, kHalfFloat = 0x10DD, kFloat = 0x10DE;
inline constexpr uint32_t kTypeBase = 0x10D0;

// What read_image* must be used with a format: read_imagef/h for Float (normalized,
// half and float types), read_imagei for SignedInt, read_imageui for UnsignedInt.
enum class Kind { Float, SignedInt, UnsignedInt };

// Whether spvsim supports the pair (the pairs the OpenCL spec allows, less CL_DEPTH,
// CL_DEPTH_STENCIL, CL_UNORM_INT24 and CL_UNORM_INT_101010_2).
bool isSupported(ImageFormat f);
// Every supported format, for clGetSupportedImageFormats (the same for every image
// type and access; it includes the OpenCL 3.0 minimum lists).
const std::vector<ImageFormat>& supportedFormats();

uint32_t channelCount(uint32_t order);  // channels stored per pixel (CL_IMAGE_ELEMENT_SIZE)
// Bytes of one element (CL_IMAGE_ELEMENT_SIZE) of any valid image format descriptor of
// the API spec, supported or not (CL_DEPTH, CL_UNORM_INT_101010_2); nullopt when the
// pair is no valid descriptor (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR).
std::optional<uint32_t> elementSize(ImageFormat f);
uint32_t bytesPerPixel(ImageFormat f);  // elementSize of a supported format, else 0
Kind kindOf(uint32_t type);
bool isPacked(uint32_t type);  // 565, 555, 101010: one packed value per pixel
// Bytes of one stored channel value (0 for packed types), for dumps and INIT lists.
uint32_t channelBytes(uint32_t type);

// Names without the CL_ prefix: "RGBA", "sRGBA", "UNORM_INT8"; "0x10ab" when unknown.
std::string orderName(uint32_t order);
std::string typeName(uint32_t type);
std::string formatName(ImageFormat f);  // "RGBA,UNORM_INT8"
// Case-insensitive ("rgba", "SRGBA"); an optional CL_ prefix is accepted.
std::optional<uint32_t> parseOrder(std::string_view s);
std::optional<uint32_t> parseType(std::string_view s);
// "ORDER,TYPE"; nullopt when either part is unknown or the pair is unsupported.
std::optional<ImageFormat> parseFormat(std::string_view s);

// Decodes one pixel at p (bytesPerPixel(f) bytes) to what read_imagef (Float formats),
// read_imagei (SignedInt) or read_imageui (UnsignedInt) returns, channel-order mapping
// applied (R -> (r,0,0,1), A -> (0,0,0,a), INTENSITY -> (I,I,I,I), ...). The caller
// picks the one matching kindOf(f.type); the others reinterpret the raw channel values
// (what the spec leaves undefined, reported by the image ops).
std::array<float, 4> decodeFloat(ImageFormat f, const uint8_t* p);
std::array<int32_t, 4> decodeInt(ImageFormat f, const uint8_t* p);
std::array<uint32_t, 4> decodeUint(ImageFormat f, const uint8_t* p);

// Encodes what write_imagef/i/ui gives into one pixel at p: normalized types round to
// nearest even and saturate (NaN -> 0), half rounds to nearest even, integer types
// saturate (write_imagei/ui to 8/16-bit channels), sRGB converts linear -> sRGB first.
void encodeFloat(ImageFormat f, const std::array<float, 4>& v, uint8_t* p);
void encodeInt(ImageFormat f, const std::array<int32_t, 4>& v, uint8_t* p);
void encodeUint(ImageFormat f, const std::array<uint32_t, 4>& v, uint8_t* p);

// The sRGB transfer functions of the OpenCL C spec (exposed for tests and dumps).
float srgbToLinear(float c);
float linearToSrgb(float l);
// IEEE binary16 <-> float; to half rounds to nearest even.
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);

}  // namespace spvsim::imagefmt
