// Reads through a sampler: OpSampledImage (an image with a sampler) and
// OpImageSampleExplicitLod at Lod 0 (read_image{f,h,i,ui}(image, sampler, coord) with
// float or integer coordinates), on every OpenCL image type. Addressing and filtering
// follow the OpenCL API spec's "Image Addressing and Filtering" formulas exactly (in
// float): nearest i = address_mode(floor(u)); linear i0 = address_mode(floor(u - 0.5)),
// i1 = i0 + 1, a = frac(u - 0.5), with their REPEAT and MIRRORED_REPEAT forms; taps
// outside the image take the border colour; array layers are clamp(rint(layer), 0,
// layers - 1). sRGB texels are converted to linear before filtering.
//
// Undefined behaviour reported (`image-misuse`, then a defined fallback): REPEAT or
// MIRRORED_REPEAT with unnormalized coordinates (CLAMP_TO_EDGE is used), integer
// coordinates with a sampler that is not unnormalized/nearest/NONE-CLAMP-CLAMP_TO_EDGE,
// LINEAR filtering with read_imagei/ui (nearest is used), a built-in that does not fit
// the channel type, and values that are no image or sampler; CLK_ADDRESS_NONE with a
// coordinate outside the image (`out-of-bounds`; the formulas go on with the border
// colour).
#include <cmath>

#include "src/exec/ops/image_util.h"

