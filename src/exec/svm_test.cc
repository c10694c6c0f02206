// SVM in the executor: kernels dereference raw host addresses of SVM allocations passed
// as arguments or stored in SVM memory, store pointers the host can follow, and accesses
// past an allocation are reported like a buffer's.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cstring>

#include "src/exec/memory.h"
#include "src/exec/program.h"
#include "src/exec/svm_heap.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;
using testing::valueOf;

struct Node {
  Node* next;
  int v;
};

const char* kListSource = R"(
struct node { global struct node* next; int v; };
// Sums the list from `head`; each work-item walks it and writes the sum.
kernel void walk(global struct node* head, global int* out) {
  int s = 0;
  for (global struct node* n = head; n; n = n->next) s += n->v;
  out[get_global_id(0)] = s;
}
// Links nodes[0..n) in reverse order: nodes[i].next = &nodes[i - 1].
kernel void link(global struct node* nodes, int n) {
  int i = get_global_id(0);
  if (i < n) { nodes[i].next = i ? &nodes[i - 1] : 0; nodes[i].v = i * 10; }
}
// Reads p[i] for i in [0, n): past the allocation when n is too large.
kernel void readn(global int* p, global int* out, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = p[i];
}
kernel void bump(global int* p) { atomic_inc(p); }
// Through generic pointers: to_global keeps an SVM address, to_local gives NULL.
int second(int* p) { return to_global(p) ? to_global(p)[1] : -1; }
kernel void viaGeneric(global int* p, global int* out) {
  out[0] = second(p);
  out[1] = to_local((int*)p) == 0;
}
)";

const Diagnostic* find(const LaunchResult& r, const std::string& kind) {
  for (const auto& d : r.diagnostics)
    if (kindName(d.kind) == kind) return &d;
  return nullptr;
}

class Svm : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int level : {0, 2})
      progs_.push_back(Program::load(compileOpenCL(kListSource, level ? "-O2" : "-O0")));
  }
  LaunchOptions options() const {
    LaunchOptions o;
    o.svm = heap_.allocations();
    return o;
  }
  SvmHeap heap_;
  std::vector<std::shared_ptr<Program>> progs_;
};

TEST_F(Svm, HeapAddressesDecodeAsRawPointers) {
  uint8_t* p = heap_.allocate(100, 64, 0);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(svmAddressable(reinterpret_cast<uintptr_t>(p), 100));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_EQ(pointerSpace(reinterpret_cast<uintptr_t>(p)), Space::Invalid);
  uint8_t* q = heap_.allocate(1 << 20, 1 << 16, 0);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % (1 << 16), 0u);
  EXPECT_TRUE(heap_.find(q + 5));
  EXPECT_FALSE(heap_.find(p + 100));
  EXPECT_TRUE(heap_.free(p));
  EXPECT_FALSE(heap_.free(p));
}

// The host builds a list in SVM memory (nodes in two allocations); the kernel follows it.
TEST_F(Svm, KernelTraversesAListTheHostBuilt) {
  auto* a = reinterpret_cast<Node*>(heap_.allocate(3 * sizeof(Node), 16, 0));
  auto* b = reinterpret_cast<Node*>(heap_.allocate(2 * sizeof(Node), 16, 0));
  a[0] = {&b[1], 1};
  b[1] = {&a[2], 20};
  a[2] = {&b[0], 300};
  b[0] = {nullptr, 4000};
  for (auto& prog : progs_) {
    std::vector<int> out(8, -1);
    auto res = prog->launch("walk", range1(8, 4), {ArgBinding::svmPointer(&a[0]), bufferOf(out)},
                            options());
    EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
    EXPECT_EQ(out, std::vector<int>(8, 4321));
  }
}

