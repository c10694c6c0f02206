// The pure parts of spvsim debug: lane lists, the mask bitmap, value expressions and
// conditions.
#include "src/debugger/debug_print.h"

#include <gtest/gtest.h>

#include "src/debugger/debug_values.h"

namespace spvsim::debugger {
namespace {

LaneMask lanes(std::initializer_list<uint32_t> list) {
  LaneMask m;
  for (uint32_t l : list) m.set(l);
  return m;
}

TEST(DebugPrint, LaneListsAreRanges) {
  EXPECT_EQ(formatLaneList(LaneMask{}), "none");
  EXPECT_EQ(formatLaneList(lanes({5})), "5");
  EXPECT_EQ(formatLaneList(lanes({0, 1, 2, 3, 8})), "0-3,8");
  EXPECT_EQ(formatLaneList(lanes({1, 3, 4, 5, 63, 64, 127})), "1,3-5,63-64,127");
}

TEST(DebugPrint, ActiveMaskBitmapGroupsOfEight) {
  EXPECT_EQ(formatActiveMask(lanes({0, 1, 2, 3, 8}), 16),
            "lanes 0-3,8 active (5/16)  [####.... #.......]");
  EXPECT_EQ(formatActiveMask(lanes({2}), 3), "lane 2 active (1/3)  [..#]");
  EXPECT_EQ(formatActiveMask(LaneMask{}, 4), "lanes none active (0/4)  [....]");
}

TEST(DebugPrint, RawPointers) {
  EXPECT_EQ(formatRawPointer(0), "null");
  EXPECT_EQ(formatRawPointer(makePointer(Space::Global, 2, 16)), "global:2+16");
  EXPECT_EQ(formatRawPointer(0x1234), "0x0000000000001234");
}

TEST(DebugValues, ValueExpressions) {
  ValueRef r = parseValueRef("%23");
  EXPECT_TRUE(r.byId);
  EXPECT_EQ(r.id, 23u);
  EXPECT_FALSE(r.lane);
  r = parseValueRef(" x[3] ");
  EXPECT_EQ(r.name, "x");
  EXPECT_EQ(r.lane, 3u);
  r = parseValueRef("v.y");
  EXPECT_EQ(r.name, "v");
  EXPECT_EQ(r.component, 1u);
  r = parseValueRef("v[2].sa");
  EXPECT_EQ(r.lane, 2u);
  EXPECT_EQ(r.component, 10u);
  r = parseValueRef("k.tile");  // a dotted OpName whose tail is no component
  EXPECT_EQ(r.name, "k.tile");
  EXPECT_FALSE(r.component);
  r = parseValueRef("%7[1].w");
  EXPECT_EQ(r.id, 7u);
  EXPECT_EQ(r.lane, 1u);
  EXPECT_EQ(r.component, 3u);
  r = parseValueRef("%in[1]");  // as spvsim dis names an id: resolved when read
  EXPECT_TRUE(r.byId);
  EXPECT_EQ(r.id, 0u);
  EXPECT_EQ(r.idName, "in");
  EXPECT_EQ(r.lane, 1u);
  for (const char* bad : {"", "%", "%0", "%1x", "%x-", "3x", "x[", "x[a]", "x[1]junk", "x[1].s"})
    EXPECT_THROW(parseValueRef(bad), DebugError) << bad;
}

TEST(DebugValues, ElementRanges) {
  ElementRange r = parseElementRange("out");
  EXPECT_EQ(r.name, "out");
  EXPECT_TRUE(r.whole);
  EXPECT_EQ(elementBounds(r, 1000, 256), (std::pair<uint64_t, uint64_t>{0, 256}));
  EXPECT_EQ(elementBounds(r, 8, 256), (std::pair<uint64_t, uint64_t>{0, 8}));
  r = parseElementRange("out[3]");
  EXPECT_EQ(elementBounds(r, 8, 256), (std::pair<uint64_t, uint64_t>{3, 4}));
  r = parseElementRange(" out[2:6] ");
  EXPECT_EQ(elementBounds(r, 8, 256), (std::pair<uint64_t, uint64_t>{2, 6}));
  EXPECT_THROW(elementBounds(r, 5, 256), DebugError);  // passes the end
  for (const char* bad : {"", "[1]", "out[", "out[a]", "out[3:3]", "out[4:2]", "out[1]x"})
    EXPECT_THROW(parseElementRange(bad), DebugError) << bad;
}

}  // namespace
}  // namespace spvsim::debugger
