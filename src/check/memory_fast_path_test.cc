// The sub-group fast paths of OpLoad/OpStore and vloadn/vstoren (src/DESIGN.md, "Uniform
// and contiguous memory access"): uniform, contiguous and scattered lanes, each element
// size, partial and divergent sub-groups, local and constant memory, an out-of-bounds or
// misaligned lane inside an otherwise contiguous access. Expected values come from a host
// model of each kernel; every launch also runs with the race checker on (per-lane path
// for its spaces), which must give the same memory and the same diagnostics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;
using testing::range1;

// (kind, work-group, sub-group, lanes) of each diagnostic, for comparing launches.
std::vector<std::string> summary(const LaunchResult& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) {
    std::string s = std::string(kindName(d.kind)) + " wg" +
                    std::to_string(d.workGroup ? (*d.workGroup)[0] : 99) + " sg" +
                    std::to_string(d.subGroup.value_or(99)) + " lanes";
    for (uint32_t l : d.lanes) s += " " + std::to_string(l);
    out.push_back(s);
  }
  return out;
}

// The race checker's own reports: races and the note that its state budget was reached.
std::vector<std::string> withoutRaces(std::vector<std::string> v) {
  std::erase_if(v, [](const std::string& s) {
    return s.rfind("data-race", 0) == 0 || s.rfind("out-of-memory", 0) == 0;
  });
  return v;
}

struct Config {
  uint64_t global, local;
  uint32_t sgSize;
};
// Full sub-groups; a partial last sub-group in each work-group (13 = 8 + 5); one lane.
const Config kConfigs[] = {{64, 32, 16}, {26, 13, 8}, {64, 64, 8}, {8, 4, 1}};

// Runs kernel `k` over `buffers` on one host thread, with the race checker on or off.
template <class... V>
LaunchResult launch(Program& p, const Config& c, bool races, std::vector<V>&... buffers) {
  LaunchOptions o;
  o.subGroupSize = c.sgSize;
  o.threads = 1;
  if (races) o.observers = check::observersFor({.races = true});
  return p.launch("k", range1(c.global, c.local), {bind(buffers)...}, o);
}

