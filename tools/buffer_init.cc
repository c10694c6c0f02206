#include "tools/buffer_init.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "spirv/error.h"
#include "tools/scalar_codec.h"

namespace spvsim::tools {
namespace {

// Calls f(component index k, destination) for every component of every element.
template <typename F>
void forEachComponent(const ElementType& type, std::vector<uint8_t>& bytes, F f) {
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
                std::vector<uint8_t>& bytes) {
  if (values.size() != 1 && values.size() != type.lanes)
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("fill() of {} takes 1 or {} values, not {}", type.name(), type.lanes,
                            values.size()));
  std::vector<uint8_t> parsed(values.size() * scalarSize(type.scalar));
  for (size_t i = 0; i < values.size(); ++i)
    storeLiteral(type.scalar, values[i], parsed.data() + i * scalarSize(type.scalar));
  forEachComponent(type, bytes, [&](uint64_t k, uint8_t* out) {
    const size_t which = values.size() == 1 ? 0 : k % type.lanes;
    std::copy_n(parsed.data() + which * scalarSize(type.scalar), scalarSize(type.scalar), out);
  });
}

void rangeBuffer(const ElementType& type, std::string_view start, std::string_view step,
                 std::vector<uint8_t>& bytes) {
  if (isFloating(type.scalar)) {
    const double first = realLiteral(start), delta = realLiteral(step);
    forEachComponent(type, bytes, [&](uint64_t k, uint8_t* out) {
      storeReal(type.scalar, first + static_cast<double>(k) * delta, out);
    });
    return;
  }
  const uint64_t first = integerLiteral(type.scalar, start);
  const uint64_t delta = integerLiteral(Scalar::Long, step);
  forEachComponent(type, bytes, [&](uint64_t k, uint8_t* out) {
    storeBits(type.scalar, first + k * delta, out);
  });
}

void valuesBuffer(const ElementType& type, const std::vector<std::string_view>& values,
                  std::vector<uint8_t>& bytes) {
  const uint64_t components = bytes.size() / type.size() * type.lanes;
  if (values.size() != components)
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("values() has {} value{} but the buffer has {} {}{}", values.size(),
                            values.size() == 1 ? "" : "s", components,
                            type.lanes == 1 ? "element" : "component", components == 1 ? "" : "s"));
  forEachComponent(type, bytes,
                   [&](uint64_t k, uint8_t* out) { storeLiteral(type.scalar, values[k], out); });
}

void randomBuffer(const ElementType& type, uint64_t seed, std::vector<uint8_t>& bytes) {
  uint64_t state = seed;
  forEachComponent(type, bytes, [&](uint64_t, uint8_t* out) {
    const uint64_t draw = splitmix64(state);
    switch (type.scalar) {
      case Scalar::Half:
        return storeReal(type.scalar, std::ldexp(static_cast<double>(draw >> 53), -11), out);
      case Scalar::Float:
        return storeReal(type.scalar, std::ldexp(static_cast<double>(draw >> 40), -24), out);
      case Scalar::Double:
        return storeReal(type.scalar, std::ldexp(static_cast<double>(draw >> 11), -53), out);
      default:
        return storeBits(type.scalar, draw % 100, out);
    }
  });
}

}  // namespace spvsim::tools
