// Image queries: OpImageQuerySizeLod (Lod 0) and OpImageQuerySize (get_image_width,
// height, depth, array_size, dim), OpImageQueryFormat and OpImageQueryOrder
// (get_image_channel_data_type / _order: SPIR-V's enumerants, which the translator turns
// into CLK_* by adding 0x10D0 / 0x10B0). Sizes per image type: 1-D and 1-D buffer (w),
// 1-D array (w, layers), 2-D (w, h), 2-D array (w, h, layers), 3-D (w, h, d).
#include "src/exec/ops/image_util.h"

namespace spvsim {
namespace {

using namespace ops::image;
using spv::Op;

enum class Query : uint32_t { Size, Format, Order };

std::array<uint64_t, 3> sizeOf(const ImageDesc& d) {
  switch (d.type) {
    case ImageType::Image1D:
    case ImageType::Image1DBuffer:
      return {d.width, 0, 0};
    case ImageType::Image1DArray:
      return {d.width, d.arraySize, 0};
    case ImageType::Image2D:
      return {d.width, d.height, 0};
    case ImageType::Image2DArray:
      return {d.width, d.height, d.arraySize};
    case ImageType::Image3D:
      return {d.width, d.height, d.depth};
  }
  return {};
}

// in: r = result (n components of T, stride elements per lane), a = image, aux = Query.
template <class T>
struct ImageQuery {
  static void run(SubGroup& sg, const Inst& in) {
    const uint64_t* handles = sg.reg<uint64_t>(in.a);
    T* out = sg.reg<T>(in.r);
    LaneProblems bad;
    sg.forActive([&](uint32_t l) {
      T* r = out + size_t(l) * in.b;
      std::fill(r, r + in.n, T(0));
      const LaunchImage* im = lookup(sg, handles[l]);
      if (!im)
        return bad.add(l, [&] {
          return fmt::format("image query on a value that is no image argument (0x{:016x})",
                             handles[l]);
        });
      switch (Query(in.aux)) {
        case Query::Size: {
          const auto s = sizeOf(im->desc);
          for (uint32_t k = 0; k < in.n && k < 3; ++k) r[k] = T(s[k]);
          break;
        }
        case Query::Format:
          r[0] = T(im->desc.format.type - imagefmt::kTypeBase);
          break;
        case Query::Order:
          r[0] = T(im->desc.format.order - imagefmt::kOrderBase);
          break;
      }
    });
    bad.flush(sg, in, DiagnosticKind::ImageMisuse);
  }
};

template <Query Q>
void lowerQuery(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id image = Lowerer::operand(inst, 0);
  lowerImageType(lw, inst, imageTypeOfValue(lw, inst, image));
  if (inst.opcode == Op::OpImageQuerySizeLod) {
    const spirv::Id lod = Lowerer::operand(inst, 1);
    if (!lw.isConstant(lod) || lw.constantValue(lod) != 0)
      lw.unsupported(inst, "a level of detail other than 0 (mipmapped images)");
  }
  const Shape s = lw.shape(inst.resultType);
  ExecFn fn = s.scalar == Scalar::U32   ? &ImageQuery<uint32_t>::run
              : s.scalar == Scalar::U64 ? &ImageQuery<uint64_t>::run
                                        : nullptr;
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(image);
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = s.stride;
  in.n = s.components;
  in.aux = uint32_t(Q);
}

}  // namespace

void registerImageQueryOps(OpTable& t) {
  t.core[uint32_t(Op::OpImageQuerySizeLod)] = &lowerQuery<Query::Size>;
  t.core[uint32_t(Op::OpImageQuerySize)] = &lowerQuery<Query::Size>;
  t.core[uint32_t(Op::OpImageQueryFormat)] = &lowerQuery<Query::Format>;
  t.core[uint32_t(Op::OpImageQueryOrder)] = &lowerQuery<Query::Order>;
}

}  // namespace spvsim
