// `spvsim check` end to end: diagnostics folded over the runs, results compared across
// schedules (an error) and sub-group sizes (a warning). Kernels are OpenCL C written to a
// temporary file; expected values are worked out from the kernels by hand.
#include "tools/cli/check_command.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "spirv/error.h"
#include "tools/cli/json_value.h"
#include "tools/cli/options.h"

namespace spvsim::tools {
namespace {

struct Outcome {
  int status;
  std::string out, err;
};

const char* kKernels = R"(
// A work-group sum: race-free with sync != 0; without barriers the steps race and the
// result depends on the interleaving of the two sub-groups.
kernel void tree_sum(global const int* in, global int* out, local int* tile, int sync) {
  int l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  for (int stride = n / 2; stride > 0; stride /= 2) {
    if (sync) barrier(CLK_LOCAL_MEM_FENCE);
    if (l < stride) tile[l] += tile[l + stride];
  }
  if (l == 0) out[get_group_id(0)] = tile[0];
}
kernel void sizes(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); }
// A ballot's count inside a divergent branch: what the device's reconvergence gives.
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
kernel void side_count(global uint* out) {
  uint l = get_sub_group_local_id(), b = 0;
  if (l % 3 != 0) b = popcount(sub_group_ballot(1).x);
  out[get_global_id(0)] = b;
}
// Lanes whose input is not a multiple of 3 sum their inputs in a non-uniform reduction.
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
kernel void reduce_in_if(global const uint* in, global uint* out) {
  uint g = get_global_id(0), r = 0;
  if (in[g] % 3 != 0) r = sub_group_non_uniform_reduce_add(in[g]);
  out[g] = r;
}
// Lane g runs in[g] % 4 iterations, each counting the lanes still in the loop.
kernel void ballot_in_loop(global const uint* in, global uint* out) {
  uint g = get_global_id(0), r = 0;
  for (uint i = 0; i < in[g] % 4; ++i) r += popcount(sub_group_ballot(1).x);
  out[g] = r;
}
// The same divergent if, its reduction after the construct, over the whole sub-group.
kernel void reduce_after(global const uint* in, global uint* out) {
  uint g = get_global_id(0), v = 0;
  if (in[g] % 3 != 0) v = in[g] * 2;
  out[g] = sub_group_reduce_add(v);
}
// Reads past the end of `in` into a value nobody uses: clang -O2 deletes the load (a dead
// load has no effect it must keep), -O0 keeps it, so only the -O0 build reads out of bounds.
kernel void dead_read(global const int* in, global int* out) {
  int unused = in[get_global_id(0) + 64];
  out[get_global_id(0)] = 1;
}
// OpenCL 1.x atomics count across the whole device: race-free over many work-groups.
kernel void histogram(global const uint* in, global uint* bins) {
  atomic_inc(&bins[in[get_global_id(0)] % 4]);
}
// Each work-group's slice reversed through local memory: race-free, one result.
kernel void reverse(global const int* in, global int* out, local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - l];
}
// Atomic append of the multiples of 3: the slots' order depends on the schedule.
kernel void append(global const int* in, global int* out, global int* count) {
  int v = in[get_global_id(0)];
  if (v % 3 == 0) out[atomic_inc(count)] = v;
}
)";

Outcome check(std::vector<std::string> args) {
  const std::string path = ::testing::TempDir() + "/check_kernels.cl";
  std::ofstream(path) << kKernels;
  args.insert(args.begin(), {"check", path});
  const CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  const int status = checkCommand(cl.options, out, err);
  return {status, out.str(), err.str()};
}

std::vector<std::string> treeSum(int sync) {
  return {"--kernel", "tree_sum",
          "--global", "32",
          "--local",  "16",
          "--arg",    "buffer:int[32]=range(1)",
          "--arg",    "buffer:int[2]=zero",
          "--arg",    "local:64",
          "--arg",    "int:" + std::to_string(sync),
          "--dump"};
}

