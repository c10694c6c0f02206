// cl_intel_subgroups shuffles end to end: intel_sub_group_shuffle, _down, _up and _xor
// for every scalar type and vector width, at every sub-group size and NDRange shape,
// against a host model of the extension's index rules over partitionSubGroups(), in
// uniform and divergent code; and the diagnostics for out-of-range indices and for
// reads of lanes that are inactive or do not exist.
#include <cstring>
#include <random>
#include <type_traits>

#include "src/exec/ops/subgroup_test_util.h"

namespace spvsim {
namespace {

using testing::globalItems;
using testing::partitionSubGroups;
using testing::RangeCase;
using testing::rangeCases;
using testing::subGroupSizes;

enum class ShuffleOp { Index, Down, Up, Xor };
const ShuffleOp kOps[] = {ShuffleOp::Index, ShuffleOp::Down, ShuffleOp::Up, ShuffleOp::Xor};
const char* kPrefix[] = {"shuf", "down", "up", "xor"};

// Every kernel takes (a, b, idx, out): b is the second source of _down/_up (unused by
// the others). Divergent variants add a lane mask: lane l runs the shuffle when bit
// (l % 32) is set (testing::laneSelected).
const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define OVL __attribute__((overloadable))
// Overloads clang-15's opencl-c.h lacks (cl_intel_subgroups_char, vectors of
// long/half/double); llvm-spirv-15 maps them to the INTEL opcodes by name.
#define DECLARE(T) \
  T OVL intel_sub_group_shuffle(T, uint); \
  T OVL intel_sub_group_shuffle_down(T, T, uint); \
  T OVL intel_sub_group_shuffle_up(T, T, uint); \
  T OVL intel_sub_group_shuffle_xor(T, uint);
#define DECLARE_ALL(S) DECLARE(S) DECLARE_VECTORS(S)
#define DECLARE_VECTORS(S) DECLARE(S##2) DECLARE(S##3) DECLARE(S##4) DECLARE(S##8) DECLARE(S##16)
DECLARE_ALL(char)
DECLARE_ALL(uchar)
DECLARE_VECTORS(long)
DECLARE_VECTORS(ulong)
DECLARE_VECTORS(half)
DECLARE_VECTORS(double)

#define KERNELS(T) \
  kernel void shuf_##T(global const T* a, global const T* b, global const uint* idx, \
                       global T* out) { \
    size_t i = get_global_linear_id(); \
    out[i] = intel_sub_group_shuffle(a[i], idx[i]); \
  } \
  kernel void down_##T(global const T* a, global const T* b, global const uint* idx, \
                       global T* out) { \
    size_t i = get_global_linear_id(); \
    out[i] = intel_sub_group_shuffle_down(a[i], b[i], idx[i]); \
  } \
  kernel void up_##T(global const T* a, global const T* b, global const uint* idx, \
                     global T* out) { \
    size_t i = get_global_linear_id(); \
    out[i] = intel_sub_group_shuffle_up(a[i], b[i], idx[i]); \
  } \
  kernel void xor_##T(global const T* a, global const T* b, global const uint* idx, \
                      global T* out) { \
    size_t i = get_global_linear_id(); \
    out[i] = intel_sub_group_shuffle_xor(a[i], idx[i]); \
  }
