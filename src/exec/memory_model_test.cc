// Litmus tests of the relaxed memory model (src/exec/memory_model.h; src/DESIGN.md,
// "Relaxed memory model") with allowed-outcome tables worked from the OpenCL 3.0 memory
// model (OpenCL C 3.0 s6.15.12, the C11 model with memory scopes), each between two
// sub-groups of one work-group and between two work-groups.
//
// Each launch runs 8 instances of the test at once: instance i uses its own locations
// x[i], y[i] and the work-items of lane i of each role. A role is a sub-group (local size
// roles x 8, one work-group) or a work-group (local size 8); which actor plays which role
// rotates with the seed, since work-groups run one after another. Under
// `--memory-model relaxed` every outcome a table marks shown must appear within seeds
// 1..60 of `--schedule random:SEED` (the model's seed is the schedule's) and no outcome
// outside `allowed` may ever appear; outcomes the specification allows but this model
// cannot produce (`allowed` minus `shown`) must not appear either, so that the tables
// say exactly what the model shows. Under sequential consistency (the default) every
// outcome must be in `sc`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;
using testing::range1;
using testing::valueOf;

constexpr uint32_t kLanes = 8;  // sub-group size: instances per launch
constexpr uint64_t kSeeds = 60;

enum class Actors { SubGroups, WorkGroups };

// The common frame: `role` and instance `i` of the work-item; `res` holds `results` ints
// per instance. BODY is the test.
std::string kernelSource(const std::string& defines, const std::string& body) {
  return defines + R"(
__kernel void litmus(__global atomic_int* x, __global atomic_int* y, __global int* res,
                     uint roles, uint swap, uint byGroup) {
  uint lid = get_local_id(0);
  uint actor = byGroup ? get_group_id(0) : lid / 8;
  uint role = (actor + swap) % roles;
  uint i = lid % 8;
)" + body +
         "\n}\n";
}

// What a table row asserts (see the file comment).
struct Table {
  std::set<std::string> allowed;  // by the OpenCL memory model
  std::set<std::string> shown;    // of those, what the relaxed model produces
  std::set<std::string> sc;       // under sequential consistency
};

struct Litmus {
  std::string name;
  std::string source;
  uint32_t roles = 2;
  uint32_t results = 2;  // ints per instance in res
  bool finals = false;   // the outcome ends with the final x[i], y[i]
  bool finalY = true;    // with finals: y[i] too
};

std::string outcome(const Litmus& t, const std::vector<int>& res, const std::vector<int>& x,
                    const std::vector<int>& y, uint32_t i) {
  std::string s;
  for (uint32_t k = 0; k < t.results; ++k)
    s += (s.empty() ? "" : ",") + std::to_string(res[i * t.results + k]);
  if (t.finals) {
    s += (s.empty() ? "" : ",") + std::to_string(x[i]);
    if (t.finalY) s += "," + std::to_string(y[i]);
  }
  return s;
}

// Outcomes of every instance over seeds 1..kSeeds, with how often each appeared.
std::map<std::string, int> outcomes(Program& p, const Litmus& t, Actors actors, bool relaxed) {
  std::map<std::string, int> seen;
  const bool byGroup = actors == Actors::WorkGroups;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    std::vector<int> x(kLanes), y(kLanes), res(std::max(1u, kLanes * t.results), -1);
    LaunchOptions o;
    o.subGroupSize = kLanes;
    o.threads = 1;
    o.schedule = LaunchOptions::Schedule::Random;
    o.scheduleSeed = seed;
    if (relaxed) {
      o.memoryModel = LaunchOptions::MemoryModel::Relaxed;
      o.memoryModelSeed = seed;
    }
    const NDRange range =
        byGroup ? range1(t.roles * kLanes, kLanes) : range1(t.roles * kLanes, t.roles * kLanes);
    const LaunchResult r =
        p.launch("litmus", range,
                 {bind(x), bind(y), bind(res), valueOf<uint32_t>(t.roles),
                  valueOf<uint32_t>(uint32_t(seed % t.roles)), valueOf<uint32_t>(byGroup)},
                 o);
    EXPECT_TRUE(r.diagnostics.empty()) << t.name << ": " << describe(r);
    for (uint32_t i = 0; i < kLanes; ++i) ++seen[outcome(t, res, x, y, i)];
  }
  return seen;
}

