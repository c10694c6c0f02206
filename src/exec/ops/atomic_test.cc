// OpAtomic* end to end: every integer op on int/uint/long/ulong in global, local and
// generic (-> global, -> local) memory; float add/min/max/exchange; load/store; flags;
// counters and compare-exchange loops at several thread counts and sub-group sizes;
// misaligned, out-of-bounds and non-constant-scope errors. Expected values come from a
// host model that applies the operation lane after lane (SPIR-V: each lane's atomic is
// a separate atomic operation; spvsim runs the lanes of a sub-group in lane order).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/exec/observer.h"
#include "src/exec/ops/opencl_test_util.h"
#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;

const char* kSource = R"(
#define OP1_int(op) atomic_##op
#define OP1_uint(op) atomic_##op
#define OP1_long(op) atom_##op
#define OP1_ulong(op) atom_##op
#define MO memory_order_relaxed
#define SCOPE memory_scope_device

// OpenCL 1.x built-ins (atomic_* for 32-bit, atom_* for 64-bit); op numbers as in kOps.
#define BODY1(T, P)                                 \
  switch (op) {                                     \
    case 0: return OP1_##T(add)(P, x);              \
    case 1: return OP1_##T(sub)(P, x);              \
    case 2: return OP1_##T(xchg)(P, x);             \
    case 3: return OP1_##T(inc)(P);                 \
    case 4: return OP1_##T(dec)(P);                 \
    case 5: return OP1_##T(min)(P, x);              \
    case 6: return OP1_##T(max)(P, x);              \
    case 7: return OP1_##T(and)(P, x);              \
    case 8: return OP1_##T(or)(P, x);               \
    case 9: return OP1_##T(xor)(P, x);              \
    default: return OP1_##T(cmpxchg)(P, x, x + 1);  \
  }

// OpenCL 2.0 atomic_*_explicit through a generic pointer, with assorted orders/scopes.
#define BODY2(T)                                                                    \
  T e = x;                                                                          \
  switch (op) {                                                                     \
    case 0: return atomic_fetch_add_explicit(p, x, MO, SCOPE);                      \
    case 1: return atomic_fetch_sub_explicit(p, x, memory_order_acq_rel, SCOPE);    \
    case 2: return atomic_exchange_explicit(p, x, MO, memory_scope_work_group);     \
    case 3: return atomic_fetch_add_explicit(p, (T)1, MO, SCOPE);                   \
    case 4: return atomic_fetch_sub_explicit(p, (T)1, MO, SCOPE);                   \
    case 5: return atomic_fetch_min_explicit(p, x, memory_order_seq_cst, SCOPE);    \
    case 6: return atomic_fetch_max_explicit(p, x, MO, memory_scope_all_svm_devices); \
    case 7: return atomic_fetch_and_explicit(p, x, MO, SCOPE);                      \
    case 8: return atomic_fetch_or_explicit(p, x, MO, SCOPE);                       \
    case 9: return atomic_fetch_xor_explicit(p, x, memory_order_release, SCOPE);    \
    default:                                                                        \
      atomic_compare_exchange_strong_explicit(p, &e, x + 1, memory_order_acq_rel,   \
                                              memory_order_acquire, SCOPE);         \
      return e;                                                                     \
  }

// space: 0 global, 1 local, 2 generic -> global, 3 generic -> local. The counter is
// m[group] (perGroup) or m[0]; a local counter starts from and ends in m[group].
// The generic pointer depends on `space` at run time, so it stays generic in SPIR-V.
#define KERNELS(T)                                                                     \
  T global_op_##T(volatile global T* p, T x, int op) { BODY1(T, p) }                   \
  T local_op_##T(volatile local T* p, T x, int op) { BODY1(T, p) }                     \
  T generic_op_##T(volatile generic atomic_##T* p, T x, int op) { BODY2(T) }           \
  kernel void op_##T(global T* m, global const T* v, global T* old, int op, int space, \
                     int perGroup) {                                                   \
    local T s[1];                                                                      \
    const size_t i = get_global_id(0), g = perGroup ? get_group_id(0) : 0;             \
    const bool inLocal = space & 1;                                                    \
    if (inLocal) {                                                                     \
      if (get_local_id(0) == 0) s[0] = m[g];                                           \
      barrier(CLK_LOCAL_MEM_FENCE);                                                    \
    }                                                                                  \
    generic T* q = inLocal ? (generic T*)s : (generic T*)(m + g);                      \
    if (space == 0) old[i] = global_op_##T(m + g, v[i], op);                           \
    else if (space == 1) old[i] = local_op_##T(s, v[i], op);                           \
    else old[i] = generic_op_##T((volatile generic atomic_##T*)q, v[i], op);           \
    if (inLocal) {                                                                     \
      barrier(CLK_LOCAL_MEM_FENCE);                                                    \
      if (get_local_id(0) == 0) m[g] = s[0];                                           \
    }                                                                                  \
  }
KERNELS(int) KERNELS(uint) KERNELS(long) KERNELS(ulong)

