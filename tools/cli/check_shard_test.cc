// spvsim check's sweeps end to end: --list and --shard partition the configurations, --results
// skips what it holds and redoes an interrupted last line, and --merge of the shards prints
// what the unsharded run prints (stdout, stderr, exit status, JUnit XML).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "spirv/error.h"
#include "tools/cli/check_command.h"
#include "tools/cli/options.h"

namespace spvsim::tools {
namespace {

struct Outcome {
  int status;
  std::string out, err;
  bool operator==(const Outcome&) const = default;
};

// tree_sum without barriers races (errors, results that depend on the schedule); sizes'
// results depend on the sub-group size only (warnings).
const char* kKernels = R"(
kernel void tree_sum(global const int* in, global int* out, local int* tile) {
  int l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  for (int stride = n / 2; stride > 0; stride /= 2)
    if (l < stride) tile[l] += tile[l + stride];
  if (l == 0) out[get_group_id(0)] = tile[0];
}
kernel void sizes(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); }
)";

std::string temp(const std::string& name) { return ::testing::TempDir() + "/shard_" + name; }

Outcome check(std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  const CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  const int status = checkCommand(cl.options, out, err);
  return {status, out.str(), err.str()};
}

std::vector<std::string> launch(const std::string& kernel) {
  const std::string path = temp("kernels.cl");
  std::ofstream(path) << kKernels;
  if (kernel == "sizes")
    return {path,       "--kernel", "sizes",
            "--global", "32",       "--local",
            "32",       "--arg",    "buffer:uint[32]=zero",
            "--dump"};
  return {path,
          "--kernel",
          "tree_sum",
          "--global",
          "32",
          "--local",
          "16",
          "--arg",
          "buffer:int[32]=range(1)",
          "--arg",
          "buffer:int[2]=zero",
          "--arg",
          "local:64",
          "--dump"};
}

