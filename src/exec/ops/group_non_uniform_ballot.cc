// Ballots and non-uniform broadcasts (cl_khr_subgroup_ballot): OpGroupNonUniformBroadcast,
// BroadcastFirst, Ballot, InverseBallot, BallotBitExtract, BallotBitCount, BallotFindLSB
// and BallotFindMSB, over the active lanes of the sub-group.
//
// A ballot is a uint4 per lane: bit k of the 128-bit value (x holds bits 0..31) stands
// for lane k. Bit counts and LSB/MSB consider the bits below the *maximum* sub-group size
// (OpenCL C 3.0.9 clarification, OpenCL-Docs #626: like Vulkan, a partial sub-group's
// missing lanes count as inactive lanes of a full-size group).
#include <fmt/core.h>

#include <bit>

#include "src/exec/lowering.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using spv::Op;

LaneMask laneBallot(const SubGroup& sg, uint32_t reg, uint32_t l) {
  const uint32_t* w = sg.reg<uint32_t>(reg) + size_t(l) * 4;
  LaneMask m;
  m.w[0] = w[0] | uint64_t(w[1]) << 32;
  m.w[1] = w[2] | uint64_t(w[3]) << 32;
  return m;
}

uint32_t highestLane(const LaneMask& m) {
  return m.w[1] ? 127 - std::countl_zero(m.w[1]) : 63 - std::countl_zero(m.w[0]);
}

// Active lanes whose `value(l)` differs from the first active lane's.
template <class F>
LaneMask lanesDiffering(const SubGroup& sg, F value) {
  const auto first = value(sg.mask.first());
  LaneMask d;
  sg.forActive([&](uint32_t l) {
    if (value(l) != first) d.set(l);
  });
  return d;
}

// Operands that must be the same in every active lane: report the others and go on
// with the first active lane's value.
void reportNonUniform(SubGroup& sg, const Inst& in, const LaneMask& differ, const char* what,
                      const std::string& firstValue, const std::string& otherValue) {
  sg.report(
      in, DiagnosticKind::NonUniformArgument,
      fmt::format("{} must be the same in all active lanes, but lane {} has {} and lane {} "
                  "has {}; lane {}'s is used",
                  what, sg.mask.first(), firstValue, differ.first(), otherValue, sg.mask.first()),
      differ);
}

// Every active lane reads lane `src`: zero (and a warning) when it is out of range or
// inactive, since SPIR-V leaves only the value undefined.
template <class T>
void readFromLane(SubGroup& sg, const Inst& in, uint64_t src, const char* what) {
  T* r = sg.reg<T>(in.r);
  const T* a = sg.reg<T>(in.a);
  const uint32_t n = in.n;
  const bool outside = src >= sg.liveLanes;
  if (!outside && sg.active[src]) {
    sg.forActive([&](uint32_t l) {
      for (uint32_t c = 0; c < n; ++c) r[l * n + c] = a[src * n + c];
    });
    return;
  }
  if (outside)
    sg.report(in, DiagnosticKind::ShuffleOutOfRange,
              fmt::format("{} reads lane {}, but the sub-group has {} lanes; the result is "
                          "undefined (0 is used)",
                          what, src, sg.liveLanes),
              sg.mask, Severity::Warning);
  else
    sg.report(in, DiagnosticKind::InactiveLaneRead,
              fmt::format("{} reads lane {}, which is inactive here; the result is undefined "
                          "(0 is used)",
                          what, src),
              sg.mask, Severity::Warning);
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < n; ++c) r[l * n + c] = T(0);
  });
}

// in.a: value, in.b: id (in.aux bytes), in.n: elements per lane.
template <class T>
struct Broadcast {
  static void run(SubGroup& sg, const Inst& in) {
    auto id = [&](uint32_t l) { return ops::laneUint(sg, in.b, l, in.aux); };
    const LaneMask differ = lanesDiffering(sg, id);
    if (differ.any())
      reportNonUniform(sg, in, differ, "the broadcast lane id", std::to_string(id(sg.mask.first())),
                       std::to_string(id(differ.first())));
    readFromLane<T>(sg, in, id(sg.mask.first()), "sub-group broadcast");
  }
};