#define KERNELS_ALL(S) KERNELS(S) KERNELS(S##2) KERNELS(S##3) KERNELS(S##4) KERNELS(S##8) \
  KERNELS(S##16)
KERNELS_ALL(char)
KERNELS_ALL(uchar)
KERNELS_ALL(short)
KERNELS_ALL(ushort)
KERNELS_ALL(int)
KERNELS_ALL(uint)
KERNELS_ALL(long)
KERNELS_ALL(ulong)
KERNELS_ALL(half)
KERNELS_ALL(float)
KERNELS_ALL(double)

#define SELECTED(mask) (((mask) >> (get_sub_group_local_id() % 32)) & 1)
#define DIVERGENT(T) \
  kernel void div_shuf_##T(global const T* a, global const T* b, global const uint* idx, \
                           global T* out, uint mask) { \
    size_t i = get_global_linear_id(); \
    if (SELECTED(mask)) out[i] = intel_sub_group_shuffle(a[i], idx[i]); \
  } \
  kernel void div_down_##T(global const T* a, global const T* b, global const uint* idx, \
                           global T* out, uint mask) { \
    size_t i = get_global_linear_id(); \
    if (SELECTED(mask)) out[i] = intel_sub_group_shuffle_down(a[i], b[i], idx[i]); \
  } \
  kernel void div_up_##T(global const T* a, global const T* b, global const uint* idx, \
                         global T* out, uint mask) { \
    size_t i = get_global_linear_id(); \
    if (SELECTED(mask)) out[i] = intel_sub_group_shuffle_up(a[i], b[i], idx[i]); \
  } \
  kernel void div_xor_##T(global const T* a, global const T* b, global const uint* idx, \
                          global T* out, uint mask) { \
    size_t i = get_global_linear_id(); \
    if (SELECTED(mask)) out[i] = intel_sub_group_shuffle_xor(a[i], idx[i]); \
  }
DIVERGENT(int)
DIVERGENT(float4)
DIVERGENT(half3)

// A shuffle in a loop: its result register still holds the previous round's value
// when a later round's index is out of range.
kernel void rounds(global const int* a, global const uint* idx, global int* out, uint n) {
  size_t i = get_global_linear_id();
  int acc = 0;
  for (uint k = 0; k < n; ++k) acc = acc * 10 + intel_sub_group_shuffle(a[i], idx[i * n + k]);
  out[i] = acc;
}

// Lanes leave the loop after different trip counts; the value each one computed last
// must survive the later rounds of the others.
kernel void trips(global const int* a, global const uint* count, global int* out) {
  size_t i = get_global_linear_id();
  int v;
  uint k = 0;
  do {
    v = intel_sub_group_shuffle(a[i] + (int)k * 1000, get_sub_group_local_id());
  } while (++k < count[i]);
  out[i] = v;
}

// The common idioms with constant indices and deltas.
kernel void idioms(global const int* a, global int4* out) {
  size_t i = get_global_linear_id();
  int x = a[i];
  out[i] = (int4)(intel_sub_group_shuffle(x, 0), intel_sub_group_shuffle_xor(x, 1),
                  intel_sub_group_shuffle_up(-x, x, 1), intel_sub_group_shuffle_down(x, -x, 1));
}
)";

Program& program() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kSource, "intel shuffles");
  return *p;
}

template <class E>
ArgBinding bindVector(std::vector<E>& v) {
  return testing::bind(v);
}

using testing::uintArg;

LaunchResult launch(const std::string& kernel, const NDRange& range, uint32_t width,
                    std::vector<ArgBinding> args) {
  LaunchOptions options;
  options.subGroupSize = width;
  return program().launch(kernel, range, args, options);
}

// A value that differs from lane to lane and component to component; floating-point
// values are small integers (exact in half).
template <class E>
E makeValue(uint64_t item, uint32_t source, uint32_t component) {
  const uint64_t h = (item * 0x9E3779B97F4A7C15ull) ^ (source * 0xC2B2AE3D27D4EB4Full) ^
                     (component * 0x165667B19E3779F9ull);
  const uint64_t mixed = h ^ (h >> 29);
  if constexpr (std::is_floating_point_v<E> || std::is_same_v<E, _Float16>)
    return E(int(mixed % 4001) - 2000);
  else
    return E(mixed);
}

template <class E>
bool sameBits(const E& x, const E& y) {
  return std::memcmp(&x, &y, sizeof(E)) == 0;
}

// The extension's rule (the host model): which lane, and whether of the second source.
struct ModelSource {
  bool inRange;
  uint32_t lane;
  bool second;
};

ModelSource modelSource(ShuffleOp op, uint32_t lane, uint32_t v, uint32_t max) {
  switch (op) {
    case ShuffleOp::Index:
      return {v < max, v, false};
    case ShuffleOp::Xor:
      return {(lane ^ v) < max, lane ^ v, false};
    case ShuffleOp::Down: {
      const uint64_t s = uint64_t(lane) + v;  // unsigned shuffle index
      if (s < max) return {true, uint32_t(s), false};
      return {s < 2ull * max, uint32_t(s - max), true};
    }
    default: {
      const int64_t s = int64_t(lane) - int64_t(v);  // signed shuffle index
      if (s >= 0) return {true, uint32_t(s), true};
      return {s >= -int64_t(max), uint32_t(s + max), false};
    }
  }
}