TEST(MemoryFastPath, ElementSizesAndPatterns) {
  auto p = loadOpenCl(R"(
    kernel void k(global const float* f, global float* of, global const int* i, global int* oi,
                  global const char* c, global char* oc, global const short* s,
                  global short* os, global const double* d, global double* od,
                  global const float4* f4, global float4* of4, global const float3* f3,
                  global float3* of3, global int* rev, global int* strided,
                  global float* v3) {
      size_t g = get_global_id(0), n = get_global_size(0);
      of[g] = f[g] * 2.0f;               // contiguous load and store
      oi[g] = i[g] + i[0];               // contiguous + uniform load
      oc[g] = (char)(c[g] + 1);
      os[g] = s[2 * g];                  // strided load, contiguous store
      od[g] = d[g] - d[n - 1];
      of4[g] = f4[g] + (float4)(1.0f);
      of3[g] = f3[g] * 3.0f;
      rev[n - 1 - g] = i[n - 1 - g] * 5; // reverse order
      strided[3 * g] = (int)g;           // strided store
      vstore4(vload4(g, f) + 1.0f, g, v3 + 4 * n);
      vstore3(vload3(g, f), g, v3);
    })",
                      "patterns");
  for (const Config& c : kConfigs) {
    SCOPED_TRACE(c.global * 1000 + c.local * 10 + c.sgSize);
    const size_t n = c.global;
    std::vector<float> f(4 * n), of(n), f4(4 * n), of4(4 * n), f3(4 * n), of3(4 * n),
        v3(8 * n, -1.0f);
    std::vector<int32_t> i(n), oi(n), rev(n), strided(3 * n, -7);
    std::vector<int8_t> ch(n), oc(n);
    std::vector<int16_t> s(2 * n), os(n);
    std::vector<double> d(n), od(n);
    for (size_t k = 0; k < 4 * n; ++k) f[k] = f4[k] = f3[k] = float(k) * 0.5f - 3.0f;
    for (size_t k = 0; k < n; ++k) {
      i[k] = int32_t(k * 7 + 1);
      ch[k] = int8_t(k * 5 - 60);
      d[k] = double(k) * 1.25;
    }
    for (size_t k = 0; k < 2 * n; ++k) s[k] = int16_t(k * 3 - 40);
    auto r = launch(*p, c, false, f, of, i, oi, ch, oc, s, os, d, od, f4, of4, f3, of3, rev,
                    strided, v3);
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    for (size_t g = 0; g < n; ++g) {
      EXPECT_EQ(of[g], f[g] * 2.0f);
      EXPECT_EQ(oi[g], i[g] + i[0]);
      EXPECT_EQ(oc[g], int8_t(ch[g] + 1));
      EXPECT_EQ(os[g], s[2 * g]);
      EXPECT_EQ(od[g], d[g] - d[n - 1]);
      for (int e = 0; e < 4; ++e) EXPECT_EQ(of4[4 * g + e], f4[4 * g + e] + 1.0f);
      for (int e = 0; e < 3; ++e) EXPECT_EQ(of3[4 * g + e], f3[4 * g + e] * 3.0f);
      EXPECT_EQ(rev[g], i[g] * 5);
      EXPECT_EQ(strided[3 * g], int32_t(g));
      EXPECT_EQ(strided[3 * g + 1], -7);
      for (int e = 0; e < 3; ++e) EXPECT_EQ(v3[3 * g + e], f[3 * g + e]);
      for (int e = 0; e < 4; ++e) EXPECT_EQ(v3[4 * n + 4 * g + e], f[4 * g + e] + 1.0f);
    }
    for (size_t k = 3 * n; k < 4 * n; ++k) EXPECT_EQ(v3[k], -1.0f);  // vstore3 wrote 3n
    // The race checker on (every lane through the checked path): the same memory.
    std::vector<float> of2(n), of4b(4 * n), of3b(4 * n), v3b(8 * n, -1.0f);
    std::vector<int32_t> oi2(n), rev2(n), strided2(3 * n, -7);
    std::vector<int8_t> oc2(n);
    std::vector<int16_t> os2(n);
    std::vector<double> od2(n);
    auto checked = launch(*p, c, true, f, of2, i, oi2, ch, oc2, s, os2, d, od2, f4, of4b, f3, of3b,
                          rev2, strided2, v3b);
    EXPECT_TRUE(withoutRaces(summary(checked)).empty()) << describe(checked);
    EXPECT_EQ(of2, of);
    EXPECT_EQ(oi2, oi);
    EXPECT_EQ(oc2, oc);
    EXPECT_EQ(os2, os);
    EXPECT_EQ(od2, od);
    EXPECT_EQ(of4b, of4);
    EXPECT_EQ(of3b, of3);
    EXPECT_EQ(rev2, rev);
    EXPECT_EQ(strided2, strided);
    EXPECT_EQ(v3b, v3);
  }
}

// A uniform store: lanes store in lane order, so the sub-group's last active lane wins
// (a race the checker reports; memory is the same with it on).
TEST(MemoryFastPath, UniformStoreLastLaneWins) {
  auto p = loadOpenCl(R"(
    kernel void k(global int* slot, global const int* in) {
      size_t g = get_global_id(0);
      uint sg = get_sub_group_id() + get_num_sub_groups() * get_group_id(0);
      slot[sg] = in[g] * 2;
      if (g % 3 != 0) slot[64 + sg] = in[g];  // divergent: the last active lane
    })",
                      "uniform_store");
  for (const Config& c : kConfigs) {
    SCOPED_TRACE(c.global * 1000 + c.local * 10 + c.sgSize);
    std::vector<int32_t> in(c.global);
    for (size_t k = 0; k < in.size(); ++k) in[k] = int32_t(k * k + 3);
    std::vector<int32_t> slot(128, -1), want(128, -1);
    for (uint64_t g = 0; g < c.global; ++g) {
      const uint64_t group = g / c.local, local = g % c.local;
      const uint64_t perGroup = (c.local + c.sgSize - 1) / c.sgSize;
      const uint64_t sg = local / c.sgSize + perGroup * group;
      want[sg] = in[g] * 2;  // ascending g: the last lane's value stays
      if (g % 3 != 0) want[64 + sg] = in[g];
    }
    auto r = launch(*p, c, false, slot, in);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(slot, want);
    std::vector<int32_t> slot2(128, -1);
    auto checked = launch(*p, c, true, slot2, in);
    EXPECT_EQ(slot2, want);
    if (c.sgSize > 1) {
      std::set<std::string> kinds;
      for (const auto& d : checked.diagnostics) kinds.insert(std::string(kindName(d.kind)));
      EXPECT_EQ(kinds, std::set<std::string>{"data-race"});
    }
  }
}

