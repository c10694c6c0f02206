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

// The values are bit sets (Uniform = Affine | 1) so that the rules below are a few bit
// operations: a handler applies one on every execution.
enum class RegShape : uint8_t {
  Unknown = 0,
  // An integer or pointer register: for each component, lane l holds
  // lane 0's + l * (lane 1's - lane 0's), modulo 2^bits of the component (a wrap-around
  // between lanes is allowed; consumers that need none check the end points).
  Affine = 2,
  // Every lane's bytes are lane 0's (of any type; affine with step 0 where it is one).
  Uniform = 3,
};

constexpr uint32_t kShapeGranuleShift = 6;
constexpr uint32_t kShapeGranule = 1u << kShapeGranuleShift;

constexpr uint32_t shapeSlot(uint32_t reg) { return reg >> kShapeGranuleShift; }

constexpr bool affineOrUniform(RegShape s) { return s != RegShape::Unknown; }

// a + b, a - b, and a move of elements from several sources: uniform from uniforms,
// affine from affines (strides add).
constexpr RegShape sumShape(RegShape a, RegShape b) { return RegShape(uint8_t(a) & uint8_t(b)); }

// a * b: affine only when one side is uniform (the stride scales).
constexpr RegShape productShape(RegShape a, RegShape b) {
  const uint8_t oneUniform = (uint8_t(a) | uint8_t(b)) & 1;
  return RegShape(uint8_t(a) & uint8_t(b) & uint8_t(-oneUniform));
}

// Any other lane-wise function of its operands: uniform from uniforms only.
constexpr RegShape lanewiseShape(RegShape a, RegShape b = RegShape::Uniform,
                                 RegShape c = RegShape::Uniform) {
  const uint8_t all = uint8_t(a) & uint8_t(b) & uint8_t(c);
  return RegShape(all & uint8_t(-(all & 1)));
}

static_assert(sumShape(RegShape::Uniform, RegShape::Affine) == RegShape::Affine);
static_assert(sumShape(RegShape::Uniform, RegShape::Uniform) == RegShape::Uniform);
static_assert(sumShape(RegShape::Affine, RegShape::Unknown) == RegShape::Unknown);
static_assert(productShape(RegShape::Affine, RegShape::Affine) == RegShape::Unknown);
static_assert(productShape(RegShape::Affine, RegShape::Uniform) == RegShape::Affine);
static_assert(productShape(RegShape::Uniform, RegShape::Uniform) == RegShape::Uniform);
static_assert(productShape(RegShape::Uniform, RegShape::Unknown) == RegShape::Unknown);
static_assert(lanewiseShape(RegShape::Uniform, RegShape::Affine) == RegShape::Unknown);
static_assert(lanewiseShape(RegShape::Uniform) == RegShape::Uniform);

// Whether first + l * step stays within [lo, hi] for every l < width (exactly, not
// modulo anything): it is linear in l, so the two end points decide.
inline bool linearWithin(__int128 first, __int128 step, uint32_t width, __int128 lo, __int128 hi) {
  const __int128 last = first + step * (width - 1);
  return first >= lo && first <= hi && last >= lo && last <= hi;
}

}  // namespace spvsim