std::vector<std::string> with(std::vector<std::string> args, std::vector<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string readFile(const std::string& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CheckShard, ListNamesEachConfigurationByAStableId) {
  const Outcome a = check(with(launch("sizes"), {"--list"}));
  EXPECT_EQ(a.status, 0);
  const std::vector<std::string> listed = lines(a.out);
  // Sub-group sizes 8, 16, 32 x (round-robin, random:1..3, round-robin built at -O0).
  ASSERT_EQ(listed.size(), 15u);
  EXPECT_NE(listed[0].find(" sub_group_size=8 schedule=round-robin"), std::string::npos);
  EXPECT_NE(listed[4].find(" sub_group_size=8 schedule=round-robin build=-O0"), std::string::npos);
  EXPECT_NE(listed[13].find(" sub_group_size=32 schedule=random:3"), std::string::npos);
  EXPECT_NE(listed[14].find(" sub_group_size=32 schedule=round-robin build=-O0"),
            std::string::npos);
  for (const std::string& l : listed)
    EXPECT_EQ(l.find_first_not_of("0123456789abcdef"), 16u) << l;  // 16 hex digits, a space
  EXPECT_EQ(check(with(launch("sizes"), {"--list"})).out, a.out);  // the same every run
}

TEST(CheckShard, EveryConfigurationIsInExactlyOneShard) {
  const std::vector<std::string> all = lines(check(with(launch("sizes"), {"--list"})).out);
  for (uint64_t n : {1, 2, 3, 5, 12, 13}) {
    std::vector<std::string> union_;
    for (uint64_t i = 0; i < n; ++i) {
      const std::string shard = std::to_string(i) + "/" + std::to_string(n);
      const std::vector<std::string> part =
          lines(check(with(launch("sizes"), {"--list", "--shard", shard})).out);
      std::vector<std::string> expected;  // positions congruent to i modulo n
      for (size_t k = i; k < all.size(); k += n) expected.push_back(all[k]);
      EXPECT_EQ(part, expected) << shard;
      union_.insert(union_.end(), part.begin(), part.end());
    }
    std::sort(union_.begin(), union_.end());
    std::vector<std::string> sorted = all;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(union_, sorted) << n << " shards";
  }
}

// Shards' results files, merged, against the unsharded run.
void expectMergeIsUnsharded(const std::string& kernel, uint64_t n) {
  const std::string junit = temp(kernel + "_whole.xml");
  const Outcome whole = check(with(launch(kernel), {"--junit", junit}));
  std::vector<std::string> merge = {"--merge"};
  for (uint64_t i = 0; i < n; ++i) {
    const std::string results = temp(kernel + "_" + std::to_string(i) + ".jsonl");
    std::filesystem::remove(results);
    check(with(launch(kernel),
               {"--shard", std::to_string(i) + "/" + std::to_string(n), "--results", results}));
    merge.push_back(results);
  }
  const std::string merged = temp(kernel + "_merged.xml");
  merge.insert(merge.end(), {"--junit", merged});
  EXPECT_EQ(check(merge), whole) << whole.err;
  EXPECT_EQ(readFile(merged), readFile(junit));
}

TEST(CheckShard, MergedShardsReportWhatTheUnshardedRunReports) {
  // Errors: a data race and results that differ between schedules (exit status 2).
  const Outcome racy = check(launch("tree_sum"));
  EXPECT_EQ(racy.status, 2);
  EXPECT_NE(racy.err.find("error: scheduling-dependent: "), std::string::npos) << racy.err;
  expectMergeIsUnsharded("tree_sum", 3);
  // Warnings: results that differ between sub-group sizes (exit status 0).
  const Outcome sizes = check(launch("sizes"));
  EXPECT_EQ(sizes.status, 0);
  EXPECT_NE(sizes.err.find("warning: sub-group-size-dependent: class B (sub-group size 16)"),
            std::string::npos)
      << sizes.err;
  EXPECT_NE(sizes.out.find("arg0 uint[32] = 8 8 8"), std::string::npos) << sizes.out;
  expectMergeIsUnsharded("sizes", 5);
}

TEST(CheckShard, ResultsFileSkipsTheConfigurationsItHolds) {
  const std::string results = temp("resume.jsonl");
  std::filesystem::remove(results);
  check(with(launch("sizes"), {"--shard", "0/2", "--results", results}));
  ASSERT_EQ(lines(readFile(results)).size(), 8u);  // positions 0, 2, ..., 14 of 15
  // Mark the first record so that its use shows: it claims 5 warnings of its own.
  std::string text = readFile(results);
  const size_t at = text.find("\"warnings\":0");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "\"warnings\":5");
  std::ofstream(results) << text;
  const Outcome resumed = check(with(launch("sizes"), {"--results", results}));
  EXPECT_NE(resumed.err.find("  1    8               round-robin             0       5 "),
            std::string::npos)
      << resumed.err;
  const std::vector<std::string> records = lines(readFile(results));
  ASSERT_EQ(records.size(), 15u);  // the 8 of shard 0, then the 7 of shard 1 that ran now
  EXPECT_NE(records[8].find("\"position\":1,"), std::string::npos) << records[8];
  EXPECT_NE(records[14].find("\"position\":13,"), std::string::npos) << records[14];
}

TEST(CheckShard, AnInterruptedLastLineRunsAgain) {
  const std::string results = temp("interrupted.jsonl");
  std::filesystem::remove(results);
  const Outcome first = check(with(launch("sizes"), {"--results", results}));
  const std::string complete = readFile(results);
  std::filesystem::resize_file(results, complete.size() - 30);
  const Outcome again = check(with(launch("sizes"), {"--results", results}));
  EXPECT_EQ(again.err, "warning: " + results +
                           ":15: the last line is incomplete (an interrupted run?); it is "
                           "ignored and its configuration runs again\n" +
                           first.err);
  EXPECT_EQ(readFile(results), complete);  // the line rewritten whole, nothing else added
}