std::string listed(const std::map<std::string, int>& seen) {
  std::string s;
  for (const auto& [o, n] : seen) s += " " + o + " (" + std::to_string(n) + "x)";
  return s;
}

void checkTable(const Litmus& t, Actors actors, const Table& table) {
  SCOPED_TRACE(t.name +
               (actors == Actors::SubGroups ? " between sub-groups" : " between work-groups"));
  const auto p = loadOpenCl(t.source, t.name);
  ASSERT_TRUE(p);
  for (const std::string& o : table.shown) ASSERT_TRUE(table.allowed.count(o)) << o;
  const std::map<std::string, int> relaxed = outcomes(*p, t, actors, true);
  for (const auto& [o, n] : relaxed)
    EXPECT_TRUE(table.shown.count(o))
        << (table.allowed.count(o) ? "allowed, but the table says the model cannot show: "
                                   : "forbidden outcome: ")
        << o << "; seen:" << listed(relaxed);
  for (const std::string& o : table.shown)
    EXPECT_TRUE(relaxed.count(o)) << "allowed outcome " << o << " never appeared in " << kSeeds
                                  << " seeds; seen:" << listed(relaxed);
  const std::map<std::string, int> sc = outcomes(*p, t, actors, false);
  for (const auto& [o, n] : sc)
    EXPECT_TRUE(table.sc.count(o))
        << "not sequentially consistent under sc: " << o << "; seen:" << listed(sc);
  // The counts, for the test log.
  std::printf("%s, %s:\n  relaxed:%s\n  sc:%s\n", t.name.c_str(),
              actors == Actors::SubGroups ? "sub-groups" : "work-groups", listed(relaxed).c_str(),
              listed(sc).c_str());
}

std::string orders(const std::string& write, const std::string& read, const std::string& scope) {
  return "#define W memory_order_" + write + "\n#define R memory_order_" + read +
         "\n#define SCOPE memory_scope_" + scope + "\n";
}

// ---- MP: message passing -----------------------------------------------------------
// T0: x = 1 (relaxed); y = 1 (W).   T1: r0 = y (R); r1 = x (relaxed).   Outcome r0,r1.
// 0,0 / 0,1 / 1,1 are interleavings. 1,0 (the flag seen, the data stale) needs the
// flag store to synchronise with nothing: allowed when W or R is relaxed, or when the
// scope of the release and acquire does not include both work-items (OpenCL C 3.0
// s6.15.12.3: a release/acquire pair synchronises only "if ... both operations have a
// scope that includes" both work-items); forbidden otherwise (the release sequence
// headed by y = 1 synchronises with the acquire, so x = 1 happens before r1's read).
const std::string kMessagePassing = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
    atomic_store_explicit(&y[i], 1, W, SCOPE);
  } else {
    res[2 * i] = atomic_load_explicit(&y[i], R, SCOPE);
    res[2 * i + 1] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
  }
)";
const Table kMpStale{
    {"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,1"}};
const Table kMpSynchronised{{"0,0", "0,1", "1,1"}, {"0,0", "0,1", "1,1"}, {"0,0", "0,1", "1,1"}};

TEST(MemoryModelLitmus, MessagePassingRelaxed) {
  const Litmus t{"MP relaxed",
                 kernelSource(orders("relaxed", "relaxed", "device"), kMessagePassing)};
  checkTable(t, Actors::SubGroups, kMpStale);
  checkTable(t, Actors::WorkGroups, kMpStale);
}

