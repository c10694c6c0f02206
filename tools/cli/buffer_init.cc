#include "tools/cli/buffer_init.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "spirv/error.h"
#include "tools/cli/scalar_codec.h"

namespace spvsim::tools {
namespace {

// Calls f(component index k, destination) for every component of every element.
template <typename F>
void forEachComponent(const ElementType& type, std::span<uint8_t> bytes, F f) {
  const uint64_t elements = bytes.size() / type.size();
  const uint32_t scalar = scalarSize(type.scalar);
  uint64_t k = 0;
  for (uint64_t e = 0; e < elements; ++e)
    for (uint32_t c = 0; c < type.lanes; ++c) f(k++, bytes.data() + e * type.size() + c * scalar);
}

double realLiteral(std::string_view text) {
  uint8_t buffer[8];
  storeLiteral(Scalar::Double, text, buffer);
  return loadReal(Scalar::Double, buffer);
}

uint64_t integerLiteral(Scalar s, std::string_view text) {
  uint8_t buffer[8];
  storeLiteral(s, text, buffer);
  return loadBits(s, buffer);
}

}  // namespace

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void fillBuffer(const ElementType& type, const std::vector<std::string_view>& values,
                std::span<uint8_t> bytes) {
  if (values.size() != 1 && values.size() != type.lanes)
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("fill() of {} takes 1 or {} values, not {}", type.name(), type.lanes,
                            values.size()));
  // One element's bytes, then copies of what is filled so far, doubling: a buffer of
  // 16 MB fills at memory speed, not one scalar store (a call per component) at a time.
  const uint32_t scalar = scalarSize(type.scalar), element = type.size();
  std::vector<uint8_t> parsed(values.size() * scalar);
  for (size_t i = 0; i < values.size(); ++i)
    storeLiteral(type.scalar, values[i], parsed.data() + i * scalar);
  const size_t filled = bytes.size() / element * element;
  if (filled == 0) return;
  for (uint32_t c = 0; c < type.lanes; ++c)
    std::copy_n(parsed.data() + (values.size() == 1 ? 0 : c) * scalar, scalar,
                bytes.data() + c * scalar);
  for (size_t done = element; done < filled;) {
    const size_t n = std::min(done, filled - done);
    std::copy_n(bytes.data(), n, bytes.data() + done);
    done += n;
  }
}

namespace {

// first + k * delta into every component k, as T: a loop the compiler vectorises.
template <class T, class V>
void rangeOf(std::span<uint8_t> bytes, uint64_t components, V first, V delta) {
  // A buffer's storage (operator new): aligned for any scalar.
  T* out = reinterpret_cast<T*>(bytes.data());
  for (uint64_t k = 0; k < components; ++k) out[k] = T(first + V(k) * delta);
}

}  // namespace

void rangeBuffer(const ElementType& type, std::string_view start, std::string_view step,
                 std::span<uint8_t> bytes) {
  const uint64_t components = bytes.size() / type.size() * type.lanes;
  // Components lie back to back unless the type has padding (3-component vectors).
  const bool packed = type.size() == type.lanes * scalarSize(type.scalar);
  if (isFloating(type.scalar)) {
    const double first = realLiteral(start), delta = realLiteral(step);
    // Typed loops for the common types (the same double arithmetic and rounding as
    // storeReal: one conversion of first + k * delta); half through storeReal.
    if (packed && type.scalar == Scalar::Float)
      return rangeOf<float>(bytes, components, first, delta);
    if (packed && type.scalar == Scalar::Double)
      return rangeOf<double>(bytes, components, first, delta);
    forEachComponent(type, bytes, [&](uint64_t k, uint8_t* out) {
      storeReal(type.scalar, first + static_cast<double>(k) * delta, out);
    });
    return;
  }
  const uint64_t first = integerLiteral(type.scalar, start);
  const uint64_t delta = integerLiteral(Scalar::Long, step);
  if (!packed) {
    forEachComponent(type, bytes, [&](uint64_t k, uint8_t* out) {
      storeBits(type.scalar, first + k * delta, out);
    });
    return;
  }
  switch (scalarSize(type.scalar)) {  // wrapping arithmetic, truncated to the width
    case 1:
      return rangeOf<uint8_t>(bytes, components, first, delta);
    case 2:
      return rangeOf<uint16_t>(bytes, components, first, delta);
    case 4:
      return rangeOf<uint32_t>(bytes, components, first, delta);
    default:
      return rangeOf<uint64_t>(bytes, components, first, delta);
  }
}

