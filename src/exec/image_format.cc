#include "src/exec/image_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace spvsim::imagefmt {
namespace {

// Where each stored channel goes in the (r, g, b, a) a kernel sees: 0..3, or kPad for
// the ignored fourth channel of sRGBx, kI for INTENSITY (all four), kL for LUMINANCE
// (r, g, b; a = 1).
constexpr int kPad = -1, kI = -2, kL = -3;

struct OrderInfo {
  uint32_t order;
  const char* name;
  std::vector<int> channels;  // in memory order; empty for the packed-only orders
  bool srgb = false;
};

const std::vector<OrderInfo>& orders() {
  static const std::vector<OrderInfo> k = {
      {kR, "R", {0}},
      {kA, "A", {3}},
      {kRG, "RG", {0, 1}},
      {kRA, "RA", {0, 3}},
      {kRGB, "RGB", {}},
      {kRGBA, "RGBA", {0, 1, 2, 3}},
      {kBGRA, "BGRA", {2, 1, 0, 3}},
      {kARGB, "ARGB", {3, 0, 1, 2}},
      {kIntensity, "INTENSITY", {kI}},
      {kLuminance, "LUMINANCE", {kL}},
      // The x orders store what the channel order table groups them with ("CL_R, CL_Rx
      // or CL_A", "CL_RG, CL_RGx or CL_RA" in OpenCL 1.1-2.2; the conformance suite's
      // element sizes): their x is the border colour's alpha (0, not CL_R's 1), not a
      // stored channel. CL_RGBx and CL_sRGBx keep four (packed types only for CL_RGBx).
      {kRx, "Rx", {0}},
      {kRGx, "RGx", {0, 1}},
      {kRGBx, "RGBx", {}},
      {kDepth, "DEPTH", {0}},
      {0x10BE, "DEPTH_STENCIL", {}},
      {kSRGB, "sRGB", {0, 1, 2}, true},
      {kSRGBx, "sRGBx", {0, 1, 2, kPad}, true},
      {kSRGBA, "sRGBA", {0, 1, 2, 3}, true},
      {kSBGRA, "sBGRA", {2, 1, 0, 3}, true},
      {kABGR, "ABGR", {3, 2, 1, 0}},
  };
  return k;
}

const OrderInfo* findOrder(uint32_t order) {
  for (const OrderInfo& o : orders())
    if (o.order == order) return &o;
  return nullptr;
}

constexpr const char* kTypeNames[] = {
    "SNORM_INT8",      "SNORM_INT16",       "UNORM_INT8",     "UNORM_INT16",  "UNORM_SHORT_565",
    "UNORM_SHORT_555", "UNORM_INT_101010",  "SIGNED_INT8",    "SIGNED_INT16", "SIGNED_INT32",
    "UNSIGNED_INT8",   "UNSIGNED_INT16",    "UNSIGNED_INT32", "HALF_FLOAT",   "FLOAT",
    "UNORM_INT24",     "UNORM_INT_101010_2"};

bool knownType(uint32_t t) { return t >= kSnormInt8 && t <= kFloat; }

constexpr uint32_t kUnormInt24 = 0x10DF, kUnormInt101010_2 = 0x10E0;

// The API spec's restrictions of channel orders to channel types (the image format
// descriptor tables), for every order and type it defines whether spvsim supports the
// pair or not. CL_DEPTH_STENCIL and CL_UNORM_INT24 need cl_khr_gl_depth_images: not
// valid here.
bool validDescriptor(uint32_t order, uint32_t type) {
  switch (order) {
    case kRGB:
    case kRGBx:
      return isPacked(type);
    case kBGRA:
    case kARGB:
    case kABGR:
      return type == kUnormInt8 || type == kSnormInt8 || type == kSignedInt8 ||
             type == kUnsignedInt8;
    case kIntensity:
    case kLuminance:
      return type == kUnormInt8 || type == kUnormInt16 || type == kSnormInt8 ||
             type == kSnormInt16 || type == kHalfFloat || type == kFloat;
    case kSRGB:
    case kSRGBx:
    case kSRGBA:
    case kSBGRA:
      return type == kUnormInt8;
    case kDepth:
      return type == kUnormInt16 || type == kFloat;
    case kRGBA:
      return (knownType(type) && !isPacked(type)) || type == kUnormInt101010_2;
    case kR:
    case kA:
    case kRG:
    case kRA:
    case kRx:
    case kRGx:
      return knownType(type) && !isPacked(type);
    default:
      return false;  // DEPTH_STENCIL, unknown orders
  }
}

// What spvsim supports: every valid pair but CL_DEPTH and CL_UNORM_INT_101010_2.
bool typeAllowed(uint32_t order, uint32_t type) {
  return validDescriptor(order, type) && order != kDepth && type != kUnormInt101010_2;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view stripClPrefix(std::string_view s) {
  if (s.size() > 3 && equalsIgnoreCase(s.substr(0, 3), "CL_")) s.remove_prefix(3);
  return s;
}

// --- one stored channel value ---------------------------------------------------------

uint32_t loadBits(const uint8_t* p, uint32_t bytes) {
  uint32_t v = 0;
  std::memcpy(&v, p, bytes);  // little-endian host, as the simulator's memory
  return v;
}

void storeBits(uint8_t* p, uint32_t bytes, uint32_t v) { std::memcpy(p, &v, bytes); }

int32_t signExtend(uint32_t v, uint32_t bytes) {
  if (bytes == 1) return static_cast<int8_t>(v);
  if (bytes == 2) return static_cast<int16_t>(v);
  return static_cast<int32_t>(v);
}

float channelToFloat(uint32_t type, uint32_t raw) {
  switch (type) {
    case kSnormInt8:
      return std::max(-1.0f, static_cast<float>(static_cast<int8_t>(raw)) / 127.0f);
    case kSnormInt16:
      return std::max(-1.0f, static_cast<float>(static_cast<int16_t>(raw)) / 32767.0f);
    case kUnormInt8:
      return static_cast<float>(raw) / 255.0f;
    case kUnormInt16:
      return static_cast<float>(raw) / 65535.0f;
    case kHalfFloat:
      return halfToFloat(static_cast<uint16_t>(raw));
    case kFloat:
      return std::bit_cast<float>(raw);
    case kSignedInt8:
    case kSignedInt16:
    case kSignedInt32:
      return static_cast<float>(signExtend(raw, channelBytes(type)));
    default:
      return static_cast<float>(raw);
  }
}

// convert_<T>_sat_rte(f) for an integer range [lo, hi]: NaN gives 0.
int64_t satRte(float f, int64_t lo, int64_t hi) {
  if (std::isnan(f)) return 0;
  double r = std::nearbyint(static_cast<double>(f));  // default mode: to nearest even
  return static_cast<int64_t>(std::clamp(r, static_cast<double>(lo), static_cast<double>(hi)));
}

uint32_t floatToChannel(uint32_t type, float f) {
  switch (type) {
    case kSnormInt8:
      return static_cast<uint8_t>(satRte(f * 127.0f, -128, 127));
    case kSnormInt16:
      return static_cast<uint16_t>(satRte(f * 32767.0f, -32768, 32767));
    case kUnormInt8:
      return static_cast<uint32_t>(satRte(f * 255.0f, 0, 255));
    case kUnormInt16:
      return static_cast<uint32_t>(satRte(f * 65535.0f, 0, 65535));
    case kHalfFloat:
      return floatToHalf(f);
    case kFloat:
      return std::bit_cast<uint32_t>(f);
    case kSignedInt8:
      return static_cast<uint8_t>(satRte(f, -128, 127));
    case kSignedInt16:
      return static_cast<uint16_t>(satRte(f, -32768, 32767));
    case kSignedInt32:
      return static_cast<uint32_t>(satRte(f, INT32_MIN, INT32_MAX));
    case kUnsignedInt8:
      return static_cast<uint32_t>(satRte(f, 0, 255));
    case kUnsignedInt16:
      return static_cast<uint32_t>(satRte(f, 0, 65535));
    default:
      return static_cast<uint32_t>(satRte(f, 0, UINT32_MAX));
  }
}

// write_imagei/ui: convert_<T>_sat for 8- and 16-bit channels. The value is given as
// int64 so that one function serves signed and unsigned sources.
uint32_t intToChannel(uint32_t type, int64_t v) {
  switch (type) {
    case kSignedInt8:
    case kSnormInt8:
      return static_cast<uint8_t>(std::clamp<int64_t>(v, -128, 127));
    case kSignedInt16:
    case kSnormInt16:
      return static_cast<uint16_t>(std::clamp<int64_t>(v, -32768, 32767));
    case kSignedInt32:
      return static_cast<uint32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
    case kUnsignedInt8:
    case kUnormInt8:
      return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, 255));
    case kUnsignedInt16:
    case kUnormInt16:
    case kHalfFloat:
      return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, 65535));
    default:
      return static_cast<uint32_t>(std::clamp<int64_t>(v, 0, UINT32_MAX));
  }
}