// Float add/min/max/exchange on m[group] in global or local memory (generic pointer).
#define FLOAT_KERNEL(T)                                                                 \
  kernel void fop_##T(global T* m, global const T* v, global T* old, int op,            \
                      int inLocal) {                                                    \
    local T s[1];                                                                       \
    const size_t i = get_global_id(0), g = get_group_id(0);                             \
    if (inLocal) {                                                                      \
      if (get_local_id(0) == 0) s[0] = m[g];                                            \
      barrier(CLK_LOCAL_MEM_FENCE);                                                     \
    }                                                                                   \
    volatile generic atomic_##T* p =                                                    \
        (volatile generic atomic_##T*)(inLocal ? (generic T*)s : (generic T*)(m + g));  \
    old[i] = op == 0 ? atomic_fetch_add_explicit(p, v[i], MO, memory_scope_work_group)  \
           : op == 1 ? atomic_fetch_min_explicit(p, v[i], MO, memory_scope_work_group)  \
           : op == 2 ? atomic_fetch_max_explicit(p, v[i], MO, memory_scope_work_group)  \
                     : atomic_exchange_explicit(p, v[i], MO, memory_scope_work_group);  \
    if (inLocal) {                                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                     \
      if (get_local_id(0) == 0) m[g] = s[0];                                            \
    }                                                                                   \
  }
FLOAT_KERNEL(float) FLOAT_KERNEL(double)

kernel void float_sum(global float* sum, global double* dsum, global const float* v) {
  atomic_fetch_add((volatile global atomic_float*)sum, v[get_global_id(0)]);
  atomic_fetch_add((volatile global atomic_double*)dsum, (double)v[get_global_id(0)]);
}

// Counter: every work-item increments one global counter and keeps the ticket.
kernel void counter(global uint* c, global uint* ticket) {
  ticket[get_global_id(0)] = atomic_inc(c);
}

// Lock-free accumulate (64-bit CAS loop) and atomic max built from 32-bit CAS.
kernel void cas_loops(volatile global atomic_long* sum, global int* max,
                      global const int* v) {
  const int x = v[get_global_id(0)];
  long seen = atomic_load_explicit(sum, memory_order_relaxed, memory_scope_device);
  while (!atomic_compare_exchange_strong_explicit(sum, &seen, seen + x, memory_order_relaxed,
                                                  memory_order_relaxed, memory_scope_device)) {
  }
  // The first compare-exchange reads the current value (a plain read of *max would race
  // with the other work-items' atomics).
  int cur = INT_MIN, prev;
  while (cur < x && (prev = atomic_cmpxchg(max, cur, x)) != cur) cur = prev;
}

// Atomic store then load, per work-item, in global and local memory.
kernel void load_store(volatile global atomic_int* a, volatile global atomic_long* b,
                       global int* outA, global long* outB) {
  local atomic_int la[256];
  local atomic_long lb[256];
  const size_t i = get_global_id(0), l = get_local_id(0);
  atomic_store(&a[i], (int)i * 3 - 7);
  atomic_store_explicit(&b[i], (long)i << 40, memory_order_release, memory_scope_device);
  atomic_store(&la[l], (int)i + 1);
  atomic_store_explicit(&lb[l], -(long)i << 33, memory_order_relaxed, memory_scope_work_group);
  outA[2 * i] = atomic_load(&a[i]);
  outA[2 * i + 1] = atomic_load(&la[l]);
  outB[2 * i] = atomic_load_explicit(&b[i], memory_order_acquire, memory_scope_device);
  outB[2 * i + 1] = atomic_load_explicit(&lb[l], memory_order_relaxed, memory_scope_work_group);
}

// Flags: test-and-set by every lane, a clear by the last lane, test-and-set again.
kernel void flags(global atomic_flag* f, global int* r) {
  local atomic_flag lf;
  const size_t i = get_global_id(0), g = get_group_id(0), n = get_local_size(0);
  if (get_local_id(0) == 0) atomic_flag_clear_explicit(&lf, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  r[4 * i] = atomic_flag_test_and_set(&f[g]);
  r[4 * i + 1] = atomic_flag_test_and_set_explicit(&lf, memory_order_acquire, memory_scope_work_group);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == n - 1) {
    atomic_flag_clear(&f[g]);
    atomic_flag_clear_explicit(&lf, memory_order_release, memory_scope_work_group);
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  r[4 * i + 2] = atomic_flag_test_and_set(&f[g]);
  r[4 * i + 3] = atomic_flag_test_and_set_explicit(&lf, memory_order_relaxed, memory_scope_work_group);
}

// Partly active sub-groups: the lanes with get_local_id(0) % 3 == skip sit out (skip 3:
// none), on one counter per work-group in global or local memory.
#define PARTIAL(T)                                                                       \
  kernel void partial_##T(global T* m, global const T* v, global T* old, int op,         \
                          int inLocal, int skip) {                                       \
    local T s[1];                                                                        \
    const size_t i = get_global_id(0), g = get_group_id(0), l = get_local_id(0);         \
    if (inLocal) {                                                                       \
      if (l == 0) s[0] = m[g];                                                           \
      barrier(CLK_LOCAL_MEM_FENCE);                                                      \
    }                                                                                    \
    if (l % 3 != skip) old[i] = inLocal ? local_op_##T(s, v[i], op) : global_op_##T(m + g, v[i], op); \
    if (inLocal) {                                                                       \
      barrier(CLK_LOCAL_MEM_FENCE);                                                      \
      if (l == 0) m[g] = s[0];                                                           \
    }                                                                                    \
  }
PARTIAL(int) PARTIAL(uint) PARTIAL(long) PARTIAL(ulong)

// Every lane adds to m[0] except lane `bad`, whose pointer is m + 1000 (out of bounds).
kernel void one_bad_lane(global uint* m, global uint* old, int bad) {
  const size_t i = get_global_id(0);
  old[i] = atomic_add(m + (i == bad ? 1000 : 0), (uint)i + 1);
}

// Histograms of 256 bins: in global memory, and per work-group in local memory merged
// into global memory.
kernel void hist(global const uint* in, global uint* bins) {
  atomic_inc(&bins[in[get_global_id(0)] & 255u]);
}
kernel void local_hist(global const uint* in, global uint* bins) {
  local uint lb[256];
  const size_t l = get_local_id(0);
  for (size_t b = l; b < 256; b += get_local_size(0)) lb[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&lb[in[get_global_id(0)] & 255u]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = l; b < 256; b += get_local_size(0)) atomic_add(&bins[b], lb[b]);
}

// Errors: an int atomic at a byte offset of 2, and one past the end of the buffer.
kernel void misaligned(global int* a) {
  atomic_inc((volatile global int*)((global char*)a + 2));
}
kernel void past_end(global long* a, long i) { atom_add(a + i, 1L); }
)";