// Relaxed atomics at work-group scope: as stale as at device scope.
TEST(MemoryModelLitmus, MessagePassingRelaxedWorkGroupScope) {
  const Litmus t{"MP relaxed wg",
                 kernelSource(orders("relaxed", "relaxed", "work_group"), kMessagePassing)};
  checkTable(t, Actors::SubGroups, kMpStale);
  checkTable(t, Actors::WorkGroups, kMpStale);
}

// A release without an acquire: the reader's relaxed load does not synchronise.
TEST(MemoryModelLitmus, MessagePassingReleaseRelaxedRead) {
  const Litmus t{"MP release/relaxed",
                 kernelSource(orders("release", "relaxed", "device"), kMessagePassing)};
  // The release store drains x = 1 before y = 1 is even buffered, and loads are never
  // satisfied early: the model keeps the writer's order, so 1,0 is not shown.
  const Table table{{"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,1"}, {"0,0", "0,1", "1,1"}};
  checkTable(t, Actors::SubGroups, table);
  checkTable(t, Actors::WorkGroups, table);
}

TEST(MemoryModelLitmus, MessagePassingReleaseAcquireWorkGroupScope) {
  const Litmus t{"MP rel/acq wg",
                 kernelSource(orders("release", "acquire", "work_group"), kMessagePassing)};
  checkTable(t, Actors::SubGroups, kMpSynchronised);
  // Between work-groups the work-group scope does not include both work-items: 1,0 is
  // allowed, but the model drains for every scope as for device scope and does not
  // show it.
  checkTable(t, Actors::WorkGroups,
             {{"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,1"}, {"0,0", "0,1", "1,1"}});
}

TEST(MemoryModelLitmus, MessagePassingReleaseAcquireDeviceScope) {
  const Litmus t{"MP rel/acq device",
                 kernelSource(orders("release", "acquire", "device"), kMessagePassing)};
  checkTable(t, Actors::SubGroups, kMpSynchronised);
  checkTable(t, Actors::WorkGroups, kMpSynchronised);
}

// Fences instead of ordered atomics (s6.15.12.3, fence synchronisation): a release fence
// before the relaxed flag store and an acquire fence after the relaxed flag load order
// the data as a release/acquire pair does.
TEST(MemoryModelLitmus, MessagePassingFences) {
  const std::string body = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, SCOPE);
    atomic_store_explicit(&y[i], 1, memory_order_relaxed, SCOPE);
  } else {
    int flag = atomic_load_explicit(&y[i], memory_order_relaxed, SCOPE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, SCOPE);
    res[2 * i] = flag;
    res[2 * i + 1] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
  }
)";
  const Litmus t{"MP fences", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  checkTable(t, Actors::SubGroups, kMpSynchronised);
  checkTable(t, Actors::WorkGroups, kMpSynchronised);
  // A fence that names only local memory orders nothing of global x and y.
  std::string local = body;
  for (size_t at; (at = local.find("CLK_GLOBAL_MEM_FENCE")) != std::string::npos;)
    local.replace(at, 20, "CLK_LOCAL_MEM_FENCE");
  const Litmus l{"MP local fences", kernelSource(orders("relaxed", "relaxed", "device"), local)};
  checkTable(l, Actors::SubGroups, kMpStale);
}

