// The one "handler by byte size" picker: lowering chooses a handler instantiated for the
// operand's size once, so the handler's loops have a known element size (no size test per
// lane or per execution). Two forms: handlers templated on a byte count (F<N>, e.g. the
// lane copies of loads and stores) and handlers templated on an unsigned integer type
// (H<T>, e.g. shuffles, which move bits, and atomics). A size outside the list gives
// nullptr: the caller falls back to a general handler or reports the type unsupported.
#pragma once

#include <cstdint>

#include "src/exec/lowered.h"

namespace spvsim::ops {

// &F<N>::run for the N among kSizes that equals `bytes`; nullptr where none does.
// E.g. bySize<Load, 1, 2, 4, 8, 16>(bytes).
template <template <uint32_t> class F, uint32_t... kSizes>
ExecFn bySize(uint32_t bytes) {
  ExecFn fn = nullptr;
  (void)((bytes == kSizes && (fn = &F<kSizes>::run, true)) || ...);
  return fn;
}

// The unsigned integer type of N bytes (N: 1, 2, 4 or 8).
template <uint32_t N>
struct UnsignedOfBytes;
template <>
struct UnsignedOfBytes<1> {
  using type = uint8_t;
};
template <>
struct UnsignedOfBytes<2> {
  using type = uint16_t;
};
template <>
struct UnsignedOfBytes<4> {
  using type = uint32_t;
};
template <>
struct UnsignedOfBytes<8> {
  using type = uint64_t;
};
template <uint32_t N>
using UnsignedOf = typename UnsignedOfBytes<N>::type;

// &H<T>::run for T the unsigned integer of `bytes` bytes, where `bytes` is among kSizes
// (each 1, 2, 4 or 8); nullptr otherwise. E.g. byUnsigned<Shuffle, 1, 2, 4, 8>(bytes).
// A handler of more parameters passes an alias template: for Rmw<T, Op>,
// `template <class Op> struct RmwOf { template <class T> using Of = Rmw<T, Op>; };`
// and byUnsigned<RmwOf<Op>::template Of, 4, 8>(bytes).
template <template <class> class H, uint32_t... kSizes>
ExecFn byUnsigned(uint32_t bytes) {
  ExecFn fn = nullptr;
  (void)((bytes == kSizes && (fn = &H<UnsignedOf<kSizes>>::run, true)) || ...);
  return fn;
}

}  // namespace spvsim::ops