template <class T>
struct BroadcastFirst {
  static void run(SubGroup& sg, const Inst& in) {
    readFromLane<T>(sg, in, sg.mask.first(), "sub-group broadcast_first");
  }
};

void ballot(SubGroup& sg, const Inst& in) {
  const uint8_t* p = sg.reg<uint8_t>(in.a);
  LaneMask m;
  sg.forActive([&](uint32_t l) {
    if (p[l]) m.set(l);
  });
  uint32_t* r = sg.reg<uint32_t>(in.r);
  sg.forActive([&](uint32_t l) {
    for (uint32_t k = 0; k < 4; ++k) r[l * 4 + k] = uint32_t(m.w[k / 2] >> (32 * (k % 2)));
  });
}

std::string ballotText(const LaneMask& m) {
  return fmt::format("0x{:016x}{:016x}", m.w[1], m.w[0]);
}

void inverseBallot(SubGroup& sg, const Inst& in) {
  auto value = [&](uint32_t l) { return laneBallot(sg, in.a, l); };
  const LaneMask differ = lanesDiffering(sg, value);
  const LaneMask v = value(sg.mask.first());
  if (differ.any())
    reportNonUniform(sg, in, differ, "the inverse ballot's value", ballotText(v),
                     ballotText(value(differ.first())));
  uint8_t* r = sg.reg<uint8_t>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = v.test(l); });
}

// in.a: ballot, in.b: index (in.aux bytes). The result is undefined for an index at or
// beyond the sub-group size.
void ballotBitExtract(SubGroup& sg, const Inst& in) {
  uint8_t* r = sg.reg<uint8_t>(in.r);
  LaneMask outside;
  sg.forActive([&](uint32_t l) {
    const uint64_t index = ops::laneUint(sg, in.b, l, in.aux);
    if (index >= sg.liveLanes) outside.set(l);
    r[l] = index < sg.liveLanes && laneBallot(sg, in.a, l).test(uint32_t(index));
  });
  if (outside.none()) return;
  const uint32_t l = outside.first();
  sg.report(in, DiagnosticKind::ShuffleOutOfRange,
            fmt::format("sub-group ballot_bit_extract in lane {} reads bit {}, but the sub-group "
                        "has {} lanes; the result is undefined (0 is used)",
                        l, ops::laneUint(sg, in.b, l, in.aux), sg.liveLanes),
            outside, Severity::Warning);
}

// in.aux: the GroupOperation (Reduce, InclusiveScan, ExclusiveScan).
template <class T>
struct BallotBitCount {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const auto op = static_cast<spv::GroupOperation>(in.aux);
    sg.forActive([&](uint32_t l) {
      const uint32_t below = op == spv::GroupOperation::Reduce          ? sg.width
                             : op == spv::GroupOperation::InclusiveScan ? l + 1
                                                                        : l;
      r[l] = T((laneBallot(sg, in.a, l) & LaneMask::firstN(below)).count());
    });
  }
};

// With no considered bit set the value is undefined (not the behaviour): ~0, like
// GLSL's findLSB(0), without a diagnostic.
template <class T, bool Msb>
struct BallotFind {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const LaneMask considered = LaneMask::firstN(sg.width);
    sg.forActive([&](uint32_t l) {
      const LaneMask m = laneBallot(sg, in.a, l) & considered;
      r[l] = m.none() ? T(~T(0)) : T(Msb ? highestLane(m) : m.first());
    });
  }
};

// Ballot operands must be uint4 (SPIR-V: four 32-bit components in OpenCL's use).
void requireBallotType(Lowerer& lw, const spirv::Instruction& inst, spirv::Id typeId) {
  const Shape s = lw.shape(typeId);
  if (s.scalar != Scalar::U32 || s.components != 4)
    lw.unsupported(inst, fmt::format("a ballot of type {} (only uint4 is supported)",
                                     lw.facts.idName(typeId)));
}

