// Pointer encoding (src/exec/memory.h): arithmetic stays within its object, saturates beyond
// the representable offsets and stays saturated; integer arithmetic that carries into
// the region field lands on no region; places are described with signed offsets.
#include "src/exec/memory.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

namespace spvsim {
namespace {

constexpr int64_t kTwo38 = int64_t(1) << 38;

TEST(Pointer, FieldsRoundTrip) {
  const uint64_t p = makePointer(Space::Local, 5, 12);
  EXPECT_EQ(pointerSpace(p), Space::Local);
  EXPECT_EQ(pointerRegion(p), 5u);
  EXPECT_EQ(pointerOffset(p), 12);
  EXPECT_EQ(pointerOffset(makePointer(Space::Global, 7, -4)), -4);
  EXPECT_EQ(pointerRegion(makePointer(Space::Global, kMaxRegions - 1)), kMaxRegions - 1);
}

TEST(Pointer, ArithmeticKeepsTheObjectAndSignedOffset) {
  const uint64_t p = makePointer(Space::Global, 2, 0);
  const uint64_t q = offsetPointer(p, -4);
  EXPECT_EQ(pointerSpace(q), Space::Global);
  EXPECT_EQ(pointerRegion(q), 2u);
  EXPECT_EQ(pointerOffset(q), -4);
  EXPECT_EQ(pointerOffset(offsetPointer(q, 12)), 8);
  // The extremes of the representable range, then one byte beyond each.
  EXPECT_EQ(pointerOffset(offsetPointer(p, kTwo38 - 1)), kTwo38 - 1);
  EXPECT_EQ(pointerOffset(offsetPointer(p, -kTwo38)), -kTwo38);
  EXPECT_FALSE(pointerSaturated(offsetPointer(p, kTwo38 - 1)));
  EXPECT_TRUE(pointerSaturated(offsetPointer(p, kTwo38)));
  EXPECT_TRUE(pointerSaturated(offsetPointer(p, -kTwo38 - 1)));
}

TEST(Pointer, SaturationIsStickyAndKeepsTheObject) {
  const uint64_t p = makePointer(Space::Global, 3, 100);
  // int a[]; a + (1 << 38) is 2^40 bytes on: beyond +-2^38.
  const uint64_t far = offsetPointer(p, int64_t(4) << 38);
  EXPECT_TRUE(pointerSaturated(far));
  EXPECT_EQ(pointerRegion(far), 3u);
  EXPECT_EQ(pointerSpace(far), Space::Global);
  EXPECT_EQ(pointerOffset(far), kOffsetAbove);
  // Coming back by the same amount cannot make it valid: its true offset is unknown.
  EXPECT_EQ(offsetPointer(far, -(int64_t(4) << 38)), far);
  const uint64_t below = offsetPointer(p, -(int64_t(4) << 38));
  EXPECT_EQ(pointerOffset(below), kOffsetBelow);
  EXPECT_EQ(offsetPointer(below, int64_t(4) << 38), below);
}

TEST(Pointer, DeltaHelpersNeverOverflow) {
  EXPECT_EQ(scaledIndex(int64_t(1) << 62, 8), kDeltaLimit);
  EXPECT_EQ(scaledIndex(-(int64_t(1) << 62), 8), -kDeltaLimit);
  EXPECT_EQ(scaledIndex(-3, 4), -12);
  EXPECT_EQ(addDeltas(kDeltaLimit, kDeltaLimit), kDeltaLimit);
  EXPECT_EQ(addDeltas(-kDeltaLimit, -kDeltaLimit), -kDeltaLimit);
}

// Plain sums are exact exactly when plainSumsExact says so (the access chains' fast path).
TEST(Pointer, PlainSumsAgreeWithOffsetPointerWhenAccepted) {
  const int64_t deltas[] = {0,
                            4,
                            -4,
                            1000,
                            -1000,
                            kTwo38 - 101,
                            -kTwo38,
                            kTwo38,
                            -(kTwo38 + 1000),
                            int64_t(1) << 40,
                            -(int64_t(1) << 40),
                            kDeltaLimit,
                            -kDeltaLimit};
  const uint64_t bases[] = {makePointer(Space::Global, 2, 0),
                            makePointer(Space::Global, 2, 100),
                            makePointer(Space::Private, 9, -8),
                            offsetPointer(makePointer(Space::Global, 2), kTwo38),
                            offsetPointer(makePointer(Space::Global, 2), -kTwo38 - 1),
                            0};
  for (uint64_t b : bases)
    for (int64_t d : deltas) {
      const uint64_t plain = b + uint64_t(d);
      if (plainSumsExact(b ^ plain)) {
        if (pointerSaturated(b))
          EXPECT_TRUE(pointerSaturated(plain)) << b << " " << d;
        else
          EXPECT_EQ(plain, offsetPointer(b, d)) << b << " " << d;
      }
    }
}

// Integer arithmetic on a pointer's bits: a carry or borrow into the region code (or any
// change of it by up to 1000) never lands on another region of a table of 1200.
TEST(Pointer, RegionCodeChangesLandOnNoRegion) {
  constexpr uint64_t kRegions = 1200;
  for (uint64_t i = 1; i < kRegions; ++i)
    for (int64_t d = -1000; d <= 1000; ++d) {
      if (d == 0) continue;
      const uint64_t p = makePointer(Space::Global, i) + (uint64_t(d) << kOffsetBits);
      const uint64_t r = pointerRegion(p);
      ASSERT_TRUE(r == 0 || r >= kRegions) << "region " << i << " moved by " << d;
    }
  // Small integer offsets do not borrow: (ulong)p - 4 is 4 bytes before p's object.
  const uint64_t p = makePointer(Space::Global, 1);
  EXPECT_EQ(pointerRegion(p - 4), 1u);
  EXPECT_EQ(pointerOffset(p - 4), -4);
}

MemoryMap twoBuffers() {
  MemoryMap m;
  m.global.push_back(Region{nullptr, 0, 64, true, "argument 0 (a)"});
  m.global.push_back(Region{nullptr, 0, 64, true, "argument 1 (in)"});
  return m;
}

TEST(Pointer, PlacesNameTheObjectWithSignedOffsets) {
  const MemoryMap m = twoBuffers();
  const uint64_t in = makePointer(Space::Global, 2);
  EXPECT_EQ(describePlace(m, offsetPointer(in, -4)),
            "at byte offset -4 of argument 1 (in) (global memory, 64 bytes)");
  EXPECT_EQ(describePlace(m, offsetPointer(makePointer(Space::Global, 1), int64_t(1) << 40)),
            "at byte offset 274877906944 or more (out of the representable range) of argument "
            "0 (a) (global memory, 64 bytes)");
  EXPECT_EQ(describePlace(m, offsetPointer(in, -(int64_t(1) << 40))),
            "at byte offset -274877906945 or less (out of the representable range) of argument "
            "1 (in) (global memory, 64 bytes)");
  EXPECT_EQ(describePlace(m, 8), "at byte offset 8 from a null pointer");
  EXPECT_EQ(describePlace(m, in + (uint64_t(1) << kOffsetBits)),
            "through an invalid pointer 0x" + fmt::format("{:016x}", in + (1ull << kOffsetBits)) +
                " (it points into no object)");
}

// Sets of regions whose storage overlaps, worked by hand: a [0, 100) and b [50, 150)
// overlap; d [150, 160) starts where b ends, so it is apart; c [200, 300) and the
// constant e [280, 290) overlap; the empty region and the one without storage are in no
// set.
TEST(SharedStorage, OverlappingRegionsAreOneSet) {
  uint8_t buffer[300] = {};
  MemoryMap mem;
  auto add = [](std::vector<Region>& to, uint8_t* base, uint64_t size) {
    Region r;
    r.base = base;
    r.size = size;
    to.push_back(r);
    return to.size() - 1;
  };
  const uint64_t c = add(mem.global, buffer + 200, 100);
  const uint64_t b = add(mem.global, buffer + 50, 100);
  const uint64_t empty = add(mem.global, buffer + 60, 0);
  const uint64_t a = add(mem.global, buffer, 100);
  const uint64_t d = add(mem.global, buffer + 150, 10);
  const uint64_t none = add(mem.global, nullptr, 8);
  const uint64_t e = add(mem.constant, buffer + 280, 10);
  (void)empty, (void)none;
  auto indices = [](const std::vector<std::vector<RegionRef>>& sets) {
    std::vector<std::vector<std::pair<Space, uint64_t>>> out;
    for (const auto& set : sets) {
      out.emplace_back();
      for (const RegionRef& r : set) out.back().push_back({r.space, r.index});
    }
    return out;
  };
  using V = std::vector<std::vector<std::pair<Space, uint64_t>>>;
  EXPECT_EQ(indices(sharedStorage(mem, true)), (V{{{Space::Global, a}, {Space::Global, b}},
                                                  {{Space::Global, d}},
                                                  {{Space::Global, c}, {Space::Constant, e}}}));
  EXPECT_EQ(
      indices(sharedStorage(mem, false)),
      (V{{{Space::Global, a}, {Space::Global, b}}, {{Space::Global, d}}, {{Space::Global, c}}}));
}

}  // namespace
}  // namespace spvsim
