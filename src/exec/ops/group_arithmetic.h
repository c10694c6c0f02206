// Group arithmetic shared by the uniform (OpGroup*, OpGroup*KHR: Subgroup and Workgroup
// scope) and the non-uniform (OpGroupNonUniform*) families: each operation with its
// identity, and reduce / inclusive scan / exclusive scan / clustered reduce over an
// ordered set of lanes.
//
// Fold order: a left fold in order of increasing local id, ((v0 op v1) op v2) ...,
// the order in which OpenCL C defines its scans. It starts at the first value, not at
// the identity, so a lone -0.0 or NaN comes back unchanged; the identity is only the
// result of an empty exclusive prefix.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// lowering.h first: it brings spirv.hpp11, which group_util.h's spirv.hpp would otherwise hide.
#include "src/exec/lowering.h"
#include "src/exec/ops/group_util.h"

namespace spvsim::ops {

// SPIR-V GroupOperation (the literal operand of every group arithmetic instruction).
enum class GroupOperation : uint32_t {
  Reduce = 0,
  InclusiveScan = 1,
  ExclusiveScan = 2,
  ClusteredReduce = 3,
};

// Integer arithmetic wraps: it is done in an unsigned type at least as wide as int, so
// neither signed overflow nor integer promotion is undefined behaviour.
template <class T>
using WrapType = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

// Operations: identity() as the SPIR-V and OpenCL C specs give it, apply(a, b).
template <class T>
struct AddOp {
  static T identity() { return T(0); }
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return T(WrapType<T>(a) + WrapType<T>(b));
    else
      return T(a + b);
  }
};

template <class T>
struct MulOp {
  static T identity() { return T(1); }
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return T(WrapType<T>(a) * WrapType<T>(b));
    else
      return T(a * b);
  }
};

// Float min/max follow OpGroupNonUniformFMin/FMax: "if for any two Values one of them
// is a NaN, the other is chosen"; only all-NaN input gives NaN (an undefined value).
// OpGroupFMin/FMax say nothing about NaN; they share the rule.
template <class T>
struct MinOp {
  static T identity() {
    if constexpr (std::is_integral_v<T>)
      return std::numeric_limits<T>::max();
    else
      return T(std::numeric_limits<float>::infinity());
  }
  static T apply(T a, T b) {
    if constexpr (!std::is_integral_v<T>) {
      if (a != a) return b;
      if (b != b) return a;
    }
    return b < a ? b : a;
  }
};

template <class T>
struct MaxOp {
  static T identity() {
    if constexpr (std::is_integral_v<T>)
      return std::numeric_limits<T>::min();  // 0 for unsigned types
    else
      return T(-std::numeric_limits<float>::infinity());
  }
  static T apply(T a, T b) {
    if constexpr (!std::is_integral_v<T>) {
      if (a != a) return b;
      if (b != b) return a;
    }
    return a < b ? b : a;
  }
};

template <class T>
struct AndOp {
  static T identity() { return T(~T(0)); }
  static T apply(T a, T b) { return T(a & b); }
};
template <class T>
struct OrOp {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a | b); }
};
template <class T>
struct XorOp {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a ^ b); }
};

// Booleans are one byte per lane holding 0 or 1.
template <class T>
struct LogicalAndOp {
  static T identity() { return T(1); }
  static T apply(T a, T b) { return T(a & b); }
};
template <class T>
struct LogicalOrOp {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a | b); }
};
template <class T>
struct LogicalXorOp {
  static T identity() { return T(0); }
  static T apply(T a, T b) { return T(a ^ b); }
};

// Applies Op to the values get(0) .. get(count - 1), in that order, and hands each
// position's result to put(i, v). ClusteredReduce is the caller's: one Reduce per
// cluster. Every get(i) happens before put(i), so results may overwrite operands.
template <class Op, class T, class Get, class Put>
void foldSequence(GroupOperation g, uint32_t count, Get get, Put put) {
  if (count == 0) return;
  T acc = get(0);
  switch (g) {
    case GroupOperation::Reduce:
    case GroupOperation::ClusteredReduce:
      for (uint32_t i = 1; i < count; ++i) acc = Op::apply(acc, get(i));
      for (uint32_t i = 0; i < count; ++i) put(i, acc);
      return;
    case GroupOperation::InclusiveScan:
      put(0, acc);
      for (uint32_t i = 1; i < count; ++i) {
        acc = Op::apply(acc, get(i));
        put(i, acc);
      }
      return;
    case GroupOperation::ExclusiveScan:
      put(0, Op::identity());
      for (uint32_t i = 1; i < count; ++i) {
        const T v = get(i);
        put(i, acc);
        acc = Op::apply(acc, v);
      }
      return;
  }
}

// Inst fields of the sub-group handlers: r result, a value, n elements per lane in the
// register (4 for vec3), aux components, b GroupOperation, c ClusterSize.
//
// Applies the instruction over the active lanes: scans run in lane-id order over them
// only, and a cluster (ClusterSize consecutive lane ids) combines its active lanes.
template <class Op, class T>
void applyOverActiveLanes(SubGroup& sg, const Inst& in, uint32_t clusterSize) {
  uint8_t lanes[kMaxSubGroupSize];
  uint32_t count = 0;
  sg.forActive([&](uint32_t l) { lanes[count++] = static_cast<uint8_t>(l); });
  const T* a = sg.reg<T>(in.a);
  T* r = sg.reg<T>(in.r);
  const auto g = static_cast<GroupOperation>(in.b);
  for (uint32_t c = 0; c < in.aux; ++c) {
    auto run = [&](GroupOperation op, uint32_t first, uint32_t n) {
      auto at = [&](uint32_t i) { return size_t(lanes[first + i]) * in.n + c; };
      foldSequence<Op, T>(
          op, n, [&](uint32_t i) { return a[at(i)]; }, [&](uint32_t i, T v) { r[at(i)] = v; });
    };
    if (g != GroupOperation::ClusteredReduce) {
      run(g, 0, count);
      continue;
    }
    // The active lanes are sorted, so each cluster's are one run of `lanes`.
    for (uint32_t first = 0; first < count;) {
      uint32_t end = first + 1;
      while (end < count && lanes[end] / clusterSize == lanes[first] / clusterSize) ++end;
      run(GroupOperation::Reduce, first, end - first);
      first = end;
    }
  }
}