// MP through local memory between the sub-groups of a work-group (local memory is the
// work-group's): the same tables. The locations start at zero before a barrier.
std::string localMessagePassing(const std::string& write, const std::string& read) {
  return orders(write, read, "work_group") + R"(
__kernel void litmus(__global atomic_int* x, __global atomic_int* y, __global int* res,
                     uint roles, uint swap, uint byGroup) {
  __local atomic_int lx[8], ly[8];
  uint lid = get_local_id(0);
  uint role = (lid / 8 + swap) % roles;
  uint i = lid % 8;
  if (lid < 8) {
    atomic_init(&lx[i], 0);
    atomic_init(&ly[i], 0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (role == 0) {
    atomic_store_explicit(&lx[i], 1, memory_order_relaxed, SCOPE);
    atomic_store_explicit(&ly[i], 1, W, SCOPE);
  } else {
    res[2 * i] = atomic_load_explicit(&ly[i], R, SCOPE);
    res[2 * i + 1] = atomic_load_explicit(&lx[i], memory_order_relaxed, SCOPE);
  }
}
)";
}

TEST(MemoryModelLitmus, MessagePassingLocalMemory) {
  checkTable({"MP local relaxed", localMessagePassing("relaxed", "relaxed")}, Actors::SubGroups,
             kMpStale);
  checkTable({"MP local rel/acq", localMessagePassing("release", "acquire")}, Actors::SubGroups,
             kMpSynchronised);
}

// ---- SB: store buffering ------------------------------------------------------------
// T0: x = 1 (W); r0 = y (R).   T1: y = 1 (W); r1 = x (R).   Outcome r0,r1.
// 0,0 needs each load to read the initial value although the other store is not
// ordered after it: allowed for relaxed and for release/acquire (a release store and an
// acquire load of different locations are not ordered: no synchronises-with without a
// read of the released value); forbidden when all four are seq_cst (the single total
// order S: whichever store is first in S precedes the other work-item's load, which must
// read it). Between work-groups, which run one after another, 1,1 (both loads after
// both stores) is allowed but never shown: the first work-group ends before the second
// begins.
const std::string kStoreBuffering = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, W, SCOPE);
    res[2 * i] = atomic_load_explicit(&y[i], R, SCOPE);
  } else {
    atomic_store_explicit(&y[i], 1, W, SCOPE);
    res[2 * i + 1] = atomic_load_explicit(&x[i], R, SCOPE);
  }
)";
const Table kSbAllSubGroups{
    {"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,0", "1,1"}, {"0,1", "1,0", "1,1"}};
const Table kSbAllWorkGroups{
    {"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,0"}, {"0,1", "1,0", "1,1"}};

TEST(MemoryModelLitmus, StoreBufferingRelaxed) {
  const Litmus t{"SB relaxed",
                 kernelSource(orders("relaxed", "relaxed", "device"), kStoreBuffering)};
  checkTable(t, Actors::SubGroups, kSbAllSubGroups);
  checkTable(t, Actors::WorkGroups, kSbAllWorkGroups);
}

TEST(MemoryModelLitmus, StoreBufferingReleaseAcquire) {
  const Litmus t{"SB rel/acq",
                 kernelSource(orders("release", "acquire", "device"), kStoreBuffering)};
  checkTable(t, Actors::SubGroups, kSbAllSubGroups);
  checkTable(t, Actors::WorkGroups, kSbAllWorkGroups);
}

TEST(MemoryModelLitmus, StoreBufferingSeqCst) {
  const Litmus t{"SB seq_cst",
                 kernelSource(orders("seq_cst", "seq_cst", "device"), kStoreBuffering)};
  checkTable(t, Actors::SubGroups,
             {{"0,1", "1,0", "1,1"}, {"0,1", "1,0", "1,1"}, {"0,1", "1,0", "1,1"}});
  checkTable(t, Actors::WorkGroups, {{"0,1", "1,0", "1,1"}, {"0,1", "1,0"}, {"0,1", "1,0", "1,1"}});
}

// SB with relaxed atomics and seq_cst fences between store and load (s6.15.12.3: two
// seq_cst fences order the stores before them before the loads after them): 0,0
// forbidden.
TEST(MemoryModelLitmus, StoreBufferingSeqCstFences) {
  const std::string body = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, SCOPE);
    res[2 * i] = atomic_load_explicit(&y[i], memory_order_relaxed, SCOPE);
  } else {
    atomic_store_explicit(&y[i], 1, memory_order_relaxed, SCOPE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, SCOPE);
    res[2 * i + 1] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
  }
)";
  const Litmus t{"SB seq_cst fences", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  checkTable(t, Actors::SubGroups,
             {{"0,1", "1,0", "1,1"}, {"0,1", "1,0", "1,1"}, {"0,1", "1,0", "1,1"}});
  checkTable(t, Actors::WorkGroups, {{"0,1", "1,0", "1,1"}, {"0,1", "1,0"}, {"0,1", "1,0", "1,1"}});
}

