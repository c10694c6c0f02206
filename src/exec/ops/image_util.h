// Shared by the image op families (image_read_write.cc, image_sample.cc, image_query.cc,
// intel_image_block_io.cc): what lowering records about an image instruction, image
// handles to the launch's image table, pixel addresses in the image's global region, and
// the texel values read_image*/write_image* exchange with registers.
#pragma once

#include <fmt/core.h>

#include <array>
#include <cstring>
#include <string>

#include "src/exec/image_format.h"
#include "src/exec/image_table.h"
#include "src/exec/lowering.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops::image {

// The value a read_image*/write_image* built-in exchanges: float4 (f), half4 (h),
// int4 (i, SignExtend), uint4 (u, ZeroExtend), or an integer vector whose signedness
// the module does not say (SPIR-V before 1.4): taken from the image's format.
enum class Texel : uint8_t { Float, Half, Int, Uint, AnyInt };

// Inst::aux of image instructions.
struct Info {
  Texel texel = Texel::Float;
  ImageType type = ImageType::Image2D;  // from the SPIR-V image type
  bool floatCoords = false;
  spirv::AccessQualifier access = spirv::AccessQualifier::None;

  uint32_t pack() const {
    return uint32_t(texel) | uint32_t(type) << 4 | uint32_t(floatCoords) << 8 |
           uint32_t(access) << 9;
  }
  static Info unpack(uint32_t v) {
    return {Texel(v & 15), ImageType((v >> 4) & 15), ((v >> 8) & 1) != 0,
            spirv::AccessQualifier((v >> 9) & 3)};
  }
};

// ImageOperands bits the OpenCL translators use. Nontemporal (SPIR-V 1.6) is a hint
// that the texel is not reused soon: it takes no operand and changes no result.
inline constexpr uint32_t kLodOperand = 0x2, kSignExtend = 0x1000, kZeroExtend = 0x2000,
                          kNontemporal = 0x4000;

// --- lowering ---------------------------------------------------------------------------

// The OpTypeImage behind an image or sampled-image value; unsupported otherwise.
const spirv::Type& imageTypeOfValue(Lowerer& lw, const spirv::Instruction& inst, spirv::Id value);
// The ImageType of an image type; unsupported for depth, multisampled, cube... images.
ImageType lowerImageType(Lowerer& lw, const spirv::Instruction& inst, const spirv::Type& t);
// The texel kind of a 4-component result or texel type and the image operands' mask.
Texel lowerTexel(Lowerer& lw, const spirv::Instruction& inst, spirv::Id vecType, uint32_t mask);
// Whether a coordinate value is floating point (32-bit) or integer (32-bit); checks the
// component count the image type needs.
bool lowerCoordinates(Lowerer& lw, const spirv::Instruction& inst, spirv::Id coord, ImageType t);
// The access qualifier of an image type (OpenCL: always present).
spirv::AccessQualifier accessOf(const spirv::Type& imageType);

// --- execution ---------------------------------------------------------------------------

// The launch image a handle names, or nullptr (an uninitialised or forged value).
inline const LaunchImage* lookup(const SubGroup& sg, uint64_t handle) {
  if (!imagehandle::isImage(handle)) return nullptr;
  const uint32_t i = imagehandle::index(handle);
  const LaunchContext& ctx = *sg.wg->launch;
  return i < ctx.imageCount ? &ctx.images[i] : nullptr;
}

// Integer coordinates (x, y, z) as the image's storage sees them: z is the layer of
// arrays (1-D arrays: y is 0) and the depth of 3-D images.
struct Pixel {
  int64_t x = 0, y = 0, z = 0;
};

