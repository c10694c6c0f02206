// The checkers' state counts against LaunchOptions::maxMemory (src/exec/memory_limit.h).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "spirv/error.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::range1;

// The Error's kind and message, or "no error".
template <class F>
std::pair<std::string, std::string> errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return {std::string(e.kindName()), e.what()};
  }
  return {"no error", ""};
}

TEST(CheckerLimits, RaceCheckerStateCountsAgainstTheLimit) {
  auto prog = Program::load(compileOpenCL("kernel void k(global int* a) { a[0] = 1; }"));
  std::vector<int> a(1 << 20, 0);  // 4 MiB: the checker keeps a Cell per byte
  LaunchOptions o;
  o.observers = check::observersFor({.races = true});
  o.maxMemory = 16ull << 20;
  auto [kind, message] = errorOf([&] { prog->launch("k", range1(1, 1), {bufferOf(a)}, o); });
  EXPECT_EQ(kind, "out-of-memory");
  EXPECT_NE(message.find("the race checker's state"), std::string::npos) << message;
}

}  // namespace
}  // namespace spvsim
