// The pixel codec against values worked by hand from the OpenCL C spec's conversion
// rules (normalized: x/255, convert_uchar_sat_rte(f*255); half round-to-nearest-even;
// sRGB transfer functions; channel-order mapping of read_image*).
#include "src/exec/image_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace spvsim::imagefmt {
namespace {

using F4 = std::array<float, 4>;

ImageFormat fmtOf(uint32_t order, uint32_t type) { return {order, type}; }

TEST(ImageFormat, BytesPerPixel) {
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGBA, kUnormInt8)), 4u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGBA, kFloat)), 16u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kR, kHalfFloat)), 2u);
  // The x orders store what CL_R and CL_RG store (OpenCL 1.1-2.2's channel order table
  // groups them so; the conformance suite sizes them so).
  EXPECT_EQ(bytesPerPixel(fmtOf(kRx, kUnormInt8)), 1u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kRx, kFloat)), 4u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGx, kUnormInt16)), 4u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGx, kSignedInt32)), 8u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kSRGBx, kUnormInt8)), 4u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGB, kUnormShort565)), 2u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGBx, kUnormInt101010)), 4u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kSRGBA, kUnormInt8)), 4u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kSRGB, kUnormInt8)), 3u);
  // Pairs the spec forbids are unsupported.
  EXPECT_EQ(bytesPerPixel(fmtOf(kRGB, kUnormInt8)), 0u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kBGRA, kFloat)), 0u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kIntensity, kSignedInt8)), 0u);
  EXPECT_EQ(bytesPerPixel(fmtOf(kSRGBA, kFloat)), 0u);
}

// OpenCL 3.0 API spec, "Minimum list of supported image formats" (read-only, write-only
// and read-write; the read-write list is a subset).
TEST(ImageFormat, MinimumListSupported) {
  const uint32_t all[] = {kUnormInt8,     kUnormInt16,    kSnormInt8,   kSnormInt16,
                          kSignedInt8,    kSignedInt16,   kSignedInt32, kUnsignedInt8,
                          kUnsignedInt16, kUnsignedInt32, kHalfFloat,   kFloat};
  for (uint32_t order : {kR, kRG, kRGBA})
    for (uint32_t type : all) EXPECT_TRUE(isSupported({order, type})) << formatName({order, type});
  EXPECT_TRUE(isSupported({kBGRA, kUnormInt8}));
  EXPECT_TRUE(isSupported({kSRGBA, kUnormInt8}));
  for (ImageFormat f : supportedFormats()) {
    EXPECT_TRUE(isSupported(f));
    EXPECT_EQ(parseFormat(formatName(f)), f) << formatName(f);
  }
}

TEST(ImageFormat, Names) {
  EXPECT_EQ(formatName({kRGBA, kUnormInt8}), "RGBA,UNORM_INT8");
  EXPECT_EQ(formatName({kSBGRA, kUnormInt8}), "sBGRA,UNORM_INT8");
  EXPECT_EQ(parseFormat("cl_rgba,CL_UNORM_INT8"), (ImageFormat{kRGBA, kUnormInt8}));
  EXPECT_EQ(parseFormat("SRGBA,unorm_int8"), (ImageFormat{kSRGBA, kUnormInt8}));
  EXPECT_EQ(parseFormat("INTENSITY,HALF_FLOAT"), (ImageFormat{kIntensity, kHalfFloat}));
  EXPECT_EQ(parseFormat("RGB,UNORM_INT8"), std::nullopt);
  EXPECT_EQ(parseFormat("FOO,FLOAT"), std::nullopt);
  EXPECT_EQ(parseFormat("RGBA"), std::nullopt);
  EXPECT_EQ(parseType("UNSIGNED_INT32"), kUnsignedInt32);
  EXPECT_EQ(parseOrder("luminance"), kLuminance);
  EXPECT_EQ(orderName(0x1234), "0x1234");
}

