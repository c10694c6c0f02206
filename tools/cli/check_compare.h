// Comparing the buffers that `spvsim check`'s runs leave (and a reference result) element by
// element, or as multisets of elements for --unordered arguments (src/DESIGN.md "The oracle").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/cli/arg_value.h"

namespace spvsim::tools {

// How `spvsim check` compares one argument (--ignore, --unordered).
enum class ArgMode { Compare, Ignore, Unordered };

// A buffer's or image's elements reduced to what comparison looks at: each element's
// component bytes (a 3-component vector's padding dropped: nothing defines it), every NaN
// as one pattern (the spec does not fix NaN payloads), sorted when unordered.
struct Contents {
  uint64_t elementSize = 1;  // bytes per element in `bytes`
  std::vector<uint8_t> bytes;
  bool operator==(const Contents&) const = default;
};

Contents canonicalContents(const ArgValue& arg, bool unordered);

// The first difference between two contents of one argument. Ordered: the first element
// whose values differ, and how many elements differ. Unordered: the first value, in the
// order of its little-endian bytes, that occurs a different number of times, with both
// counts.
struct Difference {
  uint64_t element = 0;             // ordered: index
  uint64_t differing = 0;           // ordered: elements that differ
  std::string valueA, valueB;       // ordered: the element in each; unordered: the value (both)
  uint64_t countA = 0, countB = 0;  // unordered: occurrences of the value
};

// What describing a difference needs of an argument, kept in `spvsim check`'s result
// records so that shards' results are described as the runs' own buffers would be.
struct ArgShape {
  ElementType type;      // a buffer's element, an image's channel value
  bool hex = false;      // print integers in hexadecimal (.sim `hex`)
  uint64_t count = 0;    // elements (images: channel values)
  std::string typeText;  // argTypeText
};

// "int[4]", or an image's header ("image2d RGBA,UNORM_INT8[4,2]"), as --dump writes it.
std::string argTypeText(const ArgValue& arg);
ArgShape argShape(const ArgValue& arg);

std::optional<Difference> firstDifference(const ArgShape& arg, const Contents& a, const Contents& b,
                                          bool unordered);

// "argument 1 (int[4]): element 2: class A 5, class B 7 (3 of 4 elements differ)";
// unordered: "argument 1 (uint[8], unordered): value 7: class A 2 times, class B
// 1 time". `a` and `b` name the two sides ("class A", "expected", "actual", ...).
std::string describeDifference(size_t index, const ArgShape& arg, const Difference& d,
                               bool unordered, const std::string& a, const std::string& b);

}  // namespace spvsim::tools
