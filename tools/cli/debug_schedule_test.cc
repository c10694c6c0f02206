// spvsim debug drives the launch's own scheduler: the interleaving `continue` gives
// equals `spvsim run`'s for the same schedule and seed, deadlocks get run's verdict,
// and the checkers report in the session as they do in run.
#include <gtest/gtest.h>

#include <sstream>

#include "tools/cli/debug_test_util.h"
#include "tools/cli/options.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

using testing::debugSession;

// order.cl: 4 sub-groups of 4 each append their id 4 times through an atomic counter;
// arg1 records the order the scheduler ran them in.
const std::vector<std::string> kOrder = {
    "testdata/debug/order.cl", "--global", "16",    "--local",        "16",
    "--sub-group-size",        "4",        "--arg", "buffer:uint[1]", "--arg",
    "buffer:uint[64]",         "--dump"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

struct RunOutput {
  int status = -1;
  std::string out, err;
};

// `spvsim run` on the module `spvsim debug` runs: a .cl compiled with -g -O0 (the same
// code, so the same instruction counts and random quanta).
RunOutput run(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"run", "--build-options", "-g -O0"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::ostringstream out, err;
  RunOutput r;
  r.status = runCommand(parseCommandLine(argv).options, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// The first line of `text` that contains `part` ("" when none).
std::string lineWith(const std::string& text, const std::string& part) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.find(part) != std::string::npos) return line;
  return "";
}

// The values of a dump line "arg1 uint[64] = 0 0 ...".
std::vector<int> dumped(const std::string& line) {
  std::istringstream values(line.substr(line.find('=') + 1));
  std::vector<int> out;
  for (int v; values >> v;) out.push_back(v);
  return out;
}

// Round-robin: an atomic that changes memory is no switch point (src/exec/ops/atomic.cc)
// and the kernel is shorter than a quantum, so each sub-group runs whole in its turn:
// sub-group 0 takes the first 16 slots (4 atomics of its 4 lanes), then 1, 2 and 3.
TEST(DebugSchedule, RoundRobinOrderAsWorkedByHand) {
  std::string expected = "arg1 uint[64] =";
  for (int sg = 0; sg < 4; ++sg)
    for (int slot = 0; slot < 16; ++slot) expected += " " + std::to_string(sg);
  const auto t = debugSession(kOrder, "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), expected + "\n");
  EXPECT_EQ(lineWith(run(kOrder).out, "arg1 "), expected);
}

TEST(DebugSchedule, RandomScheduleInterleavesAsRunDoes) {
  const std::string roundRobin = lineWith(run(kOrder).out, "arg1 ");
  bool differs = false;
  for (const char* seed : {"random:1", "random:2", "random:3", "random"}) {
    const auto args = with(kOrder, {"--schedule", seed});
    const std::string expected = lineWith(run(args).out, "arg1 ");
    ASSERT_FALSE(expected.empty());
    differs |= expected != roundRobin;
    // A valid order: 16 slots per sub-group, taken 4 at a time (one atomic of 4 lanes).
    const std::vector<int> order = dumped(expected);
    ASSERT_EQ(order.size(), 64u) << expected;
    std::vector<int> perSubGroup(4, 0);
    for (size_t i = 0; i < order.size(); ++i) {
      EXPECT_EQ(order[i], order[i / 4 * 4]) << seed << ": " << expected;
      ++perSubGroup.at(order[i]);
    }
    EXPECT_EQ(perSubGroup, std::vector<int>(4, 16)) << seed;

    const auto straight = debugSession(args, "continue\n");
    EXPECT_HAS(straight.text, expected + "\n") << seed;
    // Stopping at a breakpoint and stepping the sub-group whose turn it is does not
    // change the schedule.
    const auto interrupted = debugSession(args,
                                          "break order.cl:6\n"
                                          "continue\n"
                                          "continue\n"
                                          "step\n"
                                          "continue\n"
                                          "delete\n"
                                          "continue\n");
    EXPECT_HAS(interrupted.reply(2), "Breakpoint 1, order.cl:6") << seed;
    EXPECT_HAS(interrupted.text, expected + "\n") << seed;
  }
  EXPECT_TRUE(differs) << "no seed changed the order: the test shows nothing";
}

// stuck.cl: sub-group 0 spins on a flag only sub-group 1 sets, after a barrier that
// sub-group 0 never reaches.
const std::vector<std::string> kStuck = {
    "testdata/debug/stuck.cl", "--kernel", "stuck", "--global",      "8", "--local", "8",
    "--sub-group-size",        "4",        "--arg", "buffer:uint[1]"};

TEST(DebugSchedule, DeadlockIsReportedAsInRun) {
  for (const std::vector<std::string>& args : {kStuck, with(kStuck, {"--schedule", "random:7"})}) {
    const RunOutput r = run(args);
    EXPECT_EQ(r.status, 2);
    const std::string verdict = lineWith(r.err, "deadlock");
    EXPECT_HAS(verdict, "sub-group 0 spins without writing memory at");
    EXPECT_HAS(verdict, "sub-group 1 waits at the work-group barrier or collective");

    const auto t = debugSession(args, "continue\nstep\n");
    EXPECT_EQ(t.status, 2) << t.text;
    EXPECT_HAS(t.reply(1), verdict + "\n");
    EXPECT_HAS(t.reply(1), "Stopped on the error");
    EXPECT_HAS(t.reply(1), "The error is fatal: the launch ends here, as it does in `spvsim run`.");
    EXPECT_HAS(t.reply(1), "Kernel stuck stopped by a fatal error.\n");
    EXPECT_HAS(t.reply(2), "The kernel has finished; nothing is left to run");
  }
}

// handoff.cl: work-group 0 spins on flag[0], which work-group 1 sets after data[0] = 41;
// work-group 0 then writes data[1] = data[0] + 1. Two work-groups of one work-item.
const std::vector<std::string> kHandoff = {"testdata/debug/handoff.cl",
                                           "--global",
                                           "2",
                                           "--local",
                                           "1",
                                           "--arg",
                                           "buffer:int[1]",
                                           "--arg",
                                           "buffer:int[2]",
                                           "--dump"};

// OpenCL promises no progress between work-groups: by default work-group 0 spins alone.
// With two resident (--forward-progress occupancy:2) `continue` takes the launch's turns
// and the kernel ends with data = 41 42; with one resident, run's deadlock verdict.
TEST(DebugSchedule, ResidentWorkGroupsTakeTurnsAsInRun) {
  // `run` on several host threads may start work-group 1 first, and then nothing spins (a
  // schedule a device may take too); the debugger runs work-groups in linear order, as
  // `run --threads 1` does, so the verdicts to compare come from one host thread.
  const std::vector<std::string> oneThread = {"--threads", "1"};
  {
    const RunOutput r = run(with(kHandoff, oneThread));
    EXPECT_EQ(r.status, 2);
    const std::string verdict = lineWith(r.err, "deadlock");
    EXPECT_HAS(verdict, "sub-group 0 spins without writing memory at");
    const auto t = debugSession(kHandoff, "continue\n");
    EXPECT_EQ(t.status, 2) << t.text;
    EXPECT_HAS(t.reply(1), verdict + "\n");
  }
  {
    const auto args = with(kHandoff, {"--forward-progress", "occupancy:2"});
    const RunOutput r = run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_HAS(r.out, "41 42");
    const auto t = debugSession(args, "continue\n");
    EXPECT_EQ(t.status, 0) << t.text;
    EXPECT_HAS(t.reply(1), "Kernel handoff finished: all 2 work-groups ran.\n");
    EXPECT_HAS(t.reply(1), "41 42");
    // A breakpoint in work-group 1 stops while work-group 0 is resident and spinning.
    const auto b = debugSession(args, "break 12\ncontinue\ninfo workgroups\ncontinue\n");
    EXPECT_EQ(b.status, 0) << b.text;
    EXPECT_HAS(b.reply(2), "Breakpoint 1, handoff.cl:12");
    EXPECT_HAS(b.reply(2), "work-group (1,0,0) sub-group 0 at handoff.cl:12");
    EXPECT_HAS(b.reply(3), "  (0,0,0)  running: 1 sub-group");
    EXPECT_HAS(b.reply(3), "* (1,0,0)  running: 1 sub-group");
    EXPECT_HAS(b.reply(4), "Kernel handoff finished: all 2 work-groups ran.\n");
  }
  {
    const auto args = with(kHandoff, {"--forward-progress", "occupancy:1"});
    const RunOutput r = run(with(args, oneThread));
    EXPECT_EQ(r.status, 2);
    const std::string verdict = lineWith(r.err, "deadlock");
    EXPECT_HAS(verdict,
               "Under --forward-progress occupancy:1 it is the only resident work-group, and "
               "the 1 work-group not started yet cannot start before a resident one ends");
    const auto t = debugSession(args, "continue\n");
    EXPECT_EQ(t.status, 2) << t.text;
    EXPECT_HAS(t.reply(1), verdict + "\n");
    EXPECT_HAS(t.reply(1), "Kernel handoff stopped by a fatal error.\n");
  }
}

// racy: the 8 work-items (2 sub-groups) all write out[0] without synchronisation.
const std::vector<std::string> kRacy = {
    "testdata/debug/stuck.cl", "--kernel", "racy",  "--global",      "8", "--local", "8",
    "--sub-group-size",        "4",        "--arg", "buffer:uint[1]"};

TEST(DebugSchedule, RaceCheckerReportsInTheSession) {
  const auto args = with(kRacy, {"--check-races"});
  const RunOutput r = run(args);
  EXPECT_EQ(r.status, 2);
  // Run folds repeats ("(and 6 more like this)"); the session shows the first at once.
  std::string race = lineWith(r.err, "data-race");
  ASSERT_FALSE(race.empty()) << r.err;
  race = race.substr(0, race.find(" (and "));
  EXPECT_HAS(race, "error: data-race: write of 4 bytes at byte offset 0 of argument 0 (out)");

  const auto t = debugSession(args, "continue\ncontinue\n");
  EXPECT_EQ(t.status, 2) << t.text;
  EXPECT_HAS(t.reply(1), race);
  EXPECT_HAS(t.reply(1), "Stopped on the error");

  // Without the checker the same session reports nothing.
  const auto quiet = debugSession(kRacy, "continue\n");
  EXPECT_EQ(quiet.status, 0) << quiet.text;
  EXPECT_LACKS(quiet.text, "data-race");
  EXPECT_HAS(quiet.reply(1), "No diagnostics.\n");
}

// With the race checker, work-groups run one after another, as in a launch.
TEST(DebugSchedule, RaceCheckerKeepsWorkGroupsInOrder) {
  const auto t =
      debugSession({"testdata/debug/stuck.cl", "--kernel", "racy", "--global", "8", "--local", "4",
                    "--sub-group-size", "4", "--arg", "buffer:uint[1]", "--check-races"},
                   "workgroup 1\n");
  EXPECT_HAS(t.reply(1),
             "error: with --check-races work-groups run one after another: work-group (1,0,0) "
             "cannot start before work-group (0,0,0) has finished");
}

}  // namespace
}  // namespace spvsim::tools
