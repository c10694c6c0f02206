// Privatised reductions: kernel parameters whose memory the launch only changes through
// commutative atomic read-modify-writes whose results nothing uses (histogram bins,
// counters). Each host thread applies those to a private copy and folds it into the
// buffer once, at the end of the launch; see src/DESIGN.md, "Privatised reductions".
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace spvsim {

// The combining operation a parameter's read-modify-writes share: increment, decrement,
// add and sub are all Add (mod 2^N); the others are themselves.
enum class ReductionOp : uint8_t { Add, UMin, UMax, SMin, SMax, And, Or, Xor };

const char* reductionOpName(ReductionOp op);

// A parameter of the lowered kernel whose every access is such a read-modify-write of
// `bytes`-byte elements (4 or 8) combining by `op`.
struct ReductionTarget {
  uint32_t param = 0;
  ReductionOp op = ReductionOp::Add;
  uint32_t bytes = 0;
  // Every one of them relaxed (no ordering semantics) at Device or CrossDevice scope, and
  // no fence (OpMemoryBarrier) in the call tree: no two of them can race, nor can they
  // carry any synchronisation (a relaxed atomic does only with a fence), so the race
  // checker would judge nothing on them (ObserverFactory::letsReductionBypass).
  bool unordered = false;
};

// The element x with combine(x, y) == y for every y: what a private copy starts as.
template <class T>
constexpr T reductionIdentity(ReductionOp op) {
  static_assert(std::is_unsigned_v<T>);
  using S = std::make_signed_t<T>;
  switch (op) {
    case ReductionOp::UMin:
    case ReductionOp::And:
      return std::numeric_limits<T>::max();
    case ReductionOp::SMin:
      return T(std::numeric_limits<S>::max());
    case ReductionOp::SMax:
      return T(std::numeric_limits<S>::min());
    default:  // Add, UMax, Or, Xor
      return 0;
  }
}

// combine(a, b) for the bit patterns of T.
template <class T>
constexpr T reductionCombine(ReductionOp op, T a, T b) {
  using S = std::make_signed_t<T>;
  switch (op) {
    case ReductionOp::Add:
      return T(a + b);
    case ReductionOp::UMin:
      return b < a ? b : a;
    case ReductionOp::UMax:
      return b > a ? b : a;
    case ReductionOp::SMin:
      return S(b) < S(a) ? b : a;
    case ReductionOp::SMax:
      return S(b) > S(a) ? b : a;
    case ReductionOp::And:
      return a & b;
    case ReductionOp::Or:
      return a | b;
    case ReductionOp::Xor:
      return a ^ b;
  }
  return a;
}

}  // namespace spvsim
