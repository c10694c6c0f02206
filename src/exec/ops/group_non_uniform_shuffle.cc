// Non-uniform shuffles (cl_khr_subgroup_shuffle, _shuffle_relative, _rotate):
// OpGroupNonUniformShuffle, ShuffleXor, ShuffleUp, ShuffleDown and RotateKHR. Each
// active lane reads the value of one source lane; a source outside the sub-group or
// inactive gives an undefined value (SPIR-V), so the lane gets 0 and a warning.
#include <fmt/core.h>

#include <algorithm>
#include <string>

#include "spirv/error.h"
#include "src/exec/lowering.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using spv::Op;

enum class Source { Index, Xor, Up, Down };

// The lane that `lane` reads (SPIR-V: Id; id ^ Mask; id - Delta; id + Delta), or false
// when that lies outside [0, size).
template <Source S>
bool sourceLane(uint32_t lane, uint64_t operand, uint32_t size, uint32_t& src) {
  uint64_t s = 0;
  if constexpr (S == Source::Index) s = operand;
  if constexpr (S == Source::Xor) s = lane ^ operand;
  if constexpr (S == Source::Up) {
    if (operand > lane) return false;
    s = lane - operand;
  }
  if constexpr (S == Source::Down) {
    if (operand >= size - lane) return false;  // no overflow: lane < size
    s = lane + operand;
  }
  if (s >= size) return false;
  src = static_cast<uint32_t>(s);
  return true;
}

template <Source S>
std::string describeOutside(uint32_t lane, uint64_t operand, uint32_t size) {
  const char* name[] = {"shuffle", "shuffle_xor", "shuffle_up", "shuffle_down"};
  std::string target = S == Source::Index ? std::to_string(operand)
                       : S == Source::Xor ? fmt::format("{} ^ {}", lane, operand)
                       : S == Source::Up  ? fmt::format("{} - {}", lane, operand)
                                          : fmt::format("{} + {}", lane, operand);
  const std::string why =
      S == Source::Up ? "below lane 0" : fmt::format("but the sub-group has {} lanes", size);
  return fmt::format("sub-group {} in lane {} reads lane {}, {}", name[int(S)], lane, target, why);
}

template <class T>
void copyLane(SubGroup& sg, const Inst& in, uint32_t l, uint32_t src) {
  T* r = sg.reg<T>(in.r);
  const T* a = sg.reg<T>(in.a);
  for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = a[src * in.n + c];
}

template <class T>
void zeroLane(SubGroup& sg, const Inst& in, uint32_t l) {
  T* r = sg.reg<T>(in.r);
  for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = T(0);
}

void reportInactive(SubGroup& sg, const Inst& in, const LaneMask& lanes, uint32_t src,
                    const char* what) {
  const uint32_t l = lanes.first();
  const std::string why = src < sg.liveLanes
                              ? "which is inactive here"
                              : fmt::format(
                                    "which does not exist (the sub-group has {} of {} "
                                    "lanes)",
                                    sg.liveLanes, sg.width);
  sg.report(in, DiagnosticKind::InactiveLaneRead,
            fmt::format("sub-group {} in lane {} reads lane {}, {}; the result is undefined (0 "
                        "is used)",
                        what, l, src, why),
            lanes, Severity::Warning);
}

// in.a: value, in.b: id/mask/delta (in.aux bytes), in.n: elements per lane.
template <class T, Source S>
struct Shuffle {
  static void run(SubGroup& sg, const Inst& in) {
    LaneMask outside, inactive;
    uint32_t inactiveSrc = 0;
    sg.forActive([&](uint32_t l) {
      uint32_t src = 0;
      if (!sourceLane<S>(l, ops::laneUint(sg, in.b, l, in.aux), sg.liveLanes, src)) {
        outside.set(l);
      } else if (!sg.active[src]) {
        if (inactive.none()) inactiveSrc = src;
        inactive.set(l);
      } else {
        copyLane<T>(sg, in, l, src);
        return;
      }
      zeroLane<T>(sg, in, l);
    });
    if (outside.any()) {
      const uint32_t l = outside.first();
      sg.report(in, DiagnosticKind::ShuffleOutOfRange,
                describeOutside<S>(l, ops::laneUint(sg, in.b, l, in.aux), sg.liveLanes) +
                    "; the result is undefined (0 is used)",
                outside, Severity::Warning);
    }
    if (inactive.any()) {
      const char* name[] = {"shuffle", "shuffle_xor", "shuffle_up", "shuffle_down"};
      reportInactive(sg, in, inactive, inactiveSrc, name[int(S)]);
    }
  }
};