// One lane out of bounds in a contiguous access, misaligned contiguous accesses and a
// divergent mask: the per-lane path's diagnostics (kind, lanes) and values.
TEST(MemoryFastPath, OutOfBoundsAndMisalignedLanes) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int* in, global int* out, global char* bytes,
                  global int* mis, global int* short_out) {
      size_t g = get_global_id(0), n = get_global_size(0);
      out[g] = in[g];                                    // in has n - 1 elements
      global int* odd = (global int*)(bytes + 1);        // misaligned by one byte
      mis[g] = odd[g];
      odd[g + n] = (int)g;
      if (g % 2 == 1) short_out[g / 2 + n / 2 - 1] = (int)g; // the last active lane past the end
    })",
                      "oob");
  for (const Config& c : kConfigs) {
    SCOPED_TRACE(c.global * 1000 + c.local * 10 + c.sgSize);
    const size_t n = c.global;
    std::vector<int32_t> in(n - 1), out(n, -1), mis(n, -1), shortOut(n / 2, -1);
    std::vector<int8_t> bytes(8 * n + 8);
    for (size_t k = 0; k < in.size(); ++k) in[k] = int32_t(100 + k);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = int8_t(k * 13);
    const std::vector<int8_t> bytesIn = bytes;
    std::vector<int32_t> out2 = out, mis2 = mis, short2 = shortOut;
    std::vector<int8_t> bytes2 = bytes;
    auto r = launch(*p, c, false, in, out, bytes, mis, shortOut);
    for (size_t g = 0; g < n; ++g) {
      EXPECT_EQ(out[g], g + 1 < n ? in[g] : 0);  // the failed lane loads 0
      int32_t want;
      std::memcpy(&want, bytesIn.data() + 1 + 4 * g, 4);
      EXPECT_EQ(mis[g], want);  // misaligned accesses are reported and still done
      int32_t stored;
      std::memcpy(&stored, bytes.data() + 1 + 4 * (g + n), 4);
      EXPECT_EQ(stored, int32_t(g));
    }
    for (size_t g = 1; g < n; g += 2)
      if (g / 2 + n / 2 - 1 < n / 2) EXPECT_EQ(shortOut[g / 2 + n / 2 - 1], int32_t(g));
    // Diagnostics: the last work-item's load; every lane of the misaligned load and store
    // (each sub-group); the odd lanes past the end of short_out.
    std::multiset<std::string> kinds;
    for (const auto& d : r.diagnostics) kinds.insert(std::string(kindName(d.kind)));
    EXPECT_GE(kinds.count("out-of-bounds"), 1u) << describe(r);
    EXPECT_GE(kinds.count("misaligned-access"), 1u) << describe(r);
    bool lastLaneReported = false;
    for (const auto& d : r.diagnostics)
      if (d.kind == DiagnosticKind::OutOfBounds &&
          d.instruction.find("OpLoad") != std::string::npos)
        lastLaneReported = true;
    EXPECT_TRUE(lastLaneReported) << describe(r);
    auto checked = launch(*p, c, true, in, out2, bytes2, mis2, short2);
    EXPECT_EQ(withoutRaces(summary(checked)), summary(r));
    EXPECT_EQ(out2, out);
    EXPECT_EQ(mis2, mis);
    EXPECT_EQ(bytes2, bytes);
    EXPECT_EQ(short2, shortOut);
  }
}

