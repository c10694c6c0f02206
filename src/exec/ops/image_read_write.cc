// Sampler-less image reads and image writes: OpImageRead (read_image{f,h,i,ui} without a
// sampler, integer coordinates) and OpImageWrite (write_image{f,h,i,ui}), on every
// OpenCL image type. Pixels are converted by the OpenCL rules (src/exec/image_format.h).
//
// Undefined behaviour reported here: coordinates outside the image (`out-of-bounds`; a
// read returns 0, a write is dropped), a built-in whose type does not fit the image's
// channel type, e.g. read_imagef on UNSIGNED_INT8 (`image-misuse`; the pixel is still
// converted), writes to read_only images and image values that name no image argument
// (`image-misuse`).
#include "src/exec/ops/image_util.h"

namespace spvsim {
namespace {

using namespace ops::image;
using spv::Op;

// One lane's problems of one kind, collected over the instruction.
struct Problems {
  LaneProblems badHandle, mismatch, outside, readOnly;
  LaneMask failed;
  AccessError firstError = AccessError::Ok;
  uint64_t failedAt[kMaxSubGroupSize] = {};

  void accessFailed(uint32_t lane, AccessError e, uint64_t at) {
    if (failed.none()) firstError = e;
    failed.set(lane);
    failedAt[lane] = at;
  }
  void flush(SubGroup& sg, const Inst& in, uint32_t bytes, bool write) {
    badHandle.flush(sg, in, DiagnosticKind::ImageMisuse);
    mismatch.flush(sg, in, DiagnosticKind::ImageMisuse);
    readOnly.flush(sg, in, DiagnosticKind::ImageMisuse);
    outside.flush(sg, in, DiagnosticKind::OutOfBounds);
    if (failed.any()) sg.reportAccess(in, firstError, failed, failedAt, bytes, write);
  }
};

// The image of lane l, or nullptr after noting why not.
const LaunchImage* imageOfLane(SubGroup& sg, const Info& info, uint64_t handle, uint32_t l,
                               Problems& pr, bool write) {
  const LaunchImage* im = lookup(sg, handle);
  if (im && im->desc.type == info.type) return im;
  pr.badHandle.add(l, [&] {
    return fmt::format("{} on a value that is no {} argument of the launch (0x{:016x})",
                       builtinName(info.texel, write), imageTypeName(info.type), handle);
  });
  return nullptr;
}

void noteMismatch(const LaunchImage& im, const Info& info, uint32_t l, Problems& pr, bool write) {
  if (fits(info.texel, im.desc.format)) return;
  pr.mismatch.add(l, [&] {
    return fmt::format(
        "{} on {}, an image of {} (undefined: the built-in does not fit the "
        "channel type)",
        builtinName(info.texel, write), im.name, imagefmt::formatName(im.desc.format));
  });
}

void noteOutside(const LaunchImage& im, const Info& info, const Pixel& p, uint32_t l, Problems& pr,
                 bool write) {
  pr.outside.add(l, [&] {
    return fmt::format("{} at {} outside {}, an {} ({})", builtinName(info.texel, write),
                       describePixel(p, info.type), im.name, describeExtent(im.desc),
                       write ? "the write is dropped"
                             : "sampler-less reads need coordinates "
                               "inside the image; returning 0");
  });
}

// in: r = result, a = image, b = coordinates (n int32 per lane), aux = Info.
void imageRead(SubGroup& sg, const Inst& in) {
  const Info info = Info::unpack(in.aux);
  const uint64_t* handles = sg.reg<uint64_t>(in.a);
  const int32_t* coords = sg.reg<int32_t>(in.b);
  Problems pr;
  uint32_t bytes = 0;
  sg.forActive([&](uint32_t l) {
    putResult(sg, in, l, info.texel == Texel::Half ? Texel::Half : Texel::Uint, Value4{});
    const LaunchImage* im = imageOfLane(sg, info, handles[l], l, pr, false);
    if (!im) return;
    bytes = im->bytesPerPixel;
    noteMismatch(*im, info, l, pr, false);
    const Pixel p = integerPixel(coords, in.n, l, info.type);
    if (!inside(im->desc, p)) return noteOutside(*im, info, p, l, pr, false);
    uint8_t pixel[16];
    AccessError err;
    uint64_t at;
    if (!accessPixel(sg, l, *im, p, pixel, false, err, at)) return pr.accessFailed(l, err, at);
    const Texel t = resolve(info.texel, im->desc.format);
    putResult(sg, in, l, t, decode(t, im->desc.format, pixel));
  });
  pr.flush(sg, in, bytes, false);
}

// The texel operand of lane l as float4 (f) or the 32-bit integers (u).
Value4 texelOf(const SubGroup& sg, const Inst& in, Texel t, uint32_t l) {
  Value4 v;
  if (t == Texel::Half) {
    const uint16_t* h = sg.reg<uint16_t>(in.c) + size_t(l) * 4;
    for (int c = 0; c < 4; ++c) v.f[c] = imagefmt::halfToFloat(h[c]);
  } else if (t == Texel::Float) {
    std::memcpy(v.f.data(), sg.reg<float>(in.c) + size_t(l) * 4, 16);
  } else {
    std::memcpy(v.u.data(), sg.reg<uint32_t>(in.c) + size_t(l) * 4, 16);
  }
  return v;
}

void encode(Texel t, const ImageFormat& f, const Value4& v, uint8_t* pixel) {
  switch (t) {
    case Texel::Float:
    case Texel::Half:
      return imagefmt::encodeFloat(f, v.f, pixel);
    case Texel::Int:
      return imagefmt::encodeInt(
          f, {int32_t(v.u[0]), int32_t(v.u[1]), int32_t(v.u[2]), int32_t(v.u[3])}, pixel);
    default:
      return imagefmt::encodeUint(f, v.u, pixel);
  }
}

// in: a = image, b = coordinates (n int32 per lane), c = texel, aux = Info.
void imageWrite(SubGroup& sg, const Inst& in) {
  const Info info = Info::unpack(in.aux);
  const uint64_t* handles = sg.reg<uint64_t>(in.a);
  const int32_t* coords = sg.reg<int32_t>(in.b);
  Problems pr;
  uint32_t bytes = 0;
  sg.forActive([&](uint32_t l) {
    const LaunchImage* im = imageOfLane(sg, info, handles[l], l, pr, true);
    if (!im) return;
    bytes = im->bytesPerPixel;
    if (im->access == spirv::AccessQualifier::ReadOnly) {
      return pr.readOnly.add(l, [&] {
        return fmt::format("{} to {}, a read_only image (the write is dropped)",
                           builtinName(info.texel, true), im->name);
      });
    }
    noteMismatch(*im, info, l, pr, true);
    const Pixel p = integerPixel(coords, in.n, l, info.type);
    if (!inside(im->desc, p)) return noteOutside(*im, info, p, l, pr, true);
    uint8_t pixel[16];
    const Texel t = resolve(info.texel, im->desc.format);
    encode(t, im->desc.format, texelOf(sg, in, info.texel, l), pixel);
    AccessError err;
    uint64_t at;
    if (!accessPixel(sg, l, *im, p, pixel, true, err, at)) pr.accessFailed(l, err, at);
  });
  pr.flush(sg, in, bytes, true);
}

uint32_t imageOperandMask(const spirv::Instruction& inst, size_t at) {
  return inst.operands.size() > at ? inst.operands[at] : 0;
}

void lowerRead(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id image = Lowerer::operand(inst, 0), coord = Lowerer::operand(inst, 1);
  const spirv::Type& it = imageTypeOfValue(lw, inst, image);
  Info info;
  info.type = lowerImageType(lw, inst, it);
  info.access = accessOf(it);
  info.texel = lowerTexel(lw, inst, inst.resultType, imageOperandMask(inst, 2));
  if (lowerCoordinates(lw, inst, coord, info.type))
    lw.unsupported(inst, "OpImageRead with floating-point coordinates");
  const uint32_t a = lw.reg(image), b = lw.reg(coord), n = lw.shapeOfValue(coord).stride;
  Inst& in = lw.emit(inst, &imageRead);
  in.a = a;
  in.b = b;
  in.n = n;
  in.aux = info.pack();
}

void lowerWrite(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id image = Lowerer::operand(inst, 0), coord = Lowerer::operand(inst, 1),
                  texel = Lowerer::operand(inst, 2);
  const spirv::Type& it = imageTypeOfValue(lw, inst, image);
  Info info;
  info.type = lowerImageType(lw, inst, it);
  info.access = accessOf(it);
  info.texel = lowerTexel(lw, inst, lw.typeIdOfValue(texel), imageOperandMask(inst, 3));
  if (lowerCoordinates(lw, inst, coord, info.type))
    lw.unsupported(inst, "OpImageWrite with floating-point coordinates");
  const uint32_t a = lw.reg(image), b = lw.reg(coord), c = lw.reg(texel),
                 n = lw.shapeOfValue(coord).stride;
  Inst& in = lw.emit(inst, &imageWrite);
  in.a = a;
  in.b = b;
  in.c = c;
  in.n = n;
  in.aux = info.pack();
}

}  // namespace

void registerImageReadWriteOps(OpTable& t) {
  t.core[uint32_t(Op::OpImageRead)] = &lowerRead;
  t.core[uint32_t(Op::OpImageWrite)] = &lowerWrite;
}

}  // namespace spvsim
