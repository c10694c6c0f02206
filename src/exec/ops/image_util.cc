#include "src/exec/ops/image_util.h"

#include "spirv/disassembly.h"

namespace spvsim::ops::image {

using spirv::TypeKind;

const spirv::Type& imageTypeOfValue(Lowerer& lw, const spirv::Instruction& inst, spirv::Id value) {
  const spirv::Type* t = &lw.typeOfValue(value);
  if (t->opcode == spv::Op::OpTypeSampledImage) t = &lw.type(t->operands.at(0));
  if (t->opcode != spv::Op::OpTypeImage)
    lw.unsupported(
        inst, fmt::format("{} on a value that is not an image", spirv::opcodeName(inst.opcode)));
  return *t;
}

ImageType lowerImageType(Lowerer& lw, const spirv::Instruction& inst, const spirv::Type& t) {
  auto type = imageTypeOf(t);
  if (!type)
    lw.unsupported(inst, "depth, multisampled and other non-OpenCL image types (Dim " +
                             std::to_string(t.operands.size() > 1 ? t.operands[1] : 0) + ")");
  return *type;
}

spirv::AccessQualifier accessOf(const spirv::Type& t) {
  if (t.operands.size() < 8) return spirv::AccessQualifier::None;
  switch (t.operands[7]) {
    case 0:
      return spirv::AccessQualifier::ReadOnly;
    case 1:
      return spirv::AccessQualifier::WriteOnly;
    default:
      return spirv::AccessQualifier::ReadWrite;
  }
}

Texel lowerTexel(Lowerer& lw, const spirv::Instruction& inst, spirv::Id vecType, uint32_t mask) {
  const spirv::Type& v = lw.type(vecType);
  if (v.kind == TypeKind::Vector && v.count == 4) {
    const spirv::Type& e = lw.type(v.element);
    if (e.kind == TypeKind::Float && e.width == 32) return Texel::Float;
    if (e.kind == TypeKind::Float && e.width == 16) return Texel::Half;
    if (e.kind == TypeKind::Int && e.width == 32) {
      if (mask & kSignExtend) return Texel::Int;
      if (mask & kZeroExtend) return Texel::Uint;
      return Texel::AnyInt;
    }
  }
  lw.unsupported(inst,
                 lw.describeWithType(inst) + " (image texels are float4, half4, int4 or uint4)");
}

bool lowerCoordinates(Lowerer& lw, const spirv::Instruction& inst, spirv::Id coord, ImageType t) {
  const spirv::Type& c = lw.typeOfValue(coord);
  const spirv::Type& e = c.kind == TypeKind::Vector ? lw.type(c.element) : c;
  const uint32_t count = c.kind == TypeKind::Vector ? uint32_t(c.count) : 1;
  const bool ok = e.width == 32 && (e.kind == TypeKind::Int || e.kind == TypeKind::Float) &&
                  count >= coordinateCount(t);
  if (!ok)
    lw.unsupported(
        inst, fmt::format("image coordinates of type {} for {}",
                          spirv::typeName(lw.module, lw.typeIdOfValue(coord)), imageTypeName(t)));
  return e.kind == TypeKind::Float;
}

std::array<uint64_t, 3> extentOf(const ImageDesc& d) {
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return {d.width, 1, 1};
    case ImageType::Image1DArray:
      return {d.width, 1, d.arraySize};
    case ImageType::Image2D:
      return {d.width, d.height, 1};
    case ImageType::Image2DArray:
      return {d.width, d.height, d.arraySize};
    case ImageType::Image3D:
      return {d.width, d.height, d.depth};
  }
  return {1, 1, 1};
}

Pixel integerPixel(const int32_t* coords, uint32_t n, uint32_t lane, ImageType t) {
  const int32_t* c = coords + size_t(lane) * n;
  switch (t) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return {c[0], 0, 0};
    case ImageType::Image1DArray:
      return {c[0], 0, c[1]};
    case ImageType::Image2D:
      return {c[0], c[1], 0};
    default:
      return {c[0], c[1], c[2]};
  }
}

std::string describePixel(const Pixel& p, ImageType t) {
  switch (t) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return fmt::format("{}", p.x);
    case ImageType::Image1DArray:
      return fmt::format("({}, layer {})", p.x, p.z);
    case ImageType::Image2D:
      return fmt::format("({}, {})", p.x, p.y);
    case ImageType::Image2DArray:
      return fmt::format("({}, {}, layer {})", p.x, p.y, p.z);
    case ImageType::Image3D:
      return fmt::format("({}, {}, {})", p.x, p.y, p.z);
  }
  return "?";
}

