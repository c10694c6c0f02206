#include "src/exec/address32.h"

#include <algorithm>

namespace spvsim {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kMinGuard = 64 << 10;
constexpr uint64_t kMaxGuard = 16 << 20;

uint64_t roundUp(uint64_t n) { return (n + kPage - 1) / kPage * kPage; }

}  // namespace

Window32 window32(Space s) {
  switch (s) {
    case Space::Private:
      return {kNullPage32, 256ull << 20};
    case Space::Local:
      return {256ull << 20, 512ull << 20};
    case Space::Constant:
      return {512ull << 20, 1ull << 30};
    case Space::Global:
      return {1ull << 30, 1ull << 32};
    default:
      return {};
  }
}

void Address32Map::place(Space s, const std::vector<Region>& regions) {
  const Window32 w = window32(s);
  std::vector<Slot>& placed = placed_[index(s)];
  std::vector<int64_t>& slotOf = slotOf_[index(s)];
  uint64_t& cursor = cursor_[index(s)];
  if (slotOf.empty()) {
    slotOf.push_back(-1);  // region 0: never valid
    cursor = w.start;
  }
  for (size_t r = slotOf.size(); r < regions.size(); ++r) {
    // Sizes are at most kMaxObjectBytes (2^37): no overflow.
    const uint64_t guard = std::clamp(roundUp(regions[r].size), kMinGuard, kMaxGuard);
    const uint64_t end = cursor + guard + roundUp(std::max<uint64_t>(regions[r].size, 1)) + guard;
    if (end > w.end) {
      slotOf.push_back(-1);
      continue;
    }
    slotOf.push_back(int64_t(placed.size()));
    placed.push_back({cursor, end, cursor + guard, r});
    cursor = end;
  }
}

std::optional<uint32_t> Address32Map::base(Space s, uint64_t region) const {
  if (s == Space::Invalid || s > Space::Private) return std::nullopt;
  const std::vector<int64_t>& slotOf = slotOf_[index(s)];
  if (region >= slotOf.size() || slotOf[region] < 0) return std::nullopt;
  return uint32_t(placed_[index(s)][slotOf[region]].base);
}

Address32Map::Address Address32Map::toAddress(uint64_t p) const {
  if (isNoObjectPointer(p)) {  // an address in no slot, perhaps moved since
    if (pointerSaturated(p)) return {uint32_t(pointerOffset(p)), Status::Inexact};
    const int64_t a = pointerOffset(p);
    const bool exact = a >= 0 && a < (int64_t(1) << 32) && toPointer(uint32_t(a)) == p;
    return {uint32_t(a), exact ? Status::Exact : Status::Inexact};
  }
  if (nullDerived(p)) {  // the offset from null is the value (saturated: out of range)
    const bool exact = !pointerSaturated(p) && p < kNullPage32;
    return {uint32_t(p), exact ? Status::Exact : Status::Inexact};
  }
  const Space s = pointerSpace(p);
  const uint64_t region = pointerRegion(p);
  if (s == Space::Invalid || s > Space::Private || region >= slotOf_[index(s)].size())
    return {uint32_t(p), Status::Inexact};  // garbage bits: no object, no address
  const int64_t slot = slotOf_[index(s)][region];
  if (slot < 0) return {0, Status::Unplaced};
  const Slot& at = placed_[index(s)][slot];
  const int64_t a = int64_t(at.base) + pointerOffset(p);  // |offset| <= 2^38 + 1
  const bool exact = !pointerSaturated(p) && a >= int64_t(at.start) && a < int64_t(at.end);
  return {uint32_t(uint64_t(a)), exact ? Status::Exact : Status::Inexact};
}

uint64_t Address32Map::toPointer(uint32_t a) const {
  if (a < kNullPage32) return a;  // null plus a
  for (Space s : {Space::Private, Space::Local, Space::Constant, Space::Global}) {
    const Window32 w = window32(s);
    if (a < w.start || a >= w.end) continue;
    const std::vector<Slot>& placed = placed_[index(s)];
    auto after = std::upper_bound(placed.begin(), placed.end(), uint64_t(a),
                                  [](uint64_t v, const Slot& slot) { return v < slot.start; });
    if (after == placed.begin()) break;
    const Slot& slot = *(after - 1);
    if (a >= slot.end) break;
    return makePointer(s, slot.region, int64_t(a) - int64_t(slot.base));
  }
  return noObjectPointer(a);
}

Address32Map address32MapOf(const MemoryMap& memory) {
  Address32Map map;
  for (Space s : {Space::Global, Space::Constant, Space::Local, Space::Private})
    map.place(s, memory.regions(s));
  return map;
}

}  // namespace spvsim