TEST(ImageFormat, DecodeUnormAndOrders) {
  const uint8_t px[4] = {0, 255, 51, 102};
  EXPECT_EQ(decodeFloat({kRGBA, kUnormInt8}, px), (F4{0.0f, 1.0f, 51 / 255.0f, 102 / 255.0f}));
  EXPECT_EQ(decodeFloat({kBGRA, kUnormInt8}, px), (F4{51 / 255.0f, 1.0f, 0.0f, 102 / 255.0f}));
  EXPECT_EQ(decodeFloat({kARGB, kUnormInt8}, px), (F4{1.0f, 51 / 255.0f, 102 / 255.0f, 0.0f}));
  EXPECT_EQ(decodeFloat({kABGR, kUnormInt8}, px), (F4{102 / 255.0f, 51 / 255.0f, 1.0f, 0.0f}));
  EXPECT_EQ(decodeFloat({kR, kUnormInt8}, px + 1), (F4{1.0f, 0.0f, 0.0f, 1.0f}));
  EXPECT_EQ(decodeFloat({kA, kUnormInt8}, px + 1), (F4{0.0f, 0.0f, 0.0f, 1.0f}));
  EXPECT_EQ(decodeFloat({kA, kUnormInt8}, px + 2), (F4{0.0f, 0.0f, 0.0f, 51 / 255.0f}));
  EXPECT_EQ(decodeFloat({kRG, kUnormInt8}, px + 1), (F4{1.0f, 51 / 255.0f, 0.0f, 1.0f}));
  EXPECT_EQ(decodeFloat({kRA, kUnormInt8}, px + 1), (F4{1.0f, 0.0f, 0.0f, 51 / 255.0f}));
  EXPECT_EQ(decodeFloat({kRx, kUnormInt8}, px + 2), (F4{51 / 255.0f, 0.0f, 0.0f, 1.0f}));
  float i = 51 / 255.0f;
  EXPECT_EQ(decodeFloat({kIntensity, kUnormInt8}, px + 2), (F4{i, i, i, i}));
  EXPECT_EQ(decodeFloat({kLuminance, kUnormInt8}, px + 2), (F4{i, i, i, 1.0f}));
  const uint16_t px16[2] = {65535, 32768};
  auto* b16 = reinterpret_cast<const uint8_t*>(px16);
  EXPECT_EQ(decodeFloat({kRG, kUnormInt16}, b16), (F4{1.0f, 32768 / 65535.0f, 0.0f, 1.0f}));
}

TEST(ImageFormat, DecodeSnorm) {
  const int8_t px[4] = {-128, -127, 127, -64};
  auto* b = reinterpret_cast<const uint8_t*>(px);
  // max(-1.0f, x / 127.0f): -128 clamps to -1.
  EXPECT_EQ(decodeFloat({kRGBA, kSnormInt8}, b), (F4{-1.0f, -1.0f, 1.0f, -64 / 127.0f}));
  const int16_t px16[1] = {-32768};
  EXPECT_EQ(decodeFloat({kR, kSnormInt16}, reinterpret_cast<const uint8_t*>(px16))[0], -1.0f);
}

TEST(ImageFormat, EncodeNormalizedRoundsToEvenAndSaturates) {
  uint8_t p[4];
  encodeFloat({kRGBA, kUnormInt8}, {0.5f, -0.2f, 2.0f, NAN}, p);  // 127.5 -> 128
  EXPECT_EQ(p[0], 128);
  EXPECT_EQ(p[1], 0);
  EXPECT_EQ(p[2], 255);
  EXPECT_EQ(p[3], 0);
  encodeFloat({kBGRA, kUnormInt8}, {1.0f, 0.0f, 0.2f, 1.0f}, p);  // stored b, g, r, a
  EXPECT_EQ(p[0], 51);
  EXPECT_EQ(p[1], 0);
  EXPECT_EQ(p[2], 255);
  EXPECT_EQ(p[3], 255);
  int8_t s[4];
  encodeFloat({kRGBA, kSnormInt8}, {0.5f, -0.5f, -2.0f, 1.0f}, reinterpret_cast<uint8_t*>(s));
  EXPECT_EQ(s[0], 64);  // 63.5 -> 64 (even)
  EXPECT_EQ(s[1], -64);
  EXPECT_EQ(s[2], -128);  // -254 saturates
  EXPECT_EQ(s[3], 127);
  uint16_t u16[1];
  encodeFloat({kR, kUnormInt16}, {0.5f, 9.0f, 9.0f, 9.0f}, reinterpret_cast<uint8_t*>(u16));
  EXPECT_EQ(u16[0], 32768);  // 32767.5 -> 32768 (even)
}