// ---- LB: load buffering -------------------------------------------------------------
// T0: r0 = x; y = 1.   T1: r1 = y; x = 1 (all relaxed).   Outcome r0,r1.
// 1,1 is allowed by the C11 model for relaxed atomics (each load reads the other's
// store; nothing orders a relaxed load before a later relaxed store), but store buffers
// never satisfy a load after a later store of the same work-item: not shown.
TEST(MemoryModelLitmus, LoadBufferingIsNotShown) {
  const std::string body = R"(
  if (role == 0) {
    res[2 * i] = atomic_load_explicit(&x[i], R, SCOPE);
    atomic_store_explicit(&y[i], 1, W, SCOPE);
  } else {
    res[2 * i + 1] = atomic_load_explicit(&y[i], R, SCOPE);
    atomic_store_explicit(&x[i], 1, W, SCOPE);
  }
)";
  const Litmus t{"LB relaxed", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  const Table table{{"0,0", "0,1", "1,0", "1,1"}, {"0,0", "0,1", "1,0"}, {"0,0", "0,1", "1,0"}};
  checkTable(t, Actors::SubGroups, table);
  checkTable(t, Actors::WorkGroups, table);
}

// ---- Coherence: one location, every order relaxed --------------------------------------
// The coherence rules (C11 7.17.3 p14-17, OpenCL C 3.0 s6.15.12.2: write-write,
// read-read, read-write and write-read coherence) hold for relaxed atomics too: all
// writes to one location have one modification order that every work-item's accesses
// respect. So each table's allowed outcomes are its sequentially consistent ones.

// CoRR. T0: x = 1.   T1: r0 = x; r1 = x.   Outcome r0,r1. 1,0 (reading the new value,
// then the old one) is forbidden.
TEST(MemoryModelLitmus, CoherenceReadRead) {
  const std::string body = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
  } else {
    res[2 * i] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
    res[2 * i + 1] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
  }
)";
  const Litmus t{"CoRR", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  const Table table{{"0,0", "0,1", "1,1"}, {"0,0", "0,1", "1,1"}, {"0,0", "0,1", "1,1"}};
  checkTable(t, Actors::SubGroups, table);
  checkTable(t, Actors::WorkGroups, table);
}

// CoWR. T0: x = 1; r0 = x.   T1: x = 2.   Outcome r0,final x. r0 = 0 is forbidden (the
// own write precedes the read, so the read cannot see an older value); 2,1 too (reading
// 2 after writing 1 puts 1 before 2 in the modification order, so x ends 2).
TEST(MemoryModelLitmus, CoherenceWriteRead) {
  const std::string body = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
    res[i] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
  } else {
    atomic_store_explicit(&x[i], 2, memory_order_relaxed, SCOPE);
  }
)";
  Litmus t{"CoWR", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  t.results = 1;
  t.finals = true;
  t.finalY = false;
  const Table table{{"1,1", "1,2", "2,2"}, {"1,1", "1,2", "2,2"}, {"1,1", "1,2", "2,2"}};
  checkTable(t, Actors::SubGroups, table);
  checkTable(t, Actors::WorkGroups, table);
}

// CoRW. T0: r0 = x; x = 1.   T1: x = 2.   Outcome r0,final x. 2,2 is forbidden (having
// read 2, T0's later write follows 2 in the modification order, so x ends 1), and so
// is r0 = 1 (a read cannot see its own work-item's later write).
TEST(MemoryModelLitmus, CoherenceReadWrite) {
  const std::string body = R"(
  if (role == 0) {
    res[i] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
  } else {
    atomic_store_explicit(&x[i], 2, memory_order_relaxed, SCOPE);
  }
)";
  Litmus t{"CoRW", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  t.results = 1;
  t.finals = true;
  t.finalY = false;
  const Table table{{"0,1", "0,2", "2,1"}, {"0,1", "0,2", "2,1"}, {"0,1", "0,2", "2,1"}};
  checkTable(t, Actors::SubGroups, table);
  checkTable(t, Actors::WorkGroups, table);
}

