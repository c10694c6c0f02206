// Structs and unions passed by value (FuncParamAttr ByVal pointers): each call copies the
// caller's object into the callee's own private copy (src/exec/ops/control.cc), so a
// callee's changes never reach the caller. The copy is an OpCopyMemory-like copy:
// observers see one Copy access per calling lane, from the caller's object to the copy,
// and the checkers' shadows follow it. Expected values and diagnostics are worked by hand
// from the kernels (C: "the value of each argument" is assigned to the parameter).
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"
#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::compileOpenCL;
using testing::describe;

const char* kKernels = R"(
typedef struct { int a; int b[3]; } rec;
typedef union { int i; uchar c[4]; } word;

// Changes every member of its copy.
__attribute__((noinline)) int change(rec r, int k) {
  r.a = k;
  for (int j = 0; j < 3; ++j) r.b[j] = k + j;
  return r.a + r.b[2];
}

// Reads only the member its callers initialise.
__attribute__((noinline)) int first(rec r) { return r.a; }

__attribute__((noinline)) int flip(word w) {
  w.c[3] = (uchar)0x80;
  return w.i;
}

// Odd lanes call (divergent); every lane reads its own objects afterwards.
kernel void divergent(global int* out) {
  const int i = get_global_id(0);
  rec r = {i, {i, 2 * i, 3 * i}};
  word w;
  w.i = i;
  int v = 0, u = 0;
  if (i & 1) {
    v = change(r, 100 + i);
    u = flip(w);
  }
  out[4 * i] = v;
  out[4 * i + 1] = u;
  out[4 * i + 2] = r.a + r.b[0] + r.b[1] + r.b[2];
  out[4 * i + 3] = w.i;
}

// r.b is never written by the caller: `first` reads what is (no report), `change` writes
// its own copy (the caller's r.b stays unwritten), and lanes with sel[i] read r.b[1].
kernel void partly_written(global int* out, global const int* sel) {
  const int i = get_global_id(0);
  rec r;
  r.a = i;
  const int x = first(r);
  const int y = change(r, i);
  int z = 0;
  if (sel[i]) z = r.b[1];
  out[i] = x + y + z;
}
)";

std::vector<uint32_t> lanes(std::initializer_list<uint32_t> l) { return l; }

NDRange group16() {
  NDRange r;
  r.global = {16, 1, 1};
  r.local = {16, 1, 1};
  r.localGiven = true;
  return r;
}

class ByValCopies : public ::testing::TestWithParam<const char*> {
 protected:
  std::shared_ptr<Program> load() const {
    return Program::load(compileOpenCL(kKernels, GetParam()));
  }
};

// -O0 keeps every call with the caller's object passed as is; -O2 and -O3 keep the
// noinline calls, -O1 with -g the debug information beside them.
INSTANTIATE_TEST_SUITE_P(Levels, ByValCopies,
                         ::testing::Values("-O0", "-O1 -g", "-O2", "-O3", "-O0 -g"));

TEST_P(ByValCopies, CalleesChangeOnlyTheirCopies) {
  std::shared_ptr<Program> p = load();
  std::vector<int> out(64, -7);
  LaunchOptions o;
  o.subGroupSize = 8;
  LaunchResult r = p->launch("divergent", group16(), {bind(out)}, o);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int i = 0; i < 16; ++i) {
    const bool calls = i & 1;
    // change: a = k, b[2] = k + 2 with k = 100 + i; flip sets the top byte of i.
    EXPECT_EQ(out[4 * i], calls ? 2 * (100 + i) + 2 : 0) << i;
    EXPECT_EQ(out[4 * i + 1], calls ? int(0x80000000u | uint32_t(i)) : 0) << i;
    EXPECT_EQ(out[4 * i + 2], 7 * i) << i;  // the caller's r: i + i + 2i + 3i
    EXPECT_EQ(out[4 * i + 3], i) << i;
  }
}

// Each calling lane's copy is one Copy access from the caller's object to the callee's
// copy (a private region named after the parameter), of the whole object.
struct CopySeen {
  uint32_t lanes = 0;  // bit l: lane l of sub-group 0 copied
  int copies = 0;
  std::vector<std::string> problems;
};

