// cl_intel_media_block_io (SPV_INTEL_media_block_io OpSubgroupImageMediaBlockReadINTEL /
// OpSubgroupImageMediaBlockWriteINTEL) on image2d_t, raw bytes without format
// conversion. The extension's model: a region of `width` E-byte elements (E: 1 _uc, 2
// _us, 4 _ui) by `height` rows at (byte x, row y), taken in row-major order, is
// re-organised as rows of S elements (S the sub-group size): component k of lane l is
// region element i = k * S + l, at row i / width, element column i % width.
//
// Defined by the spec: region elements past the N * S a lane's vector holds are dropped;
// components past width * height are undefined on reads (reported as
// `uninitialized-read`, reading 0) and not written on writes. Reads outside the image
// replicate the nearest edge texel when the image's texels are at most E bytes (per
// texel: a byte image read by _ui gives B0B0B0B0 left of the edge); with larger texels
// they are undefined (`out-of-bounds`, reading 0). Writes outside the image are dropped.
//
// Undefined behaviour reported: a sub-group that reaches the call in part
// (`non-uniform-collective`), an image, coordinate, width or height that differs across
// lanes (`non-uniform-argument`; the first active lane's is used), a byte x or a byte
// width that is not a multiple of 4 (`misaligned-block-io`), a width over 32 bytes, a
// height over the spec's limit for the width (64 rows for 4 bytes, 32 for 8, 16 for 12
// and 16, 8 for 20 to 32) or a width or height below 1, images whose texels are larger
// than 4 bytes or whose rows are not a multiple of 4 bytes, writes to read_only images,
// writes through a function whose elements are smaller than the image's texels, and
// values that are no image (`image-misuse`).
#include "src/exec/ops/group_util.h"
#include "src/exec/ops/image_util.h"

namespace spvsim {
namespace {

using namespace ops::image;
using spv::Op;

const char* builtinName(bool write) {
  return write ? "intel_sub_group_media_block_write" : "intel_sub_group_media_block_read";
}

// Inst fields: a = image, b = coordinate (int2), c = width, aux = height (int
// registers), r = result (reads) or data (writes), n = elements of T per lane in that
// register, aux2 = components | coordinate bytes per lane << 8.
struct Block {
  const LaunchImage* image = nullptr;
  int64_t x = 0, y = 0;           // bytes, rows
  int64_t width = 0, height = 0;  // elements, rows
};

// The spec's table of the largest height for a byte width (0: no height is allowed).
int64_t maxHeight(int64_t widthBytes) {
  if (widthBytes <= 0 || widthBytes > 32) return 0;
  if (widthBytes <= 4) return 64;
  if (widthBytes <= 8) return 32;
  if (widthBytes <= 16) return 16;
  return 8;
}

void checkShape(SubGroup& sg, const Inst& in, const Block& b, uint32_t e, bool write) {
  const int64_t widthBytes = b.width * e;
  if (b.x % 4 != 0 || widthBytes % 4 != 0)
    sg.report(in, DiagnosticKind::MisalignedBlockIo,
              fmt::format("{} at byte x {} with a width of {} bytes, but the byte x-offset and "
                          "the width must be multiples of 4 bytes",
                          builtinName(write), b.x, widthBytes),
              sg.mask);
  if (b.height < 1 || b.height > maxHeight(widthBytes))
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} of a {}-byte by {}-row region, outside the extension's limits "
                          "(widths of 1 to 32 bytes; at most 64 rows for 4 bytes, 32 for 8, "
                          "16 for 12 and 16, 8 for 20 to 32)",
                          builtinName(write), widthBytes, b.height),
              sg.mask);
}

void checkImage(SubGroup& sg, const Inst& in, const LaunchImage& im, uint32_t e, bool write) {
  const uint64_t rowBytes = im.desc.width * im.bytesPerPixel;
  std::string problem;
  if (im.bytesPerPixel > 4)
    problem =
        fmt::format("{}-byte texels (undefined for texels of more than 4 bytes)", im.bytesPerPixel);
  else if (rowBytes % 4 != 0)
    problem = fmt::format(
        "{}-byte rows (the width times the texel size must be a multiple "
        "of 4)",
        rowBytes);
  else if (write && im.bytesPerPixel > e)
    problem = fmt::format("{}-byte texels (the _{} writes are for texels of at most {} bytes)",
                          im.bytesPerPixel, e == 1 ? "uc" : "us", e);
  if (!problem.empty())
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} on {}, an image of {} with {}", builtinName(write), im.name,
                          imagefmt::formatName(im.desc.format), problem),
              sg.mask);
}

