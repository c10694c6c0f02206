#include "runtime/layer/compare.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <map>

#include "src/values/element_type.h"

namespace spvsim::layer {
namespace {

struct ScalarName {
  std::string_view name;
  ElementType::Scalar scalar;
  unsigned bytes;
};

constexpr ScalarName kScalars[] = {
    {"char", ElementType::Scalar::Signed, 1},   {"uchar", ElementType::Scalar::Unsigned, 1},
    {"short", ElementType::Scalar::Signed, 2},  {"ushort", ElementType::Scalar::Unsigned, 2},
    {"int", ElementType::Scalar::Signed, 4},    {"uint", ElementType::Scalar::Unsigned, 4},
    {"long", ElementType::Scalar::Signed, 8},   {"ulong", ElementType::Scalar::Unsigned, 8},
    {"half", ElementType::Scalar::Float, 2},    {"float", ElementType::Scalar::Float, 4},
    {"double", ElementType::Scalar::Float, 8},  {"size_t", ElementType::Scalar::Unsigned, 8},
    {"bool", ElementType::Scalar::Unsigned, 1},
};

uint64_t load(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, bytes);  // little-endian host, as the devices the layer watches
  return v;
}

bool isNan(uint64_t bits, unsigned bytes) {
  switch (bytes) {
    case 2:
      return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
    case 4:
      return (bits & 0x7f800000) == 0x7f800000 && (bits & 0x7fffff);
    default:
      return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0xfffffffffffffull);
  }
}

// The IEEE bit pattern mapped onto a line on which consecutive values are consecutive
// integers (-0 and +0 both at 0).
int64_t ordinal(uint64_t bits, unsigned bytes) {
  const uint64_t sign = 1ull << (bytes * 8 - 1);
  const int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return bits & sign ? -magnitude : magnitude;
}

double toDouble(uint64_t bits, unsigned bytes) {
  if (bytes == 4) {
    float f;
    uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  if (bytes == 8) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  // half: sign, 5-bit exponent, 10-bit fraction.
  const int exponent = static_cast<int>((bits >> 10) & 0x1f);
  const double fraction = static_cast<double>(bits & 0x3ff);
  double v = exponent == 0    ? std::ldexp(fraction, -24)
             : exponent == 31 ? (fraction ? NAN : INFINITY)
                              : std::ldexp(1024 + fraction, exponent - 25);
  return bits & 0x8000 ? -v : v;
}

// A component of an integer type as its value (sign-extended for the signed ones).
int64_t integer(uint64_t bits, const ElementType& t) {
  if (t.scalar != ElementType::Scalar::Signed || t.bytes >= 8) return static_cast<int64_t>(bits);
  const unsigned shift = 64 - t.bytes * 8;
  return static_cast<int64_t>(bits << shift) >> shift;
}

std::string text(uint64_t bits, const ElementType& t) {
  switch (t.scalar) {
    case ElementType::Scalar::Float:
      return fmt::format("{} ({:#0{}x})", toDouble(bits, t.bytes), bits, t.bytes * 2 + 2);
    case ElementType::Scalar::Signed: {
      const unsigned shift = 64 - t.bytes * 8;
      return fmt::format("{}", static_cast<int64_t>(bits << shift) >> shift);
    }
    case ElementType::Scalar::Unsigned:
      return fmt::format("{}", bits);
    case ElementType::Scalar::Bytes:
      break;
  }
  return fmt::format("{:#04x}", bits);
}

}  // namespace

ElementType pointeeElement(std::string_view typeName) {
  const std::string pointee = values::pointeeTypeName(typeName);
  const std::string_view type = pointee;
  for (const ScalarName& s : kScalars) {
    if (type.substr(0, s.name.size()) != s.name) continue;
    const std::string_view width = type.substr(s.name.size());
    unsigned lanes = 1;
    if (!width.empty()) {
      if (width == "2" || width == "4" || width == "8" || width == "16")
        lanes = static_cast<unsigned>(std::stoul(std::string(width)));
      else if (width == "3")
        lanes = 4;  // a 3-component vector occupies 4 components in memory
      else
        continue;  // "int2x" or "interval": not a scalar or vector name
    }
    return ElementType{s.scalar, s.bytes, lanes, std::string(type)};
  }
  return ElementType{ElementType::Scalar::Bytes, 1, 1, "bytes"};
}

uint64_t ulpDistance(uint64_t a, uint64_t b, unsigned bytes) {
  const bool nanA = isNan(a, bytes), nanB = isNan(b, bytes);
  if (nanA || nanB) return nanA && nanB ? 0 : UINT64_MAX;
  const int64_t x = ordinal(a, bytes), y = ordinal(b, bytes);
  return x > y ? static_cast<uint64_t>(x - y) : static_cast<uint64_t>(y - x);
}

