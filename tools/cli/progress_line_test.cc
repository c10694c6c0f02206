#include "tools/cli/progress_line.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tools/cli/check_command.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

using std::chrono::milliseconds;

TEST(ProgressText, CountsRateAndEta) {
  // 16 of 64 groups in 2 s: 48 left at 8 groups/s is 6 s; 1e6 lane instructions in 2 s.
  EXPECT_EQ(formatProgress(16, 64, 1000000, 2.0),
            "work-groups 16/64 (25%), 5e+05 lane instructions/s, ETA 6 s");
  EXPECT_EQ(formatProgress(0, 8, 0, 0.5), "work-groups 0/8 (0%), 0 lane instructions/s, ETA ?");
  EXPECT_EQ(formatProgress(8, 8, 4000, 1.0),
            "work-groups 8/8 (100%), 4e+03 lane instructions/s, ETA 0 s");
}

TEST(ProgressChoice, QuietTerminalAndForced) {
  RunOptions o;
  EXPECT_FALSE(progressChoice(o, false));  // not a terminal: off
  auto tty = progressChoice(o, true);
  ASSERT_TRUE(tty);
  EXPECT_EQ(tty->style, ProgressLine::Style::Terminal);
  EXPECT_EQ(tty->delay, milliseconds(1000));  // only runs that last draw it
  o.progress = true;
  auto forced = progressChoice(o, false);
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->style, ProgressLine::Style::Lines);
  EXPECT_EQ(forced->delay, milliseconds(0));
  RunOptions quiet;
  quiet.quiet = true;
  EXPECT_FALSE(progressChoice(quiet, true));
}

TEST(ProgressOptions, ParsedAndExclusive) {
  const std::vector<std::string> base = {"run", "k.cl", "--global", "4"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return parseCommandLine(a).options;
  };
  EXPECT_TRUE(with({"--quiet"}).quiet);
  EXPECT_TRUE(with({"--progress"}).progress);
  EXPECT_THROW(with({"--quiet", "--progress"}), Error);
  EXPECT_THROW(parseCommandLine({"info", "k.cl", "--progress"}), Error);
}

// A terminal's line is redrawn in place and erased at the end.
TEST(ProgressLineTerminal, RedrawsAndErases) {
  LaunchCounters counters;
  std::ostringstream err;
  {
    ProgressLine line(err, ProgressLine::Style::Terminal, counters, "", milliseconds(0),
                      milliseconds(5));
    counters.groupsTotal = 10;
    for (int i = 1; i <= 10; ++i) {
      counters.groupsDone = i;
      std::this_thread::sleep_for(milliseconds(10));
    }
  }
  const std::string s = err.str();
  EXPECT_EQ(s.find('\n'), std::string::npos) << s;
  EXPECT_EQ(s.rfind("\r\033[Kprogress: work-groups ", 0), 0u) << s;
  // Each redraw shows a count no smaller than the last (which ones are drawn depends on
  // when the polling thread runs: on a loaded machine it may miss the last).
  int last = 0, draws = 0;
  for (size_t at = s.find("work-groups "); at != std::string::npos;
       at = s.find("work-groups ", at + 1), ++draws) {
    const int done = std::stoi(s.substr(at + 12));
    EXPECT_GE(done, last) << s;
    EXPECT_LE(done, 10) << s;
    last = done;
  }
  EXPECT_GE(draws, 1) << s;
  EXPECT_TRUE(s.size() >= 4 && s.substr(s.size() - 4) == "\r\033[K") << s;
}

// Nothing drawn before the delay: the line of a short run never appears.
TEST(ProgressLineTerminal, ShortRunDrawsNothing) {
  LaunchCounters counters;
  std::ostringstream err;
  {
    ProgressLine line(err, ProgressLine::Style::Terminal, counters, "", milliseconds(1000));
    counters.groupsTotal = 1;
    counters.groupsDone = 1;
  }
  EXPECT_EQ(err.str(), "");
}

std::string spinKernel() {
  const std::string path = ::testing::TempDir() + "/spin.cl";
  std::ofstream(path) << R"(
__kernel void spin(__global int* out, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += i ^ (int)get_global_id(0);
  out[get_global_id(0)] = acc;
}
)";
  return path;
}

struct Seen {
  uint64_t done, total;
};

// The "work-groups D/T" of every line of `err` that starts with `prefix`.
std::vector<Seen> progressLines(const std::string& err, const std::string& prefix) {
  std::vector<Seen> seen;
  std::istringstream in(err);
  const std::regex re(R"(work-groups (\d+)/(\d+) \((\d+)%\), [0-9.e+]+ lane instructions/s, ETA )");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::smatch m;
    EXPECT_TRUE(std::regex_search(line, m, re)) << line;
    if (!m.empty()) seen.push_back({std::stoull(m[1]), std::stoull(m[2])});
  }
  return seen;
}

void expectSane(const std::vector<Seen>& seen, uint64_t groups) {
  ASSERT_FALSE(seen.empty());
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].total, groups);
    EXPECT_LE(seen[i].done, groups);
    if (i) EXPECT_GE(seen[i].done, seen[i - 1].done);
  }
  EXPECT_EQ(seen.back().done, groups);
}

// --progress off a terminal: plain lines whose counts only grow and end at the total
// (8192 work-items in groups of 64 = 128 work-groups).
TEST(ProgressRun, ForcedLinesCountUpToTheTotal) {
  const std::vector<std::string> args = {"run",       spinKernel(), "--kernel",  "spin",
                                         "--global",  "8192",       "--local",   "64",
                                         "--threads", "1",          "--arg",     "buffer:int[8192]",
                                         "--arg",     "int:3000",   "--progress"};
  std::ostringstream out, err;
  ASSERT_EQ(runCommand(parseCommandLine(args).options, out, err), 0) << err.str();
  const auto seen = progressLines(err.str(), "progress: work-groups");
  expectSane(seen, 128);
  EXPECT_EQ(err.str().find('\r'), std::string::npos);
  // Without --progress, a stream that is not the terminal gets none.
  std::vector<std::string> plain(args.begin(), args.end() - 1);
  std::ostringstream out2, err2;
  ASSERT_EQ(runCommand(parseCommandLine(plain).options, out2, err2), 0) << err2.str();
  EXPECT_EQ(err2.str().find("progress:"), std::string::npos) << err2.str();
}

// spvsim check labels each run's lines; every run ends at its total (4 work-groups).
TEST(ProgressCheck, EachRunLabelledAndComplete) {
  const std::vector<std::string> args = {
      "check",   spinKernel(), "--kernel",         "spin", "--global", "256",
      "--local", "64",         "--sub-group-size", "16",   "--arg",    "buffer:int[256]",
      "--arg",   "int:20",     "--progress"};
  std::ostringstream out, err;
  ASSERT_EQ(checkCommand(parseCommandLine(args).options, out, err), 0) << err.str();
  // One sub-group size: round-robin, 3 random schedules and round-robin built at -O0.
  for (int run = 1; run <= 5; ++run)
    expectSane(progressLines(err.str(), "progress: run " + std::to_string(run) + "/5 ("), 4);
}

}  // namespace
// The sweep's remaining time: the average of the runs done times the runs not done (the
// current one among them); nothing before a run has ended.
TEST(ProgressLine, SweepRemainingAveragesTheRunsDone) {
  EXPECT_EQ(sweepRemaining(0.0, 0, 8), "");
  EXPECT_EQ(sweepRemaining(6.0, 3, 8), ", about 10 s left in the check");  // 2 s x 5
  EXPECT_EQ(sweepRemaining(6.0, 8, 8), "");
}

}  // namespace spvsim::tools
