// Test helpers for the sub-group families: the NDRange shapes and sub-group sizes every
// sub-group test covers, and an independent model of how src/DESIGN.md partitions a
// launch into sub-groups, which host models use to compute expected values.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim::testing {

// The sub-group sizes of issue 3's "done when".
inline const std::vector<uint32_t>& subGroupSizes() {
  static const std::vector<uint32_t> sizes{4, 8, 16, 32, 64};
  return sizes;
}

struct RangeCase {
  const char* name;
  NDRange range;
};

inline NDRange makeRange(uint32_t dims, std::array<uint64_t, 3> global,
                         std::array<uint64_t, 3> local) {
  NDRange r;
  r.dims = dims;
  r.global = global;
  r.local = local;
  r.localGiven = true;
  return r;
}

// 1-D with a partial last sub-group at every size (70 = 64 + 6), 1-D with a smaller
// last work-group, 2-D (35 work-items a group) and 3-D (60 work-items a group).
inline std::vector<RangeCase> rangeCases() {
  return {
      {"1d", makeRange(1, {140, 1, 1}, {70, 1, 1})},
      {"1d-nonuniform", makeRange(1, {150, 1, 1}, {70, 1, 1})},
      {"2d", makeRange(2, {10, 14, 1}, {5, 7, 1})},
      {"3d", makeRange(3, {6, 5, 8}, {3, 5, 4})},
  };
}

inline uint64_t globalItems(const NDRange& r) { return r.global[0] * r.global[1] * r.global[2]; }

// One sub-group: the global linear ids (x + y*Gx + z*Gx*Gy) of its lanes, lane order.
struct SubGroupModel {
  uint64_t workGroup = 0;  // linear work-group id
  uint32_t id = 0;         // sub-group id in the work-group
  uint32_t maxSize = 0;    // get_max_sub_group_size()
  std::vector<uint64_t> items;
};

// Work-groups in linear order; each one's work-items in linear local id order
// (x + y*Lx + z*Lx*Ly, with the actual local size of that group), cut into
// sub-groups of `width`.
inline std::vector<SubGroupModel> partitionSubGroups(const NDRange& r, uint32_t width) {
  std::array<uint64_t, 3> groups;
  for (int d = 0; d < 3; ++d) groups[d] = (r.global[d] + r.local[d] - 1) / r.local[d];
  std::vector<SubGroupModel> out;
  for (uint64_t gz = 0; gz < groups[2]; ++gz)
    for (uint64_t gy = 0; gy < groups[1]; ++gy)
      for (uint64_t gx = 0; gx < groups[0]; ++gx) {
        const std::array<uint64_t, 3> g{gx, gy, gz};
        std::array<uint64_t, 3> size;
        for (int d = 0; d < 3; ++d) size[d] = std::min(r.local[d], r.global[d] - g[d] * r.local[d]);
        const uint64_t linearGroup = gx + gy * groups[0] + gz * groups[0] * groups[1];
        std::vector<uint64_t> items;
        for (uint64_t z = 0; z < size[2]; ++z)
          for (uint64_t y = 0; y < size[1]; ++y)
            for (uint64_t x = 0; x < size[0]; ++x) {
              const uint64_t X = gx * r.local[0] + x, Y = gy * r.local[1] + y,
                             Z = gz * r.local[2] + z;
              items.push_back(X + Y * r.global[0] + Z * r.global[0] * r.global[1]);
            }
        for (size_t first = 0, k = 0; first < items.size(); first += width, ++k) {
          SubGroupModel sg;
          sg.workGroup = linearGroup;
          sg.id = static_cast<uint32_t>(k);
          sg.maxSize = width;
          sg.items.assign(items.begin() + first,
                          items.begin() + std::min(items.size(), first + width));
          out.push_back(std::move(sg));
        }
      }
  return out;
}

// Runs `kernel` over `range` at sub-group size `width` with buffer arguments.
template <class... V>
LaunchResult runRange(Program& p, const std::string& kernel, const NDRange& range, uint32_t width,
                      std::vector<V>&... buffers) {
  LaunchOptions options;
  options.subGroupSize = width;
  return p.launch(kernel, range, {bind(buffers)...}, options);
}

// CTS-style lane masks for divergent code: lane l takes part when bit (l % 32) is set.
inline const std::vector<uint32_t>& ctsLaneMasks() {
  static const std::vector<uint32_t> masks{0xffffffffu, 0xf0f0f0f0u, 0x5555aaaau,
                                           0x00000001u, 0x80000000u, 0x0000ffffu};
  return masks;
}