// Local memory (contiguous, reversed and uniform) and constant memory (uniform and
// contiguous), including partial sub-groups.
TEST(MemoryFastPath, LocalAndConstantMemory) {
  auto p = loadOpenCl(R"(
    kernel void k(constant int* table, global int* out, global int* out2) {
      local int tile[64];
      size_t l = get_local_id(0), g = get_global_id(0), m = get_local_size(0);
      tile[l] = table[l] + table[0];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[g] = tile[m - 1 - l] * 10 + tile[0];
      out2[g] = table[g % 4];
    })",
                      "local_constant");
  for (const Config& c : kConfigs) {
    SCOPED_TRACE(c.global * 1000 + c.local * 10 + c.sgSize);
    std::vector<int32_t> table(64), out(c.global), out2(c.global);
    for (size_t k = 0; k < 64; ++k) table[k] = int32_t(3 * k + 11);
    std::vector<int32_t> outB = out, out2B = out2;
    auto r = launch(*p, c, false, table, out, out2);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    for (uint64_t g = 0; g < c.global; ++g) {
      const uint64_t l = g % c.local, m = c.local;
      auto tile = [&](uint64_t k) { return table[k] + table[0]; };
      EXPECT_EQ(out[g], tile(m - 1 - l) * 10 + tile(0));
      EXPECT_EQ(out2[g], table[g % 4]);
    }
    auto checked = launch(*p, c, true, table, outB, out2B);
    EXPECT_TRUE(checked.diagnostics.empty()) << describe(checked);
    EXPECT_EQ(outB, out);
    EXPECT_EQ(out2B, out2);
  }
}

// Access chains with 64-bit indices beyond 2^31 (the exact path), negative ones and a
// partly active sub-group: the lanes past the buffer are reported, the others load.
TEST(MemoryFastPath, AccessChainIndices) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int* in, global const long* idx, global int* out) {
      size_t g = get_global_id(0);
      global const int* mid = in + 8;
      out[g] = mid[idx[g]];
      if (g % 2 == 0) out[g] += mid[idx[g] + 1];
    })",
                      "chain");
  for (const Config& c : kConfigs) {
    SCOPED_TRACE(c.global * 1000 + c.local * 10 + c.sgSize);
    const size_t n = c.global;
    std::vector<int32_t> in(16 + n), out(n, -1), out2(n, -1);
    for (size_t k = 0; k < in.size(); ++k) in[k] = int32_t(k * 3 + 1);
    std::vector<int64_t> idx(n);
    for (size_t g = 0; g < n; ++g) idx[g] = int64_t(g) - 8;  // mid[-8] .. : in[0] ..
    idx[n / 2] = (int64_t(1) << 33) + 1;                     // far past the end
    idx[n - 1] = -(int64_t(1) << 40);                        // far before the start
    auto r = launch(*p, c, false, in, idx, out);
    for (size_t g = 0; g < n; ++g) {
      const bool bad = g == n / 2 || g == n - 1;
      int32_t want = bad ? 0 : in[g];
      if (g % 2 == 0) want += bad ? 0 : in[g + 1];
      EXPECT_EQ(out[g], want) << g;
    }
    // Only the two far lanes fail (folded per work-group and instruction).
    for (const auto& d : r.diagnostics)
      EXPECT_EQ(d.kind, DiagnosticKind::OutOfBounds) << describe(r);
    EXPECT_GE(r.diagnostics.size(), 1u);
    auto checked = launch(*p, c, true, in, idx, out2);
    EXPECT_EQ(withoutRaces(summary(checked)), summary(r));
    EXPECT_EQ(out2, out);
  }
}