Comparison compareElements(const ElementType& type, const std::vector<uint8_t>& device,
                           const std::vector<uint8_t>& spvsim, size_t keep) {
  Comparison c;
  const size_t size = std::min(device.size(), spvsim.size());
  const size_t whole = size / type.bytes * type.bytes;
  for (size_t at = 0; at < size;) {
    const bool partial = at >= whole;  // a trailing piece smaller than one component
    const unsigned n = partial ? 1 : type.bytes;
    const ElementType& t = partial ? ElementType{} : type;
    const uint64_t d = load(&device[at], n), s = load(&spvsim[at], n);
    if (d != s) {
      std::optional<uint64_t> ulps;
      if (t.scalar == ElementType::Scalar::Float) ulps = ulpDistance(d, s, n);
      if (!ulps || *ulps != 0) {
        ++c.differing;
        c.onlyFloats = c.onlyFloats && ulps.has_value();
        const int64_t units = integer(d, t) - integer(s, t);
        c.onlyRounding = c.onlyRounding && t.normalized && (units == 1 || units == -1);
        if (ulps) c.maxUlps = std::max(c.maxUlps, *ulps);
        if (c.first.size() < keep) {
          const uint64_t component = at / type.bytes;
          c.first.push_back(Mismatch{component / type.lanes,
                                     static_cast<unsigned>(component % type.lanes), text(d, t),
                                     text(s, t), ulps});
        }
      }
    }
    at += n;
  }
  if (device.size() != spvsim.size()) {
    ++c.differing;
    c.onlyFloats = false;
    c.onlyRounding = false;
  }
  if (c.differing == 0) c.onlyFloats = c.onlyRounding = false;
  return c;
}

std::optional<double> allowedUlps(const std::set<std::string>& builtins) {
  // OpenCL C 3.0, section 7.4, "ULP values for single precision built-in math functions"
  // (full profile). Built-ins the table gives no bound for, and native_* (whose accuracy
  // is implementation-defined), have none here. "fdiv" stands for x / y (2.5 ulp).
  static const std::map<std::string, double, std::less<>> kUlps = {
      {"fdiv", 2.5},    {"acos", 4},    {"acosh", 4},   {"acospi", 5},  {"asin", 4},
      {"asinh", 4},     {"asinpi", 5},  {"atan", 5},    {"atanh", 5},   {"atanpi", 5},
      {"atan2", 6},     {"atan2pi", 6}, {"cbrt", 2},    {"ceil", 0},    {"copysign", 0},
      {"cos", 4},       {"cosh", 4},    {"cospi", 4},   {"erfc", 16},   {"erf", 16},
      {"exp", 3},       {"exp2", 3},    {"exp10", 3},   {"expm1", 3},   {"fabs", 0},
      {"fdim", 0},      {"floor", 0},   {"fma", 0},     {"fmax", 0},    {"fmin", 0},
      {"fmod", 0},      {"fract", 0},   {"frexp", 0},   {"hypot", 4},   {"ilogb", 0},
      {"ldexp", 0},     {"log", 3},     {"log2", 3},    {"log10", 3},   {"log1p", 2},
      {"logb", 0},      {"maxmag", 0},  {"minmag", 0},  {"modf", 0},    {"nan", 0},
      {"nextafter", 0}, {"pow", 16},    {"pown", 16},   {"powr", 16},   {"remainder", 0},
      {"remquo", 0},    {"rint", 0},    {"rootn", 16},  {"round", 0},   {"rsqrt", 2},
      {"sin", 4},       {"sincos", 4},  {"sinh", 4},    {"sinpi", 4},   {"sqrt", 3},
      {"tan", 5},       {"tanh", 5},    {"tanpi", 6},   {"tgamma", 16}, {"trunc", 0},
      {"fclamp", 0},    {"degrees", 2}, {"radians", 2}, {"step", 0},    {"fsign", 0},
  };
  // Floating-point built-ins without a bound in the table.
  static const std::set<std::string, std::less<>> kUnbounded = {"lgamma", "lgamma_r", "mix",
                                                                "smoothstep"};
  double most = 0;
  for (const std::string& b : builtins) {
    if (b.rfind("half_", 0) == 0) {
      most = std::max(most, 8192.0);
      continue;
    }
    if (b.rfind("native_", 0) == 0 || kUnbounded.count(b)) return std::nullopt;
    if (const auto it = kUlps.find(b); it != kUlps.end()) most = std::max(most, it->second);
    // Anything else (s_max, vload4, printf, ...) computes no floating-point result.
  }
  return most;
}

}  // namespace spvsim::layer