DiagnosticKind errorKind(const std::vector<std::string>& args, const std::string& message) {
  try {
    check(args);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no error: " << message;
  return DiagnosticKind::Internal;
}

TEST(CheckShard, BadInputIsOneClearError) {
  EXPECT_EQ(errorKind(with(launch("sizes"), {"--shard", "3/2"}), "I must be less than N"),
            DiagnosticKind::Usage);
  EXPECT_EQ(errorKind(with(launch("sizes"), {"--shard", "0/0"}), "N must be at least 1"),
            DiagnosticKind::Usage);
  EXPECT_EQ(errorKind({"--merge"}, "--merge needs the results files"), DiagnosticKind::Usage);
  const std::string dir = temp("results_dir");
  std::filesystem::create_directories(dir);
  EXPECT_EQ(errorKind(with(launch("sizes"), {"--results", dir}), "it is a directory"),
            DiagnosticKind::Input);
  const std::string bad = temp("bad.jsonl");
  std::ofstream(bad) << "not json\n";
  EXPECT_EQ(errorKind({"--merge", bad}, bad + ":1: "), DiagnosticKind::Input);
  const std::string partial = temp("partial.jsonl");
  std::filesystem::remove(partial);
  check(with(launch("sizes"), {"--shard", "1/4", "--results", partial}));
  EXPECT_EQ(errorKind({"--merge", partial},
                      "has no record of configurations 0, 2, 3, 4, 6, 7, 8, 10, 11, 12, 14 (of 15"),
            DiagnosticKind::Input);
  EXPECT_EQ(errorKind({"--merge", partial, "--junit", partial}, "would replace the input"),
            DiagnosticKind::Usage);
}

TEST(CheckShard, FolderSweepsItsSimFilesInOrder) {
  const std::string dir = temp("sweep");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/b");
  std::ofstream(dir + "/k.cl") << kKernels;
  std::ofstream(dir + "/b/k.cl") << kKernels;
  const char* sim = "k.cl\nsizes\n32 1 1\n32 1 1\n<size=128 uint fill=0 dump>\n";
  std::ofstream(dir + "/z.sim") << sim;
  std::ofstream(dir + "/b/a.sim") << sim;
  std::filesystem::create_symlink(dir + "/z.sim", dir + "/b/link.sim");  // not followed
  const Outcome o = check({dir});
  EXPECT_EQ(o.status, 0);
  const size_t first = o.err.find("check: launch " + dir + "/b/a.sim\n");
  const size_t second = o.err.find("check: launch " + dir + "/z.sim\n");
  EXPECT_NE(first, std::string::npos) << o.err;
  EXPECT_LT(first, second) << o.err;
  EXPECT_EQ(o.err.find("link.sim"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("check: 2 launches under " + dir +
                       ": 2 without problems, 0 with problems (exit status 0)\n"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(lines(check({dir, "--list"}).out).size(), 30u);
  // Shards count positions over the whole sweep (4 does not divide 15): merged, the same.
  std::vector<std::string> merge = {"--merge"};
  for (int i = 0; i < 4; ++i) {
    const std::string results = temp("sweep_" + std::to_string(i) + ".jsonl");
    std::filesystem::remove(results);
    check({dir, "--shard", std::to_string(i) + "/4", "--results", results});
    merge.push_back(results);
  }
  EXPECT_EQ(check(merge), o);
}

TEST(CheckShard, ResumedRecordsMustBeJudgedTheSameWay) {
  const std::string results = temp("settings.jsonl");
  std::filesystem::remove(results);
  check(with(launch("sizes"), {"--shard", "0/3", "--results", results}));
  EXPECT_EQ(errorKind(with(launch("sizes"), {"--results", results, "--strict"}),
                      "judged with other --strict, --expect, --ignore or --unordered options"),
            DiagnosticKind::Usage);
}

}  // namespace
}  // namespace spvsim::tools
