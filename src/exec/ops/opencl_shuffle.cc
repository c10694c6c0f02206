// OpenCL.std shuffle and shuffle2 (OpenCL C "Miscellaneous Vector Functions"): result
// component i is x[mask[i]] (shuffle) or component mask[i] of x followed by y
// (shuffle2). x has m components (2, 4, 8 or 16); only the low log2(m) bits (shuffle)
// or log2(2m) bits (shuffle2) of each mask element count, so every index is in range.
#include <spirv/unified1/OpenCL.std.h>

#include <bit>

#include "src/exec/ops/opencl_std_util.h"

namespace spvsim {
namespace {

namespace cl = OpenCLLIB;

// in.a: x, in.b: y (shuffle2) or unused, in.c: mask; in.aux: m; in.n: result components.
// T: an unsigned type of the element size (the bits are moved, whatever they mean).
template <bool Two>
struct ShuffleOf {
  template <class T>
  struct With {
    static void run(SubGroup& sg, const Inst& in) {
      const T* x = sg.reg<T>(in.a);
      const T* y = sg.reg<T>(in.b);
      const T* mask = sg.reg<T>(in.c);
      T* r = sg.reg<T>(in.r);
      const uint32_t m = in.aux, n = in.n;
      const uint64_t bits = (Two ? 2 * m : m) - 1;
      sg.forActive([&](uint32_t l) {
        for (uint32_t i = 0; i < n; ++i) {
          const uint64_t k = uint64_t(mask[l * n + i]) & bits;
          r[l * n + i] = k < m ? x[l * m + k] : y[l * m + (k - m)];
        }
      });
    }
  };
};

template <bool Two>
void lowerShuffle(Lowerer& lw, const spirv::Instruction& inst) {
  const Shape result = lw.shape(inst.resultType);
  const Shape x = lw.shapeOfValue(Lowerer::extArg(inst, 0));
  const spirv::Id maskId = Lowerer::extArg(inst, Two ? 2 : 1);
  const Shape mask = lw.shapeOfValue(maskId);
  // Vectors of 2, 4, 8 or 16 components (no padding), masks of the result's shape.
  const bool shapes = std::has_single_bit(x.components) && x.components >= 2 &&
                      x.stride == x.components && result.stride == result.components &&
                      mask.components == result.components && mask.bytes == result.bytes;
  ExecFn fn =
      shapes ? pickByBytes<ShuffleOf<Two>::template With>(result.bytes / result.stride) : nullptr;
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(Lowerer::extArg(inst, 0));
  const uint32_t b = Two ? lw.reg(Lowerer::extArg(inst, 1)) : a;
  const uint32_t c = lw.reg(maskId);
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.c = c;
  in.aux = x.components;
  in.n = result.components;
}

}  // namespace

void registerOpenclShuffleOps(OpTable& t) {
  t.openclStd[cl::Shuffle] = &lowerShuffle<false>;
  t.openclStd[cl::Shuffle2] = &lowerShuffle<true>;
}

}  // namespace spvsim