// Access chains with several dynamic indices (2-D and 3-D local arrays; src/DESIGN.md,
// "Uniform and contiguous memory access"): uniform and per-lane indices of 32 and 64
// bits, negative ones within the object, power-of-two and other strides, divergent lanes.
TEST(MemoryFastPath, MultiIndexAccessChains) {
  const std::string source = R"(
    kernel void k(global const int* in, global const long* ia, global const int* ib,
                  global int* out, int uni) {
      local int tile[8][24];
      local long cube[4][5][3];
      size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
      for (size_t i = 0; i < 8; ++i)
        for (size_t j = l; j < 24; j += n) tile[i][j] = in[i * 24 + j];
      for (size_t i = 0; i < 4; ++i)
        for (size_t j = 0; j < 5; ++j)
          for (size_t t = l; t < 3; t += n) cube[i][j][t] = (long)(i * 15 + j * 3 + t) * 7 - 100;
      barrier(CLK_LOCAL_MEM_FENCE);
      int a = tile[uni][l % 24];
      int b = tile[(l * 5) % 8][uni];
      int c = tile[ia[g]][ib[g]];
      long d = cube[l % 4][uni % 5][(l + 1) % 3];
      int r = a + 3 * b + 5 * c + 7 * (int)d;
      if (l % 3 == 0) r += tile[l % 8][(l * 7) % 24];
      out[g] = r;
    })";
  // Host model: the same arrays, flat.
  auto model = [](const std::vector<int32_t>& in, const std::vector<int64_t>& ia,
                  const std::vector<int32_t>& ib, size_t g, size_t l, int uni) {
    auto tile = [&](int64_t i, int64_t j) { return in[size_t(i * 24 + j)]; };
    auto cube = [](int64_t i, int64_t j, int64_t k) { return (i * 15 + j * 3 + k) * 7 - 100; };
    int32_t r = tile(uni, l % 24) + 3 * tile((l * 5) % 8, uni) + 5 * tile(ia[g], ib[g]) +
                7 * int32_t(cube(l % 4, uni % 5, (l + 1) % 3));
    if (l % 3 == 0) r += tile(l % 8, (l * 7) % 24);
    return r;
  };
  for (const char* opt : {"-O0", "-O1", "-O2", "-O3"}) {
    auto p = Program::load(testing::compileOpenCL(source, opt));
    for (const Config& c : kConfigs) {
      SCOPED_TRACE(std::string(opt) + " " +
                   std::to_string(c.global * 1000 + c.local * 10 + c.sgSize));
      const size_t n = c.global;
      std::vector<int32_t> in(8 * 24), out(n, -1), out2(n, -1), ib(n);
      for (size_t k = 0; k < in.size(); ++k) in[k] = int32_t(k * k % 1000) - 300;
      std::vector<int64_t> ia(n);
      // Rows 1..7; at -O2/-O3 also column -3 (inside the tile object: -O0 reports it as
      // outside its int[24] row, src/exec/ops/array_bounds.h).
      const bool negative = std::string(opt) != "-O0";
      for (size_t g = 0; g < n; ++g) {
        ia[g] = 1 + int64_t(g % 7);
        ib[g] = g % 2 && negative ? -3 : int32_t(g % 24);
      }
      // One lane's 64-bit row index far out (2^33 rows): the exact path reports it and the
      // load gives 0; every other lane is unaffected.
      const size_t far = n / 2;
      ia[far] = int64_t(1) << 33;
      ib[far] = 2;
      LaunchOptions o;
      o.subGroupSize = c.sgSize;
      o.threads = 1;
      const std::vector<ArgBinding> args = {bind(in), bind(ia), bind(ib), bind(out),
                                            ArgBinding::bytes({5, 0, 0, 0})};
      auto r = p->launch("k", range1(c.global, c.local), args, o);
      ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
      EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
      EXPECT_EQ(r.diagnostics[0].lanes.size(), 1u);
      for (size_t g = 0; g < n; ++g) {
        std::vector<int64_t> row = ia;
        if (g == far) row[g] = 0;  // the model's c for that lane is then in[ib]: take it out
        int32_t want = model(in, row, ib, g, g % c.local, 5);
        if (g == far) want -= 5 * in[size_t(ib[g])];
        EXPECT_EQ(out[g], want) << "item " << g;
      }
      o.observers = check::observersFor({.races = true});
      const std::vector<ArgBinding> args2 = {bind(in), bind(ia), bind(ib), bind(out2),
                                             ArgBinding::bytes({5, 0, 0, 0})};
      auto checked = p->launch("k", range1(c.global, c.local), args2, o);
      EXPECT_EQ(withoutRaces(summary(checked)), summary(r));
      EXPECT_EQ(out2, out);
    }
  }
}

}  // namespace
}  // namespace spvsim