namespace spvsim {
namespace {

using namespace ops::image;
using namespace samplerbits;
using spv::Op;

constexpr uint8_t kBadSampler = 0xff;

// in: r = result, a = image, b = sampler.
void sampledImage(SubGroup& sg, const Inst& in) {
  const uint64_t* images = sg.reg<uint64_t>(in.a);
  const uint64_t* samplers = sg.reg<uint64_t>(in.b);
  uint64_t* out = sg.reg<uint64_t>(in.r);
  sg.forActive([&](uint32_t l) {
    const uint8_t s = valid(samplers[l]) ? uint8_t(samplers[l]) : kBadSampler;
    out[l] = imagehandle::sampled(images[l], s);
  });
}

// One axis of a lookup: the taps (i0, i1) and the weight of i1 (linear), or i0 only.
struct Axis {
  int64_t i0 = 0, i1 = 0;
  float a = 0.0f;
};

// floor() as an index; NaN and huge values land far outside any image.
int64_t indexOf(float f) {
  if (std::isnan(f)) return -(int64_t(1) << 40);
  return int64_t(std::clamp(double(std::floor(f)), -0x1p40, 0x1p40));
}

float frac(float x) { return x - std::floor(x); }

int64_t addressMode(Addressing m, int64_t i, int64_t w) {
  if (m == ClampToEdge) return std::clamp<int64_t>(i, 0, w - 1);
  if (m == Clamp) return std::clamp<int64_t>(i, -1, w);
  return i;  // None
}

Axis nearest(float s, int64_t w, Addressing m, bool normalized) {
  const float wt = float(w);
  Axis ax;
  if (m == Repeat) {
    const float u = (s - std::floor(s)) * wt;
    ax.i0 = indexOf(u);
    if (ax.i0 > w - 1) ax.i0 -= w;
  } else if (m == Mirrored) {
    const float sp = std::fabs(s - 2.0f * std::rint(0.5f * s));
    ax.i0 = std::min(indexOf(sp * wt), w - 1);
  } else {
    const float u = normalized ? s * wt : s;
    ax.i0 = addressMode(m, indexOf(u), w);
  }
  return ax;
}

Axis linearAxis(float s, int64_t w, Addressing m, bool normalized) {
  const float wt = float(w);
  Axis ax;
  if (m == Repeat) {
    const float u = (s - std::floor(s)) * wt;
    ax.i0 = indexOf(u - 0.5f);
    ax.i1 = ax.i0 + 1;
    if (ax.i0 < 0) ax.i0 += w;
    if (ax.i1 > w - 1) ax.i1 -= w;
    ax.a = frac(u - 0.5f);
  } else if (m == Mirrored) {
    const float sp = std::fabs(s - 2.0f * std::rint(0.5f * s));
    const float u = sp * wt;
    ax.i0 = std::max<int64_t>(indexOf(u - 0.5f), 0);
    ax.i1 = std::min<int64_t>(indexOf(u - 0.5f) + 1, w - 1);
    ax.a = frac(u - 0.5f);
  } else {
    const float u = normalized ? s * wt : s;
    ax.i0 = addressMode(m, indexOf(u - 0.5f), w);
    ax.i1 = addressMode(m, indexOf(u - 0.5f) + 1, w);
    ax.a = frac(u - 0.5f);
  }
  return ax;
}

// Spatial axes of an image type (arrays: the layer is not one).
uint32_t spatialAxes(ImageType t) {
  return t == ImageType::Image3D                                     ? 3
         : (t == ImageType::Image2D || t == ImageType::Image2DArray) ? 2
                                                                     : 1;
}

// What the lane's sampler does once the undefined combinations are reported.
struct Sampling {
  Addressing mode = None;
  bool normalized = false;
  bool linear = false;
};

struct Problems {
  LaneProblems badValue, mismatch, misuse, outside;
  LaneMask failed;
  AccessError firstError = AccessError::Ok;
  uint64_t failedAt[kMaxSubGroupSize] = {};
};

Sampling effectiveSampling(uint8_t s, const Info& info, Texel t, uint32_t l, Problems& pr) {
  Sampling out{addressing(s), normalized(s), linear(s)};
  std::string why;
  if (!info.floatCoords && (out.normalized || out.linear || out.mode >= Repeat)) {
    why =
        "integer coordinates need CLK_NORMALIZED_COORDS_FALSE, CLK_FILTER_NEAREST and "
        "CLK_ADDRESS_NONE, CLAMP or CLAMP_TO_EDGE";
    out = {out.mode >= Repeat ? ClampToEdge : out.mode, false, false};
  }
  if (!out.normalized && out.mode >= Repeat) {
    why =
        "CLK_ADDRESS_REPEAT and CLK_ADDRESS_MIRRORED_REPEAT need normalized coordinates; "
        "using CLAMP_TO_EDGE";
    out.mode = ClampToEdge;
  }
  if (out.linear && t != Texel::Float && t != Texel::Half) {
    why = "read_imagei and read_imageui need CLK_FILTER_NEAREST; using nearest";
    out.linear = false;
  }
  if (!why.empty())
    pr.misuse.add(l, [&] {
      return fmt::format("{} with sampler {}: {} (undefined behaviour)",
                         builtinName(info.texel, false), describe(s), why);
    });
  return out;
}

// The lane's coordinates as floats (x, y, z; z is the layer of arrays).
std::array<float, 3> coordinatesOf(const SubGroup& sg, const Inst& in, const Info& info,
                                   uint32_t l) {
  std::array<float, 3> c{};
  const uint32_t n = coordinateCount(info.type);
  for (uint32_t k = 0; k < n; ++k)
    c[k] = info.floatCoords ? sg.reg<float>(in.b)[size_t(l) * in.n + k]
                            : float(sg.reg<int32_t>(in.b)[size_t(l) * in.n + k]);
  if (info.type == ImageType::Image1DArray) c = {c[0], 0.0f, c[1]};
  return c;
}

int64_t layerOf(float c, uint64_t layers, const Info& info, const int32_t* ints) {
  if (!info.floatCoords) return std::clamp<int64_t>(*ints, 0, int64_t(layers) - 1);
  if (std::isnan(c)) return 0;
  return int64_t(std::clamp(double(std::rint(c)), 0.0, double(layers - 1)));
}

// Reads one tap (border colour outside the image).
Value4 tap(SubGroup& sg, uint32_t l, const LaunchImage& im, Texel t, const Pixel& p, Problems& pr) {
  if (!inside(im.desc, p)) return border(t, im.desc.format);
  uint8_t pixel[16];
  AccessError err;
  uint64_t at;
  if (!accessPixel(sg, l, im, p, pixel, false, err, at)) {
    if (pr.failed.none()) pr.firstError = err;
    pr.failed.set(l);
    pr.failedAt[l] = at;
    return Value4{};
  }
  return decode(t, im.desc.format, pixel);
}

// CLK_ADDRESS_NONE: the unnormalized coordinate must lie in [0, size) on each axis.
void checkNone(const LaunchImage& im, const Info& info, const std::array<float, 3>& c,
               const Sampling& s, uint32_t l, Problems& pr) {
  if (s.mode != None) return;
  const auto e = extentOf(im.desc);
  for (uint32_t d = 0; d < spatialAxes(info.type); ++d) {
    const float u = s.normalized ? c[d] * float(e[d]) : c[d];
    if (u >= 0.0f && u < float(e[d])) continue;
    return pr.outside.add(l, [&] {
      return fmt::format(
          "{} with CLK_ADDRESS_NONE at coordinate {} = {} outside {}, an {} "
          "(undefined behaviour; using the border colour)",
          builtinName(info.texel, false), "xyz"[d], c[d], im.name, describeExtent(im.desc));
    });
  }
}

Value4 sampleLane(SubGroup& sg, const Inst& in, const Info& info, const LaunchImage& im, Texel t,
                  const Sampling& s, uint32_t l, Problems& pr) {
  const auto c = coordinatesOf(sg, in, info, l);
  checkNone(im, info, c, s, l, pr);
  const auto e = extentOf(im.desc);
  const uint32_t axes = spatialAxes(info.type);
  std::array<Axis, 3> ax{};
  for (uint32_t d = 0; d < axes; ++d) {
    if (!info.floatCoords) {  // integer coordinates: address_mode(coordinate)
      const int32_t i = sg.reg<int32_t>(in.b)[size_t(l) * in.n + d];
      ax[d].i0 = addressMode(s.mode, i, int64_t(e[d]));
    } else {
      ax[d] = s.linear ? linearAxis(c[d], int64_t(e[d]), s.mode, s.normalized)
                       : nearest(c[d], int64_t(e[d]), s.mode, s.normalized);
    }
  }
  if (isArrayed(info.type)) {
    const int32_t* ints = sg.reg<int32_t>(in.b) + size_t(l) * in.n + (axes == 1 ? 1 : 2);
    ax[2].i0 = layerOf(c[2], e[2], info, ints);
  }
  if (!s.linear) return tap(sg, l, im, t, {ax[0].i0, ax[1].i0, ax[2].i0}, pr);
  // Corners in the spec's order (x fastest), weights (1 - a) or a per axis.
  Value4 sum;
  const uint32_t corners = 1u << axes;
  for (uint32_t k = 0; k < corners; ++k) {
    Pixel p{ax[0].i0, ax[1].i0, ax[2].i0};
    float w = 1.0f;
    for (uint32_t d = 0; d < axes; ++d) {
      const bool hi = (k >> d) & 1;
      (d == 0 ? p.x : d == 1 ? p.y : p.z) = hi ? ax[d].i1 : ax[d].i0;
      w = d == 0 ? (hi ? ax[d].a : 1.0f - ax[d].a) : w * (hi ? ax[d].a : 1.0f - ax[d].a);
    }
    const Value4 v = tap(sg, l, im, t, p, pr);
    for (int ch = 0; ch < 4; ++ch) sum.f[ch] = k == 0 ? w * v.f[ch] : sum.f[ch] + w * v.f[ch];
  }
  return sum;
}

// in: r = result, a = sampled image, b = coordinates (n 32-bit per lane), aux = Info.
void imageSample(SubGroup& sg, const Inst& in) {
  const Info info = Info::unpack(in.aux);
  const uint64_t* handles = sg.reg<uint64_t>(in.a);
  Problems pr;
  uint32_t bytes = 0;
  sg.forActive([&](uint32_t l) {
    putResult(sg, in, l, info.texel == Texel::Half ? Texel::Half : Texel::Uint, Value4{});
    const LaunchImage* im = lookup(sg, handles[l]);
    const uint8_t s = imagehandle::samplerOf(handles[l]);
    if (!im || im->desc.type != info.type || s == kBadSampler ||
        !(handles[l] & imagehandle::kHasSampler)) {
      return pr.badValue.add(l, [&] {
        return fmt::format(
            "{} with a value that is no {} argument and sampler of the launch "
            "(0x{:016x})",
            builtinName(info.texel, false), imageTypeName(info.type), handles[l]);
      });
    }
    bytes = im->bytesPerPixel;
    if (!fits(info.texel, im->desc.format))
      pr.mismatch.add(l, [&] {
        return fmt::format(
            "{} on {}, an image of {} (undefined: the built-in does not fit the "
            "channel type)",
            builtinName(info.texel, false), im->name, imagefmt::formatName(im->desc.format));
      });
    const Texel t = resolve(info.texel, im->desc.format);
    const Sampling sampling = effectiveSampling(s, info, t, l, pr);
    putResult(sg, in, l, t, sampleLane(sg, in, info, *im, t, sampling, l, pr));
  });
  pr.badValue.flush(sg, in, DiagnosticKind::ImageMisuse);
  pr.mismatch.flush(sg, in, DiagnosticKind::ImageMisuse);
  pr.misuse.flush(sg, in, DiagnosticKind::ImageMisuse);
  pr.outside.flush(sg, in, DiagnosticKind::OutOfBounds);
  if (pr.failed.any()) sg.reportAccess(in, pr.firstError, pr.failed, pr.failedAt, bytes, false);
}

void lowerSampledImage(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t a = lw.reg(Lowerer::operand(inst, 0)), b = lw.reg(Lowerer::operand(inst, 1));
  Inst& in = lw.emit(inst, &sampledImage);
  in.a = a;
  in.b = b;
}

// Image operands: Lod (a constant 0: spvsim has no mipmaps), SignExtend, ZeroExtend,
// Nontemporal (a hint).
uint32_t checkOperands(Lowerer& lw, const spirv::Instruction& inst) {
  const uint32_t mask = inst.operands.size() > 2 ? inst.operands[2] : 0;
  if (mask & ~(kLodOperand | kSignExtend | kZeroExtend | kNontemporal))
    lw.unsupported(inst, fmt::format("image operands {:#x} (only Lod 0, SignExtend, "
                                     "ZeroExtend and Nontemporal)",
                                     mask));
  if (mask & kLodOperand) {
    const spirv::Id lod = Lowerer::operand(inst, 3);
    if (!lw.isConstant(lod) || lw.constantValue(lod) != 0)
      lw.unsupported(inst, "a level of detail other than 0 (mipmapped images)");
  }
  return mask;
}

void lowerSample(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id image = Lowerer::operand(inst, 0), coord = Lowerer::operand(inst, 1);
  const spirv::Type& it = imageTypeOfValue(lw, inst, image);
  Info info;
  info.type = lowerImageType(lw, inst, it);
  info.access = accessOf(it);
  info.texel = lowerTexel(lw, inst, inst.resultType, checkOperands(lw, inst));
  info.floatCoords = lowerCoordinates(lw, inst, coord, info.type);
  const uint32_t a = lw.reg(image), b = lw.reg(coord), n = lw.shapeOfValue(coord).stride;
  Inst& in = lw.emit(inst, &imageSample);
  in.a = a;
  in.b = b;
  in.n = n;
  in.aux = info.pack();
}

}  // namespace

void registerImageSampleOps(OpTable& t) {
  t.core[uint32_t(Op::OpSampledImage)] = &lowerSampledImage;
  t.core[uint32_t(Op::OpImageSampleExplicitLod)] = &lowerSample;
}

}  // namespace spvsim