TEST(ImageFormat, EncodeOrdersStoreTheirChannelsOnly) {
  uint8_t p[3] = {7, 7, 7};
  encodeFloat({kIntensity, kUnormInt8}, {1.0f, 0.0f, 0.0f, 0.0f}, p);
  EXPECT_EQ(p[0], 255);
  EXPECT_EQ(p[1], 7);
  encodeFloat({kA, kUnormInt8}, {0.0f, 0.0f, 0.0f, 1.0f}, p);
  EXPECT_EQ(p[0], 255);
  p[2] = 7;
  encodeFloat({kRGx, kUnormInt8}, {1.0f, 1.0f, 1.0f, 1.0f}, p);
  EXPECT_EQ(p[0], 255);
  EXPECT_EQ(p[1], 255);
  EXPECT_EQ(p[2], 7);  // past the two-byte element
  // sRGBx's ignored fourth channel: the spec leaves it open; spvsim stores w as
  // UNORM_INT8 (not sRGB-converted), as the conformance suite's reference does.
  uint8_t x[4] = {7, 7, 7, 7};
  encodeFloat({kSRGBx, kUnormInt8}, {1.0f, 1.0f, 1.0f, 0.2f}, x);
  EXPECT_EQ(x[2], 255);
  EXPECT_EQ(x[3], 51);  // 0.2 * 255
}

// Element sizes of valid descriptors spvsim does not support (CL_IMAGE_FORMAT_NOT_
// SUPPORTED rather than CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), and of invalid ones.
TEST(ImageFormat, ElementSizeOfEveryValidDescriptor) {
  EXPECT_EQ(elementSize({kDepth, kFloat}), 4u);
  EXPECT_EQ(elementSize({kRGBA, 0x10E0}), 4u);  // CL_UNORM_INT_101010_2
  EXPECT_EQ(elementSize({kRx, kUnormInt16}), 2u);
  EXPECT_EQ(bytesPerPixel({kDepth, kFloat}), 0u);
  EXPECT_EQ(elementSize({kDepth, kUnormInt8}), std::nullopt);
  EXPECT_EQ(elementSize({kRGB, kFloat}), std::nullopt);
  EXPECT_EQ(elementSize({kRx, kUnormShort565}), std::nullopt);
  EXPECT_EQ(elementSize({0x10BE, kFloat}), std::nullopt);  // CL_DEPTH_STENCIL
  EXPECT_EQ(elementSize({0x1234, kFloat}), std::nullopt);
}

TEST(ImageFormat, Integers) {
  int8_t s8[4];
  encodeInt({kRGBA, kSignedInt8}, {300, -300, -5, 127}, reinterpret_cast<uint8_t*>(s8));
  EXPECT_EQ(s8[0], 127);
  EXPECT_EQ(s8[1], -128);
  EXPECT_EQ(s8[2], -5);
  EXPECT_EQ(decodeInt({kRGBA, kSignedInt8}, reinterpret_cast<uint8_t*>(s8)),
            (std::array<int32_t, 4>{127, -128, -5, 127}));
  EXPECT_EQ(decodeInt({kR, kSignedInt8}, reinterpret_cast<uint8_t*>(s8) + 2),
            (std::array<int32_t, 4>{-5, 0, 0, 1}));
  uint16_t u16[2];
  encodeUint({kRG, kUnsignedInt16}, {70000, 9, 1, 1}, reinterpret_cast<uint8_t*>(u16));
  EXPECT_EQ(u16[0], 65535);
  EXPECT_EQ(u16[1], 9);
  EXPECT_EQ(decodeUint({kRG, kUnsignedInt16}, reinterpret_cast<uint8_t*>(u16)),
            (std::array<uint32_t, 4>{65535, 9, 0, 1}));
  uint32_t u32[1];
  encodeUint({kA, kUnsignedInt32}, {1, 2, 3, 0xfffffff0u}, reinterpret_cast<uint8_t*>(u32));
  EXPECT_EQ(u32[0], 0xfffffff0u);
  EXPECT_EQ(decodeUint({kA, kUnsignedInt32}, reinterpret_cast<uint8_t*>(u32)),
            (std::array<uint32_t, 4>{0, 0, 0, 0xfffffff0u}));
  EXPECT_EQ(kindOf(kSignedInt16), Kind::SignedInt);
  EXPECT_EQ(kindOf(kUnsignedInt8), Kind::UnsignedInt);
  EXPECT_EQ(kindOf(kHalfFloat), Kind::Float);
}