// The block's image and shape, after the checks every lane shares; image is null when
// the call must not touch memory.
Block blockOf(SubGroup& sg, const Inst& in, uint32_t e, bool write) {
  ops::checkCollective(sg, in, builtinName(write));
  Block b;
  const uint64_t handle =
      uniformValue(sg, in, sg.reg<uint64_t>(in.a), 1, builtinName(write), "image");
  const uint32_t coordStride = (in.aux2 >> 8) / 4;
  const int32_t* coords = sg.reg<int32_t>(in.b);
  uniformValue(sg, in, coords, coordStride, builtinName(write), "coordinate");
  const uint32_t first = sg.mask.first();
  b.x = coords[size_t(first) * coordStride];
  b.y = coords[size_t(first) * coordStride + 1];
  b.width = uniformValue(sg, in, sg.reg<int32_t>(in.c), 1, builtinName(write), "width");
  b.height = uniformValue(sg, in, sg.reg<int32_t>(in.aux), 1, builtinName(write), "height");
  checkShape(sg, in, b, e, write);
  const LaunchImage* im = lookup(sg, handle);
  if (!im || im->desc.type != ImageType::Image2D) {
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} on a value that is no image2d_t argument (0x{:016x})",
                          builtinName(write), handle),
              sg.mask);
    return b;
  }
  checkImage(sg, in, *im, e, write);
  if (write && im->access == spirv::AccessQualifier::ReadOnly) {
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} to {}, a read_only image (the write is dropped)", builtinName(write),
                          im->name),
              sg.mask);
    return b;
  }
  b.image = im;
  return b;
}

// Memory access through the image's region, with access errors collected per lane.
struct Accessor {
  SubGroup& sg;
  const LaunchImage& im;
  bool write;
  LaneMask failed;
  AccessError firstError = AccessError::Ok;
  uint64_t failedAt[kMaxSubGroupSize] = {};

  // Copies `bytes` bytes between v and byte (x, y) of the image, which must be inside.
  void copy(uint32_t lane, int64_t x, int64_t y, uint8_t* v, uint32_t bytes) {
    const uint64_t at =
        makePointer(Space::Global, im.region, int64_t(uint64_t(y) * im.desc.rowPitch) + x);
    AccessError err;
    uint8_t* mem = sg.resolve(at, lane, bytes, write, err);
    if (!mem) {
      if (failed.none()) firstError = err;
      failed.set(lane);
      failedAt[lane] = at;
      return;
    }
    write ? std::memcpy(mem, v, bytes) : std::memcpy(v, mem, bytes);
  }
  void flush(const Inst& in, uint32_t bytes) {
    if (failed.any()) sg.reportAccess(in, firstError, failed, failedAt, bytes, write);
  }
};

int64_t rowBytesOf(const LaunchImage& im) { return int64_t(im.desc.width * im.bytesPerPixel); }

bool insideImage(const LaunchImage& im, int64_t x, int64_t y, int64_t bytes) {
  return x >= 0 && x + bytes <= rowBytesOf(im) && y >= 0 && y < int64_t(im.desc.height);
}

// An element of e bytes at (x, y) partly or wholly outside the image, read by
// replicating the nearest edge texel into each texel of the element (texels of at most
// e bytes).
void readClamped(Accessor& acc, uint32_t lane, int64_t x, int64_t y, uint8_t* v, uint32_t e) {
  const int64_t p = acc.im.bytesPerPixel, texels = int64_t(acc.im.desc.width);
  const int64_t row = std::clamp<int64_t>(y, 0, int64_t(acc.im.desc.height) - 1);
  for (int64_t j = 0; j < e / p; ++j) {
    const int64_t bx = x + j * p;
    const int64_t tx = bx < 0 ? 0 : std::min(bx / p, texels - 1);
    acc.copy(lane, tx * p, row, v + j * p, uint32_t(p));
  }
}

// The bytes of an element of e bytes at (x, y) that lie inside the image.
void writeInside(Accessor& acc, uint32_t lane, int64_t x, int64_t y, uint8_t* v, uint32_t e) {
  for (uint32_t j = 0; j < e; ++j)
    if (insideImage(acc.im, x + j, y, 1)) acc.copy(lane, x + j, y, v + j, 1);
}

