// cl_intel_subgroups image block reads and writes (SPV_INTEL_subgroups
// OpSubgroupImageBlockReadINTEL / OpSubgroupImageBlockWriteINTEL) on image2d_t, with the
// cl_intel_subgroups_char/short/long element sizes (_uc, _us, _ul): the coordinate is
// (byte x, row y); element k of lane l is the E-byte value at byte x + l * E of row
// y + k, read and written without format conversion. In the last, partial sub-group
// only the lanes that exist take part.
//
// Out-of-bounds elements: where the image's element size equals E (the spec's case of
// 4-byte pixels for the uint functions) the hardware's bounds check is defined: reads
// return the edge element (clamp to edge) and writes are ignored. Otherwise bounds are
// checked "too late" (undefined): reported as `out-of-bounds`, reads give 0 and writes
// are dropped.
//
// Undefined behaviour reported: a sub-group that reaches the call in part
// (`non-uniform-collective`), an image or coordinate that differs across lanes
// (`non-uniform-argument`; the first active lane's is used), a write x not a multiple of
// 4 bytes (`misaligned-block-io`; the write still happens), images with pixels larger
// than 4 bytes, writes to read_only images and values that are no image (`image-misuse`).
// Media block I/O (cl_intel_media_block_io) is in intel_media_block_io.cc.
#include "src/exec/ops/group_util.h"
#include "src/exec/ops/image_util.h"

namespace spvsim {
namespace {

using namespace ops::image;
using spv::Op;

const char* builtinName(bool write) {
  return write ? "intel_sub_group_block_write" : "intel_sub_group_block_read";
}

struct Block {
  const LaunchImage* image = nullptr;
  int64_t x = 0, y = 0;  // bytes, rows
};

// The image and coordinate of the block, after the checks every lane shares.
Block blockOf(SubGroup& sg, const Inst& in, bool write) {
  ops::checkCollective(sg, in, builtinName(write));
  Block b;
  const uint64_t handle =
      uniformValue(sg, in, sg.reg<uint64_t>(in.a), 1, builtinName(write), "image");
  const int32_t* coords = sg.reg<int32_t>(in.b);
  uniformValue(sg, in, reinterpret_cast<const uint64_t*>(coords), in.aux2 / 8, builtinName(write),
               "coordinate");
  const uint32_t first = sg.mask.first();
  b.x = coords[size_t(first) * (in.aux2 / 4)];
  b.y = coords[size_t(first) * (in.aux2 / 4) + 1];
  b.image = lookup(sg, handle);
  if (!b.image || b.image->desc.type != ImageType::Image2D) {
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} on a value that is no image2d_t argument (0x{:016x})",
                          builtinName(write), handle),
              sg.mask);
    b.image = nullptr;
    return b;
  }
  if (b.image->bytesPerPixel > 4)
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} on {}, an image of {} ({}-byte pixels; the built-ins are undefined "
                          "for pixels of more than 4 bytes)",
                          builtinName(write), b.image->name,
                          imagefmt::formatName(b.image->desc.format), b.image->bytesPerPixel),
              sg.mask);
  if (write && b.x % 4 != 0)
    sg.report(in, DiagnosticKind::MisalignedBlockIo,
              fmt::format("{} at byte x {}, but image block writes must start at a multiple of "
                          "4 bytes",
                          builtinName(write), b.x),
              sg.mask);
  return b;
}

// Where element (byte x, row y) of E bytes is, clamped to the edge when `clamp`;
// nullopt when outside and not clamped.
std::optional<uint64_t> elementOffset(const LaunchImage& im, int64_t x, int64_t y, uint32_t e,
                                      bool clamp) {
  const int64_t rowBytes = int64_t(im.desc.width * im.bytesPerPixel),
                rows = int64_t(im.desc.height);
  const bool inside = x >= 0 && x + e <= rowBytes && y >= 0 && y < rows;
  if (!inside && !clamp) return std::nullopt;
  x = std::clamp<int64_t>(x, 0, rowBytes - e);
  y = std::clamp<int64_t>(y, 0, rows - 1);
  return uint64_t(y) * im.desc.rowPitch + uint64_t(x);
}