// An index/delta that makes `lane` read lane `target` (which must exist), through the
// first or the second source where the op allows both.
uint32_t indexFor(ShuffleOp op, uint32_t lane, uint32_t target, uint32_t max, bool second) {
  switch (op) {
    case ShuffleOp::Index:
      return target;
    case ShuffleOp::Xor:
      return lane ^ target;
    case ShuffleOp::Down:  // Next when second, or when Current cannot reach target
      return second || target < lane ? target + max - lane : target - lane;
    default:  // Previous unless second (Current) can reach it
      return !second || target > lane ? lane + max - target : lane - target;
  }
}

// One launch of `kernel` with `idx`; compares every lane's output with the host model
// (0 where the model's source lane is out of range, missing or inactive; the old value
// where the lane skipped the shuffle). Returns the first mismatch, or "".
template <class E>
std::string checkLaunch(const std::string& kernel, ShuffleOp op, const NDRange& range,
                        uint32_t width, uint32_t comps, const std::vector<uint32_t>& idx,
                        const uint32_t* mask, LaunchResult* result) {
  const uint32_t stride = comps == 3 ? 4 : comps;
  const uint64_t items = globalItems(range);
  std::vector<E> a(items * stride), b(items * stride);
  for (uint64_t i = 0; i < items; ++i)
    for (uint32_t c = 0; c < stride; ++c) {
      a[i * stride + c] = makeValue<E>(i, 0, c);
      b[i * stride + c] = makeValue<E>(i, 1, c);
    }
  const E sentinel = E(77);
  std::vector<E> out(items * stride, sentinel);
  std::vector<uint32_t> idxCopy = idx;
  std::vector<ArgBinding> args{bindVector(a), bindVector(b), bindVector(idxCopy), bindVector(out)};
  if (mask) args.push_back(uintArg(*mask));
  *result = launch(kernel, range, width, args);
  for (const auto& sg : partitionSubGroups(range, width)) {
    const uint32_t n = uint32_t(sg.items.size());
    auto selected = [&](uint32_t l) { return !mask || testing::laneSelected(*mask, l); };
    for (uint32_t l = 0; l < n; ++l) {
      const uint64_t item = sg.items[l];
      const ModelSource s = modelSource(op, l, idx[item], width);
      const bool readable = s.inRange && s.lane < n && selected(s.lane);
      for (uint32_t c = 0; c < comps; ++c) {
        E want = !selected(l) ? sentinel
                 : readable   ? (s.second ? b : a)[sg.items[s.lane] * stride + c]
                              : E(0);
        const E got = out[item * stride + c];
        if (!sameBits(want, got))
          return kernel + " sub-group " + std::to_string(sg.id) + " of work-group " +
                 std::to_string(sg.workGroup) + " lane " + std::to_string(l) + " component " +
                 std::to_string(c) + ": expected " + std::to_string(double(want)) + ", got " +
                 std::to_string(double(got)) + " (index " + std::to_string(idx[item]) + ")";
      }
    }
  }
  return "";
}

// Random valid indices: each lane reads an existing (and, with a mask, active) lane,
// through either source of _down/_up.
std::vector<uint32_t> validIndices(ShuffleOp op, const NDRange& range, uint32_t width,
                                   const uint32_t* mask, std::mt19937& rng) {
  std::vector<uint32_t> idx(globalItems(range), 0);
  for (const auto& sg : partitionSubGroups(range, width)) {
    const uint32_t n = uint32_t(sg.items.size());
    std::vector<uint32_t> targets;
    for (uint32_t l = 0; l < n; ++l)
      if (!mask || testing::laneSelected(*mask, l)) targets.push_back(l);
    if (targets.empty()) continue;
    for (uint32_t l = 0; l < n; ++l) {
      const uint32_t t = targets[rng() % targets.size()];
      idx[sg.items[l]] = indexFor(op, l, t, width, rng() & 1);
    }
  }
  return idx;
}

