#include "tools/cli/check_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "tools/cli/image_arg.h"
#include "tools/cli/scalar_codec.h"

namespace spvsim::tools {
namespace {

// One element's component bytes at `out`, NaNs replaced by the quiet NaN storeReal gives.
void canonicalElement(const ElementType& t, const uint8_t* in, uint8_t* out) {
  const uint32_t bytes = scalarSize(t.scalar);
  for (uint32_t c = 0; c < t.lanes; ++c) {
    const uint8_t* from = in + c * bytes;
    uint8_t* to = out + c * bytes;
    if (isFloating(t.scalar) && std::isnan(loadReal(t.scalar, from)))
      storeReal(t.scalar, std::nan(""), to);
    else
      std::memcpy(to, from, bytes);
  }
}

// Element `i` of canonical contents, printed as --dump prints it.
std::string formatCanonical(const ArgShape& arg, const Contents& c, uint64_t i) {
  std::vector<uint8_t> stored(arg.type.size(), 0);
  std::memcpy(stored.data(), c.bytes.data() + i * c.elementSize, c.elementSize);
  return formatElement(arg.type, stored.data(), arg.hex);
}

int compareElements(const Contents& c, uint64_t i, uint64_t j) {
  return std::memcmp(c.bytes.data() + i * c.elementSize, c.bytes.data() + j * c.elementSize,
                     c.elementSize);
}

int compareAcross(const Contents& a, uint64_t i, const Contents& b, uint64_t j) {
  return std::memcmp(a.bytes.data() + i * a.elementSize, b.bytes.data() + j * b.elementSize,
                     a.elementSize);
}

uint64_t elementsOf(const Contents& c) { return c.bytes.size() / c.elementSize; }

// Occurrences of the value at sorted position `i` (from i on).
uint64_t runLength(const Contents& c, uint64_t i) {
  uint64_t n = 1;
  while (i + n < elementsOf(c) && compareElements(c, i, i + n) == 0) ++n;
  return n;
}

std::optional<Difference> orderedDifference(const ArgShape& arg, const Contents& a,
                                            const Contents& b) {
  std::optional<Difference> d;
  const uint64_t n = std::min(elementsOf(a), elementsOf(b));
  for (uint64_t i = 0; i < n; ++i) {
    if (compareAcross(a, i, b, i) == 0) continue;
    if (!d) d = Difference{i, 0, formatCanonical(arg, a, i), formatCanonical(arg, b, i)};
    ++d->differing;
  }
  return d;
}

std::optional<Difference> multisetDifference(const ArgShape& arg, const Contents& a,
                                             const Contents& b) {
  uint64_t i = 0, j = 0;
  const uint64_t na = elementsOf(a), nb = elementsOf(b);
  while (i < na || j < nb) {
    const int order = i == na ? 1 : j == nb ? -1 : compareAcross(a, i, b, j);
    const uint64_t ca = order <= 0 ? runLength(a, i) : 0;
    const uint64_t cb = order >= 0 ? runLength(b, j) : 0;
    if (ca != cb) {
      Difference d;
      d.valueA = d.valueB = order <= 0 ? formatCanonical(arg, a, i) : formatCanonical(arg, b, j);
      d.countA = ca;
      d.countB = cb;
      return d;
    }
    i += ca;
    j += cb;
  }
  return std::nullopt;
}

std::string times(uint64_t n) { return fmt::format("{} time{}", n, n == 1 ? "" : "s"); }

}  // namespace

Contents canonicalContents(const ArgValue& arg, bool unordered) {
  const ElementType& t = arg.type;
  Contents c;
  c.elementSize = uint64_t{scalarSize(t.scalar)} * t.lanes;
  const uint64_t count = std::min<uint64_t>(arg.count, arg.bytes.size() / t.size());
  if (!isFloating(t.scalar) && t.lanes != 3) {
    c.bytes.assign(arg.bytes.begin(), arg.bytes.begin() + count * t.size());
  } else {
    c.bytes.resize(count * c.elementSize);
    for (uint64_t i = 0; i < count; ++i)
      canonicalElement(t, arg.bytes.data() + i * t.size(), c.bytes.data() + i * c.elementSize);
  }
  if (!unordered) return c;
  std::vector<uint64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](uint64_t i, uint64_t j) { return compareElements(c, i, j) < 0; });
  Contents sorted{c.elementSize, std::vector<uint8_t>(c.bytes.size())};
  for (uint64_t k = 0; k < count; ++k)
    std::memcpy(sorted.bytes.data() + k * c.elementSize, c.bytes.data() + order[k] * c.elementSize,
                c.elementSize);
  return sorted;
}

std::optional<Difference> firstDifference(const ArgShape& arg, const Contents& a, const Contents& b,
                                          bool unordered) {
  return unordered ? multisetDifference(arg, a, b) : orderedDifference(arg, a, b);
}

std::string argTypeText(const ArgValue& arg) {
  if (arg.kind == ArgValue::Kind::Image) return imageHeader(arg);
  return fmt::format("{}[{}]", arg.type.name(), arg.count);
}

ArgShape argShape(const ArgValue& arg) { return {arg.type, arg.hex, arg.count, argTypeText(arg)}; }

std::string describeDifference(size_t index, const ArgShape& arg, const Difference& d,
                               bool unordered, const std::string& a, const std::string& b) {
  if (unordered)
    return fmt::format("argument {} ({}, unordered): value {}: {} {}, {} {}", index, arg.typeText,
                       d.valueA, a, times(d.countA), b, times(d.countB));
  return fmt::format("argument {} ({}): element {}: {} {}, {} {} ({} of {} elements differ)", index,
                     arg.typeText, d.element, a, d.valueA, b, d.valueB, d.differing, arg.count);
}

}  // namespace spvsim::tools