// in: a = image, b = coordinate (int2; aux2 = its bytes per lane), r = result (reads) or
// c = data (writes), n = elements of T per lane in the register, aux = components.
template <class T, bool Write>
void imageBlock(SubGroup& sg, const Inst& in) {
  const Block b = blockOf(sg, in, Write);
  T* data = sg.reg<T>(Write ? in.c : in.r);
  if (!b.image) {
    if (!Write)
      sg.forActive([&](uint32_t l) { std::fill_n(data + size_t(l) * in.n, in.aux, T(0)); });
    return;
  }
  const LaunchImage& im = *b.image;
  if (Write && im.access == spirv::AccessQualifier::ReadOnly) {
    sg.report(in, DiagnosticKind::ImageMisuse,
              fmt::format("{} to {}, a read_only image (the write is dropped)", builtinName(Write),
                          im.name),
              sg.mask);
    return;
  }
  const bool defined = im.bytesPerPixel == sizeof(T);  // the hardware's bounds check applies
  LaneProblems outside;
  LaneMask failed;
  AccessError firstError = AccessError::Ok;
  uint64_t failedAt[kMaxSubGroupSize];
  sg.forActive([&](uint32_t l) {
    for (uint32_t k = 0; k < in.aux; ++k) {
      T* v = data + size_t(l) * in.n + k;
      const int64_t x = b.x + int64_t(l) * int64_t(sizeof(T)), y = b.y + k;
      const auto offset = elementOffset(im, x, y, sizeof(T), defined && !Write);
      const bool ignored = defined && Write && !elementOffset(im, x, y, sizeof(T), false);
      if (ignored) continue;
      if (!offset) {
        outside.add(l, [&] {
          return fmt::format(
              "{} element {} of lane {} at byte ({}, {}) outside {}, an {} ({}-byte "
              "rows; {})",
              builtinName(Write), k, l, x, y, im.name, describeExtent(im.desc),
              im.desc.width * im.bytesPerPixel, Write ? "the write is dropped" : "reading 0");
        });
        if (!Write) *v = T(0);
        continue;
      }
      const uint64_t at = makePointer(Space::Global, im.region, int64_t(*offset));
      AccessError err;
      uint8_t* mem = sg.resolve(at, l, sizeof(T), Write, err);
      if (!mem) {
        if (failed.none()) firstError = err;
        failed.set(l);
        failedAt[l] = at;
        if (!Write) *v = T(0);
        continue;
      }
      Write ? std::memcpy(mem, v, sizeof(T)) : std::memcpy(v, mem, sizeof(T));
    }
  });
  outside.flush(sg, in, DiagnosticKind::OutOfBounds);
  if (failed.any()) sg.reportAccess(in, firstError, failed, failedAt, sizeof(T), Write);
}

template <class T>
struct ImageBlockRead {
  static void run(SubGroup& sg, const Inst& in) { imageBlock<T, false>(sg, in); }
};

template <class T>
struct ImageBlockWrite {
  static void run(SubGroup& sg, const Inst& in) { imageBlock<T, true>(sg, in); }
};

template <bool Write>
void lowerImageBlock(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id image = Lowerer::operand(inst, 0), coord = Lowerer::operand(inst, 1);
  const spirv::Type& it = imageTypeOfValue(lw, inst, image);
  if (lowerImageType(lw, inst, it) != ImageType::Image2D)
    lw.unsupported(inst, "image block I/O on an image other than image2d_t");
  const Shape cs = lw.shapeOfValue(coord);
  if (!cs.isInt() || cs.bits != 32 || cs.components != 2)
    lw.unsupported(inst, "an image block coordinate that is not int2");
  const spirv::Id dataType = Write ? lw.typeIdOfValue(Lowerer::operand(inst, 2)) : inst.resultType;
  const Shape s = lw.shape(dataType);
  const ExecFn fn = !s.isInt() ? nullptr
                    : Write    ? pickByBytes<ImageBlockWrite>(s.bits / 8)
                               : pickByBytes<ImageBlockRead>(s.bits / 8);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(image), b = lw.reg(coord);
  const uint32_t c = Write ? lw.reg(Lowerer::operand(inst, 2)) : 0;
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.c = c;
  in.n = s.stride;
  in.aux = s.components;
  in.aux2 = cs.bytes;
}

}  // namespace

void registerIntelImageBlockIoOps(OpTable& t) {
  t.core[uint32_t(Op::OpSubgroupImageBlockReadINTEL)] = &lowerImageBlock<false>;
  t.core[uint32_t(Op::OpSubgroupImageBlockWriteINTEL)] = &lowerImageBlock<true>;
}

}  // namespace spvsim