// 64 work-items over 8 work-groups, values 0..63: each residue mod 4 occurs 16 times.
TEST(Check, LegacyAtomicHistogramIsRaceFreeAtEveryLevel) {
  for (const char* level : {"-cl-std=CL1.2 -O0", "-cl-std=CL1.2 -O2", "-O3 -g"}) {
    const Outcome o = check({"--kernel", "histogram", "--global", "64", "--local", "8", "--arg",
                             "buffer:uint[64]=range(0)", "--arg", "buffer:uint[4]=zero", "--dump",
                             "--build-options", level});
    EXPECT_EQ(o.status, 0) << level << "\n" << o.err;
    EXPECT_EQ(o.err.find("insufficient-scope"), std::string::npos) << level << "\n" << o.err;
    EXPECT_NE(o.out.find("arg1 uint[4] = 16 16 16 16"), std::string::npos) << o.out;
  }
}

// A program-scope variable keeps what a launch left in it; every run of check starts
// from its initial value, so the runs agree (total is 0 + 5 in each).
TEST(Check, EveryRunStartsFromTheProgramScopeVariablesInitialValues) {
  const std::string path = ::testing::TempDir() + "/check_globals.cl";
  std::ofstream(path) << R"(
global int total = 0;
kernel void accumulate(global int* out) {
  if (get_global_id(0) == 0) { total += 5; out[0] = total; }
})";
  const CommandLine cl =
      parseCommandLine({"check", path, "--global", "4", "--arg", "buffer:int[1]=zero", "--dump",
                        "--build-options", "-cl-std=CL2.0"});
  std::ostringstream out, err;
  EXPECT_EQ(checkCommand(cl.options, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("arg0 int[1] = 5"), std::string::npos) << out.str();
  EXPECT_EQ(err.str().find("scheduling-dependent"), std::string::npos) << err.str();
}