TEST(ImageFormat, Packed) {
  uint16_t v = 0xF800;
  auto* b = reinterpret_cast<uint8_t*>(&v);
  EXPECT_EQ(decodeFloat({kRGB, kUnormShort565}, b), (F4{1.0f, 0.0f, 0.0f, 1.0f}));
  v = 0x07E0;
  EXPECT_EQ(decodeFloat({kRGB, kUnormShort565}, b), (F4{0.0f, 1.0f, 0.0f, 1.0f}));
  encodeFloat({kRGB, kUnormShort565}, {1.0f, 0.5f, 0.0f, 0.0f}, b);  // g: 31.5 -> 32
  EXPECT_EQ(v, (31 << 11) | (32 << 5));
  v = (1 << 10) | (2 << 5) | 3;
  EXPECT_EQ(decodeFloat({kRGBx, kUnormShort555}, b), (F4{1 / 31.0f, 2 / 31.0f, 3 / 31.0f, 1.0f}));
  uint32_t w = (1023u << 20) | (512u << 10) | 1u;
  EXPECT_EQ(decodeFloat({kRGB, kUnormInt101010}, reinterpret_cast<uint8_t*>(&w)),
            (F4{1.0f, 512 / 1023.0f, 1 / 1023.0f, 1.0f}));
}

TEST(ImageFormat, Half) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);      // tie -> even (0)
  EXPECT_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);  // 1.5 units -> 2
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  EXPECT_EQ(halfToFloat(0x3555), (1.0f + 0x155 / 1024.0f) * 0.25f);  // exp 13, man 0x155
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0xFC00), -std::numeric_limits<float>::infinity());
  uint16_t h[1];
  encodeFloat({kR, kHalfFloat}, {0.1f, 0, 0, 0}, reinterpret_cast<uint8_t*>(h));
  EXPECT_EQ(h[0], 0x2E66);  // 0.1 -> 0x2E66 (0.0999755859375)
}

TEST(ImageFormat, Srgb) {
  // ((0.5 + 0.055) / 1.055)^2.4 = 0.214041140...
  EXPECT_NEAR(srgbToLinear(0.5f), 0.21404114f, 1e-7);
  EXPECT_EQ(srgbToLinear(0.04f), 0.04f / 12.92f);
  // 1.055 * 0.5^(1/2.4) - 0.055 = 0.735356983...
  EXPECT_NEAR(linearToSrgb(0.5f), 0.73535698f, 1e-7);
  EXPECT_EQ(linearToSrgb(NAN), 0.0f);
  EXPECT_EQ(linearToSrgb(-1.0f), 0.0f);
  EXPECT_EQ(linearToSrgb(2.0f), 1.0f);
  uint8_t p[4];
  encodeFloat({kSRGBA, kUnormInt8}, {0.5f, 0.5f, 0.5f, 0.5f}, p);
  EXPECT_EQ(p[0], 188);  // 0.735357 * 255 = 187.52
  EXPECT_EQ(p[3], 128);  // alpha is linear: 127.5 -> 128
  const uint8_t q[4] = {255, 0, 188, 128};
  auto f = decodeFloat({kSBGRA, kUnormInt8}, q);  // stored b, g, r, a
  EXPECT_NEAR(f[0], std::pow((188 / 255.0 + 0.055) / 1.055, 2.4), 1e-6);
  EXPECT_EQ(f[2], 1.0f);
  EXPECT_EQ(f[3], 128 / 255.0f);
}

}  // namespace
}  // namespace spvsim::imagefmt
