// Comparing what the device left in a buffer with what spvsim computed from the same
// inputs, element by element in the type the kernel's parameter points to: integers and
// bytes exactly, floating-point values with their distance in ulps (units in the last
// place: how many representable values lie between them) and any NaN equal to any NaN.
// The OpenCL C specification lets most math built-ins be inexact ("Relative Error as
// ULPs", OpenCL C 3.0 section 7.4), so a float mismatch says whether the built-ins the
// kernel calls allow that distance.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::layer {

struct ElementType {
  enum class Scalar { Signed, Unsigned, Float, Bytes };
  Scalar scalar = Scalar::Bytes;
  unsigned bytes = 1;       // of one component
  unsigned lanes = 1;       // components per element (vectors; 3-component ones take 4)
  std::string name;         // "float4", "int", "bytes"
  bool normalized = false;  // image channels of a UNORM/SNORM type (compared as integers)
  unsigned elementBytes() const { return bytes * lanes; }
};

// The element type a parameter's OpenCL C type points to ("const float4*" -> float4);
// bytes for what names no scalar or vector type (structs, void).
ElementType pointeeElement(std::string_view pointerType);

struct Mismatch {
  uint64_t element = 0;  // index in elements of the type, from the argument's start
  unsigned lane = 0;
  std::string device, spvsim;
  std::optional<uint64_t> ulps;  // floating-point components
};

struct Comparison {
  uint64_t differing = 0;       // components that differ
  std::vector<Mismatch> first;  // the first few
  uint64_t maxUlps = 0;         // the largest distance among floating-point ones
  bool onlyFloats = true;       // every difference is a floating-point one
  // Every difference is one unit of a normalized channel (a float -> UNORM/SNORM
  // conversion rounded the other way).
  bool onlyRounding = true;
};

// Compares `device` with `spvsim` (equal sizes; a trailing partial element as bytes),
// keeping the first `keep` differences.
Comparison compareElements(const ElementType& type, const std::vector<uint8_t>& device,
                           const std::vector<uint8_t>& spvsim, size_t keep = 8);

// Distance in ulps between two IEEE values of `bytes` (2, 4 or 8) bytes given as their
// bit patterns; 0 when both are NaN, UINT64_MAX when only one is.
uint64_t ulpDistance(uint64_t a, uint64_t b, unsigned bytes);

// The largest error in ulps (single precision, full profile) that the OpenCL C
// specification allows for any of `builtins` (OpenCL.std extended instruction names the
// kernel calls, and "fdiv" for a division); nullopt when one of them has no bound
// (native_* are implementation-defined, mix has none). Exact built-ins (fabs, fmin, ...)
// count 0, and built-ins without a floating-point result are not counted.
std::optional<double> allowedUlps(const std::set<std::string>& builtins);

}  // namespace spvsim::layer
