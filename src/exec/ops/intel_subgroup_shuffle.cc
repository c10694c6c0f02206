// cl_intel_subgroups shuffles (SPV_INTEL_subgroups): OpSubgroupShuffleINTEL and its
// Down, Up and Xor forms. They may run in divergent code, but "data may only be
// shuffled among work items encountering the subgroup shuffle function" and there is
// "no defined behavior for out-of-range" indices (cl_intel_subgroups, 6.13.X). Only the
// value is undefined, so such reads are Warnings (`inactive-lane-read`,
// `shuffle-out-of-range`) and yield 0: a program that discards the value is correct.
// Ranges are relative to the max sub-group size, so in the last, partial sub-group an
// in-range index may name a lane that does not exist: that is an inactive-lane read.
#include <fmt/core.h>

#include <algorithm>

#include "spirv/disassembly.h"
#include "src/exec/ops/by_size.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using spv::Op;

enum class Kind : uint8_t { Index, Down, Up, Xor };

const char* builtinName(Kind k) {
  switch (k) {
    case Kind::Index:
      return "intel_sub_group_shuffle";
    case Kind::Down:
      return "intel_sub_group_shuffle_down";
    case Kind::Up:
      return "intel_sub_group_shuffle_up";
    default:
      return "intel_sub_group_shuffle_xor";
  }
}

// The operand names of the two-source forms, as the SPIR-V extension calls them.
const char* operandName(Kind k, bool second) {
  if (k == Kind::Down) return second ? "Next" : "Current";
  if (k == Kind::Up) return second ? "Current" : "Previous";
  return "Data";
}

template <class I>
void widen(const SubGroup& sg, uint32_t reg, uint64_t* out) {
  const I* v = sg.reg<I>(reg);
  sg.forActive([&](uint32_t l) { out[l] = uint64_t(v[l]); });
}

// Every active lane's index/delta operand, zero-extended: the operand is unsigned.
void loadIndices(const SubGroup& sg, uint32_t reg, uint32_t bytes, uint64_t* out) {
  switch (bytes) {
    case 1:
      return widen<uint8_t>(sg, reg, out);
    case 2:
      return widen<uint16_t>(sg, reg, out);
    case 4:
      return widen<uint32_t>(sg, reg, out);
    default:
      return widen<uint64_t>(sg, reg, out);
  }
}

// Where one lane's result comes from: `lane` of operand a (or b when `second`);
// `index` is the shuffle index as the extension defines it, for messages.
struct Source {
  int64_t index;
  uint32_t lane;
  bool second;
  bool inRange;
};

template <Kind K>
Source locate(uint32_t lane, uint64_t v, uint32_t max) {
  const uint64_t m = max;
  if constexpr (K == Kind::Index) {
    return {int64_t(v), uint32_t(v), false, v < m};
  } else if constexpr (K == Kind::Xor) {
    const uint64_t s = lane ^ v;
    return {int64_t(s), uint32_t(s), false, s < m};
  } else if constexpr (K == Kind::Down) {
    if (v >= 2 * m) return {0, 0, false, false};  // before lane + v can wrap
    const uint64_t s = lane + v;
    if (s < m) return {int64_t(s), uint32_t(s), false, true};
    if (s < 2 * m) return {int64_t(s), uint32_t(s - m), true, true};
    return {int64_t(s), 0, false, false};
  } else {
    // The extension's signed index lane - v, kept from overflowing.
    if (v <= lane) return {int64_t(lane - v), uint32_t(lane - v), true, true};
    if (v - lane <= m) return {-int64_t(v - lane), uint32_t(m - (v - lane)), false, true};
    return {0, 0, false, false};
  }
}

template <Kind K>
std::string outOfRangeMessage(uint32_t lane, uint64_t v, uint32_t max) {
  const char* name = builtinName(K);
  switch (K) {
    case Kind::Index:
      return fmt::format(
          "{} in lane {} reads lane {}, but the sub-group has {} lanes (max "
          "sub-group size); the result is undefined (0 here)",
          name, lane, v, max);
    case Kind::Xor:
      return fmt::format(
          "{} in lane {} reads lane {} ^ {} = {}, but the sub-group has {} lanes "
          "(max sub-group size); the result is undefined (0 here)",
          name, lane, lane, v, lane ^ v, max);
    case Kind::Down:
      return fmt::format(
          "{} in lane {} with delta {}: shuffle index {} + {} is not below twice "
          "the max sub-group size ({}); the result is undefined (0 here)",
          name, lane, v, lane, v, 2 * max);
    default:
      return fmt::format(
          "{} in lane {} with delta {}: shuffle index {} - {} is below minus the "
          "max sub-group size (-{}); the result is undefined (0 here)",
          name, lane, v, lane, v, max);
  }
}

