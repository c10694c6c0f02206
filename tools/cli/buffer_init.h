// Initial contents of buffers (--arg buffer:TYPE[N]=INIT). Each function writes every
// element of `bytes`, which holds a whole number of `type` elements. Vector elements are
// filled component by component; the padding component of a vec3 stays zero.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tools/cli/element_type.h"

namespace spvsim::tools {

// fill(V): every component V; or fill(V1,...,Vn) with n = lanes: every element that vector.
void fillBuffer(const ElementType& type, const std::vector<std::string_view>& values,
                std::span<uint8_t> bytes);

// range(START[,STEP]): component k (counting components of all elements in order) is
// START + k*STEP. Integers wrap modulo the type's width; floats are computed in double.
void rangeBuffer(const ElementType& type, std::string_view start, std::string_view step,
                 std::span<uint8_t> bytes);

// values(V,...): exactly one value per component, in order.
void valuesBuffer(const ElementType& type, const std::vector<std::string_view>& values,
                  std::span<uint8_t> bytes);

// random(SEED): splitmix64 seeded with SEED, one draw per component. Integers are
// draw % 100 (0..99); float takes the top 24 bits, half the top 11, double the top 53,
// as a fraction in [0, 1).
void randomBuffer(const ElementType& type, uint64_t seed, std::span<uint8_t> bytes);

// random(SEED,LO,HI): the same draws mapped into a range. Integers: LO + draw mod
// (HI - LO + 1), so LO..HI inclusive (LO <= HI, both of the type). Floats: LO + f * (HI -
// LO) with f the fraction random(SEED) gives, rounded to the type and kept below HI, so
// in [LO, HI) (LO < HI, both finite).
void randomRangeBuffer(const ElementType& type, uint64_t seed, std::string_view lo,
                       std::string_view hi, std::span<uint8_t> bytes);

// One step of splitmix64 (Steele, Lea, Flood 2014): advances `state`, returns the draw.
uint64_t splitmix64(uint64_t& state);

}  // namespace spvsim::tools
