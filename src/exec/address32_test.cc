// 32-bit addresses of Physical32 modules (src/exec/address32.h). Expected addresses are
// worked from the documented layout: windows (private 16 MiB, local 256 MiB, constant
// 512 MiB, global 1 GiB), slots of guard | object rounded to 4 KiB | guard, the guard the
// object's size clamped to 64 KiB .. 16 MiB.
#include "src/exec/address32.h"

#include <gtest/gtest.h>

namespace spvsim {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * 1024;
constexpr uint64_t kGlobal = 1ull << 30;

std::vector<Region> regionsOfSizes(std::initializer_list<uint64_t> sizes) {
  std::vector<Region> out(1);  // index 0: never valid
  for (uint64_t s : sizes) {
    Region r;
    r.size = s;
    out.push_back(r);
  }
  return out;
}

TEST(Address32, RegionsArePlacedOneAfterAnotherWithGuards) {
  Address32Map map;
  // 100 bytes: guard 64 KiB, 4 KiB; 1 MiB: guard 1 MiB; 64 MiB: guard 16 MiB.
  map.place(Space::Global, regionsOfSizes({100, 1 * kMiB, 64 * kMiB}));
  const uint64_t b1 = kGlobal + 64 * kKiB;
  const uint64_t b2 = b1 + 4 * kKiB + 64 * kKiB + 1 * kMiB;
  const uint64_t b3 = b2 + 1 * kMiB + 1 * kMiB + 16 * kMiB;
  EXPECT_EQ(map.base(Space::Global, 1), b1);
  EXPECT_EQ(map.base(Space::Global, 2), b2);
  EXPECT_EQ(map.base(Space::Global, 3), b3);
  EXPECT_FALSE(map.base(Space::Global, 0));  // never valid
  EXPECT_FALSE(map.base(Space::Global, 4));  // no such region
}

TEST(Address32, EachSpaceHasItsWindow) {
  Address32Map map;
  for (Space s : {Space::Global, Space::Constant, Space::Local, Space::Private})
    map.place(s, regionsOfSizes({16}));
  EXPECT_EQ(map.base(Space::Private, 1), 16 * kMiB + 64 * kKiB);
  EXPECT_EQ(map.base(Space::Local, 1), 256 * kMiB + 64 * kKiB);
  EXPECT_EQ(map.base(Space::Constant, 1), 512 * kMiB + 64 * kKiB);
  EXPECT_EQ(map.base(Space::Global, 1), kGlobal + 64 * kKiB);
}

TEST(Address32, PointersRoundTripWithinTheirGuards) {
  Address32Map map;
  map.place(Space::Global, regionsOfSizes({100, 100}));
  const uint64_t b1 = kGlobal + 64 * kKiB;
  for (int64_t offset : {int64_t(0), int64_t(4), int64_t(100), int64_t(-4), int64_t(-65536),
                         int64_t(4096 + 65535)}) {
    const uint64_t p = makePointer(Space::Global, 1, offset);
    const Address32Map::Address a = map.toAddress(p);
    EXPECT_EQ(a.status, Address32Map::Status::Exact) << offset;
    EXPECT_EQ(a.value, uint32_t(int64_t(b1) + offset)) << offset;
    EXPECT_EQ(map.toPointer(a.value), p) << offset;
  }
  // Past region 1's slot lies region 2's slot: integer arithmetic that far names it, and
  // the conversion that got there says so.
  const uint64_t far = makePointer(Space::Global, 1, 4096 + 65536);
  const Address32Map::Address a = map.toAddress(far);
  EXPECT_EQ(a.status, Address32Map::Status::Inexact);
  EXPECT_EQ(map.toPointer(a.value), makePointer(Space::Global, 2, -65536));
}

TEST(Address32, NullPageAndAddressesInNoSlot) {
  Address32Map map;
  map.place(Space::Global, regionsOfSizes({100}));
  EXPECT_EQ(map.toPointer(0), 0u);    // null
  EXPECT_EQ(map.toPointer(16), 16u);  // null plus 16 (src/exec/memory.h: nullDerived)
  EXPECT_EQ(map.toAddress(0).value, 0u);
  EXPECT_EQ(map.toAddress(16).status, Address32Map::Status::Exact);
  // Beyond the only slot of the global window, and in the empty local window.
  for (uint32_t a : {uint32_t(0x7fff0000), uint32_t(300 * kMiB)}) {
    const uint64_t p = map.toPointer(a);
    EXPECT_TRUE(isNoObjectPointer(p));
    EXPECT_EQ(pointerSpace(p), Space::Invalid);
    const Address32Map::Address back = map.toAddress(p);
    EXPECT_EQ(back.status, Address32Map::Status::Exact);
    EXPECT_EQ(back.value, a);
    // Arithmetic on it moves the address.
    EXPECT_EQ(map.toAddress(offsetPointer(p, 8)).value, a + 8);
  }
  // Null plus more than the null page: the device's value, which names something else.
  const Address32Map::Address big = map.toAddress(uint64_t(64 * kMiB));
  EXPECT_EQ(big.status, Address32Map::Status::Inexact);
  EXPECT_EQ(big.value, 64 * kMiB);
}

TEST(Address32, SaturatedPointersAreInexact) {
  Address32Map map;
  map.place(Space::Global, regionsOfSizes({100}));
  const uint64_t p = offsetPointer(makePointer(Space::Global, 1), int64_t(1) << 40);
  ASSERT_TRUE(pointerSaturated(p));
  EXPECT_EQ(map.toAddress(p).status, Address32Map::Status::Inexact);
}

TEST(Address32, RegionsThatDoNotFitTheirWindowHaveNoAddress) {
  Address32Map map;
  // The private window is 240 MiB: a 200 MiB object takes 232 MiB with its guards; a
  // second one does not fit, a small one after it still does.
  map.place(Space::Private, regionsOfSizes({200 * kMiB, 200 * kMiB, 16}));
  EXPECT_TRUE(map.base(Space::Private, 1));
  EXPECT_FALSE(map.base(Space::Private, 2));
  EXPECT_TRUE(map.base(Space::Private, 3));
  EXPECT_EQ(map.toAddress(makePointer(Space::Private, 2, 0)).status,
            Address32Map::Status::Unplaced);
}

// Relocated initial values are written before any launch: the addresses of earlier
// regions must not depend on later ones (a launch's arguments come after the program's
// variables).
TEST(Address32, PlacementDependsOnlyOnEarlierRegions) {
  Address32Map program, launch;
  program.place(Space::Global, regionsOfSizes({40, 8}));
  launch.place(Space::Global, regionsOfSizes({40, 8, 1 * kMiB, 3}));
  EXPECT_EQ(program.base(Space::Global, 1), launch.base(Space::Global, 1));
  EXPECT_EQ(program.base(Space::Global, 2), launch.base(Space::Global, 2));
  // Placing more later (as a lowered kernel's map adds its private regions) keeps them.
  program.place(Space::Global, regionsOfSizes({40, 8, 1 * kMiB}));
  EXPECT_EQ(program.base(Space::Global, 3), launch.base(Space::Global, 3));
}

TEST(Address32, TheMapOfALaunchCoversEverySpace) {
  MemoryMap mem;
  mem.global = regionsOfSizes({64});
  mem.constant = regionsOfSizes({64});
  mem.local = regionsOfSizes({64});
  mem.priv = regionsOfSizes({64, 64});
  const Address32Map map = address32MapOf(mem);
  for (Space s : {Space::Global, Space::Constant, Space::Local})
    EXPECT_EQ(map.toPointer(*map.base(s, 1) + 8), makePointer(s, 1, 8));
  EXPECT_EQ(map.toPointer(*map.base(Space::Private, 2)), makePointer(Space::Private, 2, 0));
}

}  // namespace
}  // namespace spvsim