template <Kind K>
std::string inactiveMessage(const SubGroup& sg, uint32_t lane, const Source& s) {
  const std::string what = K == Kind::Down || K == Kind::Up
                               ? fmt::format("reads '{}' of lane {} (shuffle index {})",
                                             operandName(K, s.second), s.lane, s.index)
                               : fmt::format("reads lane {}", s.lane);
  const std::string why =
      s.lane >= sg.liveLanes
          ? fmt::format("which does not exist (this sub-group has {} of at most {} lanes)",
                        sg.liveLanes, sg.width)
          : std::string("which did not execute the shuffle (inactive)");
  return fmt::format("{} in lane {} {}, {}; the result is undefined (0 here)", builtinName(K), lane,
                     what, why);
}

// in: r = result, a/b = the two data operands (b = a for one-source forms), c = the
// index/delta, n = elements of T per lane, aux2 = bytes of the index/delta operand.
template <class T, Kind K>
struct Shuffle {
  static void run(SubGroup& sg, const Inst& in) {
    uint64_t v[kMaxSubGroupSize];
    loadIndices(sg, in.c, in.aux2, v);
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    const T* b = sg.reg<T>(in.b);
    const uint32_t n = in.n;
    LaneMask outOfRange, inactive;
    sg.forActive([&](uint32_t l) {
      const Source s = locate<K>(l, v[l], sg.width);
      T* dst = r + size_t(l) * n;
      if (!s.inRange || s.lane >= sg.liveLanes || !sg.active[s.lane]) {
        (s.inRange ? inactive : outOfRange).set(l);
        std::fill(dst, dst + n, T(0));
        return;
      }
      const T* src = (s.second ? b : a) + size_t(s.lane) * n;
      std::copy(src, src + n, dst);
    });
    if (outOfRange.any()) {
      const uint32_t l = outOfRange.first();
      sg.report(in, DiagnosticKind::ShuffleOutOfRange, outOfRangeMessage<K>(l, v[l], sg.width),
                outOfRange, Severity::Warning);
    }
    if (inactive.any()) {
      const uint32_t l = inactive.first();
      sg.report(in, DiagnosticKind::InactiveLaneRead,
                inactiveMessage<K>(sg, l, locate<K>(l, v[l], sg.width)), inactive,
                Severity::Warning);
    }
  }
};

// Shuffles move bits, so the handler depends only on the element size.
template <Kind K>
struct ShuffleOf {
  template <class T>
  using Of = Shuffle<T, K>;
};

template <Kind K>
ExecFn pickBySize(uint32_t elementBytes) {
  return ops::byUnsigned<ShuffleOf<K>::template Of, 1, 2, 4, 8>(elementBytes);
}

bool isScalarOrVector(const Lowerer& lw, spirv::Id typeId) {
  const spirv::Type* t = &lw.type(typeId);
  if (t->kind == spirv::TypeKind::Vector) t = &lw.type(t->element);
  return t->kind == spirv::TypeKind::Int || t->kind == spirv::TypeKind::Float ||
         t->kind == spirv::TypeKind::Bool;
}

template <Kind K>
void lowerShuffle(Lowerer& lw, const spirv::Instruction& inst) {
  constexpr bool twoSources = K == Kind::Down || K == Kind::Up;
  const spirv::Id index = Lowerer::operand(inst, twoSources ? 2 : 1);
  if (!isScalarOrVector(lw, inst.resultType)) lw.unsupported(inst, lw.describeWithType(inst));
  const Shape s = lw.shape(inst.resultType);
  const Shape is = lw.shapeOfValue(index);
  if (!is.isInt() || is.components != 1)
    lw.unsupported(inst, fmt::format("{} with a non-integer-scalar index operand",
                                     spirv::opcodeName(inst.opcode)));
  const ExecFn fn = pickBySize<K>(s.bytes / s.stride);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(Lowerer::operand(inst, 0));
  const uint32_t b = twoSources ? lw.reg(Lowerer::operand(inst, 1)) : a;
  const uint32_t c = lw.reg(index);
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.c = c;
  in.n = s.stride;
  in.aux2 = is.bytes;
}

}  // namespace

void registerIntelSubgroupShuffleOps(OpTable& t) {
  t.core[uint32_t(Op::OpSubgroupShuffleINTEL)] = &lowerShuffle<Kind::Index>;
  t.core[uint32_t(Op::OpSubgroupShuffleDownINTEL)] = &lowerShuffle<Kind::Down>;
  t.core[uint32_t(Op::OpSubgroupShuffleUpINTEL)] = &lowerShuffle<Kind::Up>;
  t.core[uint32_t(Op::OpSubgroupShuffleXorINTEL)] = &lowerShuffle<Kind::Xor>;
}

}  // namespace spvsim