template <template <class> class H, bool HasId>
void lowerBroadcast(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  const Shape s = lw.shape(inst.resultType);
  const ExecFn fn = pickBits<H>(s.scalar, true);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t a = lw.reg(Lowerer::operand(inst, 1));
  uint32_t b = 0, idBytes = 0;
  if (HasId) {
    b = lw.reg(Lowerer::operand(inst, 2));
    idBytes = lw.shapeOfValue(Lowerer::operand(inst, 2)).bytes;
  }
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.b = b;
  in.aux = idBytes;
  in.n = s.stride;
}

void lowerBallot(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  requireBallotType(lw, inst, inst.resultType);
  const uint32_t a = lw.reg(Lowerer::operand(inst, 1));
  lw.emit(inst, &ballot).a = a;
}

void lowerInverseBallot(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  requireBallotType(lw, inst, lw.typeIdOfValue(Lowerer::operand(inst, 1)));
  const uint32_t a = lw.reg(Lowerer::operand(inst, 1));
  lw.emit(inst, &inverseBallot).a = a;
}

void lowerBitExtract(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  requireBallotType(lw, inst, lw.typeIdOfValue(Lowerer::operand(inst, 1)));
  const uint32_t a = lw.reg(Lowerer::operand(inst, 1));
  const uint32_t b = lw.reg(Lowerer::operand(inst, 2));
  Inst& in = lw.emit(inst, &ballotBitExtract);
  in.a = a;
  in.b = b;
  in.aux = lw.shapeOfValue(Lowerer::operand(inst, 2)).bytes;
}

// Result: an unsigned integer scalar of any width; `value` is the ballot operand.
void emitBallotToInt(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn, size_t value,
                     uint32_t aux) {
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  requireBallotType(lw, inst, lw.typeIdOfValue(Lowerer::operand(inst, value)));
  const uint32_t a = lw.reg(Lowerer::operand(inst, value));
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.aux = aux;
}

void lowerBitCount(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  const auto op = static_cast<spv::GroupOperation>(Lowerer::operand(inst, 1));
  if (op != spv::GroupOperation::Reduce && op != spv::GroupOperation::InclusiveScan &&
      op != spv::GroupOperation::ExclusiveScan)
    lw.unsupported(inst, fmt::format("group operation {}", static_cast<uint32_t>(op)));
  emitBallotToInt(lw, inst, pickUnsigned<BallotBitCount>(lw.shape(inst.resultType).scalar), 2,
                  static_cast<uint32_t>(op));
}

template <bool Msb>
struct Find {
  template <class T>
  using H = BallotFind<T, Msb>;
};

template <bool Msb>
void lowerFind(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  emitBallotToInt(lw, inst, pickUnsigned<Find<Msb>::template H>(lw.shape(inst.resultType).scalar),
                  1, 0);
}

}  // namespace

void registerGroupNonUniformBallotOps(OpTable& t) {
  t.core[uint32_t(Op::OpGroupNonUniformBroadcast)] = &lowerBroadcast<Broadcast, true>;
  t.core[uint32_t(Op::OpGroupNonUniformBroadcastFirst)] = &lowerBroadcast<BroadcastFirst, false>;
  t.core[uint32_t(Op::OpGroupNonUniformBallot)] = &lowerBallot;
  t.core[uint32_t(Op::OpGroupNonUniformInverseBallot)] = &lowerInverseBallot;
  t.core[uint32_t(Op::OpGroupNonUniformBallotBitExtract)] = &lowerBitExtract;
  t.core[uint32_t(Op::OpGroupNonUniformBallotBitCount)] = &lowerBitCount;
  t.core[uint32_t(Op::OpGroupNonUniformBallotFindLSB)] = &lowerFind<false>;
  t.core[uint32_t(Op::OpGroupNonUniformBallotFindMSB)] = &lowerFind<true>;
}

}  // namespace spvsim