// Pointers the kernel stores are the host's addresses.
TEST_F(Svm, PointersAKernelStoresAreHostAddresses) {
  auto* nodes = reinterpret_cast<Node*>(heap_.allocate(5 * sizeof(Node), 16, 0));
  for (auto& prog : progs_) {
    std::memset(nodes, 0xff, 5 * sizeof(Node));
    auto res = prog->launch("link", range1(8, 8), {ArgBinding::svmPointer(nodes), valueOf<int>(5)},
                            options());
    EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
    int sum = 0, count = 0;
    for (Node* n = &nodes[4]; n && count < 10; n = n->next, ++count) sum += n->v;
    EXPECT_EQ(count, 5);
    EXPECT_EQ(sum, 0 + 10 + 20 + 30 + 40);
  }
}

// An argument pointing inside an allocation; a read past its end is out of bounds of it.
TEST_F(Svm, AccessPastTheAllocationIsOutOfBounds) {
  auto* p = reinterpret_cast<int*>(heap_.allocate(6 * sizeof(int), 4, 0));
  for (int i = 0; i < 6; ++i) p[i] = i + 1;
  for (auto& prog : progs_) {
    std::vector<int> out(4, -1);
    auto res =
        prog->launch("readn", range1(4, 4),
                     {ArgBinding::svmPointer(p + 2), bufferOf(out), valueOf<int>(4)}, options());
    EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
    EXPECT_EQ(out, (std::vector<int>{3, 4, 5, 6}));
    out.assign(8, -1);
    res = prog->launch("readn", range1(8, 8),
                       {ArgBinding::svmPointer(p + 2), bufferOf(out), valueOf<int>(8)}, options());
    const Diagnostic* d = find(res, "out-of-bounds");
    ASSERT_NE(d, nullptr) << describe(res);
    EXPECT_NE(d->message.find("read of 4 bytes at byte offset 24 of SVM allocation 0x"),
              std::string::npos)
        << d->message;
    EXPECT_NE(d->message.find("(global memory, 24 bytes)"), std::string::npos) << d->message;
    EXPECT_EQ(d->lanes, (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(out, (std::vector<int>{3, 4, 5, 6, 0, 0, 0, 0}));
  }
}

// A pointer into freed memory is past the allocation below it: out of bounds of that one.
TEST_F(Svm, FreedMemoryIsPastTheAllocationBelow) {
  auto* keep = reinterpret_cast<int*>(heap_.allocate(16, 4, 0));
  auto* gone = reinterpret_cast<int*>(heap_.allocate(4096 * 4, 4, 0));
  ASSERT_TRUE(keep && gone);
  heap_.free(gone);
  for (auto& prog : progs_) {
    std::vector<int> out(1, -1);
    auto res = prog->launch("readn", range1(1, 1),
                            {ArgBinding::svmPointer(gone + 4096), bufferOf(out), valueOf<int>(1)},
                            options());
    const Diagnostic* d = find(res, "out-of-bounds");
    ASSERT_NE(d, nullptr) << describe(res);
    const uint64_t offset =
        reinterpret_cast<uint8_t*>(gone + 4096) - reinterpret_cast<uint8_t*>(keep);
    EXPECT_NE(d->message.find(fmt::format(
                  "at byte offset {} of SVM allocation 0x{:x} (global memory, 16 bytes)", offset,
                  reinterpret_cast<uintptr_t>(keep))),
              std::string::npos)
        << describe(res);
    EXPECT_EQ(out[0], 0);
  }
}

TEST_F(Svm, GenericPointersKeepSvmAddresses) {
  auto* p = reinterpret_cast<int*>(heap_.allocate(2 * sizeof(int), 4, 0));
  p[0] = 10;
  p[1] = 20;
  for (auto& prog : progs_) {
    std::vector<int> out(2, -1);
    auto res = prog->launch("viaGeneric", range1(1, 1), {ArgBinding::svmPointer(p), bufferOf(out)},
                            options());
    EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
    EXPECT_EQ(out, (std::vector<int>{20, 1}));
  }
}

TEST_F(Svm, AtomicsOnSvmMemory) {
  auto* p = reinterpret_cast<int*>(heap_.allocate(sizeof(int), 4, 0));
  for (auto& prog : progs_) {
    *p = 5;
    auto res = prog->launch("bump", range1(64, 16), {ArgBinding::svmPointer(p)}, options());
    EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
    EXPECT_EQ(*p, 69);
  }
}

// Allocations the executor could not address are refused, naming them.
TEST_F(Svm, UnaddressableAllocationsAreRefused) {
  // Bit 39 set: the saturated flag of encoded pointers (never dereferenced: refused first).
  auto* far = reinterpret_cast<uint8_t*>(uintptr_t(3) << 39);
  LaunchOptions o;
  o.svm.push_back(SvmAllocation{far, 16, "SVM allocation x"});
  std::vector<int> out(1);
  try {
    progs_[0]->launch("readn", range1(1, 1),
                      {ArgBinding::svmPointer(far), bufferOf(out), valueOf<int>(1)}, o);
    ADD_FAILURE() << "launched";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("SVM allocation x (16 bytes at 0x18000000000) lies outside"),
        std::string::npos)
        << e.what();
  }
}

// Where host ranges lie against the heap (the ICD's SVM commands check theirs so).
TEST(SvmHeapPlace, RangesAgainstTheAllocations) {
  using P = SvmHeap::Placement;
  SvmHeap heap;
  int host[4] = {};
  EXPECT_EQ(heap.place(host, sizeof host), P::Elsewhere);  // no window yet
  EXPECT_EQ(heap.place(host, UINT64_MAX), P::Stray);       // wraps
  uint8_t* a = heap.allocate(100, 4, 0);
  uint8_t* b = heap.allocate(4096, 4, 0);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(heap.place(host, sizeof host), P::Elsewhere);
  EXPECT_EQ(heap.place(a, 100), P::InBlock);
  EXPECT_EQ(heap.place(a + 99, 1), P::InBlock);
  EXPECT_EQ(heap.place(a + 100, 0), P::InBlock);  // empty, at the end
  EXPECT_EQ(heap.place(a + 50, 51), P::Stray);    // one byte past
  EXPECT_EQ(heap.place(a + 100, 1), P::Stray);    // the rest of the page
  EXPECT_EQ(heap.place(a, uint64_t(1) << 20), P::Stray);
  EXPECT_EQ(heap.place(a - 8, 16), P::Stray);  // from below the window into it
  EXPECT_EQ(heap.place(a - 8, 8), P::Elsewhere);
  EXPECT_EQ(heap.place(b, 4096), P::InBlock);
  EXPECT_EQ(heap.place(b + 4096, 0), P::InBlock);
  EXPECT_EQ(heap.place(b + 4096, 1), P::Stray);  // the guard page
  ASSERT_TRUE(heap.free(b));
  EXPECT_EQ(heap.place(b, 1), P::Stray);
  EXPECT_EQ(heap.place(b, 0), P::Stray);
  EXPECT_EQ(heap.place(a, 100), P::InBlock);
  int ran = 0;
  EXPECT_TRUE(heap.whilePlaced({{a, 100}, {host, sizeof host}}, [&] { ++ran; }));
  EXPECT_FALSE(heap.whilePlaced({{a, 100}, {b, 4}}, [&] { ++ran; }));
  EXPECT_EQ(ran, 1);
}

// A free by serial frees that allocation only, not a later one at the same base.
TEST(SvmHeapPlace, FreeBySerial) {
  SvmHeap heap;
  uint8_t* a = heap.allocate(64, 4, 0);
  ASSERT_NE(a, nullptr);
  const uint64_t first = heap.find(a)->serial;
  ASSERT_TRUE(heap.free(a, first));
  uint8_t* again = heap.allocate(64, 4, 0);
  ASSERT_EQ(again, a);  // first fit: the same base
  EXPECT_NE(heap.find(again)->serial, first);
  EXPECT_FALSE(heap.free(again, first));
  EXPECT_EQ(heap.place(again, 64), SvmHeap::Placement::InBlock);
  EXPECT_TRUE(heap.free(again, heap.find(again)->serial));
}

}  // namespace
}  // namespace spvsim