class CopyObserver : public ExecutionObserver {
 public:
  explicit CopyObserver(CopySeen& s) : s_(s) {}
  void access(SubGroup& sg, const MemoryAccess& a) override {
    if (a.kind != AccessKind::Copy || pointerSpace(a.pointer) != Space::Private) return;
    const auto& regions = sg.wg->launch->memory->priv;
    const std::string& to = regions.at(pointerRegion(a.pointer)).name;
    if (to.rfind("by-value parameter ", 0) != 0) return;  // other copies of the kernel
    ++s_.copies;
    if (sg.id == 0) s_.lanes |= 1u << a.lane;
    const std::string& from = regions.at(pointerRegion(a.source)).name;
    const bool rec =
        to.find(" of change") != std::string::npos || to.find(" of first") != std::string::npos;
    if (a.bytes != (rec ? 16u : 4u)) s_.problems.push_back(to + ": " + std::to_string(a.bytes));
    if (pointerSpace(a.source) != Space::Private || from.rfind("by-value", 0) == 0 ||
        pointerOffset(a.source) != 0 || pointerOffset(a.pointer) != 0)
      s_.problems.push_back(to + " from " + from);
  }

 private:
  CopySeen& s_;
};

class CopyFactory : public ObserverFactory {
 public:
  explicit CopyFactory(CopySeen& s) : s_(s) {}
  bool serial() const override { return true; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<CopyObserver>(s_);
  }

 private:
  CopySeen& s_;
};

TEST_P(ByValCopies, ObserversSeeOneCopyPerCallingLane) {
  std::shared_ptr<Program> p = load();
  std::vector<int> out(64, -7);
  CopySeen seen;
  LaunchOptions o;
  o.subGroupSize = 8;
  o.observers = {std::make_shared<CopyFactory>(seen)};
  LaunchResult r = p->launch("divergent", group16(), {bind(out)}, o);
  ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_TRUE(seen.problems.empty()) << seen.problems.front();
  EXPECT_EQ(seen.copies, 16);        // 8 calling lanes, two calls each
  EXPECT_EQ(seen.lanes, 0xaau);      // sub-group 0's odd lanes
  EXPECT_EQ(out[4 * 3 + 2], 7 * 3);  // and the values of CalleesChangeOnlyTheirCopies
}

LaunchResult runPartlyWritten(Program& p, const check::Checks& checks, std::vector<int>& out,
                              std::vector<int>& sel) {
  LaunchOptions o;
  o.subGroupSize = 8;
  o.observers = check::observersFor(checks);
  return p.launch("partly_written", group16(), {bind(out), bind(sel)}, o);
}

// The copy carries which bytes are initialised: `first` reading r.a is no report, and
// the caller's r.b is still unwritten after `change` wrote its copy's.
TEST_P(ByValCopies, UninitialisedShadowsFollowTheCopy) {
  if (std::string(GetParam()) != "-O0" && std::string(GetParam()) != "-O0 -g")
    GTEST_SKIP() << "the caller's unwritten r.b is folded away above -O0";
  std::shared_ptr<Program> p = load();
  std::vector<int> out(16, -7), sel(16);
  for (int i = 0; i < 16; ++i) sel[i] = i % 4 == 1;  // lanes 1, 5 of each sub-group
  LaunchResult r = runPartlyWritten(*p, {.uninitialized = true}, out, sel);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedRead);
  EXPECT_EQ(d.subGroup, 0u);
  EXPECT_EQ(d.lanes, lanes({1, 5}));
  EXPECT_EQ(d.repeats, 1u);  // sub-group 1, lanes 1 and 5
  EXPECT_NE(d.instruction.find("OpLoad"), std::string::npos) << d.instruction;
  EXPECT_EQ(d.message.find("by-value"), std::string::npos) << d.message;        // the caller's r
  EXPECT_NE(d.message.find("byte offset 8 "), std::string::npos) << d.message;  // r.b[1]
  // The kernel went on: x = i, y = 2i + 2, and r.b[1] reads the zeroed private memory.
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], 3 * i + 2) << i;
}

// The same with value-level undefinedness: the caller's never-written r.b[1] reaching
// global memory is reported; r.a, copied to `first`, is defined.
TEST_P(ByValCopies, UndefinedShadowsFollowTheCopy) {
  if (std::string(GetParam()) != "-O0" && std::string(GetParam()) != "-O0 -g")
    GTEST_SKIP() << "the caller's unwritten r.b is folded away above -O0";
  std::shared_ptr<Program> p = load();
  std::vector<int> out(16, -7), sel(16);
  for (int i = 0; i < 16; ++i) sel[i] = i % 4 == 1;
  LaunchResult r = runPartlyWritten(*p, {.undefinedValues = true}, out, sel);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedValue);
  EXPECT_EQ(d.lanes, lanes({1, 5}));
  EXPECT_NE(d.instruction.find("OpStore"), std::string::npos) << d.instruction;
  // No lane reading nothing undefined is reported.
  std::fill(sel.begin(), sel.end(), 0);
  r = runPartlyWritten(*p, {.undefinedValues = true}, out, sel);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  r = runPartlyWritten(*p, {.uninitialized = true}, out, sel);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
}

}  // namespace
}  // namespace spvsim
