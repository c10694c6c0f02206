// Scripted `spvsim debug` sessions for the debugger tests: the commands go through
// debugCommand() as they would from a non-terminal stdin.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tools/cli/debug_command.h"
#include "tools/cli/options.h"

namespace spvsim::tools::testing {

struct Transcript {
  int status = -1;
  std::string text;  // everything, with each command echoed after "(spvsim) "
  // replies[0]: what the session printed before the first command; replies[k]: the
  // output of command k (errors included, since they share the stream here).
  std::vector<std::string> replies;

  const std::string& reply(size_t command) const {
    static const std::string none = "<no such command in the transcript>";
    return command < replies.size() ? replies[command] : none;
  }
};

// Runs `spvsim debug ARGS` (arguments after "debug") on `script`, one command per line.
inline Transcript debugSession(const std::vector<std::string>& args, const std::string& script) {
  std::vector<std::string> argv = {"debug"};
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandLine cl = parseCommandLine(argv);
  std::istringstream in(script);
  std::ostringstream out;
  Transcript t;
  t.status = debugCommand(cl.options, in, out, out, false);
  t.text = out.str();
  const std::string prompt = "(spvsim) ";
  std::string current;
  std::istringstream lines(t.text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prompt, 0) == 0) {
      t.replies.push_back(current);
      current.clear();
      continue;
    }
    current += line + "\n";
  }
  t.replies.push_back(current);
  return t;
}

// The kernels of testdata/debug (runfiles paths).
inline const std::vector<std::string> kBranch = {
    "testdata/debug/branch.cl", "--global", "8",     "--local",        "8",
    "--sub-group-size",         "4",        "--arg", "buffer:uint[8]", "--arg",
    "buffer:uint4[8]=range(0)"};

inline const std::vector<std::string> kLanes = {"testdata/debug/lanes.spvasm",
                                                "--global",
                                                "8",
                                                "--local",
                                                "8",
                                                "--sub-group-size",
                                                "4",
                                                "--arg",
                                                "buffer:uint[8]"};

// rotate.cl: 2 work-groups of 8 work-items, 2 sub-groups of 4 each.
inline const std::vector<std::string> kRotate = {"testdata/debug/rotate.cl",
                                                 "--global",
                                                 "16",
                                                 "--local",
                                                 "8",
                                                 "--sub-group-size",
                                                 "4",
                                                 "--arg",
                                                 "buffer:int[16]",
                                                 "--arg",
                                                 "local:32"};

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace spvsim::tools::testing

#define EXPECT_HAS(text, part)                                \
  EXPECT_TRUE(::spvsim::tools::testing::contains(text, part)) \
      << "expected: " << (part) << "\nin:\n"                  \
      << (text)
#define EXPECT_LACKS(text, part)                               \
  EXPECT_FALSE(::spvsim::tools::testing::contains(text, part)) \
      << "unexpected: " << (part) << "\nin:\n"                 \
      << (text)