Program& program() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kSource, "atomic kernels");
  return *p;
}

template <class T>
ArgBinding value(T v) {
  std::vector<uint8_t> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return ArgBinding::bytes(b);
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

LaunchResult launch(const std::string& kernel, std::vector<ArgBinding> args, uint64_t global,
                    uint64_t local, uint32_t width, unsigned threads = 0) {
  NDRange range;
  range.global[0] = global;
  range.local[0] = local;
  range.localGiven = true;
  LaunchOptions o;
  o.subGroupSize = width;
  o.threads = threads;
  return program().launch(kernel, range, args, o);
}

// ---- Integer ops ----

const char* kOps[] = {"add", "sub", "xchg", "inc", "dec",    "min",
                      "max", "and", "or",   "xor", "cmpxchg"};
constexpr int kCmpxchg = 10;
const char* kSpaces[] = {"global", "local", "generic->global", "generic->local"};

// The new value of the counter after op `op` with operand x (the host model).
// Integer atomics wrap (two's complement), so the model adds without signed overflow.
template <class T>
T apply(int op, T m, T x) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case 0:
      return T(U(m) + U(x));
    case 1:
      return T(U(m) - U(x));
    case 2:
      return x;
    case 3:
      return T(U(m) + 1);
    case 4:
      return T(U(m) - 1);
    case 5:
      return std::min(m, x);  // signed or unsigned by T, as SMin/UMin
    case 6:
      return std::max(m, x);
    case 7:
      return m & x;
    case 8:
      return m | x;
    case 9:
      return m ^ x;
    default:
      return m == x ? T(U(x) + 1) : m;
  }
}

template <class T>
std::string typeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "int";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint";
  if constexpr (std::is_same_v<T, int64_t>) return "long";
  return "ulong";
}

// One work-group per sub-group: lane l of group g gets old = the counter after lanes
// 0..l-1 of g, in lane order.
template <class T>
void checkLaneOrder(uint32_t width) {
  const uint32_t groups = 3, n = groups * width;
  for (int op = 0; op < 11; ++op)
    for (int space = 0; space < 4; ++space) {
      SCOPED_TRACE(typeName<T>() + " " + kOps[op] + " in " + kSpaces[space] +
                   " memory, sub-group size " + std::to_string(width));
      uint64_t seed = op * 131 + space * 7 + width;
      std::vector<T> m(groups), v(n), old(n, T(0x55));
      for (T& x : m) x = T(splitmix(seed));
      for (uint32_t i = 0; i < n; ++i) v[i] = T(splitmix(seed));
      if (op == kCmpxchg)  // lanes 0, 2, 4, ... succeed, the odd lanes fail
        for (uint32_t i = 0; i < n; ++i) v[i] = T(m[i / width] + (i % width) / 2);
      std::vector<T> expectM = m, expectOld(n);
      for (uint32_t i = 0; i < n; ++i) {
        T& c = expectM[i / width];
        expectOld[i] = c;
        c = apply(op, c, v[i]);
      }
      auto r =
          launch("op_" + typeName<T>(),
                 {bind(m), bind(v), bind(old), value(op), value(space), value(1)}, n, width, width);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      ASSERT_EQ(old, expectOld);
      ASSERT_EQ(m, expectM);
    }
}

TEST(Atomic, IntegerOpsReturnOldValuesInLaneOrder) {
  for (uint32_t width : {1u, 8u, 32u}) {
    checkLaneOrder<int32_t>(width);
    checkLaneOrder<uint32_t>(width);
    checkLaneOrder<int64_t>(width);
    checkLaneOrder<uint64_t>(width);
  }
}

// Commutative ops on one counter shared by every work-item of the NDRange (global) or
// of each work-group (local): the final value is exact at any thread count.
template <class T>
void checkShared(unsigned threads, uint32_t width) {
  const uint32_t local = 64, groups = 24, n = local * groups;
  for (int op : {0, 1, 3, 4, 5, 6, 7, 8, 9})
    for (int space = 0; space < 4; ++space) {
      SCOPED_TRACE(typeName<T>() + " " + kOps[op] + " in " + kSpaces[space] + ", " +
                   std::to_string(threads) + " threads, sub-group size " + std::to_string(width));
      const bool perGroup = space & 1;
      uint64_t seed = op * 17 + space;
      std::vector<T> m(groups), v(n), old(n);
      for (T& x : m) x = T(splitmix(seed));
      for (T& x : v) x = T(splitmix(seed));
      std::vector<T> expectM = m;
      for (uint32_t i = 0; i < n; ++i) {
        T& c = expectM[perGroup ? i / local : 0];
        c = apply(op, c, v[i]);
      }
      auto r = launch("op_" + typeName<T>(),
                      {bind(m), bind(v), bind(old), value(op), value(space), value(int(perGroup))},
                      n, local, width, threads);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      ASSERT_EQ(m, expectM);
    }
}