std::string describeExtent(const ImageDesc& d) {
  const std::string f = imagefmt::formatName(d.format);
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return fmt::format("{} {}[{}]", imageTypeName(d.type), f, d.width);
    case ImageType::Image1DArray:
      return fmt::format("{} {}[{}] x {} layers", imageTypeName(d.type), f, d.width, d.arraySize);
    case ImageType::Image2D:
      return fmt::format("{} {}[{}x{}]", imageTypeName(d.type), f, d.width, d.height);
    case ImageType::Image2DArray:
      return fmt::format("{} {}[{}x{}] x {} layers", imageTypeName(d.type), f, d.width, d.height,
                         d.arraySize);
    case ImageType::Image3D:
      return fmt::format("{} {}[{}x{}x{}]", imageTypeName(d.type), f, d.width, d.height, d.depth);
  }
  return "image";
}

bool accessPixel(SubGroup& sg, uint32_t lane, const LaunchImage& im, const Pixel& p, uint8_t* bytes,
                 bool write, AccessError& err, uint64_t& pointer) {
  pointer = pixelPointer(im, p);
  uint8_t* host = sg.resolve(pointer, lane, im.bytesPerPixel, write, err);
  if (!host) return false;
  write ? std::memcpy(host, bytes, im.bytesPerPixel) : std::memcpy(bytes, host, im.bytesPerPixel);
  return true;
}

bool fits(Texel t, const ImageFormat& f) {
  const imagefmt::Kind k = imagefmt::kindOf(f.type);
  switch (t) {
    case Texel::Float:
    case Texel::Half:
      return k == imagefmt::Kind::Float;
    case Texel::Int:
      return k == imagefmt::Kind::SignedInt;
    case Texel::Uint:
      return k == imagefmt::Kind::UnsignedInt;
    case Texel::AnyInt:
      return k != imagefmt::Kind::Float;
  }
  return false;
}

Texel resolve(Texel t, const ImageFormat& f) {
  if (t != Texel::AnyInt) return t;
  return imagefmt::kindOf(f.type) == imagefmt::Kind::UnsignedInt ? Texel::Uint : Texel::Int;
}

std::string builtinName(Texel t, bool write) {
  const char* suffix = t == Texel::Float  ? "f"
                       : t == Texel::Half ? "h"
                       : t == Texel::Int  ? "i"
                       : t == Texel::Uint ? "ui"
                                          : "i/ui";
  return fmt::format("{}_image{}", write ? "write" : "read", suffix);
}

Value4 decode(Texel t, const ImageFormat& f, const uint8_t* pixel) {
  Value4 v;
  switch (t) {
    case Texel::Float:
    case Texel::Half:
      v.f = imagefmt::decodeFloat(f, pixel);
      break;
    case Texel::Int:
    case Texel::AnyInt: {
      auto i = imagefmt::decodeInt(f, pixel);
      for (int c = 0; c < 4; ++c) v.u[c] = uint32_t(i[c]);
      break;
    }
    case Texel::Uint:
      v.u = imagefmt::decodeUint(f, pixel);
      break;
  }
  return v;
}

Value4 border(Texel, const ImageFormat& f) {
  using namespace imagefmt;
  const bool opaque = f.order == kR || f.order == kRG || f.order == kRGB || f.order == kLuminance ||
                      f.order == kSRGB;
  Value4 v;
  v.f[3] = opaque ? 1.0f : 0.0f;
  v.u[3] = opaque ? 1u : 0u;
  return v;
}

void putResult(SubGroup& sg, const Inst& in, uint32_t lane, Texel t, const Value4& v) {
  if (t == Texel::Half) {
    uint16_t* r = sg.reg<uint16_t>(in.r) + size_t(lane) * 4;
    for (int c = 0; c < 4; ++c) r[c] = imagefmt::floatToHalf(v.f[c]);
  } else if (t == Texel::Float) {
    std::memcpy(sg.reg<float>(in.r) + size_t(lane) * 4, v.f.data(), 16);
  } else {
    std::memcpy(sg.reg<uint32_t>(in.r) + size_t(lane) * 4, v.u.data(), 16);
  }
}

}  // namespace spvsim::ops::image