inline bool laneSelected(uint32_t mask, uint32_t lane) { return (mask >> (lane % 32)) & 1; }

// A uint kernel argument (the lane mask of divergent tests).
inline ArgBinding uintArg(uint32_t v) {
  std::vector<uint8_t> b(4);
  std::memcpy(b.data(), &v, 4);
  return ArgBinding::bytes(b);
}

// One launch configuration of a sub-group test and the model's view of it.
struct SubGroupConfig {
  uint32_t width;
  const RangeCase* range;
  uint32_t mask;
  std::vector<SubGroupModel> subGroups;
  uint64_t items() const { return globalItems(range->range); }
  bool active(uint32_t lane) const { return laneSelected(mask, lane); }
  std::vector<uint32_t> activeLanes(const SubGroupModel& sg) const {
    std::vector<uint32_t> lanes;
    for (uint32_t l = 0; l < sg.items.size(); ++l)
      if (active(l)) lanes.push_back(l);
    return lanes;
  }
  std::string name() const {
    return fmt::format("{}, sub-group size {}, mask 0x{:08x}", range->name, width, mask);
  }
};

// Runs `f` for every sub-group size x range shape x lane mask.
inline void forEachSubGroupConfig(const std::function<void(const SubGroupConfig&)>& f,
                                  const std::vector<uint32_t>& masks = ctsLaneMasks()) {
  for (uint32_t width : subGroupSizes())
    for (const RangeCase& rc : rangeCases())
      for (uint32_t mask : masks) {
        SubGroupConfig c{width, &rc, mask, partitionSubGroups(rc.range, width)};
        SCOPED_TRACE(c.name());
        f(c);
      }
}

// A diagnostic the model expects: the lanes of each sub-group (partition order) that
// should report it.
struct ExpectedDiagnostic {
  std::string kind;
  Severity severity;
  std::vector<std::vector<uint32_t>> lanes;
};

// Diagnostics fold by (kind, instruction): the survivor is the first reporting
// sub-group's, with the other reporting sub-groups counted in `repeats`.
inline void expectDiagnostics(const LaunchResult& r, const SubGroupConfig& c,
                              const std::vector<ExpectedDiagnostic>& expected) {
  size_t matched = 0;
  for (const ExpectedDiagnostic& e : expected) {
    size_t first = c.subGroups.size(), count = 0;
    for (size_t s = 0; s < e.lanes.size(); ++s)
      if (!e.lanes[s].empty()) {
        if (first == c.subGroups.size()) first = s;
        ++count;
      }
    std::vector<const Diagnostic*> found;
    for (const auto& d : r.diagnostics)
      if (kindName(d.kind) == e.kind) found.push_back(&d);
    if (count == 0) {
      EXPECT_TRUE(found.empty()) << "unexpected " << e.kind << ":\n" << describe(r);
      continue;
    }
    ++matched;
    ASSERT_EQ(found.size(), 1u) << e.kind << ":\n" << describe(r);
    const Diagnostic& d = *found[0];
    const SubGroupModel& sg = c.subGroups[first];
    const NDRange& range = c.range->range;
    const uint64_t gx = (range.global[0] + range.local[0] - 1) / range.local[0];
    const uint64_t gy = (range.global[1] + range.local[1] - 1) / range.local[1];
    EXPECT_EQ(d.severity, e.severity) << d.message;
    EXPECT_EQ(d.lanes, e.lanes[first]) << d.message;
    ASSERT_TRUE(d.workGroup && d.subGroup);
    EXPECT_EQ((*d.workGroup)[0] + (*d.workGroup)[1] * gx + (*d.workGroup)[2] * gx * gy,
              sg.workGroup);
    EXPECT_EQ(*d.subGroup, sg.id);
    EXPECT_EQ(d.repeats, count - 1) << d.message;
  }
  EXPECT_EQ(r.diagnostics.size(), matched) << describe(r);
}

// Deterministic pseudo-random bits.
inline uint64_t mix(uint64_t k) {
  k = (k ^ (k >> 31)) * 0x7fb5d329728ea185ull;
  k = (k ^ (k >> 27)) * 0x81dadef4bc2dd44dull;
  return k ^ (k >> 33);
}

template <class T>
bool sameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace spvsim::testing