TEST(Atomic, SharedCountersAreExactAtEveryThreadCount) {
  for (unsigned threads : {1u, 2u, 8u})
    for (uint32_t width : {1u, 8u, 32u}) {
      checkShared<int32_t>(threads, width);
      checkShared<uint64_t>(threads, width);
    }
}

// Every ticket 0..n-1 is handed out exactly once.
TEST(Atomic, CounterTicketsAreUnique) {
  const uint32_t n = 4096;
  for (unsigned threads : {1u, 2u, 8u})
    for (uint32_t width : {1u, 8u, 32u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, sub-group size " + std::to_string(width));
      std::vector<uint32_t> c(1, 0), ticket(n, 0xffffffffu);
      auto r = launch("counter", {bind(c), bind(ticket)}, n, 128, width, threads);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(c[0], n);
      std::sort(ticket.begin(), ticket.end());
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(ticket[i], i);
    }
}

TEST(Atomic, CompareExchangeLoopsAreExact) {
  const uint32_t n = 3000;
  std::vector<int32_t> v(n);
  uint64_t seed = 5;
  for (int32_t& x : v) x = int32_t(splitmix(seed) % 2000001) - 1000000;
  int64_t expectSum = 0;
  for (int32_t x : v) expectSum += x;
  const int32_t expectMax = *std::max_element(v.begin(), v.end());
  for (unsigned threads : {1u, 2u, 8u})
    for (uint32_t width : {1u, 8u, 32u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, sub-group size " + std::to_string(width));
      std::vector<int64_t> sum{0};
      std::vector<int32_t> max{std::numeric_limits<int32_t>::min()};
      auto r = launch("cas_loops", {bind(sum), bind(max), bind(v)}, n, 100, width, threads);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(sum[0], expectSum);
      EXPECT_EQ(max[0], expectMax);
    }
}

// llvm-spirv-15 emits OpAtomicCompareExchangeWeak into SPIR-V 1.4 modules, where
// SPIRV-Tools no longer allows it; the loader validates it as the strong form.
const char* kWeakSource = R"(
kernel void weak_sum(volatile global atomic_long* sum, global const int* v) {
  const int x = v[get_global_id(0)];
  long seen = atomic_load_explicit(sum, memory_order_relaxed, memory_scope_device);
  while (!atomic_compare_exchange_weak_explicit(sum, &seen, seen + x, memory_order_relaxed,
                                                memory_order_relaxed, memory_scope_device)) {
  }
}
)";

TEST(Atomic, WeakCompareExchangeLoopIsExact) {
  std::vector<uint32_t> words = testing::compileOpenCL(kWeakSource);
  ASSERT_GT(words.size(), 1u);
  ASSERT_GE(words[1], 0x00010400u);  // the case the loader must accept
  auto p = Program::load(words);
  const uint32_t n = 2000;
  std::vector<int32_t> v(n);
  uint64_t seed = 9;
  int64_t expect = 0;
  for (int32_t& x : v) expect += x = int32_t(splitmix(seed) % 1000) - 300;
  for (unsigned threads : {1u, 2u, 8u})
    for (uint32_t width : {1u, 8u, 32u}) {
      std::vector<int64_t> sum{7};
      NDRange range;
      range.global[0] = n;
      range.local[0] = 50;
      range.localGiven = true;
      LaunchOptions o;
      o.subGroupSize = width;
      o.threads = threads;
      auto r = p->launch("weak_sum", range, {bind(sum), bind(v)}, o);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(sum[0], expect + 7) << threads << " threads, sub-group size " << width;
    }
}

TEST(Atomic, LoadAndStore) {
  const uint32_t n = 512;
  std::vector<int32_t> a(n), outA(2 * n);
  std::vector<int64_t> b(n), outB(2 * n);
  auto r = launch("load_store", {bind(a), bind(b), bind(outA), bind(outB)}, n, 256, 16);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(a[i], int32_t(i) * 3 - 7);
    ASSERT_EQ(b[i], int64_t(i) << 40);
    ASSERT_EQ(outA[2 * i], int32_t(i) * 3 - 7);
    ASSERT_EQ(outA[2 * i + 1], int32_t(i) + 1);
    ASSERT_EQ(outB[2 * i], int64_t(i) << 40);
    ASSERT_EQ(outB[2 * i + 1], -int64_t(i) << 33);
  }
}

// One sub-group per work-group: lane 0 finds each flag clear, the others set; after
// the last lane's clear, the same again.
TEST(Atomic, Flags) {
  for (uint32_t width : {1u, 8u, 32u}) {
    SCOPED_TRACE("sub-group size " + std::to_string(width));
    const uint32_t groups = 3, n = groups * width;
    std::vector<int32_t> f(groups, 0), r(4 * n, -1);
    auto res = launch("flags", {bind(f), bind(r)}, n, width, width);
    ASSERT_TRUE(res.diagnostics.empty()) << describe(res);
    for (uint32_t i = 0; i < n; ++i)
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(r[4 * i + k], i % width != 0) << "item " << i << " k " << k;
    for (int32_t x : f) EXPECT_NE(x, 0);  // left set
  }
}