// Applies a Reduce or scan over every work-item of a work-group, in linear local id
// order: sub-groups in order (src/exec/workgroup.cc passes them so), lanes in order.
template <class Op, class T>
void applyOverWorkGroup(SubGroup* sgs, size_t count, const Inst& in) {
  std::vector<std::pair<SubGroup*, uint32_t>> items;
  for (size_t k = 0; k < count; ++k)
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l) items.emplace_back(&sgs[k], l);
  const auto g = static_cast<GroupOperation>(in.b);
  for (uint32_t c = 0; c < in.aux; ++c) {
    auto element = [&](uint32_t i, uint32_t reg) -> T& {
      return laneElement<T>(*items[i].first, reg, items[i].second, in.n, c);
    };
    foldSequence<Op, T>(
        g, static_cast<uint32_t>(items.size()), [&](uint32_t i) { return element(i, in.a); },
        [&](uint32_t i, T v) { element(i, in.r) = v; });
  }
}

// What a reduction or scan is called in diagnostics.
inline const char* groupOperationName(uint32_t g) {
  switch (static_cast<GroupOperation>(g)) {
    case GroupOperation::Reduce:
      return "reduction";
    case GroupOperation::InclusiveScan:
      return "inclusive scan";
    case GroupOperation::ExclusiveScan:
      return "exclusive scan";
    default:
      return "clustered reduction";
  }
}

// The handlers of one operation, by element type.
template <template <class> class Op>
struct GroupArithmetic {
  // OpGroupNonUniform*: the active lanes, whichever they are.
  template <class T>
  struct NonUniform {
    static void run(SubGroup& sg, const Inst& in) { applyOverActiveLanes<Op<T>, T>(sg, in, in.c); }
  };
  // OpGroup* at Subgroup scope: every live lane must take part.
  template <class T>
  struct Uniform {
    static void run(SubGroup& sg, const Inst& in) {
      if (sg.mask != sg.live) {
        const std::string what = fmt::format("sub-group {}", groupOperationName(in.b));
        checkCollective(sg, in, what.c_str());
      }
      applyOverActiveLanes<Op<T>, T>(sg, in, 1);
    }
  };
  // OpGroup* at Workgroup scope: the combiner of a work-group collective.
  template <class T>
  struct WorkGroup {
    static void run(SubGroup* sgs, size_t count, const Inst& in) {
      applyOverWorkGroup<Op<T>, T>(sgs, count, in);
    }
  };
};

// Which element types an opcode takes: integers in their unsigned or signed reading,
// floats, or booleans.
enum class Numbers : uint8_t { Unsigned, Signed, Float, Bool };

// H<T>::run for the element type that K and `s` name, or nullptr when the opcode does
// not take that type. Like pickUnsigned and friends, for handlers and combiners alike.
template <template <class> class H, Numbers K>
auto pickNumbers(Scalar s) -> decltype(&H<uint32_t>::run) {
  if constexpr (K == Numbers::Unsigned || K == Numbers::Signed) {
    using S8 = std::conditional_t<K == Numbers::Signed, int8_t, uint8_t>;
    using S16 = std::conditional_t<K == Numbers::Signed, int16_t, uint16_t>;
    using S32 = std::conditional_t<K == Numbers::Signed, int32_t, uint32_t>;
    using S64 = std::conditional_t<K == Numbers::Signed, int64_t, uint64_t>;
    switch (s) {
      case Scalar::U8:
        return &H<S8>::run;
      case Scalar::U16:
        return &H<S16>::run;
      case Scalar::U32:
        return &H<S32>::run;
      case Scalar::U64:
        return &H<S64>::run;
      default:
        return nullptr;
    }
  } else if constexpr (K == Numbers::Float) {
    switch (s) {
      case Scalar::F16:
        return &H<_Float16>::run;
      case Scalar::F32:
        return &H<float>::run;
      case Scalar::F64:
        return &H<double>::run;
      default:
        return nullptr;
    }
  } else {
    return s == Scalar::Bool ? &H<uint8_t>::run : nullptr;
  }
}

// The GroupOperation literal of a group arithmetic instruction (operand 1), checked
// against what the family allows.
inline uint32_t groupOperationOperand(Lowerer& lw, const spirv::Instruction& inst,
                                      bool clusteredAllowed) {
  const uint32_t g = Lowerer::operand(inst, 1);
  if (g <= uint32_t(GroupOperation::ExclusiveScan) ||
      (clusteredAllowed && g == uint32_t(GroupOperation::ClusteredReduce)))
    return g;
  lw.unsupported(inst, fmt::format("{} with GroupOperation {}", lw.describeWithType(inst), g));
}

// A signed min/max needs whole bytes: odd-width integers live zero-extended.
inline void checkWholeBytes(Lowerer& lw, const spirv::Instruction& inst, Numbers k,
                            const Shape& s) {
  if (k == Numbers::Signed && s.bits != 8 && s.bits != 16 && s.bits != 32 && s.bits != 64)
    lw.unsupported(inst, lw.describeWithType(inst));
}

}  // namespace spvsim::ops