template <class E>
void checkType(const std::string& type) {
  std::mt19937 rng(1234);
  for (uint32_t comps : {1u, 2u, 3u, 4u, 8u, 16u}) {
    const std::string t = comps == 1 ? type : type + std::to_string(comps);
    for (ShuffleOp op : kOps) {
      const std::string kernel = std::string(kPrefix[int(op)]) + "_" + t;
      for (uint32_t width : subGroupSizes())
        for (const RangeCase& rc : rangeCases()) {
          const auto idx = validIndices(op, rc.range, width, nullptr, rng);
          LaunchResult r;
          const std::string bad =
              checkLaunch<E>(kernel, op, rc.range, width, comps, idx, nullptr, &r);
          ASSERT_TRUE(r.diagnostics.empty())
              << kernel << " " << rc.name << " width " << width << "\n"
              << testing::describe(r);
          ASSERT_EQ(bad, "") << rc.name << " width " << width;
        }
    }
  }
}

TEST(IntelShuffle, Char) { checkType<int8_t>("char"); }
TEST(IntelShuffle, Uchar) { checkType<uint8_t>("uchar"); }
TEST(IntelShuffle, Short) { checkType<int16_t>("short"); }
TEST(IntelShuffle, Ushort) { checkType<uint16_t>("ushort"); }
TEST(IntelShuffle, Int) { checkType<int32_t>("int"); }
TEST(IntelShuffle, Uint) { checkType<uint32_t>("uint"); }
TEST(IntelShuffle, Long) { checkType<int64_t>("long"); }
TEST(IntelShuffle, Ulong) { checkType<uint64_t>("ulong"); }
TEST(IntelShuffle, Half) { checkType<_Float16>("half"); }
TEST(IntelShuffle, Float) { checkType<float>("float"); }
TEST(IntelShuffle, Double) { checkType<double>("double"); }

// Divergent code where every source lane executed the shuffle: correct, no diagnostic;
// lanes that skipped it keep their old output.
template <class E>
void checkDivergent(const std::string& type, uint32_t comps) {
  std::mt19937 rng(99);
  for (ShuffleOp op : kOps) {
    const std::string kernel = std::string("div_") + kPrefix[int(op)] + "_" + type;
    for (uint32_t mask : testing::ctsLaneMasks())
      for (uint32_t width : subGroupSizes())
        for (const RangeCase& rc : rangeCases()) {
          const auto idx = validIndices(op, rc.range, width, &mask, rng);
          LaunchResult r;
          const std::string bad =
              checkLaunch<E>(kernel, op, rc.range, width, comps, idx, &mask, &r);
          ASSERT_TRUE(r.diagnostics.empty()) << kernel << " mask " << std::hex << mask << std::dec
                                             << " " << rc.name << " width " << width << "\n"
                                             << testing::describe(r);
          ASSERT_EQ(bad, "") << "mask " << std::hex << mask << std::dec << " " << rc.name
                             << " width " << width;
        }
  }
}

TEST(IntelShuffle, DivergentInt) { checkDivergent<int32_t>("int", 1); }
TEST(IntelShuffle, DivergentFloat4) { checkDivergent<float>("float4", 4); }
TEST(IntelShuffle, DivergentHalf3) { checkDivergent<_Float16>("half3", 3); }

// The first (in work-group, sub-group order) report of `kind`, or null.
const Diagnostic* find(const LaunchResult& r, const std::string& kind) {
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) return &d;
  return nullptr;
}

