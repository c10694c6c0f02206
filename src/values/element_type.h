// The OpenCL C scalar and vector types that --arg specs and .sim headers name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spvsim::values {

enum class Scalar {
  Char,
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,
  ULong,
  Half,
  Float,
  Double,
  SizeT
};

uint32_t scalarSize(Scalar s);  // bytes; size_t is 8 (spir64)
std::string_view scalarName(Scalar s);
bool isFloating(Scalar s);       // half, float, double
bool isSignedInteger(Scalar s);  // char, short, int, long

// A scalar or an OpenCL vector (2, 3, 4, 8 or 16 components). A 3-component vector
// occupies 4 components in memory, as in OpenCL C.
struct ElementType {
  Scalar scalar = Scalar::Int;
  uint32_t lanes = 1;

  uint32_t storedLanes() const { return lanes == 3 ? 4 : lanes; }
  uint64_t size() const { return uint64_t{scalarSize(scalar)} * storedLanes(); }
  std::string name() const;  // "int", "float4"
  bool operator==(const ElementType&) const = default;
};

// "int" -> {Int, 1}, "uchar16" -> {UChar, 16}; nullopt for anything else (including
// vectors of size_t and vector widths other than 2, 3, 4, 8, 16).
std::optional<ElementType> parseElementType(std::string_view name);

// The name of what a parameter's OpenCL C type points to (or holds): "const float4 *" ->
// "float4", "__global int[8]" -> "int", "unsigned int*" -> "uint" (OpenCL C 6.3.1: the
// same type). Takes off an array suffix, trailing '*' and spaces, and leading qualifiers
// (const, volatile, restrict, the address spaces with or without "__"). The one reading
// of type names that bundles, .sim files, the layer and the debugger share.
std::string pointeeTypeName(std::string_view type);

}  // namespace spvsim::values
