#include "src/debugger/debug_print.h"

#include <fmt/format.h>

#include <cstring>

#include "src/exec/memory.h"
#include "src/values/scalar_codec.h"

namespace spvsim::debugger {

using values::formatScalar;
using values::Scalar;
namespace {

constexpr uint64_t kShownElements = 16;  // longer arrays end in "..."

std::optional<Scalar> integerScalar(uint64_t bytes, bool isSigned) {
  switch (bytes) {
    case 1:
      return isSigned ? Scalar::Char : Scalar::UChar;
    case 2:
      return isSigned ? Scalar::Short : Scalar::UShort;
    case 4:
      return isSigned ? Scalar::Int : Scalar::UInt;
    case 8:
      return isSigned ? Scalar::Long : Scalar::ULong;
    default:
      return std::nullopt;
  }
}

std::string formatInteger(const spirv::Type& t, const uint8_t* bytes, const ValueStyle& style) {
  const bool isSigned = style.format == 'd' || (style.format == 0 && style.isSigned);
  const auto s = integerScalar(t.size, isSigned);
  if (!s) return "?";
  return formatScalar(*s, bytes, style.format == 'x');
}

std::string formatFloat(const spirv::Type& t, const uint8_t* bytes, const ValueStyle& style) {
  if (style.format == 'x') {
    const auto s = integerScalar(t.size, false);
    return s ? formatScalar(*s, bytes, true) : "?";
  }
  return formatScalar(t.width == 16   ? Scalar::Half
                      : t.width == 32 ? Scalar::Float
                                      : Scalar::Double,
                      bytes);
}

std::string joinElements(const spirv::Module& m, spirv::Id element, uint64_t count, uint64_t stride,
                         const uint8_t* bytes, const ValueStyle& style, const PointerNamer& namer,
                         const char* separator) {
  std::string out;
  for (uint64_t i = 0; i < count && i < kShownElements; ++i) {
    if (i) out += separator;
    out += formatValue(m, element, bytes + i * stride, style, namer);
  }
  if (count > kShownElements) out += fmt::format("{}... ({} elements)", separator, count);
  return out;
}

}  // namespace

std::string formatLaneList(const LaneMask& lanes) {
  std::string out;
  const std::vector<uint32_t> list = lanes.lanes();
  for (size_t i = 0; i < list.size();) {
    size_t j = i;
    while (j + 1 < list.size() && list[j + 1] == list[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", list[i]) : fmt::format("{}-{}", list[i], list[j]);
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

std::string formatActiveMask(const LaneMask& active, uint32_t live) {
  std::string bitmap;
  for (uint32_t l = 0; l < live; ++l) {
    if (l && l % 8 == 0) bitmap += ' ';
    bitmap += active.test(l) ? '#' : '.';
  }
  const uint32_t count = active.count();
  return fmt::format("lane{} {} active ({}/{})  [{}]", count == 1 ? "" : "s",
                     formatLaneList(active), count, live, bitmap);
}

std::string formatRawPointer(uint64_t p) {
  if (p == 0) return "null";
  const Space s = pointerSpace(p);
  if (s == Space::Invalid) return fmt::format("0x{:016x}", p);
  return fmt::format("{}:{}+{}", spaceName(s), pointerRegion(p), pointerOffset(p));
}

std::string formatValue(const spirv::Module& m, spirv::Id type, const uint8_t* bytes,
                        const ValueStyle& style, const PointerNamer& namer) {
  const spirv::Type* t = m.findType(type);
  if (!t) return "?";
  switch (t->kind) {
    case spirv::TypeKind::Bool:
      return bytes[0] & 1 ? "true" : "false";
    case spirv::TypeKind::Int:
      return formatInteger(*t, bytes, style);
    case spirv::TypeKind::Float:
      return formatFloat(*t, bytes, style);
    case spirv::TypeKind::Pointer: {  // 4 bytes in a Physical32 module: the 32-bit address
      uint64_t p = 0;
      std::memcpy(&p, bytes, std::min<size_t>(t->size, sizeof p));
      return namer ? namer(p) : formatRawPointer(p);
    }
    case spirv::TypeKind::Vector: {
      const uint64_t stride = m.type(t->element).size;
      return "(" + joinElements(m, t->element, t->count, stride, bytes, style, namer, ",") + ")";
    }
    case spirv::TypeKind::Array: {
      const uint64_t stride = m.type(t->element).size;
      return "{" + joinElements(m, t->element, t->count, stride, bytes, style, namer, ", ") + "}";
    }
    case spirv::TypeKind::Struct: {
      std::string out = "{";
      for (size_t i = 0; i < t->members.size() && i < t->memberOffsets.size(); ++i) {
        if (i) out += ", ";
        out += formatValue(m, t->members[i], bytes + t->memberOffsets[i], style, namer);
      }
      return out + "}";
    }
    case spirv::TypeKind::Void:
      return "void";
    default:
      return fmt::format("<{}>", spirv::typeName(m, type));
  }
}

}  // namespace spvsim::debugger