// The lane-order model on partly active sub-groups: one sub-group per work-group of
// `local` (< width: the sub-group's last lanes do not exist) work-items, some of them
// inactive. Inactive lanes' results stay untouched.
template <class T>
void checkPartial(uint32_t width, uint32_t local, int skip) {
  const uint32_t groups = 3, n = groups * local;
  for (int op = 0; op < 11; ++op)
    for (int inLocal = 0; inLocal < 2; ++inLocal) {
      SCOPED_TRACE(typeName<T>() + " " + kOps[op] + (inLocal ? " local" : " global") +
                   ", sub-group size " + std::to_string(width) + ", local size " +
                   std::to_string(local) + ", skip " + std::to_string(skip));
      uint64_t seed = op * 31 + inLocal * 5 + width + skip;
      std::vector<T> m(groups), v(n), old(n, T(0x5a));
      for (T& x : m) x = T(splitmix(seed));
      for (T& x : v) x = T(splitmix(seed));
      if (op == kCmpxchg)  // about every other active lane succeeds
        for (uint32_t i = 0; i < n; ++i) v[i] = T(m[i / local] + (i % local) / 2);
      std::vector<T> expectM = m, expectOld = old;
      for (uint32_t i = 0; i < n; ++i) {
        if (int(i % local % 3) == skip) continue;
        T& c = expectM[i / local];
        expectOld[i] = c;
        c = apply(op, c, v[i]);
      }
      auto r = launch("partial_" + typeName<T>(),
                      {bind(m), bind(v), bind(old), value(op), value(inLocal), value(skip)}, n,
                      local, width);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      ASSERT_EQ(old, expectOld);
      ASSERT_EQ(m, expectM);
    }
}

TEST(Atomic, PartlyActiveSubGroupsKeepLaneOrder) {
  for (int skip : {0, 1, 3})
    for (auto [width, local] : {std::pair{8u, 8u}, {8u, 5u}, {32u, 32u}, {32u, 29u}}) {
      checkPartial<int32_t>(width, local, skip);
      checkPartial<uint32_t>(width, local, skip);
      checkPartial<int64_t>(width, local, skip);
      checkPartial<uint64_t>(width, local, skip);
    }
}

// A lane out of bounds among lanes that all hit one counter: it is reported, returns 0,
// and the others still add in lane order.
TEST(Atomic, OneLaneOutOfBoundsAmongContendingLanes) {
  for (int bad : {0, 5, 15}) {
    SCOPED_TRACE("bad lane " + std::to_string(bad));
    std::vector<uint32_t> m{100}, old(16, 7);
    auto r = launch("one_bad_lane", {bind(m), bind(old), value(bad)}, 16, 16, 16);
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
    EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{uint32_t(bad)}));
    uint32_t c = 100;
    for (uint32_t i = 0; i < 16; ++i) {
      if (int(i) == bad) {
        EXPECT_EQ(old[i], 0u);
        continue;
      }
      EXPECT_EQ(old[i], c) << "lane " << i;
      c += i + 1;
    }
    EXPECT_EQ(m[0], c);
  }
}

// Counts the atomic accesses observers see: with one attached, atomics take the checked
// per-lane path, which must give the same values as the fast one.
class AtomicCounter : public ExecutionObserver {
 public:
  explicit AtomicCounter(std::atomic<uint64_t>& n) : n_(n) {}
  void access(SubGroup& sg, const MemoryAccess& a) override {
    if (a.kind == AccessKind::AtomicRmw || a.kind == AccessKind::AtomicFailedRmw) ++n_;
    if (!sg.mask.test(a.lane)) n_ += 1000000;  // an inactive lane: fails the count
  }

 private:
  std::atomic<uint64_t>& n_;
};

class AtomicCounterFactory : public ObserverFactory {
 public:
  explicit AtomicCounterFactory(std::atomic<uint64_t>& n) : n_(n) {}
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<AtomicCounter>(n_);
  }

 private:
  std::atomic<uint64_t>& n_;
};

// The same launches with an observer attached: the same results in lane order, and
// the observer sees each active lane's atomic once.
TEST(Atomic, ObservedAtomicsGiveTheSameResults) {
  const uint32_t width = 8, local = 7, groups = 4, n = local * groups;
  for (int op : {0, 3, 5, 9, kCmpxchg})
    for (int inLocal = 0; inLocal < 2; ++inLocal) {
      SCOPED_TRACE(std::string(kOps[op]) + (inLocal ? " local" : " global"));
      uint64_t seed = op + 100 * inLocal;
      std::vector<uint32_t> m(groups), v(n), old(n, 9);
      for (auto& x : m) x = uint32_t(splitmix(seed));
      for (auto& x : v) x = uint32_t(splitmix(seed));
      if (op == kCmpxchg)
        for (uint32_t i = 0; i < n; ++i) v[i] = m[i / local] + (i % local) / 2;
      std::vector<uint32_t> m2 = m, old2 = old;
      auto plain =
          launch("partial_uint", {bind(m), bind(v), bind(old), value(op), value(inLocal), value(1)},
                 n, local, width);
      ASSERT_TRUE(plain.diagnostics.empty()) << describe(plain);
      std::atomic<uint64_t> seen{0};
      NDRange range;
      range.global[0] = n;
      range.local[0] = local;
      range.localGiven = true;
      LaunchOptions o;
      o.subGroupSize = width;
      o.observers.push_back(std::make_shared<AtomicCounterFactory>(seen));
      auto observed =
          program().launch("partial_uint", range,
                           {bind(m2), bind(v), bind(old2), value(op), value(inLocal), value(1)}, o);
      ASSERT_TRUE(observed.diagnostics.empty()) << describe(observed);
      EXPECT_EQ(old2, old);
      EXPECT_EQ(m2, m);
      // Lanes 0, 2, 3, 5, 6 of each work-group (local id % 3 != 1).
      EXPECT_EQ(seen.load(), uint64_t(groups * 5));
    }
}