// --- packed formats (CL_RGB/CL_RGBx with 565, 555, 101010) ----------------------------

struct PackedField {
  uint32_t shift, bits;
};

std::array<PackedField, 3> packedFields(uint32_t type) {
  if (type == kUnormShort565) return {{{11, 5}, {5, 6}, {0, 5}}};
  if (type == kUnormShort555) return {{{10, 5}, {5, 5}, {0, 5}}};
  return {{{20, 10}, {10, 10}, {0, 10}}};  // 101010
}

// The raw channel values (r, g, b) of a packed pixel.
std::array<uint32_t, 3> unpack(uint32_t type, const uint8_t* p) {
  uint32_t v = loadBits(p, bytesPerPixel({kRGB, type}));
  std::array<uint32_t, 3> out{};
  auto fields = packedFields(type);
  for (int i = 0; i < 3; ++i) out[i] = (v >> fields[i].shift) & ((1u << fields[i].bits) - 1);
  return out;
}

void pack(uint32_t type, const std::array<uint32_t, 3>& c, uint8_t* p) {
  uint32_t v = 0;
  auto fields = packedFields(type);
  for (int i = 0; i < 3; ++i) v |= std::min(c[i], (1u << fields[i].bits) - 1) << fields[i].shift;
  storeBits(p, bytesPerPixel({kRGB, type}), v);
}