template <class T, bool Write>
void mediaBlock(SubGroup& sg, const Inst& in) {
  constexpr uint32_t e = sizeof(T);
  const uint32_t components = in.aux2 & 0xff;
  T* data = sg.reg<T>(in.r);
  const Block b = blockOf(sg, in, e, Write);
  if (!b.image) {
    if (!Write)
      sg.forActive([&](uint32_t l) { std::fill_n(data + size_t(l) * in.n, components, T(0)); });
    return;
  }
  const LaunchImage& im = *b.image;
  const bool clampDefined = im.bytesPerPixel <= e;
  const int64_t area = b.width > 0 && b.height > 0 ? b.width * b.height : 0;
  Accessor acc{sg, im, Write};
  LaneProblems undefinedTail, outside;
  sg.forActive([&](uint32_t l) {
    for (uint32_t k = 0; k < components; ++k) {
      T* v = data + size_t(l) * in.n + k;
      const int64_t i = int64_t(k) * sg.width + l;
      if (i >= area) {
        if (Write) continue;  // not part of the written region
        undefinedTail.add(l, [&] {
          return fmt::format(
              "{} component {} of lane {} is region element {}, past the {}x{} "
              "region's {} elements: its value is undefined (reading 0)",
              builtinName(Write), k, l, i, b.width, b.height, area);
        });
        *v = T(0);
        continue;
      }
      const int64_t x = b.x + (i % b.width) * e, y = b.y + i / b.width;
      uint8_t* bytes = reinterpret_cast<uint8_t*>(v);
      if (insideImage(im, x, y, e)) {
        acc.copy(l, x, y, bytes, e);
      } else if (Write) {
        writeInside(acc, l, x, y, bytes, e);
      } else if (clampDefined) {
        readClamped(acc, l, x, y, bytes, e);
      } else {
        outside.add(l, [&] {
          return fmt::format(
              "{} component {} of lane {} at byte ({}, {}) outside {}, an {} "
              "with {}-byte texels: undefined for texels larger than the "
              "element (reading 0)",
              builtinName(Write), k, l, x, y, im.name, describeExtent(im.desc), im.bytesPerPixel);
        });
        *v = T(0);
      }
    }
  });
  undefinedTail.flush(sg, in, DiagnosticKind::UninitializedRead);
  outside.flush(sg, in, DiagnosticKind::OutOfBounds);
  acc.flush(in, e);
}

template <class T>
struct MediaBlockRead {
  static void run(SubGroup& sg, const Inst& in) { mediaBlock<T, false>(sg, in); }
};

template <class T>
struct MediaBlockWrite {
  static void run(SubGroup& sg, const Inst& in) { mediaBlock<T, true>(sg, in); }
};

void requireInt32(Lowerer& lw, const spirv::Instruction& inst, spirv::Id v, const char* what) {
  const Shape s = lw.shapeOfValue(v);
  if (!s.isInt() || s.bits != 32 || s.components != 1)
    lw.unsupported(inst, fmt::format("a media block {} that is not a 32-bit integer", what));
}

// Read: Image, Coordinate, Width, Height; write: the same, then Data.
template <bool Write>
void lowerMediaBlock(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id image = Lowerer::operand(inst, 0), coord = Lowerer::operand(inst, 1);
  const spirv::Id width = Lowerer::operand(inst, 2), height = Lowerer::operand(inst, 3);
  const spirv::Type& it = imageTypeOfValue(lw, inst, image);
  if (lowerImageType(lw, inst, it) != ImageType::Image2D)
    lw.unsupported(inst, "media block I/O on an image other than image2d_t");
  const Shape cs = lw.shapeOfValue(coord);
  if (!cs.isInt() || cs.bits != 32 || cs.components != 2)
    lw.unsupported(inst, "a media block coordinate that is not int2");
  requireInt32(lw, inst, width, "width");
  requireInt32(lw, inst, height, "height");
  const spirv::Id dataType = Write ? lw.typeIdOfValue(Lowerer::operand(inst, 4)) : inst.resultType;
  const Shape s = lw.shape(dataType);
  const bool fits = s.isInt() && s.bits <= 32 && s.components <= 16;
  const ExecFn fn = !fits   ? nullptr
                    : Write ? pickByBytes<MediaBlockWrite>(s.bits / 8)
                            : pickByBytes<MediaBlockRead>(s.bits / 8);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(image), b = lw.reg(coord), c = lw.reg(width), h = lw.reg(height);
  const uint32_t d = Write ? lw.reg(Lowerer::operand(inst, 4)) : 0;
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.c = c;
  in.aux = h;
  if (Write) in.r = d;
  in.n = s.stride;
  in.aux2 = s.components | cs.bytes << 8;
}

}  // namespace

void registerIntelMediaBlockIoOps(OpTable& t) {
  t.core[uint32_t(Op::OpSubgroupImageMediaBlockReadINTEL)] = &lowerMediaBlock<false>;
  t.core[uint32_t(Op::OpSubgroupImageMediaBlockWriteINTEL)] = &lowerMediaBlock<true>;
}

}  // namespace spvsim