// The hand-off policy does not depend on observers: tickets drawn by 8 sub-groups of one
// work-group come out the same with one attached. Worked by hand: a counter's increments
// change memory, so no sub-group hands off and each takes its 8 tickets in lane order.
TEST(Atomic, ObserversDoNotChangeTheInterleaving) {
  const uint32_t n = 64, width = 8;
  std::vector<uint32_t> c{0}, plain(n), observed(n);
  auto r = launch("counter", {bind(c), bind(plain)}, n, n, width, 1);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  std::atomic<uint64_t> seen{0};
  NDRange range;
  range.global[0] = range.local[0] = n;
  range.localGiven = true;
  LaunchOptions o;
  o.subGroupSize = width;
  o.observers.push_back(std::make_shared<AtomicCounterFactory>(seen));
  c[0] = 0;
  r = program().launch("counter", range, {bind(c), bind(observed)}, o);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(seen.load(), n);
  EXPECT_EQ(observed, plain);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(plain[i], i) << i;
}

// Histograms: every bin's count is exact at any thread count.
TEST(Atomic, HistogramsAreExactAtEveryThreadCount) {
  const uint32_t n = 1 << 15;
  std::vector<uint32_t> in(n), expect(256, 0);
  uint64_t seed = 3;
  for (uint32_t& x : in) ++expect[(x = uint32_t(splitmix(seed) % 1000)) & 255];
  for (const char* kernel : {"hist", "local_hist"})
    for (unsigned threads : {1u, 2u})
      for (uint32_t width : {8u, 16u}) {
        SCOPED_TRACE(std::string(kernel) + ", " + std::to_string(threads) +
                     " threads, sub-group size " + std::to_string(width));
        std::vector<uint32_t> bins(256, 0);
        auto r = launch(kernel, {bind(in), bind(bins)}, n, 256, width, threads);
        ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
        EXPECT_EQ(bins, expect);
      }
}

// ---- Hand-offs between sub-groups ----

// Sub-group `setter` of each work-group computes (no memory writes), then lane 0
// releases the other sub-groups through an atomic on flag[group]; they wait for it by
// `how`: 0 atomic_load, 1 atomic_add(f, 0) (the OpenCL 1.x read), 2 a compare-exchange
// of 1 by 1 that fails until the flag is 1, 3 a semaphore (each lane takes a token and
// gives it back while there is none: a wait that writes memory at every try); -1 does
// not wait (the cost of the work alone).
const char* kHandOffSource = R"(
uint scramble(uint x, int n) {
  for (int i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}

// One kernel per way to wait (a run-time choice would be unswitched into a `freeze`
// that llvm-spirv-15 cannot translate).
#define FLAG_WAIT(how, release, wait)                                                   \
  kernel void flag_wait##how(global uint* out, global int* flag, uint sgSize,           \
                             uint setter, int work) {                                   \
    const uint lid = get_local_id(0), gid = get_global_id(0);                           \
    volatile global atomic_int* f = (volatile global atomic_int*)&flag[get_group_id(0)]; \
    if (lid / sgSize == setter) {                                                       \
      out[gid] = scramble(lid + 1, work);                                               \
      if (lid == setter * sgSize) release;                                              \
      return;                                                                           \
    }                                                                                   \
    wait;                                                                               \
    out[gid] = lid + 7;                                                                 \
  }
FLAG_WAIT(0, atomic_store(f, 1), while (atomic_load(f) == 0) {})
FLAG_WAIT(1, atomic_store(f, 1),
          while (atomic_add((volatile global int*)&flag[get_group_id(0)], 0) == 0) {})
FLAG_WAIT(2, atomic_store(f, 1), int e = 1; while (!atomic_compare_exchange_strong(f, &e, 1)) e = 1)
FLAG_WAIT(3, atomic_fetch_add(f, 1000),
          while (atomic_fetch_sub(f, 1) <= 0) atomic_fetch_add(f, 1))
kernel void flag_wait_none(global uint* out, global int* flag, uint sgSize, uint setter,
                           int work) {
  const uint lid = get_local_id(0);
  if (lid / sgSize == setter) out[get_global_id(0)] = scramble(lid + 1, work);
}

// A spin lock (compare-exchange, released by an exchange) around a plain increment,
// taken `rounds` times by every work-item of one work-group.
kernel void locked(global int* lock, global int* counter, int rounds) {
  for (int k = 0; k < rounds; ++k) {
    while (atomic_cmpxchg(lock, 0, 1) != 0) {
    }
    counter[0] += 1;
    atomic_xchg(lock, 0);
  }
}
)";