// CoWW. T0: x = 1; x = 2.   T1: r0 = x; r1 = x.   Outcome r0,r1,final x. x ends 2 (the
// two writes are in program order, so in modification order), and T1 reads the values
// in that order: 1,0 / 2,0 / 2,1 and a final 1 are forbidden.
TEST(MemoryModelLitmus, CoherenceWriteWrite) {
  const std::string body = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, memory_order_relaxed, SCOPE);
    atomic_store_explicit(&x[i], 2, memory_order_relaxed, SCOPE);
  } else {
    res[2 * i] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
    res[2 * i + 1] = atomic_load_explicit(&x[i], memory_order_relaxed, SCOPE);
  }
)";
  Litmus t{"CoWW", kernelSource(orders("relaxed", "relaxed", "device"), body)};
  t.finals = true;
  t.finalY = false;
  const std::set<std::string> all{"0,0,2", "0,1,2", "0,2,2", "1,1,2", "1,2,2", "2,2,2"};
  checkTable(t, Actors::SubGroups, {all, all, all});
  checkTable(t, Actors::WorkGroups, {all, all, all});
}

// ---- 2+2W ------------------------------------------------------------------------------
// T0: x = 1; y = 2.   T1: y = 1; x = 2.   Outcome final x,y. Sequentially, the last of the
// four stores is y = 2 or x = 2, so 1,1 is not SC. Relaxed: allowed (the modification
// orders of x and y are independent). seq_cst: forbidden (S orders all four stores
// consistently with program order and both modification orders).
const std::string kTwoPlusTwoWrites = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, W, SCOPE);
    atomic_store_explicit(&y[i], 2, W, SCOPE);
  } else {
    atomic_store_explicit(&y[i], 1, W, SCOPE);
    atomic_store_explicit(&x[i], 2, W, SCOPE);
  }
)";

TEST(MemoryModelLitmus, TwoPlusTwoWrites) {
  Litmus relaxed{"2+2W relaxed",
                 kernelSource(orders("relaxed", "relaxed", "device"), kTwoPlusTwoWrites)};
  relaxed.results = 0;
  relaxed.finals = true;
  const std::set<std::string> sc{"1,2", "2,1", "2,2"};
  const Table table{{"1,1", "1,2", "2,1", "2,2"}, {"1,1", "1,2", "2,1", "2,2"}, sc};
  checkTable(relaxed, Actors::SubGroups, table);
  checkTable(relaxed, Actors::WorkGroups, table);
  Litmus seqCst{"2+2W seq_cst",
                kernelSource(orders("seq_cst", "seq_cst", "device"), kTwoPlusTwoWrites)};
  seqCst.results = 0;
  seqCst.finals = true;
  checkTable(seqCst, Actors::SubGroups, {sc, sc, sc});
  // One work-group after the other: the second one's stores are last.
  checkTable(seqCst, Actors::WorkGroups, {sc, {"1,2", "2,1"}, sc});
}

// ---- IRIW: independent reads of independent writes ----------------------------------
// T0: x = 1.   T1: y = 1.   T2: r0 = x; r1 = y.   T3: r2 = y; r3 = x.   Outcome r0,r1,r2,r3.
// 1,0,1,0 (T2 sees x's store before y's, T3 the other way round) needs the two stores to
// become visible to different work-items in different orders: allowed for relaxed and
// acquire loads (C11: no single order of the two stores binds them), forbidden when all
// four accesses are seq_cst (the single total order S), and never sequentially
// consistent (every other outcome is). The store buffers publish a store to every other
// work-item at once (multi-copy atomic), so 1,0,1,0 is not shown even where allowed.
const std::string kIriw = R"(
  if (role == 0) {
    atomic_store_explicit(&x[i], 1, W, SCOPE);
  } else if (role == 1) {
    atomic_store_explicit(&y[i], 1, W, SCOPE);
  } else if (role == 2) {
    res[4 * i] = atomic_load_explicit(&x[i], R, SCOPE);
    res[4 * i + 1] = atomic_load_explicit(&y[i], R, SCOPE);
  } else {
    res[4 * i + 2] = atomic_load_explicit(&y[i], R, SCOPE);
    res[4 * i + 3] = atomic_load_explicit(&x[i], R, SCOPE);
  }
)";