// Divergent code where some lanes read a lane that skipped the shuffle: a Warning
// naming exactly those lanes (the first sub-group's), and 0 as their result.
TEST(IntelShuffle, InactiveSourceLaneIsReported) {
  const NDRange range = rangeCases()[0].range;
  const uint32_t width = 8, mask = 0x5555aaaau;  // lanes 1, 3, 5, 7 run the shuffle
  for (ShuffleOp op : kOps) {
    std::vector<uint32_t> idx(globalItems(range), 0);
    for (const auto& sg : partitionSubGroups(range, width))
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        // Lanes 1 and 5 read the inactive lane below them, the others themselves.
        const uint32_t target = l % 4 == 1 ? l - 1 : l;
        idx[sg.items[l]] = indexFor(op, l, target, width, l % 8 == 5);
      }
    const std::string kernel = std::string("div_") + kPrefix[int(op)] + "_int";
    LaunchResult r;
    const std::string bad = checkLaunch<int32_t>(kernel, op, range, width, 1, idx, &mask, &r);
    EXPECT_EQ(bad, "");
    ASSERT_EQ(r.diagnostics.size(), 1u) << kernel << "\n" << testing::describe(r);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::InactiveLaneRead);
    EXPECT_EQ(d.severity, Severity::Warning);
    EXPECT_EQ(d.subGroup, 0u);
    EXPECT_EQ(d.lanes, (std::vector<uint32_t>{1, 5})) << kernel;
    EXPECT_NE(d.message.find("did not execute"), std::string::npos) << d.message;
    EXPECT_FALSE(hasErrors(r.diagnostics));
  }
}

// In the last, partial sub-group an index below the max sub-group size may name a lane
// that does not exist: reported like an inactive lane, result 0.
TEST(IntelShuffle, NonexistentLaneIsReported) {
  const NDRange range = rangeCases()[0].range;  // 70 a group: sub-group 1 has 6 of 64
  const uint32_t width = 64;
  for (ShuffleOp op : kOps) {
    std::vector<uint32_t> idx(globalItems(range), 0);
    for (const auto& sg : partitionSubGroups(range, width))
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        // Read the next lane (wrapping at the max size): lane 5 of the short sub-group
        // reads lane 6, which does not exist.
        const uint32_t t = (l + 1) % width;
        idx[sg.items[l]] = op == ShuffleOp::Index ? t
                           : op == ShuffleOp::Xor ? l ^ t
                           : op == ShuffleOp::Down
                               ? 1
                               : (l + width - t) % width;  // up: current when t <= l
      }
    const std::string kernel = std::string(kPrefix[int(op)]) + "_int";
    LaunchResult r;
    const std::string bad = checkLaunch<int32_t>(kernel, op, range, width, 1, idx, nullptr, &r);
    EXPECT_EQ(bad, "");
    const Diagnostic* d = find(r, "inactive-lane-read");
    ASSERT_NE(d, nullptr) << kernel << "\n" << testing::describe(r);
    EXPECT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
    EXPECT_EQ(d->severity, Severity::Warning);
    EXPECT_EQ(d->subGroup, 1u);
    EXPECT_EQ(d->lanes, (std::vector<uint32_t>{5})) << kernel;
    EXPECT_NE(d->message.find("does not exist"), std::string::npos) << d->message;
  }
}

// Indices outside the ranges the extension defines: a Warning naming those lanes,
// result 0; the boundary values and huge deltas both count.
TEST(IntelShuffle, OutOfRangeIsReported) {
  const NDRange range = rangeCases()[0].range;
  const uint32_t width = 16;
  for (ShuffleOp op : kOps) {
    std::vector<uint32_t> idx(globalItems(range), 0);
    for (const auto& sg : partitionSubGroups(range, width))
      for (uint32_t l = 0; l < sg.items.size(); ++l) {
        uint32_t v = indexFor(op, l, l, width, false);  // itself
        if (l % 6 == 0) v = 0xffffffffu;
        if (l % 6 == 3) {
          switch (op) {  // the first value past the range
            case ShuffleOp::Index:
              v = width;
              break;
            case ShuffleOp::Xor:
              v = width;  // l ^ width >= width
              break;
            case ShuffleOp::Down:
              v = 2 * width - l;  // index 2 * max
              break;
            case ShuffleOp::Up:
              v = l + width + 1;  // index -max - 1
              break;
          }
        }
        idx[sg.items[l]] = v;
      }
    const std::string kernel = std::string(kPrefix[int(op)]) + "_int";
    LaunchResult r;
    const std::string bad = checkLaunch<int32_t>(kernel, op, range, width, 1, idx, nullptr, &r);
    EXPECT_EQ(bad, "");
    ASSERT_EQ(r.diagnostics.size(), 1u) << kernel << "\n" << testing::describe(r);
    const Diagnostic& d = r.diagnostics[0];
    EXPECT_EQ(d.kind, DiagnosticKind::ShuffleOutOfRange);
    EXPECT_EQ(d.severity, Severity::Warning);
    EXPECT_EQ(d.subGroup, 0u);
    EXPECT_EQ(d.lanes, (std::vector<uint32_t>{0, 3, 6, 9, 12, 15})) << kernel;
    EXPECT_NE(d.message.find("intel_sub_group_shuffle"), std::string::npos) << d.message;
  }
}

