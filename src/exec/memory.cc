#include "src/exec/memory.h"

#include <fmt/core.h>

#include <algorithm>

#include "src/exec/address32.h"

namespace spvsim {

const char* spaceName(Space s) {
  switch (s) {
    case Space::Global:
      return "global";
    case Space::Constant:
      return "constant";
    case Space::Local:
      return "local";
    case Space::Private:
      return "private";
    default:
      return "invalid";
  }
}

const Region* MemoryMap::regionOf(uint64_t p) const {
  const Space s = pointerSpace(p);
  if (s == Space::Invalid || s > Space::Private) return nullptr;
  const std::vector<Region>& table = regions(s);
  const uint64_t region = pointerRegion(p);
  return region == 0 || region >= table.size() ? nullptr : &table[region];
}

std::vector<std::vector<RegionRef>> sharedStorage(const MemoryMap& mem, bool withConstant) {
  std::vector<RegionRef> regions;
  for (Space space : {Space::Global, Space::Constant}) {
    if (space == Space::Constant && !withConstant) break;
    const std::vector<Region>& own = mem.regions(space);
    for (size_t r = 1; r < own.size(); ++r)
      if (own[r].base && own[r].size) regions.push_back({space, r});
  }
  auto region = [&](const RegionRef& r) -> const Region& { return mem.regions(r.space)[r.index]; };
  std::stable_sort(regions.begin(), regions.end(), [&](const RegionRef& a, const RegionRef& b) {
    return region(a).base < region(b).base;
  });
  std::vector<std::vector<RegionRef>> sets;
  const uint8_t* end = nullptr;
  for (const RegionRef& r : regions) {
    const uint8_t* begin = region(r).base;
    if (sets.empty() || begin >= end) {
      sets.emplace_back();
      end = begin;
    }
    sets.back().push_back(r);
    end = std::max<const uint8_t*>(end, begin + region(r).size);
  }
  return sets;
}

std::string describeLocation(const MemoryMap& memory, uint64_t p) {
  p = memory.canonical(p);
  const Region* r = memory.regionOf(p);
  if (!r && nullDerived(p))  // null's offset bits are the distance from null, unbiased
    return pointerSaturated(p) ? "a byte offset out of the representable range from a null pointer"
                               : fmt::format("byte offset {} from a null pointer", p);
  if (!r && isNoObjectPointer(p) && !pointerSaturated(p))
    return fmt::format("32-bit address 0x{:08x} (it names no object)",
                       uint64_t(pointerOffset(p)) & 0xffffffffu);
  if (!r) return fmt::format("invalid pointer 0x{:016x} (it points into no object)", p);
  const int64_t offset = pointerOffset(p);
  std::string at = fmt::format("byte offset {}", offset);
  if (pointerSaturated(p))
    at += offset > 0 ? " or more (out of the representable range)"
                     : " or less (out of the representable range)";
  return fmt::format("{} of {} ({} memory, {} bytes)", at, r->name, spaceName(pointerSpace(p)),
                     r->size);
}

std::string describePlace(const MemoryMap& memory, uint64_t p) {
  const bool object = memory.regionOf(memory.canonical(p)) || nullDerived(p);
  const char* through = isNoObjectPointer(p) ? "through a " : "through an ";
  return (object ? "at " : through) + describeLocation(memory, p);
}

}  // namespace spvsim