TEST(MemoryModelLitmus, IndependentReadsOfIndependentWritesAreNotShown) {
  for (const char* order : {"relaxed", "acquire", "seq_cst"}) {
    const bool loadsOnly = std::string(order) == "acquire";  // stores stay relaxed
    Litmus t{std::string("IRIW ") + order,
             kernelSource(orders(loadsOnly ? "relaxed" : order, order, "device"), kIriw)};
    t.roles = 4;
    t.results = 4;
    const auto p = loadOpenCl(t.source, t.name);
    ASSERT_TRUE(p);
    for (Actors actors : {Actors::SubGroups, Actors::WorkGroups}) {
      SCOPED_TRACE(t.name +
                   (actors == Actors::SubGroups ? " between sub-groups" : " between work-groups"));
      // Roles that did not load leave -1 in res: only T2's and T3's slots are read.
      for (bool relaxed : {true, false}) {
        const std::map<std::string, int> seen = outcomes(*p, t, actors, relaxed);
        EXPECT_EQ(seen.count("1,0,1,0"), 0u) << listed(seen);
        for (const auto& [o, n] : seen)
          EXPECT_EQ(o.find("-1"), std::string::npos) << "a read that did not happen: " << o;
      }
    }
  }
}

// ---- Kernels that synchronise correctly give their one result under every seed ------

LaunchOptions relaxedOptions(uint64_t seed) {
  LaunchOptions o;
  o.subGroupSize = kLanes;
  o.schedule = LaunchOptions::Schedule::Random;
  o.scheduleSeed = seed;
  o.memoryModel = LaunchOptions::MemoryModel::Relaxed;
  o.memoryModelSeed = seed;
  return o;
}

// A producer sub-group publishes data with plain stores and a release flag; the consumer
// spins on an acquire load, then reads. The flag store waits in the producer's buffer, so
// the spin also shows that a buffered store reaches memory eventually (no deadlock).
TEST(MemoryModelRelaxed, ReleaseAcquireHandoffAlwaysSeesTheData) {
  const auto p = loadOpenCl(R"(
__kernel void handoff(__global int* data, __global atomic_int* flag, __global int* out) {
  uint lid = get_local_id(0), grp = get_group_id(0), lane = lid % 8;
  if (lid < 8) {
    data[grp * 8 + lane] = (int)(grp * 100 + lane + 1);
    atomic_store_explicit(&flag[grp * 8 + lane], 1, memory_order_release,
                          memory_scope_work_group);
  } else {
    while (atomic_load_explicit(&flag[grp * 8 + lane], memory_order_acquire,
                                memory_scope_work_group) == 0) {
    }
    out[grp * 8 + lane] = data[grp * 8 + lane];
  }
}
)",
                            "handoff");
  ASSERT_TRUE(p);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<int> data(24), flag(24), out(24);
    const LaunchResult r = p->launch("handoff", range1(48, 16), {bind(data), bind(flag), bind(out)},
                                     relaxedOptions(seed));
    ASSERT_TRUE(r.diagnostics.empty()) << "seed " << seed << ": " << describe(r);
    for (int g = 0; g < 3; ++g)
      for (int l = 0; l < 8; ++l) EXPECT_EQ(out[g * 8 + l], g * 100 + l + 1) << "seed " << seed;
  }
}