// The raw stored channel values of a pixel in (r, g, b, a) positions, with `fill` where
// the order has no channel (the caller fixes alpha), and INTENSITY/LUMINANCE spread.
template <typename T, typename Convert>
std::array<T, 4> gather(ImageFormat f, const uint8_t* p, T zero, T one, Convert convert) {
  std::array<T, 4> out = {zero, zero, zero, one};
  if (isPacked(f.type)) {
    auto raw = unpack(f.type, p);
    auto fields = packedFields(f.type);
    for (int i = 0; i < 3; ++i) out[i] = convert(raw[i], (1u << fields[i].bits) - 1);
    return out;
  }
  const OrderInfo* o = findOrder(f.order);
  uint32_t bytes = channelBytes(f.type);
  for (size_t c = 0; c < o->channels.size(); ++c) {
    T v = convert(loadBits(p + c * bytes, bytes), 0);
    int dst = o->channels[c];
    if (dst >= 0) out[dst] = v;
    if (dst == kI) out = {v, v, v, v};
    if (dst == kL) out = {v, v, v, one};
  }
  return out;
}

// The component each stored channel takes from (x, y, z, w) on a write (INTENSITY and
// LUMINANCE store x). The ignored channel of sRGBx stores w, unconverted: the API spec
// leaves its contents open, reads never see it, and the conformance suite's reference
// (pack_image_pixel, for clEnqueueFillImage and write_imagef) stores w there.
int sourceOf(int dst) { return dst >= 0 ? dst : (dst == kPad ? 3 : 0); }

bool isSrgb(uint32_t order) {
  const OrderInfo* o = findOrder(order);
  return o && o->srgb;
}

}  // namespace

bool isPacked(uint32_t type) {
  return type == kUnormShort565 || type == kUnormShort555 || type == kUnormInt101010;
}

bool isSupported(ImageFormat f) { return findOrder(f.order) && typeAllowed(f.order, f.type); }