// The image's extent along each of (x, y, z) in Pixel terms.
std::array<uint64_t, 3> extentOf(const ImageDesc& d);
// Whether p lies inside the image.
inline bool inside(const ImageDesc& d, const Pixel& p) {
  const auto e = extentOf(d);
  return p.x >= 0 && p.y >= 0 && p.z >= 0 && uint64_t(p.x) < e[0] && uint64_t(p.y) < e[1] &&
         uint64_t(p.z) < e[2];
}
// The kernel pointer of pixel p (inside the image) in the image's region.
inline uint64_t pixelPointer(const LaunchImage& im, const Pixel& p) {
  const ImageDesc& d = im.desc;
  return makePointer(Space::Global, im.region,
                     int64_t(p.z * d.slicePitch + p.y * d.rowPitch + p.x * im.bytesPerPixel));
}

// Coordinates of lane `lane` from an integer coordinate register (n elements per lane),
// mapped to (x, y, z) by the image type (1-D arrays: (x, layer) -> x, z).
Pixel integerPixel(const int32_t* coords, uint32_t n, uint32_t lane, ImageType t);
// "(3, 4)" for messages, in the kernel's coordinate order.
std::string describePixel(const Pixel& p, ImageType t);
std::string describeExtent(const ImageDesc& d);

// A per-instruction collector of lanes with one kind of problem: one diagnostic (the
// first lane's message) for all of them.
struct LaneProblems {
  LaneMask lanes;
  std::string message;
  template <class F>
  void add(uint32_t lane, F&& describe) {
    if (lanes.none()) message = describe();
    lanes.set(lane);
  }
  void flush(SubGroup& sg, const Inst& in, DiagnosticKind kind) {
    if (lanes.any()) sg.report(in, kind, message, lanes);
  }
};

// Reads (or writes) the bytesPerPixel bytes of pixel p through the image's region, as a
// buffer access (bounds, read-only memory, observers). False after an access error,
// which the caller reports with reportAccess.
bool accessPixel(SubGroup& sg, uint32_t lane, const LaunchImage& im, const Pixel& p, uint8_t* bytes,
                 bool write, AccessError& err, uint64_t& pointer);

// The four values of a read, as read_imagef (f) or read_imagei/ui (u, the bits).
struct Value4 {
  std::array<float, 4> f{};
  std::array<uint32_t, 4> u{};
};

// Whether a texel kind fits the format's channel type (read_imagef/h with normalized and
// float formats, read_imagei with signed, read_imageui with unsigned ones).
bool fits(Texel t, const ImageFormat& f);
// Texel resolved against the format (AnyInt -> Int or Uint).
Texel resolve(Texel t, const ImageFormat& f);
// "read_imagef", "write_imageui", ...
std::string builtinName(Texel t, bool write);
// The decoded pixel as texel kind t.
Value4 decode(Texel t, const ImageFormat& f, const uint8_t* pixel);
// The border colour (OpenCL: (0,0,0,0) for orders with alpha, (0,0,0,1) without).
Value4 border(Texel t, const ImageFormat& f);
// Stores v into the result register as t (float4, half4, int4/uint4).
void putResult(SubGroup& sg, const Inst& in, uint32_t lane, Texel t, const Value4& v);

// The first active lane's value of a per-lane register (`stride` values of T per lane),
// after reporting the lanes whose value differs (`builtin`'s `what` must be uniform).
template <class T>
T uniformValue(SubGroup& sg, const Inst& in, const T* v, size_t stride, const char* builtin,
               const char* what) {
  const uint32_t first = sg.mask.first();
  LaneMask differ;
  sg.forActive([&](uint32_t l) {
    if (std::memcmp(v + l * stride, v + first * stride, sizeof(T) * stride) != 0) differ.set(l);
  });
  if (differ.any())
    sg.report(in, DiagnosticKind::NonUniformArgument,
              fmt::format("{} {} must be the same in every lane of the sub-group, but lane {}'s "
                          "differs from lane {}'s; using lane {}'s",
                          builtin, what, differ.first(), first, first),
              differ);
  return v[first * stride];
}

}  // namespace spvsim::ops::image
