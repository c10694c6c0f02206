// OpAtomic* end to end: every integer op on int/uint/long/ulong in global, local and
// generic (-> global, -> local) memory; float add/min/max/exchange; load/store; flags;
// counters and compare-exchange loops at several thread counts and sub-group sizes;
// misaligned, out-of-bounds and non-constant-scope errors. Expected values come from a
// host model that applies the operation lane after lane (SPIR-V: each lane's atomic is
// a separate atomic operation; spvsim runs the lanes of a sub-group in lane order).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/exec/ops/opencl_test_util.h"

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