// A tree reduction through local memory with barrier(CLK_LOCAL_MEM_FENCE): each barrier
// drains the local stores before any work-item reads them.
TEST(MemoryModelRelaxed, LocalReductionWithBarriersIsExact) {
  const auto p = loadOpenCl(R"(
__kernel void reduce(__global const int* in, __global int* out, __local int* scratch) {
  uint lid = get_local_id(0), n = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = n / 2; s > 0; s /= 2) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
)",
                            "reduce");
  ASSERT_TRUE(p);
  std::vector<int> in(128);
  for (int k = 0; k < 128; ++k) in[k] = k * 7 % 31;
  int expected[2] = {0, 0};
  for (int k = 0; k < 128; ++k) expected[k / 64] += in[k];
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<int> out(2);
    const LaunchResult r =
        p->launch("reduce", range1(128, 64),
                  {bind(in), bind(out), ArgBinding::local(64 * sizeof(int))}, relaxedOptions(seed));
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(out[0], expected[0]) << "seed " << seed;
    EXPECT_EQ(out[1], expected[1]) << "seed " << seed;
  }
}

// Read-modify-writes are atomic and see the work-item's own earlier store: every
// work-item stores 5 to its slot, then adds 1 to it (old value 5, final 6), and adds 1
// to one shared counter (final: the work-item count).
TEST(MemoryModelRelaxed, ReadModifyWritesAreAtomicAndCoherent) {
  const auto p = loadOpenCl(R"(
__kernel void rmw(__global atomic_int* slot, __global atomic_int* counter, __global int* old) {
  uint gid = get_global_id(0);
  atomic_store_explicit(&slot[gid], 5, memory_order_relaxed, memory_scope_device);
  old[gid] = atomic_fetch_add_explicit(&slot[gid], 1, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
}
)",
                            "rmw");
  ASSERT_TRUE(p);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::vector<int> slot(64), counter(1), old(64);
    const LaunchResult r = p->launch("rmw", range1(64, 32), {bind(slot), bind(counter), bind(old)},
                                     relaxedOptions(seed));
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_EQ(counter[0], 64) << "seed " << seed;
    for (int k = 0; k < 64; ++k) {
      EXPECT_EQ(old[k], 5) << "seed " << seed << " work-item " << k;
      EXPECT_EQ(slot[k], 6) << "seed " << seed << " work-item " << k;
    }
  }
}

// A barrier publishes only the memory its flags name (OpenCL C 3.0 s6.15.8): with
// CLK_GLOBAL_MEM_FENCE the second sub-group always reads the first one's relaxed global
// stores; with CLK_LOCAL_MEM_FENCE alone nothing orders them, and for some seed a stale
// 0 is read.
TEST(MemoryModelRelaxed, BarrierPublishesTheMemoryItsFlagsName) {
  const std::string source = R"(
__kernel void publish(__global atomic_int* g, __global int* seen) {
  uint lid = get_local_id(0), lane = lid % 8;
  if (lid < 8) atomic_store_explicit(&g[lane], 1, memory_order_relaxed, memory_scope_work_group);
  barrier(FLAGS);
  if (lid >= 8)
    seen[lane] = atomic_load_explicit(&g[lane], memory_order_relaxed, memory_scope_work_group);
}
)";
  for (const bool global : {true, false}) {
    const auto p =
        loadOpenCl(std::string("#define FLAGS ") +
                       (global ? "CLK_GLOBAL_MEM_FENCE" : "CLK_LOCAL_MEM_FENCE") + "\n" + source,
                   "publish");
    ASSERT_TRUE(p);
    int stale = 0;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      std::vector<int> g(8), seen(8, -1);
      const LaunchResult r =
          p->launch("publish", range1(16, 16), {bind(g), bind(seen)}, relaxedOptions(seed));
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      for (int v : seen) {
        EXPECT_TRUE(v == 1 || (!global && v == 0)) << v;
        stale += v == 0;
      }
    }
    if (global)
      EXPECT_EQ(stale, 0);
    else
      EXPECT_GT(stale, 0) << "a local-only barrier never left a global store behind";
  }
}

}  // namespace
}  // namespace spvsim
