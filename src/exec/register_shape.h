// What is known about how a register's values vary across the lanes of a sub-group
// (src/DESIGN.md, "Register shapes"). Registers still hold every lane's value; the shape
// only lets consumers skip the scans that would find it out (a load's lane addresses,
// an access chain's exactness per lane).
//
// One byte per 64-byte register granule (registers start on one: kShapeGranule), in
// SubGroup::shapes. A shape other than Unknown is only ever written by a register's one
// defining handler (Inst::shapeOut) executing with every one of the sub-group's `width`
// lanes active, and always describes all of them; any other execution writes Unknown.
#pragma once

#include <cstdint>
#include <cstring>

namespace spvsim {

enum class RegShape : uint8_t {
  Unknown = 0,
  // Every lane's bytes are lane 0's.
  Uniform = 1,
  // An integer or pointer register: for each component, lane l holds
  // lane 0's + l * (lane 1's - lane 0's), modulo 2^bits of the component (a wrap-around
  // between lanes is allowed; consumers that need none check the end points).
  Affine = 2,
};

constexpr uint32_t kShapeGranuleShift = 6;
constexpr uint32_t kShapeGranule = 1u << kShapeGranuleShift;

constexpr uint32_t shapeSlot(uint32_t reg) { return reg >> kShapeGranuleShift; }

// Uniform is affine with stride 0.
constexpr bool affineOrUniform(RegShape s) { return s != RegShape::Unknown; }

// a + b, a - b: uniform from uniforms, affine from affines (strides add).
constexpr RegShape sumShape(RegShape a, RegShape b) {
  if (a == RegShape::Unknown || b == RegShape::Unknown) return RegShape::Unknown;
  return a == RegShape::Uniform && b == RegShape::Uniform ? RegShape::Uniform : RegShape::Affine;
}

// a * b, a << b: affine only when one side is uniform (the stride scales).
constexpr RegShape productShape(RegShape a, RegShape b) {
  if (a == RegShape::Uniform && b == RegShape::Uniform) return RegShape::Uniform;
  if ((a == RegShape::Uniform && b == RegShape::Affine) ||
      (a == RegShape::Affine && b == RegShape::Uniform))
    return RegShape::Affine;
  return RegShape::Unknown;
}

// Any other lane-wise function of its operands: uniform from uniforms only.
constexpr RegShape lanewiseShape(RegShape a, RegShape b = RegShape::Uniform,
                                 RegShape c = RegShape::Uniform) {
  return a == RegShape::Uniform && b == RegShape::Uniform && c == RegShape::Uniform
             ? RegShape::Uniform
             : RegShape::Unknown;
}

// Whether first + l * step stays within [lo, hi] for every l < width (exactly, not
// modulo anything): it is linear in l, so the two end points decide.
inline bool linearWithin(__int128 first, __int128 step, uint32_t width, __int128 lo, __int128 hi) {
  const __int128 last = first + step * (width - 1);
  return first >= lo && first <= hi && last >= lo && last <= hi;
}

}  // namespace spvsim