Program& handOffProgram() {
  static std::shared_ptr<Program> p = testing::loadOpenCl(kHandOffSource, "hand-off kernels");
  return *p;
}

uint32_t scramble(uint32_t x, int n) {
  for (int i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}

struct FlagWait {
  uint64_t steps = 0;
  bool ok = false;
};

// Two work-groups of three sub-groups; returns the sub-group instructions executed.
FlagWait runFlagWait(uint32_t width, uint32_t setter, int how, const LaunchOptions& base) {
  const uint32_t local = 3 * width, groups = 2, n = local * groups;
  const int work = 20000;  // beyond one quantum: the waiters get turns meanwhile
  std::vector<uint32_t> out(n, 0);
  std::vector<int32_t> flag(groups, 0);
  NDRange range;
  range.global[0] = n;
  range.local[0] = local;
  range.localGiven = true;
  LaunchOptions o = base;
  o.subGroupSize = width;
  const std::string kernel = how < 0 ? "flag_wait_none" : "flag_wait" + std::to_string(how);
  auto r = handOffProgram().launch(
      kernel, range, {bind(out), bind(flag), value(width), value(setter), value(work)}, o);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  FlagWait w{r.subGroupSteps, r.diagnostics.empty()};
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t l = i % local;
    const uint32_t expect = l / width == setter ? scramble(l + 1, work) : how < 0 ? 0 : l + 7;
    if (out[i] != expect) {
      ADD_FAILURE() << "work-item " << i << ": " << out[i] << ", expected " << expect;
      w.ok = false;
      break;
    }
  }
  return w;
}

// Waiting on a flag another sub-group raises ends, and costs little: the waiters hand
// off after each try that changes nothing (or after a run of tries that do), so the
// setter's work dominates.
TEST(AtomicHandOff, FlagWaitsEndQuickly) {
  for (uint32_t width : {4u, 16u})
    for (uint32_t setter : {0u, 2u}) {
      const uint64_t alone = runFlagWait(width, setter, -1, LaunchOptions{}).steps;
      for (int how = 0; how < 4; ++how) {
        SCOPED_TRACE("sub-group size " + std::to_string(width) + ", setter " +
                     std::to_string(setter) + ", wait " + std::to_string(how));
        const FlagWait w = runFlagWait(width, setter, how, LaunchOptions{});
        ASSERT_TRUE(w.ok);
        EXPECT_LT(w.steps, alone + alone / 10) << "alone " << alone;
      }
    }
}

TEST(AtomicHandOff, FlagWaitsEndUnderRandomSchedules) {
  for (uint64_t seed : {1u, 2u, 3u, 4u})
    for (int how = 0; how < 4; ++how) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", wait " + std::to_string(how));
      LaunchOptions o;
      o.schedule = LaunchOptions::Schedule::Random;
      o.scheduleSeed = seed;
      o.threads = 2;
      ASSERT_TRUE(runFlagWait(8, seed % 3, how, o).ok);
    }
}

// Under random schedules a lock holder is often switched out; the waiters' failed
// compare-exchanges hand off to it, and the count is exact.
TEST(AtomicHandOff, SpinLockBetweenSubGroups) {
  // Sub-groups of one lane: lanes of one sub-group contending for the lock would wait
  // for each other for ever (the holder cannot go on while its sub-group spins).
  for (uint64_t seed : {0u, 1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const uint32_t local = 16;
    const int rounds = 20;
    std::vector<int32_t> lock{0}, counter{0};
    NDRange range;
    range.global[0] = local;
    range.local[0] = local;
    range.localGiven = true;
    LaunchOptions o;
    o.subGroupSize = 1;
    if (seed) {  // 0: round-robin
      o.schedule = LaunchOptions::Schedule::Random;
      o.scheduleSeed = seed;
      o.quantum = 8;
    }
    auto r =
        handOffProgram().launch("locked", range, {bind(lock), bind(counter), value(rounds)}, o);
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(counter[0], int(local) * rounds);
    EXPECT_EQ(lock[0], 0);
  }
}

// ---- Floats ----

template <class T>
void checkFloatLaneOrder(uint32_t width) {
  const char* names[] = {"add", "min", "max", "xchg"};
  const uint32_t groups = 3, n = groups * width;
  for (int op = 0; op < 4; ++op)
    for (int inLocal = 0; inLocal < 2; ++inLocal) {
      SCOPED_TRACE(std::string(sizeof(T) == 4 ? "float " : "double ") + names[op] +
                   (inLocal ? " local" : " global") + ", sub-group size " + std::to_string(width));
      uint64_t seed = op * 3 + inLocal + width;
      auto random = [&] { return T(int64_t(splitmix(seed) % 2000001) - 1000000) / T(997); };
      std::vector<T> m(groups), v(n), old(n);
      for (T& x : m) x = random();
      for (T& x : v) x = random();
      if (n > 2) v[1] = std::numeric_limits<T>::quiet_NaN();  // fmin/fmax ignore a NaN
      std::vector<T> expectM = m, expectOld(n);
      for (uint32_t i = 0; i < n; ++i) {
        T& c = expectM[i / width];
        expectOld[i] = c;
        c = op == 0   ? T(c + v[i])
            : op == 1 ? std::fmin(c, v[i])
            : op == 2 ? std::fmax(c, v[i])
                      : v[i];
      }
      auto r = launch(std::string("fop_") + (sizeof(T) == 4 ? "float" : "double"),
                      {bind(m), bind(v), bind(old), value(op), value(inLocal)}, n, width, width);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      for (uint32_t i = 0; i < n; ++i)
        ASSERT_TRUE(testing::sameFloat(expectOld[i], old[i])) << "item " << i;
      for (uint32_t g = 0; g < groups; ++g)
        ASSERT_TRUE(testing::sameFloat(expectM[g], m[g])) << "group " << g;
    }
}

TEST(Atomic, FloatOpsReturnOldValuesInLaneOrder) {
  for (uint32_t width : {1u, 8u, 32u}) {
    checkFloatLaneOrder<float>(width);
    checkFloatLaneOrder<double>(width);
  }
}

// Small integers sum exactly in any order.
TEST(Atomic, FloatSumIsExactAtEveryThreadCount) {
  const uint32_t n = 2048;
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = float(int(i % 13) - 6);
  double expect = 0;
  for (float x : v) expect += x;
  for (unsigned threads : {1u, 2u, 8u}) {
    std::vector<float> sum{0.5f};
    std::vector<double> dsum{0.25};
    auto r = launch("float_sum", {bind(sum), bind(dsum), bind(v)}, n, 64, 16, threads);
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(sum[0], float(expect + 0.5));
    EXPECT_EQ(dsum[0], expect + 0.25);
  }
}

// ---- Errors ----

TEST(Atomic, MisalignedAtomicIsReportedAndSkipped) {
  std::vector<int32_t> a{0x11111111, 0x22222222};
  auto r = launch("misaligned", {bind(a)}, 4, 4, 4);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::MisalignedAccess) << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_NE(r.diagnostics[0].instruction.find("OpAtomicIIncrement"), std::string::npos);
  EXPECT_EQ(a, (std::vector<int32_t>{0x11111111, 0x22222222}));
}