// SPV_KHR_subgroup_rotate: lane l reads ((l + Delta) & (G - 1)) + (l & ~(G - 1)), G the
// ClusterSize or, with the Kernel capability, the maximum sub-group size. The sum wraps
// at Delta's width (unsigned); `% G` equals `& (G - 1)` for the powers of two that the
// extension expects and keeps other sizes within the group. Lanes of a partial sub-group
// beyond its size are inactive lanes of the rotation group. in.aux2: the cluster size
// (0: none).
template <class T>
struct Rotate {
  static void run(SubGroup& sg, const Inst& in) {
    auto delta = [&](uint32_t l) { return ops::laneUint(sg, in.b, l, in.aux); };
    const uint32_t first = sg.mask.first();
    LaneMask differ;
    sg.forActive([&](uint32_t l) {
      if (delta(l) != delta(first)) differ.set(l);
    });
    if (differ.any())
      sg.report(in, DiagnosticKind::NonUniformArgument,
                fmt::format("the rotate delta must be the same in all active lanes, but lane {} "
                            "has {} and lane {} has {}; lane {}'s is used",
                            first, delta(first), differ.first(), delta(differ.first()), first),
                differ);
    const uint64_t wrap = in.aux >= 8 ? ~0ull : (1ull << (8 * in.aux)) - 1;
    const uint64_t d = delta(first);
    const uint32_t group = in.aux2 ? in.aux2 : sg.width;
    LaneMask inactive;
    uint32_t inactiveSrc = 0;
    sg.forActive([&](uint32_t l) {
      const uint32_t src = l - l % group + uint32_t(((l + d) & wrap) % group);
      if (src < sg.liveLanes && sg.active[src]) return copyLane<T>(sg, in, l, src);
      if (inactive.none()) inactiveSrc = src;
      inactive.set(l);
      zeroLane<T>(sg, in, l);
    });
    if (inactive.any()) reportInactive(sg, in, inactive, inactiveSrc, "rotate");
  }
};

template <Source S>
struct ShuffleOf {
  template <class T>
  using H = Shuffle<T, S>;
};

// Operands: scope, value, id/mask/delta[, cluster size].
Inst& emitShuffle(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn) {
  ops::requireSubgroupScope(lw, inst);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(Lowerer::operand(inst, 1));
  const uint32_t b = lw.reg(Lowerer::operand(inst, 2));
  const uint32_t bytes = lw.shapeOfValue(Lowerer::operand(inst, 2)).bytes;
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.aux = bytes;
  in.n = lw.shape(inst.resultType).stride;
  return in;
}

template <Source S>
void lowerShuffle(Lowerer& lw, const spirv::Instruction& inst) {
  emitShuffle(lw, inst, pickBits<ShuffleOf<S>::template H>(lw.shape(inst.resultType).scalar, true));
}

// A ClusterSize above the sub-group size makes clusters of lanes the sub-group does not
// have: undefined behaviour when executed (as for clustered reductions), reported each
// time it executes; the rotation then runs within the whole sub-group. in.c: the
// ClusterSize asked for.
template <class T>
struct OversizedRotate {
  static void run(SubGroup& sg, const Inst& in) {
    sg.report(in, DiagnosticKind::ShuffleOutOfRange,
              fmt::format("sub-group rotate with ClusterSize {}, but the sub-group size is {} "
                          "(undefined behaviour); rotating within the whole sub-group",
                          in.c, sg.width),
              sg.mask);
    Rotate<T>::run(sg, in);
  }
};

// A ClusterSize that is not a power of two is invalid SPIR-V (SPV_KHR_subgroup_rotate).
void lowerRotate(Lowerer& lw, const spirv::Instruction& inst) {
  const spirv::Id clusterId = inst.operands.size() > 3 ? Lowerer::operand(inst, 3) : 0;
  const uint64_t c = clusterId ? lw.constantValue(clusterId) : 0;
  if (clusterId && (c == 0 || (c & (c - 1)) != 0))
    throw Error(
        DiagnosticKind::InvalidModule,
        fmt::format("OpGroupNonUniformRotateKHR: ClusterSize {} must be a power of two", c));
  const bool oversized = c > lw.width;
  const Scalar scalar = lw.shape(inst.resultType).scalar;
  Inst& in = emitShuffle(
      lw, inst,
      oversized ? pickBits<OversizedRotate>(scalar, true) : pickBits<Rotate>(scalar, true));
  in.aux2 = oversized ? 0 : static_cast<uint32_t>(c);
  in.c = static_cast<uint32_t>(std::min<uint64_t>(c, UINT32_MAX));
}

}  // namespace

void registerGroupNonUniformShuffleOps(OpTable& t) {
  t.core[uint32_t(Op::OpGroupNonUniformShuffle)] = &lowerShuffle<Source::Index>;
  t.core[uint32_t(Op::OpGroupNonUniformShuffleXor)] = &lowerShuffle<Source::Xor>;
  t.core[uint32_t(Op::OpGroupNonUniformShuffleUp)] = &lowerShuffle<Source::Up>;
  t.core[uint32_t(Op::OpGroupNonUniformShuffleDown)] = &lowerShuffle<Source::Down>;
  t.core[uint32_t(Op::OpGroupNonUniformRotateKHR)] = &lowerRotate;
}

}  // namespace spvsim