void valuesBuffer(const ElementType& type, const std::vector<std::string_view>& values,
                  std::span<uint8_t> bytes) {
  const uint64_t components = bytes.size() / type.size() * type.lanes;
  if (values.size() != components)
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("values() has {} value{} but the buffer has {} {}{}", values.size(),
                            values.size() == 1 ? "" : "s", components,
                            type.lanes == 1 ? "element" : "component", components == 1 ? "" : "s"));
  forEachComponent(type, bytes,
                   [&](uint64_t k, uint8_t* out) { storeLiteral(type.scalar, values[k], out); });
}

namespace {

// The fraction in [0, 1) that random(SEED) stores for a floating type: the draw's top
// bits, as many as the type's significand holds.
double fractionOf(Scalar s, uint64_t draw) {
  switch (s) {
    case Scalar::Half:
      return std::ldexp(static_cast<double>(draw >> 53), -11);
    case Scalar::Float:
      return std::ldexp(static_cast<double>(draw >> 40), -24);
    default:
      return std::ldexp(static_cast<double>(draw >> 11), -53);
  }
}

// The stored value at `out` moved one step of the type towards minus infinity (IEEE
// sign-magnitude bits): used where rounding LO + f * (HI - LO) reached HI.
void stepDown(Scalar s, uint8_t* out) {
  const uint64_t signBit = uint64_t(1) << (scalarSize(s) * 8 - 1);
  uint64_t bits = loadBits(s, out) & (signBit | (signBit - 1));
  if (bits == 0)
    bits = signBit | 1;  // +0: the negative number of least magnitude
  else
    bits = (bits & signBit) ? bits + 1 : bits - 1;
  storeBits(s, bits, out);
}

void randomFloatRange(const ElementType& type, uint64_t seed, std::string_view loText,
                      std::string_view hiText, std::span<uint8_t> bytes) {
  const double lo = realLiteral(loText), hi = realLiteral(hiText);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("random(SEED,LO,HI) of {} needs finite LO < HI, not {} and {}",
                            type.name(), loText, hiText));
  uint64_t state = seed;
  forEachComponent(type, bytes, [&](uint64_t, uint8_t* out) {
    const double f = fractionOf(type.scalar, splitmix64(state));
    storeReal(type.scalar, lo + f * (hi - lo), out);
    while (loadReal(type.scalar, out) >= hi) stepDown(type.scalar, out);
  });
}

void randomIntegerRange(const ElementType& type, uint64_t seed, std::string_view loText,
                        std::string_view hiText, std::span<uint8_t> bytes) {
  const uint64_t lo = integerLiteral(type.scalar, loText), hi = integerLiteral(type.scalar, hiText);
  const bool ordered = isSignedInteger(type.scalar) ? int64_t(lo) <= int64_t(hi) : lo <= hi;
  if (!ordered)
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("random(SEED,LO,HI) of {} needs LO <= HI, not {} and {}", type.name(),
                            loText, hiText));
  const uint64_t span = hi - lo + 1;  // 0: all 2^64 values of a 64-bit type
  uint64_t state = seed;
  forEachComponent(type, bytes, [&](uint64_t, uint8_t* out) {
    const uint64_t draw = splitmix64(state);
    storeBits(type.scalar, lo + (span ? draw % span : draw), out);
  });
}

}  // namespace

void randomBuffer(const ElementType& type, uint64_t seed, std::span<uint8_t> bytes) {
  uint64_t state = seed;
  forEachComponent(type, bytes, [&](uint64_t, uint8_t* out) {
    const uint64_t draw = splitmix64(state);
    if (isFloating(type.scalar)) return storeReal(type.scalar, fractionOf(type.scalar, draw), out);
    storeBits(type.scalar, draw % 100, out);
  });
}

void randomRangeBuffer(const ElementType& type, uint64_t seed, std::string_view lo,
                       std::string_view hi, std::span<uint8_t> bytes) {
  if (isFloating(type.scalar)) return randomFloatRange(type, seed, lo, hi, bytes);
  randomIntegerRange(type, seed, lo, hi, bytes);
}

}  // namespace spvsim::tools