TEST(Atomic, OutOfBoundsAtomicIsReported) {
  std::vector<int64_t> a{5, 6};
  auto r = launch("past_end", {bind(a), value(int64_t(2))}, 2, 2, 2);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
  EXPECT_NE(r.diagnostics[0].message.find("16"), std::string::npos) << describe(r);  // offset
  EXPECT_EQ(a, (std::vector<int64_t>{5, 6}));
  r = launch("past_end", {bind(a), value(int64_t(1))}, 2, 2, 2);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(a, (std::vector<int64_t>{5, 8}));
}

// Half-precision add/min/max (SPV_EXT_shader_atomic_float16_add, _min_max), which
// OpenCL C has no built-ins for: one lane, *p = 0.5; add 1.5, min -2, max 1.5.
TEST(Atomic, HalfAddMinMax) {
  const char* text = R"(               OpCapability Addresses
               OpCapability Kernel
               OpCapability Float16Buffer
               OpCapability Float16
               OpCapability AtomicFloat16AddEXT
               OpCapability AtomicFloat16MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float16_add"
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
       %half = OpTypeFloat 16
     %h_1_5 = OpConstant %half 1.5
     %h_m2 = OpConstant %half -2
       %void = OpTypeVoid
        %ptr = OpTypePointer CrossWorkgroup %half
         %fn = OpTypeFunction %void %ptr %ptr
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
        %out = OpFunctionParameter %ptr
      %entry = OpLabel
         %r0 = OpAtomicFAddEXT %half %p %uint_1 %uint_0 %h_1_5
               OpStore %out %r0
         %o1 = OpInBoundsPtrAccessChain %ptr %out %uint_1
         %r1 = OpAtomicFMinEXT %half %p %uint_2 %uint_0 %h_m2
               OpStore %o1 %r1
         %o2 = OpInBoundsPtrAccessChain %ptr %out %uint_2
         %r2 = OpAtomicFMaxEXT %half %p %uint_2 %uint_0 %h_1_5
               OpStore %o2 %r2
               OpReturn
               OpFunctionEnd
)";
  auto p = Program::load(spirv::assemble(text));
  std::vector<uint16_t> m{0x3800}, out(3, 0xffff);  // 0.5
  auto r = p->launch("k", NDRange{}, {bind(m), bind(out)}, LaunchOptions{});
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  // Old values 0.5, 2, -2; final 1.5 (IEEE binary16 bit patterns).
  EXPECT_EQ(out, (std::vector<uint16_t>{0x3800, 0x4000, 0xc000}));
  EXPECT_EQ(m[0], 0x3e00);
}

TEST(Atomic, NonConstantScopeIsUnsupported) {
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
       %void = OpTypeVoid
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
      %scope = OpFunctionParameter %uint
      %entry = OpLabel
          %r = OpAtomicIAdd %uint %p %scope %uint_0 %uint_1
               OpReturn
               OpFunctionEnd
)";
  std::shared_ptr<Program> p;
  try {
    p = Program::load(spirv::assemble(text));
  } catch (const Error& e) {
    // The validator may already reject a non-constant scope; that is loud too.
    EXPECT_NE(std::string(e.what()).find("Scope"), std::string::npos) << e.what();
    return;
  }
  std::vector<uint32_t> a{0};
  NDRange range;
  try {
    p->launch("k", range, {bind(a), value(uint32_t(1))}, LaunchOptions{});
    FAIL() << "expected unsupported";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("OpAtomicIAdd"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Scope"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spvsim