// The result of an out-of-range read is 0, not whatever the register held before.
TEST(IntelShuffle, OutOfRangeResultIsZeroInLoops) {
  const NDRange range = rangeCases()[2].range;  // 2-D
  const uint32_t width = 8, n = 3;
  const uint64_t items = globalItems(range);
  std::vector<int32_t> a(items), out(items, -1);
  std::vector<uint32_t> idx(items * n);
  for (const auto& sg : partitionSubGroups(range, width))
    for (uint32_t l = 0; l < sg.items.size(); ++l) {
      const uint64_t i = sg.items[l];
      a[i] = int32_t(l % 9) + 1;
      idx[i * n + 0] = l;          // its own value
      idx[i * n + 1] = width + l;  // out of range
      idx[i * n + 2] = l;
    }
  auto r = launch("rounds", range, width,
                  {testing::bind(a), testing::bind(idx), testing::bind(out), uintArg(n)});
  for (uint64_t i = 0; i < items; ++i) EXPECT_EQ(out[i], a[i] * 100 + a[i]) << i;
  ASSERT_EQ(r.diagnostics.size(), 1u) << testing::describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::ShuffleOutOfRange);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Warning);
  EXPECT_EQ(r.diagnostics[0].lanes.size(), width);
}

// Lanes that finished a divergent loop keep the shuffle result of their last round.
TEST(IntelShuffle, ResultsOfFinishedLanesSurvive) {
  for (const RangeCase& rc : rangeCases())
    for (uint32_t width : subGroupSizes()) {
      const uint64_t items = globalItems(rc.range);
      std::vector<int32_t> a(items), out(items, -1);
      std::vector<uint32_t> count(items);
      for (uint64_t i = 0; i < items; ++i) {
        a[i] = int32_t(i);
        count[i] = 1 + uint32_t(i * 7 % 5);
      }
      auto r = launch("trips", rc.range, width,
                      {testing::bind(a), testing::bind(count), testing::bind(out)});
      ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
      for (uint64_t i = 0; i < items; ++i)
        ASSERT_EQ(out[i], a[i] + int32_t(count[i] - 1) * 1000) << rc.name << " " << width;
    }
}

// Constant index and delta operands (broadcast from lane 0, butterfly, shift by one)
// in full sub-groups: the idioms reductions and scans are built from.
TEST(IntelShuffle, ConstantOperandIdioms) {
  NDRange range = testing::makeRange(1, {128, 1, 1}, {64, 1, 1});
  for (uint32_t width : subGroupSizes()) {
    std::vector<int32_t> a(128), out(128 * 4, 7);
    for (int i = 0; i < 128; ++i) a[i] = i * 3 + 1;
    auto r = launch("idioms", range, width, {testing::bind(a), testing::bind(out)});
    ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
    for (uint32_t i = 0; i < 128; ++i) {
      const uint32_t l = i % width, first = i - l;
      EXPECT_EQ(out[i * 4 + 0], a[first]) << i;
      EXPECT_EQ(out[i * 4 + 1], a[first + (l ^ 1)]) << i;
      EXPECT_EQ(out[i * 4 + 2], l == 0 ? -a[first + width - 1] : a[i - 1]) << i;
      EXPECT_EQ(out[i * 4 + 3], l == width - 1 ? -a[first] : a[i + 1]) << i;
    }
  }
}

}  // namespace
}  // namespace spvsim
