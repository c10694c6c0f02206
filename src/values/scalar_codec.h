// Reading literals into the bytes of OpenCL scalars, and printing those bytes back.
// All storage is little-endian, as on every device spvsim simulates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "src/values/element_type.h"

namespace spvsim::values {

enum class IntegerBase { Auto, Hex };

// Parses one literal and stores it at `out` (scalarSize(s) bytes). Throws
// Error(DiagnosticKind::InvalidArgument) naming the literal and the type.
//  - integer types: decimal, or hexadecimal with 0x, optional sign; range-checked. A hex
//    literal may also spell any bit pattern of the type's width (int:0xffffffff is -1).
//    With IntegerBase::Hex (.sim `hex`) digits are hexadecimal even without 0x.
//  - half/float/double: decimal or hex-float (0x1.8p1), inf, -inf, nan; rounded to
//    nearest, ties to even.
void storeLiteral(Scalar s, std::string_view text, uint8_t* out,
                  IntegerBase base = IntegerBase::Auto);

// Stores the low bits of `bits` (integer types) or `value` (floating types).
void storeBits(Scalar s, uint64_t bits, uint8_t* out);
void storeReal(Scalar s, double value, uint8_t* out);

// Reads a stored scalar: integers sign- or zero-extended, floats widened exactly.
uint64_t loadBits(Scalar s, const uint8_t* in);
double loadReal(Scalar s, const uint8_t* in);

// "42", "-1", "2.5", "nan"; with hex, integers print as 0x%0*x of the type's width.
std::string formatScalar(Scalar s, const uint8_t* in, bool hex = false);

// A scalar as formatScalar; a vector as "(1,2,3,4)" (a vec3 shows its 3 components).
std::string formatElement(const ElementType& t, const uint8_t* in, bool hex = false);

// JSON: numbers, vectors as arrays; non-finite floats as "NaN", "Infinity", "-Infinity".
std::string jsonElement(const ElementType& t, const uint8_t* in);

// The same texts appended to `out`, without a string of their own (dumps of millions of
// elements).
void appendScalar(std::string& out, Scalar s, const uint8_t* in, bool hex = false);
void appendElement(std::string& out, const ElementType& t, const uint8_t* in, bool hex = false);
void appendJsonElement(std::string& out, const ElementType& t, const uint8_t* in);

}  // namespace spvsim::values
