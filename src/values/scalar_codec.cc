#include "src/values/scalar_codec.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

#include "spirv/error.h"
#include "src/values/half.h"

namespace spvsim::values {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(DiagnosticKind::InvalidArgument, message);
}

uint32_t bitsOf(Scalar s) { return scalarSize(s) * 8; }

uint64_t maxUnsigned(uint32_t bits) {
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

std::string rangeText(Scalar s) {
  const uint32_t bits = bitsOf(s);
  if (!isSignedInteger(s)) return fmt::format("0..{}", maxUnsigned(bits));
  const uint64_t max = maxUnsigned(bits - 1);
  return fmt::format("-{}..{}", max + 1, max);
}

struct SignedText {
  bool negative = false;
  std::string_view rest;
};

SignedText splitSign(std::string_view text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) return {text[0] == '-', text.substr(1)};
  return {false, text};
}

bool startsWithHexPrefix(std::string_view t) {
  return t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
}

uint64_t parseIntegerBits(Scalar s, std::string_view text, IntegerBase base) {
  auto [negative, digits] = splitSign(text);
  const bool hex = base == IntegerBase::Hex || startsWithHexPrefix(digits);
  if (startsWithHexPrefix(digits)) digits.remove_prefix(2);
  uint64_t magnitude = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, hex ? 16 : 10);
  if (digits.empty() || end != digits.data() + digits.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    fail(fmt::format("'{}' is not a valid {} value", text, scalarName(s)));
  const uint32_t bits = bitsOf(s);
  bool ok = ec == std::errc();
  if (ok && negative) {
    ok = isSignedInteger(s) ? magnitude <= maxUnsigned(bits - 1) + 1 : magnitude == 0;
  } else if (ok) {
    const bool patternAllowed = hex || !isSignedInteger(s);
    ok = magnitude <= (patternAllowed ? maxUnsigned(bits) : maxUnsigned(bits - 1));
  }
  if (!ok) fail(fmt::format("{} is out of range for {} ({})", text, scalarName(s), rangeText(s)));
  return negative ? 0 - magnitude : magnitude;
}

std::string lower(std::string_view t) {
  std::string out(t);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

double parseReal(Scalar s, std::string_view text) {
  auto [negative, body] = splitSign(text);
  const std::string word = lower(body);
  double value = 0;
  if (word == "inf" || word == "infinity") {
    value = INFINITY;
  } else if (word == "nan") {
    value = std::nan("");
  } else {
    const bool hex = startsWithHexPrefix(word);
    const char* first = word.data() + (hex ? 2 : 0);
    const char* last = word.data() + word.size();
    auto [end, ec] = std::from_chars(first, last, value,
                                     hex ? std::chars_format::hex : std::chars_format::general);
    if (first == last || end != last || (ec != std::errc() && ec != std::errc::result_out_of_range))
      fail(fmt::format("'{}' is not a valid {} value", text, scalarName(s)));
    if (ec == std::errc::result_out_of_range)
      fail(fmt::format("{} is out of range for {}", text, scalarName(s)));
  }
  return negative ? -value : value;
}

std::string jsonReal(double v) {
  if (std::isnan(v)) return "\"NaN\"";
  if (std::isinf(v)) return v < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  return fmt::format("{}", v);
}

}  // namespace

void storeBits(Scalar s, uint64_t bits, uint8_t* out) {
  for (uint32_t i = 0; i < scalarSize(s); ++i) out[i] = static_cast<uint8_t>(bits >> (8 * i));
}

void storeReal(Scalar s, double value, uint8_t* out) {
  switch (s) {
    case Scalar::Half:
      storeBits(s, toHalf(value), out);
      return;
    case Scalar::Float: {
      const float f = static_cast<float>(value);
      std::memcpy(out, &f, sizeof f);
      return;
    }
    case Scalar::Double:
      std::memcpy(out, &value, sizeof value);
      return;
    default:
      fail(fmt::format("{} is not a floating-point type", scalarName(s)));
  }
}

void storeLiteral(Scalar s, std::string_view text, uint8_t* out, IntegerBase base) {
  if (isFloating(s))
    storeReal(s, parseReal(s, text), out);
  else
    storeBits(s, parseIntegerBits(s, text, base), out);
}

uint64_t loadBits(Scalar s, const uint8_t* in) {
  uint64_t bits = 0;
  const uint32_t size = scalarSize(s);
  for (uint32_t i = 0; i < size; ++i) bits |= uint64_t{in[i]} << (8 * i);
  if (isSignedInteger(s) && size < 8 && (bits >> (size * 8 - 1)) & 1)
    bits |= ~maxUnsigned(size * 8);
  return bits;
}

double loadReal(Scalar s, const uint8_t* in) {
  switch (s) {
    case Scalar::Half:
      return fromHalf(static_cast<uint16_t>(loadBits(s, in)));
    case Scalar::Float: {
      float f;
      std::memcpy(&f, in, sizeof f);
      return f;
    }
    case Scalar::Double: {
      double d;
      std::memcpy(&d, in, sizeof d);
      return d;
    }
    default:
      return isSignedInteger(s) ? static_cast<double>(static_cast<int64_t>(loadBits(s, in)))
                                : static_cast<double>(loadBits(s, in));
  }
}

void appendScalar(std::string& out, Scalar s, const uint8_t* in, bool hex) {
  auto to = std::back_inserter(out);
  switch (s) {
    case Scalar::Half:
    case Scalar::Float:
      // Every half is exactly a float; float formatting gives the shortest text that
      // reads back as the same float.
      fmt::format_to(to, FMT_COMPILE("{}"), static_cast<float>(loadReal(s, in)));
      return;
    case Scalar::Double:
      fmt::format_to(to, FMT_COMPILE("{}"), loadReal(s, in));
      return;
    default:
      break;
  }
  const uint64_t bits = loadBits(s, in);
  if (hex)
    fmt::format_to(to, "0x{:0{}x}", bits & maxUnsigned(bitsOf(s)), scalarSize(s) * 2);
  else if (isSignedInteger(s))
    fmt::format_to(to, FMT_COMPILE("{}"), static_cast<int64_t>(bits));
  else
    fmt::format_to(to, FMT_COMPILE("{}"), bits);
}

void appendElement(std::string& out, const ElementType& t, const uint8_t* in, bool hex) {
  if (t.lanes == 1) return appendScalar(out, t.scalar, in, hex);
  out += '(';
  for (uint32_t i = 0; i < t.lanes; ++i) {
    if (i) out += ',';
    appendScalar(out, t.scalar, in + i * scalarSize(t.scalar), hex);
  }
  out += ')';
}

void appendJsonElement(std::string& out, const ElementType& t, const uint8_t* in) {
  auto one = [&](const uint8_t* p) {
    if (isFloating(t.scalar))
      out += jsonReal(loadReal(t.scalar, p));
    else
      appendScalar(out, t.scalar, p);
  };
  if (t.lanes == 1) return one(in);
  out += '[';
  for (uint32_t i = 0; i < t.lanes; ++i) {
    if (i) out += ',';
    one(in + i * scalarSize(t.scalar));
  }
  out += ']';
}

std::string formatScalar(Scalar s, const uint8_t* in, bool hex) {
  std::string out;
  appendScalar(out, s, in, hex);
  return out;
}

std::string formatElement(const ElementType& t, const uint8_t* in, bool hex) {
  std::string out;
  appendElement(out, t, in, hex);
  return out;
}

std::string jsonElement(const ElementType& t, const uint8_t* in) {
  std::string out;
  appendJsonElement(out, t, in);
  return out;
}

}  // namespace spvsim::values