TEST(Check, RaceFreeKernelPassesEveryRun) {
  const Outcome o = check(treeSum(1));
  EXPECT_EQ(o.status, 0) << o.err;
  // 1 + ... + 16 = 136 and 17 + ... + 32 = 392.
  EXPECT_NE(o.out.find("arg1 int[2] = 136 392"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("check: 15 runs"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("no problems found"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("error:"), std::string::npos) << o.err;
}

TEST(Check, RacyKernelIsReportedWithScheduleDependentResults) {
  const Outcome o = check(treeSum(0));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("error: data-race: "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(" of 15 runs, first: sub-group size 8, round-robin)"), std::string::npos)
      << o.err;
  // With sub-groups of 8, two sub-groups interleave differently under random schedules.
  EXPECT_NE(o.err.find("error: scheduling-dependent: at sub-group size 8 the schedules give "),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("class A (round-robin"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("problems found"), std::string::npos) << o.err;
}

TEST(Check, SubGroupSizeDependenceIsOnlyAWarning) {
  // 32 work-items in one work-group: get_sub_group_size() is 8, 16 or 32.
  const Outcome o = check(
      {"--kernel", "sizes", "--global", "32", "--local", "32", "--arg", "buffer:uint[32]=zero"});
  EXPECT_EQ(o.status, 0) << o.err;
  // Size 8 writes 8 everywhere, size 16 writes 16: all 32 elements differ.
  EXPECT_NE(o.err.find("warning: sub-group-size-dependent: class B (sub-group size 16) differs "
                       "from class A (sub-group size 8): argument 0 (uint[32]): element 0: class "
                       "A 8, class B 16 (32 of 32 elements differ)"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("class C (sub-group size 32) differs from class A"), std::string::npos)
      << o.err;
  EXPECT_EQ(o.err.find("scheduling-dependent:"), std::string::npos) << o.err;
  // Warnings only: status 0, but the last line must not claim a clean result.
  EXPECT_EQ(o.err.find("no problems found"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("check: 15 runs (sub-group sizes x (schedules + -O0 build)): no errors; 2 "
                       "warnings\n"),
            std::string::npos)
      << o.err;
}

// A kernel with a sub-group operation gets two runs per sub-group size under random
// reconvergence (seeds 1 and 2; --reconvergence random:SEED picks the first, ipdom none).
// A count of the lanes that took a side is ipdom's only there, so the results differ: a
// warning (an error with --strict) that names the ballot and its values. The ballot at
// ipdom, worked by hand: lanes l % 3 != 0 of 16 are 1,2,4,5,7,8,10,11,13,14, the mask
// 0x6db6 = 28086; seeds 1 and 2 both split that side (each run's counts differ).
std::vector<std::string> sideCount() {
  return {"--kernel", "side_count",       "--global", "16",    "--local",
          "16",       "--sub-group-size", "16",       "--arg", "buffer:uint[16]=zero"};
}

TEST(Check, ReconvergenceDependenceIsAWarningUnlessStrict) {
  std::vector<std::string> args = sideCount();
  const Outcome o = check(args);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("warning: reconvergence-dependent: at sub-group size 16 random "
                       "reconvergence gives 2 other results than ipdom's class A (round-robin, "
                       "random:1, random:2, random:3): class B (round-robin, reconvergence "
                       "random:1), class C (round-robin, reconvergence random:2); "),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("; the first sub-group operation whose result differs: `%"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find(" = OpGroupNonUniformBallot "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(" execution of it): (28086,0,0,0) at ipdom, ("), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(",0,0,0) at random:1\n"), std::string::npos) << o.err;
  EXPECT_NE(
      o.err.find("check: 7 runs (sub-group sizes x (schedules + reconvergences + -O0 build))"),
      std::string::npos)
      << o.err;
  args.push_back("--strict");
  EXPECT_EQ(check(args).status, 2);
}

TEST(Check, ReconvergenceOptionPicksTheVariants) {
  std::vector<std::string> ipdom = sideCount();
  for (const char* a : {"--reconvergence", "ipdom"}) ipdom.push_back(a);
  const Outcome plain = check(ipdom);
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err.find("reconvergence"), std::string::npos) << plain.err;
  EXPECT_NE(plain.err.find("check: 5 runs (sub-group sizes x (schedules + -O0 build))"),
            std::string::npos)
      << plain.err;
  std::vector<std::string> seeded = sideCount();
  for (const char* a : {"--reconvergence", "random:7"}) seeded.push_back(a);
  const Outcome o = check(seeded);
  EXPECT_NE(o.err.find("reconvergence random:7"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("reconvergence random:8"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("check: 7 runs"), std::string::npos) << o.err;
  // No sub-group operation: no variants unless asked for.
  EXPECT_NE(
      check(treeSum(1)).err.find("check: 15 runs (sub-group sizes x (schedules + -O0 build))"),
      std::string::npos);
}

// What the issue's examples need, each worked by hand: a non-uniform reduction in a
// divergent if and a ballot in a loop that lanes leave after different counts see only
// their group under random reconvergence (warned); a reduction after the construct, in
// uniform control flow again, sees the whole sub-group whatever happened inside (quiet).
TEST(Check, ReconvergenceWarnsInsideDivergenceAndNotAfterIt) {
  for (const char* kernel : {"reduce_in_if", "ballot_in_loop", "reduce_after"}) {
    SCOPED_TRACE(kernel);
    const Outcome o =
        check({"--kernel", kernel, "--global", "32", "--local", "32", "--sub-group-size", "16",
               "--arg", "buffer:uint[32]=range(1)", "--arg", "buffer:uint[32]=zero"});
    EXPECT_EQ(o.status, 0) << o.err;
    const bool quiet = std::string(kernel) == "reduce_after";
    EXPECT_EQ(
        o.err.find("warning: reconvergence-dependent: at sub-group size 16") == std::string::npos,
        quiet)
        << o.err;
    EXPECT_EQ(o.err.find("no problems found") != std::string::npos, quiet) << o.err;
    EXPECT_NE(o.err.find("check: 7 runs"), std::string::npos) << o.err;
  }
}

// A .cl kernel built at -O2 (the default) also runs once per size built at -O0; what only
// that build shows is reported as such and counts (exit 2). --optimized-only leaves it out,
// and so does a launch built at -O0 already.
TEST(Check, UnoptimizedBuildShowsWhatOptimisationDeleted) {
  const std::vector<std::string> base = {
      "--kernel",         "dead_read", "--global", "16",
      "--local",          "16",        "--arg",    "buffer:int[16]=zero",
      "--sub-group-size", "16",        "--arg",    "buffer:int[16]=zero"};
  const Outcome o = check(base);
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_NE(o.err.find("error: out-of-bounds: "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("(in 1 of 5 runs, first: sub-group size 16, round-robin, -O0 build; "
                       "only the -O0 build shows it: the optimised build's code no longer has "
                       "what it reports)"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("  round-robin, -O0 build  "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("not judged"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("check: 5 runs"), std::string::npos) << o.err;
  std::vector<std::string> optimizedOnly = base;
  optimizedOnly.push_back("--optimized-only");
  const Outcome quiet = check(optimizedOnly);
  EXPECT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_NE(quiet.err.find("check: 4 runs (sub-group sizes x schedules): no problems found"),
            std::string::npos)
      << quiet.err;
  std::vector<std::string> atO0 = base;
  for (const char* a : {"--build-options", "-O0"}) atO0.push_back(a);
  const Outcome o0 = check(atO0);
  EXPECT_EQ(o0.status, 2) << o0.err;
  EXPECT_NE(o0.err.find("(in 4 of 4 runs, first: sub-group size 16, round-robin)"),
            std::string::npos)
      << o0.err;
}

// OpenCL C 2.0 atomics (-cl-std=CL2.0).
const char* kPublishKernels = R"(
// Lanes 0..15 publish data then a flag with relaxed atomics; lanes 16..31 read the flag,
// then the data: flag * 100 + data. In one sub-group of 32 the writers' side of the
// branch runs first, so sequential consistency always gives 142; nothing orders the two
// sides (no barrier, no release/acquire), so stores may become visible later and in
// another order: 0, 42 and 100 are allowed too.
kernel void publish(global atomic_int* data, global atomic_int* flag, global int* seen) {
  uint l = get_local_id(0);
  if (l < 16) {
    atomic_store_explicit(&data[l], 42, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&flag[l], 1, memory_order_relaxed, memory_scope_work_group);
  } else {
    int f = atomic_load_explicit(&flag[l - 16], memory_order_relaxed, memory_scope_work_group);
    seen[l - 16] = f * 100 +
        atomic_load_explicit(&data[l - 16], memory_order_relaxed, memory_scope_work_group);
  }
}
// The same hand-off through a work-group barrier whose global fence orders the writes
// before the reads (OpenCL C 6.15.9): 142 under every memory model.
kernel void publish_barrier(global atomic_int* data, global atomic_int* flag, global int* seen) {
  uint l = get_local_id(0);
  if (l < 16) {
    atomic_store_explicit(&data[l], 42, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&flag[l], 1, memory_order_relaxed, memory_scope_work_group);
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (l >= 16) {
    int f = atomic_load_explicit(&flag[l - 16], memory_order_relaxed, memory_scope_work_group);
    seen[l - 16] = f * 100 +
        atomic_load_explicit(&data[l - 16], memory_order_relaxed, memory_scope_work_group);
  }
}
)";

// --memory-model relaxed adds 4 seeds per size (relaxed:1..4); results that differ from
// sequential consistency's are memory-model-dependent, an error. The barrier version gives
// 142 under every seed (its fence drains the writers' stores before any read).
TEST(Check, RelaxedMemoryModelDependenceIsAnError) {
  const std::string path = ::testing::TempDir() + "/publish_kernels.cl";
  std::ofstream(path) << kPublishKernels;
  auto launch = [&](const char* kernel) {
    const CommandLine cl = parseCommandLine({"check",
                                             path,
                                             "--kernel",
                                             kernel,
                                             "--global",
                                             "32",
                                             "--local",
                                             "32",
                                             "--sub-group-size",
                                             "32",
                                             "--memory-model",
                                             "relaxed",
                                             "--optimized-only",
                                             "--build-options",
                                             "-cl-std=CL2.0",
                                             "--arg",
                                             "buffer:int[16]=zero",
                                             "--arg",
                                             "buffer:int[16]=zero",
                                             "--arg",
                                             "buffer:int[16]=zero",
                                             "--dump"});
    std::ostringstream out, err;
    const int status = checkCommand(cl.options, out, err);
    return Outcome{status, out.str(), err.str()};
  };

  const Outcome racy = launch("publish");
  EXPECT_EQ(racy.status, 2) << racy.err;
  EXPECT_NE(racy.out.find("arg2 int[16] = 142 142 142"), std::string::npos) << racy.out;
  EXPECT_NE(racy.err.find("error: memory-model-dependent: at sub-group size 32 the relaxed "
                          "memory model gives "),
            std::string::npos)
      << racy.err;
  EXPECT_NE(racy.err.find("than sequential consistency's class A (round-robin, random:1, "
                          "random:2, random:3): class B (round-robin, memory model relaxed:"),
            std::string::npos)
      << racy.err;
  EXPECT_NE(racy.err.find("check: 8 runs (sub-group sizes x (schedules + relaxed memory))"),
            std::string::npos)
      << racy.err;
  const Outcome ordered = launch("publish_barrier");
  EXPECT_EQ(ordered.status, 0) << ordered.err;
  EXPECT_NE(ordered.err.find("check: 8 runs (sub-group sizes x (schedules + relaxed memory)): "
                             "no problems found"),
            std::string::npos)
      << ordered.err;
}

TEST(Check, GivenSizeAndSeedNarrowTheRuns) {
  std::vector<std::string> args = treeSum(1);
  for (const char* a : {"--sub-group-size", "16", "--schedule", "random:7"}) args.push_back(a);
  const Outcome o = check(args);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("check: 3 runs"), std::string::npos) << o.err;
}

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::vector<std::string> reverse(std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--kernel", "reverse",
                                   "--global", "16",
                                   "--local",  "8",
                                   "--arg",    "buffer:int[16]=range(0)",
                                   "--arg",    "buffer:int[16]=zero",
                                   "--arg",    "local:32"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// Two work-groups of 8 reverse 0..7 and 8..15.
constexpr const char* kReversed = "7 6 5 4 3 2 1 0 15 14 13 12 11 10 9 8";

TEST(CheckExpect, TextReferenceThatMatches) {
  const std::string ref =
      writeFile("ref_ok.txt", std::string("# by hand\n\narg1 int[16] = ") + kReversed + "\n");
  const Outcome o = check(reverse({"--expect", ref}));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err.find("expect-mismatch"), std::string::npos) << o.err;
  // Run 1's row: arg0 is compared among the runs only, arg1 with the reference too; the
  // -O0 build's runs (5, 10, 15) are not judged.
  EXPECT_NE(o.err.find("  1    8               round-robin             0       0         A      "
                       "same        matches expect\n"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("  5    8               round-robin, -O0 build  0       0         -      "
                       "not judged  not judged\n"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("no problems found"), std::string::npos) << o.err;
}

TEST(CheckExpect, MismatchNamesRunsArgumentElementAndValues) {
  const std::string ref =
      writeFile("ref_bad.txt", "arg1 int[16] = 7 6 5 4 3 2 1 0 15 14 13 12 11 10 9 9\n");
  const Outcome o = check(reverse({"--expect", ref}));
  EXPECT_EQ(o.status, 2) << o.err;
  // Every run gives the same (correct) result, so one class, one mismatch (the -O0 build's
  // runs 5, 10 and 15 are not judged).
  EXPECT_NE(o.err.find("error: expect-mismatch: runs 1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14 (class "
                       "A; first: sub-group size 8, round-robin): argument 1 (int[16]): element "
                       "15: expected 9, actual 8 (1 of 16 elements differ)\n"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("         A      same        mismatch\n"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("problems found: 1 error, 0 warnings"), std::string::npos) << o.err;
}

TEST(CheckExpect, JsonReferenceSkipsOtherKeys) {
  const std::string ref = writeFile(
      "ref.json",
      "{\"build\": {\"x\": [1, {\"y\": null}]}, \"diagnostics\": [],\n \"buffers\": {\n  \"arg1\": "
      "[7,6,5,4,3,2,1,0,15,14,13,12,11,10,9,8]}, \"check\": {\"status\": 0}}\n");
  const Outcome o = check(reverse({"--expect", ref}));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("matches expect"), std::string::npos) << o.err;
}

TEST(CheckExpect, UnorderedAppendMatchesAReferenceInAnotherOrder) {
  // 0..63: the 22 multiples of 3 (0, 3, ..., 63) are appended, the other 42 slots keep -1.
  std::string values = "arg1 int[64] =";
  for (int i = 63; i >= 0; i -= 3) values += " " + std::to_string(i);
  for (int i = 0; i < 42; ++i) values += " -1";
  const std::string ref = writeFile("append.txt", values + "\narg2 int[1] = 22\n");
  std::vector<std::string> args = {"--kernel", "append",
                                   "--global", "64",
                                   "--local",  "64",
                                   "--arg",    "buffer:int[64]=range(0)",
                                   "--arg",    "buffer:int[64]=fill(-1)",
                                   "--arg",    "buffer:int[1]=zero",
                                   "--expect", ref};
  const Outcome ordered = check(args);
  EXPECT_EQ(ordered.status, 2) << ordered.err;
  // The reference starts with 63; no schedule appends 63 first (work-items of a sub-group
  // take tickets in lane order, and 63 is the last lane of the last sub-group).
  EXPECT_NE(ordered.err.find("argument 1 (int[64]): element 0: expected 63, actual "),
            std::string::npos)
      << ordered.err;
  args.insert(args.end(), {"--unordered", "arg1"});
  const Outcome o = check(args);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("arg1 (unordered)"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("scheduling-dependent"), std::string::npos) << o.err;
}

TEST(CheckExpect, UnorderedMismatchNamesTheValueAndItsCounts) {
  std::string values = "arg1 int[64] =";
  for (int i = 0; i <= 60; i += 3) values += " " + std::to_string(i);  // 63 left out
  for (int i = 0; i < 43; ++i) values += " -1";
  const std::string ref = writeFile("append_bad.txt", values + "\n");
  const Outcome o = check({"--kernel", "append", "--global", "64", "--local", "64", "--arg",
                           "buffer:int[64]=range(0)", "--arg", "buffer:int[64]=fill(-1)", "--arg",
                           "buffer:int[1]=zero", "--expect", ref, "--unordered", "1"});
  EXPECT_EQ(o.status, 2) << o.err;
  // Values are ordered by their little-endian bytes: 63 (0x3f) comes before -1 (0xff...)
  // and is the first whose count differs: missing from the reference, once in every run.
  EXPECT_NE(o.err.find("argument 1 (int[64], unordered): value 63: expected 0 times, actual 1 "
                       "time\n"),
            std::string::npos)
      << o.err;
}

TEST(CheckIgnore, IgnoredSizeDependentBufferLeavesNothingToReport) {
  for (const char* name : {"0", "arg0"}) {
    const Outcome o = check({"--kernel", "sizes", "--global", "32", "--local", "32", "--arg",
                             "buffer:uint[32]=zero", "--ignore", name});
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.err.find("sub-group-size-dependent"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("A      ignored\n"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("no problems found"), std::string::npos) << o.err;
  }
}

TEST(CheckStrict, WarningsFailWithStrict) {
  const Outcome o = check({"--kernel", "sizes", "--global", "32", "--local", "32", "--arg",
                           "buffer:uint[32]=zero", "--strict"});
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_NE(o.err.find("no errors; 2 warnings (--strict: exit status 2)"), std::string::npos)
      << o.err;
}

TEST(CheckJson, ReportHasTheCheckObjectAndTheFindings) {
  const std::string report = ::testing::TempDir() + "/check_report.json";
  const Outcome o = check({"--kernel", "sizes", "--global", "32", "--local", "32", "--arg",
                           "buffer:uint[32]=zero", "--json", report});
  ASSERT_EQ(o.status, 0) << o.err;
  std::ifstream in(report);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const JsonValue root = parseJson(text, report);
  // The existing keys: the first run's buffers (size 8: every element 8).
  const JsonValue* arg0 = root.find("buffers")->find("arg0");
  ASSERT_NE(arg0, nullptr);
  ASSERT_EQ(arg0->items.size(), 32u);
  EXPECT_EQ(arg0->items[31].text, "8");
  const JsonValue& diagnostics = *root.find("diagnostics");
  ASSERT_EQ(diagnostics.items.size(), 2u) << text;
  EXPECT_EQ(diagnostics.items[0].find("kind")->text, "sub-group-size-dependent");
  EXPECT_EQ(diagnostics.items[0].find("severity")->text, "warning");
  const JsonValue& c = *root.find("check");
  EXPECT_EQ(c.find("status")->text, "0");
  EXPECT_EQ(c.find("warnings")->text, "2");
  EXPECT_EQ(c.find("errors")->text, "0");
  ASSERT_EQ(c.find("classes")->items.size(), 3u);
  EXPECT_EQ(c.find("classes")->items[1].find("runs")->items.size(), 4u);  // the size-16 runs
  const JsonValue& runs = *c.find("runs");
  ASSERT_EQ(runs.items.size(), 15u);
  // Per size: round-robin, random:1..3, then round-robin built at -O0 (not judged).
  const JsonValue& run5 = runs.items[4];
  EXPECT_EQ(run5.find("sub_group_size")->text, "8");
  EXPECT_EQ(run5.find("build")->text, "-O0");
  EXPECT_EQ(run5.find("class")->type, JsonValue::Type::Null);
  EXPECT_EQ(run5.find("buffers")->find("arg0")->text, "not judged");
  const JsonValue& run6 = runs.items[5];
  EXPECT_EQ(run6.find("sub_group_size")->text, "16");
  EXPECT_EQ(run6.find("schedule")->text, "round-robin");
  EXPECT_EQ(run6.find("build"), nullptr);
  EXPECT_EQ(run6.find("class")->text, "B");
  EXPECT_EQ(run6.find("buffers")->find("arg0")->text, "differs from A");
}

// Usage and input errors throw (status 1 in main) before any run.
std::string errorOf(std::vector<std::string> args) {
  try {
    check(args);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CheckErrors, BadArgumentIndices) {
  EXPECT_EQ(errorOf(reverse({"--ignore", "3"})),
            "--ignore 3: the kernel has 3 arguments (arg0..arg2)");
  EXPECT_EQ(errorOf(reverse({"--unordered", "arg2"})),
            "--unordered 2: argument 2 is 'local:32', not a buffer or image");
  EXPECT_EQ(errorOf(reverse({"--ignore", "1", "--unordered", "1"})),
            "argument 1 is given to both --ignore and --unordered");
  EXPECT_THROW(parseCommandLine({"check", "k.cl", "--global", "1", "--ignore", "out"}), Error);
  EXPECT_THROW(parseCommandLine({"run", "k.cl", "--global", "1", "--strict"}), Error);
}

TEST(CheckErrors, UnreadableOrMalformedExpectFiles) {
  EXPECT_NE(
      errorOf(reverse({"--expect", ::testing::TempDir() + "/no_such_file"})).find("no_such_file"),
      std::string::npos);
  const std::string text = writeFile("malformed.txt", "arg1 int[16] = 1 2 3\n");
  EXPECT_EQ(errorOf(reverse({"--expect", text})),
            text + ":1: arg1 has 3 elements here but 16 in the launch (int[16])");
  const std::string junk = writeFile("junk.txt", "# ok\nhello world\n");
  EXPECT_EQ(errorOf(reverse({"--expect", junk})).substr(0, junk.size() + 3), junk + ":2:");
  const std::string type = writeFile("type.txt", "arg1 float[16] = 1\n");
  EXPECT_EQ(errorOf(reverse({"--expect", type})),
            type + ":1: arg1 is 'float[16]' here but 'int[16]' in the launch");
  const std::string range = writeFile("range.txt", "\n\narg7 int[1] = 1\n");
  EXPECT_EQ(errorOf(reverse({"--expect", range})),
            range + ":3: arg7: the kernel has 3 arguments (arg0..arg2)");
  const std::string local = writeFile("local.txt", "arg2 int[8] = 1\n");
  EXPECT_EQ(errorOf(reverse({"--expect", local})),
            local + ":1: arg2 is 'local:32', not a buffer or image (only those are compared)");
  const std::string json = writeFile("bad.json", "{\"buffers\": {\n\"arg1\": [1, 2,]}}");
  EXPECT_EQ(errorOf(reverse({"--expect", json})).substr(0, json.size() + 3), json + ":2:");
  const std::string value =
      writeFile("value.json", "{\"buffers\": {\"arg1\": [\n1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,\"x\"]}}");
  EXPECT_EQ(errorOf(reverse({"--expect", value})).substr(0, value.size() + 3), value + ":2:");
  const std::string empty = writeFile("empty.json", "{\"buffers\": {}}");
  EXPECT_NE(errorOf(reverse({"--expect", empty})).find("names no argument"), std::string::npos);
}

}  // namespace
}  // namespace spvsim::tools