const std::vector<ImageFormat>& supportedFormats() {
  static const std::vector<ImageFormat> k = [] {
    std::vector<ImageFormat> out;
    for (const OrderInfo& o : orders())
      for (uint32_t t = kSnormInt8; t <= kFloat; ++t)
        if (typeAllowed(o.order, t)) out.push_back({o.order, t});
    return out;
  }();
  return k;
}

uint32_t channelCount(uint32_t order) {
  switch (order) {
    case kRGB:
      return 3;
    case kRGBx:
      return 4;
    default: {
      const OrderInfo* o = findOrder(order);
      return o ? static_cast<uint32_t>(o->channels.size()) : 0;
    }
  }
}

uint32_t channelBytes(uint32_t type) {
  switch (type) {
    case kSnormInt8:
    case kUnormInt8:
    case kSignedInt8:
    case kUnsignedInt8:
      return 1;
    case kSnormInt16:
    case kUnormInt16:
    case kSignedInt16:
    case kUnsignedInt16:
    case kHalfFloat:
      return 2;
    case kSignedInt32:
    case kUnsignedInt32:
    case kFloat:
      return 4;
    default:
      return 0;
  }
}

std::optional<uint32_t> elementSize(ImageFormat f) {
  if (!findOrder(f.order) || !validDescriptor(f.order, f.type)) return std::nullopt;
  if (f.type == kUnormInt101010 || f.type == kUnormInt101010_2) return 4;
  if (isPacked(f.type)) return 2;
  return channelCount(f.order) * channelBytes(f.type);
}

uint32_t bytesPerPixel(ImageFormat f) { return isSupported(f) ? *elementSize(f) : 0; }

Kind kindOf(uint32_t type) {
  switch (type) {
    case kSignedInt8:
    case kSignedInt16:
    case kSignedInt32:
      return Kind::SignedInt;
    case kUnsignedInt8:
    case kUnsignedInt16:
    case kUnsignedInt32:
      return Kind::UnsignedInt;
    default:
      return Kind::Float;
  }
}

std::string orderName(uint32_t order) {
  const OrderInfo* o = findOrder(order);
  return o ? o->name : fmt::format("{:#x}", order);
}

std::string typeName(uint32_t type) {
  if (type >= kTypeBase && type < kTypeBase + std::size(kTypeNames))
    return kTypeNames[type - kTypeBase];
  return fmt::format("{:#x}", type);
}

std::string formatName(ImageFormat f) { return orderName(f.order) + "," + typeName(f.type); }

std::optional<uint32_t> parseOrder(std::string_view s) {
  s = stripClPrefix(s);
  for (const OrderInfo& o : orders())
    if (equalsIgnoreCase(s, o.name)) return o.order;
  return std::nullopt;
}

std::optional<uint32_t> parseType(std::string_view s) {
  s = stripClPrefix(s);
  for (uint32_t i = 0; i < std::size(kTypeNames); ++i)
    if (equalsIgnoreCase(s, kTypeNames[i])) return kTypeBase + i;
  return std::nullopt;
}

std::optional<ImageFormat> parseFormat(std::string_view s) {
  size_t comma = s.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  auto order = parseOrder(s.substr(0, comma));
  auto type = parseType(s.substr(comma + 1));
  if (!order || !type || !isSupported({*order, *type})) return std::nullopt;
  return ImageFormat{*order, *type};
}

std::array<float, 4> decodeFloat(ImageFormat f, const uint8_t* p) {
  auto out = gather<float>(f, p, 0.0f, 1.0f, [&](uint32_t raw, uint32_t packedMax) {
    return packedMax ? static_cast<float>(raw) / static_cast<float>(packedMax)
                     : channelToFloat(f.type, raw);
  });
  if (isSrgb(f.order))
    for (int i = 0; i < 3; ++i) out[i] = srgbToLinear(out[i]);
  return out;
}

std::array<int32_t, 4> decodeInt(ImageFormat f, const uint8_t* p) {
  uint32_t bytes = channelBytes(f.type);
  return gather<int32_t>(f, p, 0, 1, [&](uint32_t raw, uint32_t packedMax) {
    return packedMax ? static_cast<int32_t>(raw) : signExtend(raw, bytes);
  });
}

std::array<uint32_t, 4> decodeUint(ImageFormat f, const uint8_t* p) {
  return gather<uint32_t>(f, p, 0u, 1u, [](uint32_t raw, uint32_t) { return raw; });
}

void encodeFloat(ImageFormat f, const std::array<float, 4>& v, uint8_t* p) {
  std::array<float, 4> src = v;
  if (isSrgb(f.order))
    for (int i = 0; i < 3; ++i) src[i] = linearToSrgb(src[i]);
  if (isPacked(f.type)) {
    auto fields = packedFields(f.type);
    std::array<uint32_t, 3> c{};
    for (int i = 0; i < 3; ++i) {
      float scale = static_cast<float>((1u << fields[i].bits) - 1);
      c[i] = static_cast<uint32_t>(satRte(src[i] * scale, 0, (1u << fields[i].bits) - 1));
    }
    return pack(f.type, c, p);
  }
  const OrderInfo* o = findOrder(f.order);
  uint32_t bytes = channelBytes(f.type);
  for (size_t c = 0; c < o->channels.size(); ++c)
    storeBits(p + c * bytes, bytes, floatToChannel(f.type, src[sourceOf(o->channels[c])]));
}

namespace {
void encodeInteger(ImageFormat f, const std::array<int64_t, 4>& v, uint8_t* p) {
  const std::array<int64_t, 4>& src = v;
  if (isPacked(f.type)) {
    std::array<uint32_t, 3> c{};
    for (int i = 0; i < 3; ++i) c[i] = static_cast<uint32_t>(std::clamp<int64_t>(src[i], 0, 1023));
    return pack(f.type, c, p);
  }
  const OrderInfo* o = findOrder(f.order);
  uint32_t bytes = channelBytes(f.type);
  for (size_t c = 0; c < o->channels.size(); ++c)
    storeBits(p + c * bytes, bytes, intToChannel(f.type, src[sourceOf(o->channels[c])]));
}
}  // namespace

void encodeInt(ImageFormat f, const std::array<int32_t, 4>& v, uint8_t* p) {
  encodeInteger(f, {v[0], v[1], v[2], v[3]}, p);
}

void encodeUint(ImageFormat f, const std::array<uint32_t, 4>& v, uint8_t* p) {
  encodeInteger(f, {v[0], v[1], v[2], v[3]}, p);
}

float srgbToLinear(float c) {
  double x = c;
  double r = x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  return static_cast<float>(r);
}

float linearToSrgb(float l) {
  if (std::isnan(l)) return 0.0f;
  if (l > 1.0f) return 1.0f;
  if (l < 0.0f) return 0.0f;
  double x = l;
  double r = x < 0.0031308 ? 12.92 * x : 1.055 * std::pow(x, 1.0 / 2.4) - 0.055;
  return static_cast<float>(r);
}

uint16_t floatToHalf(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  double a = std::fabs(static_cast<double>(f));
  if (std::isnan(f)) return sign | 0x7e00 | ((bits >> 13) & 0x3ff);
  if (a >= 65520.0) return sign | 0x7c00;  // rounds to infinity (also +-inf)
  if (a < std::ldexp(1.0, -14)) {          // subnormal: units of 2^-24, exact in double
    return sign | static_cast<uint16_t>(std::nearbyint(a * std::ldexp(1.0, 24)));
  }
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): exponent e - 1
  int exp = e - 1;
  double q = std::nearbyint(std::ldexp(a, 10 - exp));  // in [1024, 2048]
  if (q == 2048.0) {
    q = 1024.0;
    ++exp;
  }
  if (exp > 15) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(((exp + 15) << 10) | (static_cast<uint32_t>(q) - 1024));
}

float halfToFloat(uint16_t h) {
  float sign = (h & 0x8000) ? -1.0f : 1.0f;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) {
    if (man == 0) return sign * std::numeric_limits<float>::infinity();
    uint32_t bits = ((h & 0x8000u) << 16) | 0x7f800000u | (man << 13);
    return std::bit_cast<float>(bits);  // NaN with the payload kept
  }
  if (exp == 0) return sign * std::ldexp(static_cast<float>(man), -24);
  return sign * std::ldexp(static_cast<float>(man | 0x400), static_cast<int>(exp) - 25);
}

}  // namespace spvsim::imagefmt
